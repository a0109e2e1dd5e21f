/* Charts of the HTML report for comparisons: the forest plot of paired
 * comparisons and the change chart of -baseline runs. They take plain
 * arrays, so that the features computing those numbers only hand them over
 * (src/outputs/report_html.h documents both). */
#include "report_html.h"
#include "svg.h"

#include "json.h"
#include "process.h"
#include "result.h"
#include "stats.h"
#include "text.h"

#include <math.h>
#include <string.h>

#define FB__HC_W FB__H_W /* the report's one chart width */
#define FB__HC_LABEL 250.0
#define FB__HC_RIGHT 24.0
#define FB__HC_ROW 26.0
#define FB__HC_TOP 8.0
#define FB__HC_AXIS 44.0

static void fb__hc_open(FILE *f, const char *cls, size_t rows, const char *title) {
    double h = FB__HC_TOP + FB__HC_ROW * (double)rows + FB__HC_AXIS;
    fb__html_svg_open(f, cls, h, title); /* the one opener (src/outputs/report_html_chart.c) */
    for (size_t k = 0; k < rows; k += 2) {
        fputs("<rect class=\"band\" x=\"0\"", f);
        fb__svg_attr_num(f, "y", FB__HC_TOP + FB__HC_ROW * (double)k);
        fb__svg_attr_num(f, "width", FB__HC_W);
        fb__svg_attr_num(f, "height", FB__HC_ROW);
        fputs("/>", f);
    }
    fputc('\n', f);
}

static void fb__hc_label(FILE *f, double yc, const char *name) {
    fputs("<text class=\"name\" text-anchor=\"end\"", f);
    fb__svg_attr_num(f, "x", FB__HC_LABEL - 10);
    fb__svg_attr_num(f, "y", yc + 4);
    fputs("><title>", f);
    fb__svg_text(f, name);
    fputs("</title>", f);
    fb__svg_text_max(f, name, 34);
    fputs("</text>", f);
}

static void fb__hc_axis_title(FILE *f, size_t rows, const char *text) {
    double h = FB__HC_TOP + FB__HC_ROW * (double)rows + FB__HC_AXIS;
    fputs("<text class=\"axistitle\" text-anchor=\"middle\"", f);
    fb__svg_attr_num(f, "x", (FB__HC_LABEL + FB__HC_W - FB__HC_RIGHT) / 2);
    fb__svg_attr_num(f, "y", h - 6);
    fprintf(f, ">%s</text>\n</svg>\n", text);
}

/* buf = a + b + c, truncated to len (by hand: no format-truncation noise). */
static void fb__hc_cat(char *buf, size_t len, const char *a, const char *b, const char *c) {
    const char *parts[3] = {a, b, c};
    size_t o = 0;
    for (int i = 0; i < 3; ++i)
        for (const char *p = parts[i]; *p && o + 1 < len; ++p) buf[o++] = *p;
    if (len) buf[o] = '\0';
}

static bool fb__hc_pos(double v) { return isfinite(v) && v > 0; }

/* "1.234x" with 4 significant digits, "-" when not a positive number. */
static void fb__hc_ratio(char *buf, size_t len, double v) {
    if (!fb__hc_pos(v)) {
        snprintf(buf, len, "-");
        return;
    }
    char num[64];
    fb__fmt_double(num, sizeof num, v, 4);
    fb__hc_cat(buf, len, num, "\xc3\x97", ""); /* U+00D7 MULTIPLICATION SIGN */
}

void fb__html_forest(FILE *f, const char *title, size_t n, const char *const *names,
                     const double *ratio, const double *lo, const double *hi) {
    fputs("<section class=\"forest\">\n<h2>", f);
    fb__svg_text(f, title);
    fputs("</h2>\n", f);
    double dlo = 1, dhi = 1;
    size_t shown = 0;
    for (size_t i = 0; i < n; ++i) {
        if (!fb__hc_pos(ratio[i])) continue;
        ++shown;
        double a = fb__hc_pos(lo[i]) ? lo[i] : ratio[i], b = fb__hc_pos(hi[i]) ? hi[i] : ratio[i];
        if (a < dlo) dlo = a;
        if (ratio[i] < dlo) dlo = ratio[i];
        if (b > dhi) dhi = b;
        if (ratio[i] > dhi) dhi = ratio[i];
    }
    if (shown) {
        fb__svg_scale sc;
        fb__svg_scale_init(&sc, dlo, dhi, FB__HC_LABEL, FB__HC_W - FB__HC_RIGHT, true, false);
        double bottom = FB__HC_TOP + FB__HC_ROW * (double)shown;
        fb__hc_open(f, "forest", shown, title);
        fb__svg_axis_x(f, &sc, FB__HC_TOP, bottom, NULL, "\xc3\x97");
        double x1 = fb__svg_at(&sc, 1);
        fb__svg_line(f, "one", x1, FB__HC_TOP, x1, bottom);
        fputc('\n', f);
        size_t row = 0;
        for (size_t i = 0; i < n; ++i) {
            if (!fb__hc_pos(ratio[i])) continue;
            double yc = FB__HC_TOP + FB__HC_ROW * ((double)row++ + 0.5);
            bool has_ci = fb__hc_pos(lo[i]) && fb__hc_pos(hi[i]);
            bool differs = has_ci && (lo[i] > 1 || hi[i] < 1);
            fprintf(f, "<g class=\"row %s\">", differs ? "differs" : "same");
            fb__hc_label(f, yc, names[i]);
            char r[64], a[64], b[64];
            fb__hc_ratio(r, sizeof r, ratio[i]);
            fb__hc_ratio(a, sizeof a, lo[i]);
            fb__hc_ratio(b, sizeof b, hi[i]);
            if (has_ci) {
                double xa = fb__svg_at(&sc, lo[i]), xb = fb__svg_at(&sc, hi[i]);
                fb__svg_line(f, "ci", xa, yc, xb, yc);
                fb__svg_line(f, "ci", xa, yc - 5, xa, yc + 5);
                fb__svg_line(f, "ci", xb, yc - 5, xb, yc + 5);
            }
            fputs("<circle class=\"ratio\"", f);
            fb__svg_attr_num(f, "cx", fb__svg_at(&sc, ratio[i]));
            fb__svg_attr_num(f, "cy", yc);
            fputs(" r=\"5\"><title>", f);
            fb__svg_text(f, names[i]);
            fprintf(f, ": %s, interval %s to %s</title></circle></g>\n", r, a, b);
        }
        fb__hc_axis_title(f, shown, "ratio (log scale); dashed line at 1\xc3\x97: no difference");
    }
    fputs("<table class=\"forest\">\n<thead><tr><th class=\"name\">alternative</th><th>ratio</th>"
          "<th>interval low</th><th>interval high</th><th class=\"name\">interval</th></tr>"
          "</thead>\n<tbody>\n",
          f);
    for (size_t i = 0; i < n; ++i) {
        char r[64], a[64], b[64];
        fb__hc_ratio(r, sizeof r, ratio[i]);
        fb__hc_ratio(a, sizeof a, lo[i]);
        fb__hc_ratio(b, sizeof b, hi[i]);
        bool has_ci = fb__hc_pos(lo[i]) && fb__hc_pos(hi[i]);
        fputs("<tr><td class=\"name\"><code>", f);
        fb__svg_text(f, names[i]);
        fprintf(f, "</code></td><td>%s</td><td>%s</td><td>%s</td><td class=\"name\">%s</td></tr>\n",
                r, a, b,
                !has_ci                  ? "-"
                : lo[i] > 1 || hi[i] < 1 ? "excludes 1"
                                         : "includes 1");
    }
    fputs("</tbody></table>\n</section>\n", f);
}

static const char *fb__hc_verdict(int v) {
    switch (v) {
    case FB__HTML_SAME:
        return "same";
    case FB__HTML_FASTER:
        return "faster";
    case FB__HTML_SLOWER:
        return "slower";
    case FB__HTML_UNSURE:
        return "unsure";
    case FB__HTML_NEW:
        return "new";
    case FB__HTML_GONE:
        return "gone";
    default:
        return "unknown";
    }
}

/* "+12.3%" / "-4.0%" / "0.0%"; "-" when not finite. */
static void fb__hc_pct(char *buf, size_t len, double v) {
    if (!isfinite(v)) {
        snprintf(buf, len, "-");
        return;
    }
    char num[128];
    fb__svg_fixed(num, sizeof num, v, 1, true);
    fb__hc_cat(buf, len, v > 0 && strcmp(num, "0.0") != 0 ? "+" : "", num, "%");
}

void fb__html_change_chart(FILE *f, const char *title, size_t n, const char *const *names,
                           const double *change_pct, const double *lo_pct, const double *hi_pct,
                           const int *verdict) {
    double dlo = 0, dhi = 0;
    for (size_t i = 0; i < n; ++i) {
        const double v[3] = {change_pct[i], lo_pct[i], hi_pct[i]};
        for (int k = 0; k < 3; ++k) {
            if (!isfinite(v[k])) continue;
            if (v[k] < dlo) dlo = v[k];
            if (v[k] > dhi) dhi = v[k];
        }
    }
    if (n) {
        fb__svg_scale sc;
        fb__svg_scale_init(&sc, dlo, dhi, FB__HC_LABEL, FB__HC_W - FB__HC_RIGHT, false, true);
        double bottom = FB__HC_TOP + FB__HC_ROW * (double)n;
        fb__hc_open(f, "change", n, title);
        fb__svg_axis_x(f, &sc, FB__HC_TOP, bottom, NULL, "%");
        double x0 = fb__svg_at(&sc, 0);
        for (size_t i = 0; i < n; ++i) {
            double yc = FB__HC_TOP + FB__HC_ROW * ((double)i + 0.5);
            const char *vd = fb__hc_verdict(verdict[i]);
            fprintf(f, "<g class=\"row\">");
            fb__hc_label(f, yc, names[i]);
            char c[64], a[64], b[64];
            fb__hc_pct(c, sizeof c, change_pct[i]);
            fb__hc_pct(a, sizeof a, lo_pct[i]);
            fb__hc_pct(b, sizeof b, hi_pct[i]);
            if (isfinite(change_pct[i])) {
                double xc = fb__svg_at(&sc, change_pct[i]);
                double x = xc < x0 ? xc : x0, w = fabs(xc - x0);
                fprintf(f, "<rect class=\"bar verdict-%s\"", vd);
                fb__svg_attr_num(f, "x", x);
                fb__svg_attr_num(f, "y", yc - FB__HC_ROW * 0.3);
                fb__svg_attr_num(f, "width", w < 1 ? 1 : w);
                fb__svg_attr_num(f, "height", FB__HC_ROW * 0.6);
                fputs("><title>", f);
                fb__svg_text(f, names[i]);
                fprintf(f, ": %s (interval %s to %s), %s</title></rect>", c, a, b, vd);
            }
            if (isfinite(lo_pct[i]) && isfinite(hi_pct[i])) {
                double xa = fb__svg_at(&sc, lo_pct[i]), xb = fb__svg_at(&sc, hi_pct[i]);
                fb__svg_line(f, "cil", xa, yc, xb, yc);
                fb__svg_line(f, "cil", xa, yc - 4, xa, yc + 4);
                fb__svg_line(f, "cil", xb, yc - 4, xb, yc + 4);
            }
            fputs("</g>\n", f);
        }
        fb__svg_line(f, "one", x0, FB__HC_TOP, x0, bottom);
        fb__hc_axis_title(f, n,
                          "change against the baseline in % (positive: slower); bars "
                          "coloured by verdict; line: interval");
    }
}

/* A side's time per unit in a cell: "485.5 ps/byte" (the benchmark's unit
 * escaped), "-" when not a number; with no unit known, seconds alone. */
static void fb__hc_time_cell(FILE *f, double s, const char *unit) {
    char num[64];
    fb__svg_si(num, sizeof num, s, "s", 4);
    fprintf(f, "<td>%s", num);
    if (isfinite(s) && unit && unit[0]) {
        fputc('/', f);
        fb__svg_text_max(f, unit, FB__H_TEXT_MAX); /* as the results table's header */
    }
    fputs("</td>", f);
}

void fb__html_change_table(FILE *f, size_t n, const char *const *names, const double *baseline_s,
                           const double *now_s, const char *const *units, const double *change_pct,
                           const double *lo_pct, const double *hi_pct, const int *verdict) {
    fputs("<table class=\"change\">\n<thead><tr><th class=\"name\">benchmark</th><th>baseline</th>"
          "<th>now</th><th>change</th><th>interval low</th><th>interval high</th>"
          "<th class=\"name\">verdict</th></tr></thead>\n<tbody>\n",
          f);
    for (size_t i = 0; i < n; ++i) {
        char c[64], a[64], b[64];
        fb__hc_pct(c, sizeof c, change_pct[i]);
        fb__hc_pct(a, sizeof a, lo_pct[i]);
        fb__hc_pct(b, sizeof b, hi_pct[i]);
        const char *vd = fb__hc_verdict(verdict[i]);
        fprintf(f, "<tr class=\"verdict-%s\"><td class=\"name\"><code>", vd);
        fb__svg_text(f, names[i]);
        fputs("</code></td>", f);
        fb__hc_time_cell(f, baseline_s[i], units ? units[i] : NULL);
        fb__hc_time_cell(f, now_s[i], units ? units[i] : NULL);
        fprintf(f, "<td>%s</td><td>%s</td><td>%s</td><td class=\"name\">%s</td></tr>\n", c, a, b,
                vd);
    }
    fputs("</tbody></table>\n", f);
}

void fb__html_change_bars(FILE *f, const char *title, size_t n, const char *const *names,
                          const double *baseline_s, const double *now_s, const double *change_pct,
                          const double *lo_pct, const double *hi_pct, const int *verdict) {
    fputs("<section class=\"change\">\n<h2>", f);
    fb__svg_text(f, title);
    fputs("</h2>\n", f);
    fb__html_change_chart(f, title, n, names, change_pct, lo_pct, hi_pct, verdict);
    fb__html_change_table(f, n, names, baseline_s, now_s, NULL, change_pct, lo_pct, hi_pct,
                          verdict);
    fputs("</section>\n", f);
}
