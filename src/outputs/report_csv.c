/* CSV: one header row, one row per result, then one per alternative of each
 * comparison with its relative, ci_low, ci_high (docs/formats.md has the columns).
 * RFC 4180 except for the line ending: rows end in LF, not CRLF (Python's
 * csv, pandas, R, spreadsheets and Unix tools all read LF; a line break
 * inside a quoted name stays the name's own character). Fields are quoted
 * when they contain a comma, a double quote, a semicolon, CR, LF, TAB or
 * start/end with a space; quotes inside are doubled. Numbers have 15
 * significant digits and '.' whatever the locale; a value that was not measured, or is
 * NaN/infinite, is an empty cell. Text is written as UTF-8, ill-formed bytes replaced by U+FFFD. */
#include "report.h"

#include "context.h" /* -context: a column per key */
#include "json.h"
#include "text.h"     /* UTF-8 */
#include "passes.h"   /* -repetitions: the value over passes */
#include "ucounter.h" /* user counters: a column per label */
#include "valgrind.h" /* counted results (-valgrind) */

#include <inttypes.h>
#include <math.h>
#include <string.h>

/* Counter columns, in this order (elapsed has its own columns). */
static const fb_measure fb__csv_counters[] = {FB_INSTRUCTIONS, FB_CPUCYCLES,  FB_BRANCHINSTRUCTIONS,
                                              FB_BRANCHMISSES, FB_PAGEFAULTS, FB_CONTEXTSWITCHES};
#define FB__CSV_NCOUNTERS (sizeof fb__csv_counters / sizeof fb__csv_counters[0])

/* Every number in the CSV is derived (per unit, percentages): 15 significant
 * digits say all there is, without the 14.999999999999998 of a division. */
#define FB__CSV_DIGITS 15

static void fb__csv_text(FILE *f, const char *s) {
    if (!s) s = "";
    size_t n = strlen(s);
    bool quote = n > 0 && (s[0] == ' ' || s[n - 1] == ' ');
    if (strpbrk(s, ",\";\r\n\t")) quote = true;
    if (quote) fputc('"', f);
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        uint32_t cp;
        p += fb__utf8_next(p, &cp);
        if (cp == '"') fputc('"', f);
        fb__utf8_put(f, cp);
    }
    if (quote) fputc('"', f);
}

static void fb__csv_num(FILE *f, double v) {
    if (!isfinite(v)) return; /* empty cell */
    char buf[64];
    fb__fmt_double(buf, sizeof buf, v, FB__CSV_DIGITS);
    fputs(buf, f);
}

static void fb__csv_row(FILE *f, const fb_result *r, const fb_comparison *cmp, size_t alt);
static void fb__csv_passes(FILE *f, const fb_bench *b, size_t s);
static void fb__csv_extra(FILE *f, const fb_bench *b, const fb_result *r,
                          const fb__ucounter_cols *ucols);

int fb_write_csv(const fb_bench *b, FILE *f) {
    if (!b || !f) return FB_EINVAL;
    fputs("title,name,arg,unit,batch,complexityN,epochs,iterations,"
          "median_ns_per_unit,min_ns_per_unit,max_ns_per_unit,mean_ns_per_unit,err_pct",
          f);
    for (size_t c = 0; c < FB__CSV_NCOUNTERS; ++c) {
        const char *m = fb_measure_name(fb__csv_counters[c]);
        fprintf(f, ",%s_per_unit", m ? m : "");
    }
    for (int m = 0; m < FB_VG_MEASURE_COUNT; ++m) /* -valgrind: exact counts */
        fprintf(f, ",valgrind_%s_per_unit", fb_vg_measure_name((fb_vg_measure)m));
    fputs(",total_s,error,relative,ci_low,ci_high,marks,passes,passes_median_ns_per_unit,"
          "between_passes_pct",
          f);
    /* then a column per user counter label (src/handle/ucounter.c) */
    fb__ucounter_cols ucols;
    ucols.n = 0;
    for (size_t i = 0; i < fb_result_count(b); ++i)
        fb__ucounter_cols_add(&ucols, fb_result_at(b, i));
    fb__csv_extra(f, b, NULL, &ucols);
    fputc('\n', f);

    /* -repetitions: each row also carries its benchmark's value over the
     * passes (stored by the runner, src/outputs/passes.c): the same on every pass's
     * row */
    for (size_t i = 0; i < fb_result_count(b); ++i) {
        fb__csv_row(f, fb_result_at(b, i), NULL, 0);
        fb__csv_passes(f, b, fb__passes_of(b, i));
        fb__csv_extra(f, b, fb_result_at(b, i), &ucols);
        fputc('\n', f);
    }
    /* then each comparison: one row per alternative, with its ratio to the
     * baseline and the interval (src/run/compare.c), and the alternative's value
     * over the passes */
    for (size_t c = 0; c < fb_comparison_count(b); ++c) {
        const fb_comparison *cmp = fb_comparison_at(b, c);
        for (size_t a = 0; a < fb_comparison_size(cmp); ++a) {
            fb__csv_row(f, fb_comparison_result(cmp, a), cmp, a);
            fb__csv_passes(f, b, fb__passes_of_alternative(b, c, a));
            fb__csv_extra(f, b, fb_comparison_result(cmp, a), &ucols);
            fputc('\n', f);
        }
    }
    return fb__writer_finish(f);
}

/* The passes' columns of a row of series s: its passes, the median over
 * them and the spread between them (with more than one). */
static void fb__csv_passes(FILE *f, const fb_bench *b, size_t s) {
    fb__pass_summary tmp;
    const fb__pass_summary *sum = fb__passes_sum(b, s, &tmp);
    fprintf(f, ",%zu,", fb__passes_size(b, s));
    fb__csv_num(f, sum->median * 1e9);
    fputc(',', f);
    if (sum->passes > 1) fb__csv_num(f, sum->err_pct);
}

/* One row; cmp (may be NULL) and alt give the comparison columns. */
static void fb__csv_row(FILE *f, const fb_result *r, const fb_comparison *cmp, size_t alt) {
    { /* (the body of the former loop over results) */
        const struct fb__summary *el = &r->summary[FB_ELAPSED];
        bool ok = !r->error;
        bool timed = ok && (r->has & FB__BIT(FB_ELAPSED));
        double per_unit_ns = 1e9 / r->config.batch;

        fb__csv_text(f, r->config.title);
        fputc(',', f);
        fb__csv_text(f, r->name);
        fputc(',', f);
        if (r->config.has_arg) /* empty without one */
            fprintf(f, "%" PRId64, r->config.arg);
        fputc(',', f);
        fb__csv_text(f, r->config.unit);
        fputc(',', f);
        fb__csv_num(f, r->config.batch);
        fputc(',', f);
        if (r->config.complexity_n > 0) { /* as given: the shortest that reads back */
            char n[40];
            fb__fmt_double(n, sizeof n, r->config.complexity_n, 0);
            fputs(n, f);
        }
        fputc(',', f);
        if (ok)
            fprintf(f, "%zu,%" PRIu64, r->epochs, r->total_iterations);
        else
            fputc(',', f);
        fputc(',', f);
        double t[4] = {el->median, el->min, el->max, el->mean};
        for (int k = 0; k < 4; ++k) {
            if (timed) fb__csv_num(f, t[k] * per_unit_ns);
            fputc(',', f);
        }
        if (timed) fb__csv_num(f, el->err_pct);
        for (size_t c = 0; c < FB__CSV_NCOUNTERS; ++c) {
            fb_measure m = fb__csv_counters[c];
            fputc(',', f);
            if (ok && (r->has & FB__BIT(m))) fb__csv_num(f, r->summary[m].median / r->config.batch);
        }
        for (int m = 0; m < FB_VG_MEASURE_COUNT; ++m) {
            fputc(',', f);
            if (ok) fb__csv_num(f, fb_result_valgrind(r, (fb_vg_measure)m) / r->config.batch);
        }
        fputc(',', f);
        if (ok) fb__csv_num(f, r->total_s);
        fputc(',', f);
        if (r->error) fb__csv_text(f, r->error);
        fputc(',', f);
        if (cmp && !r->error) fb__csv_num(f, fb_comparison_ratio(cmp, alt));
        fputc(',', f);
        if (cmp && !r->error && alt) fb__csv_num(f, fb_comparison_low(cmp, alt));
        fputc(',', f);
        if (cmp && !r->error && alt) fb__csv_num(f, fb_comparison_high(cmp, alt));
        fputc(',', f);
        /* the result's marks (src/stats/marks.c), space-separated */
        const char *sep = "";
        if (r->optimized_away) fputs("optimized_away", f), sep = " ";
        if (r->at_loop_resolution) fprintf(f, "%sat_loop_resolution", sep), sep = " ";
        if (r->unresolved) fprintf(f, "%sunresolved", sep), sep = " ";
        if (fb_result_descheduled(r)) fprintf(f, "%sdescheduled", sep), sep = " ";
        if (r->waited && !r->error) fprintf(f, "%swaited_for_core", sep), sep = " ";
        if (r->vg && !r->error && r->vg->wild) fprintf(f, "%sunsteady_count", sep);
    }
}

/* The columns after the passes' columns: one per user counter label, then one per
 * -context key ("context.<key>", the same value on every row). With r NULL:
 * their headers. */
/* Some result of b ran in a group of threads (src/run/group.h). */
static bool fb__csv_any_group(const fb_bench *b) {
    for (size_t i = 0; i < fb_result_count(b); ++i)
        if (fb_result_at(b, i)->threads) return true;
    return false;
}

/* Some result of b has the thread's CPU time (FB_CPUTIME). */
static bool fb__csv_any_cpu(const fb_bench *b) {
    for (size_t i = 0; i < fb_result_count(b); ++i)
        if (fb_result_has(fb_result_at(b, i), FB_CPUTIME)) return true;
    for (size_t c = 0; c < fb_comparison_count(b); ++c) {
        const fb_comparison *cmp = fb_comparison_at(b, c);
        for (size_t a = 0; a < fb_comparison_size(cmp); ++a)
            if (fb_result_has(fb_comparison_result(cmp, a), FB_CPUTIME)) return true;
    }
    return false;
}

/* Some result of b has a label (fb_set_label). */
static bool fb__csv_any_label(const fb_bench *b) {
    for (size_t i = 0; i < fb_result_count(b); ++i)
        if (fb_result_label(fb_result_at(b, i))) return true;
    return false;
}

/* Some result of b was counted under Callgrind (-valgrind). */
static bool fb__csv_any_counted(const fb_bench *b) {
    for (size_t i = 0; i < fb_result_count(b); ++i)
        if (fb_result_at(b, i)->vg) return true;
    return false;
}

static void fb__csv_extra(FILE *f, const fb_bench *b, const fb_result *r,
                          const fb__ucounter_cols *ucols) {
    /* counted results: the spread of the counted pairs (both the count
     * when it is exact) and how many pairs were counted */
    if (fb__csv_any_counted(b)) {
        if (!r) {
            fputs(",valgrind_instructions_low_per_unit,valgrind_instructions_high_per_unit,"
                  "valgrind_pairs",
                  f);
        } else if (r->vg && !r->error) {
            fputc(',', f);
            fb__csv_num(f, r->vg->ins_lo / r->config.batch);
            fputc(',', f);
            fb__csv_num(f, r->vg->ins_hi / r->config.batch);
            fprintf(f, ",%u", r->vg->pairs);
        } else {
            fputs(",,,", f);
        }
    }
    /* the thread's CPU time per unit (a group: summed over its threads,
     * per iteration of any thread), over the epochs the median uses; the
     * column only when some result has it (never under a custom clock) */
    if (fb__csv_any_cpu(b)) {
        if (!r) {
            fputs(",cpu_ns_per_unit", f);
        } else {
            fputc(',', f);
            if (!r->error) fb__csv_num(f, fb_result_cpu_median(r) * 1e9);
        }
    }
    /* groups of threads (src/run/group.h): their size and the range of the
     * threads' own medians; the columns only when some result has them */
    if (fb__csv_any_group(b)) {
        if (!r) {
            fputs(",threads,thread_min_ns_per_unit,thread_max_ns_per_unit", f);
        } else {
            double lo, hi;
            fb__result_thread_range(r, &lo, &hi);
            fprintf(f, ",%zu,", fb_result_threads(r));
            fb__csv_num(f, lo * 1e9 / r->config.batch);
            fputc(',', f);
            fb__csv_num(f, hi * 1e9 / r->config.batch);
        }
    }
    /* the label (fb_set_label); the column only when some result has one */
    if (fb__csv_any_label(b)) {
        fputc(',', f);
        if (!r)
            fputs("label", f);
        else if (r->label)
            fb__csv_text(f, r->label);
    }
    for (size_t u = 0; u < ucols->n; ++u) {
        fputc(',', f);
        double v = r ? fb__ucounter_col_value(r, ucols->label[u]) : NAN;
        if (!r)
            fb__csv_text(f, ucols->label[u]);
        else if (isinf(v)) /* a rate too large for a double: marked, not left out */
            fputs(v > 0 ? "inf" : "-inf", f);
        else
            fb__csv_num(f, v);
    }
    for (size_t k = 0; k < fb__context_count(b); ++k) {
        fputc(',', f);
        if (!r) {
            char head[FB__CONTEXT_KEY_MAX + 16];
            snprintf(head, sizeof head, "context.%s", fb__context_key(b, k));
            fb__csv_text(f, head);
        } else {
            fb__csv_text(f, fb__context_value(b, k));
        }
    }
}
