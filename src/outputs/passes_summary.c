/* The summary over passes of each benchmark's value (median, spread
 * between passes, modes) and of what the writers report over passes
 * (Google Benchmark's aggregates, Callgrind's counts per unit). */
#include "passes_summary.h"

#include "report_gbench.h" /* the time unit Google Benchmark names */
#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A pass that measured a time: what Google Benchmark's rows count as a
 * repetition. */
static bool fb__passes_timed(const fb_result *r) {
    return !r->error && (r->has & FB__BIT(FB_ELAPSED)) && r->values[FB_ELAPSED] && r->epochs;
}

void fb__passes_summary_range(double *v, size_t n, fb__pass_range *out) {
    out->n = n;
    out->median = out->min = out->max = NAN;
    if (!n) return;
    out->median = fb__median(v, n); /* sorts v */
    out->min = v[0];
    out->max = v[n - 1];
}

void fb__passes_aggregate(const fb_result *const *rs, size_t n, double *scratch,
                          fb__pass_summary *out) {
    for (int g = 0; g < FB_VG_MEASURE_COUNT; ++g) { /* exact counts per unit */
        size_t k = 0;
        for (size_t x = 0; x < n; ++x) {
            double c = rs[x]->error ? NAN : fb_result_valgrind(rs[x], (fb_vg_measure)g);
            if (isfinite(c)) scratch[k++] = c / rs[x]->config.batch;
        }
        fb__passes_summary_range(scratch, k, &out->counted[g]);
    }
    out->timed = 0;
    for (size_t x = 0; x < n; ++x) out->timed += fb__passes_timed(rs[x]);
    double per_unit = n ? 1.0 / rs[0]->config.batch : NAN;
    for (int m = 0; m < FB_MEASURE_COUNT; ++m) {
        size_t k = 0;
        for (size_t x = 0; x < n; ++x) {
            const fb_result *r = rs[x];
            if (!fb__passes_timed(r) || !(r->has & FB__BIT(m)) || !r->values[m]) continue;
            scratch[k++] = m == FB_ELAPSED ? r->summary[m].median : r->summary[m].median * per_unit;
        }
        out->all[m] = k > 0 && k == out->timed;
        fb__spread_of(scratch, k, &out->over[m]);
    }
    const char *label;
    double tu_s = 1e-9;
    if (n) fb__gb_unit(rs[0], &label, &tu_s);
    double t_scale = 1.0 / tu_s;
    size_t k = 0;
    for (size_t x = 0; x < n; ++x)
        if (fb__passes_timed(rs[x])) scratch[k++] = rs[x]->summary[FB_ELAPSED].median * t_scale;
    fb__spread_of(scratch, k, &out->gb_time);
    k = 0;
    for (size_t x = 0; x < n; ++x)
        if (fb__passes_timed(rs[x]) && rs[x]->summary[FB_ELAPSED].median > 0)
            scratch[k++] = rs[0]->config.batch / rs[x]->summary[FB_ELAPSED].median;
    fb__spread_of(scratch, k, &out->rate);
}

/* Median and MdAPE of sorted v[0..n) (scratch: n doubles). */
static void fb__passes_spread(const double *v, size_t n, double *scratch, double *median,
                              double *err) {
    memcpy(scratch, v, n * sizeof *v);
    *median = fb__median(scratch, n);
    *err = n > 1 ? fb__mdape_pct(v, n, *median, scratch) : 0;
}

void fb__passes_summarize(double *v, size_t n, fb__pass_summary *out) {
    memset(out, 0, sizeof *out);
    out->passes = n;
    out->median = out->err_pct = out->min = out->max = NAN;
    if (n == 0) return;
    double *scratch = malloc(n * sizeof *scratch);
    if (!scratch) return;
    out->median = fb__median(v, n); /* sorts v */
    out->min = v[0];
    out->max = v[n - 1];
    /* between passes: the spread the next process is expected to have, not
     * the passes' own (docs/design.md, "Passes") */
    out->err_pct = fb__next_spread_pct(v, n);
    /* the largest relative gap between neighbours */
    size_t cut = 0;
    double gap = 0;
    for (size_t i = 1; i < n; ++i) {
        double g = v[i - 1] > 0 ? v[i] / v[i - 1] - 1 : 0;
        if (g > gap) gap = g, cut = i;
    }
    if (cut >= FB__PASSES_MODE_MIN && n - cut >= FB__PASSES_MODE_MIN &&
        gap >= FB__PASSES_MODE_GAP) {
        double m0, e0, m1, e1;
        fb__passes_spread(v, cut, scratch, &m0, &e0);
        fb__passes_spread(v + cut, n - cut, scratch, &m1, &e1);
        double inside = (e0 > e1 ? e0 : e1) / 100;
        if (gap >= 4 * inside) {
            out->two_modes = true;
            out->mode[0] = m0, out->mode[1] = m1;
            out->mode_n[0] = cut, out->mode_n[1] = n - cut;
            out->mode_err[0] = e0, out->mode_err[1] = e1;
        }
    }
    free(scratch);
}
