/* The HTML report's chart of a title/unit group (src/outputs/report_html.c):
 * a strip/box chart, one row per result: every recorded epoch's time per
 * unit as a dot, the box of the quartiles and the bar of the median that
 * the statistics use, on a linear or (beyond a factor of 100) log axis. */
#include "report_html.h"
#include "process.h" /* the unstable marker, unless suppressed */
#include "svg.h"

#include <math.h>
#include <stdio.h>

static double fb__html_per_unit(const fb_result *r, size_t e) {
    return r->values[FB_ELAPSED][e] / r->config.batch;
}

/* One chart for the results idx[0..m) (one title/unit group). */
int fb__html_strip(FILE *f, const fb_bench *b, const size_t *idx, size_t m, size_t gno,
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
