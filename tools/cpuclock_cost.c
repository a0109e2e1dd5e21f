/* What the thread's CPU clock costs a run (docs/performance.md, "The cost
 * of the CPU-time reads"). Built as a program, it prints the cost of one
 * clock_gettime(CLOCK_THREAD_CPUTIME_ID): the median of 11 runs of 200,000
 * calls, wall time per call. Built with -DFB_COUNT_SHIM as a shared object
 * and preloaded, it counts a program's calls of that clock and prints the
 * count at exit (stderr). Not part of the library; build and run:
 *   cc -O2 tools/cpuclock_cost.c -o cpuclock_cost && ./cpuclock_cost
 *   cc -O2 -shared -fPIC -DFB_COUNT_SHIM tools/cpuclock_cost.c -o count.so -ldl
 *   LD_PRELOAD=./count.so build/bench/femtobench-demo -quiet >/dev/null */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#ifdef FB_COUNT_SHIM
#include <dlfcn.h>

static unsigned long long cpu_calls, all_calls;
static int (*real_clock_gettime)(clockid_t, struct timespec *);

__attribute__((destructor)) static void report(void) {
    fprintf(stderr, "clock_gettime calls: %llu of CLOCK_THREAD_CPUTIME_ID, %llu in all\n",
            cpu_calls, all_calls);
}

int clock_gettime(clockid_t c, struct timespec *ts) {
    if (!real_clock_gettime) *(void **)&real_clock_gettime = dlsym(RTLD_NEXT, "clock_gettime");
    __atomic_add_fetch(&all_calls, 1, __ATOMIC_RELAXED);
    if (c == CLOCK_THREAD_CPUTIME_ID) __atomic_add_fetch(&cpu_calls, 1, __ATOMIC_RELAXED);
    return real_clock_gettime(c, ts);
}
#else
static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(void) {
    enum { RUNS = 11, CALLS = 200000 };
    double ns[RUNS];
    unsigned long long sink = 0;
    for (int r = 0; r < RUNS; ++r) {
        struct timespec ts;
        double t0 = now_s();
        for (int i = 0; i < CALLS; ++i) {
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
            sink += (unsigned long long)ts.tv_nsec;
        }
        ns[r] = (now_s() - t0) / CALLS * 1e9;
    }
    qsort(ns, RUNS, sizeof *ns, cmp);
    printf("clock_gettime(CLOCK_THREAD_CPUTIME_ID): %.0f ns a call (median of %d runs; "
           "fastest %.0f, slowest %.0f)%s\n",
           ns[RUNS / 2], RUNS, ns[0], ns[RUNS - 1], sink == 1 ? " " : "");
    return 0;
}
#endif
