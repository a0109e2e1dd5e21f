/* The suite femtobench-ab's tests compare (tests/test_ab_cli.py): built as
 * plugins in several variants (tests/CMakeLists.txt) and, unchanged, as a
 * runner executable. Every time is a fake clock's, advanced by the ops
 * themselves, so paired rounds give exact ratios: two builds of the same
 * variant are identical, and AB_SLOW_WORK = 11 makes Slow exactly 10% slower
 * (in time and in instructions, for -valgrind).
 *   AB_SLOW_WORK  the work of one Slow op (10 in the old build)
 *   AB_NEW        1: Added is registered, Removed is not
 *   AB_CRASH      1: Crash's body crashes (for -isolate) */
#include "femtobench.h"

#include <signal.h>

#ifndef AB_SLOW_WORK
#define AB_SLOW_WORK 10
#endif
#ifndef AB_NEW
#define AB_NEW 0
#endif
#ifndef AB_CRASH
#define AB_CRASH 0
#endif

/* the fake clock: 10 ns per unit of work done by an op */
typedef struct ab_clock {
    uint64_t now_ns;
} ab_clock;

static uint64_t ab_now(void *ctx) { return ((ab_clock *)ctx)->now_ns; }

static void ab_work(ab_clock *c, int units) {
    for (int i = 0; i < units; ++i) {
        c->now_ns += 10;
        fb_do_not_optimize(c->now_ns);
    }
}

static void ab_fake(fb_bench *b, ab_clock *c) {
    fb_set_clock(b, ab_now, c, 1e-9);
    fb_set_performance_counters(b, false);
}

FB_BENCHMARK(Steady) {
    ab_clock c = {0};
    ab_fake(b, &c);
    FB_RUN(b, "Steady") { ab_work(&c, 20); }
}

FB_BENCHMARK(Slow) {
    ab_clock c = {0};
    ab_fake(b, &c);
    FB_RUN(b, "Slow") { ab_work(&c, AB_SLOW_WORK); }
}

/* two runs in one function: each is paired on its own */
FB_BENCHMARK(Two) {
    ab_clock c = {0};
    ab_fake(b, &c);
    FB_RUN(b, "Two.small") { ab_work(&c, 3); }
    FB_RUN(b, "Two.large") { ab_work(&c, 30); }
}

/* fb_run with untimed setup and teardown */
static int ab_setups;
static void ab_setup(void *ctx) {
    (void)ctx;
    ++ab_setups;
}
static void ab_op(void *ctx) { ab_work(ctx, 7); }
FB_BENCHMARK(Call) {
    ab_clock c = {0};
    ab_fake(b, &c);
    fb_set_setup(b, ab_setup, NULL);
    fb_set_teardown(b, ab_setup, NULL);
    fb_run(b, "Call", ab_op, &c);
}

/* a family: one run per argument, "Fam/2" and "Fam/4" */
FB_BENCHMARK_ARGS(Fam, 2, 4) {
    ab_clock c = {0};
    ab_fake(b, &c);
    int units = (int)fb_arg(b);
    FB_RUN(b, NULL) { ab_work(&c, units); }
}

#if AB_NEW
FB_BENCHMARK(Added) {
    ab_clock c = {0};
    ab_fake(b, &c);
    FB_RUN(b, "Added") { ab_work(&c, 5); }
}
#else
FB_BENCHMARK(Removed) {
    ab_clock c = {0};
    ab_fake(b, &c);
    FB_RUN(b, "Removed") { ab_work(&c, 5); }
}
#endif

#if AB_CRASH
FB_BENCHMARK(Crash) {
    ab_clock c = {0};
    ab_fake(b, &c);
    FB_RUN(b, "Crash") {
        ab_work(&c, 1);
        raise(SIGSEGV);
    }
}
#endif

FB_MAIN()
