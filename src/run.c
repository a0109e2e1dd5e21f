/* The epoch loop and iteration control: the heart of femtobench.
 *
 * A run is a sequence of epochs. Each epoch reads the clock, runs the op n
 * times, reads the clock again. The state machine (warmup -> upscaling ->
 * measuring, or endless) picks n so that an epoch lasts about `target`
 * seconds; docs/design.md explains every rule and default. */
#include "bench.h"
#include "clock.h"
#include "manual.h" /* manual timing, excluded regions */
#include "disturb.h"
#include "epoch.h"
#include "group.h" /* groups of threads: the barrier and the leader's plan */
#include "os.h"    /* endless mode's Ctrl-C: sigaction, or signal() on Windows */
#include "perf.h"
#include "probe.h"
#include "process.h"
#include "result.h"
#include "rounds.h"
#include "stats.h"
#include "setup.h" /* setup/teardown hooks, the argument in the name */
#include "text.h"
#include "valgrind.h" /* -valgrind: Callgrind hooks around the loop */

#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { FB__ST_WARMUP, FB__ST_UPSCALE, FB__ST_MEASURE, FB__ST_ENDLESS, FB__ST_DONE };

/* An epoch that reaches 2/3 of the target counts as "close enough". */
#define FB__CLOSE_ENOUGH (2.0 / 3.0)
/* Upscaling past this many iterations with no measurable time means the op
 * was optimized away (a real op costs at least ~0.1 ns). */
#define FB__MAX_UPSCALE_ITERS 1e10
#define FB__OPTIMIZED_AWAY_ITERS 100000
#define FB__OPTIMIZED_AWAY_S 1e-11
/* The budget never exceeds an hour, whatever epochs x target
 * (bounded settings); it equals the largest max_total_time (settings.c). */
#define FB__MAX_BUDGET_S 3600.0

struct fb__run {
    fb__epoch ep;       /* everything around an epoch (src/epoch.c) */
    fb__mask perf_lost; /* measures unknown in some recorded epoch */
    double target_s;    /* target duration of one epoch */
    double budget_s;    /* stop after this much measured time */
    size_t epochs_max;
    uint64_t exact_iters; /* epoch_iterations, 0 = automatic */
    uint64_t min_iters;
    fb_rng rng; /* jitter against aliasing, fixed seed */
    /* progress */
    size_t epochs;
    uint64_t sum_iters;
    double sum_elapsed_s; /* recorded epochs */
    /* the undisturbed recorded epochs: what the next epoch's iterations
     * are planned from (fb__run_plan) */
    uint64_t plan_iters;
    double plan_elapsed_s;
    double spent_s; /* all epochs of this measurement, recorded or not */
    uint64_t *iterations;
    double *values[FB_MEASURE_COUNT];
    char *error;
    uint64_t endless_epochs;
    /* when to stop (src/rounds.c), disturbed epochs (src/disturb.c) */
    fb__rounds rounds;
    unsigned char *flags; /* per epoch, FB__EPOCH_* */
    size_t cap;           /* capacity of the per-epoch arrays */
    fb__rounds rounds0;   /* the rounds and the target at the start, for a re-measurement */
    double target0;
    uint64_t remeasure_n;
    fb__os_sig_saved old_int, old_term; /* restored when endless mode ends */
    /* a group of threads (src/group.c): its size (0 outside one), each
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
};

/* Endless mode stops on SIGINT/SIGTERM. A signal handler can only talk
 * through a static flag: the one piece of mutable process state in run.c. */
static volatile sig_atomic_t fb__run_stop_flag;
static void fb__run_on_signal(int sig) {
    (void)sig;
    fb__run_stop_flag = 1;
}

/* Closes the run's epoch context (the hook's run_end among it) and frees it. */
static void fb__run_free(struct fb__run *r) {
    if (!r) return;
    fb__epoch_close(&r->ep);
    free(r->iterations);
    free(r->flags);
    free(r->thread_s);
    for (int m = 0; m < FB_MEASURE_COUNT; ++m) free(r->values[m]);
    free(r->error);
    free(r);
}

static void fb__run_fail(struct fb__run *r, const char *msg) {
    if (!r->error) r->error = fb__strdup(msg);
}

/* Next epoch's iterations from a measured rate: target / (seconds per
 * iteration), floored at min_iters, times a random factor in [1, 1.2). */
static uint64_t fb__run_iters_for(struct fb__run *r, double iters, double elapsed_s) {
    double per_iter = elapsed_s / (iters > 0 ? iters : 1);
    double n = per_iter > 0 ? r->target_s / per_iter : FB__MAX_UPSCALE_ITERS;
    if (n < (double)r->min_iters) n = (double)r->min_iters;
    n *= 1.0 + 0.2 * fb_rng_uniform01(&r->rng);
    if (n > FB__MAX_UPSCALE_ITERS) n = FB__MAX_UPSCALE_ITERS;
    return n < 1 ? 1 : (uint64_t)(n + 0.5);
}

/* The next epoch's iterations, planned from the undisturbed epochs only: a
 * descheduled epoch of a 1 us op can read 50x slow, and planned with, it
 * kept every later epoch of the run a few iterations long (a few us: such
 * epochs miss the host's interruptions, so they agree with each other, but
 * their fixed per-epoch cost moved the value by a few tenths of a percent,
 * a shift the run's err% could not show). While every recorded epoch was
 * disturbed, the count `n` of the last one is kept. */
static uint64_t fb__run_plan(struct fb__run *r, uint64_t n) {
    if (r->plan_iters) return fb__run_iters_for(r, (double)r->plan_iters, r->plan_elapsed_s);
    return fb__run_iters_for(r, (double)n, r->target_s);
}

static uint64_t fb__run_upscale(struct fb__run *r, uint64_t n, double elapsed_s) {
    if (elapsed_s * 10 < r->target_s) {
        /* 100,000 iterations in less than 10 ps each (a twentieth of a cycle)
         * is no real work; checked early so an op that is called but costs
         * nothing (e.g. under a fake clock) does not run 10^10 times */
        if ((double)n * 10 > FB__MAX_UPSCALE_ITERS &&
            elapsed_s >= (double)n * FB__OPTIMIZED_AWAY_S) {
            /* the op takes real time: the target is what is too long */
            char msg[160];
            snprintf(msg, sizeof msg,
                     "an epoch of %g s needs more than 10^10 iterations of this op: lower "
                     "min_epoch_time",
                     r->target_s);
            fb__run_fail(r, msg);
            return 0;
        }
        if ((n >= FB__OPTIMIZED_AWAY_ITERS && elapsed_s < (double)n * FB__OPTIMIZED_AWAY_S) ||
            (double)n * 10 > FB__MAX_UPSCALE_ITERS) {
            fb__run_fail(r, "time does not grow with iterations: was the op optimized "
                            "away? Keep its result alive with fb_do_not_optimize()");
            return 0;
        }
        return n * 10;
    }
    return fb__run_iters_for(r, (double)n, elapsed_s);
}

/* Endless mode: SIGINT and SIGTERM end the run, except a signal that was
 * ignored when the run began (nohup, a shell's background job): it stays
 * ignored. */
static void fb__run_catch(int sig, fb__os_sig_saved *old) {
    fb__os_sig_catch(sig, fb__run_on_signal, old);
}

static void fb__run_finish(fb_bench *b);

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

/* A follower's run ends: at the leader's word, or because the group broke
 * (counted: the leader's bench reports it). */
static void fb__loop_follower_end(fb__loop *l, bool broken) {
    fb_bench *b = l->bench;
    if (broken) fb__group_lost(b->group);
    fb__run_free(b->run);
    b->run = NULL;
    l->state = FB__ST_DONE;
}

#define FB__GROUP_BROKEN                                                                           \
    "a thread of the group stopped before the run ended (every thread must make the same runs, "   \
    "and none may leave FB_RUN early)"

fb__loop fb__loop_begin(fb_bench *b, const char *name, int callsite) {
    fb__loop l = {b, 0, FB__ST_DONE};
    if (b->group && b->thread_index > 0) {
        if (fb__epoch_refuse(b, NULL, name)) return l;
        return fb__loop_follower(b, name, callsite);
    }
    /* nested in a run or a comparison of this bench: refused, keeping the
     * outer one; said once and counted (src/epoch.c) */
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
    r->epochs_max = cfg[FB__K_EPOCHS] >= 1 ? (size_t)cfg[FB__K_EPOCHS] : 1;
    /* the runner's -min_time: spread over the epochs this run really has */
    if (e->config.min_time_s > 0 &&
        cfg[FB__K_MIN_EPOCH_TIME] < e->config.min_time_s / (double)r->epochs_max)
        cfg[FB__K_MIN_EPOCH_TIME] = e->config.min_time_s / (double)r->epochs_max;
    double target = e->clock_info.resolution_s * cfg[FB__K_CLOCK_RESOLUTION_MULTIPLE];
    if (target > cfg[FB__K_MAX_EPOCH_TIME]) target = cfg[FB__K_MAX_EPOCH_TIME];
    if (target < cfg[FB__K_MIN_EPOCH_TIME]) target = cfg[FB__K_MIN_EPOCH_TIME];
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
    /* explicit epochs, lengthening (src/rounds.c) */
    fb__rounds_begin(&r->rounds, b->layers, &e->config, r->budget_s,
                     !r->exact_iters && !(e->config.min_time_s > 0));
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
        if (e->perf_mask & FB__BIT(m)) {
            r->values[m] = malloc(r->cap * sizeof(double));
            if (!r->values[m]) e->perf_mask &= ~FB__BIT(m);
        }

    uint64_t warmup = (uint64_t)cfg[FB__K_WARMUP];
    const char *endless = fb__process_endless();
    if (endless && strcmp(endless, e->name) == 0) {
        e->probe = NULL; /* an endless run is profiled, not measured */
        l.state = FB__ST_ENDLESS;
        l.n = r->exact_iters ? r->exact_iters : r->min_iters;
        fb__bench_diag(b,
                       "FEMTOBENCH_ENDLESS=%s: running '%s' endlessly in pid %ld; "
                       "profile it with `perf top -p %ld` or `perf record -g -p %ld`; "
                       "Ctrl-C stops it",
                       e->name, e->name, (long)getpid(), (long)getpid(), (long)getpid());
        fb__run_stop_flag = 0;
        fb__run_catch(SIGINT, &r->old_int);
        fb__run_catch(SIGTERM, &r->old_term);
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

int fb__loop_next(fb__loop *l) {
    fb_bench *b = l->bench;
    if (b->group && b->thread_index > 0) { /* a follower: the leader's plan */
        if (l->state == FB__ST_DONE) return 0;
        int go = fb__group_follow(b->group, &l->n);
        if (go <= 0) {
            fb__loop_follower_end(l, go < 0);
            return 0;
        }
    } else if (b->group) { /* the leader: its plan for every thread */
        bool go = l->state != FB__ST_DONE;
        if (!fb__group_plan(b->group, go, l->n) && go) {
            fb__run_fail(b->run, FB__GROUP_BROKEN);
            l->state = FB__ST_DONE;
            fb__run_finish(b);
        }
    }
    if (l->state == FB__ST_DONE) return 0;
    fb__manual_epoch_begin(l->bench);    /* src/manual.c: manual time, excluded regions */
    fb__epoch_start(&l->bench->run->ep); /* its last act reads the clock */
    return 1;
}

/* Room for one more epoch (arrays grow outside the timed region); false
 * when out of memory: the run then stops with what it has. */
static bool fb__run_reserve(struct fb__run *r) {
    if (r->epochs < r->cap) return true;
    size_t cap = 2 * r->cap;
    uint64_t *it = realloc(r->iterations, cap * sizeof *it);
    if (!it) return false;
    r->iterations = it;
    unsigned char *fl = realloc(r->flags, cap);
    if (!fl) return false;
    r->flags = fl;
    if (r->threads) {
        double *ts = realloc(r->thread_s, cap * r->threads * sizeof *ts);
        if (!ts) return false;
        r->thread_s = ts;
    }
    for (int m = 0; m < FB_MEASURE_COUNT; ++m) {
        if (!r->values[m]) continue;
        double *v = realloc(r->values[m], cap * sizeof *v);
        if (!v) return false;
        r->values[m] = v;
    }
    r->cap = cap;
    return true;
}

static void fb__run_record(struct fb__run *r, uint64_t n, const fb__epoch_out *o) {
    /* a group: the epoch ran n iterations on each thread; what one
     * iteration costs is the group's time over all of them (src/group.h) */
    uint64_t per_thread = n;
    if (r->threads) n *= r->threads;
    if (!fb__run_reserve(r)) {
        r->rounds.stopped_by = FB__STOP_CAP;
        return;
    }
    size_t i = r->epochs++;
    for (size_t t = 0; t < r->threads; ++t)
        r->thread_s[i * r->threads + t] =
            (double)(r->slots[t].t1_ns - r->slots[t].t0_ns) * 1e-9 / (double)per_thread;
    r->flags[i] = o->disturbed ? FB__EPOCH_DISTURBED : 0;
    fb__rounds_epoch(&r->rounds, o->disturbed);
    /* a counter unknown in one epoch (never scheduled, or a read error) is
     * dropped from the whole result rather than poisoning its median */
    r->perf_lost |= r->ep.perf_mask & ~o->known;
    r->iterations[i] = n;
    r->values[FB_ELAPSED][i] = o->elapsed_s / (double)n;
    for (int m = 1; m < FB_MEASURE_COUNT; ++m)
        if (r->ep.perf_mask & FB__BIT(m)) r->values[m][i] = o->counts[m] / (double)n;
    double sched_s = r->threads ? r->sched_s : o->elapsed_s;
    r->sum_iters += per_thread; /* the schedule plans iterations per thread */
    r->sum_elapsed_s += sched_s;
    if (!o->disturbed) {
        r->plan_iters += per_thread;
        r->plan_elapsed_s += sched_s;
    }
}

/* src/rounds.c decides; a new round of longer epochs changes the
 * target (*new_round). */
static bool fb__run_finished(struct fb__run *r, bool *new_round) {
    fb__rounds_progress p = {
        r->epochs, r->spent_s, r->sum_iters, r->sum_elapsed_s, r->values[FB_ELAPSED], r->flags};
    return fb__rounds_done(&r->rounds, &p, &r->target_s, new_round);
}

/* A run measured in a slow episode starts again, once, when the
 * core is clean again within FB__PROBE_WAIT_S (the epoch routine decides;
 * docs/design.md, "Slow episodes of the core"). */
static bool fb__run_remeasure(struct fb__run *r, uint64_t n) {
    if (!fb__epoch_remeasure(&r->ep)) return false;
    r->target_s = r->target0;
    r->remeasure_n = r->exact_iters ? r->exact_iters : fb__run_plan(r, n);
    r->rounds = r->rounds0;
    r->epochs = 0;
    r->sum_iters = r->plan_iters = 0;
    r->sum_elapsed_s = r->spent_s = r->plan_elapsed_s = 0;
    r->perf_lost = 0;
    return true;
}

/* The epochs the statistics use, the disturbed epochs, the probe
 * marks, why the run stopped; a note when explicit epochs were not all run. */
static void fb__run_finish_marks(fb_bench *b, struct fb__run *r, fb_result *res) {
    res->used = fb__disturb_select(r->flags, r->epochs);
    for (size_t i = 0; i < r->epochs; ++i)
        if (r->flags[i] & FB__EPOCH_DISTURBED) res->disturbed++;
    res->epoch_flags = r->flags;
    r->flags = NULL;
    fb__epoch_mark(&r->ep, res);
    res->stopped_by = r->rounds.stopped_by;
    res->rounds = r->rounds.rounds;
    const fb__rounds *s = &r->rounds;
    /* counted under Callgrind the schedule of counted epochs replaces the
     * epochs asked for: nothing is short */
    if (s->epochs_explicit && !s->fixed && s->clean < s->asked && !fb__vg_exact(r->ep.vg))
        fb__bench_diag(b, "'%s': %zu of the %zu epochs asked for (%zu disturbed): %s", res->name,
                       s->clean, s->asked, res->disturbed, fb__rounds_why_short(s, r->epochs));
}

void fb__loop_done(fb__loop *l, uint64_t left) {
    struct fb__run *r = l->bench->run;
    fb__epoch_out o;
    fb__epoch_stop(&r->ep, l->n, &o);
    fb_bench *b = l->bench;
    if (b->group) { /* every thread's epoch into its slot, then the barrier */
        fb__group_slot *slot = fb__group_slot_at(b->group, b->thread_index);
        /* each thread's own excluded regions come off its own end
         * (fb_exclude_begin / fb_exclude_end on its handle) */
        double own_s = fb__manual_epoch_time(b, o.elapsed_s);
        slot->t0_ns = r->ep.t0_ns;
        slot->t1_ns = r->ep.t0_ns + (own_s > 0 ? (uint64_t)(own_s * 1e9 + 0.5) : 0);
        memcpy(slot->counts, o.counts, sizeof slot->counts);
        slot->known = o.known;
        slot->disturbed = o.disturbed;
        slot->broke = left != 0;
        bool ok = fb__group_wait(b->group);
        if (b->thread_index > 0) { /* a follower: the leader records */
            if (!ok) fb__loop_follower_end(l, true);
            return;
        }
        if (!ok) {
            fb__run_fail(r, FB__GROUP_BROKEN);
            l->state = FB__ST_DONE;
        } else {
            fb__group_epoch g;
            r->slots = fb__group_slot_at(b->group, 0);
            fb__group_combine(r->slots, r->threads, &g);
            r->sched_s = NAN;
            for (size_t t = 0; t < r->threads; ++t) {
                double own = (double)(r->slots[t].t1_ns - r->slots[t].t0_ns) * 1e-9;
                if (!(own >= r->sched_s)) r->sched_s = own;
            }
            o.ticks_ns = g.ticks_ns;
            o.elapsed_s = (double)g.ticks_ns * 1e-9;
            memcpy(o.counts, g.counts, sizeof o.counts);
            o.known = g.known;
            o.disturbed = g.disturbed;
            if (g.broke && !left) left = 1;
        }
    }
    if (!b->group)
        o.elapsed_s = fb__manual_epoch_time(b, o.elapsed_s); /* the time given, or less
                                                              * excluded (src/manual.c) */
    double e = r->threads ? r->sched_s : o.elapsed_s;        /* what the schedule plans with */
    uint64_t n = l->n;
    r->spent_s += o.elapsed_s;
    if (left) {
        fb__run_fail(r, "`break` inside FB_RUN's body is not supported: use a flag, or fb_run()");
        l->state = FB__ST_DONE;
    }
    if (l->state == FB__ST_MEASURE && fb__vg_exact(r->ep.vg)) {
        /* -valgrind: the next epoch of the fixed schedule, 0 when complete */
        l->n = fb__vg_next(r->ep.vg);
        if (!l->n) l->state = FB__ST_DONE;
        if (l->state == FB__ST_DONE) fb__run_finish(l->bench);
        return;
    }
    switch (l->state) {
    case FB__ST_WARMUP:
        if (r->exact_iters) {
            l->state = FB__ST_MEASURE;
            l->n = r->exact_iters;
        } else if (e >= FB__CLOSE_ENOUGH * r->target_s) {
            l->state = FB__ST_MEASURE;
            l->n = fb__run_iters_for(r, (double)n, e);
        } else {
            l->state = FB__ST_UPSCALE;
            l->n = fb__run_upscale(r, n, e);
        }
        break;
    case FB__ST_UPSCALE:
        if (e >= FB__CLOSE_ENOUGH * r->target_s) {
            /* the first epoch close enough is kept: no selection among them */
            fb__run_record(r, n, &o);
            l->state = FB__ST_MEASURE;
            l->n = fb__run_plan(r, n);
        } else {
            l->n = fb__run_upscale(r, n, e);
        }
        break;
    case FB__ST_MEASURE:
        /* every measuring epoch is recorded, short or long */
        fb__run_record(r, n, &o);
        l->n = r->exact_iters ? r->exact_iters : fb__run_plan(r, n);
        break;
    case FB__ST_ENDLESS:
        r->endless_epochs++;
        if (fb__run_stop_flag) {
            l->state = FB__ST_DONE;
            l->bench->interrupted = true;
            fb__os_sig_restore(SIGINT, &r->old_int);
            fb__os_sig_restore(SIGTERM, &r->old_term);
            fb__bench_diag(l->bench, "'%s' stopped after %llu endless epochs", r->ep.name,
                           (unsigned long long)r->endless_epochs);
            fb__run_finish(l->bench); /* records nothing: the bench is interrupted */
        } else if (!r->exact_iters) {
            l->n = e < r->target_s ? fb__run_upscale(r, n, e) : fb__run_iters_for(r, (double)n, e);
            if (!l->n) l->n = n;
        }
        return;
    default:
        break;
    }
    if (r->error || l->n == 0) l->state = FB__ST_DONE;
    bool new_round = false;
    if (l->state == FB__ST_MEASURE && fb__run_finished(r, &new_round)) l->state = FB__ST_DONE;
    if (new_round) /* its epochs are longer */
        l->n = fb__run_plan(r, l->n);
    if (l->state == FB__ST_DONE && !r->error && fb__run_remeasure(r, n)) {
        l->state = FB__ST_MEASURE;
        l->n = r->remeasure_n;
    }
    if (l->state == FB__ST_DONE) fb__run_finish(l->bench);
}

/* Turns the finished run into an immutable result and publishes it: the
 * bench stores it, computes its statistics and hands it to the sinks (the
 * live table among them). The run's epoch context is closed first (the
 * hook's run_end), so the bench is free again when the sinks see the row. */
static void fb__run_finish(fb_bench *b) {
    struct fb__run *r = b->run;
    b->run = NULL;
    if (b->interrupted && !r->error) {
        fb__run_free(r);
        return;
    }
    fb_result *res = calloc(1, sizeof *res);
    if (!res || !(res->name = fb__strdup(r->ep.name))) {
        free(res);
        fb__run_free(r);
        ++b->dropped; /* nothing silently dropped */
        return;
    }
    res->error = r->error;
    r->error = NULL;
    res->config = r->ep.config; /* moved (with the argument of a family) */
    memset(&r->ep.config, 0, sizeof r->ep.config);
    res->callsite = r->ep.callsite;
    res->clock_resolution_s = r->ep.clock_info.resolution_s;
    res->clock_overhead_s = r->ep.clock_info.overhead_s;
    res->empty_loop_s = r->ep.clock_info.empty_loop_s;
    res->epochs_asked = r->rounds.asked;
    res->epochs_explicit = r->rounds.epochs_explicit;
    if (r->threads && !res->error) { /* each thread's median, over the recorded epochs */
        res->threads = r->threads;
        res->thread_median_s = malloc(r->threads * sizeof *res->thread_median_s);
        double *v = malloc((r->epochs ? r->epochs : 1) * sizeof *v);
        for (size_t t = 0; res->thread_median_s && v && t < r->threads; ++t) {
            for (size_t i = 0; i < r->epochs; ++i) v[i] = r->thread_s[i * r->threads + t];
            res->thread_median_s[t] = r->epochs ? fb__median(v, r->epochs) : NAN;
        }
        if (!v) {
            free(res->thread_median_s);
            res->thread_median_s = NULL;
        }
        free(v);
    } else if (r->threads) {
        res->threads = r->threads;
    }
    if (!res->error) {
        res->epochs = r->epochs;
        res->iterations = r->iterations;
        r->iterations = NULL;
        fb__run_finish_marks(b, r, res);
        res->has = FB__BIT(FB_ELAPSED) | (r->ep.perf_mask & ~r->perf_lost);
        for (int m = 0; m < FB_MEASURE_COUNT; ++m) {
            res->values[m] = r->values[m];
            r->values[m] = NULL;
        }
    }
    fb__vg_finish(r->ep.vg, res); /* -valgrind: the exact counts replace the times */
    fb__run_free(r);
    size_t before = b->n_results;
    fb__bench_publish(b, res);
    if (b->n_results == before) ++b->dropped; /* not stored: out of memory */
}

FB__NOINLINE const fb_result *fb__run_at(fb_bench *b, const char *name, fb_op op, void *ctx,
                                         int callsite) {
    size_t before = b->n_results;
    fb__loop l = fb__loop_begin(b, name, callsite);
    if (b->run) b->run->ep.shape = FB__SHAPE_CALL;
    ++b->in_call; /* fb_bench_free from op is refused; set outside the timed loop */
    while (fb__loop_next(&l)) {
        uint64_t i = l.n;
        for (; i; --i) op(ctx);
        fb__loop_done(&l, i);
    }
    --b->in_call;
    return b->n_results > before ? b->results[b->n_results - 1] : NULL;
}

const fb_result *(fb_run)(fb_bench *b, const char *name, fb_op op, void *ctx) {
    return fb__run_at(b, name, op, ctx, -1);
}
