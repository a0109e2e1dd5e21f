/* The busy-machine workloads with femtobench (busy_ops.h says what each
 * is); tools/busy_check.py runs them quiet and under load. */
#include "femtobench.h"

#include "busy_ops.h"

FB_BENCHMARK(add1) {
    uint64_t x = 1;
    FB_RUN(b, "add1") {
        x += x;
        fb_do_not_optimize(x);
    }
}

#define BUSY_ADD x += x; fb_do_not_optimize(x);
#define BUSY_ADD8 BUSY_ADD BUSY_ADD BUSY_ADD BUSY_ADD BUSY_ADD BUSY_ADD BUSY_ADD BUSY_ADD
FB_BENCHMARK(chain32) {
    uint64_t x = 1;
    FB_RUN(b, "chain32") {
        BUSY_ADD8 BUSY_ADD8 BUSY_ADD8 BUSY_ADD8
    }
}

FB_BENCHMARK(hash16) {
    uint64_t h = 1;
    fb_set_batch(b, 16);
    fb_set_unit(b, "byte");
    FB_RUN(b, "hash16") {
        h = busy_siphash16(1, 2, h, 3);
        fb_do_not_optimize(h);
    }
}

#define BUSY_MUL_BENCH(name, k)                                                                    \
    FB_BENCHMARK(name) {                                                                           \
        uint64_t x = 1;                                                                            \
        FB_RUN(b, #name) {                                                                         \
            x = busy_mul(x, k);                                                                    \
            fb_do_not_optimize(x);                                                                 \
        }                                                                                          \
    }
BUSY_MUL_BENCH(mul1us, BUSY_MUL_1US)
BUSY_MUL_BENCH(mul100us, 100u * BUSY_MUL_1US)
BUSY_MUL_BENCH(mul1ms, 1000u * BUSY_MUL_1US)

FB_BENCHMARK_THREADS(mul1us_threads, 1, 2, 4) {
    uint64_t x = 1;
    FB_RUN(b, NULL) {
        x = busy_mul(x, BUSY_MUL_1US);
        fb_do_not_optimize(x);
    }
}

FB_MAIN()
