/* The paired comparison: the scheduler that measures it (src/run/compare.c), the
 * immutable comparison with its statistics and accessors
 * (src/stats/compare_stats.c), and its markdown table (src/outputs/report_compare.c). */
#ifndef FB_COMPARE_STATS_H
#define FB_COMPARE_STATS_H

#include "base.h"
#include "report.h"
#include "result.h"

#include <stdio.h>

/* A finished comparison: immutable once built, owned by its bench. */
struct fb_comparison {
    char *title;
    size_t size;         /* alternatives, baseline included */
    size_t rounds;       /* paired rounds measured */
    size_t preempted;    /* of them left out: an epoch was preempted */
    uint64_t iterations; /* per epoch, the same for every alternative */
    double confidence;   /* of each row's interval (Bonferroni) */
    fb_result **results; /* [size]: each alternative's epochs, one per round */
    double *ratio;       /* [size] t_baseline / t_i */
    double *low, *high;  /* [size] interval on the ratio */
    size_t *tied;        /* [size] rounds where both sides read the same time */
    double *log_ratio;   /* [size * rounds] ln t_0 - ln t_i, NAN = dropped */
    char *error;         /* why no rounds were measured, or NULL */
    /* counted under Callgrind (-valgrind): no rounds; each ratio is the
     * ratio of the exact instruction counts, its interval that one point */
    bool counted;
    /* the summary: the fastest alternative against the runner-up (for two
     * alternatives, alternative 1 against the baseline is in ratio[1]) */
    size_t fastest, runner_up;
    double lead, lead_low, lead_high; /* t_runner_up / t_fastest */
};

/* ---------------------------------------------- src/stats/compare_stats.c */

/* The sign-test interval of the median of v[0..n) (sorted in place): the
 * order statistics (1-based) k and n + 1 - k for the largest k with
 * P(Bin(n, 1/2) < k) <= (1 - confidence) / 2. Returns false (and NANs) when
 * n is too small for any interval at that confidence. */
FB__PRIVATE bool fb__cmp_interval(double *v, size_t n, double confidence, double *median,
                                  double *low, double *high);
/* The smallest number of rounds that supports an interval at confidence. */
FB__PRIVATE size_t fb__cmp_min_rounds(double confidence);

/* Marks in skip[0..rounds) the rounds where some alternative's epoch had a
 * context switch (switches[i * stride + r] >= 0.5) and returns how many,
 * unless fewer than min_rounds would remain: then none (0). */
FB__PRIVATE size_t fb__cmp_preempted(const double *switches, size_t k, size_t stride, size_t rounds,
                                     size_t min_rounds, bool *skip);
/* Two alternatives that take turns going first (round r: alternative r % 2
 * first) keep as many rounds of each order: the excess of one order among
 * the rounds not yet in skip is left out, the latest first. Returns how many
 * more rounds it marked. */
FB__PRIVATE size_t fb__cmp_balance_order(bool *skip, size_t rounds);

/* A comparison of k alternatives over `rounds` rounds with all its arrays
 * allocated (results[] NULL, to be filled), or NULL when out of memory. */
FB__PRIVATE fb_comparison *fb__comparison_alloc(const char *title, size_t k, size_t rounds);
/* Fills c's ratios, intervals, log ratios and the fastest's lead from its
 * results (one epoch per round each), leaving out the rounds marked in
 * skip (NULL: none). FB_OK or FB_ENOMEM. */
FB__PRIVATE int fb__comparison_analyze(fb_comparison *c, const bool *skip);
/* A comparison counted under Callgrind: ratio[i] = ins(baseline) / ins(i)
 * per unit from the results' exact counts, low = high = ratio, the fastest
 * (fewest instructions) and its lead over the runner-up the same way. Sets
 * c->counted; FB_OK. */
FB__PRIVATE int fb__comparison_counted(fb_comparison *c);
FB__PRIVATE void fb__comparison_free(fb_comparison *c);

/* --------------------------------------------- src/outputs/report_compare.c */

/* The comparison sink of the live table (a fb__cmp_sink_fn of
 * src/handle/bench.h; ctx is a fb__table): prints the comparison's table and
 * summary, and restarts the table so the next row prints a header. */
FB__PRIVATE void fb__table_comparison_sink(void *ctx, const fb_bench *b, const fb_comparison *c);
/* The summary line(s) of c, as printed under its table. */
FB__PRIVATE void fb__comparison_summary(FILE *f, const fb_comparison *c);

#endif
