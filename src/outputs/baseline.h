/* Baselines (src/outputs/baseline.c): the results of a run as a list of records,
 * read from a femtobench JSON file (-baseline, femtobench-compare) or taken
 * from a live fb_bench, so both sides of a comparison come through one type
 * and one comparison path (src/outputs/change.c, src/outputs/report_change.c). */
#ifndef FB_BASELINE_H
#define FB_BASELINE_H

#include "base.h"
#include "ucounter.h" /* FB__UCOUNTER_LABEL_MAX */

#include <stdio.h>

/* One benchmark result. Times are seconds per unit (per iteration / batch),
 * one per recorded epoch. */
typedef struct fb__bl_record {
    char *title, *name, *unit; /* never NULL */
    char *error;               /* NULL when measured */
    double batch;
    double complexity_n; /* 0 when unset */
    unsigned pass;       /* the process it ran in: the runner's pass, or -run's run */
    size_t epochs;       /* the epochs the statistics use (not the dropped ones) */
    double *per_unit_s;  /* [epochs] */
    double median_s;     /* median of per_unit_s; NAN when none */
    double err_pct;      /* MdAPE of the epochs' times, in % (as the table's err%) */
    /* the median of the thread's CPU time per unit over the same epochs;
     * NAN when not recorded (files written before it, a custom clock,
     * manual timing) */
    double cpu_median_s;
    /* counted under Callgrind (-valgrind): exact instructions per unit, and no
     * epochs of time */
    bool counted;
    double ins_per_unit;
    /* the least and most of its counted pairs, per unit: both ins_per_unit
     * when the count was exact (docs/valgrind.md) */
    double ins_lo_per_unit, ins_hi_per_unit;
    /* user counters (fb_counter) as shown: label ("bytes/s") and value */
    size_t n_uc;
    struct fb__bl_counter *uc;
} fb__bl_record;

typedef struct fb__bl_counter {
    char label[FB__UCOUNTER_LABEL_MAX];
    double shown;
} fb__bl_counter;

/* What a comparison needs to know about where each side ran. */
typedef struct fb__bl_context {
    char version[64];      /* femtobench's */
    char cpu_model[256];   /* "unknown" when unknown */
    char compiler[128];    /* of the library */
    char build_flags[256]; /* FB_BUILD_FLAGS of the library, "unknown" */
    char build_type[64];   /* e.g. "optimized, NDEBUG"; "unknown" */
    char os[32], arch[32]; /* FB_OS_NAME, FB_ARCH_NAME; "unknown" (older files) */
    int counters;          /* 1 when some result carries a counter, else 0 */
    /* several files merged into one side (the shards of one run): what
     * they disagree on, e.g. "compiler ('a.json' 'gcc 12', 'b.json'
     * 'clang 14')"; "" when they agree, or for one file */
    char files_differ[512];
} fb__bl_context;

typedef struct fb__baseline {
    fb__bl_context ctx;
    fb__bl_record *rec;
    size_t n;
} fb__baseline;

/* Reads and fully validates a femtobench JSON file. Returns 0, or -1 with
 * the reason (without the path) in err, e.g. "truncated JSON at byte 123",
 * "benchmark 'SHA256' epoch 3: negative time". */
FB__PRIVATE int fb__baseline_load_file(const char *path, fb__baseline *out, char *err, size_t len);
/* The same for one side given as a comma-separated list of files, the
 * shards of one run (a suite split by -filter): each read as above, their
 * records merged in the list's order. A benchmark name in two files is
 * refused (never one of them picked); files that disagree about the
 * machine are merged, and out->ctx.files_differ says on what. One file
 * (no comma) is read as fb__baseline_load_file reads it, with the same
 * messages; with several, err names the file. An empty entry is refused. */
FB__PRIVATE int fb__baseline_load(const char *list, fb__baseline *out, char *err, size_t len);
/* The next file of a comma-separated list (*p: the list, NULL once it is
 * read): copies it to out ("" for an empty entry) and advances *p past it
 * and its comma. Returns 1, 0 at the end of the list, or -1 when the entry
 * does not fit in cap bytes. */
FB__PRIVATE int fb__baseline_list_next(const char **p, char *out, size_t cap);
/* The same from text in memory (the fuzz target's entry point). */
FB__PRIVATE int fb__baseline_parse(const char *text, size_t n, fb__baseline *out, char *err,
                                   size_t len);
/* The records of a live bench (through the public fb_result_* accessors)
 * and the context of this process. Returns 0 or FB_ENOMEM. */
FB__PRIVATE int fb__baseline_from_bench(const fb_bench *b, fb__baseline *out);
FB__PRIVATE void fb__baseline_free(fb__baseline *bl);
/* Moves the records of *from to the end of *to, each with pass `pass`
 * (femtobench-compare -run: one file per run). The context is the first
 * one's. FB_OK or FB_ENOMEM (then *from is left as it was). */
FB__PRIVATE int fb__baseline_append(fb__baseline *to, fb__baseline *from, unsigned pass);

/* The user counters of both sides (src/outputs/report_change_counters.c): before
 * the change table (its verdicts end the output), a table of every counter
 * of a benchmark found on both sides (by title, name and label) with its
 * change in %. Prints nothing when no counter is on both sides. */
FB__PRIVATE void fb__change_counters(FILE *f, const fb__baseline *base, const fb__baseline *now);

/* MdAPE of v[0..n) around its median, in % (copies; v is left alone); the
 * median of v[0..n) (the same; NAN when n is 0). */
FB__PRIVATE double fb__bl_err_pct(const double *v, size_t n);
FB__PRIVATE double fb__bl_median(const double *v, size_t n);
/* c->build_type: "library optimized, NDEBUG; benchmarks ..." from the
 * FB__CALLSITE-style bits of the library and the benchmarks' code (code < 0:
 * unknown, left out). */
FB__PRIVATE void fb__bl_build_type(fb__bl_context *c, int library, int code);
/* Text from a file for a message: at most 100 bytes, control characters
 * as \xNN, so that an error stays one line whatever the file holds. */
FB__PRIVATE void fb__bl_quote(char *out, size_t len, const char *s);

#endif
