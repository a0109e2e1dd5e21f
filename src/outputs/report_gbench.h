/* Google Benchmark JSON row layouts (src/outputs/report_gbench.c, docs/formats.md).
 * Internal entry point with a fixed context, for tests and the runner. */
#ifndef FB_REPORT_GBENCH_H
#define FB_REPORT_GBENCH_H

#include "json.h"
#include "report.h"

/* rows: FB_GBENCH_MEDIAN, FB_GBENCH_REPETITIONS or FB_GBENCH_AGGREGATES. */
FB__PRIVATE int fb__write_gbench_json_rows_with(const fb_bench *b, FILE *f, const fb__sysinfo *si,
                                                int rows);

/* One row's identity (src/outputs/report_gbench_row.c). */
typedef struct fb__gb_row {
    const char *run_name;
    size_t family, instance, repetitions;
    const char *unit;
} fb__gb_row;

/* The rows of one result and their pieces (src/outputs/report_gbench_row.c):
 * the unit and run name GB sees, a row's head and times, its label (the
 * marks), counters, rates and user counters (the aggregates read from the
 * stored statistics: src/stats/stats.c, src/outputs/passes.c), an error row, a counted
 * row, and fb__gb_result: all rows of r in layout `rows` (FB_OK). */
FB__PRIVATE void fb__gb_unit(const fb_result *r, const char **label, double *seconds);
FB__PRIVATE char *fb__gb_run_name(const fb_result *r);
/* The name of series s over passes (src/outputs/passes.c) in the files for
 * dashboards (GB JSON, Bencher's; src/outputs/report_gbench.c): a run's
 * fb__gb_run_name, a comparison's alternative "title/name". Malloc'd; NULL
 * when out of memory. */
FB__PRIVATE char *fb__gb_series_name(const fb_bench *b, size_t s);
FB__PRIVATE void fb__gb_head(fb__json *j, const fb__gb_row *w, const char *suffix, bool aggregate);
/* real_time t (wall) and cpu_time cpu (the thread's CPU time; a group:
 * summed over its threads, as GB sums its threads' CPU time); cpu NAN
 * (not measured) writes t in both, as before CPU time was read. */
FB__PRIVATE void fb__gb_times(fb__json *j, const fb__gb_row *w, double t, double cpu);
FB__PRIVATE void fb__gb_label(fb__json *j, const fb_result *r);
/* A counter column; FB_CPUTIME is not one (it is cpu_time). */
FB__PRIVATE void fb__gb_counter(fb__json *j, fb_measure m, double v);
FB__PRIVATE void fb__gb_ucounters(fb__json *j, const fb_result *r, double s_per_call);
FB__PRIVATE void fb__gb_rate(fb__json *j, const fb_result *r, double s_per_call);
FB__PRIVATE const char *fb__gb_rate_key(const fb_result *r);
FB__PRIVATE void fb__gb_error_row(fb__json *j, const fb_result *r, fb__gb_row w);
FB__PRIVATE void fb__gb_counted(fb__json *j, const fb_result *r, fb__gb_row *w);
FB__PRIVATE int fb__gb_result(fb__json *j, const fb_result *r, const fb__gb_row *row, int rows);

#endif
