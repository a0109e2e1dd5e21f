/* The epoch loop and iteration control: the heart of femtobench.
 *
 * A run is a sequence of epochs. Each epoch reads the clock, runs the op n
 * times, reads the clock again (the epoch routine, src/run/epoch.c). The state
 * machine (warmup -> upscaling -> measuring, or endless) picks n so that an
 * epoch lasts about `target` seconds; docs/design.md explains every rule and
 * default. The plan it starts from: src/run/run_plan.c; the result it ends
 * with: src/run/run_result.c (src/run/run.h). */
#include "run.h"

#include "bench_state.h"
#include "clock.h"
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

/* An epoch that reaches 2/3 of the target counts as "close enough". */
#define FB__CLOSE_ENOUGH (2.0 / 3.0)
/* Upscaling past this many iterations with no measurable time means the op
 * was optimized away (a real op costs at least ~0.1 ns). */
#define FB__MAX_UPSCALE_ITERS 1e10
#define FB__OPTIMIZED_AWAY_ITERS 100000
#define FB__OPTIMIZED_AWAY_S 1e-11

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
    /* the loop's trips: a batched loop (fb__loop_ran) runs several
     * iterations a trip, and a trip is what costs at least ~0.1 ns */
    double trips = (double)n / (double)(r->per_trip ? r->per_trip : 1);
    if (elapsed_s * 10 < r->target_s) {
        /* 100,000 iterations in less than 10 ps each (a twentieth of a cycle)
         * is no real work; checked early so an op that is called but costs
         * nothing (e.g. under a fake clock) does not run 10^10 times */
        if ((double)n * 10 > FB__MAX_UPSCALE_ITERS && elapsed_s >= trips * FB__OPTIMIZED_AWAY_S) {
            /* the op takes real time: the target is what is too long */
            /* whole nanoseconds: no decimal point, whatever the locale (the
             * measuring core formats no numbers of its own) */
            char msg[160];
            snprintf(msg, sizeof msg,
                     "an epoch of %llu ns needs more than 10^10 iterations of this op: lower "
                     "min_epoch_time",
                     (unsigned long long)(r->target_s * 1e9 + 0.5));
            fb__run_fail(r, msg);
            return 0;
        }
        if ((trips >= FB__OPTIMIZED_AWAY_ITERS && elapsed_s < trips * FB__OPTIMIZED_AWAY_S) ||
            (double)n * 10 > FB__MAX_UPSCALE_ITERS) {
            /* the op is blamed only when the time came from a clock that moved */
            const char *why = fb__epoch_no_time_why(&r->ep);
            fb__run_fail(r, why ? why
                                : "time does not grow with iterations: was the op optimized "
                                  "away? Keep its result alive with fb_do_not_optimize()");
            return 0;
        }
        return n * 10;
    }
    return fb__run_iters_for(r, (double)n, elapsed_s);
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
     * iteration costs is the group's time over all of them (src/run/group.h) */
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
    r->flags[i] = (unsigned char)((o->disturbed ? FB__EPOCH_DISTURBED : 0) |
                                  (o->waited ? FB__EPOCH_WAITED : 0));
    fb__rounds_epoch(&r->rounds, o->disturbed);
    /* a counter unknown in one epoch (never scheduled, or a read error) is
     * dropped from the whole result rather than poisoning its median */
    fb__mask measured = r->ep.perf_mask | r->ep.cpu_mask;
    r->perf_lost |= measured & ~o->known;
    r->iterations[i] = n;
    r->values[FB_ELAPSED][i] = o->elapsed_s / (double)n;
    for (int m = 1; m < FB_MEASURE_COUNT; ++m)
        if (measured & FB__BIT(m))
            r->values[m][i] = (o->known & FB__BIT(m)) ? o->counts[m] / (double)n : NAN;
    double sched_s = r->threads ? r->sched_s : o->elapsed_s;
    if (!o->disturbed) {
        r->plan_iters += per_thread; /* the schedule plans iterations per thread */
        r->plan_elapsed_s += sched_s;
    }
}

/* src/run/rounds.c decides; a new round of longer epochs changes the
 * target (*new_round). */
static bool fb__run_finished(struct fb__run *r, bool *new_round) {
    fb__rounds_progress p = {
        r->epochs, r->spent_s, r->plan_iters, r->plan_elapsed_s, r->values[FB_ELAPSED], r->flags};
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
    r->plan_iters = 0;
    r->spent_s = r->plan_elapsed_s = 0;
    r->perf_lost = 0;
    return true;
}

void fb__loop_complexity_n(fb__loop *l, double n) {
    struct fb__run *r = l->bench->run;
    /* as fb_set_complexity_n: a positive, finite N, else none */
    if (r && l->state != FB__ST_DONE)
        r->ep.config.complexity_n = n > 0 && n <= FB__MAX_COMPLEXITY_N ? n : 0;
}

void fb__loop_ran(fb__loop *l, uint64_t n, uint64_t per_trip) {
    struct fb__run *r = l->bench->run;
    if (!r || n == 0) return;
    r->per_trip = per_trip;
    if (n == l->n) return;
    /* Callgrind's counted epochs are differences of the counts it asked
     * for: another count would be divided by the wrong number */
    if (fb__vg_exact(r->ep.vg)) {
        fb__run_fail(r, "-valgrind counts the iterations it asks for, and the loop ran whole "
                        "batches, another count: measure it without -valgrind");
        return;
    }
    l->n = n;
}

void fb__loop_done(fb__loop *l, uint64_t left) {
    struct fb__run *r = l->bench->run;
    fb__epoch_out o;
    fb__epoch_stop(&r->ep, l->n, &o);
    fb_bench *b = l->bench;
    if (b->group) { /* every thread's epoch into its slot, then the barrier */
        fb__group_slot *slot = fb__group_slot_at(b->group, b->thread_index);
        /* each thread's own excluded regions came off its own end in the
         * epoch routine (fb_exclude_begin / fb_exclude_end on its handle) */
        double own_s = o.elapsed_s;
        slot->t0_ns = r->ep.t0_ns;
        slot->t1_ns = r->ep.t0_ns + (own_s > 0 ? (uint64_t)(own_s * 1e9 + 0.5) : 0);
        memcpy(slot->counts, o.counts, sizeof slot->counts);
        slot->known = o.known;
        slot->disturbed = o.disturbed;
        slot->blocked = o.blocked;
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
            fb__group_combine(r->slots, r->threads, fb__group_cores(b->group), &g);
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
            o.waited = g.waited;
            if (g.broke && !left) left = 1;
        }
    }
    double e = r->threads ? r->sched_s : o.elapsed_s; /* what the schedule plans with */
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
        if (fb__run_stop_asked()) {
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

FB__NOINLINE const fb_result *fb__run_at(fb_bench *b, const char *name, fb_op op, void *ctx,
                                         int callsite) {
    size_t before = b->n_results;
    fb__loop l = fb__loop_begin(b, name, callsite);
    if (b->run) b->run->ep.shape = FB__SHAPE_CALL;
    ++b->in_call; /* fb_bench_free from op is refused; set outside the timed loop */
    while (fb__loop_next(&l)) {
        uint64_t i = l.n;
        FB__ALIGN_HERE(); /* the loop's place in its cache lines is fixed (femtobench.h) */
        for (; i; --i) op(ctx);
        fb__loop_done(&l, i);
    }
    --b->in_call;
    return b->n_results > before ? b->results[b->n_results - 1] : NULL;
}

const fb_result *(fb_run)(fb_bench *b, const char *name, fb_op op, void *ctx) {
    return fb__run_at(b, name, op, ctx, -1);
}
