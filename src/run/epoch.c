/* The one epoch routine: every kind of run measures its epochs here
 * (src/run/epoch.h says what it owns). The schedules (src/run/run.c, src/run/compare.c)
 * decide how many epochs of which op with how many iterations; this file
 * does everything around one epoch, always in the same order:
 *
 *   manual time reset | hook epoch_begin | probe (first epoch) | setup |
 *   (a group's barrier) | disturbance | CPU clock | counters | clock | Callgrind on | the
 *   caller's loop | Callgrind off | clock | counters | CPU clock |
 *   disturbance | teardown | manual time | hook epoch_end
 *
 * so that the timed region holds nothing but the loop, and what the hook
 * sees is what the result stores (the time given by manual timing, or the
 * clock's less the excluded regions). */
#include "epoch.h"
#include "bench_state.h" /* the run state the epoch sets */

#include "group.h"
#include "manual.h"
#include "process.h"
#include "setup.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static uint64_t fb__epoch_default_clock(void *ctx) {
    (void)ctx;
    return fb__clock_now_ns();
}

static uint64_t fb__epoch_default_cpu(void *ctx) {
    (void)ctx;
    return fb__clock_cpu_ns();
}

bool fb__epoch_refuse(fb_bench *b, const char *what, const char *name) {
    /* a comparison in a group of threads: its schedule has no plan for the
     * other threads; refused and counted, said by the leader only */
    if (what && b->group) {
        if (b->thread_index == 0) {
            ++b->dropped;
            fb__bench_diag(b, "%s '%s' not run: a comparison does not run in a group of threads",
                           what, name ? name : "noname");
        }
        return true;
    }
    fb__epoch *outer = b->epoch;
    if (!outer) return false;
    /* said once per outer context, not once per epoch of it, and counted:
     * the runner turns the count into an error row and a failing status */
    if (!outer->refused) {
        outer->refused = true;
        ++b->dropped;
        fb__bench_diag(b, "%s%s'%s' not run: another run of this bench is in progress",
                       what ? what : "", what ? " " : "", name ? name : "noname");
    }
    return true;
}

const char *fb__epoch_no_time_why(const fb__epoch *e) {
    if (e->b->manual.on)
        return "the times given by fb_set_iteration_time do not grow with iterations (0 s, or "
               "under 10 ps an iteration): give each iteration's own time in seconds";
    if (e->clock_advanced) return NULL;
    return e->clock_went_back ? "the clock went backwards and never advanced during the run: "
                                "nothing can be timed with it"
                              : "the clock stood still during the whole run: nothing can be "
                                "timed with it";
}

int fb__epoch_open(fb__epoch *e, fb_bench *b, char *name, int callsite) {
    memset(e, 0, sizeof *e);
    e->b = b;
    e->name = name;
    if (!name || fb__bench_config(b, &e->config) != FB_OK) {
        free(name);
        e->name = NULL;
        return FB_ENOMEM;
    }
    e->callsite = callsite;
    e->shape = FB__SHAPE_INLINE;
    e->perf = fb__bench_prepare(b, callsite);
    e->perf_mask = e->perf ? fb__perf_available(e->perf) & ~FB__BIT(FB_ELAPSED) : 0;
    if (b->clock) {
        e->clock = b->clock;
        e->clock_ctx = b->clock_ctx;
        e->clock_info.resolution_s = b->clock_resolution_s;
        e->clock_info.overhead_s = 0;
        e->clock_info.empty_loop_s = b->empty_loop_s; /* declared by tests (src/stats/marks.c) */
    } else {
        e->clock = fb__epoch_default_clock;
        e->clock_info = fb__process_clock();
    }
    /* the disturbance source and the core probe: injected, else the
     * thread's context switches and the calibration kernel; none under a
     * custom clock, whose time neither a deschedule nor the host disturbs */
    e->disturb = b->disturb_set ? b->disturb : b->clock ? NULL : fb__disturb_thread;
    e->disturb_ctx = b->disturb_set ? b->disturb_ctx : e->disturb ? &e->voluntary : NULL;
    e->voluntary = e->voluntary_before = FB__DISTURB_UNKNOWN;
    /* the thread's CPU clock: injected, else the system's when it could
     * be read at calibration; none under a custom clock */
    e->cpu = b->cpu_clock_set                                   ? b->cpu_clock
             : b->clock || !(e->clock_info.cpu_overhead_s >= 0) ? NULL
                                                                : fb__epoch_default_cpu;
    e->cpu_ctx = b->cpu_clock_set ? b->cpu_clock_ctx : NULL;
    if (b->cpu_clock_set || b->clock) e->clock_info.cpu_overhead_s = 0;
    e->cpu_mask = e->cpu ? FB__BIT(FB_CPUTIME) : 0;
    /* with counters, their enable and disable calls (system calls too) lie
     * between the two CPU clock reads: what they add is measured here, once
     * per context, the fastest of 5 epochs around nothing */
    if (e->cpu == fb__epoch_default_cpu && e->perf_mask) {
        uint64_t best = UINT64_MAX;
        double counts[FB_MEASURE_COUNT];
        for (int i = 0; i < 5; ++i) {
            uint64_t c0 = fb__clock_cpu_ns();
            fb__perf_begin(e->perf);
            fb__perf_end(e->perf, 0, e->shape, counts);
            uint64_t c1 = fb__clock_cpu_ns();
            if (c1 >= c0 && c1 != FB__CLOCK_CPU_UNKNOWN && c1 - c0 < best) best = c1 - c0;
        }
        if (best != UINT64_MAX) e->clock_info.cpu_overhead_s = (double)best * 1e-9;
    }
    e->disturb_known = e->disturb != NULL || e->cpu != NULL;
    e->probe = b->probe_set ? b->probe : b->clock ? NULL : fb__probe_core;
    e->probe_ctx = b->probe_set ? b->probe_ctx : NULL;
    e->probe_before = e->probe_after = NAN;
    b->epoch = e;
    return FB_OK;
}

bool fb__epoch_hook_begin(fb__epoch *e) {
    const fb__epoch_hook *h = fb__process_epoch_hook();
    if (!h) return true;
    e->hook = h;
    /* the host schedules the epochs and judges them itself: no core probe
     * (its two 25 us kernels a run would cost every block of a host's
     * rounds, and a hooked run is never measured again) */
    e->probe = NULL;
    uint64_t iters = 0;
    size_t epochs = 0;
    bool run = h->run_begin ? h->run_begin(h->ctx, e->name, &iters, &epochs) : true;
    e->hook_iters = iters;
    e->hook_epochs = epochs;
    return run;
}

void fb__epoch_set_vg(fb__epoch *e, const char *name, uint64_t epoch_iterations,
                      uint64_t min_iterations) {
    fb__vg_run_free(e->vg);
    e->vg = fb__vg_run_new(name, epoch_iterations, min_iterations);
}

void fb__epoch_start(fb__epoch *e) {
    /* manual timing and excluded regions start afresh (src/handle/manual.c): on
     * this bench, so in a group of threads each thread's own */
    fb__manual_epoch_begin(e->b);
    if (e->hook && e->hook->epoch_begin) e->hook->epoch_begin(e->hook->ctx, e->index);
    /* the probe before the first epoch (never under a hook) */
    if (e->probe && !e->probed) {
        e->probed = true;
        e->probe_before = e->probe(e->probe_ctx);
    }
    fb__setup_before_epoch(e->b); /* untimed: before the counters and the clock */
    /* a group: broken, the epoch still runs; the barrier after it says so */
    if (e->group) (void)fb__group_wait(e->group);
    /* after the barrier: waiting there is neither the epoch's time nor a
     * disturbance of it (a blocked wait is a voluntary switch) */
    if (e->disturb) {
        e->disturb_before = e->disturb(e->disturb_ctx);
        e->voluntary_before = e->voluntary;
    }
    if (e->cpu) e->cpu0_ns = e->cpu(e->cpu_ctx); /* a system call: before the counters */
    if (e->perf_mask) fb__perf_begin(e->perf);
    e->t0_ns = e->clock(e->clock_ctx);   /* last thing before the loop */
    if (e->vg) fb__vg_loop_start(e->vg); /* Callgrind: collect from here */
}

void fb__epoch_stop(fb__epoch *e, uint64_t n, fb__epoch_out *out) {
    if (e->vg) fb__vg_loop_stop(e->vg);   /* Callgrind: collect up to here */
    uint64_t t1 = e->clock(e->clock_ctx); /* first thing after the loop */
    memset(out, 0, sizeof *out);
    if (e->perf_mask) {
        fb__perf_end(e->perf, n, e->shape, out->counts);
        out->known = e->perf_mask & fb__perf_last_known(e->perf);
    }
    uint64_t cpu1 = e->cpu ? e->cpu(e->cpu_ctx) : FB__CLOCK_CPU_UNKNOWN;
    if (e->disturb) { /* outside the timed region */
        uint64_t after = e->disturb(e->disturb_ctx);
        if (after == FB__DISTURB_UNKNOWN || e->disturb_before == FB__DISTURB_UNKNOWN)
            e->disturb_known = false;
        else
            out->disturbed = after != e->disturb_before;
    }
    fb__teardown_after_epoch(e->b); /* untimed: after the clock and the counters */
    out->ticks_ns = t1 >= e->t0_ns ? t1 - e->t0_ns : 0;
    out->elapsed_s = (double)out->ticks_ns * 1e-9;
    out->clock_step = t1 > e->t0_ns ? 1 : t1 == e->t0_ns ? 0 : -1;
    if (out->clock_step > 0) e->clock_advanced = true;
    if (out->clock_step < 0) e->clock_went_back = true;
    /* the time the body gave (fb_set_iteration_time), or the clock's less
     * the excluded regions (src/handle/manual.c); ticks_ns follows it, as the
     * comparison's rounds keep ticks. In a group of threads this is the
     * thread's own time, on its own bench handle. */
    if (e->b->manual.on || e->b->manual.excluded_ns) {
        out->elapsed_s = fb__manual_epoch_time(e->b, out->elapsed_s);
        out->ticks_ns = (uint64_t)(out->elapsed_s * 1e9 + 0.5);
    }
    /* the thread's CPU time over the epoch, its read's own cost taken off.
     * Not under manual timing or excluded regions: the time kept is then
     * not the clock's, and the CPU time of a region cannot be taken apart */
    if (e->cpu && cpu1 != FB__CLOCK_CPU_UNKNOWN && e->cpu0_ns != FB__CLOCK_CPU_UNKNOWN &&
        cpu1 >= e->cpu0_ns && !e->b->manual.on && !e->b->manual.excluded_ns) {
        double cpu_s = (double)(cpu1 - e->cpu0_ns) * 1e-9 - e->clock_info.cpu_overhead_s;
        out->counts[FB_CPUTIME] = cpu_s > 0 ? cpu_s : 0;
        out->known |= FB__BIT(FB_CPUTIME);
        /* wall time the thread did not run: descheduled, by the guest's
         * scheduler or the host, for any length of time. An op that blocks
         * on its own (a voluntary context switch: a sleep, a lock, I/O), or
         * a thread of a group with more threads than CPUs, is off the CPU
         * by design: not counted as descheduled */
        bool blocked_own = e->voluntary != e->voluntary_before;
        /* for a group's CPU span (src/run/group.h): whether the thread
         * blocked on its own is known only from its voluntary switches */
        out->blocked = blocked_own || e->voluntary == FB__DISTURB_UNKNOWN;
        bool blocked = blocked_own || (e->group && fb__group_oversubscribed(e->group));
        if (!blocked && fb__disturb_off_cpu(out->elapsed_s, out->counts[FB_CPUTIME]))
            out->disturbed = true;
    }
    size_t k = e->index++;
    if (e->hook && e->hook->epoch_end_cpu)
        e->hook->epoch_end_cpu(e->hook->ctx, k, n, out->elapsed_s,
                               (out->known & FB__BIT(FB_CPUTIME)) ? out->counts[FB_CPUTIME] : NAN,
                               out->disturbed);
    else if (e->hook && e->hook->epoch_end)
        e->hook->epoch_end(e->hook->ctx, k, n, out->elapsed_s, out->disturbed);
}

void fb__epoch_probe_end(fb__epoch *e) {
    if (e->probe && e->probed && isnan(e->probe_after)) e->probe_after = e->probe(e->probe_ctx);
}

bool fb__epoch_remeasure(fb__epoch *e) {
    if (!e->probe || !e->probed) return false;
    fb__epoch_probe_end(e);
    /* the scheduler fixed the epochs: the run is marked, never restarted */
    if (e->hook_epochs) return false;
    if ((int)e->remeasured >= FB__PROBE_RETRIES ||
        !(e->probe_before >= FB__PROBE_SLOW || e->probe_after >= FB__PROBE_SLOW))
        return false;
    double p = fb__probe_wait(e->probe, e->probe_ctx, FB__PROBE_WAIT_S);
    if (!(p < FB__PROBE_SLOW)) return false; /* still slow: the run is marked */
    e->remeasured++;
    e->probe_before = p;
    e->probe_after = NAN;
    e->disturb_known = e->disturb != NULL;
    return true;
}

void fb__epoch_mark(const fb__epoch *e, fb_result *res) {
    res->disturb_known = e->disturb_known;
    res->probe[0] = e->probe_before;
    res->probe[1] = e->probe_after;
    res->remeasured = e->remeasured;
    res->slow_core = res->probe[0] >= FB__PROBE_SLOW || res->probe[1] >= FB__PROBE_SLOW;
}

void fb__epoch_close(fb__epoch *e) {
    if (e->b && e->b->epoch == e) e->b->epoch = NULL;
    if (e->hook && e->hook->run_end) e->hook->run_end(e->hook->ctx, e->name ? e->name : "");
    e->hook = NULL;
    fb__vg_run_free(e->vg);
    e->vg = NULL;
    fb__config_free(&e->config);
    free(e->name);
    e->name = NULL;
}
