/* The live markdown table, a result sink (src/outputs/report_markdown.c,
 * its last column src/outputs/report_markdown_name.c), and the
 * complexity table (src/outputs/report_complexity.c). */
#ifndef FB_REPORT_H
#define FB_REPORT_H

#include "result.h"
#include "stats.h"
#include "sysinfo.h"

#include <stdio.h>

/* The live table: prints each result's row as it arrives, with a header
 * whenever the columns, the title or the unit change. The runner shares one
 * between its benches; a bench otherwise has its own. */
typedef struct fb__table {
    FILE *out;             /* NULL: silent */
    char last_header[512]; /* signature of the last header printed */
    FILE *last_out;        /* stream it was printed to */
    /* called before a row is printed (the runner's status line erases
     * itself, src/runner/progress.c); NULL: none */
    void (*before_row)(void *ctx);
    void *before_row_ctx;
} fb__table;

/* The sink function (a fb__sink_fn of src/handle/bench.h): ctx is a fb__table; the
 * relative mode's baseline is the first measured result of b. */
FB__PRIVATE void fb__table_sink(void *ctx, const fb_bench *b, const fb_result *r);
/* Starts a new table (the next row prints a header). */
FB__PRIVATE void fb__table_restart(fb__table *t);

/* For the comparison table (src/outputs/report_compare.c): the header of an ordinary
 * table for r with extra leading columns (names[i], widths[i] including "| "
 * and the trailing space); r's row without a relative column; text and code
 * spans escaped for a table cell; the results' tables of fb_write_markdown
 * (FB_OK or FB_EIO). */
FB__PRIVATE void fb__md_header_lead(FILE *f, const fb_result *r, size_t n_lead,
                                    const char *const *names, const int *widths);
FB__PRIVATE void fb__md_row(FILE *f, const fb_result *r);
FB__PRIVATE void fb__md_text(FILE *f, const char *s);
FB__PRIVATE void fb__md_code(FILE *f, const char *s);
/* A row's last cell (src/outputs/report_markdown_name.c): "| ", the marks, the
 * name, its label and the notes on its value (quiet: the suppressible ones
 * left out), then the newline; for an error row, the error. */
FB__PRIVATE void fb__md_name_cell(FILE *f, const fb_result *r, bool quiet);
/* The line after the runner's table when a row of b has an err% column:
 * what err% is, and what it is not (not in fb_write_markdown, which prints
 * the table as the live one did).
 * A quoted line after a blank one, so that markdown does not read it as a
 * row. Prints nothing when no result (nor a comparison's alternative) of b
 * has the column. */
FB__PRIVATE void fb__md_err_legend(FILE *f, const fb_bench *b);
FB__PRIVATE int fb__write_results_markdown(const fb_bench *b, FILE *f);

/* The JSON writers with a given machine context (tests pass a fixed one;
 * fb_write_json and fb_write_gbench_json pass the process's). */
FB__PRIVATE int fb__write_json_with(const fb_bench *b, FILE *f, const fb__sysinfo *si);
FB__PRIVATE int fb__write_gbench_json_with(const fb_bench *b, FILE *f, const fb__sysinfo *si);

/* The complexity table of a stored fit set. */
FB__PRIVATE int fb__write_fit_set(const fb__fit_set *s, FILE *f);
/* The runner, after the last instance of a family (rs[0..n): the family's
 * results, in b): prints to f the stored fit (src/handle/bench_fits.c) of
 * every family series among them with at least two distinct N, each after
 * a blank line and a title. Returns how many. */
FB__PRIVATE size_t fb__write_family_fits(const fb_bench *b, const fb_result *const *rs, size_t n,
                                         FILE *f);

#endif
