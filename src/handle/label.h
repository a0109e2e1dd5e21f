/* A run's label (fb_set_label; Google Benchmark's SetLabel): a note about
 * the row that every writer shows beside its name. Given on the bench
 * during the run (or before it), moved into the result when the run is
 * published (src/handle/bench_publish.c). */
#ifndef FB_LABEL_H
#define FB_LABEL_H

#include "base.h"

#define FB__LABEL_MAX 1024

/* The label given on b, if any, becomes r's (replacing one r carries). */
FB__PRIVATE void fb__label_attach(fb_bench *b, fb_result *r);

#endif
