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

/* Ends the process when SUITE_PASSES_CRASH is set. */
FB_BENCHMARK(Crash) {
    if (getenv("SUITE_PASSES_CRASH")) abort();
    uint64_t x = 1;
    FB_RUN(b, NULL) {
        x ^= x << 1;
        fb_do_not_optimize(x);
    }
}

FB_MAIN()
