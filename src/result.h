/* The immutable result of a run (src/result.c): its configuration by value,
 * the per-epoch samples and, filled once by the statistics, the summary. */
#ifndef FB_RESULT_H
#define FB_RESULT_H

#include "base.h"
#include "settings.h"

typedef struct fb__summary {
    double median, err_pct, min, max, mean, stddev;
} fb__summary;

struct fb_result {
    char *name;
    char *error;       /* NULL when measured */
    fb__config config; /* the run's configuration (title, unit, batch, keys...) */
    int callsite;      /* FB__CALLSITE of the run */
    double clock_resolution_s;
    double clock_overhead_s;
    /* per epoch */
    size_t epochs;
    uint64_t *iterations;
    double *values[FB_MEASURE_COUNT]; /* per iteration; NULL if not measured */
    fb__mask has;
    /* derived once by fb__stats_compute */
    fb__summary summary[FB_MEASURE_COUNT];
    uint64_t total_iterations;
    double total_s;
};

FB__PRIVATE void fb__result_free(fb_result *r);

#endif
