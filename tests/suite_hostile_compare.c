/* A suite that misbehaves on purpose (tests/test_hostile_compare.py): each
 * benchmark below is active only when HOSTILE names it (a comma list), so
 * the same program serves every test. Fine always runs. */
#define _POSIX_C_SOURCE 200809L
#include "femtobench.h"

#include <locale.h>
#include <pthread.h>
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

/* Always there: a short, ordinary benchmark (runs after the others: the
 * suite goes on whatever they did). */
FB_BENCHMARK(Fine) {
    uint64_t x = 0;
    fb_set_epochs(b, 3);
    fb_set_epoch_iterations(b, 100);
    fb_run(b, "Fine", add_op, &x);
}

/* The group's leader (thread 0) leaves by pthread_exit: before its run
 * (LEADER=before) or inside it (LEADER=inside); or by exit(0) before its
 * run (LEADER=exit). */
FB_BENCHMARK_THREADS(LeaderExit, 1, 2) {
    if (!on("LeaderExit")) return;
    const char *when = getenv("LEADER");
    bool inside = when && strcmp(when, "inside") == 0;
    if (when && strcmp(when, "exit") == 0 && fb_thread_index(b) == 0) exit(0);
    if (!inside && fb_thread_index(b) == 0) pthread_exit(NULL);
    uint64_t x = 0;
    fb_set_epochs(b, 3);
    fb_set_epoch_iterations(b, 100);
    FB_RUN(b, NULL) {
        add_op(&x);
        if (inside && fb_thread_index(b) == 0) pthread_exit(NULL);
    }
}

/* A comparison in a family: FamCmp/1's and FamCmp/2's alternatives are
 * other rows (the title carries the argument). */
FB_BENCHMARK_ARGS(FamCmp, 1, 2) {
    if (!on("FamCmp")) return;
    uint64_t x = 0;
    fb_set_epoch_iterations(b, 50);
    FB_COMPARE(b, "famcmp") {
        FB_ALTERNATIVE("p") { add_op(&x); }
        FB_ALTERNATIVE("q") {
            add_op(&x);
            add_op(&x);
        }
    }
}

/* Takes the environment's locale, as a program that calls setlocale(LC_ALL,
 * "") does, then gives two out-of-range values (their diagnostics quote
 * them), runs and compares: every number written after it uses '.'. */
FB_BENCHMARK(Loc) {
    if (!on("Loc")) return;
    setlocale(LC_ALL, "");
    uint64_t x = 0;
    fb_set_min_time(b, 99.5);
    fb_set_batch(b, -2.5);
    fb_set_min_time(b, 0);
    fb_set_epochs(b, 6);
    fb_set_epoch_iterations(b, 100);
    fb_run(b, "loc", add_op, &x);
    FB_COMPARE(b, "locpair") {
        FB_ALTERNATIVE("one") { add_op(&x); }
        FB_ALTERNATIVE("two") {
            add_op(&x);
            add_op(&x);
        }
    }
}

FB_MAIN()
