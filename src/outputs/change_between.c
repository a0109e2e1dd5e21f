/* The change between processes (docs/baselines.md): each side's processes'
 * medians, one per process, compared by a t interval of their log ratios,
 * paired (femtobench-compare -run) or with the variance pooled over both
 * sides; and Student's t quantile it takes (finite sums, no gamma
 * function). Pure: no clock, no I/O; tests/test_change.c checks it. */
#include "change.h"

#include <limits.h>
#include <math.h>

#define FB__CHANGE_PI 3.14159265358979323846

/* P(|T| < t) for Student's t with df degrees of freedom, by the finite sums
 * of Abramowitz & Stegun 26.7.3 (odd df) and 26.7.4 (even df): exact for
 * whole df, no gamma function. */
static double fb__change_t_inside(double t, unsigned df) {
    double th = atan(t / sqrt((double)df)), s = sin(th), c2 = cos(th) * cos(th);
    double term = 1, sum = 1;
    if (df % 2 == 0) {
        for (unsigned k = 2; k + 2 <= df; k += 2) {
            term *= c2 * (double)(k - 1) / (double)k;
            sum += term;
        }
        return s * sum;
    }
    if (df == 1) return 2 * th / FB__CHANGE_PI;
    for (unsigned k = 3; k + 2 <= df; k += 2) {
        term *= c2 * (double)(k - 1) / (double)k;
        sum += term;
    }
    return 2 / FB__CHANGE_PI * (th + s * cos(th) * sum);
}

double fb__change_t_quantile(double alpha, unsigned df) {
    if (df == 0 || !(alpha > 0 && alpha < 1)) return NAN;
    double lo = 0, hi = 1;
    while (1 - fb__change_t_inside(hi, df) > alpha && hi < 1e12) hi *= 2;
    for (int i = 0; i < 200; ++i) {
        double mid = 0.5 * (lo + hi);
        if (!(mid > lo && mid < hi)) break;
        if (1 - fb__change_t_inside(mid, df) > alpha)
            lo = mid;
        else
            hi = mid;
    }
    return 0.5 * (lo + hi);
}

unsigned fb__change_between_df(size_t m, size_t n, bool paired) {
    if (paired) return m == n && n >= 2 && n - 1 <= UINT_MAX ? (unsigned)(n - 1) : 0;
    return m && n && m + n >= 3 && m + n - 2 <= UINT_MAX ? (unsigned)(m + n - 2) : 0;
}

void fb__change_between(const double *old_s, size_t m, const double *now_s, size_t n, bool paired,
                        double alpha, double threshold_pct, fb__change *out) {
    unsigned df = fb__change_between_df(m, n, paired);
    fb__change_between_t(old_s, m, now_s, n, paired, df ? fb__change_t_quantile(alpha, df) : NAN,
                         threshold_pct, out);
}

void fb__change_between_t(const double *old_s, size_t m, const double *now_s, size_t n, bool paired,
                          double t_crit, double threshold_pct, fb__change *out) {
    out->shift = out->mw_lo = out->mw_hi = out->lo = out->hi = NAN;
    out->change_pct = out->lo_pct = out->hi_pct = NAN;
    out->verdict = FB__V_UNSURE;
    if (!fb__change_between_df(m, n, paired) || isnan(t_crit)) return;
    double half;
    if (paired) {
        /* the per-pair log ratios: their mean, and a t interval with n - 1
         * degrees of freedom */
        double sum = 0, ss = 0;
        for (size_t i = 0; i < n; ++i)
            sum += fb__change_log_s(now_s[i]) - fb__change_log_s(old_s[i]);
        double mean = sum / (double)n;
        for (size_t i = 0; i < n; ++i) {
            double d = fb__change_log_s(now_s[i]) - fb__change_log_s(old_s[i]) - mean;
            ss += d * d;
        }
        double sd = sqrt(ss / (double)(n - 1));
        half = t_crit * sd / sqrt((double)n);
        out->shift = mean;
    } else {
        /* two samples of per-process log medians: the difference of their
         * means, and a t interval with the variance pooled over both sides
         * (m + n - 2 degrees of freedom; a side of one process adds its
         * value, the other side's spread stands for both) */
        double so = 0, sn = 0, ss = 0;
        for (size_t i = 0; i < m; ++i) so += fb__change_log_s(old_s[i]);
        for (size_t i = 0; i < n; ++i) sn += fb__change_log_s(now_s[i]);
        double mo = so / (double)m, mn = sn / (double)n;
        for (size_t i = 0; i < m; ++i)
            ss += (fb__change_log_s(old_s[i]) - mo) * (fb__change_log_s(old_s[i]) - mo);
        for (size_t i = 0; i < n; ++i)
            ss += (fb__change_log_s(now_s[i]) - mn) * (fb__change_log_s(now_s[i]) - mn);
        double sd = sqrt(ss / (double)(m + n - 2));
        half = t_crit * sd * sqrt(1 / (double)m + 1 / (double)n);
        out->shift = mn - mo;
    }
    out->mw_lo = out->lo = out->shift - half;
    out->mw_hi = out->hi = out->shift + half;
    fb__change_verdict(out, threshold_pct);
}
