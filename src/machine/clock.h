/* The monotonic clock (src/machine/clock.c). */
#ifndef FB_CLOCK_H
#define FB_CLOCK_H

#include "base.h"

typedef struct fb__clock_info {
    double resolution_s; /* smallest observable step of the clock */
    double overhead_s;   /* cost of one clock read */
    /* per iteration, a loop that holds only fb_do_not_optimize: the least an
     * op can cost in FB_RUN's loop (0: not known, as under a custom clock) */
    double empty_loop_s;
    /* the thread's CPU clock (fb__clock_cpu_ns): what two back-to-back reads
     * add to the CPU time between them, subtracted from every epoch's CPU
     * time; NAN when the CPU clock cannot be read */
    double cpu_overhead_s;
} fb__clock_info;

FB__PRIVATE uint64_t fb__clock_now_ns(void);
/* The measuring thread's CPU time in ns (POSIX: CLOCK_THREAD_CPUTIME_ID;
 * Windows: QueryThreadCycleTime scaled by the TSC's rate, else
 * GetThreadTimes), or FB__CLOCK_CPU_UNKNOWN. It does not advance while the
 * thread is descheduled: an epoch's wall time less its CPU time is the time
 * the thread spent off the CPU. A system call (~0.3-0.7 us), so it is read
 * outside the timed region, once before the first clock read and once after
 * the second. */
#define FB__CLOCK_CPU_UNKNOWN UINT64_MAX
FB__PRIVATE uint64_t fb__clock_cpu_ns(void);
/* Measures a clock (NULL: the monotonic clock). The process state measures
 * the process clock once with it; tests measure fake clocks. */
FB__PRIVATE void fb__clock_measure(fb_clock_fn now_ns, void *ctx, fb__clock_info *out);
/* What a run paced by a host's epoch hook uses of the process clock: its
 * resolution (the calibration's epoch target) and the CPU clock's read cost
 * (each epoch's CPU time); the read's own overhead and the empty loop,
 * which only a runner's marks use, are 0. A tenth of the full measure's
 * time, paid by every copy of the library femtobench-ab loads. */
FB__PRIVATE void fb__clock_measure_paced(fb__clock_info *out);

#endif
