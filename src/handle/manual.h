/* Manual timing (fb_set_manual_time, fb_set_iteration_time) and regions
 * excluded from the clock (fb_exclude_begin, fb_exclude_end): what an
 * epoch's time becomes before the run records it. The epoch routine
 * (src/run/epoch.c) calls fb__manual_epoch_begin when an epoch starts and
 * fb__manual_epoch_time after its last clock read, for every kind of run. */
#ifndef FB_MANUAL_H
#define FB_MANUAL_H

#include "base.h"

/* The state kept on the bench (struct fb_bench's `manual`). */
typedef struct fb__manual {
    bool on;              /* fb_set_manual_time(b, true) */
    double given_s;       /* seconds given by fb_set_iteration_time this epoch */
    bool given;           /* at least one call this epoch */
    uint64_t excluded_ns; /* time inside excluded regions this epoch */
    uint64_t begin_ns;    /* clock at fb_exclude_begin; 0: not inside one */
} fb__manual;

FB__PRIVATE void fb__manual_epoch_begin(fb_bench *b);
/* The epoch's time from the clock's measured_s: the seconds given
 * (manual timing), or measured_s less the excluded regions. */
FB__PRIVATE double fb__manual_epoch_time(fb_bench *b, double measured_s);

#endif
