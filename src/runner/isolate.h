/* Crash isolation for the runner's -isolate and -timeout (src/runner/isolate.c):
 * one benchmark in a child process, its results sent back over a pipe. */
#ifndef FB_ISOLATE_H
#define FB_ISOLATE_H

#include "bench.h"

/* What the child runs: the benchmark's rounds on b. */
typedef void (*fb__isolate_body)(fb_bench *b, void *ctx);

/* Runs body(b, ctx) in a forked child. The child's results arrive in b as
 * if they had been measured here: each is published to b's sinks (the live
 * table, the runner's collector) in order. A child that crashes (a signal),
 * exits before the end, or runs past timeout_s (> 0; 0 = no limit; it is
 * then killed) adds an error row naming what happened, under `name`.
 * *interrupted is set when the child's run was interrupted (endless mode).
 * FB_OK, or FB_ENOMEM / FB_EIO when the child could not be started or its
 * record not stored (with the reason in why). */
/* FB_OK where -isolate works; else FB_ENOTSUP and why (Windows: no fork).
 * The runner asks before anything runs. */
FB__PRIVATE int fb__isolate_check(char *why, size_t len);
FB__PRIVATE int fb__isolate_run(fb_bench *b, const char *name, double timeout_s,
                                fb__isolate_body body, void *ctx, bool *interrupted, char *why,
                                size_t len);

#endif
