/* The HTML report: one self-contained page (docs/html.md). Inline CSS and
 * inline SVG written here, no script, no external resource of any kind, so
 * it opens anywhere, offline, with JavaScript off. Reads results, never
 * measures. Order on the page: header (titles, date, version, machine,
 * warnings), one strip/box chart and results table per title/unit group,
 * complexity charts and fits, the legend. */
#include "report_html.h"
#include "ucounter.h" /* user counters: a column each */
#include "context.h"  /* -context: rows of the context table */
#include "passes.h"   /* -repetitions: the value over passes */
#include "svg.h"

#include "bench.h"
#include "change.h"

#include "json.h"
#include "process.h"
#include "registry.h" /* fit groups of families */
#include "result.h"
#include "stats.h"
#include "text.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Chart geometry, pixels. */
#define FB__H_W 880.0     /* chart width */
#define FB__H_LABEL 250.0 /* left column for names */
#define FB__H_RIGHT 24.0  /* right margin */
#define FB__H_ROW 26.0    /* one row per benchmark */
/* A chart draws at most this many rows (5,200 px); the table lists all. */
#define FB__H_MAX_ROWS 200
/* A title or unit is written in full once, in its group's heading; every
 * other place (tooltips, labels, table headers) shows this many bytes. */
#define FB__H_TEXT_MAX 60
#define FB__H_TOP 8.0
#define FB__H_AXIS 44.0  /* below the rows: tick labels and the axis title */
#define FB__H_NAME_CP 34 /* code points of a name shown in a chart label */

/* Group data spanning more than this factor get a log axis. */
#define FB__H_LOG_SPAN 100.0

static const char fb__html_css[] =
    "body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;"
    "color:#1d2430;background:#fff;margin:0 auto;max-width:940px;padding:12px 20px 40px}"
    "h1{font-size:22px;margin:8px 0 2px}h2{font-size:17px;margin:28px 0 6px}"
    "h3{font-size:14px;margin:14px 0 4px}"
    ".sub{color:#5a6472;margin:0 0 10px}"
    "table{border-collapse:collapse;margin:6px 0 4px;font-size:13px}"
    "th,td{padding:2px 8px;border-bottom:1px solid #e3e6ea;text-align:right;white-space:nowrap}"
    "th{background:#f4f6f8;font-weight:600}td.name,th.name{text-align:left;white-space:normal}"
    "table.context th{text-align:left;background:none;font-weight:600;color:#5a6472}"
    "table.context td{text-align:left;white-space:normal}"
    "tr.unstable td{background:#fff6e5}tr.error td,tr.verdict-slower td{background:#fdecec}"
    "tr.verdict-faster td{background:#eaf6ee}"
    ".hint{color:#9a5b00;font-size:12px}.errmsg{color:#b3261e}"
    "code{font:12px ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}"
    ".warnings{border-left:4px solid #e0a000;background:#fffaf0;padding:4px 12px;margin:10px 0}"
    ".warnings li{margin:4px 0}.fix{color:#5a6472}"
    "svg.chart{display:block;max-width:100%;height:auto;margin:6px 0}"
    "svg text{font:12px system-ui,Helvetica,Arial,sans-serif;fill:#1d2430}"
    "svg .tick{fill:#5a6472;font-size:11px}svg .axistitle{fill:#5a6472}"
    "svg .grid{stroke:#e3e6ea}svg .axisline{stroke:#8a93a0}"
    "svg .band{fill:#f7f8fa}svg .box{fill:#cfe0f5;stroke:#3b6fb6}"
    "svg .median{stroke:#12325e;stroke-width:2.5}"
    "svg .dot{fill:#d2581f;fill-opacity:.75}svg .dot:hover{fill:#000;fill-opacity:1}"
    "svg .unstable{fill:#b86e00}svg .err{fill:#b3261e}"
    "svg .fit{fill:none;stroke:#3b6fb6;stroke-width:2}svg .point{fill:#d2581f}"
    "svg .one{stroke:#1d2430;stroke-dasharray:4 3}"
    "svg .ci{stroke:#3b6fb6;stroke-width:2}svg .differs .ci{stroke:#12325e;stroke-width:3}"
    "svg .ratio{fill:#3b6fb6}svg .differs .ratio{fill:#12325e}"
    "svg .verdict-same{fill:#a7b0bc}svg .verdict-faster{fill:#2e8b57}"
    "svg .verdict-slower{fill:#c0392b}svg .verdict-unknown{fill:#e3e6ea}"
    "svg .verdict-unsure{fill:#e0a526}tr.verdict-unsure td{background:#fdf5e3}"
    "svg .cil{stroke:#1d2430;stroke-width:1.5}"
    ".key{color:#5a6472;font-size:12px;margin:0 0 4px}"
    "dl.legend dt{font-weight:600;margin-top:6px}dl.legend dd{margin:0 0 0 18px}"
    "@media print{svg .dot{fill-opacity:1}}";

/* ------------------------------------------------------------ helpers */

static double fb__html_per_unit(const fb_result *r, size_t e) {
    return r->values[FB_ELAPSED][e] / r->config.batch;
}

static bool fb__html_measured(const fb_result *r) {
    return !r->error && (r->has & FB__BIT(FB_ELAPSED)) && r->values[FB_ELAPSED] && r->epochs > 0 &&
           r->config.batch > 0;
}

/* The result's marks (src/marks.c) as hints after its name. */
static void fb__html_marks(FILE *f, const fb_result *r) {
    if (r->optimized_away)
        fputs(" <span class=\"hint\">optimized away? it costs no more than a loop holding only "
              "<code>fb_do_not_optimize</code></span>",
              f);
    if (r->unresolved)
        fputs(" <span class=\"hint\">not resolved by the clock: its epochs are under 100 clock "
              "resolutions</span>",
              f);
    if (r->thread_median_s && r->threads > 1) { /* a group of threads: each one's own time */
        double lo, hi;
        char l[64], h[64];
        fb__result_thread_range(r, &lo, &hi);
        fb__fmt_fixed(l, sizeof l, lo / r->config.time_unit_s / r->config.batch, 2);
        fb__fmt_fixed(h, sizeof h, hi / r->config.time_unit_s / r->config.batch, 2);
        fprintf(f, " <span class=\"hint\">%zu threads, each %s..%s %s/", r->threads, l, h,
                r->config.time_unit_label);
        fb__svg_text(f, r->config.unit); /* escaped */
        fputs("</span>", f);
    }
}

static bool fb__html_same(const char *a, const char *b) {
    return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* Results i and j belong in one chart and one table. */
static bool fb__html_same_group(const fb_result *a, const fb_result *b) {
    return fb__html_same(a->config.title, b->config.title) &&
           fb__html_same(a->config.unit, b->config.unit) &&
           strcmp(a->config.time_unit_label, b->config.time_unit_label) == 0 &&
           a->config.time_unit_s == b->config.time_unit_s;
}

static int fb__html_cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double fb__html_quantile(const double *sorted, size_t n, double p) {
    if (n == 0) return NAN;
    double h = (double)(n - 1) * p;
    size_t i = (size_t)floor(h);
    if (i + 1 >= n) return sorted[n - 1];
    return sorted[i] + (h - (double)i) * (sorted[i + 1] - sorted[i]);
}

static void fb__html_rect(FILE *f, const char *cls, double x, double y, double w, double h) {
    fprintf(f, "<rect class=\"%s\"", cls);
    fb__svg_attr_num(f, "x", x);
    fb__svg_attr_num(f, "y", y);
    fb__svg_attr_num(f, "width", w > 0 ? w : 0);
    fb__svg_attr_num(f, "height", h > 0 ? h : 0);
}

static void fb__html_svg_open(FILE *f, const char *cls, double h, const char *label) {
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
 * as its tooltip. */
static void fb__html_label(FILE *f, const char *cls, double y, const char *name, double n,
                           const char *extra) {
    fprintf(f, "<text class=\"%s\" text-anchor=\"end\"", cls);
    fb__svg_attr_num(f, "x", FB__H_LABEL - 10);
    fb__svg_attr_num(f, "y", y + 4);
    fputs("><title>", f);
    fb__svg_text(f, name);
    char num[64];
    if (n > 0) {
        fb__svg_fixed(num, sizeof num, n, 0, true);
        fprintf(f, " (N=%s)", num);
    }
    if (extra) fb__svg_text(f, extra);
    fputs("</title>", f);
    fb__svg_text_max(f, name, n > 0 ? FB__H_NAME_CP - 10 : FB__H_NAME_CP);
    if (n > 0) {
        fb__svg_si(num, sizeof num, n, "", 3);
        fprintf(f, " (N=%s)", num);
    }
    fputs("</text>", f);
}

/* ------------------------------------------------------------- header */

static void fb__html_context_row(FILE *f, const char *key, const char *value) {
    fprintf(f, "<tr><th>%s</th><td>", key);
    fb__svg_text(f, value);
    fputs("</td></tr>\n", f);
}

const char *fb__html_style(void) { return fb__html_css; }

static void fb__html_header(FILE *f, const fb_bench *b, const fb__sysinfo *si) {
    size_t n = fb_result_count(b);
    /* the distinct titles, in order of appearance */
    /* The policy forbids every script and every request: the page needs
     * neither, and a name that slipped through escaping could do nothing. */
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          "<meta http-equiv=\"Content-Security-Policy\" "
          "content=\"default-src 'none'; style-src 'unsafe-inline'\">\n"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
          "<meta name=\"generator\" content=\"femtobench ",
          f);
    fb__svg_text(f, si->version);
    fputs("\">\n<title>femtobench", f);
    for (size_t i = 0, shown = 0; i < n && shown < 4; ++i) {
        const fb_result *r = fb_result_at(b, i);
        bool seen = false;
        for (size_t k = 0; k < i && !seen; ++k)
            seen = fb__html_same(fb_result_at(b, k)->config.title, r->config.title);
        if (seen) continue;
        fputs(shown++ ? ", " : ": ", f);
        fb__svg_text_max(f, r->config.title, 60);
    }
    fprintf(f,
            "</title>\n<style>%s</style>\n</head>\n<body>\n<header>\n<h1>femtobench report</h1>\n",
            fb__html_css);
    fputs("<p class=\"sub\">", f);
    size_t titles = 0;
    for (size_t i = 0; i < n; ++i) {
        const fb_result *r = fb_result_at(b, i);
        bool seen = false;
        for (size_t k = 0; k < i && !seen; ++k)
            seen = fb__html_same(fb_result_at(b, k)->config.title, r->config.title);
        if (seen) continue;
        fputs(titles++ ? " &middot; " : "", f);
        fputs("<b>", f);
        fb__svg_text_max(f, r->config.title, FB__H_TEXT_MAX);
        fputs("</b>", f);
    }
    fprintf(f, "%s%zu result%s</p>\n", titles ? " &middot; " : "", n, n == 1 ? "" : "s");

    fputs("<table class=\"context\">\n", f);
    fb__html_context_row(f, "date", si->date);
    fb__html_context_row(f, "femtobench", si->version);
    fb__html_context_row(f, "host", si->host_name);
    char cpu[512];
    snprintf(cpu, sizeof cpu, "%s, %d CPU%s", si->cpu_model, si->num_cpus,
             si->num_cpus == 1 ? "" : "s");
    if (si->mhz_per_cpu > 0)
        snprintf(cpu + strlen(cpu), sizeof cpu - strlen(cpu), ", %lld MHz", si->mhz_per_cpu);
    if (si->cpu_scaling >= 0)
        snprintf(cpu + strlen(cpu), sizeof cpu - strlen(cpu), ", frequency scaling %s",
                 si->cpu_scaling ? "on" : "off");
    fb__html_context_row(f, "CPU", cpu);
    if (si->n_load_avg == 3) {
        char load[200], a[3][32];
        for (int i = 0; i < 3; ++i) fb__svg_fixed(a[i], sizeof a[i], si->load_avg[i], 2, false);
        snprintf(load, sizeof load, "%s %s %s", a[0], a[1], a[2]);
        fb__html_context_row(f, "load average", load);
    }
    char build[600];
    snprintf(build, sizeof build, "%s; flags: %s; %s%s", si->compiler, si->build_flags,
             !(si->library_build & 1)  ? "optimization unknown"
             : (si->library_build & 2) ? "optimized"
                                       : "NOT optimized",
             (si->library_build & 4) ? ", NDEBUG" : "");
    fb__html_context_row(f, "library build", build);
    /* counters: the measures any result recorded besides the time */
    char counters[256] = "";
    fb__mask any = 0;
    for (size_t i = 0; i < n; ++i) any |= fb_result_at(b, i)->has;
    for (int m = FB_ELAPSED + 1; m < FB_MEASURE_COUNT; ++m)
        if (any & FB__BIT(m))
            snprintf(counters + strlen(counters), sizeof counters - strlen(counters), "%s%s",
                     counters[0] ? ", " : "on: ", fb_measure_name((fb_measure)m));
    fb__html_context_row(f, "counters", counters[0] ? counters : "off or unavailable");
    /* -context=key=value (src/context.c); keys are plain ASCII */
    for (size_t i = 0; i < fb__context_count(b); ++i)
        fb__html_context_row(f, fb__context_key(b, i), fb__context_value(b, i));
    fputs("</table>\n", f);

    if (si->env && si->env->count) {
        size_t w = si->env->count < FB__ENV_MAX_WARNINGS ? si->env->count : FB__ENV_MAX_WARNINGS;
        if (fb__process_suppressed()) {
            fprintf(f,
                    "<p class=\"sub\">%zu environment warning%s suppressed "
                    "(FEMTOBENCH_SUPPRESS_WARNINGS or -quiet).</p>\n",
                    w, w == 1 ? "" : "s");
        } else {
            fputs("<div class=\"warnings\"><b>Results may be unstable:</b><ul>\n", f);
            for (size_t i = 0; i < w; ++i) {
                fputs("<li>", f);
                fb__svg_text(f, si->env->w[i].what);
                fputs("<br><span class=\"fix\">", f);
                fb__svg_text(f, si->env->w[i].fix);
                fputs("</span></li>\n", f);
            }
            fputs("</ul></div>\n", f);
        }
    }
    fputs("</header>\n<main>\n", f);
}

/* ------------------------------------------------------ strip/box chart */

/* One chart for the results idx[0..m) (one title/unit group). */
static int fb__html_strip(FILE *f, const fb_bench *b, const size_t *idx, size_t m, size_t gno) {
    if (m > FB__H_MAX_ROWS) m = FB__H_MAX_ROWS; /* the caller says so under the chart */
    double lo = INFINITY, hi = -INFINITY;
    size_t max_epochs = 0;
    for (size_t k = 0; k < m; ++k) {
        const fb_result *r = fb_result_at(b, idx[k]);
        if (!fb__html_measured(r)) continue;
        if (r->epochs > max_epochs) max_epochs = r->epochs;
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

    double *sorted = malloc((max_epochs ? max_epochs : 1) * sizeof *sorted);
    if (!sorted) return FB_ENOMEM;

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
                       unstable ? " - unstable: err% >= 5" : NULL);
        if (!fb__html_measured(r)) {
            fprintf(f, "<text class=\"err\"");
            fb__svg_attr_num(f, "x", FB__H_LABEL + 6);
            fb__svg_attr_num(f, "y", yc + 4);
            fputs(">error: ", f);
            fb__svg_text_max(f, r->error ? r->error : "not measured", 90);
            fputs("</text></g>\n", f);
            continue;
        }
        size_t ne = 0;
        for (size_t e = 0; e < r->epochs; ++e) {
            double v = fb__html_per_unit(r, e);
            if (isfinite(v)) sorted[ne++] = v;
        }
        qsort(sorted, ne, sizeof *sorted, fb__html_cmp_double);
        double q1 = fb__html_quantile(sorted, ne, 0.25), q3 = fb__html_quantile(sorted, ne, 0.75);
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
    free(sorted);
    return FB_OK;
}

/* --------------------------------------------------------------- table */

enum {
    FB__HC_REL,
    FB__HC_N,
    FB__HC_TIME,
    FB__HC_RATE,
    FB__HC_ERR,
    FB__HC_INS,
    FB__HC_CYC,
    FB__HC_IPC,
    FB__HC_BRA,
    FB__HC_MISS,
    FB__HC_TOTAL,
    FB__HC_COLS
};

/* The markdown table's columns (src/report_markdown.c), shown when any row
 * of the group has them. */
static bool fb__html_has_col(const fb_result *r, int c) {
    switch (c) {
    case FB__HC_REL:
        return r->config.relative;
    case FB__HC_N:
        return r->config.complexity_n > 0;
    case FB__HC_INS:
        return fb_result_has(r, FB_INSTRUCTIONS);
    case FB__HC_CYC:
        return fb_result_has(r, FB_CPUCYCLES);
    case FB__HC_IPC:
        return fb_result_has(r, FB_INSTRUCTIONS) && fb_result_has(r, FB_CPUCYCLES);
    case FB__HC_BRA:
        return fb_result_has(r, FB_BRANCHINSTRUCTIONS);
    case FB__HC_MISS:
        return fb_result_has(r, FB_BRANCHINSTRUCTIONS) && fb_result_has(r, FB_BRANCHMISSES);
    default:
        return true;
    }
}

static void fb__html_cell(FILE *f, double v, int decimals, const char *suffix) {
    char num[128];
    fb__svg_fixed(num, sizeof num, v, decimals, true);
    fprintf(f, "<td>%s%s</td>", num, isfinite(v) ? suffix : "");
}

static void fb__html_table(FILE *f, const fb_bench *b, const size_t *idx, size_t m) {
    bool cols[FB__HC_COLS] = {false};
    const fb_result *base = NULL;
    for (size_t k = 0; k < m; ++k) {
        const fb_result *r = fb_result_at(b, idx[k]);
        for (int c = 0; c < FB__HC_COLS; ++c) cols[c] = cols[c] || fb__html_has_col(r, c);
        if (!base && fb__html_measured(r)) base = r;
    }
    const fb_result *r0 = fb_result_at(b, idx[0]);
    fputs("<table class=\"results\">\n<thead><tr>", f);
    for (int c = 0; c < FB__HC_COLS; ++c) {
        if (!cols[c]) continue;
        fputs("<th>", f);
        switch (c) {
        case FB__HC_REL:
            fputs("relative", f);
            break;
        case FB__HC_N:
            fputs("complexityN", f);
            break;
        case FB__HC_TIME:
            fb__svg_text(f, r0->config.time_unit_label);
            fputc('/', f);
            fb__svg_text_max(f, r0->config.unit, FB__H_TEXT_MAX);
            break;
        case FB__HC_RATE:
            fb__svg_text_max(f, r0->config.unit, FB__H_TEXT_MAX);
            fputs("/s", f);
            break;
        case FB__HC_ERR:
            fputs("err%", f);
            break;
        case FB__HC_INS:
        case FB__HC_CYC:
        case FB__HC_BRA:
            fputs(c == FB__HC_INS ? "ins/" : c == FB__HC_CYC ? "cyc/" : "bra/", f);
            fb__svg_text_max(f, r0->config.unit, FB__H_TEXT_MAX);
            break;
        case FB__HC_IPC:
            fputs("IPC", f);
            break;
        case FB__HC_MISS:
            fputs("miss%", f);
            break;
        default:
            fputs("total", f);
            break;
        }
        fputs("</th>", f);
    }
    /* user counters (src/ucounter.c): a column per label in the group */
    fb__ucounter_cols ucols;
    ucols.n = 0;
    for (size_t k = 0; k < m; ++k) fb__ucounter_cols_add(&ucols, fb_result_at(b, idx[k]));
    for (size_t u = 0; u < ucols.n; ++u) {
        fputs("<th>", f);
        fb__svg_text(f, ucols.label[u]);
        fputs("</th>", f);
    }
    fputs("<th class=\"name\">", f);
    fb__svg_text_max(f, r0->config.title, FB__H_TEXT_MAX);
    fputs("</th></tr></thead>\n<tbody>\n", f);
    bool quiet = fb__process_suppressed();
    for (size_t k = 0; k < m; ++k) {
        const fb_result *r = fb_result_at(b, idx[k]);
        bool ok = fb__html_measured(r);
        bool unstable = fb_result_unstable(r) && !quiet;
        fprintf(f, "<tr%s>", !ok ? " class=\"error\"" : unstable ? " class=\"unstable\"" : "");
        double per_unit = ok ? r->summary[FB_ELAPSED].median / r->config.batch : NAN;
        for (int c = 0; c < FB__HC_COLS; ++c) {
            if (!cols[c]) continue;
            if (c == FB__HC_N) {
                if (r->config.complexity_n > 0)
                    fb__html_cell(f, r->config.complexity_n, 0, "");
                else
                    fputs("<td>-</td>", f);
                continue;
            }
            if (!ok || !fb__html_has_col(r, c)) {
                fputs("<td>-</td>", f);
                continue;
            }
            switch (c) {
            case FB__HC_REL: {
                double bu = base->summary[FB_ELAPSED].median / base->config.batch;
                fb__html_cell(f, per_unit > 0 ? 100.0 * bu / per_unit : NAN, 1, "%");
                break;
            }
            case FB__HC_TIME:
                fb__html_cell(f, per_unit / r->config.time_unit_s, 2, "");
                break;
            case FB__HC_RATE:
                fb__html_cell(f, per_unit > 0 ? 1.0 / per_unit : NAN, 2, "");
                break;
            case FB__HC_ERR:
                fb__html_cell(f, r->summary[FB_ELAPSED].err_pct, 1, "%");
                break;
            case FB__HC_INS:
                fb__html_cell(f, r->summary[FB_INSTRUCTIONS].median / r->config.batch, 2, "");
                break;
            case FB__HC_CYC:
                fb__html_cell(f, r->summary[FB_CPUCYCLES].median / r->config.batch, 2, "");
                break;
            case FB__HC_IPC: {
                double cyc = r->summary[FB_CPUCYCLES].median;
                fb__html_cell(f, cyc > 0 ? r->summary[FB_INSTRUCTIONS].median / cyc : NAN, 3, "");
                break;
            }
            case FB__HC_BRA:
                fb__html_cell(f, r->summary[FB_BRANCHINSTRUCTIONS].median / r->config.batch, 2, "");
                break;
            case FB__HC_MISS: {
                double bra = r->summary[FB_BRANCHINSTRUCTIONS].median;
                fb__html_cell(f, bra > 0 ? 100.0 * r->summary[FB_BRANCHMISSES].median / bra : NAN,
                              1, "%");
                break;
            }
            default:
                fb__html_cell(f, r->total_s, 2, "");
                break;
            }
        }
        for (size_t u = 0; u < ucols.n; ++u) {
            double v = ok ? fb__ucounter_col_value(r, ucols.label[u]) : NAN;
            if (isfinite(v))
                fb__html_cell(f, v, 2, "");
            else
                fputs("<td>-</td>", f);
        }
        fputs("<td class=\"name\"><code>", f);
        fb__svg_text(f, r->name);
        fputs("</code>", f);
        if (!ok) {
            fputs(" <span class=\"errmsg\">error: ", f);
            fb__svg_text(f, r->error ? r->error : "not measured");
            fputs("</span>", f);
        } else if (unstable) {
            double avg = r->epochs ? (double)r->total_iterations / (double)r->epochs : 0;
            char a[64], s[64];
            fb__svg_fixed(a, sizeof a, avg, 1, false);
            fb__svg_fixed(s, sizeof s, ceil(avg * 10), 0, false);
            fprintf(f,
                    " <span class=\"hint\">unstable with ~%s iters; increase "
                    "<code>min_epoch_iterations</code> to e.g. %s</span>",
                    a, s);
        }
        if (ok) fb__html_marks(f, r);
        fputs("</td></tr>\n", f);
    }
    fputs("</tbody></table>\n", f);
}

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

/* The log-log chart of median time per call against N for the fit group of
 * result `first` (its name, or a family's series: src/registry.c),
 * with the best fit, and the fit table. */
static void fb__html_complexity(FILE *f, const fb_result *const *rs, size_t n, size_t first) {
    char name[256]; /* the group's name: the series' for a family */
    size_t len = fb__fit_family_wide(rs, n, first) ? fb__result_series_len(rs[first])
                                                   : strlen(rs[first]->name);
    snprintf(name, sizeof name, "%.*s", (int)len, rs[first]->name);
    double nlo = INFINITY, nhi = -INFINITY, ylo = INFINITY, yhi = -INFINITY;
    size_t points = 0;
    for (size_t i = 0; i < n; ++i) {
        const fb_result *r = rs[i];
        if (fb__fit_group_first(rs, n, i) != first || !fb__html_measured(r)) continue;
        double y = r->summary[FB_ELAPSED].median;
        if (!(y > 0) || !isfinite(r->config.complexity_n)) continue;
        ++points;
        if (r->config.complexity_n < nlo) nlo = r->config.complexity_n;
        if (r->config.complexity_n > nhi) nhi = r->config.complexity_n;
        if (y < ylo) ylo = y;
        if (y > yhi) yhi = y;
    }
    fputs("<section class=\"complexity\">\n<h2>Complexity: <code>", f);
    fb__svg_text(f, name);
    fputs("</code></h2>\n", f);
    if (!points) {
        fputs("<p>No measured result with a complexity N.</p>\n</section>\n", f);
        return;
    }
    fb__fit_set set;
    if (fb__fit_group(rs, n, first, &set) != FB_OK) set.n = 0;
    const fb_fit *fits = set.fits;
    size_t nf = set.n;
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
    snprintf(label, sizeof label, "%s: time per call against N, log-log", name);
    fb__html_svg_open(f, "loglog", FB__H_CX_H, label);
    fb__svg_axis_y(f, &sy, FB__H_CX_L, FB__H_W - FB__H_RIGHT, "s");
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
        fputs("\"><title>best fit: ", f);
        fb__svg_text(f, fits[0].name);
        fputs("</title></path>\n", f);
    }
    for (size_t i = 0; i < n; ++i) {
        const fb_result *r = rs[i];
        if (fb__fit_group_first(rs, n, i) != first || !fb__html_measured(r)) continue;
        double y = r->summary[FB_ELAPSED].median;
        if (!(y > 0) || !isfinite(r->config.complexity_n)) continue;
        fputs("<circle class=\"point\"", f);
        fb__svg_attr_num(f, "cx", fb__svg_at(&sx, r->config.complexity_n));
        fb__svg_attr_num(f, "cy", fb__svg_at(&sy, y));
        char nn[64], t[64], e[64];
        fb__svg_fixed(nn, sizeof nn, r->config.complexity_n, 0, true);
        fb__svg_si(t, sizeof t, y, "s", 6);
        fb__svg_fixed(e, sizeof e, r->summary[FB_ELAPSED].err_pct, 1, false);
        fprintf(f, " r=\"4\"><title>N=%s: %s per call (median, err%% %s%%)</title></circle>\n", nn,
                t, e);
    }
    fputs("<text class=\"axistitle\" text-anchor=\"middle\"", f);
    fb__svg_attr_num(f, "x", (FB__H_CX_L + FB__H_W - FB__H_RIGHT) / 2);
    fb__svg_attr_num(f, "y", FB__H_CX_H - 6);
    fputs(">N (log scale); time per call (log scale)", f);
    if (nf) {
        fputs("; line: best fit ", f);
        fb__svg_text(f, fits[0].name);
    }
    fputs("</text>\n</svg>\n", f);
    if (!nf) {
        fputs("<p>A complexity fit needs at least two distinct N.</p>\n</section>\n", f);
        return;
    }
    fputs("<table class=\"fits\">\n<thead><tr><th class=\"name\">complexity</th>"
          "<th>coefficient</th><th>constant</th><th>err%</th></tr></thead>\n<tbody>\n",
          f);
    for (size_t k = 0; k < nf; ++k) {
        char c[64], k0[64];
        fb__fmt_double(c, sizeof c, fits[k].coefficient, 6);
        fb__svg_si(k0, sizeof k0, fits[k].constant, "s", 4);
        fprintf(f, "<tr%s><td class=\"name\">%s%s</td><td>%s s</td><td>%s</td>",
                k == 0 ? " class=\"best\"" : "", fits[k].name, k == 0 ? " (best)" : "", c, k0);
        fb__html_cell(f, fits[k].err_pct, 1, "%");
        fputs("</tr>\n", f);
    }
    fputs("</tbody></table>\n", f);
    if (strcmp(fits[0].name, "O(1)") == 0)
        fputs("<p class=\"key\">The time did not depend on N: no growing model fits significantly "
              "better than O(1).</p>\n",
              f);
    fputs("</section>\n", f);
}

/* ------------------------------------------------------------- legend */

static void fb__html_legend(FILE *f) {
    fputs("<section class=\"legend\">\n<h2>How to read this report</h2>\n<dl class=\"legend\">\n"
          "<dt>dots</dt><dd>one per recorded epoch: the epoch's time divided by its iterations "
          "and the batch, i.e. the time per unit. Hover a dot for its exact value.</dd>\n"
          "<dt>box and bar</dt><dd>the box spans the quartiles of the epochs (the middle half "
          "lies inside it); the dark bar is the median, the number in the table.</dd>\n"
          "<dt>axis</dt><dd>one axis per chart, shared by its rows; logarithmic when the "
          "values span more than 100x (the axis title says so). A linear axis starts at 0 "
          "unless all values lie within a factor of 2.</dd>\n"
          "<dt>err%</dt><dd>the median absolute percentage error of the epochs around the "
          "median: half of the epochs lie within it. 5% or more marks a row unstable (orange "
          "name, shaded row) with a hint.</dd>\n"
          "<dt>table</dt><dd>the markdown table's columns: time and rate per unit (medians), "
          "err%, counters per unit where available, total seconds measured.</dd>\n"
          "<dt>complexity</dt><dd>median time per call against N on log-log axes; the line is "
          "the best fit (docs/complexity.md), the table lists every model, best first.</dd>\n"
          "</dl>\n</section>\n",
          f);
}

/* --------------------------------------------------------- the page */

/* A paired comparison (fb_compare) as a forest plot. */
static void fb__html_comparison(FILE *f, const fb_comparison *c) {
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
    char title[256];
    snprintf(title, sizeof title, "%.120s: speed relative to %.30s (higher is faster)",
             fb_comparison_title(c) ? fb_comparison_title(c) : "comparison", n ? names[0] : "");
    fb__html_forest(f, title, n, names, v, v + n, v + 2 * n);
    for (size_t i = 0; i < n; ++i) {
        const fb_result *r = fb_comparison_result(c, i);
        if (!r || !(r->optimized_away || r->unresolved)) continue;
        fputs("<p class=\"marks\"><code>", f);
        fb__svg_text(f, names[i]);
        fputs("</code>:", f);
        fb__html_marks(f, r);
        fputs("</p>\n", f);
    }
    free(names);
    free(v);
}

/* The change against a baseline (kept by the runner with the suite). */
static void fb__html_baseline(FILE *f, const fb__change_view *v) {
    int *verdict = malloc(v->n * sizeof *verdict);
    if (!verdict) return;
    for (size_t i = 0; i < v->n; ++i) {
        switch (v->verdict[i]) {
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
    fb__html_change_bars(f, title, v->n, (const char *const *)v->names, v->base_s, v->now_s, v->pct,
                         v->lo_pct, v->hi_pct, verdict);
    free(verdict);
}

/* With -repetitions: each benchmark's median over the passes (each pass a
 * process) and the spread between them, as the runner's summary. */
static int fb__html_passes(FILE *f, const fb_bench *b) {
    fb__pass_series ps;
    if (fb__passes_series(b, &ps) != FB_OK) return FB_ENOMEM;
    if (ps.max_passes > 1) {
        fprintf(f,
                "<section class=\"passes\">\n<h2>Over %u passes</h2>\n<table>\n<tr>"
                "<th>benchmark</th><th>median ns/unit</th><th>between passes</th>"
                "<th>passes</th><th>min ns/unit</th><th>max ns/unit</th></tr>\n",
                ps.max_passes);
        for (size_t s = 0; s < ps.n; ++s) {
            const fb_result *r = fb_result_at(b, ps.members[ps.start[s]]);
            const fb__pass_summary *sum = &ps.sum[s];
            if (sum->passes == 0) continue;
            fputs("<tr><td><code>", f);
            fb__svg_text(f, r->name);
            fputs("</code></td>", f);
            fb__html_cell(f, sum->median * 1e9, 2, "");
            fb__html_cell(f, sum->err_pct, 1, "%");
            fprintf(f, "<td>%zu</td>", sum->passes);
            fb__html_cell(f, sum->min * 1e9, 2, "");
            fb__html_cell(f, sum->max * 1e9, 2, "");
            fputs("</tr>\n", f);
        }
        fputs("</table>\n</section>\n", f);
    }
    fb__passes_series_free(&ps);
    return FB_OK;
}

int fb__write_html_with(const fb_bench *b, FILE *f, const fb__sysinfo *si) {
    if (!b || !f || !si) return FB_EINVAL;
    size_t n = fb_result_count(b);
    size_t *idx = malloc((n ? n : 1) * sizeof *idx);
    bool *done = calloc(n ? n : 1, sizeof *done);
    if (!idx || !done) {
        free(idx);
        free(done);
        return FB_ENOMEM;
    }
    fb__html_header(f, b, si);
    int rc = FB_OK;
    if (n == 0) fputs("<p>No results.</p>\n", f);
    /* one chart and table per title/unit group, groups in order of their
     * first result, rows in the order they ran */
    for (size_t i = 0, gno = 0; i < n && rc == FB_OK; ++i) {
        if (done[i]) continue;
        size_t m = 0;
        for (size_t j = i; j < n; ++j)
            if (!done[j] && fb__html_same_group(fb_result_at(b, i), fb_result_at(b, j)))
                idx[m++] = j, done[j] = true;
        const fb_result *r = fb_result_at(b, i);
        fprintf(f, "<section class=\"group\" id=\"group-%zu\">\n<h2>", ++gno);
        fb__svg_text(f, r->config.title);
        fputs(" <small>(time per ", f);
        fb__svg_text(f, r->config.unit);
        fprintf(f, ", %zu benchmark%s)</small></h2>\n", m, m == 1 ? "" : "s");
        rc = fb__html_strip(f, b, idx, m, gno);
        if (rc != FB_OK) break;
        if (m > FB__H_MAX_ROWS)
            fprintf(f,
                    "<p class=\"key\">The chart shows the first %d of %zu benchmarks; the table "
                    "lists every one.</p>\n",
                    FB__H_MAX_ROWS, m);
        fputs("<p class=\"key\">dots: epochs &middot; box: quartiles &middot; bar: median "
              "&middot; hover a dot for its value</p>\n",
              f);
        fb__html_table(f, b, idx, m);
        fputs("</section>\n", f);
    }
    if (rc == FB_OK) rc = fb__html_passes(f, b);
    /* paired comparisons: a forest plot each (ratio and interval, line at 1) */
    for (size_t c = 0; rc == FB_OK && c < fb_comparison_count(b); ++c)
        fb__html_comparison(f, fb_comparison_at(b, c));
    /* a -baseline run: the change table with bars coloured by verdict */
    if (rc == FB_OK && b->change && b->change->n) fb__html_baseline(f, b->change);
    /* one chart per fit group: a name, or a family's series */
    const fb_result **all = malloc((n ? n : 1) * sizeof *all);
    if (!all) rc = FB_ENOMEM;
    for (size_t i = 0; i < n && all; ++i) all[i] = fb_result_at(b, i);
    for (size_t i = 0; i < n && rc == FB_OK; ++i)
        if (all[i]->name && fb__fit_group_first(all, n, i) == i) fb__html_complexity(f, all, n, i);
    free(all);
    free(idx);
    free(done);
    if (rc != FB_OK) return rc;
    fb__html_legend(f);
    fputs("</main>\n</body>\n</html>\n", f);
    return fb__writer_finish(f);
}

int fb_write_html(const fb_bench *b, FILE *f) {
    if (!b || !f) return FB_EINVAL;
    return fb__write_html_with(b, f, fb__process_sysinfo());
}
