/* The runner's bounds on its own options (src/runner/cli_check.c): every count and
 * time on the command line has a documented range (docs/reliability.md). */
#ifndef FB_CLI_CHECK_H
#define FB_CLI_CHECK_H

#include "base.h"

#include <stdio.h>

#define FB__CLI_MAX_MIN_TIME_MS 60000.0 /* -min_time: one minute per benchmark */
#define FB__CLI_MAX_ASYMPTOTE 1000      /* -asymptote: entries (one run each) */
#define FB__CLI_MAX_TIMEOUT_S 86400.0   /* -timeout: a day */
#define FB__CLI_MAX_SHARDS 1000         /* -shard=k/n: n, the CI jobs of one suite */

/* NULL when v lies in [lo, hi], else the reason ("out of range (lo to hi
 * unit)") in why. */
FB__PRIVATE const char *fb__cli_range(double v, double lo, double hi, const char *unit, char *why,
                                      size_t len);

#endif
