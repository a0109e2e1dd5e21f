/* Statistics of results (src/stats/stats.c) and complexity fits
 * (src/stats/complexity.c): computed once, stored, then only read. */
#ifndef FB_STATS_H
#define FB_STATS_H

#include "result.h"

/* The one ascending order of doubles (for qsort), and the median (sorts v
 * in place; NAN when n is 0): every file sorts and takes medians with these. */
FB__PRIVATE int fb__dbl_cmp(const void *a, const void *b);
FB__PRIVATE double fb__median(double *v, size_t n); /* sorts v in place */
/* Quantile p (0..1) of n sorted values, linearly interpolated between
 * neighbours (Hyndman and Fan's type 7, numpy's default); NAN when n == 0. */
FB__PRIVATE double fb__quantile_sorted(const double *sorted, size_t n, double p);
FB__PRIVATE double fb__mdape_pct(const double *v, size_t n, double median, double *scratch);
/* The spread the next value is expected to have around the median of
 * v[0..n) (positive values, e.g. a benchmark's per-process medians), in %:
 * the median absolute deviation of a new draw, 0.6745 s sqrt(1 + 1/n) with
 * s the standard deviation of the logs (normal logs: the new value's
 * distance from the center plus the center's own error), as a ratio - 1.
 * 0 for n < 2. */
FB__PRIVATE double fb__next_spread_pct(const double *v, size_t n);
/* The mean, median and sample standard deviation (n - 1) of v[0..n) into
 * out (the mean and the deviation summed in the order given; sorts v):
 * the one helper behind every stored _mean/_median/_stddev. */
FB__PRIVATE void fb__spread_of(double *v, size_t n, fb__spread *out);
/* Fills r->summary and r->total_* from the per-epoch data, and the spreads
 * over the used epochs of the rate (r->rate_epochs) and of each user
 * counter as shown per epoch (r->ucounters->c[i].epochs). */
FB__PRIVATE void fb__stats_compute(fb_result *r);

/* The complexity fit of one benchmark name over the results that carry a
 * complexity N: computed by the statistics when such a result arrives and
 * stored with the results (struct fb_bench), read by the writers. */
/* What the fit says (docs/complexity.md, "What the note says"). */
enum {
    FB__CX_MODEL = 0,         /* fits[0] fits, and is told apart from the others */
    FB__CX_NOT_SEPARATED = 1, /* the candidates fit; these points do not tell them apart */
    FB__CX_NO_FIT = 2,        /* even the best model misses the points by > 20% */
    FB__CX_FLAT = 3,          /* O(1): the time does not depend on N */
    FB__CX_UNDECIDED = 4,     /* O(1) not rejected, but the time is not flat: too few points */
    FB__CX_TWO_POINTS = 5     /* two distinct N: the lower error, a guess */
};

typedef struct fb__fit_set {
    char *name;         /* the benchmark's name, or a family's series name */
    bool family;        /* fitted over a family's series (src/stats/complexity_group.c) */
    bool stale;         /* a family fit whose series got a result since */
    unsigned family_id; /* a port family's id (fb_register_ordered), else 0 */
    int asked;          /* the model that port family asked for (FB_FIT_ASK_*), 0 none */
    size_t distinct;    /* distinct N seen */
    size_t n;           /* fits, best first (0 when distinct < 2) */
    fb_fit fits[FB_FIT_MODELS];
    /* the verdict, and the data it speaks of */
    int verdict;                                /* FB__CX_* */
    size_t candidates;                          /* the models the verdict names, simplest first: */
    const char *candidate_names[FB_FIT_MODELS]; /* (static strings) */
    double n_min, n_max, rise; /* smallest and largest N; time at n_max / time at n_min */
} fb__fit_set;
/* The models fitted to the results named `name` among results[0..n), best
 * first, at most cap of them written (fb_complexity_fit of src/handle/bench_read.c). */
FB__PRIVATE size_t fb__fit_models(const fb_result *const *results, size_t n_results,
                                  const char *name, fb_fit *fits, size_t cap);

/* A result as a point of a fit: its complexity N and its y, the median
 * time per call, or under -valgrind the exact instructions per call; false
 * when it has none (an error, no N, nothing measured). The HTML chart plots
 * exactly these. */
FB__PRIVATE bool fb__fit_point(const fb_result *r, double *n, double *y);
/* Fits `n_results` results (only those named `name`). */
FB__PRIVATE void fb__fit_compute(const fb_result *const *results, size_t n_results,
                                 const char *name, fb__fit_set *out);

/* Fit groups (src/stats/complexity_group.c; docs/complexity.md, "Families"), on
 * results rs[0..n). A result is fitted with its *group*: the results of
 * the same name, except for an instance of a family whose name has one
 * distinct N (its body set N, typically from fb_arg): those are fitted with
 * the whole *series*, the results whose names differ only in their
 * "/<arg>". fb__fit_group_first: the index of the first result of result
 * i's group (i itself when it comes first), or (size_t)-1 when result i has
 * no N. fb__fit_group: the group's fit into out (FB_OK, or FB_ENOMEM).
 * fb__fit_family_wide: whether result i is fitted with its series.
 * fb__fit_alone: whether some result with an N is fitted by its name alone
 * (the runner's -asymptote fits), not with a family. */
FB__PRIVATE size_t fb__fit_group_first(const fb_result *const *rs, size_t n, size_t i);
FB__PRIVATE bool fb__fit_family_wide(const fb_result *const *rs, size_t n, size_t i);
FB__PRIVATE int fb__fit_group(const fb_result *const *rs, size_t n, size_t i, fb__fit_set *out);
FB__PRIVATE bool fb__fit_alone(const fb_result *const *rs, size_t n);
/* The fit groups of every result of rs[0..n) at once, in O(n log n)
 * (src/stats/complexity_group.c): the same rule as the single queries above,
 * which cost O(n) to O(i * n) each, so that a writer listing every group
 * reads this table instead of asking for each result. For result i:
 * first[i] is fb__fit_group_first's answer, wide[i] fb__fit_family_wide's;
 * members[mem_at[i] .. + mem_n[i]) are the results fitted with it (those
 * fb__fit_group fits, in index order; none without an N); and, for a
 * group's first j, with_first[with_at[j] .. + with_n[j]) are the results
 * whose first is j, in index order. fb__fit_groups_build: FB_OK or
 * FB_ENOMEM (nothing to free then); fb__fit_groups_fit: fb__fit_group from
 * the table. */
typedef struct fb__fit_groups {
    size_t n;
    size_t *first;
    bool *wide;
    size_t *members, *mem_at, *mem_n;
    size_t *with_first, *with_at, *with_n;
} fb__fit_groups;
FB__PRIVATE int fb__fit_groups_build(const fb_result *const *rs, size_t n, fb__fit_groups *g);
FB__PRIVATE void fb__fit_groups_free(fb__fit_groups *g);
FB__PRIVATE int fb__fit_groups_fit(const fb__fit_groups *g, const fb_result *const *rs, size_t i,
                                   fb__fit_set *out);
/* The fit of the model s was asked for (fb_register_ordered's model), or
 * NULL (none asked, or no fit). */
FB__PRIVATE const fb_fit *fb__fit_asked(const fb__fit_set *s);
/* The length of r's name without the "/<arg>" of a family's instance, or
 * the "/threads:<n>" of a group's run without an argument: the series'
 * name is that prefix. */
FB__PRIVATE size_t fb__result_series_len(const fb_result *r);
/* The series' name of r: its port family's (fb_register_ordered), else its
 * name's first fb__result_series_len bytes; *len its length. */
FB__PRIVATE const char *fb__result_series(const fb_result *r, size_t *len);
/* Whether a and b are of one series (a port family's: the same family and
 * id; else the same series name). */
FB__PRIVATE bool fb__result_same_series(const fb_result *a, const fb_result *b);
/* An instance of a family: FB_BENCHMARK_ARGS' and the like, or a port's. */
FB__PRIVATE bool fb__result_in_family(const fb_result *r);

#endif
