/* A comparison's state, shared by the three files of a comparison:
 *   src/run/compare_schedule.c  the schedule: the alternatives' check, the
 *                           calibration of the shared iteration count, the
 *                           rounds in Latin squares, Callgrind's counted
 *                           schedules, and what each epoch's record is;
 *   src/run/compare_publish.c   the finished comparison as an immutable
 *                           fb_comparison, published to the bench's sinks;
 *   src/run/compare.c           the loop protocol FB_COMPARE and fb_compare
 *                           drive, each epoch through the epoch routine
 *                           (src/run/epoch.c).
 * docs/compare.md explains every rule and default. */
#ifndef FB_COMPARE_STATE_H
#define FB_COMPARE_STATE_H

#include "base.h"
#include "compare_stats.h"
#include "epoch.h"

#include <stdint.h>

enum {
    FB__CMP_DISCOVER,
    FB__CMP_WARMUP,
    FB__CMP_CALIBRATE,
    FB__CMP_MEASURE,
    FB__CMP_COUNT, /* under Callgrind (FEMTOBENCH_VALGRIND): counted, not timed */
    FB__CMP_DONE
};

struct fb__cmp_state {
    fb__epoch ep; /* everything around an epoch (src/run/epoch.c); ep.name: the title */
    /* alternatives, from the first pass */
    size_t k, cap;
    char **names;
    bool bad;      /* bad input: nothing is measured or recorded */
    size_t failed; /* the alternative that could not be measured, or k */
    char *fail_msg;
    fb__mask perf_lost; /* counters unknown in some measured epoch */
    double target_s, budget_s, confidence;
    uint64_t min_iters, exact_iters, warmup;
    fb_rng rng;
    /* schedule */
    int phase;
    bool started;
    size_t pass_pos;  /* FB_ALTERNATIVEs met in this pass */
    bool ran;         /* an epoch ran in this pass */
    bool timing;      /* inside an epoch */
    size_t cur;       /* alternative of the coming epoch */
    uint64_t n;       /* its iterations */
    double *per_iter; /* calibration: seconds per iteration of each */
    bool confirming;  /* calibration: the epoch repeats a close-enough one */
    double first_s;   /* that one's time */
    uint64_t shared;
    size_t rounds_max, rounds_min, round, pos;
    bool whole_blocks; /* rounds in whole blocks of k (a complete Latin square) */
    size_t *perm;
    double spent_s;
    /* per alternative and round: [alt * rounds_max + round] */
    uint64_t *ticks_ns;
    double *counts[FB_MEASURE_COUNT];
    unsigned char *disturbed; /* the epoch routine's disturbance flag */
    /* counted under Callgrind: each alternative's counted schedule in turn
     * (src/run/valgrind.c), its counts (or error) kept in counted[i] */
    bool counted;
    fb_result **counted_res;
};

/* src/run/compare_schedule.c: closes the comparison's epoch context and frees
 * the state; stops the comparison because alternative alt (k: none in
 * particular) failed; bad input (an error line, nothing recorded); the
 * setup after the first pass; one epoch of s->cur ended. */
FB__PRIVATE void fb__cmp_state_free(struct fb__cmp_state *s);
FB__PRIVATE void fb__cmp_fail(struct fb__cmp_state *s, size_t alt, const char *msg);
FB__PRIVATE void fb__cmp_bad(struct fb__cmp_state *s, const char *what, const char *name);
FB__PRIVATE void fb__cmp_setup(struct fb__cmp_state *s);
FB__PRIVATE void fb__cmp_advance(struct fb__cmp_state *s, const fb__epoch_out *o);
/* src/run/compare_publish.c: the block ended; build the comparison and publish
 * it. */
FB__PRIVATE void fb__cmp_finish(fb__cmp *cmp);

#endif
