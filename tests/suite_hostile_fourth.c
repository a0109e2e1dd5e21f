/* A fourth suite that misbehaves on purpose (tests/test_hostile_fourth.py):
 * each benchmark below is active only when HOSTILE names it (a comma
 * list), so the same program serves every test. */
#define _POSIX_C_SOURCE 200809L
#include "femtobench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int on(const char *name) {
    const char *h = getenv("HOSTILE");
    if (!h) return 0;
    size_t n = strlen(name);
    for (const char *p = h; (p = strstr(p, name)) != NULL; p += n)
        if ((p == h || p[-1] == ',') && (p[n] == ',' || p[n] == '\0')) return 1;
    return 0;
}

static void add_op(void *ctx) { *(volatile uint64_t *)ctx += 1; }

/* Always there: a short, ordinary benchmark. */
FB_BENCHMARK(Fine) {
    uint64_t x = 0;
    fb_set_epochs(b, 3);
    fb_set_epoch_iterations(b, 100);
    fb_run(b, "Fine", add_op, &x);
}

/* Never returns from its op (for -timeout, under -valgrind too); writes
 * its process id to HANG_PIDFILE first, where the test looks for a process
 * left behind. */
FB_BENCHMARK(Hang) {
    if (!on("Hang")) return;
    const char *pidfile = getenv("HANG_PIDFILE");
    FILE *f = pidfile ? fopen(pidfile, "w") : NULL;
    if (f) {
        fprintf(f, "%ld\n", (long)getpid());
        fclose(f);
    }
    uint64_t x = 0;
    FB_RUN(b, "Hang") {
        add_op(&x);
        for (;;) pause();
    }
}

/* MANYRUNS runs (300 by default) in one benchmark function. */
FB_BENCHMARK(ManyRuns) {
    if (!on("ManyRuns")) return;
    const char *n_s = getenv("MANYRUNS");
    int n = n_s ? atoi(n_s) : 300;
    uint64_t x = 0;
    fb_set_epochs(b, 3);
    fb_set_epoch_iterations(b, 10);
    for (int i = 0; i < n; i++) {
        char name[32];
        snprintf(name, sizeof name, "run%03d", getenv("SAMENAME") ? 0 : i);
        fb_run(b, name, add_op, &x);
    }
}

/* MANYCMP comparisons (300 by default) in one benchmark function. */
FB_BENCHMARK(ManyCmp) {
    if (!on("ManyCmp")) return;
    const char *n_s = getenv("MANYRUNS");
    int n = n_s ? atoi(n_s) : 300;
    uint64_t x = 0;
    fb_set_epoch_iterations(b, 10);
    for (int i = 0; i < n; i++) {
        char title[32];
        snprintf(title, sizeof title, "cmp%03d", i);
        fb_alternative alts[2] = {{"a", add_op, &x}, {"b", add_op, &x}};
        fb_compare(b, title, alts, 2);
    }
}

/* A rate counter too large for a double once divided by the time. */
FB_BENCHMARK(RateOverflow) {
    if (!on("RateOverflow")) return;
    uint64_t x = 0;
    fb_set_epochs(b, 3);
    fb_set_epoch_iterations(b, 100);
    fb_counter(b, "huge", 1e308, FB_COUNTER_RATE);
    fb_counter(b, "items", 5, FB_COUNTER_RATE);
    fb_run(b, "RateOverflow", add_op, &x);
}

/* Google Benchmark's habit: the counters set after the loop they describe. */
FB_BENCHMARK(CounterAfter) {
    if (!on("CounterAfter")) return;
    uint64_t x = 0;
    fb_set_epochs(b, 3);
    fb_set_epoch_iterations(b, 100);
    fb_run(b, "first", add_op, &x);
    fb_counter(b, "bytes", 64, FB_COUNTER_RATE);
    fb_counter(b, "depth", 7, 0);
}

/* A counter given with no run before or after it: nothing to describe. */
FB_BENCHMARK(CounterNoRun) {
    if (!on("CounterNoRun")) return;
    fb_counter(b, "alone", 1, 0);
}

/* fb_set_context with a key holding an escape sequence: refused, said on
 * one line. */
FB_BENCHMARK(CtlContext) {
    if (!on("CtlContext")) return;
    uint64_t x = 0;
    fb_set_context(b, "k\x1b[31m\nx", "v");
    fb_set_epochs(b, 3);
    fb_set_epoch_iterations(b, 100);
    fb_run(b, "CtlContext", add_op, &x);
}

/* One bad fb_set_iteration_time call in every iteration, each with a value
 * of its own (3,000 calls, 3,000 distinct messages). */
FB_BENCHMARK(BadIterTimeVary) {
    if (!on("BadIterTimeVary")) return;
    fb_set_epochs(b, 3);
    fb_set_epoch_iterations(b, 1000);
    fb_set_manual_time(b, true);
    double t = -1;
    FB_RUN(b, NULL) {
        fb_set_iteration_time(b, t);
        t -= 1;
    }
}

/* A comparison timed by a clock that stands still (STILL) or runs
 * backwards (BACK), or (ZERO) with manual times of 0 s. */
static uint64_t still_clock(void *ctx) {
    (void)ctx;
    return 1000000;
}
static uint64_t back_clock(void *ctx) {
    uint64_t *t = ctx;
    return *t -= 1000;
}
FB_BENCHMARK(CmpClock) {
    if (!on("CmpClock")) return;
    static uint64_t t = UINT64_MAX / 2;
    uint64_t x = 0;
    if (getenv("BACK"))
        fb_set_clock(b, back_clock, &t, 1e-9);
    else if (getenv("ZERO"))
        fb_set_manual_time(b, true);
    else
        fb_set_clock(b, still_clock, NULL, 1e-9);
    bool zero = getenv("ZERO") != NULL;
    FB_COMPARE(b, "still") {
        FB_ALTERNATIVE("a") {
            add_op(&x);
            if (zero) fb_set_iteration_time(b, 0);
        }
        FB_ALTERNATIVE("b") {
            add_op(&x);
            if (zero) fb_set_iteration_time(b, 0);
        }
    }
}

/* A benchmark registered under a name of LONGNAME bytes (all 'n'), whose
 * one run is named after it (FB_RUN(b, NULL)); with CTLNAME one more whose
 * name holds a line break and an escape sequence. */
static void long_body(fb_bench *b, void *ctx) {
    uint64_t *x = ctx;
    fb_set_epochs(b, 3);
    fb_set_epoch_iterations(b, 100);
    FB_RUN(b, NULL) { add_op(x); }
}
static void long_register(void) {
    static uint64_t x;
    static char name[4096];
    const char *len = getenv("LONGNAME");
    size_t n = len ? (size_t)atol(len) : 0;
    if (getenv("CTLNAME")) fb_register("ctl\nlist\x1b[31m", long_body, &x);
    if (!n || n >= sizeof name) return;
    memset(name, 'n', n);
    name[n] = '\0';
    fb_register(name, long_body, &x);
}
__attribute__((constructor)) static void long_later(void) { fb_register_later(long_register); }

FB_MAIN()
