/* The HTML report: one self-contained page (docs/html.md). Inline CSS and
 * inline SVG written here, no script, no external resource of any kind, so
 * it opens anywhere, offline, with JavaScript off. Reads results, never
 * measures. The page leads with the answer: header (titles, date, version,
 * machine, warnings); against a baseline the verdicts (the summary, the
 * change table, its chart); with -repetitions the summary over passes; then
 * the details: one strip/box chart and results table per title/unit group
 * and the paired comparisons (with -repetitions each row labelled with its
 * pass, grouped by benchmark, the whole folded in a closed <details>),
 * complexity charts and fits, the legend. */
#include "report_html.h"
#include "ucounter.h" /* user counters: a column each */
#include "context.h"  /* -context: rows of the context table */
#include "numfmt.h"   /* fb__fmt_fixed */
#include "passes.h"   /* -repetitions: the value over passes */
#include "svg.h"

#include "bench.h"
#include "compare.h" /* a comparison counted or timed */
#include "change.h"

#include "json.h"
#include "process.h"
#include "stats.h" /* fit groups of families (src/stats/complexity_group.c) */
#include "result.h"
#include "text.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ helpers */

static double fb__html_per_unit(const fb_result *r, size_t e) {
    return r->values[FB_ELAPSED][e] / r->config.batch;
}

/* Results i and j belong in one chart and one table. */
static bool fb__html_same_group(const fb_result *a, const fb_result *b) {
    return fb__html_same(a->config.title, b->config.title) &&
           fb__html_same(a->config.unit, b->config.unit) &&
           strcmp(a->config.time_unit_label, b->config.time_unit_label) == 0 &&
           a->config.time_unit_s == b->config.time_unit_s;
}

/* ------------------------------------------------------ strip/box chart */

/* One chart for the results idx[0..m) (one title/unit group). */
static int fb__html_strip(FILE *f, const fb_bench *b, const size_t *idx, size_t m, size_t gno,
                          bool passes) {
    if (m > FB__H_MAX_ROWS) m = FB__H_MAX_ROWS; /* the caller says so under the chart */
    double lo = INFINITY, hi = -INFINITY;
    for (size_t k = 0; k < m; ++k) {
        const fb_result *r = fb_result_at(b, idx[k]);
        if (!fb__html_measured(r)) continue;
        for (size_t e = 0; e < r->epochs; ++e) {
            double v = fb__html_per_unit(r, e);
            if (!isfinite(v) || v <= 0) continue;
            if (v < lo) lo = v;
            if (v > hi) hi = v;
        }
    }
    if (!(lo <= hi)) lo = hi = 1e-9; /* nothing measured: an empty axis */
    bool log = hi / lo > FB__H_LOG_SPAN;
    fb__svg_scale sc;
    /* linear axes start at 0 unless every value lies within a factor of 2:
     * then they zoom in on the data so that the spread stays visible */
    fb__svg_scale_init(&sc, lo, hi, FB__H_LABEL, FB__H_W - FB__H_RIGHT, log, hi >= 2 * lo);

    const fb_result *first = fb_result_at(b, idx[0]);
    double rows_h = FB__H_ROW * (double)m;
    double h = FB__H_TOP + rows_h + FB__H_AXIS;
    char label[512];
    snprintf(label, sizeof label, "%.60s: time per %.60s",
             first->config.title ? first->config.title : "",
             first->config.unit ? first->config.unit : "");
    fb__html_svg_open(f, "strip", h, label);
    for (size_t k = 0; k < m; k += 2) {
        fb__html_rect(f, "band", 0, FB__H_TOP + FB__H_ROW * (double)k, FB__H_W, FB__H_ROW);
        fputs("/>", f);
    }
    fputc('\n', f);
    fb__svg_axis_x(f, &sc, FB__H_TOP, FB__H_TOP + rows_h, "s", NULL);

    for (size_t k = 0; k < m; ++k) {
        const fb_result *r = fb_result_at(b, idx[k]);
        double yc = FB__H_TOP + FB__H_ROW * ((double)k + 0.5);
        bool unstable = fb_result_unstable(r) && !fb__process_suppressed();
        fprintf(f, "<g class=\"row\" id=\"g%zu-r%zu\">", gno, k);
        fb__html_label(f, unstable ? "name unstable" : "name", yc, r->name, r->config.complexity_n,
                       passes ? r->config.pass + 1 : 0, unstable ? " - unstable: err% >= 5" : NULL);
        if (!fb__html_measured(r)) {
            fprintf(f, "<text class=\"err\"");
            fb__svg_attr_num(f, "x", FB__H_LABEL + 6);
            fb__svg_attr_num(f, "y", yc + 4);
            fputs(">error: ", f);
            fb__svg_text_max(f, r->error ? r->error : "not measured", 90);
            fputs("</text></g>\n", f);
            continue;
        }
        /* the box and the bar: the stored quartiles and median of the same
         * epochs (the ones the statistics use: src/stats/stats.c), per unit; the
         * dots show every recorded epoch */
        double q1 = r->summary[FB_ELAPSED].q1 / r->config.batch;
        double q3 = r->summary[FB_ELAPSED].q3 / r->config.batch;
        double med = r->summary[FB_ELAPSED].median / r->config.batch;
        double x1 = fb__svg_at(&sc, q1), x3 = fb__svg_at(&sc, q3);
        fb__html_rect(f, "box", x1, yc - FB__H_ROW * 0.28, x3 - x1, FB__H_ROW * 0.56);
        char a[64], c[64], md[64];
        fb__svg_si(a, sizeof a, q1, "s", 4);
        fb__svg_si(c, sizeof c, q3, "s", 4);
        fb__svg_si(md, sizeof md, med, "s", 4);
        fprintf(f, "><title>quartiles %s to %s, median %s per ", a, c, md);
        fb__svg_text_max(f, r->config.unit, FB__H_TEXT_MAX);
        fputs("</title></rect>", f);
        double xm = fb__svg_at(&sc, med);
        fb__svg_line(f, "median", xm, yc - FB__H_ROW * 0.38, xm, yc + FB__H_ROW * 0.38);
        for (size_t e = 0; e < r->epochs; ++e) {
            double v = fb__html_per_unit(r, e);
            if (!isfinite(v)) continue;
            /* a fixed vertical spread, so that equal times stay apart */
            double dy = ((double)((e * 7) % 11) - 5.0) / 5.0 * FB__H_ROW * 0.22;
            fputs("<circle class=\"dot\"", f);
            fb__svg_attr_num(f, "cx", fb__svg_at(&sc, v));
            fb__svg_attr_num(f, "cy", yc + dy);
            fputs(" r=\"2.8\"><title>", f);
            char t[64], it[64];
            fb__svg_si(t, sizeof t, v, "s", 6);
            fb__svg_fixed(it, sizeof it, (double)r->iterations[e], 0, true);
            fprintf(f, "%s per ", t);
            fb__svg_text_max(f, r->config.unit, FB__H_TEXT_MAX);
            fprintf(f, " (epoch %zu of %zu, %s iteration%s)</title></circle>", e + 1, r->epochs, it,
                    r->iterations[e] == 1 ? "" : "s");
        }
        fputs("</g>\n", f);
    }
    fputs("<text class=\"axistitle\" text-anchor=\"middle\"", f);
    fb__svg_attr_num(f, "x", (FB__H_LABEL + FB__H_W - FB__H_RIGHT) / 2);
    fb__svg_attr_num(f, "y", h - 6);
    fputs(">time per ", f);
    fb__svg_text_max(f, first->config.unit, FB__H_TEXT_MAX);
    fprintf(f, "%s</text>\n</svg>\n", log ? " (log scale)" : "");
    return FB_OK;
}

/* --------------------------------------------------------- the page */

/* A paired comparison (fb_compare) as a forest plot; with -repetitions
 * (passes) its title names its pass. */
static void fb__html_comparison(FILE *f, const fb_comparison *c, bool passes) {
    size_t n = fb_comparison_size(c);
    const char **names = calloc(n ? n : 1, sizeof *names);
    double *v = calloc(3 * (n ? n : 1), sizeof *v);
    if (!names || !v) {
        free(names);
        free(v);
        return;
    }
    for (size_t i = 0; i < n; ++i) {
        names[i] = fb_comparison_name(c, i);
        v[i] = fb_comparison_ratio(c, i);
        v[n + i] = fb_comparison_low(c, i);
        v[2 * n + i] = fb_comparison_high(c, i);
    }
    char title[300], pass[32] = "";
    const fb_result *r0 = fb_comparison_result(c, 0);
    if (passes && r0) snprintf(pass, sizeof pass, " (pass %u)", r0->config.pass + 1);
    /* counted under Callgrind: the ratio of exact counts, its interval the point */
    snprintf(title, sizeof title,
             c->counted ? "%.120s%s: instructions relative to %.30s, exact counts (higher is fewer)"
                        : "%.120s%s: speed relative to %.30s (higher is faster)",
             fb_comparison_title(c) ? fb_comparison_title(c) : "comparison", pass,
             n ? names[0] : "");
    fb__html_forest(f, title, n, names, v, v + n, v + 2 * n);
    for (size_t i = 0; i < n; ++i) {
        const fb_result *r = fb_comparison_result(c, i);
        if (!r || !(r->optimized_away || r->at_loop_resolution || r->unresolved)) continue;
        fputs("<p class=\"marks\"><code>", f);
        fb__svg_text(f, names[i]);
        fputs("</code>:", f);
        fb__html_marks(f, r);
        fputs("</p>\n", f);
    }
    free(names);
    free(v);
}

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
            FB__CHANGE_CPU_DIFF_PCT);
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
static void fb__html_baseline(FILE *f, const fb__change_view *v) {
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

/* With -repetitions: each benchmark's median over the passes (each pass a
 * process) and the spread between them, as the runner's summary. */
static int fb__html_passes(FILE *f, const fb_bench *b) {
    unsigned max = fb__passes_max(b); /* stored by the runner (src/outputs/passes.c) */
    if (max > 1) {
        fprintf(f,
                "<section class=\"passes\">\n<h2>Over %u passes</h2>\n<table>\n<tr>"
                "<th>benchmark</th><th>median ns/unit</th><th>between passes</th>"
                "<th>passes</th><th>min ns/unit</th><th>max ns/unit</th>"
                "<th>relative (comparisons)</th></tr>\n",
                max);
        for (size_t s = 0; s < fb__passes_count(b); ++s) {
            const fb_result *r = fb__passes_result(b, s, 0);
            fb__pass_summary tmp;
            const fb__pass_summary *sum = fb__passes_sum(b, s, &tmp);
            if (sum->passes == 0) continue;
            fputs("<tr><td><code>", f);
            if (fb__passes_is_alternative(b, s)) { /* a comparison's: title/name */
                fb__svg_text(f, r->config.title);
                fputc('/', f);
            }
            fb__svg_text(f, r->name);
            fputs("</code></td>", f);
            fb__html_cell(f, sum->median * 1e9, 2, "");
            fb__html_cell(f, sum->err_pct, 1, "%");
            fprintf(f, "<td>%zu</td>", sum->passes);
            fb__html_cell(f, sum->min * 1e9, 2, "");
            fb__html_cell(f, sum->max * 1e9, 2, "");
            /* an alternative against its comparison's baseline: the median
             * ratio over the passes, its range, the passes significant */
            size_t c, a;
            if (fb__passes_alternative_at(b, s, 0, &c, &a) && a > 0 && sum->ratio.n) {
                char m[32], lo[32], hi[32];
                fb__fmt_fixed(m, sizeof m, sum->ratio.median * 100, 1);
                fb__fmt_fixed(lo, sizeof lo, sum->ratio.min * 100, 1);
                fb__fmt_fixed(hi, sizeof hi, sum->ratio.max * 100, 1);
                fprintf(f, "<td>%s%% (%s .. %s); faster in %zu, slower in %zu</td>", m, lo, hi,
                        sum->faster, sum->slower);
            } else {
                fputs("<td></td>", f);
            }
            fputs("</tr>\n", f);
        }
        fputs("</table>\n</section>\n", f);
    }
    return FB_OK;
}

/* A row of the details with -repetitions: its benchmark (its series over
 * passes, src/outputs/passes.c, in the order of the change table and of the
 * summary over passes), its pass, then where it was stored. */
typedef struct fb__html_row {
    size_t series, pass, i;
} fb__html_row;

static int fb__html_row_cmp(const void *pa, const void *pb) {
    const fb__html_row *a = pa, *b = pb;
    if (a->series != b->series) return a->series < b->series ? -1 : 1;
    if (a->pass != b->pass) return a->pass < b->pass ? -1 : 1;
    return (a->i > b->i) - (a->i < b->i);
}

/* Sorts idx[0..m) (results, or with `alternatives` comparisons by their
 * first alternative) by benchmark, then pass (scratch: m rows). */
static void fb__html_by_benchmark(const fb_bench *b, size_t *idx, size_t m, bool alternatives,
                                  fb__html_row *scratch) {
    for (size_t k = 0; k < m; ++k) {
        const fb_result *r = alternatives ? fb_comparison_result(fb_comparison_at(b, idx[k]), 0)
                                          : fb_result_at(b, idx[k]);
        size_t series = alternatives ? (r ? fb__passes_of_alternative(b, idx[k], 0) : SIZE_MAX)
                                     : fb__passes_of(b, idx[k]);
        scratch[k] = (fb__html_row){series, r ? r->config.pass : 0, idx[k]};
    }
    qsort(scratch, m, sizeof *scratch, fb__html_row_cmp);
    for (size_t k = 0; k < m; ++k) idx[k] = scratch[k].i;
}

/* One chart and table per title/unit group, groups in order of their
 * first result; rows in the order they ran, or with -repetitions (passes)
 * by benchmark and then pass, each labelled with its pass. */
static int fb__html_groups(FILE *f, const fb_bench *b, bool passes, size_t *idx, bool *done,
                           fb__html_row *rows) {
    size_t n = fb_result_count(b);
    int rc = FB_OK;
    for (size_t i = 0, gno = 0; i < n && rc == FB_OK; ++i) {
        if (done[i]) continue;
        size_t m = 0;
        for (size_t j = i; j < n; ++j)
            if (!done[j] && fb__html_same_group(fb_result_at(b, i), fb_result_at(b, j)))
                idx[m++] = j, done[j] = true;
        if (passes) fb__html_by_benchmark(b, idx, m, false, rows);
        const fb_result *r = fb_result_at(b, i);
        /* counted under Callgrind (-valgrind): counts, not times */
        bool counted = false;
        for (size_t k = 0; k < m; ++k) counted = counted || fb_result_at(b, idx[k])->vg;
        fprintf(f, "<section class=\"group\" id=\"group-%zu\">\n<h2>", ++gno);
        fb__svg_text(f, r->config.title);
        fputs(counted ? " <small>(instructions per " : " <small>(time per ", f);
        fb__svg_text(f, r->config.unit);
        fprintf(f, ", %zu %s%s)</small></h2>\n", m, passes ? "result" : "benchmark",
                m == 1 ? "" : "s");
        if (counted) {
            fb__html_counted_group(f, b, idx, m, gno, passes);
            fputs("</section>\n", f);
            continue;
        }
        rc = fb__html_strip(f, b, idx, m, gno, passes);
        if (rc != FB_OK) break;
        if (m > FB__H_MAX_ROWS)
            fprintf(f,
                    "<p class=\"key\">The chart shows the first %d of %zu benchmarks; the table "
                    "lists every one.</p>\n",
                    FB__H_MAX_ROWS, m);
        fputs("<p class=\"key\">dots: epochs &middot; box: quartiles &middot; bar: median "
              "&middot; hover a dot for its value</p>\n",
              f);
        fb__html_table(f, b, idx, m, passes);
        fputs("</section>\n", f);
    }
    return rc;
}

int fb__write_html_with(const fb_bench *b, FILE *f, const fb__sysinfo *si) {
    if (!b || !f || !si) return FB_EINVAL;
    size_t n = fb_result_count(b), n_cmp = fb_comparison_count(b);
    size_t most = n > n_cmp ? n : n_cmp;
    size_t *idx = malloc((most ? most : 1) * sizeof *idx);
    bool *done = calloc(n ? n : 1, sizeof *done);
    fb__html_row *rows = malloc((most ? most : 1) * sizeof *rows);
    if (!idx || !done || !rows) {
        free(idx);
        free(done);
        free(rows);
        return FB_ENOMEM;
    }
    /* -repetitions: the results of several passes (the runner stored their
     * series, src/outputs/passes.c) */
    unsigned n_passes = fb__passes_max(b);
    bool passes = n_passes > 1;
    fb__html_header(f, b, si);
    int rc = FB_OK;
    /* the answer first: a -baseline run's verdicts (the change table with
     * its summary and its chart), then the value over passes; each pass's
     * results are the details below */
    const fb__change_view *change = fb__bench_change(b);
    if (change && change->n) fb__html_baseline(f, change);
    if (passes) rc = fb__html_passes(f, b);
    if (n == 0) fputs("<p>No results.</p>\n", f);
    /* with -repetitions every benchmark is there once per pass: folded (a
     * closed <details> needs no script), the summary line says what opens */
    if (passes && (n || n_cmp)) {
        fprintf(f,
                "<details class=\"each-pass\" id=\"each-pass\">\n<summary>Each pass's "
                "results: %zu result%s",
                n, n == 1 ? "" : "s");
        if (n_cmp) fprintf(f, " and %zu comparison%s", n_cmp, n_cmp == 1 ? "" : "s");
        fprintf(f,
                " of %u passes, by benchmark, each labelled with its pass (click to "
                "open)</summary>\n",
                n_passes);
    }
    if (rc == FB_OK) rc = fb__html_groups(f, b, passes, idx, done, rows);
    /* paired comparisons: a forest plot each (ratio and interval, line at 1) */
    for (size_t c = 0; c < n_cmp; ++c) idx[c] = c;
    if (passes) fb__html_by_benchmark(b, idx, n_cmp, true, rows);
    for (size_t c = 0; rc == FB_OK && c < n_cmp; ++c)
        fb__html_comparison(f, fb_comparison_at(b, idx[c]), passes);
    if (passes && (n || n_cmp)) fputs("</details>\n", f);
    /* one chart per fit group: a name, or a family's series */
    /* (the groups sorted once: src/stats/complexity_group.c) */
    const fb_result **all = malloc((n ? n : 1) * sizeof *all);
    fb__fit_groups g;
    if (!all) rc = FB_ENOMEM;
    for (size_t i = 0; i < n && all; ++i) all[i] = fb_result_at(b, i);
    if (rc == FB_OK && fb__fit_groups_build(all, n, &g) != FB_OK) rc = FB_ENOMEM;
    for (size_t i = 0; i < n && rc == FB_OK; ++i)
        if (all[i]->name && g.first[i] == i) fb__html_complexity(f, b, &g, i);
    if (rc == FB_OK) fb__fit_groups_free(&g);
    free(all);
    free(idx);
    free(done);
    free(rows);
    if (rc != FB_OK) return rc;
    fb__html_legend(f);
    fputs("</main>\n</body>\n</html>\n", f);
    return fb__writer_finish(f);
}

int fb_write_html(const fb_bench *b, FILE *f) {
    if (!b || !f) return FB_EINVAL;
    return fb__write_html_with(b, f, fb__process_sysinfo());
}
