/* The self-benchmarks, femtobench side (gb_selfbench.cpp is the Google
 * Benchmark side; workloads.h what both call). tools/selfbench.py runs one
 * process per workload: fb_selfbench -filter=<name> -output_json=-
 *
 * Everything uses the defaults: a user who writes FB_RUN and nothing else
 * gets these numbers. Two probes are not workloads:
 *   empty   an FB_RUN whose body only keeps a counter alive: the loop overhead
 *   add64   64 dependent `x += x` per call, reported per add: one add's
 *           latency (one cycle on every current x86 and ARM core) with the
 *           loop overhead spread 64 ways, i.e. the length of a cycle; `fast`
 *           divided by it is `fast` in cycles, whatever the turbo clock is
 *
 * spin1us, spin10us, spin100us: busy-waits of a fixed length (workloads.h),
 * the ground truth tools/calibrate_err.py judges err% against. */
#include <femtobench.h>

#include "hashes.h"
#include "workloads.h"

#include <string.h>

FB_BENCHMARK(fast) {
    uint64_t x = 1;
    FB_RUN(b, "fast") {
        x += x;
        fb_do_not_optimize(x);
    }
}

FB_BENCHMARK(siphash) {
    uint8_t v[32] = {0};
    uint64_t k1 = 0;
    FB_RUN(b, "siphash") {
        uint64_t h = fbh_siphash24_u256(0, ++k1, v);
        fb_do_not_optimize(h);
        memcpy(v, &h, sizeof h); /* the next input depends on this output */
    }
}

FB_BENCHMARK(fluct) {
    sb_rng rng = {42};
    FB_RUN(b, "fluct") {
        uint64_t s = sb_fluct(&rng);
        fb_do_not_optimize(s);
    }
}

FB_BENCHMARK(slow) {
    FB_RUN(b, "slow") {
        sb_sleep_10ms();
    }
}

FB_BENCHMARK(memcpy4k) {
    static uint8_t src[SB_MEMCPY_BYTES], dst[SB_MEMCPY_BYTES];
    memset(src, 1, sizeof src);
    memset(dst, 2, sizeof dst);
    uint8_t *d = dst;
    fb_set_batch(b, SB_MEMCPY_BYTES);
    fb_set_unit(b, "byte");
    FB_RUN(b, "memcpy4k") {
        fb_do_not_optimize(d);
        memcpy(d, src, SB_MEMCPY_BYTES);
        fb_clobber_memory();
    }
}

FB_BENCHMARK(empty) {
    uint64_t counter = 0;
    FB_RUN(b, "empty") {
        fb_do_not_optimize(counter);
    }
}

#define SB_ADD1 x += x; fb_do_not_optimize(x);
#define SB_ADD8 SB_ADD1 SB_ADD1 SB_ADD1 SB_ADD1 SB_ADD1 SB_ADD1 SB_ADD1 SB_ADD1
FB_BENCHMARK(add64) {
    uint64_t x = 1;
    fb_set_batch(b, 64);
    fb_set_unit(b, "add");
    FB_RUN(b, "add64") {
        SB_ADD8 SB_ADD8 SB_ADD8 SB_ADD8 SB_ADD8 SB_ADD8 SB_ADD8 SB_ADD8
    }
}

/* The spins: the tick count is measured once per process, outside FB_RUN. */
#define SB_SPIN_BENCH(name, ns)                                                                    \
    FB_BENCHMARK(name) {                                                                           \
        static uint64_t ticks;                                                                     \
        if (!ticks) ticks = sb_spin_ticks(ns);                                                     \
        FB_RUN(b, #name) {                                                                         \
            sb_spin(ticks);                                                                        \
        }                                                                                          \
    }
SB_SPIN_BENCH(spin1us, 1000)
SB_SPIN_BENCH(spin10us, 10000)
SB_SPIN_BENCH(spin100us, 100000)

FB_MAIN()
