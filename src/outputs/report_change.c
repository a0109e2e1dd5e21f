/* The change table: a run against a baseline, one row per benchmark, in
 * markdown (the same text in the terminal, in -output_md and in a pull
 * request comment):
 *
 *   > warning: the runs differ in compiler: baseline 'gcc 12.2.0', now 'clang 14.0.6'
 *   |         baseline |              now |   change |            95% CI | verdict | benchmark
 *   |-----------------:|-----------------:|---------:|------------------:|:--------|:----------
 *   |     26.95 ns/op  |     27.01 ns/op  |    +0.2% |    [-1.1%, +1.4%] | same    | `SipHash_32b`
 *   femtobench: 1 benchmark compared (threshold 5%): 0 faster, 0 slower, 1 same, ...
 *
 * It prints the change view (src/outputs/change_view.c: the rows matched, compared
 * and counted) and computes nothing. Cell text and names are escaped as in
 * the main table (fb__md_text, fb__md_code). */
#include "report_change.h"
#include "marks.h" /* the CPU-time rule */

#include "bench.h"
#include "report.h"
#include "json.h"
#include "numfmt.h" /* '.' whatever the locale */
#include "text.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The benchmark's unit for a table cell: at most 24 bytes of it (cut
 * before a UTF-8 continuation byte), '|' escaped for markdown, control
 * characters (ESC...) as \xNN so that none reaches the terminal. */
static void fb__rc_unit(const char *unit, char *out, size_t cap) {
    size_t n = strlen(unit ? unit : ""), o = 0;
    if (n > 24) {
        n = 24;
        while (n > 0 && ((unsigned char)unit[n] & 0xc0) == 0x80) --n;
    }
    for (size_t i = 0; i < n && o + 5 < cap; ++i) {
        unsigned char c = (unsigned char)unit[i];
        if (c < 0x20 || c == 0x7f)
            o += (size_t)snprintf(out + o, cap - o, "\\x%02x", c);
        else if (c == '|')
            out[o++] = '\\', out[o++] = '|';
        else
            out[o++] = (char)c;
    }
    out[o] = '\0';
}

/* "26.95 ns/op": a side's value in ns, us, ms or s per the unit. */
static void fb__rc_time(char *buf, size_t len, const fb__change_side *sd) {
    if (!sd->present) {
        snprintf(buf, len, "-");
        return;
    }
    if (sd->failed) {
        snprintf(buf, len, "failed");
        return;
    }
    char unit[104], num[64];
    fb__rc_unit(sd->unit, unit, sizeof unit);
    if (sd->counted) { /* counted: exact instructions */
        fb__fmt_grouped(num, sizeof num, sd->ins_per_unit, 2);
        snprintf(buf, len, "%s ins/%s", num, unit);
        return;
    }
    double s = sd->value_s;
    if (isnan(s)) {
        snprintf(buf, len, "?");
        return;
    }
    const char *u = "s";
    if (s < 1e-6)
        s *= 1e9, u = "ns";
    else if (s < 1e-3)
        s *= 1e6, u = "us";
    else if (s < 1)
        s *= 1e3, u = "ms";
    if (s >= 1e15) /* grouped digits would pass the cell: exponent form */
        fb__fmt_double(num, sizeof num, s, 4);
    else /* under 1 ns: 4 decimals, so that the change reads as the ratio of the two */
        fb__fmt_grouped(num, sizeof num, s, s < 1 ? 4 : 2);
    /* the unit is the benchmark's: keep the cell bounded */
    snprintf(buf, len, "%s %s/%s", num, u, unit);
}

static void fb__rc_pct(char *buf, size_t len, double pct) {
    if (isnan(pct))
        snprintf(buf, len, "?");
    else if (isinf(pct))
        snprintf(buf, len, "%sinf", pct > 0 ? "+" : "-");
    else {
        /* '.' whatever the locale; a huge change in exponent form, never cut */
        char num[16]; /* "-999999999.9", "-1.8e+308" */
        if (fabs(pct) >= 1e9)
            fb__fmt_double(num, sizeof num, pct, 3);
        else
            fb__fmt_fixed(num, sizeof num, pct, 1);
        snprintf(buf, len, "%s%s%%", signbit(pct) ? "" : "+", num);
    }
}

void fb__change_counted_text(char *buf, size_t len, const fb__change *c) {
    if (c->spread == FB__SPREAD_NONE) {
        snprintf(buf, len, "exact");
        return;
    }
    /* the counts moved between counted epochs: the change from one side's
     * range to the other's */
    char l[24], h[24];
    fb__rc_pct(l, sizeof l, c->lo_pct);
    fb__rc_pct(h, sizeof h, c->hi_pct);
    snprintf(buf, len, "%s..%s, %s the spread", l, h,
             c->spread == FB__SPREAD_WITHIN ? "within" : "beyond");
}

/* A row's benchmark: its name, N and title. */
static void fb__rc_name(FILE *f, const fb__change_row *w) {
    fb__md_code(f, w->name);
    if (w->complexity_n > 0) {
        char num[64];
        fb__fmt_double(num, sizeof num, w->complexity_n, 0);
        fprintf(f, " N=%s", num);
    }
    if (strcmp(w->title, "benchmark") != 0 && w->title[0]) {
        fputs(" (", f);
        fb__md_text(f, w->title);
        fputc(')', f);
    }
}

/* One row of the table. */
static void fb__rc_print_row(FILE *f, const fb__change_row *w) {
    char tb[200], tn[200], ch[32], ci[80]; /* a number, its units, a 24-byte unit escaped */
    const fb__change *c = &w->change;
    fb__rc_time(tb, sizeof tb, &w->old);
    fb__rc_time(tn, sizeof tn, &w->now);
    snprintf(ch, sizeof ch, "-");
    snprintf(ci, sizeof ci, "-");
    if (w->kind == FB__CHANGE_ROW_COUNTED) {
        if (isnan(c->change_pct)) {
            snprintf(ci, sizeof ci, "counted vs timed");
        } else {
            fb__rc_pct(ch, sizeof ch, c->change_pct);
            fb__change_counted_text(ci, sizeof ci, c);
        }
    } else if (w->kind == FB__CHANGE_ROW_FEW) {
        snprintf(ci, sizeof ci, "fewer than 2 pairs");
    } else if (w->kind == FB__CHANGE_ROW_ONE || w->kind == FB__CHANGE_ROW_BETWEEN) {
        if (!isnan(c->change_pct)) fb__rc_pct(ch, sizeof ch, c->change_pct);
        if (isnan(c->change_pct)) {
        } else if (isinf(c->lo) || isinf(c->hi)) {
            snprintf(ci, sizeof ci, "too few epochs");
        } else {
            char lo[32], hi[32];
            fb__rc_pct(lo, sizeof lo, c->lo_pct);
            fb__rc_pct(hi, sizeof hi, c->hi_pct);
            snprintf(ci, sizeof ci, "[%s, %s]", lo, hi);
        }
    }
    fprintf(f, "| %18s | %18s | %8s | %18s | %-7s | ", tb, tn, ch, ci,
            fb__verdict_name(c->verdict));
    fb__rc_name(f, w);
    fputc('\n', f);
}

/* The CPU time of the rows whose wall and CPU time differ on a side: each
 * side's value and their ratio as a change, the verdict left to the wall
 * time (a row's CPU time leaves out the time the thread did not run, which
 * a busy machine adds to the wall time, and which an op that waits
 * spends by design). */
static void fb__rc_cpu_rows(FILE *f, const fb__change_view *v) {
    if (!v->n_cpu) return;
    char pct[16];
    fb__fmt_double(pct, sizeof pct, FB__CPU_DIFF_PCT, 0);
    fprintf(f,
            "> CPU time (the thread's) of the rows whose wall and CPU time differ by %s%% or "
            "more on a side; the verdicts are the wall time's:\n",
            pct);
    for (size_t i = 0; i < v->n; ++i) {
        const fb__change_row *w = &v->rows[i];
        if (!w->cpu_differs) continue;
        fb__change_side a = w->old, b = w->now;
        a.value_s = a.cpu_s;
        b.value_s = b.cpu_s;
        char ta[200], tb[200], ch[32];
        fb__rc_time(ta, sizeof ta, &a);
        fb__rc_time(tb, sizeof tb, &b);
        fb__rc_pct(ch, sizeof ch, w->cpu_change_pct);
        fputs("> - ", f);
        fb__rc_name(f, w);
        fprintf(f, ": baseline %s, now %s, change %s\n", ta, tb, ch);
    }
}

/* A sentence of the view's context (src/outputs/change_view.c) as a warning line. */
static void fb__rc_say(FILE *f, const char *sentence) {
    if (!sentence[0]) return;
    fputs("> warning: ", f);
    fb__md_text(f, sentence);
    fputc('\n', f);
}

/* The view's table; `cross_said`: the different machines' line was
 * printed already (before the counters' table). */
static void fb__rc_view(FILE *f, const fb__change_view *v, bool cross_said) {
    if (!cross_said) fb__rc_say(f, v->machines);
    for (size_t i = 0; i < v->n_notes; ++i) fb__rc_say(f, v->notes[i]);

    fprintf(f, "| %18s | %18s | %8s | %18s | %-7s | benchmark\n", "baseline", "now", "change",
            "95% CI", "verdict");
    fprintf(f, "|%s:|%s:|%s:|%s:|:%s|:----------\n", "-------------------", "-------------------",
            "---------", "-------------------", "--------");
    for (size_t i = 0; i < v->n; ++i) fb__rc_print_row(f, &v->rows[i]);

    size_t total = 0;
    for (int k = 0; k < FB__V_COUNT; ++k) total += v->counts[k];
    char t[64];
    fb__fmt_double(t, sizeof t, v->threshold_pct, 0);
    fputc('\n', f);
    fb__rc_cpu_rows(f, v);
    for (size_t i = 0; i < v->n_method; ++i) fprintf(f, "> %s\n", v->method[i]);
    fprintf(f, "femtobench: %zu benchmark%s against the baseline (threshold %s%%):", total,
            total == 1 ? "" : "s", t);
    for (int k = 0; k < FB__V_COUNT; ++k)
        fprintf(f, "%s %zu %s", k ? "," : "", v->counts[k], fb__verdict_name((fb__verdict)k));
    fputc('\n', f);
}

void fb__change_view_print(FILE *f, const fb__change_view *v) { fb__rc_view(f, v, false); }

/* Computes the view into *v, prints it, and hands its counts back; with
 * `counters`, the user counters' table (details: no verdict) first, so
 * that the verdicts and their summary line end the output, where a
 * terminal leaves them in view. */
static int fb__rc_table(FILE *f, const fb__baseline *base, const fb__baseline *now,
                        double threshold_pct, bool paired, bool counters,
                        size_t counts[FB__V_COUNT], fb__change_view *v) {
    int rc = fb__change_view_compute(base, now, threshold_pct, paired, v);
    for (int k = 0; k < FB__V_COUNT; ++k) counts[k] = v->counts[k];
    if (rc != FB_OK) return rc;
    fb__rc_say(f, v->machines);                      /* the first line, before any table */
    if (counters) fb__change_counters(f, base, now); /* src/outputs/report_change_counters.c */
    fb__rc_view(f, v, true);
    return rc;
}

int fb__change_table(FILE *f, const fb__baseline *base, const fb__baseline *now,
                     double threshold_pct, size_t counts[FB__V_COUNT]) {
    fb__change_view v;
    int rc = fb__rc_table(f, base, now, threshold_pct, false, false, counts, &v);
    fb__change_view_clear(&v);
    return rc;
}

int fb__change_table_paired(FILE *f, const fb__baseline *base, const fb__baseline *now,
                            double threshold_pct, size_t counts[FB__V_COUNT]) {
    fb__change_view v;
    int rc = fb__rc_table(f, base, now, threshold_pct, true, false, counts, &v);
    fb__change_view_clear(&v);
    return rc;
}

int fb__change_against(FILE *f, const fb__baseline *base, const fb_bench *now, double threshold_pct,
                       size_t counts[FB__V_COUNT], fb__change_view *view) {
    fb__baseline cur;
    for (int k = 0; k < FB__V_COUNT; ++k) counts[k] = 0;
    if (fb__baseline_from_bench(now, &cur) != 0) return FB_ENOMEM;
    fb__change_view own;
    fb__change_view *v = view ? view : &own;
    int rc = fb__rc_table(f, base, &cur, threshold_pct, false, true, counts, v);
    if (!view) fb__change_view_clear(&own);
    fb__baseline_free(&cur);
    return rc;
}
