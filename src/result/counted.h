/* What a result counted under Valgrind's Callgrind carries (fb_result.vg,
 * docs/valgrind.md): the events read from the dumps, the counted pairs and
 * their spread, and the public accessors that read them. Part of the
 * immutable result; the counting itself is src/run/valgrind.c's. */
#ifndef FB_COUNTED_H
#define FB_COUNTED_H

#include "base.h"

/* The most counted pairs a result keeps (FB__VG_PAIRS below). */
#define FB__VG_PAIRS_MAX 5

/* The Callgrind events femtobench reads, by their names in the dump's
 * `events:` line. Ir always; the rest with --cache-sim=yes --branch-sim=yes. */
enum {
    FB__VG_IR = 0,
    FB__VG_DR,
    FB__VG_DW,
    FB__VG_I1MR,
    FB__VG_D1MR,
    FB__VG_D1MW,
    FB__VG_ILMR,
    FB__VG_DLMR,
    FB__VG_DLMW,
    FB__VG_BC,
    FB__VG_BCM,
    FB__VG_BI,
    FB__VG_BIM,
    FB__VG_EVENTS
};
/* The events' names (src/result/counted.c). */
FB__PRIVATE const char *fb__vg_event_name(int e);

/* What a result counted under Callgrind carries (fb_result.vg). */
struct fb__vg_result {
    bool cache;      /* the cache and branch simulation events were present */
    uint64_t n1, n2; /* iterations of the two counted epochs (n2 > n1) */
    unsigned have;   /* bit per FB__VG_* event found in the dumps */
    uint64_t c1[FB__VG_EVENTS], c2[FB__VG_EVENTS]; /* the epochs' totals */
    /* (c2 - c1) / (n2 - n1) per fb_vg_measure; NAN when not counted */
    double per_iter[FB_VG_MEASURE_COUNT];
    /* The counted pairs: 1 when a second epoch of n1 iterations counted the
     * same instructions as the first (the count is exact), else
     * FB__VG_PAIRS pairs whose median (by instructions) is c1, c2 above.
     * ins_lo, ins_hi: the least and most instructions per iteration of the
     * pairs (both per_iter[FB_VG_INSTRUCTIONS] when exact). wild: the spread
     * is over FB__VG_WILD_FRACTION of the median. */
    unsigned pairs;
    double ins_lo, ins_hi;
    bool wild;
    /* each pair's instructions per iteration, in the order counted */
    double pair_ins[FB__VG_PAIRS_MAX];
};

#endif
