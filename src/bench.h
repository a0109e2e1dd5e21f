/* The fb_bench handle (src/bench.c): the configuration a run starts from,
 * the results it produced, the fits computed from them, and the sinks each
 * finished result is handed to. */
#ifndef FB_BENCH_H
#define FB_BENCH_H

#include "base.h"
#include "disturb.h"
#include "probe.h"
#include "perf.h"
#include "report.h"
#include "result.h"
#include "settings.h"
#include "stats.h"
#include "ucounter.h"
#include "manual.h"

#include <stdio.h>

/* A sink receives every finished result, after its statistics, with the
 * bench that holds it (read-only: e.g. the relative mode's baseline). */
typedef void (*fb__sink_fn)(void *ctx, const fb_bench *b, const fb_result *r);
typedef struct fb__sink {
    fb__sink_fn fn;
    void *ctx;
} fb__sink;
#define FB__MAX_SINKS 4

/* A comparison sink receives every finished comparison (src/compare.c);
 * the live table's is the first (src/report_compare.c). */
typedef void (*fb__cmp_sink_fn)(void *ctx, const fb_bench *b, const fb_comparison *c);
typedef struct fb__cmp_sink {
    fb__cmp_sink_fn fn;
    void *ctx;
} fb__cmp_sink;
/* A run against a baseline (the runner's -baseline), kept with the results
 * for the writers that draw it (the HTML report): src/change.h. */
typedef struct fb__change_view fb__change_view;
FB__PRIVATE void fb__change_view_free(fb__change_view *v);

struct fb_bench {
    /* configuration: the non-numeric part here, numeric keys by layer */
    fb__config cfg; /* cfg.num unused: keys are resolved at each run */
    fb__layer layers[FB__LAYERS];
    FILE *diag; /* diagnostics (fb_set_diagnostics) */
    fb_clock_fn clock;
    void *clock_ctx;
    double clock_resolution_s; /* of the custom clock */
    double empty_loop_s;       /* of the custom clock: injected by tests (src/marks.c) */
    /* the disturbance source (src/disturb.c); default: the
     * thread's involuntary context switches, none with a custom clock */
    fb__disturb_fn disturb;
    void *disturb_ctx;
    bool disturb_set;
    /* the core probe (src/probe.c); default: the calibration
     * kernel, none with a custom clock */
    fb__probe_fn probe;
    void *probe_ctx;
    bool probe_set;
    char *name;                          /* registered name (runner), or NULL */
    bool interrupted;                    /* endless mode ended by a signal */
    size_t dropped;                      /* runs that recorded nothing: refused or out of memory
                                          * (the runner turns them into an error) */
    struct fb__run *run;                 /* the run in progress, or NULL */
    void (*run_free)(struct fb__run *r); /* releases a run left early (return/goto) */
    /* > 0 while the library itself calls b's op, setup or teardown: an
     * fb_bench_free from there is refused (the caller still uses b) */
    int in_call;
    /* the measuring context in progress (src/epoch.c: a run or a
     * comparison), or NULL: while set, another run on b is refused */
    struct fb__epoch *epoch;
    /* (src/setup.c) the untimed hooks around each epoch */
    fb_op setup, teardown;
    void *setup_ctx, *teardown_ctx;
    /* results, and the complexity fits computed from them */
    fb_result **results;
    size_t n_results, cap_results;
    fb__fit_set *fits;
    size_t n_fits;
    fb__change_view *change; /* against a baseline (runner), or NULL */
    /* the series over passes (src/passes.c: fb__passes_finish), or NULL */
    struct fb__pass_series *passes;
    /* sinks: sinks[0] is the live table (table points to own_table unless
     * the runner shares one) */
    fb__sink sinks[FB__MAX_SINKS];
    size_t n_sinks;
    fb__table *table;
    fb__table own_table;
    /* counters of a thread other than the process's counters thread */
    fb__perf *own_perf;
    bool own_perf_tried;
    /* comparisons (src/compare.c): the finished ones, their sinks
     * (cmp_sinks[0] is the live table's), and the one in progress with the
     * function that releases it (a block left with break/return/goto) */
    fb_comparison **comparisons;
    size_t n_comparisons, cap_comparisons;
    fb__cmp_sink cmp_sinks[FB__MAX_SINKS];
    size_t n_cmp_sinks;
    struct fb__cmp_state *cmp;
    void (*cmp_free)(struct fb__cmp_state *s);
    /* user counters for the next run (fb_counter, src/ucounter.c), and the
     * first bad API argument not yet carried by a result (src/misuse.c) */
    fb__ucounters ucounters;
    char *misuse;
    /* the run's context for the files (fb_set_context, src/context.c) */
    struct fb__context *context;
    /* manual timing and excluded regions (src/manual.c) */
    fb__manual manual;
    /* the group of threads b runs in (src/group.c; NULL: none), and b's
     * index in it (0: the leader, whose runs record the group's results) */
    struct fb__group *group;
    size_t thread_index;
};

/* Injects the disturbance source of b's runs (NULL: none); tests use it to
 * declare epochs disturbed under the fake clock. In src/disturb.c. */
FB__PRIVATE void fb__bench_set_disturbance(fb_bench *b, fb__disturb_fn fn, void *ctx);

/* Under a custom clock, the cost per iteration of a loop holding only the
 * barrier, as a test declares it (0: unknown, no optimized-away mark). In
 * src/marks.c. */
FB__PRIVATE void fb__bench_set_empty_loop(fb_bench *b, double seconds);
/* Injects the core probe of b's runs (NULL: none). In src/probe.c. */
FB__PRIVATE void fb__bench_set_probe(fb_bench *b, fb__probe_fn fn, void *ctx);

/* The value of key k for the next run (all layers). */
FB__PRIVATE double fb__cfg(const fb_bench *b, fb__key k);
FB__PRIVATE void fb__cfg_set(fb_bench *b, int layer, fb__key k, double v);
/* The configuration of a run starting now, by value (FB_OK or FB_ENOMEM). */
FB__PRIVATE int fb__bench_config(const fb_bench *b, fb__config *out);
/* Shares t as b's live table (the runner's one table for all benches). */
FB__PRIVATE void fb__bench_share_table(fb_bench *b, fb__table *t);
/* Adds a sink after the live table; FB_OK, or FB_ENOMEM when full. */
FB__PRIVATE int fb__bench_add_sink(fb_bench *b, fb__sink_fn fn, void *ctx);

/* Before a run: resolves the process facts (clock, machine report, first
 * diagnostics) and returns the counters for this thread (NULL: off). */
FB__PRIVATE fb__perf *fb__bench_prepare(fb_bench *b, int callsite);
/* A diagnostic line on b's diagnostics stream ("femtobench: " prefixed). */
FB__PRIVATE void fb__bench_diag(const fb_bench *b, const char *fmt, ...) FB__PRINTF(2, 3);

/* The end of a run: stores r (owned by b from now on), computes its
 * statistics and complexity fit, and hands it to every sink. FB_OK, or
 * FB_ENOMEM (r is then freed). */
FB__PRIVATE int fb__bench_publish(fb_bench *b, fb_result *r);
/* Stores r (its statistics already computed) and refits its name; no sinks.
 * FB_ENOMEM when r could not be stored, or its fit not computed. */
FB__PRIVATE int fb__bench_add_result(fb_bench *b, fb_result *r);
/* Moves all results of src to the end of dst, refitting dst (the runner's
 * suite record). */
FB__PRIVATE int fb__bench_take_results(fb_bench *dst, fb_bench *src);
/* Publishes an error result named name with message msg and b's current
 * configuration (src/error_row.c): how the runner reports a benchmark that
 * measured nothing, or a child that crashed. FB_OK or FB_ENOMEM. */
FB__PRIVATE int fb__bench_error_row(fb_bench *b, const char *name, const char *msg);
/* Comparisons (src/compare.c): adds a comparison sink after the live
 * table's (FB_OK, or FB_ENOMEM when full); stores c (owned by b from now
 * on) and hands it to every comparison sink (FB_ENOMEM: c is freed); moves
 * all comparisons of src to the end of dst (the runner's suite record). */
FB__PRIVATE int fb__bench_add_comparison_sink(fb_bench *b, fb__cmp_sink_fn fn, void *ctx);
FB__PRIVATE int fb__bench_publish_comparison(fb_bench *b, fb_comparison *c);
FB__PRIVATE int fb__bench_take_comparisons(fb_bench *dst, fb_bench *src);
/* The stored fit of `name`, or NULL. */
FB__PRIVATE const fb__fit_set *fb__bench_fit(const fb_bench *b, const char *name);

#endif
