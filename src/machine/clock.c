/* The monotonic clock, its resolution and its read overhead. */
#include "clock.h"

#include <math.h>
#include <time.h>

#if !FB_HAVE_WINDOWS
/* POSIX (Linux x86-64, i386 and aarch64; macOS): CLOCK_MONOTONIC. On Linux
 * it is the vDSO, which on aarch64 reads cntvct_el0 itself (and works
 * around the counter's errata); docs/platforms.md has the measurement that
 * kept it over reading cntvct_el0 here. Windows: src/machine/clock_win.c. */
uint64_t fb__clock_now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t fb__clock_cpu_ns(void) {
#ifdef CLOCK_THREAD_CPUTIME_ID
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) == 0)
        return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
#endif
    return FB__CLOCK_CPU_UNKNOWN;
}
#endif

/* What two back-to-back reads of the thread's CPU clock add to the CPU time
 * between them (the fastest of 20 pairs): an epoch's CPU time spans its two
 * clock reads plus about this much, which is taken off. NAN when the CPU
 * clock cannot be read. */
static double fb__clock_cpu_overhead_s(void) {
    uint64_t best = UINT64_MAX;
    for (int i = 0; i < 20; ++i) {
        uint64_t c0 = fb__clock_cpu_ns();
        uint64_t w0 = fb__clock_now_ns(), w1 = fb__clock_now_ns();
        uint64_t c1 = fb__clock_cpu_ns();
        (void)w0;
        (void)w1;
        if (c0 == FB__CLOCK_CPU_UNKNOWN || c1 == FB__CLOCK_CPU_UNKNOWN) return NAN;
        if (c1 >= c0 && c1 - c0 < best) best = c1 - c0;
    }
    return best == UINT64_MAX ? NAN : (double)best * 1e-9;
}

static uint64_t fb__clock_default(void *ctx) {
    (void)ctx;
    return fb__clock_now_ns();
}

/* The time per iteration of FB_RUN's loop shape holding only the
 * do-not-optimize barrier: the fastest of 5 runs of 20,000 iterations (~6 us
 * each at one cycle an iteration, so the two clock reads are < 0.5%). */
static double fb__clock_empty_loop_s(void) {
    double best = 0;
    for (int t = 0; t < 5; ++t) {
        uint64_t x = 0, i = 20000;
        uint64_t t0 = fb__clock_now_ns();
        for (; i; --i) fb_do_not_optimize(x);
        uint64_t t1 = fb__clock_now_ns();
        double v = (double)(t1 - t0) * 1e-9 / 20000.0;
        if (t1 > t0 && (best == 0 || v < best)) best = v;
    }
    return best;
}

/* Resolution: the smallest non-zero difference between two reads, over 20
 * samples (on a fine clock this is the read cost; on a coarse one the tick).
 * Overhead: the cost of one read, from 20 runs of 64 back-to-back reads
 * (minimum run, so that interrupts do not count). Takes a few microseconds. */
static double fb__clock_resolution_s(fb_clock_fn now_ns, void *ctx) {
    uint64_t best = UINT64_MAX;
    for (int i = 0; i < 20; ++i) {
        uint64_t t0 = now_ns(ctx), t1;
        int spins = 0;
        do {
            t1 = now_ns(ctx);
        } while (t1 == t0 && ++spins < 1000000);
        if (t1 > t0 && t1 - t0 < best) best = t1 - t0;
    }
    return best == UINT64_MAX ? 1e-6 : (double)best * 1e-9;
}

void fb__clock_measure(fb_clock_fn now_ns, void *ctx, fb__clock_info *out) {
    if (!now_ns) now_ns = fb__clock_default;
    out->resolution_s = fb__clock_resolution_s(now_ns, ctx);
    uint64_t best_run = UINT64_MAX;
    for (int i = 0; i < 20; ++i) {
        uint64_t t0 = now_ns(ctx), t1 = t0;
        for (int k = 0; k < 64; ++k) t1 = now_ns(ctx);
        if (t1 - t0 < best_run) best_run = t1 - t0;
    }
    out->overhead_s = (double)best_run * 1e-9 / 64.0;
    /* only the process clock: a custom clock's time is not the loop's */
    out->empty_loop_s = now_ns == fb__clock_default ? fb__clock_empty_loop_s() : 0;
    out->cpu_overhead_s = now_ns == fb__clock_default ? fb__clock_cpu_overhead_s() : NAN;
}

void fb__clock_measure_paced(fb__clock_info *out) {
    out->resolution_s = fb__clock_resolution_s(fb__clock_default, NULL);
    out->overhead_s = 0;   /* not measured: a runner's marks */
    out->empty_loop_s = 0; /* not measured: no "optimized away" mark */
    out->cpu_overhead_s = fb__clock_cpu_overhead_s();
}
