/* A suite of benchmark families for the runner tests (tests/test_args.py). */
#include "femtobench.h"

#include <stdlib.h>
#include <string.h>

/* Copy/8 .. Copy/4096: memcpy of arg bytes, reported per byte. */
FB_BENCHMARK_RANGE(Copy, 8, 4096, 8) {
    size_t n = (size_t)fb_arg(b);
    unsigned char *src = calloc(n, 1), *dst = calloc(n, 1);
    if (!src || !dst) {
        free(src);
        free(dst);
        return;
    }
    fb_set_unit(b, "byte");
    fb_set_batch(b, (double)n);
    FB_RUN(b, NULL) {
        memcpy(dst, src, n);
        fb_do_not_optimize(dst[0]);
        fb_clobber_memory();
    }
    free(src);
    free(dst);
}

/* Linear work in the argument, with N set from it: a family fit. Its clock
 * moves only with the work, 1 ns per element, so the fit is exactly O(n)
 * whatever the machine's load: the tests check how a family's fit is made
 * and written, not this machine's timing. */
static uint64_t suite_args_work_clock(void *ctx) { return *(const uint64_t *)ctx; }

FB_BENCHMARK_ARGS(Scan, 1000, 2000, 4000, 8000, 16000, 32000) {
    size_t n = (size_t)fb_arg(b);
    uint64_t *v = calloc(n, sizeof *v);
    if (!v) return;
    uint64_t now_ns = 0;
    fb_set_clock(b, suite_args_work_clock, &now_ns, 1e-9);
    fb_set_complexity_n(b, (double)fb_arg(b));
    FB_RUN(b, NULL) {
        for (size_t i = 0; i < n; ++i) v[i] += i;
        now_ns += n;
        fb_do_not_optimize(v[0]);
    }
    free(v);
}

/* Reads N (as -asymptote sets it) and does N x arg work, without setting N:
 * under -asymptote each instance is fitted on its own. */
FB_BENCHMARK_ARGS(Grow, 1, 4) {
    double asked = fb_complexity_n(b);
    size_t n = (asked > 1 ? (size_t)asked : 100) * (size_t)fb_arg(b);
    uint64_t *v = calloc(n, sizeof *v);
    if (!v) return;
    FB_RUN(b, NULL) {
        for (size_t i = 0; i < n; ++i) v[i] += i;
        fb_do_not_optimize(v[0]);
    }
    free(v);
}

/* Two named runs per instance: each name gets the instance's "/arg". */
FB_BENCHMARK_ARGS(Pair, 2, 5) {
    uint64_t x = 1;
    FB_RUN(b, "PairAdd") {
        x += (uint64_t)fb_arg(b);
        fb_do_not_optimize(x);
    }
    FB_RUN(b, "PairMul") {
        x *= (uint64_t)fb_arg(b);
        fb_do_not_optimize(x);
    }
}

/* A plain benchmark: fb_arg is 0. */
FB_BENCHMARK(Plain) {
    uint64_t x = 1;
    if (fb_arg(b) != 0) fb_set_unit(b, "wrong-arg");
    FB_RUN(b, NULL) {
        /* two dependent multiplies, 6 cycles: more than 2x an empty loop even
         * when the empty loop was timed in a slow episode of the core (2 cycles) */
        x *= 0x9E3779B97F4A7C15u;
        fb_do_not_optimize(x); /* two multiplies, not one by the square */
        x *= 0x9E3779B97F4A7C15u;
        fb_do_not_optimize(x);
    }
}

FB_MAIN()
