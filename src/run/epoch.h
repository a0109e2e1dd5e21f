/* The one epoch routine (src/run/epoch.c): what every kind of run does around
 * the code it times. FB_RUN and fb_run (src/run/run.c), FB_COMPARE and
 * fb_compare (src/run/compare.c), a family's instances, each pass of
 * -repetitions and each -isolate child all measure through it; run.c and
 * compare.c keep only their schedules (how many epochs of which op, with how
 * many iterations).
 *
 * It owns, for one measuring context (a run, or a comparison):
 *   - the refusal of a nested run or comparison on the same bench, said once
 *     and counted;
 *   - the configuration the context started from, the clock and its
 *     resolution, the performance counters, the disturbance source and the
 *     core probe (injected, else the defaults of src/stats/disturb.c and
 *     src/machine/probe.c; none of the last two under a custom clock);
 *   - each epoch: manual timing's and excluded regions' reset, setup,
 *     disturbance read, counters, the clock reads, Callgrind's collection
 *     switched on and off (src/run/valgrind.c), then the counters, the
 *     disturbance read and the teardown again, and the epoch's time made
 *     the one manual timing gave or the clock's less the excluded regions
 *     (src/handle/manual.c), in that order;
 *   - the probe before the first epoch and after the last, and the decision
 *     to measure a run again after a slow episode of the core;
 *   - the epoch hook (src/platform/epoch_hook.h), with no effect when none is
 *     installed. */
#ifndef FB_EPOCH_H
#define FB_EPOCH_H

#include "base.h"
#include "bench.h"
#include "clock.h"
#include "disturb.h"
#include "epoch_hook.h"
#include "perf.h"
#include "probe.h"
#include "settings.h"
#include "valgrind.h"

#include <stdint.h>

typedef struct fb__epoch {
    fb_bench *b;
    char *name; /* the run's row name, or the comparison's title */
    int callsite;
    int shape;         /* FB__SHAPE_*: the loop the counters calibrate against */
    fb__config config; /* the bench's configuration when the context opened */
    fb_clock_fn clock;
    void *clock_ctx;
    fb__clock_info clock_info;
    fb__perf *perf; /* NULL: counters off */
    fb__mask perf_mask;
    /* the thread's CPU clock (src/machine/clock.h), read right outside the two
     * clock reads; NULL: none (a custom clock, unless tests inject one).
     * cpu_mask is FB__BIT(FB_CPUTIME) when it is read, else 0 */
    fb_clock_fn cpu;
    void *cpu_ctx;
    fb__mask cpu_mask;
    uint64_t cpu0_ns;       /* the CPU clock at the start of the epoch in progress */
    fb__disturb_fn disturb; /* NULL: none */
    void *disturb_ctx;
    uint64_t disturb_before;
    /* the default source's voluntary context switches (its ctx): the
     * latest read, and the one before the epoch in progress */
    uint64_t voluntary, voluntary_before;
    bool disturb_known; /* every epoch's source could be read */
    fb__probe_fn probe; /* NULL: none */
    void *probe_ctx;
    double probe_before, probe_after; /* NAN when not probed */
    bool probed;                      /* probe_before was taken */
    /* the clock's own steps over every epoch since fb__epoch_open, manual
     * timing aside: a clock that never advanced is not an op optimized away */
    bool clock_advanced, clock_went_back;
    unsigned remeasured; /* runs started again after a slow episode */
    fb__vg_run *vg;      /* under Valgrind (src/run/valgrind.c), else NULL */
    /* the epoch hook, when one is installed and run_begin was called */
    const fb__epoch_hook *hook;
    uint64_t hook_iters; /* what run_begin fixed (0: the library's choice) */
    size_t hook_epochs;
    size_t index;   /* epochs started, for the hook */
    bool refused;   /* a nested run or comparison was refused (said once) */
    uint64_t t0_ns; /* clock at the start of the epoch in progress */
    /* a group of threads (src/run/group.h): every thread waits for the others
     * right before its counters and its clock, so the epochs start together */
    struct fb__group *group;
} fb__epoch;

/* What one epoch measured. */
typedef struct fb__epoch_out {
    uint64_t ticks_ns; /* the clock's difference (0 when it went back), or
                        * the manual time in ns (src/handle/manual.c) */
    double elapsed_s;  /* ticks_ns in seconds: what a result stores */
    /* the counters, and counts[FB_CPUTIME]: the thread's CPU time in
     * seconds over the epoch (its read overhead taken off) */
    double counts[FB_MEASURE_COUNT];
    fb__mask known; /* the measures read in this epoch (perf_mask | cpu_mask when all) */
    /* descheduled: the context switches grew, or the wall time exceeds the
     * CPU time by more than the margin of src/stats/disturb.h */
    bool disturbed;
    /* the thread blocked on its own (a voluntary context switch: a sleep, a
     * lock, I/O) during the epoch, or it cannot be told (its voluntary
     * switches unknown): its time off the CPU may be the op's */
    bool blocked;
    /* a group's epoch whose time is its threads' CPU span (src/run/group.h) */
    bool waited;
    int clock_step; /* the clock's own reading: 1 advanced, 0 stood still, -1 went back */
} fb__epoch_out;

/* True when b has a run or comparison in progress: then the one asking
 * (`what`: NULL for a run, "comparison"; named `name`) is refused. The refusal is
 * said once per outer context on b's diagnostics and counted once in
 * b->dropped (the runner turns it into an error row). */
FB__PRIVATE bool fb__epoch_refuse(fb_bench *b, const char *what, const char *name);

/* Opens a measuring context on b under `name` (taken over: freed by
 * fb__epoch_close, also on failure): copies the configuration, resolves the
 * clock, the counters, the disturbance source and the probe, and marks b
 * busy. FB_OK, or FB_ENOMEM (nothing to close then). */
FB__PRIVATE int fb__epoch_open(fb__epoch *e, fb_bench *b, char *name, int callsite);
/* The hook's run_begin, when a hook is installed: it may fix the
 * iterations per epoch and the epochs (kept in hook_iters / hook_epochs).
 * False when the hook skips the run: nothing is measured; close it. */
FB__PRIVATE bool fb__epoch_hook_begin(fb__epoch *e);
/* Callgrind's hooks for the run named name (src/run/valgrind.c; NULL outside
 * Valgrind), replacing the previous ones. */
FB__PRIVATE void fb__epoch_set_vg(fb__epoch *e, const char *name, uint64_t epoch_iterations,
                                  uint64_t min_iterations);
/* Starts an epoch: manual timing's reset, the hook's epoch_begin, the probe
 * before the first epoch, setup, the disturbance read, the counters, the
 * clock, Callgrind. The caller's loop follows at once. */
FB__PRIVATE void fb__epoch_start(fb__epoch *e);
/* Ends the epoch of n iterations: Callgrind, the clock, the counters, the
 * disturbance read, teardown, manual timing (the time given, or the clock's
 * less the excluded regions, into out), the hook's epoch_end. */
FB__PRIVATE void fb__epoch_stop(fb__epoch *e, uint64_t n, fb__epoch_out *out);
/* Why the time of e's epochs did not grow with their iterations, when the
 * op is not to blame: the times fb_set_iteration_time gave (0 s), or a
 * clock that never advanced since fb__epoch_open (it stood still or went
 * backwards). NULL: the clock advanced, so the op may be optimized away. */
FB__PRIVATE const char *fb__epoch_no_time_why(const fb__epoch *e);
/* After the last epoch: the probe (once; nothing without a probe or an
 * epoch). */
FB__PRIVATE void fb__epoch_probe_end(fb__epoch *e);
/* After the last epoch: the probe; true when the run should be measured
 * again because it fell in a slow episode of the core and a clean core came
 * back (at most FB__PROBE_RETRIES times; never while a hook fixed the
 * epochs). The schedule then starts over. */
FB__PRIVATE bool fb__epoch_remeasure(fb__epoch *e);
/* The probe marks, disturbance knowledge and re-measurements into res. */
FB__PRIVATE void fb__epoch_mark(const fb__epoch *e, fb_result *res);
/* Closes the context: the hook's run_end (when run_begin was called),
 * Callgrind's state, the configuration (unless moved out) and the name
 * (unless moved out), and b is free for the next run. */
FB__PRIVATE void fb__epoch_close(fb__epoch *e);

#endif
