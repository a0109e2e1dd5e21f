/* The speed of each process, divided out of a change table compared between
 * processes (src/change_suite.c; docs/baselines.md, "The speed of each
 * process"). A slow stretch of the machine slows a whole process: every
 * benchmark of it by about the same factor. Each process's factor is the
 * median over the table's benchmarks of how far the process sits from the
 * benchmark's center; each benchmark is then compared on its values with
 * the factor divided out, which makes its change relative to the whole
 * suite's, and the whole suite's change gets its own line from the factors
 * themselves. */
#ifndef FB_CHANGE_SUITE_H
#define FB_CHANGE_SUITE_H

#include "base.h"
#include "change.h"

/* Fewer benchmarks compared between processes than this: no factors (the
 * median over a handful of benchmarks would follow one that changed). */
#define FB__CHANGE_SUITE_MIN_BENCHMARKS 5

/* One row's processes: per side, the process (`pass`) and the log of its
 * median time per unit. Paired: the pairs only, old[i] with now[i]. */
typedef struct fb__suite_row {
    size_t m, n, off; /* values at pass[off..off+m) (old), then [off+m..off+m+n) (now) */
} fb__suite_row;

typedef struct fb__suite {
    bool paired;
    size_t rows, cap_rows;
    fb__suite_row *row;
    size_t n_vals, cap_vals;
    unsigned *pass;
    double *lv; /* logs, by row as in row[] */
    /* after fb__suite_fit: */
    bool on;                       /* factors divided out (rows >= the minimum) */
    size_t n_old, n_new;           /* processes of each side (paired: n_new pairs) */
    unsigned *old_pass, *new_pass; /* sorted */
    double *f_old, *f_new;         /* each process's log factor (paired: f_new, per pair) */
} fb__suite;

FB__PRIVATE void fb__suite_init(fb__suite *s, bool paired);
FB__PRIVATE void fb__suite_free(fb__suite *s);
/* Adds a row: per-process medians (time per unit) of each side and their
 * processes; paired, old_s[i] and now_s[i] are one pair (m == n). Returns
 * FB_OK or FB_ENOMEM. */
FB__PRIVATE int fb__suite_add(fb__suite *s, const double *old_s, const unsigned *old_pass, size_t m,
                              const double *now_s, const unsigned *now_pass, size_t n);
/* Computes the factors of the rows added (on when there are at least
 * FB__CHANGE_SUITE_MIN_BENCHMARKS rows). FB_OK or FB_ENOMEM. */
FB__PRIVATE int fb__suite_fit(fb__suite *s);

/* The whole suite: the difference of the factors between the sides
 * (pooled t interval, m + n - 2 degrees of freedom; paired: the t interval
 * of the pairs' factors, K - 1), at t_crit for fb__suite_whole_df. */
FB__PRIVATE unsigned fb__suite_whole_df(const fb__suite *s);
FB__PRIVATE void fb__suite_whole(const fb__suite *s, double t_crit, double threshold_pct,
                                 fb__change *out);

/* Row r with the factors divided out: the change relative to the whole
 * suite, a t interval over the normalized values whose spread is their
 * residual sum of squares over fb__suite_row_df degrees of freedom (each
 * process's factor is estimated from the rows, which takes (P - 1) / B of
 * a degree of freedom from each of B rows over P processes). */
FB__PRIVATE unsigned fb__suite_row_df(const fb__suite *s, size_t r);
FB__PRIVATE void fb__suite_compare(const fb__suite *s, size_t r, double t_crit,
                                   double threshold_pct, fb__change *out);

/* The same over plain arrays, for the tests and the above:
 * unpaired: lo[b][i] = log of benchmark b in old process i (row-major, m
 * columns; NAN where it did not run), ln[b][j] likewise for new; writes
 * fo[0..m) and fn[0..n). Paired: d[b][k] = the log ratio of pair k; writes
 * f[0..k). Returns FB_OK or FB_ENOMEM. */
FB__PRIVATE int fb__suite_factors(const double *lo, size_t m, const double *ln, size_t n, size_t b,
                                  double *fo, double *fn);
FB__PRIVATE int fb__suite_factors_paired(const double *d, size_t k, size_t b, double *f);
/* Degrees of freedom of a normalized row of p values (unpaired: m + n,
 * paired: K pairs) in a fit over b rows: floor(((p - 2) b - (p - 1)) / b)
 * unpaired, floor((K - 1)(b - 1) / b) paired; 0 when none. */
FB__PRIVATE unsigned fb__suite_df(size_t p, size_t b, bool paired);

/* The change table's line for the whole suite (src/report_change_suite.c),
 * and its name as a row of the HTML report's change chart. */
#define FB__SUITE_WHOLE_NAME "(whole suite)"
FB__PRIVATE void fb__suite_print(FILE *f, const fb__suite *s, const fb__change *whole);

#endif
