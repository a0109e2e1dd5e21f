/* A third suite that misbehaves on purpose (tests/test_hostile_third.py):
 * each benchmark below is active only when HOSTILE names it (a comma
 * list), so the same program serves every test. */
#define _POSIX_C_SOURCE 200809L
#include "femtobench.h"

#include <locale.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int on(const char *name) {
    const char *h = getenv("HOSTILE");
    if (!h) return 0;
    size_t n = strlen(name);
    for (const char *p = h; (p = strstr(p, name)) != NULL; p += n)
        if ((p == h || p[-1] == ',') && (p[n] == ',' || p[n] == '\0')) return 1;
    return 0;
}

static void add_op(void *ctx) { *(volatile uint64_t *)ctx += 1; }

/* Always there: a short, ordinary benchmark. With SETLOCALE set it takes
 * the environment's locale, as a program that calls setlocale(LC_ALL, "")
 * does: every number printed after it must still use '.'. */
FB_BENCHMARK(Fine) {
    if (getenv("SETLOCALE")) setlocale(LC_ALL, "");
    uint64_t x = 0;
    fb_set_epochs(b, 3);
    fb_set_epoch_iterations(b, 100);
    fb_run(b, "Fine", add_op, &x);
}

/* A group of two threads whose second thread leaves by pthread_exit
 * before its first run: the leader must not wait for it forever. */
FB_BENCHMARK_THREADS(ThreadExit, 2) {
    if (!on("ThreadExit")) return;
    if (fb_thread_index(b) == 1) pthread_exit(NULL);
    uint64_t x = 0;
    fb_set_epochs(b, 3);
    fb_set_epoch_iterations(b, 100);
    FB_RUN(b, NULL) { add_op(&x); }
}

/* Google Benchmark's habit: the counter set after the loop it describes. */
FB_BENCHMARK(CounterAfter) {
    if (!on("CounterAfter")) return;
    uint64_t x = 0;
    fb_set_epochs(b, 3);
    fb_set_epoch_iterations(b, 100);
    fb_run(b, "CounterAfter", add_op, &x);
    fb_counter(b, "bytes", 64, FB_COUNTER_RATE);
}

/* A rate counter too large for a double once divided by the time. */
FB_BENCHMARK(RateOverflow) {
    if (!on("RateOverflow")) return;
    uint64_t x = 0;
    fb_set_epochs(b, 3);
    fb_set_epoch_iterations(b, 100);
    fb_counter(b, "huge", 1e308, FB_COUNTER_RATE);
    fb_run(b, "RateOverflow", add_op, &x);
}

/* A run named by LONGRUN's length in bytes (the names' limit). */
FB_BENCHMARK(LongRun) {
    if (!on("LongRun")) return;
    const char *len = getenv("LONGRUN");
    size_t n = len ? (size_t)atol(len) : 1;
    char *name = malloc(n + 1);
    if (!name) return;
    memset(name, 'r', n);
    name[n] = '\0';
    uint64_t x = 0;
    fb_set_epochs(b, 3);
    fb_set_epoch_iterations(b, 100);
    fb_run(b, name, add_op, &x);
    free(name);
}

/* One bad fb_set_iteration_time call in every iteration (3,000 calls). */
FB_BENCHMARK(BadIterTime) {
    if (!on("BadIterTime")) return;
    fb_set_epochs(b, 3);
    fb_set_epoch_iterations(b, 1000);
    fb_set_manual_time(b, true);
    FB_RUN(b, NULL) { fb_set_iteration_time(b, -1); }
}

/* Manual times of 0 s: nothing to do with the optimizer. */
FB_BENCHMARK(ZeroIterTime) {
    if (!on("ZeroIterTime")) return;
    fb_set_manual_time(b, true);
    FB_RUN(b, NULL) { fb_set_iteration_time(b, 0); }
}

/* A clock that stands still (STILL) or runs backwards (BACK). */
static uint64_t still_clock(void *ctx) {
    (void)ctx;
    return 1000000;
}
static uint64_t back_clock(void *ctx) {
    uint64_t *t = ctx;
    return *t -= 1000;
}
FB_BENCHMARK(StillClock) {
    if (!on("StillClock")) return;
    static uint64_t t = UINT64_MAX / 2;
    if (getenv("BACK"))
        fb_set_clock(b, back_clock, &t, 1e-9);
    else
        fb_set_clock(b, still_clock, NULL, 1e-9);
    uint64_t x = 0;
    fb_run(b, "StillClock", add_op, &x);
}

/* A run whose name holds a line break and an escape sequence, and fails:
 * every line that names it (the error row's line under -sanity_check, the
 * diagnostics) stays one line. */
FB_BENCHMARK(CtlName) {
    if (!on("CtlName")) return;
    uint64_t x = 0;
    fb_set_epochs(b, 3);
    fb_set_epoch_iterations(b, 100);
    fb_set_iteration_time(b, 1);     /* manual timing is off: an error row */
    fb_counter(b, "bad\nctr", 1, 0); /* refused, its name in the message */
    fb_run(b, "ctl\nname\x1b[31m", add_op, &x);
}

FB_MAIN()
