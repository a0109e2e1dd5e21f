/* SPDX-License-Identifier: MIT
 *
 * manual_time.c: the body reports its own time, or takes a region out of
 * the clock.
 *
 * fb_set_manual_time(b, true) + fb_set_iteration_time(b, seconds): each
 * epoch records the seconds the body gave instead of the clock (for GPU
 * work timed by its events, I/O timed by the device, or one region of a
 * larger body, as here). fb_exclude_begin(b) / fb_exclude_end(b): the time
 * between them is taken out of the epoch's time, at the cost of about one
 * clock read per pair (the last two rows measure it on this machine).
 *
 * Run:   ./manual_time
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <femtobench.h>

#include <stdlib.h>
#include <string.h>
#include <time.h>

#define FB_EX_N 256

static void fb_ex_shuffle(uint32_t *v, size_t n, fb_rng *rng) {
    for (size_t i = n - 1; i > 0; --i) {
        size_t j = fb_rng_bounded(rng, (uint32_t)(i + 1));
        uint32_t t = v[i];
        v[i] = v[j];
        v[j] = t;
    }
}

static void fb_ex_sort(uint32_t *v, size_t n) { /* insertion sort: small n */
    for (size_t i = 1; i < n; ++i) {
        uint32_t x = v[i];
        size_t j = i;
        for (; j > 0 && v[j - 1] > x; --j) v[j] = v[j - 1];
        v[j] = x;
    }
}

static uint64_t fb_ex_now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The shuffle before each sort is excluded: the row is the sort alone. */
FB_BENCHMARK(SortExcluded) {
    static uint32_t v[FB_EX_N];
    fb_rng rng;
    fb_rng_seed(&rng, 1);
    for (uint32_t i = 0; i < FB_EX_N; ++i) v[i] = i;
    FB_RUN(b, NULL) {
        fb_exclude_begin(b);
        fb_ex_shuffle(v, FB_EX_N, &rng);
        fb_exclude_end(b);
        fb_ex_sort(v, FB_EX_N);
        fb_do_not_optimize(v);
    }
}

/* The same with manual timing: the body times the sort with its own
 * clock and reports it. */
FB_BENCHMARK(SortManual) {
    static uint32_t v[FB_EX_N];
    fb_rng rng;
    fb_rng_seed(&rng, 1);
    for (uint32_t i = 0; i < FB_EX_N; ++i) v[i] = i;
    fb_set_manual_time(b, true);
    FB_RUN(b, NULL) {
        fb_ex_shuffle(v, FB_EX_N, &rng);
        uint64_t t0 = fb_ex_now_ns();
        fb_ex_sort(v, FB_EX_N);
        fb_do_not_optimize(v);
        fb_set_iteration_time(b, (double)(fb_ex_now_ns() - t0) * 1e-9);
    }
}

/* Shuffle and sort, both timed: the first row plus the shuffle. */
FB_BENCHMARK(SortWithShuffle) {
    static uint32_t v[FB_EX_N];
    fb_rng rng;
    fb_rng_seed(&rng, 1);
    for (uint32_t i = 0; i < FB_EX_N; ++i) v[i] = i;
    FB_RUN(b, NULL) {
        fb_ex_shuffle(v, FB_EX_N, &rng);
        fb_ex_sort(v, FB_EX_N);
        fb_do_not_optimize(v);
    }
}

/* What an empty excluded region costs: the difference of these two rows
 * is what stays in the measurement per fb_exclude_begin/end pair. */
FB_BENCHMARK(ZCostEmptyBody) {
    uint64_t x = 1;
    FB_RUN(b, NULL) {
        x += x;
        fb_do_not_optimize(x);
    }
}
FB_BENCHMARK(ZCostEmptyExcluded) {
    uint64_t x = 1;
    FB_RUN(b, NULL) {
        x += x;
        fb_exclude_begin(b);
        fb_exclude_end(b);
        fb_do_not_optimize(x);
    }
}

FB_MAIN()
