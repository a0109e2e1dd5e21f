/* Disturbed epochs (src/stats/disturb.c): what the kernel says about the measuring
 * thread around each epoch, outside the timed region, and which epochs the
 * statistics use. docs/design.md ("Disturbed epochs") has the rules. */
#ifndef FB_DISTURB_H
#define FB_DISTURB_H

#include "base.h"

#include <stddef.h>
#include <stdint.h>

/* A disturbance source: a count that grows when the thread was disturbed
 * (by default its involuntary context switches). Read before and after each
 * epoch; an epoch during which it grew was disturbed. FB__DISTURB_UNKNOWN
 * when it cannot be read. */
typedef uint64_t (*fb__disturb_fn)(void *ctx);
#define FB__DISTURB_UNKNOWN UINT64_MAX

/* The default source: getrusage(RUSAGE_THREAD)'s ru_nivcsw (Linux), else
 * FB__DISTURB_UNKNOWN. ctx, when not NULL, is a uint64_t that receives the
 * voluntary context switches (ru_nvcsw) of the same read, FB__DISTURB_UNKNOWN
 * when unknown: an epoch in which they grew blocked on its own (a sleep, a
 * lock, I/O), so its wall time exceeding its CPU time says nothing about
 * being descheduled. */
FB__PRIVATE uint64_t fb__disturb_thread(void *ctx);

/* An epoch whose wall time exceeds the thread's CPU time by more than
 * FB__OFF_CPU_FRAC of the wall time and at least FB__OFF_CPU_MIN_S was
 * descheduled (off the CPU: waiting while another thread ran, or the host
 * running something else on the vCPU). The margin keeps the CPU clock's
 * own jitter (a few microseconds on a 250 us epoch, measured) from flagging
 * epochs of an idle machine. */
#define FB__OFF_CPU_FRAC 0.02
#define FB__OFF_CPU_MIN_S 10e-6
FB__PRIVATE bool fb__disturb_off_cpu(double wall_s, double cpu_s);

/* Per-epoch flags of a result (struct fb_result's epoch_flags). */
enum {
    FB__EPOCH_DISTURBED = 1u,  /* the thread was descheduled during the epoch */
    FB__EPOCH_SUPERSEDED = 2u, /* measured before the run lengthened its epochs */
    FB__EPOCH_DROPPED = 4u,    /* not used by the statistics */
    /* a group's epoch whose threads waited for a core (a busy machine):
     * its time is the threads' span on the CPU (src/run/group.h), not the
     * clock's; not disturbed, the wait being out of it */
    FB__EPOCH_WAITED = 8u
};

/* At least this many epochs stay in the statistics: when dropping the
 * disturbed (or superseded) epochs would leave fewer, they are kept. */
#define FB__DISTURB_MIN_KEPT 3

/* Sets FB__EPOCH_DROPPED on the epochs the statistics leave out: first the
 * superseded ones, then the disturbed ones, each only when at least
 * FB__DISTURB_MIN_KEPT epochs remain. Returns the number of epochs kept. */
FB__PRIVATE size_t fb__disturb_select(unsigned char *flags, size_t epochs);

#endif
