/* Marks a result earns from its own numbers (src/marks.c): an op that costs
 * no more than an empty loop ("optimized away?"), and epochs too short for
 * the clock to resolve. Both are derived once, with the statistics, and
 * read by every writer. */
#ifndef FB_MARKS_H
#define FB_MARKS_H

#include "result.h"

/* An op whose median time per iteration is below this many times the cost of
 * a loop holding only fb_do_not_optimize is marked "optimized away?". In 40
 * runs under load 14 an empty body measured 0.99-1.55x that cost, a 1-add
 * body 0.99-1.65x (no more measurable than nothing), a deleted 4 KiB copy
 * 1.17x, a real one 119-187x (docs/design.md, "An op that was optimized
 * away"). */
#define FB__EMPTY_LOOP_FACTOR 2.0
/* Epochs shorter than this many clock resolutions are not resolved: the
 * clock's step is more than 1% of each epoch. */
#define FB__RESOLVED_MULTIPLE 100.0

/* Sets r->optimized_away and r->unresolved from its summary (call after the
 * summary is filled). */
FB__PRIVATE void fb__marks_compute(fb_result *r);

#endif
