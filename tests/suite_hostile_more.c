/* A second suite that misbehaves on purpose (tests/test_hostile_more.py and
 * tests/test_isolate_outputs.py): each benchmark below is active only when
 * HOSTILE names it (a comma list), so the same program serves every test. */
#define _POSIX_C_SOURCE 200809L
#include "femtobench.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
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

/* A comparison whose block reaches an alternative only on its first pass:
 * an error row in every alternative, so the suite must fail. */
FB_BENCHMARK(FailCmp) {
    if (!on("FailCmp")) return;
    uint64_t x = 0;
    int passes = 0;
    FB_COMPARE(b, "uneven") {
        FB_ALTERNATIVE("a") { add_op(&x); }
        if (++passes == 1) FB_ALTERNATIVE("b") {
                add_op(&x);
            }
    }
}

/* A comparison with a working pair, one alternative named by LONGALT's
 * length in bytes (the dashboards' name limit). */
FB_BENCHMARK(Cmp) {
    if (!on("Cmp")) return;
    uint64_t x = 0;
    const char *len = getenv("LONGALT");
    size_t n = len ? (size_t)atol(len) : 1;
    char *name = malloc(n + 1);
    if (!name) return;
    memset(name, 'x', n);
    name[n] = '\0';
    fb_set_epoch_iterations(b, 50);
    FB_COMPARE(b, "pair") {
        FB_ALTERNATIVE("one") { add_op(&x); }
        FB_ALTERNATIVE(name) {
            add_op(&x);
            add_op(&x);
        }
    }
    free(name);
}

/* A benchmark that moves the process to CHDIR_TO before it runs. */
FB_BENCHMARK(Chdir) {
    if (!on("Chdir")) return;
    const char *to = getenv("CHDIR_TO");
    if (to && chdir(to) != 0) abort();
    uint64_t x = 0;
    fb_set_epochs(b, 3);
    fb_set_epoch_iterations(b, 100);
    fb_run(b, "Chdir", add_op, &x);
}

/* A benchmark that leaves a grandchild behind holding every descriptor
 * (the result pipe of -isolate among them) for 30 s. */
FB_BENCHMARK(Grandchild) {
    if (!on("Grandchild")) return;
    pid_t pid = fork();
    if (pid == 0) {
        sleep(30);
        _exit(0);
    }
    const char *pidfile = getenv("GC_PIDFILE"); /* where the test looks for it */
    if (pidfile) {
        FILE *f = fopen(pidfile, "w");
        if (f) {
            fprintf(f, "%ld\n", (long)pid);
            fclose(f);
        }
    }
    uint64_t x = 0;
    fb_set_epochs(b, 3);
    fb_set_epoch_iterations(b, 100);
    fb_run(b, "Grandchild", add_op, &x);
}

/* A benchmark that closes every descriptor above stderr, then measures (its
 * results have nowhere to go) and, with CLOSE_HANG set, hangs. */
FB_BENCHMARK(CloseFds) {
    if (!on("CloseFds")) return;
    for (int fd = 3; fd < 1024; ++fd) close(fd);
    if (getenv("CLOSE_HANG"))
        for (;;) pause();
    uint64_t x = 0;
    fb_set_epochs(b, 3);
    fb_set_epoch_iterations(b, 100);
    fb_run(b, "CloseFds", add_op, &x);
}

FB_MAIN()
