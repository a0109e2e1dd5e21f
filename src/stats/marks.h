/* Marks a result earns from its own numbers (src/stats/marks.c): an op that costs
 * no more than an empty loop ("optimized away?"), and epochs too short for
 * the clock to resolve. Both are derived once, with the statistics, and
 * read by every writer. */
#ifndef FB_MARKS_H
#define FB_MARKS_H

#include "result.h"

/* An op whose median time per iteration is below this many times the cost of
 * a loop holding only fb_do_not_optimize is marked "at the loop's
 * resolution": in 40 runs under load 14 an empty body measured 0.99-1.55x
 * that cost, a 1-add body 0.99-1.65x, a 4 KiB copy the compiler deleted to
 * its barrier 1.17x, a real one 119-187x; one add is real work that the
 * loop cannot time apart from itself, so the mark says where the time is,
 * not that the op is gone (docs/design.md, "An op that was optimized
 * away"). */
#define FB__LOOP_RESOLUTION_FACTOR 2.0
/* Below this fraction of the empty loop the loop did not run the body once
 * an iteration (no body costs less than the loop around it, and one add
 * stays >= 0.5x even when the empty loop was timed in a slow episode of the
 * core, which doubles it): "optimized away?". */
#define FB__DELETED_FACTOR 0.25
/* Epochs shorter than this many clock resolutions are not resolved: the
 * clock's step is more than 1% of each epoch. */
#define FB__RESOLVED_MULTIPLE 100.0

/* A time and the thread's CPU time over the same epochs differ when they
 * are FB__CPU_DIFF_PCT of the larger apart or more: the time is then not
 * what the thread spent running the op (waiting for a core, sleeping, I/O,
 * time the CPU clock does not see). Within it they say the same. One rule
 * for every output that shows the CPU time beside the time: the table, the
 * change tables, femtobench-ab. */
#define FB__CPU_DIFF_PCT 5.0
FB__PRIVATE bool fb__marks_cpu_differs(double time_s, double cpu_s);

/* Sets r->optimized_away and r->unresolved from its summary (call after the
 * summary is filled). */
FB__PRIVATE void fb__marks_compute(fb_result *r);

#endif
