/* femtobench-ab's verdict on one run (tools/ab/ab_judge.h): layouts as a random
 * effect, the two halves in time, the columns the change is the ratio of. */
#include "ab_judge.h"

#include "compare_stats.h" /* fb__cmp_interval */
#include "stats.h"         /* fb__median */

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define FBA_JUDGE_MAX_LAYOUTS 64
#define FBA_JUDGE_MIN_RANDOM 3
/* the variance ratio beyond which the layouts' changes differ for real
 * (fba_layout_effect); about the 99th percentile of chi-square / df for 7
 * layouts (2.64), rounded up */
#define FBA_JUDGE_LAYOUT_EFFECT 3.0

/* The change and its interval (log ratios) from the rounds whose pass is in
 * [p0, p1). Returns false when no interval exists. */
static bool fba_estimate(const fba_rounds *in, size_t p0, size_t p1, double confidence, bool random,
                         double *est, double *lo, double *hi, size_t *used) {
    double *v = malloc((in->n + 1) * sizeof *v);
    *est = *lo = *hi = NAN;
    *used = 0;
    if (!v) return false;
    bool ok = false;
    if (!random) {
        size_t m = 0;
        for (size_t i = 0; i < in->n; ++i)
            if (in->pass[i] >= p0 && in->pass[i] < p1 && isfinite(in->lr[i])) v[m++] = in->lr[i];
        *used = m ? 1 : 0;
        if (m) {
            ok = fb__cmp_interval(v, m, confidence, est, lo, hi);
            if (!ok) *est = fb__median(v, m);
        }
        free(v);
        return ok;
    }
    double d[FBA_JUDGE_MAX_LAYOUTS];
    size_t m = 0;
    for (size_t l = 0; l < in->layouts && l < FBA_JUDGE_MAX_LAYOUTS; ++l) {
        size_t k = 0;
        for (size_t i = 0; i < in->n; ++i)
            if (in->layout[i] == l && in->pass[i] >= p0 && in->pass[i] < p1 && isfinite(in->lr[i]))
                v[k++] = in->lr[i];
        if (k) d[m++] = fb__median(v, k);
    }
    free(v);
    *used = m;
    if (!m) return false;
    double mean = 0;
    for (size_t i = 0; i < m; ++i) mean += d[i];
    mean /= (double)m;
    *est = mean;
    if (m < FBA_JUDGE_MIN_RANDOM) return false;
    double ss = 0;
    for (size_t i = 0; i < m; ++i) ss += (d[i] - mean) * (d[i] - mean);
    double se = sqrt(ss / (double)(m - 1) / (double)m);
    double t = fb__change_t_quantile(1 - confidence, (unsigned)(m - 1));
    if (!isfinite(t)) return false;
    *lo = mean - t * se;
    *hi = mean + t * se;
    return true;
}

static void fba_judge_interval(const fba_rounds *in, double confidence, double threshold_pct,
                               double lo, double hi, fba_judged *out);

static double fba_pct(double log_ratio) { return 100.0 * expm1(log_ratio); }

/* How far the layouts' changes differ beyond what their rounds' own noise
 * explains: the variance of the layouts' medians over the variance those
 * medians would have with no placement effect (the rounds' spread around
 * their layout's median, robust: 1.4826 MAD, over each layout's count,
 * times pi/2 for a median of more than two). About 1 when placement moves
 * nothing; NAN when it cannot be told (fewer than 3 layouts with 2 rounds
 * or more). */
static double fba_layout_effect(const fba_rounds *in) {
    double d[FBA_JUDGE_MAX_LAYOUTS], expect = 0;
    size_t m = 0, nres = 0;
    double *res = malloc((in->n + 1) * sizeof *res), *v = malloc((in->n + 1) * sizeof *v);
    size_t cnt[FBA_JUDGE_MAX_LAYOUTS];
    if (!res || !v) {
        free(res);
        free(v);
        return NAN;
    }
    for (size_t l = 0; l < in->layouts && l < FBA_JUDGE_MAX_LAYOUTS; ++l) {
        size_t k = 0;
        for (size_t i = 0; i < in->n; ++i)
            if (in->layout[i] == l && isfinite(in->lr[i])) v[k++] = in->lr[i];
        if (k < 2) continue;
        double med = fb__median(v, k);
        for (size_t i = 0; i < k; ++i) res[nres++] = fabs(v[i] - med);
        cnt[m] = k;
        d[m++] = med;
    }
    double out = NAN;
    if (m >= FBA_JUDGE_MIN_RANDOM && nres) {
        double sw = 1.4826 * fb__median(res, nres);
        double mean = 0, ss = 0;
        for (size_t i = 0; i < m; ++i) mean += d[i];
        mean /= (double)m;
        for (size_t i = 0; i < m; ++i) {
            ss += (d[i] - mean) * (d[i] - mean);
            expect += sw * sw / (double)cnt[i] * (cnt[i] > 2 ? 1.5707963 : 1.0);
        }
        expect /= (double)m;
        double between = ss / (double)(m - 1);
        out = expect > 0 ? between / expect : (between > 0 ? INFINITY : 1.0);
    }
    free(res);
    free(v);
    return out;
}

static double fba_spread(const double *t, size_t n) {
    double lo = INFINITY, hi = 0;
    size_t k = 0;
    for (size_t i = 0; i < n; ++i)
        if (t[i] > 0 && isfinite(t[i])) {
            lo = t[i] < lo ? t[i] : lo;
            hi = t[i] > hi ? t[i] : hi;
            ++k;
        }
    return k >= 2 ? 100.0 * (hi / lo - 1) : NAN;
}

void fba_judge_rounds(const fba_rounds *in, double confidence, double threshold_pct,
                      fba_judged *out) {
    memset(out, 0, sizeof *out);
    fb__change *c = &out->change;
    c->shift = c->lo = c->hi = c->mw_lo = c->mw_hi = NAN;
    c->change_pct = c->lo_pct = c->hi_pct = NAN;
    c->verdict = FB__V_UNSURE;
    out->old_s = out->new_s = out->spread_pct = NAN;
    for (int h = 0; h < 2; ++h) out->half_pct[h] = out->half_lo_pct[h] = out->half_hi_pct[h] = NAN;
    out->random = in->layouts >= FBA_JUDGE_MIN_RANDOM;
    double est, lo, hi;
    bool ok = fba_estimate(in, 0, in->passes, confidence, out->random, &est, &lo, &hi,
                           &out->layouts_used);
    if (out->random && out->layouts_used < FBA_JUDGE_MIN_RANDOM) ok = false;

    /* the columns: the old side's time (over its layouts, geometric) and
     * that times the change, so that the two never disagree */
    double lsum = 0;
    size_t ln = 0;
    for (size_t l = 0; l < in->layouts; ++l)
        if (in->lay_old[l] > 0 && isfinite(in->lay_old[l])) {
            lsum += log(in->lay_old[l]);
            ++ln;
        }
    if (ln) out->old_s = exp(lsum / (double)ln);
    if (isfinite(est)) {
        c->shift = est;
        c->change_pct = fba_pct(est);
        if (ln) out->new_s = out->old_s * exp(est);
    }
    if (in->layouts >= 2) {
        double a = fba_spread(in->lay_old, in->layouts), b = fba_spread(in->lay_new, in->layouts);
        out->spread_pct = isfinite(a) && (!isfinite(b) || a >= b) ? a : b;
    }
    if (ok) fba_judge_interval(in, confidence, threshold_pct, lo, hi, out);
    /* unsure because the change itself moves with placement: the layouts
     * differ well beyond their rounds' noise (3x the variance) */
    out->layout_effect = out->random ? fba_layout_effect(in) : NAN;
    out->layout_sensitive = c->verdict == FB__V_UNSURE && !out->moment_split &&
                            out->layout_effect > FBA_JUDGE_LAYOUT_EFFECT;
}

/* The verdict from the interval [lo, hi] (log ratios), then the moment:
 * the first half of the passes against the second. */
static void fba_judge_interval(const fba_rounds *in, double confidence, double threshold_pct,
                               double lo, double hi, fba_judged *out) {
    fb__change *c = &out->change;
    c->lo = lo;
    c->hi = hi;
    c->lo_pct = fba_pct(lo);
    c->hi_pct = fba_pct(hi);
    double t = log1p(threshold_pct / 100.0);
    if (lo > t)
        c->verdict = FB__V_SLOWER;
    else if (hi < -t)
        c->verdict = FB__V_FASTER;
    else if (lo >= -t && hi <= t)
        c->verdict = FB__V_SAME;
    else
        c->verdict = FB__V_UNSURE;

    if (in->passes >= 2) {
        size_t mid = in->passes / 2, used;
        double e[2], l[2], u[2];
        bool hok[2];
        hok[0] = fba_estimate(in, 0, mid, confidence, out->random, &e[0], &l[0], &u[0], &used);
        hok[1] =
            fba_estimate(in, mid, in->passes, confidence, out->random, &e[1], &l[1], &u[1], &used);
        for (int h = 0; h < 2; ++h) {
            out->half_pct[h] = isfinite(e[h]) ? fba_pct(e[h]) : NAN;
            out->half_lo_pct[h] = hok[h] ? fba_pct(l[h]) : NAN;
            out->half_hi_pct[h] = hok[h] ? fba_pct(u[h]) : NAN;
        }
        /* the halves disagree: their intervals apart, and their changes on
         * two sides of the threshold (one slower, the other not) */
        int side0 = e[0] > t ? 1 : e[0] < -t ? -1 : 0, side1 = e[1] > t ? 1 : e[1] < -t ? -1 : 0;
        if (hok[0] && hok[1] && (l[0] > u[1] || l[1] > u[0]) && side0 != side1) {
            out->moment_split = true;
            c->verdict = FB__V_UNSURE;
        }
    }
}
