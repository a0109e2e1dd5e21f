/* A small suite for the tests of -repetitions in fresh processes and of
 * femtobench-compare -run (tests/test_passes_cli.py). */
#include "femtobench.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* The process it ran in: its unit is "<pid>-<address of a static>-<runs of
 * this function in the process>". A fresh exec'd process has a new pid, a
 * new address (with address-space randomisation) and a count of 1. */
static int suite_passes_runs;

FB_BENCHMARK(Where) {
    char unit[96];
    snprintf(unit, sizeof unit, "%ld-%p-%d", (long)getpid(), (void *)&suite_passes_runs,
             ++suite_passes_runs);
    fb_set_unit(b, unit);
    uint64_t x = 1;
    FB_RUN(b, NULL) {
        x += x;
        fb_do_not_optimize(x);
    }
}

/* 1000 times the work when SUITE_PASSES_SLOW is set: a certain "slower". */
FB_BENCHMARK(Work) {
    unsigned n = getenv("SUITE_PASSES_SLOW") ? 20000 : 20;
    uint64_t x = 1;
    FB_RUN(b, NULL) {
        for (unsigned i = 0; i < n; ++i) {
            x = x * 6364136223846793005u + 1;
            fb_do_not_optimize(x);
        }
    }
}

/* Four more, so that a table between processes has enough benchmarks for
 * the speed of each process to be divided out (src/change_suite.c): k
 * multiply-adds, 1000 times as many when SUITE_PASSES_ALL_SLOW is set (with
 * SUITE_PASSES_SLOW on Work: every benchmark of the suite 1000x slower). */
static void suite_passes_steady(fb_bench *b, unsigned k) {
    unsigned n = getenv("SUITE_PASSES_ALL_SLOW") ? 1000 * k : k;
    uint64_t x = 1;
    FB_RUN(b, NULL) {
        for (unsigned i = 0; i < n; ++i) {
            x = x * 2862933555777941757u + 3037000493u;
            fb_do_not_optimize(x);
        }
    }
}
FB_BENCHMARK(Steady1) { suite_passes_steady(b, 8); }
FB_BENCHMARK(Steady2) { suite_passes_steady(b, 12); }
FB_BENCHMARK(Steady3) { suite_passes_steady(b, 16); }
FB_BENCHMARK(Steady4) { suite_passes_steady(b, 24); }

/* Ends the process when SUITE_PASSES_CRASH is set. */
FB_BENCHMARK(Crash) {
    if (getenv("SUITE_PASSES_CRASH")) abort();
    uint64_t x = 1;
    FB_RUN(b, NULL) {
        x ^= x << 1;
        fb_do_not_optimize(x);
    }
}

/* A paired comparison in each pass: "one" and "two" (twice the work); with
 * SUITE_PASSES_BROKEN set, it reads a clock that never moves: error rows. */
static uint64_t suite_passes_frozen(void *ctx) {
    (void)ctx;
    return 0;
}
FB_BENCHMARK(Pair) {
    uint64_t x = 1;
    bool broken = getenv("SUITE_PASSES_BROKEN") != NULL;
    if (broken) fb_set_clock(b, suite_passes_frozen, NULL, 1e-9);
    FB_COMPARE(b, "pair") {
        FB_ALTERNATIVE("one") {
            x = x * 6364136223846793005u + 1;
            fb_do_not_optimize(x);
        }
        FB_ALTERNATIVE("two") {
            for (int i = 0; i < 2; ++i) {
                x = x * 6364136223846793005u + 1;
                fb_do_not_optimize(x);
            }
        }
    }
}

FB_MAIN()
