/* The HTML report (src/report_html.c): one self-contained page with inline
 * SVG charts. Internal pieces, for tests and for the features that add
 * charts to the page (paired comparisons, baselines). */
#ifndef FB_REPORT_HTML_H
#define FB_REPORT_HTML_H

#include "sysinfo.h"

#include <stdio.h>

/* fb_write_html with a given machine context (tests pass a fixed one). */
FB__PRIVATE int fb__write_html_with(const fb_bench *b, FILE *f, const fb__sysinfo *si);

/* A forest plot in its own <section class="forest">: one row per
 * alternative with its ratio as a point, the interval [lo, hi] as a line and
 * a vertical line at 1, on a log axis; each point and interval has an SVG
 * <title> with the exact numbers. Below it a table with the same numbers.
 * An interval that excludes 1 is drawn as "differs" (class "differs"), one
 * that contains it as "same". Rows with a non-finite or non-positive ratio
 * are listed in the table with "-" and left out of the chart. */
FB__PRIVATE void fb__html_forest(FILE *f, const char *title, size_t n, const char *const *names,
                                 const double *ratio, const double *lo, const double *hi);

/* Verdicts of a baseline comparison, for fb__html_change_bars. */
enum {
    FB__HTML_SAME = 0,    /* no significant change */
    FB__HTML_FASTER = 1,  /* improved */
    FB__HTML_SLOWER = 2,  /* regressed */
    FB__HTML_UNKNOWN = 3, /* not comparable (an error) */
    FB__HTML_UNSURE = 4,  /* the interval straddles the threshold */
    FB__HTML_NEW = 5,     /* not in the baseline */
    FB__HTML_GONE = 6     /* in the baseline only */
};

/* The baseline change table in its own <section class="change">: a chart
 * with one bar per benchmark from 0 to its change in % (now against
 * baseline; positive = slower), coloured by verdict (class "verdict-same",
 * "verdict-faster", "verdict-slower", "verdict-unknown"), the interval
 * [lo_pct, hi_pct] as a line across the bar's end, and a line at 0; then the
 * table: name, baseline, now (seconds, SI-prefixed), change %, interval,
 * verdict. Non-finite numbers show as "-" and draw no bar. */
FB__PRIVATE void fb__html_change_bars(FILE *f, const char *title, size_t n,
                                      const char *const *names, const double *baseline_s,
                                      const double *now_s, const double *change_pct,
                                      const double *lo_pct, const double *hi_pct,
                                      const int *verdict);

/* The report's style sheet (the text inside <style>), for other pages
 * that draw the same charts (femtobench-ab's). */
FB__PRIVATE const char *fb__html_style(void);

/* Quartile p (0..1) of n sorted values, linearly interpolated between
 * neighbours (Hyndman and Fan's type 7, numpy's default). NaN when n == 0. */
FB__PRIVATE double fb__html_quantile(const double *sorted, size_t n, double p);

#endif
