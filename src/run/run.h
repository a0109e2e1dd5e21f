/* A run's state, shared by the three files of a run:
 *   src/run/run_plan.c    the plan: from the configuration to the target epoch,
 *                     the budget, the rounds and the first state (and a
 *                     group's follower, which has no plan of its own);
 *   src/run/run.c         the epoch loop: iteration control, each epoch's
 *                     record, when to stop;
 *   src/run/run_result.c  the finished run as an immutable result, published.
 * Every epoch itself is measured by the epoch routine (src/run/epoch.c). */
#ifndef FB_RUN_H
#define FB_RUN_H

#include "base.h"
#include "epoch.h"
#include "group.h"
#include "os.h"
#include "rounds.h"

#include <stdint.h>

enum { FB__ST_WARMUP, FB__ST_UPSCALE, FB__ST_MEASURE, FB__ST_ENDLESS, FB__ST_DONE };

struct fb__run {
    fb__epoch ep;       /* everything around an epoch (src/run/epoch.c) */
    fb__mask perf_lost; /* measures unknown in some recorded epoch */
    double target_s;    /* target duration of one epoch */
    double budget_s;    /* stop after this much measured time */
    size_t epochs_max;
    uint64_t exact_iters; /* epoch_iterations, 0 = automatic */
    uint64_t min_iters;
    fb_rng rng; /* jitter against aliasing, fixed seed */
    /* progress */
    size_t epochs;
    /* the undisturbed recorded epochs: what the next epoch's iterations
     * are planned from (fb__run_plan), and what src/run/rounds.c estimates a
     * longer round's cost from */
    uint64_t plan_iters;
    double plan_elapsed_s;
    double spent_s; /* all epochs of this measurement, recorded or not */
    uint64_t *iterations;
    double *values[FB_MEASURE_COUNT];
    char *error;
    uint64_t endless_epochs;
    /* when to stop (src/run/rounds.c), disturbed epochs (src/stats/disturb.c) */
    fb__rounds rounds;
    unsigned char *flags; /* per epoch, FB__EPOCH_* */
    size_t cap;           /* capacity of the per-epoch arrays */
    fb__rounds rounds0;   /* the rounds and the target at the start, for a re-measurement */
    double target0;
    uint64_t remeasure_n;
    fb__os_sig_saved old_int, old_term; /* restored when endless mode ends */
    /* a group of threads (src/run/group.c): its size (0 outside one), each
     * recorded epoch's per-thread seconds per iteration (threads per epoch),
     * and the slots of the epoch just ended (read by fb__run_record) */
    size_t threads;
    double *thread_s;
    const fb__group_slot *slots;
    /* a group: the epoch's time the schedule plans with, the fastest
     * thread's own (the group's span also holds the barrier's wake-ups and
     * the turns of threads waiting for a core, a cost that does not grow
     * with the iterations: planned with, it would keep the epochs short) */
    double sched_s;
    /* iterations per trip of the body's loop (fb__loop_ran; 0 means 1):
     * what an op that was optimized away is judged by */
    uint64_t per_trip;
};

/* src/run/run_result.c: closes the run's epoch context (the hook's run_end
 * among it) and frees it; keeps the first error; turns the finished run
 * (b->run) into an immutable result and publishes it. */
FB__PRIVATE void fb__run_free(struct fb__run *r);
FB__PRIVATE void fb__run_fail(struct fb__run *r, const char *msg);
FB__PRIVATE void fb__run_finish(fb_bench *b);
/* src/run/run_plan.c: true once SIGINT or SIGTERM asked an endless run to stop. */
FB__PRIVATE bool fb__run_stop_asked(void);

#endif
