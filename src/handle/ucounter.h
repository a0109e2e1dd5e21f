/* User counters (fb_counter): values a benchmark attaches to its next run,
 * shown beside the time in the table and written to every file. They are
 * declared before the run, like fb_set_batch, and belong to that one run:
 * the next run starts without any. */
#ifndef FB_UCOUNTER_H
#define FB_UCOUNTER_H

#include "base.h"
#include "result.h" /* the counters a result carries (fb__ucounters) */

/* Why name cannot be a counter's name among `have` (NULL: it can): empty,
 * too long, a control character, or a name the files already use for
 * something else (a Google Benchmark row key, a measure's name). */
FB__PRIVATE const char *fb__ucounter_bad_name(const fb__ucounters *have, const char *name);
/* The counters the next run on b gets, moved to r (nothing when there are
 * none): called once per published result (src/handle/bench_publish.c). True when it
 * moved some (the result was measured in this process). */
FB__PRIVATE bool fb__ucounters_attach(fb_bench *b, fb_result *r);
/* Counters given after the last run of a benchmark, while no run is open
 * (Google Benchmark sets its counters after the loop): moved to that run's
 * result `last` (a counter it already has takes the later value). Returns
 * how many moved; 0 when none were pending, or when they do not fit (more
 * than FB__UCOUNTER_MAX in all) or memory ran out: then they stay pending.
 * The caller computes last's statistics again. */
FB__PRIVATE size_t fb__ucounters_late(fb_bench *b, fb_result *last);
/* src's counters moved to dst (replacing dst's): the parent of a child
 * that attached late counters to a result it had sent before. */
FB__PRIVATE void fb__ucounters_take(fb_result *dst, fb_result *src);
/* One line on b's diagnostics: r got `late` counters after its run, and
 * the values its counters now show. */
FB__PRIVATE void fb__ucounters_say_late(const fb_bench *b, const fb_result *r, size_t late);
/* Counters given after the last run of a benchmark (no run carries them):
 * how many, the first one's name into first; they are forgotten. */
FB__PRIVATE size_t fb__ucounters_left(fb_bench *b, char *first, size_t len);
/* Says on the diagnostics stream which rate of a published result is too
 * large for a double (its statistics computed). */
FB__PRIVATE void fb__ucounters_check(const fb_bench *b, const fb_result *r);
/* fb__ucounter_shown, the value a file shows: src/result/result.h. */
/* Its column label: "name", "name/<unit>" or "name/s". */
FB__PRIVATE void fb__ucounter_label(const fb_result *r, size_t i, char *buf, size_t len);

/* The counter columns of a set of results (a CSV file, an HTML table):
 * every distinct label, in the order of first appearance (at most
 * FB__UCOUNTER_COLS; more are left out of the columns, never mixed up). */
#define FB__UCOUNTER_COLS 64
#define FB__UCOUNTER_LABEL_MAX (FB__UCOUNTER_NAME_MAX + 40)
typedef struct fb__ucounter_cols {
    size_t n;
    char label[FB__UCOUNTER_COLS][FB__UCOUNTER_LABEL_MAX];
} fb__ucounter_cols;
FB__PRIVATE void fb__ucounter_cols_add(fb__ucounter_cols *cols, const fb_result *r);
/* r's counter under that label as shown (fb_result_counter); NAN when r has
 * none of that label or is an error. */
FB__PRIVATE double fb__ucounter_col_value(const fb_result *r, const char *label);

#endif
