/* Plugins whose runs have names the runner refuses or must escape, for
 * femtobench-ab's tests (tests/test_ab_hostile.py). Times come from a fake
 * clock that the ops advance: every verdict is exact.
 *   AB_NAMES 1: a run named "" (the runner refuses it: "is empty")
 *            2: a run named with 1100 bytes (over the runner's 1024)
 *            3: a run whose name holds an escape sequence and a bell
 * Each also has Fine, a run with an ordinary name. */
#include "femtobench.h"

#include <string.h>

#ifndef AB_NAMES
#define AB_NAMES 0
#endif

typedef struct ab_names_clock {
    uint64_t now_ns;
} ab_names_clock;

static uint64_t ab_names_now(void *ctx) { return ((ab_names_clock *)ctx)->now_ns; }

static void ab_names_work(ab_names_clock *c, int units) {
    for (int i = 0; i < units; ++i) {
        c->now_ns += 10;
        fb_do_not_optimize(c->now_ns);
    }
}

FB_BENCHMARK(Fine) {
    ab_names_clock c = {0};
    fb_set_clock(b, ab_names_now, &c, 1e-9);
    fb_set_performance_counters(b, false);
    FB_RUN(b, "Fine") { ab_names_work(&c, 5); }
}

FB_BENCHMARK(Named) {
    ab_names_clock c = {0};
    fb_set_clock(b, ab_names_now, &c, 1e-9);
    fb_set_performance_counters(b, false);
    static char name[1101];
    if (AB_NAMES == 2) memset(name, 'L', sizeof name - 1);
    if (AB_NAMES == 3) strcpy(name, "Esc\033[31mRed\a");
    FB_RUN(b, name) { ab_names_work(&c, 5); }
}

FB_MAIN()
