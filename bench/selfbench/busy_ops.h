/* The busy-machine workloads (tools/busy_check.py, docs/performance.md,
 * "A busy machine"), shared word for word by busy_fb.c (femtobench) and
 * busy_gb.cpp (Google Benchmark). Every op is a fixed amount of work, not a
 * wait on a clock: its CPU time is the same whatever the machine does, so a
 * run's value under load can be judged against the same run on a quiet
 * machine. Valid C11 and C++11.
 *
 *   add1      x += x on a uint64_t (a one-cycle dependency, ~0.3 ns)
 *   chain32   32 dependent adds, each through the optimizer barrier (~9 ns)
 *   hash16    SipHash-2-4 of 16 bytes, the result chained (~10 ns)
 *   mul1us, mul100us, mul1ms
 *             a dependent chain of 64-bit multiply-adds (4 cycles each),
 *             ~1 us, ~100 us and ~1 ms on a 3 GHz core
 *   mul1us_threads (busy_fb.c: FB_BENCHMARK_THREADS 1, 2, 4; busy_gb.cpp:
 *             Threads(1)->Threads(2)->Threads(4))
 */
#ifndef FB_BUSY_OPS_H
#define FB_BUSY_OPS_H

#include <stdint.h>

#define BUSY_MUL_1US 750u

/* k dependent multiply-adds; the compiler cannot shorten the chain. */
static inline uint64_t busy_mul(uint64_t x, uint32_t k) {
    for (uint32_t i = 0; i < k; ++i) x = x * 0x9E3779B97F4A7C15ull + 1u;
    return x;
}

/* SipHash-2-4 of 16 bytes (two words), key (k0, k1). */
#define BUSY_ROTL(x, b) (uint64_t)(((x) << (b)) | ((x) >> (64 - (b))))
#define BUSY_ROUND                                                                                 \
    do {                                                                                           \
        v0 += v1;                                                                                  \
        v1 = BUSY_ROTL(v1, 13);                                                                    \
        v1 ^= v0;                                                                                  \
        v0 = BUSY_ROTL(v0, 32);                                                                    \
        v2 += v3;                                                                                  \
        v3 = BUSY_ROTL(v3, 16);                                                                    \
        v3 ^= v2;                                                                                  \
        v0 += v3;                                                                                  \
        v3 = BUSY_ROTL(v3, 21);                                                                    \
        v3 ^= v0;                                                                                  \
        v2 += v1;                                                                                  \
        v1 = BUSY_ROTL(v1, 17);                                                                    \
        v1 ^= v2;                                                                                  \
        v2 = BUSY_ROTL(v2, 32);                                                                    \
    } while (0)

static inline uint64_t busy_siphash16(uint64_t k0, uint64_t k1, uint64_t m0, uint64_t m1) {
    uint64_t v0 = 0x736f6d6570736575ull ^ k0, v1 = 0x646f72616e646f6dull ^ k1;
    uint64_t v2 = 0x6c7967656e657261ull ^ k0, v3 = 0x7465646279746573ull ^ k1;
    uint64_t m[3] = {m0, m1, (uint64_t)16 << 56};
    for (int i = 0; i < 3; ++i) {
        v3 ^= m[i];
        BUSY_ROUND;
        BUSY_ROUND;
        v0 ^= m[i];
    }
    v2 ^= 0xff;
    BUSY_ROUND;
    BUSY_ROUND;
    BUSY_ROUND;
    BUSY_ROUND;
    return v0 ^ v1 ^ v2 ^ v3;
}

#endif
