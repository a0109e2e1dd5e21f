/* Google Benchmark JSON row layouts (src/report_gbench.c, docs/formats.md).
 * Internal entry point with a fixed context, for tests and the runner. */
#ifndef FB_REPORT_GBENCH_H
#define FB_REPORT_GBENCH_H

#include "report.h"

/* rows: FB_GBENCH_MEDIAN, FB_GBENCH_REPETITIONS or FB_GBENCH_AGGREGATES. */
FB__PRIVATE int fb__write_gbench_json_rows_with(const fb_bench *b, FILE *f, const fb__sysinfo *si,
                                                int rows);

#endif
