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
 *
 * The loop bodies themselves are written in each program (each framework
 * has its own loop and its own optimizer barrier); what they call is here. */
#ifndef FB_SELFBENCH_WORKLOADS_H
#define FB_SELFBENCH_WORKLOADS_H

#include <stdint.h>
#include <time.h>

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

#endif /* FB_SELFBENCH_WORKLOADS_H */
