/* The demo-size suite behind tools/ab_check.py and tools/ab_layout_check.py
 * (docs/ab.md): nine benchmarks from about 0.3 ns to 0.5 ms.
 * AB_CHECK_SLOW_PCT makes the work of Chain and Mem that many percent longer
 * with more code (a second loop after the first, as a real edit adds work:
 * the code after it moves), the change femtobench-ab must find; every other
 * benchmark is the same code in both builds. AB_CHECK_DROP_UNRELATED
 * removes the benchmark Unrelated (first in the file: everything after it
 * moves), the edit that must change no verdict. Add40 and Fixed are small
 * loops whose speed depends on where the linker puts them. Built as a
 * plugin and as a runner from this one source. */
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

#ifndef AB_CHECK_DROP_UNRELATED
FB_BENCHMARK(Unrelated) {
    uint64_t x = 5;
    FB_RUN(b, "Unrelated") {
        for (int i = 0; i < 100; ++i) x = x * 3 + (uint64_t)i;
        fb_do_not_optimize(x);
    }
}
#endif

FB_BENCHMARK(Fixed) {
    uint64_t x = 1;
    FB_RUN(b, "Fixed") {
        x += 3;
        fb_do_not_optimize(x);
    }
}

FB_BENCHMARK(Add40) {
    uint64_t x = 1;
    int n = 40;
    fb_do_not_optimize(n);
    FB_RUN(b, "Add40") {
        for (int i = 0; i < n; ++i) {
            x += (uint64_t)i;
            fb_do_not_optimize(x);
        }
    }
}

FB_BENCHMARK(Tiny) {
    uint64_t x = 1;
    FB_RUN(b, "Tiny") {
        x = ab_mix(x);
        fb_do_not_optimize(x);
    }
}

/* a dependent chain of 2000 multiply-xorshift steps (and the slowdown's
 * steps in a second loop: more work and more code) */
FB_BENCHMARK(Chain) {
    uint64_t x = 7;
    int steps = 2000;
    fb_do_not_optimize(steps);
    FB_RUN(b, "Chain") {
        for (int i = 0; i < steps; ++i) x = ab_mix(x + (uint64_t)i);
#if AB_CHECK_SLOW_PCT
        for (int i = 0; i < 2000 * AB_CHECK_SLOW_PCT / 100; ++i) x = ab_mix(x ^ (uint64_t)i);
#endif
        fb_do_not_optimize(x);
    }
}

/* memory-bound: a sum streamed from 1 MiB, beyond the level-2 cache (and the
 * slowdown's share more, in a second loop) */
#define AB_STREAM (1u << 17)
static uint64_t ab_stream[AB_STREAM + AB_STREAM / 10];
FB_BENCHMARK(Mem) {
    for (uint32_t i = 0; i < AB_STREAM + AB_STREAM / 10; ++i) ab_stream[i] = i;
    FB_RUN(b, "Mem") {
        uint64_t s = 0;
        for (uint32_t i = 0; i < AB_STREAM; ++i) s += ab_stream[i];
#if AB_CHECK_SLOW_PCT
        for (uint32_t i = 0; i < AB_STREAM / 100 * AB_CHECK_SLOW_PCT; ++i)
            s ^= ab_stream[AB_STREAM + i];
#endif
        fb_do_not_optimize(s);
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
