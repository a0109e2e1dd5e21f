/* A suite that misbehaves on purpose (tests/test_hostile_*.py): each
 * benchmark below is active only when HOSTILE names it (a comma list), so
 * the same program serves every test. */
#include "femtobench.h"

#include <signal.h>
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

/* a deterministic clock: 1 us per op call, so outputs can be compared */
static uint64_t fake_now(void *ctx) { return *(uint64_t *)ctx; }

FB_BENCHMARK(Fine) {
    uint64_t t = 0;
    if (on("fake")) fb_set_clock(b, fake_now, &t, 1e-9);
    fb_set_performance_counters(b, !on("fake"));
    fb_set_epochs(b, 5);
    fb_set_epoch_iterations(b, 10);
    FB_RUN(b, NULL) {
        t += 1000;
        fb_do_not_optimize(t);
    }
}

FB_BENCHMARK(Fine2) {
    uint64_t t = 0;
    if (on("fake")) fb_set_clock(b, fake_now, &t, 1e-9);
    fb_set_performance_counters(b, !on("fake"));
    fb_set_unit(b, "byte");
    fb_set_batch(b, 8);
    fb_set_epochs(b, 3);
    fb_set_epoch_iterations(b, 7);
    FB_RUN(b, "Fine2") {
        t += 3000;
        fb_do_not_optimize(t);
    }
    FB_RUN(b, "Fine2/again") {
        t += 5000;
        fb_do_not_optimize(t);
    }
}

FB_BENCHMARK(Segv) {
    if (!on("Segv")) return;
    uint64_t x = 1;
    FB_RUN(b, "Segv/first") { /* measured before the crash: kept */
        x += x;
        fb_do_not_optimize(x);
    }
    raise(SIGSEGV);
}

FB_BENCHMARK(Abort) {
    (void)b;
    if (!on("Abort")) return;
    abort();
}

FB_BENCHMARK(Exit) {
    (void)b;
    if (!on("Exit")) return;
    exit(3);
}

FB_BENCHMARK(Hang) {
    (void)b;
    if (!on("Hang")) return;
    for (;;) pause();
}

FB_BENCHMARK(NoRun) { (void)b; /* never reaches FB_RUN */ }

static void nested_op(void *ctx) { *(uint64_t *)ctx += 1; }

FB_BENCHMARK(Nested) {
    if (!on("Nested")) return;
    fb_set_epochs(b, 3);
    fb_set_epoch_iterations(b, 5);
    uint64_t x = 1;
    FB_RUN(b, "Nested") {
        fb_run(b, "Nested/inner", nested_op, &x);
        fb_do_not_optimize(x);
    }
}

FB_MAIN()
