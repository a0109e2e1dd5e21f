/* A run's plan (src/run/run.h): from the bench's configuration by value (and
 * what the epoch hook fixed) to the target epoch, the time budget, the
 * rounds, the per-epoch arrays and the first state (warmup, upscaling,
 * measuring, endless, or Callgrind's counted schedule). A follower of a
 * group of threads has no plan: it follows the leader's. docs/design.md
 * explains every rule and default. */
#include "run.h"

#include "bench_state.h"
#include "group.h" /* groups of threads: the barrier and the leader's plan */
#include "os.h"    /* endless mode's Ctrl-C: sigaction, or signal() on Windows */
#include "process.h"
#include "setup.h" /* the argument in the name */
#include "valgrind.h"

#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The budget never exceeds an hour, whatever epochs x target
 * (bounded settings); it equals the largest max_total_time (settings.c). */
#define FB__MAX_BUDGET_S 3600.0

/* Endless mode stops on SIGINT/SIGTERM. A signal handler can only talk
 * through a static flag: the one piece of mutable process state of a run. */
static volatile sig_atomic_t fb__run_stop_flag;
static void fb__run_on_signal(int sig) {
    (void)sig;
    fb__run_stop_flag = 1;
}

bool fb__run_stop_asked(void) { return fb__run_stop_flag != 0; }

/* Endless mode: SIGINT and SIGTERM end the run, except a signal that was
 * ignored when the run began (nohup, a shell's background job): it stays
 * ignored. */
static void fb__run_catch(int sig, fb__os_sig_saved *old) {
    fb__os_sig_catch(sig, fb__run_on_signal, old);
}

/* A follower of a group (thread 1..n-1): its own epoch context (clock,
 * counters opened on this thread, setup and teardown, disturbance), no
 * schedule: each epoch's iterations come from the leader's plan. */
static fb__loop fb__loop_follower(fb_bench *b, const char *name, int callsite) {
    fb__loop l = {b, 0, FB__ST_DONE};
    struct fb__run *r = calloc(1, sizeof *r);
    if (!r || fb__epoch_open(&r->ep, b, fb__run_name(b, name), callsite) != FB_OK) {
        free(r);
        fb__group_break(b->group); /* the leader's run fails and says why */
        return l;
    }
    r->ep.probe = NULL; /* the leader probes the core */
    r->ep.group = b->group;
    b->run = r;
    b->run_free = fb__run_free;
    l.state = FB__ST_MEASURE;
    return l;
}

fb__loop fb__loop_begin(fb_bench *b, const char *name, int callsite) {
    fb__loop l = {b, 0, FB__ST_DONE};
    if (b->group && b->thread_index > 0) {
        if (fb__epoch_refuse(b, NULL, name)) return l;
        return fb__loop_follower(b, name, callsite);
    }
    /* nested in a run or a comparison of this bench: refused, keeping the
     * outer one; said once and counted (src/run/epoch.c) */
    if (fb__epoch_refuse(b, NULL, name)) return l;
    struct fb__run *r = calloc(1, sizeof *r);
    /* the row's name: name, or b's; "/<arg>" appended in a family */
    if (!r || fb__epoch_open(&r->ep, b, fb__run_name(b, name), callsite) != FB_OK) {
        free(r);
        ++b->dropped; /* nothing silently dropped */
        fb__bench_diag(b, "'%s' not run: out of memory", name ? name : "noname");
        return l;
    }
    fb__epoch *e = &r->ep;
    b->run = r;
    b->run_free = fb__run_free;     /* fb_bench_free releases a run left early */
    if (!fb__epoch_hook_begin(e)) { /* the epoch hook skips this run */
        b->run = NULL;
        fb__run_free(r);
        return l;
    }
    double *cfg = e->config.num;
    /* what the epoch hook fixed replaces the configuration */
    if (e->hook_iters) cfg[FB__K_EPOCH_ITERATIONS] = (double)e->hook_iters;
    if (e->hook_epochs) cfg[FB__K_EPOCHS] = (double)e->hook_epochs;
    /* --benchmark_min_time=<n>x: n iterations in all, over at most the
     * epochs asked for, each of the same count (Google Benchmark's total,
     * measured as epochs so that a preemption stays one epoch) */
    if (e->config.total_iterations >= 1 && !e->hook_iters && !e->hook_epochs) {
        double n = e->config.total_iterations;
        double epochs = cfg[FB__K_EPOCHS] >= 1 ? cfg[FB__K_EPOCHS] : 1;
        if (epochs > n) epochs = n;
        cfg[FB__K_EPOCHS] = epochs;
        cfg[FB__K_EPOCH_ITERATIONS] = ceil(n / epochs);
    }
    r->epochs_max = cfg[FB__K_EPOCHS] >= 1 ? (size_t)cfg[FB__K_EPOCHS] : 1;
    /* min_time (fb_set_min_time, or the runner's -min_time): more epochs
     * of the usual length (src/run/rounds.c), never longer ones */
    double min_time_s = e->hook_epochs ? 0 : cfg[FB__K_MIN_TIME]; /* a scheduler's are fixed */
    double target = fb__config_epoch_target(&e->config, e->clock_info.resolution_s);
    /* a group of threads: waking the threads at the barrier costs tens of
     * microseconds, and a thread that waits for a core a whole time slice;
     * epochs long against both keep that out of the time per iteration
     * (docs/threads.md). Not under a custom clock, whose time is its own. */
    if (b->group && fb__group_size(b->group) > 1 && !b->clock && target < FB__GROUP_MIN_EPOCH_S)
        target = FB__GROUP_MIN_EPOCH_S;
    r->target_s = target;
    /* The budget only bites when single iterations outlast the target. */
    r->budget_s = cfg[FB__K_MAX_TOTAL_TIME];
    if (r->budget_s < 1.5 * (double)r->epochs_max * target)
        r->budget_s = 1.5 * (double)r->epochs_max * target;
    if (r->budget_s > FB__MAX_BUDGET_S) r->budget_s = FB__MAX_BUDGET_S;
    r->exact_iters = (uint64_t)cfg[FB__K_EPOCH_ITERATIONS];
    /* a run fixed exactly (its epochs and each epoch's iterations both
     * set, at any layer) runs as fixed: min_time adds no epoch to it, as
     * Google Benchmark's Iterations(n) wins over its --benchmark_min_time */
    bool epochs_set = fb__config_set_by_user(&e->config, FB__K_EPOCHS);
    if (r->exact_iters && (epochs_set || e->hook_epochs)) min_time_s = 0;
    /* explicit epochs, lengthening (src/run/rounds.c) */
    fb__rounds_begin(&r->rounds, &e->config, r->budget_s, !r->exact_iters && !(min_time_s > 0));
    fb__rounds_min_time(&r->rounds, min_time_s);
    /* epochs fixed by the hook: exactly those, none replaced */
    if (e->hook_epochs) fb__rounds_fix(&r->rounds, e->hook_epochs);
    r->rounds0 = r->rounds;
    r->target0 = r->target_s;
    r->min_iters =
        cfg[FB__K_MIN_EPOCH_ITERATIONS] >= 1 ? (uint64_t)cfg[FB__K_MIN_EPOCH_ITERATIONS] : 1;
    fb_rng_seed(&r->rng, 123);
    r->cap = r->epochs_max; /* grows when disturbed epochs are replaced */
    r->iterations = malloc(r->cap * sizeof *r->iterations);
    r->flags = calloc(r->cap, 1);
    r->values[FB_ELAPSED] = malloc(r->cap * sizeof(double));
    if (!r->iterations || !r->flags || !r->values[FB_ELAPSED]) {
        b->run = NULL;
        fb__run_free(r);
        ++b->dropped; /* nothing silently dropped */
        fb__bench_diag(b, "'%s' not run: out of memory", name ? name : "noname");
        return l;
    }
    /* under Valgrind, Callgrind collects inside the loops only; with
     * FEMTOBENCH_VALGRIND its fixed schedule of counted epochs replaces the
     * time-based one (fb__bench_prepare then gives no counters and the
     * process state no machine warnings; docs/valgrind.md) */
    fb__epoch_set_vg(e, e->name, r->exact_iters, r->min_iters);
    if (b->group) {
        r->threads = fb__group_size(b->group);
        e->group = b->group;
        r->thread_s = malloc(r->cap * r->threads * sizeof *r->thread_s);
        if (!r->thread_s) fb__run_fail(r, "out of memory");
        if (b->manual.on)
            fb__run_fail(r, "manual timing does not apply to a group of threads: the group's "
                            "time is the clock's, from the first thread's start to the last's end");
        /* Callgrind runs one thread at a time and counts them all between
         * the leader's toggles: a group's count would mix the threads */
        if (r->threads > 1 && fb__vg_exact(e->vg))
            fb__run_fail(r, "-valgrind does not count a group of threads (Valgrind runs one "
                            "thread at a time); measure it without -valgrind");
        if (r->error) {
            fb__run_finish(b); /* an error row; the followers are told at the plan */
            return l;
        }
    }
    for (int m = 1; m < FB_MEASURE_COUNT; ++m)
        if ((e->perf_mask | e->cpu_mask) & FB__BIT(m)) {
            r->values[m] = malloc(r->cap * sizeof(double));
            if (!r->values[m]) {
                e->perf_mask &= ~FB__BIT(m);
                e->cpu_mask &= ~FB__BIT(m);
            }
        }

    uint64_t warmup = (uint64_t)cfg[FB__K_WARMUP];
    const char *endless = fb__process_endless();
    if (endless && strcmp(endless, e->name) == 0) {
        e->probe = NULL; /* an endless run is profiled, not measured */
        l.state = FB__ST_ENDLESS;
        l.n = r->exact_iters ? r->exact_iters : r->min_iters;
        /* the handlers first: the line below tells the user that Ctrl-C
         * stops the run, and a signal right after it must find them */
        fb__run_stop_flag = 0;
        fb__run_catch(SIGINT, &r->old_int);
        fb__run_catch(SIGTERM, &r->old_term);
        fb__bench_diag(b,
                       "FEMTOBENCH_ENDLESS=%s: running '%s' endlessly in pid %ld; "
                       "profile it with `perf top -p %ld` or `perf record -g -p %ld`; "
                       "Ctrl-C stops it",
                       e->name, e->name, (long)getpid(), (long)getpid(), (long)getpid());
    } else if (fb__vg_exact(e->vg)) {
        e->probe = NULL; /* counted: the machine's state does not matter */
        l.state = FB__ST_MEASURE;
        l.n = fb__vg_first(e->vg);
    } else if (warmup > 0) {
        l.state = FB__ST_WARMUP;
        l.n = warmup;
    } else if (r->exact_iters) {
        l.state = FB__ST_MEASURE;
        l.n = r->exact_iters;
    } else {
        l.state = FB__ST_UPSCALE;
        l.n = r->min_iters;
    }
    return l;
}
