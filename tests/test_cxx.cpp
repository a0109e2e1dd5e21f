// The public header compiles as C++ and its macros work there.
#include "femtobench.h"

#include <cstdio>
#include <cstring>

static uint64_t fake_now;
static uint64_t fake_clock(void *) { return fake_now; }
static void op(void *ctx) { fake_now += *static_cast<uint64_t *>(ctx); }

static uint64_t registered_cost = 1;
// a sanity check fails a benchmark that measures nothing: this one measures
FB_BENCHMARK(CxxRegistered) { fb_run(b, nullptr, op, &registered_cost); }

// families: every instance adds its argument; setup counts epochs
static int64_t arg_sum;
static int setups;
static void count_setup(void *ctx) { ++*static_cast<int *>(ctx); }
FB_BENCHMARK_ARGS(CxxArgs, 3, 5) {
    arg_sum += fb_arg(b);
    fb_run(b, nullptr, op, &registered_cost); // a sanity check fails what measures nothing
}
FB_BENCHMARK_RANGE(CxxRange, 1, 8, 2) {
    arg_sum += fb_arg(b);
    fb_set_setup(b, count_setup, &setups);
    uint64_t y = 1;
    FB_RUN(b, NULL) {
        y += y;
        fb_do_not_optimize(y);
    }
}

int main() {
    fb_bench *b = fb_bench_new();
    fb_set_clock(b, fake_clock, nullptr, 1e-9);
    fb_set_output(b, nullptr);
    fb_set_performance_counters(b, false);
    uint64_t cost = 40;
    const fb_result *r = fb_run(b, "cxx op", op, &cost);
    int failures = 0;
    if (!r || std::strcmp(fb_result_name(r), "cxx op") != 0) ++failures;
    if (r && (fb_result_median(r, FB_ELAPSED) < 39e-9 || fb_result_median(r, FB_ELAPSED) > 41e-9))
        ++failures;
    uint64_t x = 1;
    FB_RUN(b, "inline") {
        fake_now += 10;
        x += x;
        fb_do_not_optimize(x);
    }
    if (fb_result_count(b) != 2) ++failures;
    // a comparison, both forms
    uint64_t cost2 = 50;
    const fb_alternative alts[] = {{"forty", op, &cost}, {"fifty", op, &cost2}};
    const fb_comparison *c = fb_compare(b, "cxx", alts, 2);
    if (!c || fb_comparison_ratio(c, 1) < 0.79 || fb_comparison_ratio(c, 1) > 0.81) ++failures;
    FB_COMPARE(b, "cxx inline") {
        FB_ALTERNATIVE("ten") { fake_now += 10; }
        FB_ALTERNATIVE("twenty") { fake_now += 20; }
    }
    c = fb_last_comparison(b);
    if (!c || fb_comparison_ratio(c, 1) < 0.49 || fb_comparison_ratio(c, 1) > 0.51) ++failures;
    fb_rng rng;
    fb_rng_seed(&rng, 1);
    if (fb_rng_bounded(&rng, 5) >= 5) ++failures;
    // the registered benchmark is found by name and runs
    char prog[] = "test_cxx", filter[] = "-filter=CxxRegistered", sanity[] = "-sanity_check";
    char *argv[] = {prog, filter, sanity, nullptr};
    if (fb_main(3, argv) != 0) ++failures;
    char families[] = "-filter=CxxArgs|CxxRange";
    char *argv2[] = {prog, families, sanity, nullptr};
    if (fb_main(3, argv2) != 0 || arg_sum != 3 + 5 + 1 + 2 + 4 + 8 || setups != 4) ++failures;
    fb_bench_free(b);
    std::printf(failures ? "FAILED\n" : "ok\n");
    return failures ? 1 : 0;
}
