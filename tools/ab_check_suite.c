/* The demo-size suite behind tools/ab_check.py (docs/ab.md): six benchmarks
 * from about 5 ns to 0.5 ms. AB_CHECK_SLOW_PCT makes Chain's work that many
 * percent longer (a longer dependent chain: its time grows in proportion),
 * the change femtobench-ab must find; every other benchmark is the same
 * code in both builds. Built as a plugin and as a runner from this one
 * source. */
#include "femtobench.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifndef AB_CHECK_SLOW_PCT
#define AB_CHECK_SLOW_PCT 0
#endif

static uint64_t ab_mix(uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    return x;
}

FB_BENCHMARK(Tiny) {
    uint64_t x = 1;
    FB_RUN(b, "Tiny") {
        x = ab_mix(x);
        fb_do_not_optimize(x);
    }
}

/* a dependent chain of 2000 (+ the slowdown) multiply-xorshift steps */
FB_BENCHMARK(Chain) {
    uint64_t x = 7;
    int steps = 2000 + 2000 * AB_CHECK_SLOW_PCT / 100;
    fb_do_not_optimize(steps);
    FB_RUN(b, "Chain") {
        for (int i = 0; i < steps; ++i) x = ab_mix(x + (uint64_t)i);
        fb_do_not_optimize(x);
    }
}

static uint64_t ab_buf[4096];
FB_BENCHMARK(Sum32K) {
    for (size_t i = 0; i < 4096; ++i) ab_buf[i] = ab_mix(i);
    FB_RUN(b, "Sum32K") {
        uint64_t s = 0;
        for (size_t i = 0; i < 4096; ++i) s += ab_buf[i];
        fb_do_not_optimize(s);
    }
}

static int ab_cmp(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}
/* each op sorts a fresh copy of the same shuffled array */
static uint64_t ab_sort_src[1024], ab_sort_buf[1024];
FB_BENCHMARK(Sort1K) {
    for (size_t i = 0; i < 1024; ++i) ab_sort_src[i] = ab_mix(i + 99);
    FB_RUN(b, "Sort1K") {
        memcpy(ab_sort_buf, ab_sort_src, sizeof ab_sort_buf);
        qsort(ab_sort_buf, 1024, sizeof ab_sort_buf[0], ab_cmp);
        fb_do_not_optimize(ab_sort_buf[0]);
    }
}

FB_BENCHMARK(Copy64K) {
    static unsigned char src[65536], dst[65536];
    memset(src, 3, sizeof src);
    FB_RUN(b, "Copy64K") {
        memcpy(dst, src, sizeof dst);
        fb_do_not_optimize(dst[100]);
    }
}

FB_BENCHMARK(Long) {
    uint64_t x = 3;
    FB_RUN(b, "Long") {
        for (int i = 0; i < 250000; ++i) x = ab_mix(x ^ (uint64_t)i);
        fb_do_not_optimize(x);
    }
}

FB_MAIN()
