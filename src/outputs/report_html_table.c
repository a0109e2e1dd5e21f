/* The HTML report's results table of one title/unit group (src/outputs/report_html.c
 * calls it under the group's chart): the markdown table's columns (time and
 * rate per unit, err%, counters, total), user counters, the name with its
 * marks or error. Reads stored summaries, computes nothing. */
#include "report_html.h"

#include "process.h"
#include "result.h"
#include "svg.h"
#include "text.h"     /* N as given */
#include "ucounter.h" /* user counters: a column each */

#include <math.h>
#include <string.h>

/* --------------------------------------------------------------- table */

enum {
    FB__HC_REL,
    FB__HC_N,
    FB__HC_TIME,
    FB__HC_RATE,
    FB__HC_ERR,
    FB__HC_CPU, /* the thread's CPU time per unit (a group: per thread) */
    FB__HC_INS,
    FB__HC_CYC,
    FB__HC_IPC,
    FB__HC_BRA,
    FB__HC_MISS,
    FB__HC_TOTAL,
    FB__HC_COLS
};

/* The markdown table's columns (src/outputs/report_markdown.c), shown when any row
 * of the group has them. */
static bool fb__html_has_col(const fb_result *r, int c) {
    switch (c) {
    case FB__HC_REL:
        return r->config.relative;
    case FB__HC_N:
        return r->config.complexity_n > 0;
    case FB__HC_CPU:
        return fb_result_has(r, FB_CPUTIME);
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

void fb__html_table(FILE *f, const fb_bench *b, const size_t *idx, size_t m, bool passes) {
    bool cols[FB__HC_COLS] = {false};
    const fb_result *base = NULL;
    for (size_t k = 0; k < m; ++k) {
        const fb_result *r = fb_result_at(b, idx[k]);
        for (int c = 0; c < FB__HC_COLS; ++c) cols[c] = cols[c] || fb__html_has_col(r, c);
        if (!base && fb__html_measured(r)) base = r;
    }
    const fb_result *r0 = fb_result_at(b, idx[0]);
    fputs("<table class=\"results\">\n<thead><tr>", f);
    if (passes) fputs("<th>pass</th>", f); /* -repetitions: which pass the row is */
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
        case FB__HC_ERR: /* what it is not, where the reader looks (the legend says more) */
            fputs("<abbr title=\"the spread of this process's epochs, not of the next "
                  "process\">err%</abbr>",
                  f);
            break;
        case FB__HC_CPU:
            fputs("CPU ", f);
            fb__svg_text(f, r0->config.time_unit_label);
            fputc('/', f);
            fb__svg_text_max(f, r0->config.unit, FB__H_TEXT_MAX);
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
    /* user counters (src/handle/ucounter.c): a column per label in the group */
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
        if (passes) fprintf(f, "<td class=\"pass\">%u</td>", r->config.pass + 1);
        double per_unit = ok ? r->summary[FB_ELAPSED].median / r->config.batch : NAN;
        for (int c = 0; c < FB__HC_COLS; ++c) {
            if (!cols[c]) continue;
            if (c == FB__HC_N) {
                if (r->config.complexity_n > 0) { /* as given: 100.25, not 100 */
                    char num[64];
                    fb__fmt_n(num, sizeof num, r->config.complexity_n, true);
                    fprintf(f, "<td>%s</td>", num);
                } else
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
            case FB__HC_CPU:
                fb__html_cell(f, fb_result_cpu_median(r) / r->config.time_unit_s, 2, "");
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
            else if (isinf(v)) /* a rate too large for a double: marked, not left out */
                fputs(v > 0 ? "<td>inf</td>" : "<td>-inf</td>", f);
            else
                fputs("<td>-</td>", f);
        }
        fputs("<td class=\"name\"><code>", f);
        fb__svg_text(f, r->name);
        fputs("</code>", f);
        if (r->label) { /* fb_set_label */
            fputs(" <span class=\"label\">[", f);
            fb__svg_text(f, r->label);
            fputs("]</span>", f);
        }
        if (!ok) {
            fputs(" <span class=\"errmsg\">error: ", f);
            fb__svg_text(f, r->error ? r->error : "not measured");
            fputs("</span>", f);
        } else if (unstable && r->disturbed && !fb_result_descheduled(r)) {
            /* the machine's doing: longer epochs would only be hit more */
            fprintf(f,
                    " <span class=\"hint\">unstable: %zu of %zu epochs were descheduled (wall &gt; "
                    "CPU time, or a context switch); the median uses the other %zu</span>",
                    r->disturbed, r->epochs, r->used);
        } else if (unstable) {
            fputs(" <span class=\"hint\">unstable: its epochs disagree; more epochs "
                  "(<code>-min_time</code>) or passes (<code>-repetitions</code>) show whether the "
                  "median holds</span>",
                  f);
        }
        if (ok) fb__html_marks(f, r);
        fputs("</td></tr>\n", f);
    }
    fputs("</tbody></table>\n", f);
}
