/* The summary over passes (src/outputs/passes_summary.c): one benchmark's
 * values over the runner's passes (-repetitions) summarized, its median, the
 * spread between passes and two modes, and what the writers report over
 * passes (Google Benchmark's aggregates, Callgrind's counts, user counters).
 * docs/design.md, "Passes". */
#ifndef FB_PASSES_SUMMARY_H
#define FB_PASSES_SUMMARY_H

#include "base.h"
#include "result.h"

#include <stddef.h>

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
/* The range of v[0..n) (sorted in place) into out. */
FB__PRIVATE void fb__passes_summary_range(double *v, size_t n, fb__pass_range *out);

#endif
