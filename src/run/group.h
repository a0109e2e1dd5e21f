/* A group of threads running one benchmark body together (src/run/group.c):
 * fb_run_threads and the runner's FB_BENCHMARK_THREADS. Every thread has
 * its own fb_bench handle (thread 0, the leader, is the caller's; the
 * others are made for the group) and runs the same body; each FB_RUN /
 * fb_run in it becomes one run of the whole group. The leader's schedule
 * decides every epoch's iterations; all threads meet at a barrier before
 * the plan of each epoch, before its clock read and after it; the group's
 * epoch runs from the first thread's start to the last thread's end, its
 * counters are the sum of the threads'. */
#ifndef FB_GROUP_H
#define FB_GROUP_H

#include "base.h"
#include "perf.h"

#include <stdint.h>

/* At most this many threads in a group (a typo such as 10000 is refused). */
#define FB__MAX_THREADS 256

/* The shortest epoch of a group of more than one thread under the default
 * clock (src/run/run.c). */
#define FB__GROUP_MIN_EPOCH_S 0.01

/* One thread's last epoch, as the leader combines it. */
typedef struct fb__group_slot {
    uint64_t t0_ns, t1_ns; /* its clock at its epoch's start and end */
    double counts[FB_MEASURE_COUNT];
    fb__mask known; /* the counters it read */
    bool disturbed; /* it was descheduled */
    bool blocked;   /* it blocked on its own (fb__epoch_out.blocked) */
    bool broke;     /* its body left FB_RUN with `break` */
} fb__group_slot;

/* The group's epoch from the threads' slots: from the first thread's start
 * (right after the barrier released them) to the last thread's end (the
 * group's work is done when its last thread is), the counters summed, known
 * where every thread read them, disturbed when any thread was, broken when
 * any thread broke out.
 * On a busy machine the threads also wait for a core, and the span holds
 * the waits: a 2-thread group of a 1 us spin reads 2-3x slow per op, where
 * one thread's epochs are short enough to be left out when descheduled. So
 * when every thread read its CPU time and none blocked on its own, the span
 * the group would have had with its `cores` (the online CPUs, at most the
 * threads) free is known: its busiest thread's CPU time, or the threads'
 * CPU time shared among the cores when that is more (more threads than
 * cores). When the span exceeds it by more than the margin of
 * src/stats/disturb.h the epoch `waited`: its time is that CPU span, and it
 * is no longer disturbed (the wait is out of it). Pure arithmetic (tested
 * under the fake clock). */
typedef struct fb__group_epoch {
    uint64_t ticks_ns;
    double counts[FB_MEASURE_COUNT];
    fb__mask known;
    bool disturbed, broke, waited;
} fb__group_epoch;
FB__PRIVATE void fb__group_combine(const fb__group_slot *slots, size_t n, size_t cores,
                                   fb__group_epoch *out);

typedef struct fb__group fb__group;

/* The group of b (NULL outside one), its size and b's index in it. */
FB__PRIVATE size_t fb__group_size(const fb__group *g);
/* More threads than online CPUs (false off POSIX): the epoch routine then
 * does not take a thread's wall time above its CPU time for a deschedule. */
FB__PRIVATE bool fb__group_oversubscribed(const fb__group *g);
/* The cores its threads can run on at once (fb__group_combine); 0: unknown. */
FB__PRIVATE size_t fb__group_cores(const fb__group *g);
/* A barrier of every thread of the group. False when the group is broken:
 * a thread's body returned, or failed to start a run, while the others
 * wait; then every later wait returns false at once. */
FB__PRIVATE bool fb__group_wait(fb__group *g);
/* The leader's plan for the coming epoch (go false: the run is over), then
 * the barrier; a follower waits and reads it. False when broken. */
FB__PRIVATE bool fb__group_plan(fb__group *g, bool go, uint64_t iters);
/* 1: an epoch of *iters iterations; 0: the run is over; -1: broken. */
FB__PRIVATE int fb__group_follow(fb__group *g, uint64_t *iters);
/* A follower's run ended by a broken group (counted; fb_run_threads
 * turns the count into dropped runs of the leader's bench). */
FB__PRIVATE void fb__group_lost(fb__group *g);
/* Breaks the group: every waiting and later wait returns false. */
FB__PRIVATE void fb__group_break(fb__group *g);
/* The slot of thread i (the threads write their own, the leader reads all
 * after the barrier that ends the epoch). */
FB__PRIVATE fb__group_slot *fb__group_slot_at(fb__group *g, size_t i);

#endif
