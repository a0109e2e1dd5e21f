/* The counters' stub where perf_event_open is not available (non-Linux
 * systems, or a build with FB_DISABLE_PERF_COUNTERS): a handle with no
 * counters, so runs go on with the elapsed time only. */
#include "perf.h"

#if !FB_HAVE_PERF_EVENTS

#include <stdlib.h>

struct fb__perf {
    int unused;
};

fb__perf *fb__perf_open_flags(char *why, size_t why_len, unsigned flags) {
    (void)flags;
    if (why && why_len) {
#if defined(FB_DISABLE_PERF_COUNTERS)
        snprintf(why, why_len,
                 "performance counters missing: all (built with FB_DISABLE_PERF_COUNTERS; "
                 "rebuild without it on Linux to count instructions, cycles and branches)");
#elif defined(FB__NO_PERF_HEADER) /* musl-gcc has no kernel headers */
        snprintf(why, why_len,
                 "performance counters missing: all (built without <linux/perf_event.h>; "
                 "install the kernel headers, e.g. linux-libc-dev, and rebuild: times only)");
#else
        snprintf(why, why_len,
                 "performance counters missing: all (femtobench counts with Linux "
                 "perf_event_open; this system has no support: times only)");
#endif
    }
    return calloc(1, sizeof(fb__perf));
}

fb__perf *fb__perf_open(char *why, size_t why_len) { return fb__perf_open_flags(why, why_len, 0); }

void fb__perf_close(fb__perf *p) { free(p); }

fb__mask fb__perf_available(const fb__perf *p) {
    (void)p;
    return 0;
}

fb__mask fb__perf_last_known(const fb__perf *p) {
    (void)p;
    return 0;
}

void fb__perf_begin(fb__perf *p) { (void)p; }

void fb__perf_end(fb__perf *p, uint64_t iterations, int shape, double counts[FB_MEASURE_COUNT]) {
    (void)p;
    (void)iterations;
    (void)shape;
    (void)counts;
}

double fb__perf_calibration(const fb__perf *p, double measuring[FB_MEASURE_COUNT],
                            double loop_per_iter[FB__SHAPES][FB_MEASURE_COUNT]) {
    (void)p;
    (void)measuring;
    (void)loop_per_iter;
    return 0;
}

#endif /* !FB_HAVE_PERF_EVENTS */
