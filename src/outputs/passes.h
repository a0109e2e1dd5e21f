/* Passes of the suite (src/outputs/passes.c; the summary over passes:
 * src/outputs/passes_summary.c; the stored series: passes_stored.c): the
 * runner's -repetitions. Each pass runs the selected benchmarks in a fresh
 * random order; per benchmark (and complexity N) the passes' medians give
 * the reported value, an error from the spread between passes, and two
 * modes when they fall into two clusters. docs/design.md, "Passes". */
#ifndef FB_PASSES_H
#define FB_PASSES_H

#include "base.h"
#include "passes_summary.h"
#include "result.h"

#include <stddef.h>
#include <stdint.h>

/* The order of `count` benchmarks in pass `pass` (0-based): registry order
 * when there is one pass (`passes` == 1), else a shuffle seeded by the pass
 * number, so a run's schedule is reproducible. */
FB__PRIVATE void fb__passes_order(size_t *order, size_t count, unsigned pass, unsigned passes);

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
/* Item i of a series (>= the results) as comparison *c, alternative *a:
 * by bisection of base[0..n_cmp] (each comparison's first item). */
FB__PRIVATE void fb__passes_locate(const size_t *base, size_t n_cmp, size_t i, size_t *c,
                                   size_t *a);
/* Alternative a of comparison c in one pass: its ratio to the baseline
 * (appended to scratch[*k] when finite) and whether it was significantly
 * faster or slower (counted in out). */
FB__PRIVATE void fb__passes_ratio_of(const fb_bench *b, size_t c, size_t a, double *scratch,
                                     size_t *k, fb__pass_summary *out);

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
