/* The cost of the first perf_event_open of a process, for
 * tools/perf_coldstart.py:
 *   perf_coldstart raw   times two opens of a software event (context
 *                        switches of this thread): cold, then warm, in ms
 *   perf_coldstart on    one femtobench run of a 1-add op, counters on:
 *                        the run's wall time in ms
 *   perf_coldstart off   the same with fb_set_performance_counters(b, false)
 * Built by the script; not part of the library. */
#define _GNU_SOURCE 1
#include "femtobench.h"

#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static double pc_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

static double pc_open_ms(void) {
    struct perf_event_attr a;
    memset(&a, 0, sizeof a);
    a.size = sizeof a;
    a.type = PERF_TYPE_SOFTWARE;
    a.config = PERF_COUNT_SW_CONTEXT_SWITCHES;
    a.disabled = 1;
    double t0 = pc_ms();
    long fd = syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
    double t = pc_ms() - t0;
    if (fd < 0) return -1;
    close((int)fd);
    return t;
}

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "raw") == 0) {
        double cold = pc_open_ms(), warm = pc_open_ms();
        printf("%.4f %.4f\n", cold, warm);
        return cold < 0;
    }
    bool on = argc > 1 && strcmp(argv[1], "on") == 0;
    double t0 = pc_ms();
    fb_bench *b = fb_bench_new();
    fb_set_output(b, NULL);
    fb_set_diagnostics(b, NULL);
    fb_set_performance_counters(b, on);
    uint64_t x = 1;
    FB_RUN(b, "add") {
        x += x;
        fb_do_not_optimize(x);
    }
    fb_bench_free(b);
    printf("%.4f\n", pc_ms() - t0);
    return 0;
}
