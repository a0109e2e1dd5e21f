/* Statistics over epochs: median, err% (MdAPE), min, max, mean, totals.
 * Definitions in docs/design.md ("Statistics"). */
#include "stats.h"

#include "disturb.h"
#include "marks.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int fb__dbl_cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double fb__quantile_sorted(const double *sorted, size_t n, double p) {
    if (n == 0) return NAN;
    double h = (double)(n - 1) * p;
    size_t i = (size_t)floor(h);
    if (i + 1 >= n) return sorted[n - 1];
    return sorted[i] + (h - (double)i) * (sorted[i + 1] - sorted[i]);
}

double fb__median(double *v, size_t n) {
    if (n == 0) return NAN;
    qsort(v, n, sizeof *v, fb__dbl_cmp);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Median absolute percentage error around the median:
 * 100 * median_i |v_i - m| / |m|. 0 when m == 0 and all v_i == 0. */
double fb__mdape_pct(const double *v, size_t n, double median, double *scratch) {
    if (n == 0) return NAN;
    for (size_t i = 0; i < n; ++i) {
        double d = fabs(v[i] - median);
        scratch[i] = median != 0 ? d / fabs(median) : (d == 0 ? 0 : INFINITY);
    }
    return 100.0 * fb__median(scratch, n);
}

double fb__next_spread_pct(const double *v, size_t n) {
    if (n < 2) return 0;
    double sum = 0, ss = 0;
    for (size_t i = 0; i < n; ++i) sum += log(v[i] > 1e-300 ? v[i] : 1e-300);
    double mean = sum / (double)n;
    for (size_t i = 0; i < n; ++i) {
        double d = log(v[i] > 1e-300 ? v[i] : 1e-300) - mean;
        ss += d * d;
    }
    double s = sqrt(ss / (double)(n - 1));
    return 100.0 * expm1(0.6744897501960817 * s * sqrt(1 + 1 / (double)n));
}

void fb__spread_of(double *v, size_t n, fb__spread *out) {
    double sum = 0, ss = 0;
    for (size_t i = 0; i < n; ++i) sum += v[i];
    double mean = sum / (double)n;
    for (size_t i = 0; i < n; ++i) ss += (v[i] - mean) * (v[i] - mean);
    out->n = n;
    out->v[FB__SPREAD_MEAN] = n ? mean : NAN;
    out->v[FB__SPREAD_MEDIAN] = fb__median(v, n); /* (sorts v) */
    out->v[FB__SPREAD_STDDEV] = n > 1 ? sqrt(ss / (double)(n - 1)) : NAN;
}

/* Over the used epochs idx[0..n) (scratch: n doubles, or NULL when out of
 * memory: nothing then): the rate per epoch, batch / the epoch's time per
 * call (epochs with a time > 0), and each user counter as shown per epoch
 * (a rate changes from epoch to epoch; any other counter is the same in
 * each, its stddev 0). */
static void fb__stats_epoch_spreads(fb_result *r, const size_t *idx, size_t n, double *scratch) {
    const double *t = (r->has & FB__BIT(FB_ELAPSED)) ? r->values[FB_ELAPSED] : NULL;
    size_t k = 0;
    for (size_t q = 0; scratch && t && q < n; ++q)
        if (t[idx[q]] > 0) scratch[k++] = r->config.batch / t[idx[q]];
    fb__spread_of(scratch, k, &r->rate_epochs);
    for (size_t i = 0; r->ucounters && i < r->ucounters->n; ++i) {
        k = 0;
        for (size_t q = 0; scratch && q < n; ++q) {
            double x = fb__ucounter_shown(r, i, t ? t[idx[q]] : NAN);
            if (isfinite(x)) scratch[k++] = x;
        }
        fb__spread_of(scratch, k, &r->ucounters->c[i].epochs);
    }
}

void fb__stats_compute(fb_result *r) {
    size_t all = r->epochs;
    r->total_iterations = 0;
    r->total_s = 0;
    for (size_t i = 0; i < all; ++i) {
        r->total_iterations += r->iterations[i];
        if (r->values[FB_ELAPSED])
            r->total_s += r->values[FB_ELAPSED][i] * (double)r->iterations[i];
    }
    /* the summary uses the epochs not dropped (src/stats/disturb.h);
     * totals above count every recorded epoch */
    double *tmp = malloc(3 * (all ? all : 1) * sizeof *tmp);
    size_t *idx = malloc((all ? all : 1) * sizeof *idx);
    size_t n = 0;
    uint64_t used_iters = 0;
    r->descheduled = 0;
    for (size_t i = 0; idx && i < all; ++i)
        if (!r->epoch_flags || !(r->epoch_flags[i] & FB__EPOCH_DROPPED)) {
            idx[n++] = i;
            used_iters += r->iterations[i];
            /* a disturbed epoch the statistics keep: too few others remained */
            if (r->epoch_flags && (r->epoch_flags[i] & FB__EPOCH_DISTURBED)) r->descheduled++;
        }
    r->used = n;
    for (int m = 0; m < FB_MEASURE_COUNT; ++m) {
        fb__summary *s = &r->summary[m];
        s->median = s->err_pct = s->min = s->max = s->mean = s->stddev = NAN;
        s->q1 = s->q3 = s->median_low = s->median_high = NAN;
        if (!(r->has & FB__BIT(m)) || !r->values[m] || n == 0 || !tmp || !idx) continue;
        double *v = tmp + 2 * all; /* the used values */
        double sum = 0;
        for (size_t k = 0; k < n; ++k) {
            v[k] = r->values[m][idx[k]];
            sum += v[k] * (double)r->iterations[idx[k]];
        }
        s->min = s->max = v[0];
        for (size_t k = 0; k < n; ++k) {
            if (v[k] < s->min) s->min = v[k];
            if (v[k] > s->max) s->max = v[k];
        }
        s->mean = used_iters ? sum / (double)used_iters : NAN;
        /* sample standard deviation (n - 1) of the per-epoch values */
        double avg = 0, ss = 0;
        for (size_t k = 0; k < n; ++k) avg += v[k];
        avg /= (double)n;
        for (size_t k = 0; k < n; ++k) ss += (v[k] - avg) * (v[k] - avg);
        s->stddev = n > 1 ? sqrt(ss / (double)(n - 1)) : 0;
        memcpy(tmp, v, n * sizeof *tmp);
        s->median = fb__median(tmp, n); /* (sorts tmp) */
        /* the quartiles of the same epochs: the HTML report's box */
        s->q1 = fb__quantile_sorted(tmp, n, 0.25);
        s->q3 = fb__quantile_sorted(tmp, n, 0.75);
        size_t k = 0;
        if (n >= 6) {
            double kk = floor(((double)n - 1.96 * sqrt((double)n)) / 2.0);
            k = kk > 0 ? (size_t)kk : 0;
        }
        s->median_low = tmp[k];
        s->median_high = tmp[n - 1 - k];
        s->err_pct = fb__mdape_pct(v, n, s->median, tmp + all);
    }
    fb__stats_epoch_spreads(r, idx, tmp ? n : 0, tmp);
    free(idx);
    free(tmp);
    fb__marks_compute(r); /* optimized away? not resolved? (src/stats/marks.c) */
}
