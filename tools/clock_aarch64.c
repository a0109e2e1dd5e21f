/* Which clock on Linux aarch64 (docs/platforms.md, "Clocks"): the virtual
 * counter cntvct_el0 read directly, or clock_gettime(CLOCK_MONOTONIC) (the
 * vDSO, which reads the same counter and handles its errata). Prints, three
 * times, each one's read cost (100,000 reads timed by clock_gettime) and its
 * smallest step (the smallest non-zero difference of two consecutive reads,
 * over 1,000 pairs). Not part of the library; build and run:
 *   aarch64-linux-gnu-gcc -O2 tools/clock_aarch64.c -o clock_aarch64
 *   qemu-aarch64 -L /usr/aarch64-linux-gnu ./clock_aarch64   (or natively) */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#if defined(__aarch64__)
static inline uint64_t counter(void) {
    uint64_t v;
    __asm__ __volatile__("isb\n\tmrs %0, cntvct_el0" : "=r"(v) : : "memory");
    return v;
}
static inline uint64_t counter_hz(void) {
    uint64_t v;
    __asm__ __volatile__("mrs %0, cntfrq_el0" : "=r"(v));
    return v;
}
static uint64_t mono_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

int main(void) {
    double hz = (double)counter_hz();
    for (int rep = 0; rep < 3; ++rep) {
        uint64_t sink = 0, t0 = mono_ns();
        for (int i = 0; i < 100000; ++i) sink += counter();
        uint64_t t1 = mono_ns(), t2 = mono_ns();
        for (int i = 0; i < 100000; ++i) sink += mono_ns();
        uint64_t t3 = mono_ns();
        uint64_t step_c = UINT64_MAX, step_m = UINT64_MAX;
        for (int i = 0; i < 1000; ++i) {
            uint64_t a = counter(), b;
            do b = counter();
            while (b == a);
            if (b - a < step_c) step_c = b - a;
            uint64_t c = mono_ns(), d;
            do d = mono_ns();
            while (d == c);
            if (d - c < step_m) step_m = d - c;
        }
        printf("cntfrq %.0f Hz; read: cntvct_el0 %.1f ns, clock_gettime %.1f ns; smallest step: "
               "cntvct_el0 %.1f ns, clock_gettime %llu ns%s\n",
               hz, (double)(t1 - t0) / 1e5, (double)(t3 - t2) / 1e5, (double)step_c * 1e9 / hz,
               (unsigned long long)step_m, sink == 1 ? " " : "");
    }
    return 0;
}
#else
int main(void) {
    puts("aarch64 only");
    return 0;
}
#endif
