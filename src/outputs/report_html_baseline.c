/* The HTML report's answer against a baseline (src/outputs/report_html.c): the
 * section of the change view the runner kept with the suite: the contexts'
 * warnings, the verdicts in one line, the change table, the CPU time where
 * it and the wall time differ, and the change chart (the table and chart
 * themselves are src/outputs/report_html_compare.c's). */
#include "report_html.h"
#include "marks.h" /* the CPU-time rule */
#include "change.h"
#include "svg.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The answer of a run against a baseline in one line, as the terminal's
 * summary line (src/outputs/report_change.c): how many rows got each verdict, then
 * how the rows were compared. */
static void fb__html_verdicts(FILE *f, const fb__change_view *v) {
    size_t total = 0;
    for (int k = 0; k < FB__V_COUNT; ++k) total += v->counts[k];
    char t[64];
    fb__svg_fixed(t, sizeof t, v->threshold_pct, 0, false);
    fprintf(f,
            "<p class=\"verdicts\" id=\"verdicts\"><b>%zu benchmark%s against the baseline</b> "
            "(threshold %s%%):",
            total, total == 1 ? "" : "s", t);
    for (int k = 0; k < FB__V_COUNT; ++k) /* a verdict no row got is not coloured */
        fprintf(f, "%s <span class=\"verdict-%s%s\">%zu %s</span>", k ? "," : "",
                fb__verdict_name((fb__verdict)k), v->counts[k] ? "" : " none", v->counts[k],
                fb__verdict_name((fb__verdict)k));
    fputs("</p>\n", f);
    for (size_t i = 0; i < v->n_method; ++i) {
        fputs("<p class=\"key\">", f);
        fb__svg_text(f, v->method[i]);
        fputs("</p>\n", f);
    }
}

/* A CPU time per unit and its unit: "485.5 ps/byte". */
static void fb__html_cpu_time(FILE *f, double s, const char *unit) {
    char num[64];
    fb__svg_si(num, sizeof num, s, "s", 4);
    fputs(num, f);
    if (isfinite(s) && unit && unit[0]) {
        fputc('/', f);
        fb__svg_text_max(f, unit, FB__H_TEXT_MAX);
    }
}

/* The CPU time of the rows whose wall and CPU time differ on a side, as
 * the terminal lists them under its table (src/outputs/report_change.c): each
 * side's value and their ratio as a change; the verdict stays the wall
 * time's. */
static void fb__html_change_cpu(FILE *f, const fb__change_view *v) {
    if (!v->n_cpu) return;
    fprintf(f,
            "<p class=\"key\" id=\"change-cpu\">CPU time (the thread's) of the rows whose wall "
            "and CPU time differ by %.0f%% or more on a side; the verdicts are the wall "
            "time's:</p>\n<ul class=\"key\">\n",
            FB__CPU_DIFF_PCT);
    for (size_t i = 0; i < v->n; ++i) {
        const fb__change_row *w = &v->rows[i];
        if (!w->cpu_differs) continue;
        char pct[64];
        fb__svg_fixed(pct, sizeof pct, w->cpu_change_pct, 1, true);
        fputs("<li class=\"change-cpu\"><code>", f);
        fb__svg_text(f, w->name);
        fputs("</code>: baseline <span class=\"cpu-old\">", f);
        fb__html_cpu_time(f, w->old.cpu_s, w->old.unit);
        fputs("</span>, now <span class=\"cpu-now\">", f);
        fb__html_cpu_time(f, w->now.cpu_s, w->now.unit);
        fprintf(f, "</span>, change <span class=\"cpu-change\">%s%s%%</span></li>\n",
                w->cpu_change_pct > 0 && strcmp(pct, "0.0") != 0 ? "+" : "", pct);
    }
    fputs("</ul>\n", f);
}

/* The change against a baseline (the view the runner kept with the suite,
 * src/outputs/change_view.c): its rows as the chart's columns. A row counted under
 * Callgrind has no time and no bar; an interval of too few epochs none. */
void fb__html_baseline(FILE *f, const fb__change_view *v) {
    int *verdict = malloc(v->n * sizeof *verdict);
    const char **names = malloc(2 * v->n * sizeof *names);
    double *col = malloc(5 * v->n * sizeof *col);
    if (!verdict || !names || !col) {
        free(verdict);
        free((void *)names);
        free(col);
        return;
    }
    const char **units = names + v->n; /* each row's unit, after the names */
    double *base_s = col, *now_s = col + v->n, *pct = col + 2 * v->n, *lo = col + 3 * v->n,
           *hi = col + 4 * v->n;
    for (size_t i = 0; i < v->n; ++i) {
        const fb__change_row *w = &v->rows[i];
        bool counted = w->kind == FB__CHANGE_ROW_COUNTED;
        bool few = isinf(w->change.lo) || isinf(w->change.hi);
        names[i] = w->name;
        units[i] = w->now.present ? w->now.unit : w->old.unit;
        base_s[i] = counted ? NAN : w->old.value_s;
        now_s[i] = counted ? NAN : w->now.value_s;
        pct[i] = w->change.change_pct;
        lo[i] = few ? NAN : w->change.lo_pct;
        hi[i] = few ? NAN : w->change.hi_pct;
        switch (w->change.verdict) {
        case FB__V_FASTER:
            verdict[i] = FB__HTML_FASTER;
            break;
        case FB__V_SLOWER:
            verdict[i] = FB__HTML_SLOWER;
            break;
        case FB__V_SAME:
            verdict[i] = FB__HTML_SAME;
            break;
        case FB__V_UNSURE:
            verdict[i] = FB__HTML_UNSURE;
            break;
        case FB__V_NEW:
            verdict[i] = FB__HTML_NEW;
            break;
        case FB__V_GONE:
            verdict[i] = FB__HTML_GONE;
            break;
        default:
            verdict[i] = FB__HTML_UNKNOWN;
            break;
        }
    }
    char title[96];
    snprintf(title, sizeof title, "Against the baseline (threshold %.0f%%)", v->threshold_pct);
    fputs("<section class=\"change\">\n<h2>", f);
    fb__svg_text(f, title);
    fputs("</h2>\n", f);
    /* what the two runs' contexts say, as the terminal says it above its
     * table: two machines first, then the other differences */
    if (v->machines[0] || v->n_notes) {
        fputs("<div class=\"warnings\" id=\"change-warnings\"><ul>\n", f);
        if (v->machines[0]) {
            fputs("<li><b>", f);
            fb__svg_text(f, v->machines);
            fputs("</b></li>\n", f);
        }
        for (size_t i = 0; i < v->n_notes; ++i) {
            fputs("<li>", f);
            fb__svg_text(f, v->notes[i]);
            fputs("</li>\n", f);
        }
        fputs("</ul></div>\n", f);
    }
    fb__html_verdicts(f, v);
    /* the verdicts before the picture of them: the table is the answer */
    fb__html_change_table(f, v->n, names, base_s, now_s, units, pct, lo, hi, verdict);
    fb__html_change_cpu(f, v);
    fb__html_change_chart(f, title, v->n, names, pct, lo, hi, verdict);
    fputs("</section>\n", f);
    free(verdict);
    free((void *)names);
    free(col);
}
