/* The self-benchmark workloads, shared word for word by fb_selfbench.c
 * (femtobench) and gb_selfbench.cpp (Google Benchmark) so that both
 * frameworks time the same machine code. Valid C11 and C++11.
 *
 *   fast      x += x on a uint64_t that starts at 1 (a one-cycle dependency)
 *   siphash   SipHash-2-4 of 32 bytes (fbh_siphash24_u256), result chained
 *   fluct     draws 0-255 numbers from a small RNG per call, the count itself
 *             drawn: the cost of one call varies from call to call
 *   slow      sleeps 10 ms
 *   memcpy4k  copies 4096 bytes, reported per byte
 *   spin1us, spin10us, spin100us (fb_selfbench only)
 *             busy-wait on the time-stamp counter (x86) or CLOCK_MONOTONIC
 *             (elsewhere) for a fixed number of ticks, about 1, 10 and 100
 *             us: ops whose true cost is known, for judging err%
 *             (tools/calibrate_err.py)
 *
 * The loop bodies themselves are written in each program (each framework
 * has its own loop and its own optimizer barrier); what they call is here. */
#ifndef FB_SELFBENCH_WORKLOADS_H
#define FB_SELFBENCH_WORKLOADS_H

#include <stdint.h>
#include <time.h>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define SB_SPIN_TSC 1
#else
#define SB_SPIN_TSC 0
#endif

#define SB_MEMCPY_BYTES 4096
#define SB_SLOW_NS 10000000L

/* A small, fast generator (splitmix64: a 64-bit Weyl sequence through a
 * multiply-xorshift mixer). Only for benchmark inputs. */
typedef struct sb_rng {
    uint64_t state;
} sb_rng;

static inline uint64_t sb_rng_next(sb_rng *r) {
    uint64_t z = (r->state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* One fluct call: the number of draws (0..255) is itself drawn, so the cost
 * depends on the data. Returns the sum so that nothing can be dropped. */
static inline uint64_t sb_fluct(sb_rng *r) {
    uint64_t n = sb_rng_next(r) & 255u;
    uint64_t sum = 0;
    for (uint64_t i = 0; i < n; ++i) sum += sb_rng_next(r);
    return sum;
}

/* The slow op: one 10 ms sleep (restarted after a signal). */
static inline void sb_sleep_10ms(void) {
    struct timespec ts;
    ts.tv_sec = 0;
    ts.tv_nsec = SB_SLOW_NS;
    while (nanosleep(&ts, &ts) != 0) {
    }
}

/* The spin ops' tick: the time-stamp counter on x86 (invariant on every
 * current core: it counts wall time whatever the core's clock), else
 * CLOCK_MONOTONIC in nanoseconds. */
static inline uint64_t sb_spin_now(void) {
#if SB_SPIN_TSC
    return (uint64_t)__rdtsc();
#else
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
#endif
}

static inline uint64_t sb_mono_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* One reading of both clocks: the counter read on each side of
 * CLOCK_MONOTONIC, the closest of 9 tries (a try that was interrupted or
 * descheduled between the reads is wide and loses). */
static inline void sb_spin_pair(uint64_t *ns, uint64_t *ticks) {
    uint64_t best = UINT64_MAX;
    *ns = *ticks = 0;
    for (int i = 0; i < 9; ++i) {
        uint64_t a = sb_spin_now(), n = sb_mono_ns(), b = sb_spin_now();
        if (b - a < best) {
            best = b - a;
            *ns = n;
            *ticks = a + (b - a) / 2;
        }
    }
}

/* Ticks of sb_spin_now in `ns` nanoseconds: measured once over 20 ms
 * against CLOCK_MONOTONIC (outside any timed region), from two bracketed
 * readings so that a preemption during the measurement does not move it
 * (the tick count is the spin's ground truth: it must not differ between
 * processes). A slow episode of the core does not change it: both clocks
 * count wall time. */
static inline uint64_t sb_spin_ticks(uint64_t ns) {
#if SB_SPIN_TSC
    uint64_t n0, t0, n1, t1;
    sb_spin_pair(&n0, &t0);
    do {
        sb_spin_pair(&n1, &t1);
    } while (n1 - n0 < 20000000u);
    return (uint64_t)((double)ns * (double)(t1 - t0) / (double)(n1 - n0) + 0.5);
#else
    return ns;
#endif
}

/* One spin op: busy-waits until `ticks` ticks have passed. Its true cost is
 * the ticks plus one read of the counter (the overshoot). */
static inline void sb_spin(uint64_t ticks) {
    uint64_t t0 = sb_spin_now();
    while (sb_spin_now() - t0 < ticks) {
    }
}

#endif /* FB_SELFBENCH_WORKLOADS_H */
