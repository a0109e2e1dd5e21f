/* Passes of the suite (src/outputs/passes.c): the runner's -repetitions. Each pass
 * runs the selected benchmarks in a fresh random order; per benchmark (and
 * complexity N) the passes' medians give the reported value, an error from
 * the spread between passes, and two modes when they fall into two
 * clusters. docs/design.md, "Passes". */
#ifndef FB_PASSES_H
#define FB_PASSES_H

#include "base.h"
#include "result.h"

#include <stddef.h>
#include <stdint.h>

/* The order of `count` benchmarks in pass `pass` (0-based): registry order
 * when there is one pass (`passes` == 1), else a shuffle seeded by the pass
 * number, so a run's schedule is reproducible. */
FB__PRIVATE void fb__passes_order(size_t *order, size_t count, unsigned pass, unsigned passes);

/* One quantity over a series' passes: its median, smallest and largest
 * over the n passes that have a finite value (NAN each when n is 0). */
typedef struct fb__pass_range {
    size_t n;
    double median, min, max;
} fb__pass_range;

/* A user counter over a series' passes: its name, and its value as shown
 * (fb_result_counter) in each pass that has it. */
typedef struct fb__pass_counter {
    char name[FB__UCOUNTER_NAME_MAX + 1];
    fb__pass_range range;
} fb__pass_counter;

/* Summary of one benchmark's values over passes (seconds per unit). */
typedef struct fb__pass_summary {
    size_t passes;  /* values */
    double median;  /* over passes */
    double err_pct; /* between passes: the next process's expected spread around the median,
                       in % (fb__next_spread_pct) */
    double min, max;
    bool two_modes;     /* the values fall into two clusters */
    double mode[2];     /* medians of the low and the high cluster */
    size_t mode_n[2];   /* values in each */
    double mode_err[2]; /* MdAPE within each cluster, in % */
    /* Google Benchmark's aggregates over the passes (its repetitions), over
     * the passes that measured a time (no error, a time per epoch): `timed`
     * of them. over[m]: the fb__spread of each such pass's median of m that
     * measured m: elapsed per iteration (seconds), every other measure per
     * unit (median * (1 / the batch of the series' first result)); all[m]:
     * every timed pass measured m (and there is one). rate: the spread of
     * batch / the elapsed median, over the passes with a median > 0. gb_time:
     * the elapsed medians in the time unit of the series' first result as
     * Google Benchmark names it (fb__gb_unit), scaled before the spread, so
     * the aggregate rows show exactly the spread of the values they list. */
    size_t timed;
    fb__spread over[FB_MEASURE_COUNT];
    bool all[FB_MEASURE_COUNT];
    fb__spread rate;
    fb__spread gb_time;
    /* As Bencher's file reports a series of several passes: the exact
     * Callgrind count per unit of each measure, over the passes counted
     * under -valgrind (fb_result_valgrind / the batch); and each user
     * counter, in the order its name first appears (by pass, then index).
     * The counters are the stored series' own: a summary made for one
     * result without a stored series (fb__passes_sum's tmp) has none, and
     * its reader reads that result's counters. */
    fb__pass_range counted[FB_VG_MEASURE_COUNT];
    size_t n_counters;
    const fb__pass_counter *counters;
    /* A comparison's alternative: its ratio to the comparison's baseline
     * (fb_comparison_ratio, t_baseline / t_this) over the passes that
     * measured it, and the passes in which it was significantly faster or
     * slower (the interval excludes 1). Nothing (n 0) for a run. */
    fb__pass_range ratio;
    size_t faster, slower;
} fb__pass_summary;

/* Summarizes v[0..n) (sorted in place). Two modes when the largest gap
 * between consecutive sorted values splits them into two clusters of at
 * least FB__PASSES_MODE_MIN values each, the gap is at least
 * FB__PASSES_MODE_GAP (relative) and at least 4 times the spread inside
 * either cluster. */
#define FB__PASSES_MODE_MIN 2
#define FB__PASSES_MODE_GAP 0.05
FB__PRIVATE void fb__passes_summarize(double *v, size_t n, fb__pass_summary *out);
/* The aggregates over passes (timed, over, all, rate and counted above) of
 * the results rs[0..n), in pass order (scratch: n doubles). */
FB__PRIVATE void fb__passes_aggregate(const fb_result *const *rs, size_t n, double *scratch,
                                      fb__pass_summary *out);

/* A bench's results grouped over passes. The items grouped are the
 * results, then every alternative of every paired comparison (its result),
 * flattened in comparison order: item R + base(c) + a is alternative a of
 * comparison c, R the number of results. One series per kind (a result or
 * an alternative), title, name, complexity N and occurrence within its pass
 * (a benchmark that records one name twice in a pass has two series), so
 * the passes of one comparison give one series per alternative. Numbered in
 * the order they first appear: the results' series come first. O(n log n). */
typedef struct fb__pass_series {
    size_t n;                   /* series */
    size_t n_items;             /* results + alternatives */
    const fb_result **items;    /* [n_items] */
    size_t *alt_base;           /* [comparisons + 1]: comparison c's first item */
    size_t *of;                 /* [n_items]: each item's series */
    size_t *start;              /* [n + 1]: the series' members are members[start[s]..start[s+1]) */
    size_t *members;            /* item indices, by series, then pass, then index */
    fb__pass_summary *sum;      /* [n]: over the passes' medians per unit (elapsed, seconds) of the
                                   series' results that measured a time */
    fb__pass_counter *counters; /* every series' user counters, which sum[s].counters point
                                   into */
    unsigned max_passes;        /* the most results in one series */
} fb__pass_series;
FB__PRIVATE int fb__passes_series(const fb_bench *b, fb__pass_series *out);
FB__PRIVATE void fb__passes_series_free(fb__pass_series *s);

/* The series over passes, computed once and stored on the bench.
 *
 * fb__passes_finish computes b's series (above) and keeps it on b (owned by
 * b: src/handle/bench.c frees it with b, and drops it when a result or comparison
 * is added after it, so a stored series always covers every one). The
 * runner calls it once every pass's results are in and before any summary
 * or writer runs. FB_OK, or FB_ENOMEM (nothing stored).
 *
 * The writers and the summary read the stored series through the const
 * accessors below, and compute nothing. A bench with no stored series (a
 * library user's, who never runs passes) reads as one series per item, in
 * item order, each summarizing that result's own median: what the series
 * of a bench run in a single pass is. */
FB__PRIVATE int fb__passes_finish(fb_bench *b);
/* series */
FB__PRIVATE size_t fb__passes_count(const fb_bench *b);
/* the most results in one series (0 without results) */
FB__PRIVATE unsigned fb__passes_max(const fb_bench *b);
/* the series of result i, and of alternative a of comparison c */
FB__PRIVATE size_t fb__passes_of(const fb_bench *b, size_t i);
FB__PRIVATE size_t fb__passes_of_alternative(const fb_bench *b, size_t c, size_t a);
/* the results in series s, and its k-th (by pass, then item) */
FB__PRIVATE size_t fb__passes_size(const fb_bench *b, size_t s);
FB__PRIVATE const fb_result *fb__passes_result(const fb_bench *b, size_t s, size_t k);
/* whether series s is of a comparison's alternative (its results' title is
 * the comparison's) rather than of a run */
FB__PRIVATE bool fb__passes_is_alternative(const fb_bench *b, size_t s);
/* the comparison and alternative of series s's k-th result (false for a
 * run's) */
FB__PRIVATE bool fb__passes_alternative_at(const fb_bench *b, size_t s, size_t k, size_t *c,
                                           size_t *a);
/* the summary over passes of series s */
FB__PRIVATE const fb__pass_summary *fb__passes_sum(const fb_bench *b, size_t s,
                                                   fb__pass_summary *tmp);

#endif
