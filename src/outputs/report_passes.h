/* The summary over the runner's passes (-repetitions), as markdown
 * (src/outputs/report_passes.c). */
#ifndef FB_REPORT_PASSES_H
#define FB_REPORT_PASSES_H

#include "base.h"

#include <stdio.h>

/* One row per benchmark (name and complexity N, in the order they first
 * ran): the median over passes of each pass's median, the error between
 * passes, min and max; two modes named as such; then each comparison's
 * alternatives against its baseline over the passes. FB_OK or FB_EIO. */
FB__PRIVATE int fb__write_passes(const fb_bench *suite, FILE *f);

#endif
