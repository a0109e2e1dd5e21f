/* The monotonic clock (src/clock.c). */
#ifndef FB_CLOCK_H
#define FB_CLOCK_H

#include "base.h"

typedef struct fb__clock_info {
    double resolution_s; /* smallest observable step of the clock */
    double overhead_s;   /* cost of one clock read */
    /* per iteration, a loop that holds only fb_do_not_optimize: the least an
     * op can cost in FB_RUN's loop (0: not known, as under a custom clock) */
    double empty_loop_s;
} fb__clock_info;

FB__PRIVATE uint64_t fb__clock_now_ns(void);
/* Measures a clock (NULL: the monotonic clock). The process state measures
 * the process clock once with it; tests measure fake clocks. */
FB__PRIVATE void fb__clock_measure(fb_clock_fn now_ns, void *ctx, fb__clock_info *out);

#endif
