/* The monotonic clock (src/clock.c). */
#ifndef FB_CLOCK_H
#define FB_CLOCK_H

#include "base.h"

typedef struct fb__clock_info {
    double resolution_s; /* smallest observable step of the clock */
    double overhead_s;   /* cost of one clock read */
} fb__clock_info;

FB__PRIVATE uint64_t fb__clock_now_ns(void);
/* Measures a clock (NULL: the monotonic clock). The process state measures
 * the process clock once with it; tests measure fake clocks. */
FB__PRIVATE void fb__clock_measure(fb_clock_fn now_ns, void *ctx, fb__clock_info *out);

#endif
