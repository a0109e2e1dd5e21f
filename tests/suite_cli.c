/* A small suite for the runner tests (tests/test_cli.py). */
#include "femtobench.h"

#include <stdlib.h>
#include <string.h>

FB_BENCHMARK(Alpha) {
    /* SUITE_CLI_EPOCHS: the benchmark sets its own epochs (for -min_time) */
    if (getenv("SUITE_CLI_EPOCHS")) fb_set_epochs(b, (size_t)atoi(getenv("SUITE_CLI_EPOCHS")));
    uint64_t x = 1;
    FB_RUN(b, NULL) { /* runs under the registered name */
        /* two dependent multiplies, 6 cycles: more than 2x an empty loop even
         * when the empty loop was timed in a slow episode of the core (2 cycles) */
        x *= 0x9E3779B97F4A7C15u;
        fb_do_not_optimize(x); /* two multiplies, not one by the square */
        x *= 0x9E3779B97F4A7C15u;
        fb_do_not_optimize(x);
    }
}

FB_BENCHMARK(Beta) {
    fb_set_unit(b, "byte");
    fb_set_batch(b, 64);
    unsigned char buf[64] = {0};
    FB_RUN(b, "Beta") {
        for (int i = 0; i < 64; ++i) buf[i] = (unsigned char)(buf[i] * 3 + 1);
        fb_do_not_optimize(buf);
    }
}

/* Reads the complexity N: linear work in N. */
FB_BENCHMARK(Linear) {
    size_t n = fb_complexity_n(b) > 1 ? (size_t)fb_complexity_n(b) : 100;
    uint64_t *v = calloc(n, sizeof *v);
    FB_RUN(b, "Linear") {
        for (size_t i = 0; i < n; ++i) v[i] += i;
        fb_do_not_optimize(v[0]);
    }
    free(v);
}

/* A clock that never moves, as if the op were optimized away (whatever the
 * build's optimization level): an error row, exit status 1. */
static uint64_t frozen_clock(void *ctx) {
    (void)ctx;
    return 42;
}

/* A clock that moves only when an op moves it: under it, a comparison
 * alternative that does not is an error row while the other measures. */
static uint64_t manual_clock(void *ctx) { return *(uint64_t *)ctx; }

/* SUITE_CLI_BROKEN=compare: a comparison whose second alternative fails (an
 * error row, exit status 1); any other value: a run that fails. */
FB_BENCHMARK(Broken) {
    const char *how = getenv("SUITE_CLI_BROKEN");
    if (!how) return; /* only when asked */
    if (!strcmp(how, "compare")) {
        uint64_t now_ns = 0;
        fb_set_clock(b, manual_clock, &now_ns, 1e-9);
        FB_COMPARE(b, "Broken") {
            FB_ALTERNATIVE("works") { now_ns += 100; }
            FB_ALTERNATIVE("fails") {}
        }
        return;
    }
    fb_set_clock(b, frozen_clock, NULL, 1e-9);
    FB_RUN(b, "Broken") {}
}

/* Runs until interrupted when SUITE_CLI_SLOW is set (for signal tests). */
FB_BENCHMARK(Slow) {
    if (!getenv("SUITE_CLI_SLOW")) return;
    fb_set_epochs(b, 1000000);
    fb_set_max_total_time(b, 3600); /* the largest: an hour */
    uint64_t x = 1;
    FB_RUN(b, "Slow") {
        x += x;
        fb_do_not_optimize(x);
    }
}

/* Runs under a name dashboards refuse when SUITE_CLI_BADNAME is set:
 * "empty" (""), "long" (1025 bytes) or "max" (1024 bytes, accepted). */
FB_BENCHMARK(BadName) {
    const char *kind = getenv("SUITE_CLI_BADNAME");
    if (!kind) return;
    char name[1026];
    size_t len = !strcmp(kind, "empty") ? 0 : !strcmp(kind, "long") ? 1025 : 1024;
    memset(name, 'n', len);
    name[len] = '\0';
    fb_set_epochs(b, 3);
    uint64_t x = 1;
    FB_RUN(b, name) {
        x += x;
        fb_do_not_optimize(x);
    }
}

FB_MAIN()
