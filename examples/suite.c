/* SPDX-License-Identifier: MIT
 *
 * suite.c: a benchmark suite with a command line, from FB_BENCHMARK + FB_MAIN.
 *
 * Run:   ./suite                      every benchmark, one table
 *        ./suite -list                their names
 *        ./suite -filter='Fill.*'     only those whose whole name matches
 *        ./suite -sanity_check        each runs once, no table (for CI)
 *        ./suite -help                every option
 *
 * Each FB_BENCHMARK(fn) is registered at start-up under the name "fn" and gets
 * a fresh bench `b`; FB_MAIN() defines main() and runs the selected ones.
 */
#include <femtobench.h>

#include <stdlib.h>
#include <string.h>

FB_BENCHMARK(FillMemset) {
    /* Setup outside FB_RUN is not timed. */
    static unsigned char buf[4096];
    FB_RUN(b, "FillMemset") {
        memset(buf, 0x5a, sizeof buf);
        fb_do_not_optimize(buf);
    }
}

FB_BENCHMARK(FillLoop) {
    static unsigned char buf[4096];
    FB_RUN(b, "FillLoop") {
        for (size_t i = 0; i < sizeof buf; i++) {
            buf[i] = 0x5a;
        }
        fb_do_not_optimize(buf);
    }
}

/* fb_run with a function instead of an inline body: handy when the operation
 * already is a function. ctx carries its state. */
struct sum_ctx {
    const uint32_t *v;
    size_t n;
    uint64_t sum;
};

static void sum_op(void *p) {
    struct sum_ctx *c = p;
    uint64_t s = 0;
    for (size_t i = 0; i < c->n; i++) {
        s += c->v[i];
    }
    c->sum = s;
    fb_do_not_optimize(c->sum);
}

FB_BENCHMARK(SumArray) {
    enum { N = 1000 };
    static uint32_t v[N];
    fb_rng rng;
    fb_rng_seed(&rng, 42); /* fixed seed: the same input every run */
    for (size_t i = 0; i < N; i++) {
        v[i] = (uint32_t)fb_rng_u64(&rng);
    }
    struct sum_ctx c = {v, N, 0};
    fb_run(b, "SumArray", sum_op, &c);
}

FB_MAIN()
