/* Passes of the suite: their order, and the summary over passes of each
 * benchmark's value (median, spread between passes, modes). */
#include "passes.h"

#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void fb__passes_order(size_t *order, size_t count, unsigned pass, unsigned passes) {
    for (size_t i = 0; i < count; ++i) order[i] = i;
    if (passes <= 1 || count < 2) return;
    fb_rng rng;
    fb_rng_seed(&rng, 0x7061737365730000ULL + pass); /* "passes" + the pass */
    for (size_t i = count - 1; i > 0; --i) {         /* Fisher-Yates */
        size_t j = (size_t)(fb_rng_uniform01(&rng) * (double)(i + 1));
        if (j > i) j = i;
        size_t t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
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
    fb__median(v, n); /* sorts v */
    out->min = v[0];
    out->max = v[n - 1];
    fb__passes_spread(v, n, scratch, &out->median, &out->err_pct);
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
