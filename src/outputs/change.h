/* Did it change: the comparison of two runs of one benchmark (src/outputs/change.c,
 * src/outputs/change_mw.c, src/outputs/change_between.c: pure), the change view
 * (src/outputs/change_view.c). The change table is src/outputs/report_change.h's.
 * The method is in docs/baselines.md. */
#ifndef FB_CHANGE_H
#define FB_CHANGE_H

#include "base.h"
#include "baseline.h"

/* The default -threshold, in % (docs/baselines.md says how it was chosen). */
#define FB__CHANGE_DEFAULT_THRESHOLD_PCT 10.0

typedef enum fb__verdict {
    FB__V_FASTER = 0,
    FB__V_SLOWER,
    FB__V_SAME,
    FB__V_UNSURE,
    FB__V_NEW,
    FB__V_GONE,
    FB__V_COUNT
} fb__verdict;

FB__PRIVATE const char *fb__verdict_name(fb__verdict v); /* "faster", ... */

/* One benchmark's change. Log ratios are log(now / baseline) of the time per
 * unit; the *_pct fields the same as a % change (negative = faster). */
typedef struct fb__change {
    double shift;        /* Hodges-Lehmann estimate, log ratio; NAN when not compared */
    double mw_lo, mw_hi; /* the Mann-Whitney 95% interval, log ratio (-INF/INF: too few epochs) */
    double lo, hi;       /* the interval after widening for instability */
    double change_pct, lo_pct, hi_pct;
    fb__verdict verdict;
    /* two counts (fb__change_counted_spread): FB__SPREAD_NONE when both
     * were exact, else whether their spreads overlap */
    int spread;
} fb__change;

enum { FB__SPREAD_NONE, FB__SPREAD_WITHIN, FB__SPREAD_BEYOND };

/* Shared by the comparisons' files: out's change_pct, lo_pct and hi_pct from
 * its shift, lo and hi, and the verdict of [lo_pct, hi_pct] against
 * threshold_pct; a time per unit as a log (0 counts as 1 fs per unit). */
FB__PRIVATE void fb__change_verdict(fb__change *out, double threshold_pct);
FB__PRIVATE double fb__change_log_s(double s);

/* The largest k such that P(U <= k - 1) <= alpha / 2 for the Mann-Whitney U
 * of samples of m and n values (exact for m, n <= 30, else the normal
 * approximation): [D(k), D(mn + 1 - k)] of the sorted pairwise differences
 * covers the shift with probability >= 1 - alpha. 0 when no such k. */
FB__PRIVATE size_t fb__change_mw_rank(size_t m, size_t n, double alpha);

/* The k-th smallest (1-based) of the m * n differences y[j] - x[i], x and y
 * sorted ascending; O((m + n) log) time, no m * n memory. */
FB__PRIVATE double fb__change_kth_diff(const double *x, size_t m, const double *y, size_t n,
                                       uint64_t k);

/* Compares per-unit times old[0..m) (err% old_err_pct) with now[0..n)
 * against threshold_pct. m or n may be 0 (then verdict unsure). */
FB__PRIVATE void fb__change_compare(const double *old_s, size_t m, double old_err_pct,
                                    const double *now_s, size_t n, double now_err_pct,
                                    double threshold_pct, fb__change *out);

/* How far the change between two processes of one binary, run one after
 * the other on the project's shared 2-vCPU machine, can lie outside its own
 * one-process interval: fitted on half of 60 pairs of the demo suite at
 * load 1-10 (the largest, 483%, from a preempted process, doubled as a
 * ratio: the tail is heavy) and checked on the other half (0 of 60 beyond
 * it); docs/baselines.md, "One process a side: the floor";
 * tools/floor_fit.py. With one process a side the interval is widened by
 * it, so only a change beyond it (12x) gets a verdict. */
#define FB__CHANGE_PROCESS_FLOOR_PCT 1100.0

/* The confidence of the intervals between processes, family-wise over the
 * benchmarks of a table (Bonferroni: each row gets alpha / rows). */
#define FB__CHANGE_ALPHA 0.05

/* t such that P(|T| > t) = alpha for Student's t with df degrees of
 * freedom (two-sided); NAN for df 0. */
FB__PRIVATE double fb__change_t_quantile(double alpha, unsigned df);

/* Between processes: old_s[0..m) and now_s[0..n) are per-process medians
 * (time per unit), one per process. Paired (m == n >= 2, old_s[i] and
 * now_s[i] ran as a pair): a t interval of the per-pair log ratios.
 * Unpaired (m + n >= 3): a two-sample t interval of the log medians with
 * the variance pooled over both sides. Two-sided, at level 1 - alpha.
 * Anything else: unsure, NAN. */
FB__PRIVATE void fb__change_between(const double *old_s, size_t m, const double *now_s, size_t n,
                                    bool paired, double alpha, double threshold_pct,
                                    fb__change *out);

/* The same with the critical value given (t_crit for the degrees of
 * freedom fb__change_between_df returns, 0 when no interval exists): a
 * table computes it once per df, not once per row. */
FB__PRIVATE unsigned fb__change_between_df(size_t m, size_t n, bool paired);
FB__PRIVATE void fb__change_between_t(const double *old_s, size_t m, const double *now_s, size_t n,
                                      bool paired, double t_crit, double threshold_pct,
                                      fb__change *out);

/* One process a side: fb__change_compare over the epochs, its interval then
 * widened by FB__CHANGE_PROCESS_FLOOR_PCT on both sides (the spread between
 * processes is unknown), and the verdict taken on that. The change (shift,
 * change_pct) is the ratio of the two medians, the values a change table
 * shows, the interval stretched to hold it should it lie outside. */
FB__PRIVATE void fb__change_one_process(const double *old_s, size_t m, double old_err_pct,
                                        const double *now_s, size_t n, double now_err_pct,
                                        double threshold_pct, fb__change *out);

/* Paired rounds (femtobench-ab, docs/ab.md): log_ratio[0..n) are the
 * rounds' ln(t_new / t_old), sorted in place; the change is their median,
 * the interval the sign-test one at `confidence` (fb__cmp_interval, the
 * paired comparison's), the verdict that interval against threshold_pct.
 * Too few rounds for an interval: unsure. mw_lo / mw_hi stay NAN. */
FB__PRIVATE void fb__change_paired(double *log_ratio, size_t n, double confidence,
                                   double threshold_pct, fb__change *out);

/* Two exact counts (instructions per unit under Callgrind, NAN when that
 * side was timed): no noise, so no interval and no threshold: any change of
 * the count is `slower` or `faster` (one instruction per op more is a
 * change); a count against a time is `unsure`. */
FB__PRIVATE void fb__change_counted(double old_ins, double now_ins, fb__change *out);

/* The same for counts that may have moved between counted epochs
 * (docs/valgrind.md): each side's median with the least and most of its
 * counted pairs (lo == hi == ins when exact). When both are exact, as
 * above. Else the interval is the change from the old side's range to the
 * new side's (now_lo / old_hi to now_hi / old_lo), and a difference whose
 * ranges overlap is `same` (out->spread says which). */
FB__PRIVATE void fb__change_counted_spread(double old_ins, double old_lo, double old_hi,
                                           double now_ins, double now_lo, double now_hi,
                                           fb__change *out);

/* What the change table says of such a verdict (src/outputs/report_change.c):
 * "exact", or "-0.1%..+0.2%, within the spread" / "beyond the spread". */
FB__PRIVATE void fb__change_counted_text(char *buf, size_t len, const fb__change *c);

/* ------------------------------------------------ the change view */

/* The change of a run against a baseline as a value (src/outputs/change_view.c):
 * the rows matched by title, name and complexity N (the k-th occurrence of
 * a key in a process with the k-th in the other run), each compared, the
 * "new" and "gone" rows, and the summary counts. The printers
 * (src/outputs/report_change.c's table, the HTML report's chart) only read it. */

/* How a row was compared. */
enum {
    FB__CHANGE_ROW_NEW,     /* only now */
    FB__CHANGE_ROW_GONE,    /* only in the baseline */
    FB__CHANGE_ROW_FAILED,  /* a side failed in some process */
    FB__CHANGE_ROW_COUNTED, /* a side counted under Callgrind: exact */
    FB__CHANGE_ROW_ONE,     /* one process a side: the epochs, widened by the floor */
    FB__CHANGE_ROW_BETWEEN, /* between processes: a t interval (paired or pooled) */
    FB__CHANGE_ROW_FEW      /* paired, fewer than two pairs */
};

/* One side of a row: the records of its key over that side's processes. */
typedef struct fb__change_side {
    bool present; /* false: the row's benchmark is not on this side */
    bool failed;  /* an error, or no epochs, in some process */
    bool counted; /* counted under Callgrind in every process */
    char *unit;   /* the first record's (NULL when absent) */
    /* the side's time per unit that the change is computed from, and that
     * every change table shows: the geometric mean over the processes of
     * each one's median (with one process, its median; paired, over the
     * processes that have a pair), so that the change is the ratio of the
     * two sides' values; and the median over the processes of the exact
     * count per unit. NAN when absent or failed */
    double value_s, ins_per_unit;
    /* the same over the processes' medians of the thread's CPU time per
     * unit; NAN when a process has none (an older file) */
    double cpu_s;
    /* counted: the least and most of the processes' counted pairs */
    double ins_lo, ins_hi;
} fb__change_side;

typedef struct fb__change_row {
    char *name, *title;  /* the current run's record, else the baseline's */
    double complexity_n; /* 0 when unset */
    int kind;            /* FB__CHANGE_ROW_* */
    fb__change_side old, now;
    fb__change change; /* its verdict is the row's */
    /* timed on both sides: the change of the CPU time, now.cpu_s /
     * old.cpu_s - 1 in % (NAN when a side has none), and whether a side's
     * CPU time and wall time differ (fb__marks_cpu_differs)
     * (the thread was off the CPU: a busy machine, or an op that waits);
     * the verdict stays the wall time's */
    double cpu_change_pct;
    bool cpu_differs;
} fb__change_row;

#define FB__CHANGE_NOTES 9 /* the context's fields that can differ, and two sides' files */
struct fb__change_view {
    fb__change_row *rows; /* the current run's order, then the gone ones */
    size_t n;
    double threshold_pct;
    bool paired;                         /* processes paired by index (femtobench-compare -run) */
    size_t counts[FB__V_COUNT];          /* rows of each verdict */
    size_t n_between, n_one;             /* rows compared between processes, or over one a side */
    size_t n_cpu;                        /* rows whose cpu_differs */
    size_t processes_old, processes_now; /* distinct processes of each side */
    /* what the two runs' contexts say about the comparison, as sentences
     * that every writer prints as they are (the terminal after "> warning: ",
     * the HTML page above its table): `machines`, the two runs are on
     * different machines (a known OS or architecture differs; "" when not);
     * notes[0..n_notes), the other differences (one side's files disagree
     * about the machine, the CPU model, compiler, build type and flags,
     * femtobench version, counters) */
    char machines[320];
    char notes[FB__CHANGE_NOTES][600];
    size_t n_notes;
    /* how the rows were compared (between processes; one process a side),
     * a sentence each, printed under the table */
    char method[2][400];
    size_t n_method;
};
typedef struct fb__change_view fb__change_view;

/* Computes the view of `now` against `base` into *out (which it owns until
 * fb__change_view_clear). Returns FB_OK, or FB_ENOMEM (then *out is empty). */
FB__PRIVATE int fb__change_view_compute(const fb__baseline *base, const fb__baseline *now,
                                        double threshold_pct, bool paired, fb__change_view *out);
/* Frees the rows of v (v itself stays); fb__change_view_free also frees v. */
FB__PRIVATE void fb__change_view_clear(fb__change_view *v);
FB__PRIVATE void fb__change_view_free(fb__change_view *v);
/* An empty view (NULL when out of memory), to fill and hand to a bench
 * (fb__bench_set_change), which frees it. */
FB__PRIVATE fb__change_view *fb__change_view_new(void);
/* The view's sentences (src/outputs/change_view_notes.c): `machines` and
 * notes[] from the two runs' contexts (a: the baseline's, b: the current
 * run's), and method[] once the rows are compared. */
FB__PRIVATE void fb__change_view_contexts(fb__change_view *v, const fb__bl_context *a,
                                          const fb__bl_context *b);
FB__PRIVATE void fb__change_view_method(fb__change_view *v);

/* -threshold's value: a number of percent >= 0 and < 1000, an optional
 * trailing '%'. Returns 0, or -1 when it is not one. */
FB__PRIVATE int fb__change_parse_threshold(const char *text, double *pct);

#endif
