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
#include "compare_stats.h" /* a comparison counted or timed */
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

/* Results i and j belong in one chart and one table. */
static bool fb__html_same_group(const fb_result *a, const fb_result *b) {
    return fb__html_same(a->config.title, b->config.title) &&
           fb__html_same(a->config.unit, b->config.unit) &&
           strcmp(a->config.time_unit_label, b->config.time_unit_label) == 0 &&
           a->config.time_unit_s == b->config.time_unit_s;
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
