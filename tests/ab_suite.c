/* The suite femtobench-ab's tests compare (tests/test_ab_cli.py): built as
 * plugins in several variants (tests/CMakeLists.txt) and, unchanged, as a
 * runner executable. Every time is a fake clock's, advanced by the ops
 * themselves, so paired rounds give exact ratios: two builds of the same
 * variant are identical, and AB_SLOW_WORK = 11 makes Slow exactly 10% slower
 * (in time and in instructions, for -valgrind).
 *   AB_SLOW_WORK  the work of one Slow op (10 in the old build)
 *   AB_NEW        1: Added is registered, Removed is not
 *   AB_CRASH      1: Crash's body crashes (for -isolate)
 *   AB_HOSTILE    1: Exit calls exit(0), Hang never returns, Many makes
 *                 300 runs in one function, Group reports in its run's
 *                 name whether its threads may use more than one CPU
 *   AB_BADNAME    1: a benchmark name of 1100 bytes (the runner refuses it)
 *   AB_LEADER     1: LeaderGone, a group of 2 threads whose leader (thread
 *                 0) leaves before its first run, by pthread_exit, or by
 *                 exit(0) when the environment has AB_LEADER_EXIT=1
 *   AB_SPREAD     1: Moving, whose count moves from epoch to epoch (for
 *                 -valgrind's spread), and NameBreak, two runs whose names
 *                 differ only after a line break; 2: the same with Moving
 *                 doing 10% more work
 *   AB_PLACED     1: Placed does work that depends on where its code lies: 20
 * units and one more for each 16 bytes of its function's address within 128,
 * the fake clock's stand-in for a loop whose speed depends on its
 * alignment (femtobench-ab's layouts, tests/test_ab_layouts.py). */
#if defined(AB_LEADER) && AB_LEADER
#include <pthread.h>
#include <stdlib.h>
#endif
#if defined(AB_HOSTILE) && AB_HOSTILE
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#endif
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
#ifndef AB_HOSTILE
#define AB_HOSTILE 0
#endif
#ifndef AB_BADNAME
#define AB_BADNAME 0
#endif
#ifndef AB_LEADER
#define AB_LEADER 0
#endif
#ifndef AB_SPREAD
#define AB_SPREAD 0
#endif
#ifndef AB_PLACED
#define AB_PLACED 0
#endif
#ifndef AB_STACKED
#define AB_STACKED 0
#endif

/* the fake clock: 10 ns per unit of work done by an op; the fake thread
 * CPU clock advances cpu_step ns per unit (10: the op never leaves the CPU) */
typedef struct ab_clock {
    uint64_t now_ns, cpu_ns, cpu_step;
} ab_clock;

static uint64_t ab_now(void *ctx) { return ((ab_clock *)ctx)->now_ns; }
static uint64_t ab_cpu_now(void *ctx) { return ((ab_clock *)ctx)->cpu_ns; }

static void ab_work(ab_clock *c, int units) {
    for (int i = 0; i < units; ++i) {
        c->now_ns += 10;
        c->cpu_ns += c->cpu_step ? c->cpu_step : 10;
        fb_do_not_optimize(c->now_ns);
    }
}

/* the library's seam for a fake thread CPU clock (src/handle/bench.h):
 * this suite is linked with the whole static library */
void fb__bench_set_cpu_clock(fb_bench *b, fb_clock_fn fn, void *ctx);

static void ab_fake(fb_bench *b, ab_clock *c) {
    fb_set_clock(b, ab_now, c, 1e-9);
    fb__bench_set_cpu_clock(b, ab_cpu_now, c);
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
/* its op's CPU time is 12 ns per unit of work, its time 10: the table
 * shows the CPU time beside the time (they differ by 5% or more) */
FB_BENCHMARK(Call) {
    ab_clock c = {0, 0, 12};
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

#if AB_PLACED
/* after Added / Removed: a build with the other one moves it */
static int ab_placed_units(void) {
    uintptr_t at = (uintptr_t)ab_placed_units; /* this function's address */
    return 20 + (int)((at >> 4) % 8);
}

FB_BENCHMARK(Placed) {
    ab_clock c = {0};
    ab_fake(b, &c);
    int units = ab_placed_units();
    FB_RUN(b, "Placed") { ab_work(&c, units); }
}
#endif

#if AB_STACKED
/* a local's address: where the stack lies (femtobench-ab moves it by a
 * random 0-4 KiB in each block and side) */
static int ab_stacked_units(void) {
    volatile char here = 0;
    uintptr_t at = (uintptr_t)&here;
    return 20 + (int)((at >> 4) % 8);
}

FB_BENCHMARK(Stacked) {
    ab_clock c = {0};
    ab_fake(b, &c);
    int units = ab_stacked_units();
    FB_RUN(b, "Stacked") { ab_work(&c, units); }
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

#if AB_HOSTILE
FB_BENCHMARK(Exit) {
    ab_clock c = {0};
    ab_fake(b, &c);
    FB_RUN(b, "Exit") {
        ab_work(&c, 1);
        exit(0);
    }
}

FB_BENCHMARK(Hang) {
    ab_clock c = {0};
    ab_fake(b, &c);
    /* where the test looks for a process left behind */
    const char *pidfile = getenv("AB_PIDFILE");
    FILE *f = pidfile ? fopen(pidfile, "w") : NULL;
    if (f) {
        fprintf(f, "%ld\n", (long)getpid());
        fclose(f);
    }
    FB_RUN(b, "Hang") {
        ab_work(&c, 1);
        for (;;) pause();
    }
}

FB_BENCHMARK(Many) {
    ab_clock c = {0};
    ab_fake(b, &c);
    for (int i = 0; i < 300; ++i) {
        char name[32];
        snprintf(name, sizeof name, "Many.%03d", i);
        FB_RUN(b, name) { ab_work(&c, 2); }
    }
}

FB_BENCHMARK_THREADS(Group, 2) {
    cpu_set_t set;
    CPU_ZERO(&set);
    int cpus = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 0;
    uint64_t x = 1;
    FB_RUN(b, cpus > 1 ? "Group.free" : "Group.one_cpu") {
        x += x >> 3;
        fb_do_not_optimize(x);
    }
}
#endif

#if AB_LEADER
FB_BENCHMARK_THREADS(LeaderGone, 2) {
    ab_clock c = {0};
    ab_fake(b, &c);
    if (fb_thread_index(b) == 0) {
        const char *how = getenv("AB_LEADER_EXIT");
        if (how && how[0] == '1') exit(0);
        pthread_exit(NULL);
    }
    FB_RUN(b, "LeaderGone") { ab_work(&c, 1); }
}
#endif

#if AB_BADNAME
/* a registration the runner refuses (a name over 1024 bytes), made by hand
 * as FB_BENCHMARK makes one: no identifier is that long */
static char ab_long_name[1100];
static void ab_long(fb_bench *b) {
    ab_clock c = {0};
    ab_fake(b, &c);
    FB_RUN(b, NULL) { ab_work(&c, 1); }
}
static fb__registration ab_long_reg = {NULL, ab_long, NULL, FB__REG_ONE, NULL, 0, 0, 0, 0};
FB__CONSTRUCTOR(ab_register_long) {
    for (size_t i = 0; i + 1 < sizeof ab_long_name; ++i) ab_long_name[i] = 'L';
    ab_long_reg.name = ab_long_name;
    fb__register(&ab_long_reg);
}
#endif

#if AB_SPREAD
#include <unistd.h>

/* Moving: each epoch's setup picks the work of the epoch's ops, 1000 (1100
 * with AB_SPREAD 2) plus 0..6 units, starting from the process id, so that
 * two processes running the same code count different medians: the count
 * moves between epochs of the same iterations, as a shuffled input's does. */
static unsigned ab_epoch;
static int ab_moving_units;
static void ab_moving_setup(void *ctx) {
    (void)ctx;
    if (!ab_epoch) ab_epoch = (unsigned)getpid();
    ++ab_epoch;
    ab_moving_units = (AB_SPREAD == 2 ? 1100 : 1000) + (int)(ab_epoch % 7);
}
static void ab_moving_op(void *ctx) { ab_work(ctx, ab_moving_units); }
FB_BENCHMARK(Moving) {
    ab_clock c = {0};
    ab_fake(b, &c);
    fb_set_setup(b, ab_moving_setup, NULL);
    fb_run(b, "Moving", ab_moving_op, &c);
}

/* two runs whose names differ only after a line break */
FB_BENCHMARK(NameBreak) {
    ab_clock c = {0};
    ab_fake(b, &c);
    FB_RUN(b, "NameBreak\nsmall") { ab_work(&c, 3); }
    FB_RUN(b, "NameBreak\nlarge") { ab_work(&c, 300); }
}
#endif

FB_MAIN()
