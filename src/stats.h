/* Statistics of results (src/stats.c) and complexity fits
 * (src/complexity.c): computed once, stored, then only read. */
#ifndef FB_STATS_H
#define FB_STATS_H

#include "result.h"

FB__PRIVATE double fb__median(double *v, size_t n); /* sorts v in place */
FB__PRIVATE double fb__mdape_pct(const double *v, size_t n, double median, double *scratch);
/* Fills r->summary and r->total_* from the per-epoch data. */
FB__PRIVATE void fb__stats_compute(fb_result *r);

/* The complexity fit of one benchmark name over the results that carry a
 * complexity N: computed by the statistics when such a result arrives and
 * stored with the results (struct fb_bench), read by the writers. */
typedef struct fb__fit_set {
    char *name;
    size_t distinct; /* distinct N seen */
    size_t n;        /* fits, best first (0 when distinct < 2) */
    fb_fit fits[FB_FIT_MODELS];
} fb__fit_set;

/* Fits `n_results` results (only those named `name`). */
FB__PRIVATE void fb__fit_compute(const fb_result *const *results, size_t n_results,
                                 const char *name, fb__fit_set *out);

#endif
