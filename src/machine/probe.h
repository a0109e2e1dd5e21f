/* The machine's state (src/machine/probe.c): a calibration kernel of a few tens of
 * microseconds timed around each run, telling whether the core was in one
 * of the host's slow episodes (docs/design.md, "Slow episodes"). */
#ifndef FB_PROBE_H
#define FB_PROBE_H

#include "base.h"

/* A probe: the time per iteration of a tight loop (add; sub; jne: one cycle
 * an iteration on an unhindered core) in cycles of a dependent multiply
 * chain (3 cycles a multiply, barely slowed by the episodes): ~1.0 on a
 * normal core, ~2 in a slow episode. NAN when the kernel is not available
 * (not x86-64 with GCC or clang). */
typedef double (*fb__probe_fn)(void *ctx);
FB__PRIVATE double fb__probe_core(void *ctx);

/* A probe at or above this value marks the core as slow: against
 * best-of-50, either probe >= 1.2 marked rows that were slow with 88-100%
 * precision in four recordings of 200 rows, and found 82% of them where
 * episodes caused them (1.4: 64%; docs/performance.md, "The slow-core
 * mark"). */
#define FB__PROBE_SLOW 1.2

/* A run measured in a slow episode is not measured again: the probe marks
 * it and costs only its two probes (~50 us). Waiting up to 100 ms for a clean
 * core and measuring again once (FB__PROBE_RETRIES 1) made a fast benchmark
 * take 16-73 ms of wall time instead of ~6, and against best-of-N the marks
 * were no better for it (docs/performance.md, "The slow-core mark"). The
 * re-measurement is kept behind these two values. */
#define FB__PROBE_RETRIES 0
#define FB__PROBE_WAIT_S 0.1
/* Probes about every millisecond, outside any timed region, until one is
 * below FB__PROBE_SLOW or max_s has passed; returns the last probe. */
FB__PRIVATE double fb__probe_wait(fb__probe_fn fn, void *ctx, double max_s);

#endif
