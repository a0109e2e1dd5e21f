/* A small suite for tests/test_features_cli.py: user counters, a product
 * family, a benchmark that gives a bad argument to the API when asked
 * (SUITE_FEATURES_BAD), and slow instances for the status line. */
#include <femtobench.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

FB_BENCHMARK(Copy) {
    static unsigned char src[256], dst[256];
    fb_counter(b, "bytes", 256, FB_COUNTER_RATE);
    fb_counter(b, "size", 256, 0);
    fb_counter(b, "calls", 2, FB_COUNTER_PER_ITERATION);
    FB_RUN(b, NULL) {
        memcpy(dst, src, sizeof dst);
        fb_do_not_optimize(dst);
    }
}

/* Grid/1/8, Grid/1/64, Grid/3/8, Grid/3/64: the counters a0 and a1 say
 * which arguments the body read. */
FB_BENCHMARK_PRODUCT(Grid, FB_LIST(1, 3), FB_RANGE(8, 64, 8)) {
    fb_counter(b, "a0", (double)fb_arg_at(b, 0), 0);
    fb_counter(b, "a1", (double)fb_arg_at(b, 1), 0);
    fb_counter(b, "nargs", (double)fb_arg_count(b), 0);
    uint64_t x = (uint64_t)fb_arg_at(b, 1);
    FB_RUN(b, NULL) {
        x = x * 3 + 1;
        fb_do_not_optimize(x);
    }
}

/* A bad argument, chosen by SUITE_FEATURES_BAD; then an ordinary run. */
FB_BENCHMARK(Misuse) {
    const char *k = getenv("SUITE_FEATURES_BAD");
    if (k && !strcmp(k, "empty")) fb_counter(b, "", 1, 0);
    if (k && !strcmp(k, "dup")) {
        fb_counter(b, "n", 1, 0);
        fb_counter(b, "n", 2, 0);
    }
    if (k && !strcmp(k, "nan")) fb_counter(b, "n", NAN, 0);
    if (k && !strcmp(k, "inf")) fb_counter(b, "n", INFINITY, FB_COUNTER_RATE);
    if (k && !strcmp(k, "flags")) fb_counter(b, "n", 1, 8);
    if (k && !strcmp(k, "both")) fb_counter(b, "n", 1, FB_COUNTER_RATE | FB_COUNTER_PER_ITERATION);
    if (k && !strcmp(k, "reserved")) fb_counter(b, "real_time", 1, 0);
    uint64_t x = 1;
    FB_RUN(b, NULL) {
        x += x;
        fb_do_not_optimize(x);
    }
}

/* Each instance runs about 0.7 s, and the first also waits over 2 s of wall
 * time before it measures: the run is past the status line's 2 s at the
 * second benchmark however a busy machine cuts the epochs short. */
FB_BENCHMARK_ARGS(Slow, 1, 2, 3, 4) {
    if (fb_arg(b) == 1) {
        /* time() is in every C library (mingw lacks timespec_get); the
         * wait ends between 2 and 3 s after it starts. */
        time_t until = time(NULL) + 3;
        while (time(NULL) < until) {
        }
    }
    fb_set_epochs(b, 5);
    fb_set_min_epoch_time(b, 0.12);
    fb_set_max_total_time(b, 5);
    uint64_t x = (uint64_t)fb_arg(b);
    FB_RUN(b, NULL) {
        x = x * 7 + 1;
        fb_do_not_optimize(x);
    }
}

FB_MAIN()
