/* The HTML report's complexity section (src/outputs/report_html.c calls it once
 * per fit group): the log-log chart of what the fit reads against N (the
 * median time per call, or under -valgrind the exact instructions per
 * call: fb__fit_point) with the stored best fit (src/stats/complexity.c), and the
 * fit table. Reads results and stored fits; computes only the chart's
 * curve. */
#include "report_html.h"

#include "bench.h"
#include "context.h" /* -context: rows of the context table */
#include "numfmt.h"
#include "process.h"
#include "stats.h" /* fit groups of families (src/stats/complexity_group.c) */
#include "result.h"
#include "svg.h"
#include "text.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------- complexity */

static double fb__html_model(const char *model, double n) {
    if (strcmp(model, "O(log n)") == 0) return log2(n);
    if (strcmp(model, "O(n)") == 0) return n;
    if (strcmp(model, "O(n log n)") == 0) return n * log2(n);
    if (strcmp(model, "O(n^2)") == 0) return n * n;
    if (strcmp(model, "O(n^3)") == 0) return n * n * n;
    return 1.0;
}

#define FB__H_CX_H 330.0
#define FB__H_CX_L 90.0
#define FB__H_CX_B 44.0
#define FB__H_CX_SAMPLES 64

/* The log-log chart of the fit's points (fb__fit_point) against N for the fit group of
 * result `first` of b (its name, or a family's series), with its stored
 * fit, and the fit table. g: the fit groups of b's results
 * (src/stats/complexity_group.c); the points are the results whose first is
 * `first`. */
void fb__html_complexity(FILE *f, const fb_bench *b, const fb__fit_groups *g, size_t first) {
    size_t n;
    const fb_result *const *rs = fb__bench_results(b, &n);
    const size_t *with = g->with_first + g->with_at[first];
    size_t n_with = g->with_n[first];
    char name[256]; /* the group's name: the series' for a family */
    size_t len = strlen(rs[first]->name);
    const char *series = g->wide[first] ? fb__result_series(rs[first], &len) : rs[first]->name;
    snprintf(name, sizeof name, "%.*s", (int)len, series);
    double nlo = INFINITY, nhi = -INFINITY, ylo = INFINITY, yhi = -INFINITY;
    size_t points = 0;
    bool counted = false; /* instructions, not seconds (-valgrind) */
    for (size_t k = 0; k < n_with; ++k) {
        double x, y;
        if (!fb__fit_point(rs[with[k]], &x, &y)) continue;
        ++points;
        counted = counted || fb_result_counted(rs[with[k]]);
        if (x < nlo) nlo = x;
        if (x > nhi) nhi = x;
        if (y < ylo) ylo = y;
        if (y > yhi) yhi = y;
    }
    const char *unit = counted ? "" : "s", *what = counted ? "instructions" : "time";
    fputs("<section class=\"complexity\">\n<h2>Complexity: <code>", f);
    fb__svg_text(f, name);
    fputs("</code></h2>\n", f);
    if (!points) {
        fputs("<p>No measured result with a complexity N.</p>\n</section>\n", f);
        return;
    }
    fb__fit_set none;
    memset(&none, 0, sizeof none);
    const fb__fit_set *stored = fb__fit_stored_in(b, g, first);
    const fb__fit_set set = stored ? *stored : none;
    const fb_fit *fits = set.fits;
    size_t nf = set.n;
    bool fits_one = set.verdict == FB__CX_MODEL || set.verdict == FB__CX_FLAT;
    double curve[FB__H_CX_SAMPLES];
    for (size_t s = 0; s < FB__H_CX_SAMPLES && nf; ++s) {
        double t = (double)s / (FB__H_CX_SAMPLES - 1);
        double nn = nlo * pow(nhi / nlo, t);
        curve[s] = fits[0].constant + fits[0].coefficient * fb__html_model(fits[0].name, nn);
        if (curve[s] > 0 && isfinite(curve[s])) {
            if (curve[s] < ylo) ylo = curve[s];
            if (curve[s] > yhi) yhi = curve[s];
        }
    }
    fb__svg_scale sx, sy;
    double bottom = FB__H_CX_H - FB__H_CX_B;
    fb__svg_scale_init(&sx, nlo, nhi, FB__H_CX_L, FB__H_W - FB__H_RIGHT, true, false);
    fb__svg_scale_init(&sy, ylo, yhi, bottom, FB__H_TOP + 4, true, false);
    char label[300];
    snprintf(label, sizeof label, "%s: %s per call against N, log-log", name, what);
    fb__html_svg_open(f, "loglog", FB__H_CX_H, label);
    fb__svg_axis_y(f, &sy, FB__H_CX_L, FB__H_W - FB__H_RIGHT, unit);
    fb__svg_axis_x(f, &sx, FB__H_TOP + 4, bottom, "", NULL);
    if (nf) {
        fputs("<path class=\"fit\" d=\"", f);
        bool pen = false;
        for (size_t s = 0; s < FB__H_CX_SAMPLES; ++s) {
            if (!(curve[s] > 0) || !isfinite(curve[s])) {
                pen = false;
                continue;
            }
            double t = (double)s / (FB__H_CX_SAMPLES - 1);
            fputs(pen ? " L" : " M", f);
            fb__svg_num(f, fb__svg_at(&sx, nlo * pow(nhi / nlo, t)));
            fputc(' ', f);
            fb__svg_num(f, fb__svg_at(&sy, curve[s]));
            pen = true;
        }
        /* the curve is the lowest-error model whether or not the verdict
         * says it fits: the fit table says which (its "(best)") */
        fputs("\"><title>best fit: ", f);
        fb__svg_text(f, fits[0].name);
        fputs("</title></path>\n", f);
    }
    for (size_t k = 0; k < n_with; ++k) {
        const fb_result *r = rs[with[k]];
        double x, y;
        if (!fb__fit_point(r, &x, &y)) continue;
        fputs("<circle class=\"point\"", f);
        fb__svg_attr_num(f, "cx", fb__svg_at(&sx, x));
        fb__svg_attr_num(f, "cy", fb__svg_at(&sy, y));
        char nn[64], t[64], e[64];
        fb__fmt_n(nn, sizeof nn, x, true); /* N as given */
        if (fb_result_counted(r)) {        /* exact: no spread */
            fb__svg_fixed(t, sizeof t, y, 0, true);
            fprintf(f, " r=\"4\"><title>N=%s: %s instructions per call (exact)</title></circle>\n",
                    nn, t);
            continue;
        }
        fb__svg_si(t, sizeof t, y, "s", 6);
        fb__svg_fixed(e, sizeof e, r->summary[FB_ELAPSED].err_pct, 1, false);
        fprintf(f, " r=\"4\"><title>N=%s: %s per call (median, err%% %s%%)</title></circle>\n", nn,
                t, e);
    }
    fputs("<text class=\"axistitle\" text-anchor=\"middle\"", f);
    fb__svg_attr_num(f, "x", (FB__H_CX_L + FB__H_W - FB__H_RIGHT) / 2);
    fb__svg_attr_num(f, "y", FB__H_CX_H - 6);
    fprintf(f, ">N (log scale); %s per call (log scale)", what);
    if (nf) {
        fputs("; line: best fit ", f);
        fb__svg_text(f, fits[0].name);
    }
    fputs("</text>\n</svg>\n", f);
    if (!nf) {
        /* no fit stored: the reason the runner gave (-sanity_check), else
         * the only other one (one distinct N) */
        const char *why = fb__bench_fits_dropped(b);
        fputs("<p>", f);
        if (why) {
            fputs("The complexity fit was skipped: ", f);
            fb__svg_text(f, why);
            fputs(".", f);
        } else {
            fputs("A complexity fit needs at least two distinct N.", f);
        }
        fputs("</p>\n</section>\n", f);
        return;
    }
    fputs("<table class=\"fits\">\n<thead><tr><th class=\"name\">complexity</th>"
          "<th>coefficient</th><th>constant</th><th>err%</th></tr></thead>\n<tbody>\n",
          f);
    for (size_t k = 0; k < nf; ++k) {
        char c[64], k0[64];
        fb__fmt_double(c, sizeof c, fits[k].coefficient, 6);
        fb__svg_si(k0, sizeof k0, fits[k].constant, unit, 4);
        /* "(best)" only where the fit's verdict says a model fits, as the
         * terminal's note does (src/outputs/report_complexity.c); otherwise the first
         * row only has the lowest error */
        fprintf(f, "<tr%s><td class=\"name\">%s%s</td><td>%s%s%s</td><td>%s</td>",
                k == 0 && fits_one ? " class=\"best\"" : "", fits[k].name,
                k == 0 ? (fits_one ? " (best)" : " (lowest error)") : "", c, counted ? "" : " ",
                unit, k0);
        fb__html_cell(f, fits[k].err_pct, 1, "%");
        fputs("</tr>\n", f);
    }
    fputs("</tbody></table>\n", f);
    if (strcmp(fits[0].name, "O(1)") == 0)
        fprintf(f,
                "<p class=\"key\">The %s did not depend on N: no growing model fits "
                "significantly better than O(1).</p>\n",
                counted ? "count" : "time");
    fputs("</section>\n", f);
}
