/* The machine's state (src/probe.c): a calibration kernel of a few tens of
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

/* A probe at or above this value marks the core as slow. */
#define FB__PROBE_SLOW 1.4

/* A run measured in a slow episode is measured again once, when a clean
 * core comes back within FB__PROBE_WAIT_S (docs/design.md, "Slow episodes
 * of the core"). */
#define FB__PROBE_RETRIES 1
#define FB__PROBE_WAIT_S 0.1
/* Probes about every millisecond, outside any timed region, until one is
 * below FB__PROBE_SLOW or max_s has passed; returns the last probe. */
FB__PRIVATE double fb__probe_wait(fb__probe_fn fn, void *ctx, double max_s);

#endif
