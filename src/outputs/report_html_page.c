/* The HTML report's frame (src/outputs/report_html.c assembles the page): the
 * style sheet, the header (titles, date, version, machine, counters,
 * context, the machine's warnings) and the legend. Reads results and the
 * machine context, computes nothing. */
#include "report_html.h"

#include "bench.h"
#include "context.h" /* -context: rows of the context table */
#include "numfmt.h"
#include "passes.h" /* -repetitions: how many passes */
#include "process.h"
#include "stats.h" /* fit groups of families (src/stats/complexity_group.c) */
#include "result.h"
#include "svg.h"
#include "text.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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
    "p.verdicts{font-size:15px;margin:4px 0 6px}"
    "p.verdicts .verdict-slower{color:#b3261e;font-weight:600}"
    "p.verdicts .verdict-faster{color:#1e7a46;font-weight:600}"
    "details.each-pass{margin:28px 0 6px}details.each-pass>summary{font-size:17px;"
    "font-weight:600;cursor:pointer}td.pass{text-align:center;color:#5a6472}"
    "p.verdicts .none{color:inherit;font-weight:400}"
    "@media print{svg .dot{fill-opacity:1}}";

/* ------------------------------------------------------------- header */

static void fb__html_context_row(FILE *f, const char *key, const char *value) {
    fprintf(f, "<tr><th>%s</th><td>", key);
    fb__svg_text(f, value);
    fputs("</td></tr>\n", f);
}

const char *fb__html_style(void) { return fb__html_css; }

void fb__html_header(FILE *f, const fb_bench *b, const fb__sysinfo *si) {
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
    fprintf(f, "%s%zu result%s", titles ? " &middot; " : "", n, n == 1 ? "" : "s");
    unsigned passes = fb__passes_max(b); /* -repetitions (src/outputs/passes.c) */
    if (passes > 1) fprintf(f, " in %u passes", passes);
    fputs("</p>\n", f);

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
    fb__html_context_row(f, "OS", si->os ? si->os : "unknown");
    fb__html_context_row(f, "architecture", si->arch ? si->arch : "unknown");
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
        if ((any & FB__BIT(m)) && m != FB_CPUTIME) /* CPU time is a column, not a counter */
            snprintf(counters + strlen(counters), sizeof counters - strlen(counters), "%s%s",
                     counters[0] ? ", " : "on: ", fb_measure_name((fb_measure)m));
    fb__html_context_row(f, "counters", counters[0] ? counters : "off or unavailable");
    /* -context=key=value (src/handle/context.c); keys are plain ASCII */
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

/* ------------------------------------------------------------- legend */

void fb__html_legend(FILE *f) {
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
          "name, shaded row) with a hint. It is the spread inside this process, <b>not</b> "
          "where the next process lands: on a shared machine the next process's median moved "
          "0.6x to 200x err% (docs/performance.md). For that spread run several processes "
          "(<code>-repetitions=5</code>: the summary's \"between passes\").</dd>\n"
          "<dt>table</dt><dd>the markdown table's columns: time and rate per unit (medians), "
          "err%, counters per unit where available, total seconds measured.</dd>\n"
          "<dt>complexity</dt><dd>median time per call (under -valgrind: exact instructions "
          "per call) against N on log-log axes; the line is "
          "the best fit (docs/complexity.md), the table lists every model, best first.</dd>\n"
          "</dl>\n</section>\n",
          f);
}
