/* The HTML report (src/outputs/report_html.c and its parts, report_html_*.c): one
 * self-contained page with inline SVG charts. Internal pieces, for tests and
 * for the features that add charts to the page (paired comparisons,
 * baselines). */
#ifndef FB_REPORT_HTML_H
#define FB_REPORT_HTML_H

#include "bench.h"
#include "sysinfo.h"

#include <stdio.h>

/* Chart geometry, pixels. */
#define FB__H_W 880.0     /* chart width */
#define FB__H_LABEL 250.0 /* left column for names */
#define FB__H_RIGHT 24.0  /* right margin */
#define FB__H_ROW 26.0    /* one row per benchmark */
/* A chart draws at most this many rows (5,200 px); the table lists all. */
#define FB__H_MAX_ROWS 200
/* A title or unit is written in full once, in its group's heading; every
 * other place (tooltips, labels, table headers) shows this many bytes. */
#define FB__H_TEXT_MAX 60
#define FB__H_TOP 8.0
#define FB__H_AXIS 44.0  /* below the rows: tick labels and the axis title */
#define FB__H_NAME_CP 34 /* code points of a name shown in a chart label */

/* Group data spanning more than this factor get a log axis. */
#define FB__H_LOG_SPAN 100.0

/* Shared by the page's parts (src/outputs/report_html.c): a <rect> left open for
 * its <title>; an <svg> chart of height h; a right-aligned, shortened name
 * in the label column with the full text (and N, the pass of -repetitions
 * when pass > 0, 1-based, and extra) as its tooltip;
 * a table cell with a number of `decimals` and a suffix ("-" when not
 * finite). */
FB__PRIVATE void fb__html_rect(FILE *f, const char *cls, double x, double y, double w, double h);
FB__PRIVATE void fb__html_svg_open(FILE *f, const char *cls, double h, const char *label);
FB__PRIVATE void fb__html_label(FILE *f, const char *cls, double y, const char *name, double n,
                                unsigned pass, const char *extra);
FB__PRIVATE void fb__html_cell(FILE *f, double v, int decimals, const char *suffix);
/* A result with epochs of time to draw (no error, a batch); two titles or
 * units equal (both NULL too). */
FB__PRIVATE bool fb__html_measured(const fb_result *r);
FB__PRIVATE bool fb__html_same(const char *a, const char *b);
/* The result's marks (src/stats/marks.c) as hints after its name. */
FB__PRIVATE void fb__html_marks(FILE *f, const fb_result *r);

/* src/outputs/report_html_strip.c: the strip/box chart of the title/unit group
 * idx[0..m) of b (the group's number gno names its rows; with `passes`,
 * each label says its pass). FB_OK. */
FB__PRIVATE int fb__html_strip(FILE *f, const fb_bench *b, const size_t *idx, size_t m, size_t gno,
                               bool passes);
/* src/outputs/report_html_baseline.c: the section of a run against a baseline
 * (the change view the runner kept with the suite, src/outputs/change_view.c):
 * its warnings, verdicts, table, CPU times and chart. */
typedef struct fb__change_view fb__change_view; /* src/outputs/change.h */
FB__PRIVATE void fb__html_baseline(FILE *f, const fb__change_view *v);
/* src/outputs/report_html_table.c: the results table of the group idx[0..m) of b;
 * with `passes` (-repetitions), a first column with each row's pass. */
FB__PRIVATE void fb__html_table(FILE *f, const fb_bench *b, const size_t *idx, size_t m,
                                bool passes);
/* src/outputs/report_html_page.c: the page's head and header (titles, machine
 * context, warnings), and the legend. */
FB__PRIVATE void fb__html_header(FILE *f, const fb_bench *b, const fb__sysinfo *si);
FB__PRIVATE void fb__html_legend(FILE *f);
/* src/outputs/report_html_complexity.c: the complexity section of the fit group of
 * b's result `first` (a log-log chart and the fit table, of its stored fit). */
FB__PRIVATE void fb__html_complexity(FILE *f, const fb_bench *b, const fb__fit_groups *g,
                                     size_t first);

/* A group of results counted under Callgrind (-valgrind;
 * src/outputs/report_html_counted.c): a chart with one bar per result from 0 to its
 * instructions per unit (the exact count, hover for it; an error row says
 * its error), then the table of its counts per unit: instructions and,
 * with -valgrind=cache, L1 and LL misses and the branch miss rate. */
FB__PRIVATE void fb__html_counted_group(FILE *f, const fb_bench *b, const size_t *idx, size_t m,
                                        size_t gno, bool passes);

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
/* Its two parts, for a page that puts the table (the verdicts) before the
 * chart: the chart alone (nothing when n is 0), and the table alone. */
FB__PRIVATE void fb__html_change_chart(FILE *f, const char *title, size_t n,
                                       const char *const *names, const double *change_pct,
                                       const double *lo_pct, const double *hi_pct,
                                       const int *verdict);
/* units[i] (NULL: none known) is row i's unit, shown after the times as
 * in the terminal ("485.5 ps/byte"); fb__html_change_bars passes none. */
FB__PRIVATE void fb__html_change_table(FILE *f, size_t n, const char *const *names,
                                       const double *baseline_s, const double *now_s,
                                       const char *const *units, const double *change_pct,
                                       const double *lo_pct, const double *hi_pct,
                                       const int *verdict);

/* The report's style sheet (the text inside <style>), for other pages
 * that draw the same charts (femtobench-ab's). */
FB__PRIVATE const char *fb__html_style(void);

#endif
