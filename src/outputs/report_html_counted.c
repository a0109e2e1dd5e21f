/* The HTML report's group of results counted under Callgrind (-valgrind,
 * docs/valgrind.md): such a result has no epochs of time to draw, only its
 * exact counts, so the group shows a bar per result (instructions per unit)
 * and a table of the counts. Reads finished results, computes nothing but
 * the chart's scale. */
#include "report_html.h"

#include "result.h"
#include "svg.h"
#include "valgrind.h"

#include <math.h>
#include <string.h>

/* The count m of r per unit (NAN when not counted or an error row). */
static double fb__hc_per_unit(const fb_result *r, fb_vg_measure m) {
    if (!r->vg || r->error || !(r->config.batch > 0)) return NAN;
    return fb_result_valgrind(r, m) / r->config.batch;
}

static void fb__hc_chart(FILE *f, const fb_bench *b, const size_t *idx, size_t m, size_t gno,
                         bool passes) {
    if (m > FB__H_MAX_ROWS) m = FB__H_MAX_ROWS; /* the caller says so under the chart */
    double lo = INFINITY, hi = 0;
    for (size_t k = 0; k < m; ++k) {
        const fb_result *r = fb_result_at(b, idx[k]);
        double v = fb__hc_per_unit(r, FB_VG_INSTRUCTIONS);
        if (!(v > 0)) continue;
        double top = v, low = v; /* the spread's ends are drawn too */
        if (r->vg->ins_hi / r->config.batch > top) top = r->vg->ins_hi / r->config.batch;
        if (r->vg->ins_lo / r->config.batch < low && r->vg->ins_lo > 0)
            low = r->vg->ins_lo / r->config.batch;
        if (top > hi) hi = top;
        if (low < lo) lo = low;
    }
    if (!(hi > 0)) hi = lo = 1; /* nothing counted: an empty axis */
    /* as the timed charts (docs/html.md): a log axis when the group spans
     * more than 100x, else rows of 86 instructions beside one of 2.5M have
     * bars too short to see; the bars then start at the axis's left end */
    bool log_axis = hi > 100 * lo;
    fb__svg_scale sc;
    /* (the least count still gets a bar: the axis starts below it) */
    fb__svg_scale_init(&sc, log_axis ? lo / 2 : 0, hi, FB__H_LABEL, FB__H_W - FB__H_RIGHT, log_axis,
                       !log_axis);
    const fb_result *first = fb_result_at(b, idx[0]);
    const char *unit = first->config.unit ? first->config.unit : "op";
    double rows_h = FB__H_ROW * (double)m;
    double h = FB__H_TOP + rows_h + FB__H_AXIS;
    char label[512];
    snprintf(label, sizeof label, "%.60s: instructions per %.60s (Callgrind)",
             first->config.title ? first->config.title : "", unit);
    fb__html_svg_open(f, "counted", h, label);
    for (size_t k = 0; k < m; k += 2) {
        fb__html_rect(f, "band", 0, FB__H_TOP + FB__H_ROW * (double)k, FB__H_W, FB__H_ROW);
        fputs("/>", f);
    }
    fputc('\n', f);
    fb__svg_axis_x(f, &sc, FB__H_TOP, FB__H_TOP + rows_h, "", NULL);
    for (size_t k = 0; k < m; ++k) {
        const fb_result *r = fb_result_at(b, idx[k]);
        double yc = FB__H_TOP + FB__H_ROW * ((double)k + 0.5);
        fprintf(f, "<g class=\"row\" id=\"g%zu-r%zu\">", gno, k);
        fb__html_label(f, "name", yc, r->name, r->config.complexity_n,
                       passes ? r->config.pass + 1 : 0, NULL);
        double v = fb__hc_per_unit(r, FB_VG_INSTRUCTIONS);
        if (!isfinite(v)) {
            fputs("<text class=\"err\"", f);
            fb__svg_attr_num(f, "x", FB__H_LABEL + 6);
            fb__svg_attr_num(f, "y", yc + 4);
            fputs(">error: ", f);
            fb__svg_text_max(f, r->error ? r->error : "not counted", 90);
            fputs("</text></g>\n", f);
            continue;
        }
        double x0 = log_axis ? sc.r0 : fb__svg_at(&sc, 0), x1 = fb__svg_at(&sc, v);
        fb__html_rect(f, "box", x0, yc - FB__H_ROW * 0.28, x1 - x0, FB__H_ROW * 0.56);
        char num[64];
        fb__svg_fixed(num, sizeof num, v, 4, true);
        fprintf(f, "><title>%s instructions per ", num);
        fb__svg_text_max(f, unit, FB__H_TEXT_MAX);
        if (r->vg->ins_lo < r->vg->ins_hi) {
            /* a count that moved between counted epochs: the median pair,
             * and the pairs' range as a line across the bar's end */
            char l[64], h2[64];
            fb__svg_fixed(l, sizeof l, r->vg->ins_lo / r->config.batch, 4, true);
            fb__svg_fixed(h2, sizeof h2, r->vg->ins_hi / r->config.batch, 4, true);
            fprintf(f,
                    " (median of %u counted pairs of %llu and %llu iterations, spread %s to %s)"
                    "</title></rect>",
                    r->vg->pairs, (unsigned long long)r->vg->n1, (unsigned long long)r->vg->n2, l,
                    h2);
            fb__svg_line(f, "median", fb__svg_at(&sc, r->vg->ins_lo / r->config.batch), yc,
                         fb__svg_at(&sc, r->vg->ins_hi / r->config.batch), yc);
            fputs("</g>\n", f);
            continue;
        }
        fprintf(f, " (exact: Callgrind's counts of %llu and %llu iterations)</title></rect></g>\n",
                (unsigned long long)r->vg->n1, (unsigned long long)r->vg->n2);
    }
    fputs("<text class=\"axistitle\" text-anchor=\"middle\"", f);
    fb__svg_attr_num(f, "x", (FB__H_LABEL + FB__H_W - FB__H_RIGHT) / 2);
    fb__svg_attr_num(f, "y", h - 6);
    fputs(">instructions per ", f);
    fb__svg_text_max(f, unit, FB__H_TEXT_MAX);
    fputs(log_axis ? " (Callgrind, log scale)</text>\n</svg>\n" : " (Callgrind)</text>\n</svg>\n",
          f);
}

static void fb__hc_table(FILE *f, const fb_bench *b, const size_t *idx, size_t m, bool passes) {
    bool cache = false;
    for (size_t k = 0; k < m; ++k) {
        const fb_result *r = fb_result_at(b, idx[k]);
        if (r->vg && !r->error && r->vg->cache) cache = true;
    }
    const fb_result *r0 = fb_result_at(b, idx[0]);
    const char *unit = r0->config.unit ? r0->config.unit : "op";
    fputs("<table class=\"results counted\">\n<thead><tr>", f);
    if (passes) fputs("<th>pass</th>", f); /* -repetitions: which pass the row is */
    fputs("<th>ins/", f);
    fb__svg_text_max(f, unit, FB__H_TEXT_MAX);
    fputs("</th>", f);
    if (cache) {
        fputs("<th>L1 miss/", f);
        fb__svg_text_max(f, unit, FB__H_TEXT_MAX);
        fputs("</th><th>LL miss/", f);
        fb__svg_text_max(f, unit, FB__H_TEXT_MAX);
        fputs("</th><th>bra miss%</th>", f);
    }
    fputs("<th class=\"name\">", f);
    fb__svg_text_max(f, r0->config.title, FB__H_TEXT_MAX);
    fputs("</th></tr></thead>\n<tbody>\n", f);
    for (size_t k = 0; k < m; ++k) {
        const fb_result *r = fb_result_at(b, idx[k]);
        bool ok = isfinite(fb__hc_per_unit(r, FB_VG_INSTRUCTIONS));
        fputs(ok ? "<tr>" : "<tr class=\"error\">", f);
        if (passes) fprintf(f, "<td class=\"pass\">%u</td>", r->config.pass + 1);
        fb__html_cell(f, fb__hc_per_unit(r, FB_VG_INSTRUCTIONS), 2, "");
        if (cache) {
            fb__html_cell(f, fb__hc_per_unit(r, FB_VG_L1_MISSES), 2, "");
            fb__html_cell(f, fb__hc_per_unit(r, FB_VG_LL_MISSES), 2, "");
            double bra = fb__hc_per_unit(r, FB_VG_BRANCHES);
            fb__html_cell(f, bra > 0 ? 100.0 * fb__hc_per_unit(r, FB_VG_BRANCH_MISSES) / bra : NAN,
                          2, "%");
        }
        fputs("<td class=\"name\"><code>", f);
        fb__svg_text(f, r->name);
        fputs("</code>", f);
        if (ok && r->vg->ins_lo < r->vg->ins_hi) {
            char l[64], h[64];
            fb__svg_fixed(l, sizeof l, r->vg->ins_lo / r->config.batch, 2, true);
            fb__svg_fixed(h, sizeof h, r->vg->ins_hi / r->config.batch, 2, true);
            fprintf(f, " <span class=\"hint\">median of %u counted pairs, spread %s..%s%s</span>",
                    r->vg->pairs, l, h,
                    r->vg->wild ? "; unsteady count: the pairs differ by over 10%, the op does "
                                  "different work each time"
                                : "");
        }
        if (!ok) {
            fputs(" <span class=\"errmsg\">error: ", f);
            fb__svg_text(f, r->error ? r->error : "not counted");
            fputs("</span>", f);
        }
        fputs("</td></tr>\n", f);
    }
    fputs("</tbody></table>\n", f);
}

void fb__html_counted_group(FILE *f, const fb_bench *b, const size_t *idx, size_t m, size_t gno,
                            bool passes) {
    fb__hc_chart(f, b, idx, m, gno, passes);
    if (m > FB__H_MAX_ROWS)
        fprintf(f,
                "<p class=\"key\">The chart shows the first %d of %zu benchmarks; the table "
                "lists every one.</p>\n",
                FB__H_MAX_ROWS, m);
    fputs("<p class=\"key\">bars: instructions per unit, counts under Callgrind (no "
          "epochs of time: nothing was timed); a count that moved between counted epochs is the "
          "median of its pairs, a line across the bar their spread &middot; hover a bar for its "
          "value</p>\n",
          f);
    fb__hc_table(f, b, idx, m, passes);
}
