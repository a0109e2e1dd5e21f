/* The fb_bench handle itself: what src/handle/bench.h's functions read and set.
 * Seen only by the handle's own parts (src/handle/bench.c, context.c, misuse.c,
 * ucounter.c, manual.c) and by the measuring layer that fills its run state
 * (src/run/epoch.c, run.c, compare.c, group.c, setup.c); tests/test_layering.py
 * checks that no other file includes it. */
#ifndef FB_BENCH_STATE_H
#define FB_BENCH_STATE_H

#include "bench.h"
#include "manual.h"
#include "ucounter.h"

#include <stdio.h>

/* Kinds of misuse (their message's format) a run says once each and then
 * counts (src/handle/misuse.c); calls of further kinds are counted together. */
#define FB__MISUSE_SAID 8

struct fb_bench {
    /* configuration: the non-numeric part here, numeric keys by layer */
    fb__config cfg; /* cfg.num unused: keys are resolved at each run */
    fb__layer layers[FB__LAYERS];
    FILE *diag; /* diagnostics (fb_set_diagnostics) */
    fb_clock_fn clock;
    void *clock_ctx;
    double clock_resolution_s; /* of the custom clock */
    double empty_loop_s;       /* of the custom clock: injected by tests (src/stats/marks.c) */
    /* the disturbance source (src/stats/disturb.c); default: the
     * thread's involuntary context switches, none with a custom clock */
    fb__disturb_fn disturb;
    void *disturb_ctx;
    bool disturb_set;
    /* the thread's CPU clock (src/machine/clock.h); default: the system's, none
     * with a custom clock; tests inject one beside the fake clock */
    fb_clock_fn cpu_clock;
    void *cpu_clock_ctx;
    bool cpu_clock_set;
    /* the core probe (src/machine/probe.c); default: the calibration
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
    /* the measuring context in progress (src/run/epoch.c: a run or a
     * comparison), or NULL: while set, another run on b is refused */
    struct fb__epoch *epoch;
    /* (src/run/setup.c) the untimed hooks around each epoch */
    fb_op setup, teardown;
    void *setup_ctx, *teardown_ctx;
    /* results, and the complexity fits computed from them */
    fb_result **results;
    size_t n_results, cap_results;
    fb__fit_set *fits;
    size_t n_fits;
    const char *fits_dropped; /* why no fit is kept (fb__bench_drop_fits), or NULL */
    fb__change_view *change;  /* against a baseline (runner), or NULL */
    /* the series over passes (src/outputs/passes.c: fb__passes_finish), or NULL */
    struct fb__pass_series *passes;
    /* how it is freed (src/outputs/passes.c's; a pointer, so that the handle calls
     * nothing in the layer above it) */
    void (*passes_release)(struct fb__pass_series *s);
    /* sinks: sinks[0] is the live table (table points to own_table unless
     * the runner shares one) */
    fb__sink sinks[FB__MAX_SINKS];
    size_t n_sinks;
    /* the result published last was a run's (not a comparison's): counters
     * given after it may attach to it (fb__bench_late_counters) */
    bool last_was_run;
    fb__table *table;
    fb__table own_table;
    /* counters of a thread other than the process's counters thread */
    fb__perf *own_perf;
    bool own_perf_tried;
    /* comparisons (src/run/compare.c): the finished ones, their sinks
     * (cmp_sinks[0] is the live table's), and the one in progress with the
     * function that releases it (a block left with break/return/goto) */
    fb_comparison **comparisons;
    size_t n_comparisons, cap_comparisons;
    fb__cmp_sink cmp_sinks[FB__MAX_SINKS];
    size_t n_cmp_sinks;
    struct fb__cmp_state *cmp;
    void (*cmp_free)(struct fb__cmp_state *s);
    /* user counters for the next run (fb_counter, src/handle/ucounter.c), and the
     * first bad API argument not yet carried by a result (src/handle/misuse.c) */
    fb__ucounters ucounters;
    char *misuse;
    /* the label of the run in progress or the next one (src/handle/label.c) */
    char *label;
    /* the misuse lines said during this run (the first of each kind, its
     * format), how often each kind came again unsaid and whether with
     * another text (another value): a bad call in every iteration is said
     * once, then counted (src/handle/misuse.c); and the calls of kinds beyond
     * FB__MISUSE_SAID, counted unsaid */
    char misuse_said[FB__MISUSE_SAID][256];
    const char *misuse_fmt[FB__MISUSE_SAID];
    size_t misuse_repeats[FB__MISUSE_SAID];
    bool misuse_varied[FB__MISUSE_SAID];
    size_t n_misuse_said, misuse_unsaid;
    /* the run's context for the files (fb_set_context, src/handle/context.c) */
    struct fb__context *context;
    /* manual timing and excluded regions (src/handle/manual.c) */
    fb__manual manual;
    /* the group of threads b runs in (src/run/group.c; NULL: none), and b's
     * index in it (0: the leader, whose runs record the group's results) */
    struct fb__group *group;
    size_t thread_index;
};

#endif
