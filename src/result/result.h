/* The immutable result of a run (src/result/result.c): its configuration by value,
 * the per-epoch samples and, filled once by the statistics, the summary. */
#ifndef FB_RESULT_H
#define FB_RESULT_H

#include "base.h"
#include "settings.h"

typedef struct fb__summary {
    double median, err_pct, min, max, mean, stddev;
    double q1, q3; /* quartiles of the same epochs as the median (type 7) */
    /* a distribution-free ~95% interval of the median: the order statistics k and
     * n-1-k of the same epochs (the sign test's normal approximation); min and max
     * under 6 epochs */
    double median_low, median_high;
} fb__summary;

/* The mean, median and sample standard deviation (n - 1) of n values
 * (fb__spread_of, src/stats/stats.c): what Google Benchmark's _mean, _median and
 * _stddev aggregate rows show. Indexed by FB__SPREAD_*; NAN when n is 0
 * (the stddev: when n < 2). */
enum { FB__SPREAD_MEAN = 0, FB__SPREAD_MEDIAN = 1, FB__SPREAD_STDDEV = 2 };
typedef struct fb__spread {
    size_t n; /* values */
    double v[3];
} fb__spread;

/* User counters (fb_counter; given through src/handle/ucounter.c): at most this
 * many a run, names at most this many bytes. The result carries them. */
#define FB__UCOUNTER_MAX 16
#define FB__UCOUNTER_NAME_MAX 48

typedef struct fb__ucounter {
    char name[FB__UCOUNTER_NAME_MAX + 1];
    double value;   /* as given */
    unsigned flags; /* FB_COUNTER_* */
    /* derived once by fb__stats_compute: the counter as shown per epoch
     * (fb__ucounter_shown at the epoch's time per call), over the used
     * epochs where it is finite */
    fb__spread epochs;
} fb__ucounter;

typedef struct fb__ucounters {
    size_t n;
    fb__ucounter c[FB__UCOUNTER_MAX];
} fb__ucounters;

struct fb_result {
    char *name;
    char *error;       /* NULL when measured */
    char *label;       /* fb_set_label (src/handle/label.c), NULL when none */
    fb__config config; /* the run's configuration (title, unit, batch, keys...) */
    int callsite;      /* FB__CALLSITE of the run */
    double clock_resolution_s;
    double clock_overhead_s;
    double empty_loop_s; /* a loop holding only the barrier, per iteration (0: unknown) */
    /* per epoch */
    size_t epochs;
    uint64_t *iterations;
    double *values[FB_MEASURE_COUNT]; /* per iteration; NULL if not measured */
    fb__mask has;
    /* which epochs the statistics use, and why a run stopped */
    unsigned char *epoch_flags; /* per epoch, FB__EPOCH_* of src/stats/disturb.h; NULL: all used */
    bool disturb_known;         /* a disturbance source was read for every epoch */
    size_t disturbed;           /* epochs during which the thread was descheduled */
    /* a group's epochs whose threads waited for a core: their time is the
     * threads' span on the CPU (FB__EPOCH_WAITED, src/run/group.h) */
    size_t waited;
    size_t used; /* epochs the statistics use (not FB__EPOCH_DROPPED) */
    /* derived once by fb__stats_compute: disturbed epochs the statistics use
     * (kept because fewer than FB__DISTURB_MIN_KEPT others remained); the
     * row is then marked as holding time spent off the CPU */
    size_t descheduled;
    size_t epochs_asked;  /* the run's `epochs` setting */
    bool epochs_explicit; /* `epochs` set by code, FEMTOBENCH_CONFIG or the runner */
    int stopped_by;       /* FB__STOP_* */
    unsigned rounds;      /* times the run lengthened its epochs after a high err% */
    double probe[2];      /* the core probe before and after the run (NAN: none) */
    bool slow_core;       /* a probe was >= FB__PROBE_SLOW: measured in a slow episode */
    unsigned remeasured;  /* times the run started again after a slow episode */
    /* derived once by fb__stats_compute (src/stats/marks.c): the median is below
     * FB__DELETED_FACTOR of the empty loop (optimized away), or within
     * FB__LOOP_RESOLUTION_FACTOR of it (at the loop's resolution); the epochs
     * are shorter than FB__RESOLVED_MULTIPLE clock resolutions */
    bool optimized_away;
    bool at_loop_resolution;
    bool unresolved;
    /* derived once by fb__stats_compute */
    fb__summary summary[FB_MEASURE_COUNT];
    uint64_t total_iterations;
    double total_s;
    /* derived once by fb__stats_compute: the rate per epoch (batch / the
     * epoch's time per call) over the used epochs with a time > 0 */
    fb__spread rate_epochs;
    /* counted under Callgrind (-valgrind; src/run/valgrind.h), else NULL */
    struct fb__vg_result *vg;
    /* user counters (fb_counter, src/handle/ucounter.h), NULL when none */
    struct fb__ucounters *ucounters;
    /* a group of threads (src/run/group.h): how many (0: a run on one thread,
     * outside a group), and each thread's median seconds per iteration over
     * the recorded epochs (NULL outside a group) */
    size_t threads;
    double *thread_median_s;
};

/* Why a run stopped recording epochs (struct fb_result's stopped_by). */
enum {
    FB__STOP_EPOCHS = 0, /* it has its epochs */
    FB__STOP_BUDGET = 1, /* the time budget (max_total_time) was spent */
    FB__STOP_CAP = 2 /* a hard cap: disturbed epochs not replaced, or the cap on explicit epochs */
};

FB__PRIVATE void fb__result_free(fb_result *r);
/* The value a file shows for counter i of r: as given; per unit of the row
 * (FB_COUNTER_PER_ITERATION: divided by the batch); per second
 * (FB_COUNTER_RATE: divided by s_per_call, the seconds one call took).
 * NAN when it cannot be computed (a rate without a time). */
FB__PRIVATE double fb__ucounter_shown(const fb_result *r, size_t i, double s_per_call);
/* The lowest and highest of the threads' medians of a group's result
 * (NAN outside a group): the spread the writers show. */
FB__PRIVATE void fb__result_thread_range(const fb_result *r, double *lo, double *hi);

#endif
