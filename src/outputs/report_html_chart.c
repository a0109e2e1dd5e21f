/* The chart primitives the HTML report's parts share (src/outputs/report_html.h):
 * a rectangle, an <svg> chart, a name in the label column, a table cell.
 * They write what they are given and compute nothing. */
#include "report_html.h"

#include "numfmt.h" /* a group's thread range */
#include "result.h"
#include "svg.h"
#include "text.h" /* N as given */

#include <math.h>
#include <stdio.h>
#include <string.h>

void fb__html_rect(FILE *f, const char *cls, double x, double y, double w, double h) {
    fprintf(f, "<rect class=\"%s\"", cls);
    fb__svg_attr_num(f, "x", x);
    fb__svg_attr_num(f, "y", y);
    fb__svg_attr_num(f, "width", w > 0 ? w : 0);
    fb__svg_attr_num(f, "height", h > 0 ? h : 0);
}

void fb__html_svg_open(FILE *f, const char *cls, double h, const char *label) {
    fprintf(f, "<svg class=\"chart %s\" xmlns=\"http://www.w3.org/2000/svg\" role=\"img\"", cls);
    fb__svg_attr_num(f, "width", FB__H_W);
    fb__svg_attr_num(f, "height", h);
    fputs(" viewBox=\"0 0 ", f);
    fb__svg_num(f, FB__H_W);
    fputc(' ', f);
    fb__svg_num(f, h);
    fputs("\" aria-label=\"", f);
    fb__svg_text(f, label);
    fputs("\">\n", f);
}

/* A right-aligned name in the label column, shortened, with the full text
 * as its tooltip. A pass of -repetitions is part of the label: the rows of
 * one benchmark in several passes would otherwise read the same. */
void fb__html_label(FILE *f, const char *cls, double y, const char *name, double n, unsigned pass,
                    const char *extra) {
    fprintf(f, "<text class=\"%s\" text-anchor=\"end\"", cls);
    fb__svg_attr_num(f, "x", FB__H_LABEL - 10);
    fb__svg_attr_num(f, "y", y + 4);
    fputs("><title>", f);
    fb__svg_text(f, name);
    char num[64];
    /* N as given (100.25, not 100), in the tooltip and the label alike */
    if (n > 0) {
        fb__fmt_n(num, sizeof num, n, true);
        fprintf(f, " (N=%s)", num);
    }
    if (pass) fprintf(f, " (pass %u)", pass);
    if (extra) fb__svg_text(f, extra);
    fputs("</title>", f);
    /* the name gives up the room the N and the pass take */
    size_t n_cp = n > 0 ? strlen(num) + 5 : 0;
    if (n_cp > (size_t)FB__H_NAME_CP / 2) n_cp = (size_t)FB__H_NAME_CP / 2;
    size_t cp = (size_t)FB__H_NAME_CP - n_cp - (pass ? 9u : 0u);
    fb__svg_text_max(f, name, cp);
    if (n > 0) fprintf(f, " (N=%s)", num);
    if (pass) fprintf(f, " \xc2\xb7 pass %u", pass); /* U+00B7 middle dot */
    fputs("</text>", f);
}

void fb__html_cell(FILE *f, double v, int decimals, const char *suffix) {
    char num[128];
    fb__svg_fixed(num, sizeof num, v, decimals, true);
    fprintf(f, "<td>%s%s</td>", num, isfinite(v) ? suffix : "");
}

bool fb__html_measured(const fb_result *r) {
    return !r->error && (r->has & FB__BIT(FB_ELAPSED)) && r->values[FB_ELAPSED] && r->epochs > 0 &&
           r->config.batch > 0;
}

bool fb__html_same(const char *a, const char *b) {
    return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* The result's marks (src/stats/marks.c) as hints after its name. */
void fb__html_marks(FILE *f, const fb_result *r) {
    if (r->optimized_away)
        fputs(" <span class=\"hint\">optimized away? it costs under a quarter of a loop holding "
              "only <code>fb_do_not_optimize</code></span>",
              f);
    if (r->at_loop_resolution)
        fputs(" <span class=\"hint\">at the loop's resolution: within 2x of a loop holding only "
              "<code>fb_do_not_optimize</code>, as one add is</span>",
              f);
    if (r->unresolved)
        fputs(" <span class=\"hint\">not resolved by the clock: its epochs are too few clock "
              "resolutions long</span>",
              f);
    if (fb_result_descheduled(r)) /* the value holds time off the CPU */
        fprintf(f,
                " <span class=\"hint\">descheduled: %zu of %zu epochs were off the CPU and too "
                "few others remained; the value includes time spent waiting</span>",
                r->disturbed, r->epochs);
    if (r->thread_median_s && r->threads > 1) { /* a group of threads: each one's own time */
        double lo, hi;
        char l[64], h[64];
        fb__result_thread_range(r, &lo, &hi);
        fb__fmt_fixed(l, sizeof l, lo / r->config.time_unit_s / r->config.batch, 2);
        fb__fmt_fixed(h, sizeof h, hi / r->config.time_unit_s / r->config.batch, 2);
        fprintf(f, " <span class=\"hint\">%zu threads, each %s..%s %s/", r->threads, l, h,
                r->config.time_unit_label);
        fb__svg_text(f, r->config.unit); /* escaped */
        if (r->waited)
            fprintf(f, "; %zu of %zu epochs waited for a core: their time is the threads' CPU span",
                    r->waited, r->epochs);
        fputs("</span>", f);
    }
}
