/* The comparison of two runs of one benchmark (docs/baselines.md).
 *
 * Samples are the epochs' log times per unit of each run. The change is the
 * Hodges-Lehmann shift (the median of all m * n differences now - baseline),
 * the interval the distribution-free one that inverts the Mann-Whitney test
 * (Lehmann, Nonparametrics, 1975; Hollander & Wolfe, ch. 4): the k-th
 * smallest and k-th largest difference, k from the exact null distribution
 * of U. Epochs of one run are not independent draws of "the program's
 * speed": a whole process can land in a slow or fast episode of a shared
 * machine. So the interval is then widened by the runs' own instability
 * (err%, the spread of their epochs) and by a floor for the run-to-run
 * noise that no single run shows; see fb__change_compare. A change table's
 * one-process row (fb__change_one_process) then takes as its change the
 * ratio of the two runs' medians, the values the table shows beside it.
 *
 * All of it is pure: no clock, no I/O; tests/test_change.c checks it with
 * known inputs. */
#include "change.h"

#include "numfmt.h"
#include "compare.h" /* the sign-test interval of paired rounds */
#include "stats.h"   /* fb__dbl_cmp */

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *fb__verdict_name(fb__verdict v) {
    static const char *const names[FB__V_COUNT] = {"faster", "slower", "same",
                                                   "unsure", "new",    "gone"};
    return v >= 0 && v < FB__V_COUNT ? names[v] : "?";
}

/* ----------------------------------------------- Mann-Whitney quantile */

/* P(Z > z) = p for a standard normal Z, by bisection on erfc. */
static double fb__change_z(double p) {
    double lo = 0, hi = 40;
    for (int i = 0; i < 200; ++i) {
        double mid = 0.5 * (lo + hi);
        if (0.5 * erfc(mid / sqrt(2.0)) > p)
            lo = mid;
        else
            hi = mid;
    }
    return 0.5 * (lo + hi);
}

/* Exact up to 30 epochs a side: O(m^2 n^2) time, O(m n^2) memory. */
#define FB__CHANGE_EXACT_MAX 30

/* Exact: the distribution of U by the recursion
 * P[i][j](u) = i/(i+j) P[i-1][j](u - j) + j/(i+j) P[i][j-1](u),
 * kept one row of i at a time (each row: n + 1 arrays of i*j + 1). */
static size_t fb__change_rank_exact(size_t m, size_t n, double alpha) {
    size_t row = 0; /* doubles in one row: sum over j of (m * j + 1) */
    for (size_t j = 0; j <= n; ++j) row += m * j + 1;
    double *prev = calloc(row, sizeof *prev), *cur = calloc(row, sizeof *cur);
    size_t *off = calloc(n + 1, sizeof *off);
    size_t k = 0;
    if (!prev || !cur || !off) goto done;
    /* row i = 0: U is always 0 */
    for (size_t j = 0, o = 0; j <= n; o += m * j + 1, ++j) {
        off[j] = o;
        prev[o] = 1;
    }
    for (size_t i = 1; i <= m; ++i) {
        for (size_t j = 0; j <= n; ++j) {
            double *p = cur + off[j];
            size_t len = i * j + 1;
            memset(p, 0, len * sizeof *p);
            if (j == 0) {
                p[0] = 1;
                continue;
            }
            const double *a = prev + off[j];    /* P[i-1][j], length (i-1)j + 1 */
            const double *b = cur + off[j - 1]; /* P[i][j-1], length i(j-1) + 1 */
            double wa = (double)i / (double)(i + j), wb = (double)j / (double)(i + j);
            for (size_t u = 0; u < (i - 1) * j + 1; ++u) p[u + j] += wa * a[u];
            for (size_t u = 0; u < i * (j - 1) + 1; ++u) p[u] += wb * b[u];
        }
        double *t = prev;
        prev = cur;
        cur = t;
    }
    /* prev now holds row m; P[m][n] at off[n] */
    const double *p = prev + off[n];
    double cum = 0;
    for (size_t u = 0; u <= m * n; ++u) {
        cum += p[u];
        /* a little slack for rounding: exact sums land on alpha/2 exactly */
        if (cum > alpha / 2 * (1 + 1e-9)) break;
        k = u + 1;
    }
done:
    free(prev);
    free(cur);
    free(off);
    return k;
}

size_t fb__change_mw_rank(size_t m, size_t n, double alpha) {
    if (m == 0 || n == 0 || !(alpha > 0 && alpha < 1)) return 0;
    if (m <= FB__CHANGE_EXACT_MAX && n <= FB__CHANGE_EXACT_MAX)
        return fb__change_rank_exact(m, n, alpha);
    double mn = (double)m * (double)n;
    double sd = sqrt(mn * (double)(m + n + 1) / 12.0);
    double k = floor(mn / 2 - fb__change_z(alpha / 2) * sd + 0.5);
    return k < 1 ? 0 : (size_t)k;
}

/* ------------------------------------------- order statistics of D */

/* Differences y[j] - x[i] <= d. For a fixed j they fall as i rises, and the
 * first i where one is <= d moves right as j rises: one pass. */
static uint64_t fb__change_count_le(const double *x, size_t m, const double *y, size_t n,
                                    double d) {
    uint64_t count = 0;
    size_t i = 0;
    for (size_t j = 0; j < n; ++j) {
        while (i < m && y[j] - x[i] > d) ++i;
        count += m - i;
    }
    return count;
}

/* The smallest difference > d (INFINITY when none). */
static double fb__change_next_above(const double *x, size_t m, const double *y, size_t n,
                                    double d) {
    double best = INFINITY;
    size_t i = 0;
    for (size_t j = 0; j < n; ++j) {
        while (i < m && y[j] - x[i] > d) ++i;
        if (i > 0 && y[j] - x[i - 1] < best) best = y[j] - x[i - 1];
    }
    return best;
}

double fb__change_kth_diff(const double *x, size_t m, const double *y, size_t n, uint64_t k) {
    if (m == 0 || n == 0 || k < 1 || k > (uint64_t)m * n) return NAN;
    double lo = y[0] - x[m - 1], hi = y[n - 1] - x[0];
    if (fb__change_count_le(x, m, y, n, lo) >= k) return lo; /* the minimum (with its ties) */
    /* count_le(lo) < k <= count_le(hi); narrow by bisection, then step
     * through the remaining distinct differences */
    for (int it = 0; it < 2200; ++it) { /* ends at adjacent doubles long before */
        double mid = lo + (hi - lo) / 2;
        if (!(mid > lo && mid < hi)) break;
        if (fb__change_count_le(x, m, y, n, mid) >= k)
            hi = mid;
        else
            lo = mid;
    }
    for (;;) {
        double c = fb__change_next_above(x, m, y, n, lo);
        if (!(c < INFINITY) || fb__change_count_le(x, m, y, n, c) >= k) return c;
        lo = c;
    }
}

/* ------------------------------------------------------- comparison */

/* Sorted logs of times per unit; a time of 0 counts as 1 fs per unit. */
static double *fb__change_logs(const double *s, size_t n) {
    double *v = malloc((n ? n : 1) * sizeof *v);
    if (!v) return NULL;
    for (size_t i = 0; i < n; ++i) v[i] = log(s[i] > 1e-15 ? s[i] : 1e-15);
    qsort(v, n, sizeof *v, fb__dbl_cmp);
    return v;
}

static double fb__change_pct(double log_ratio) { return 100.0 * expm1(log_ratio); }

#define FB__CHANGE_PI 3.14159265358979323846

/* The verdict of an interval [lo_pct, hi_pct] against the threshold. */
static fb__verdict fb__change_judge(double lo_pct, double hi_pct, double t) {
    if (lo_pct > t) return FB__V_SLOWER;
    if (hi_pct < -t) return FB__V_FASTER;
    if (lo_pct >= -t && hi_pct <= t) return FB__V_SAME;
    return FB__V_UNSURE;
}

static void fb__change_verdict(fb__change *out, double threshold_pct) {
    out->change_pct = fb__change_pct(out->shift);
    out->lo_pct = fb__change_pct(out->lo);
    out->hi_pct = fb__change_pct(out->hi);
    out->verdict = fb__change_judge(out->lo_pct, out->hi_pct, threshold_pct);
}

void fb__change_paired(double *log_ratio, size_t n, double confidence, double threshold_pct,
                       fb__change *out) {
    out->shift = out->mw_lo = out->mw_hi = out->lo = out->hi = NAN;
    out->change_pct = out->lo_pct = out->hi_pct = NAN;
    out->verdict = FB__V_UNSURE;
    if (!n) return;
    bool ok = fb__cmp_interval(log_ratio, n, confidence, &out->shift, &out->lo, &out->hi);
    out->change_pct = fb__change_pct(out->shift);
    if (!ok) return; /* too few rounds for an interval: unsure */
    out->lo_pct = fb__change_pct(out->lo);
    out->hi_pct = fb__change_pct(out->hi);
    out->verdict = fb__change_judge(out->lo_pct, out->hi_pct, threshold_pct);
}

void fb__change_compare(const double *old_s, size_t m, double old_err_pct, const double *now_s,
                        size_t n, double now_err_pct, double threshold_pct, fb__change *out) {
    out->shift = out->mw_lo = out->mw_hi = out->lo = out->hi = NAN;
    out->change_pct = out->lo_pct = out->hi_pct = NAN;
    out->verdict = FB__V_UNSURE;
    if (m == 0 || n == 0) return;
    double *x = fb__change_logs(old_s, m), *y = fb__change_logs(now_s, n);
    if (!x || !y) goto done;
    uint64_t total = (uint64_t)m * n;
    out->shift = total % 2 ? fb__change_kth_diff(x, m, y, n, (total + 1) / 2)
                           : 0.5 * (fb__change_kth_diff(x, m, y, n, total / 2) +
                                    fb__change_kth_diff(x, m, y, n, total / 2 + 1));
    size_t k = fb__change_mw_rank(m, n, 0.05);
    out->mw_lo = k ? fb__change_kth_diff(x, m, y, n, k) : -INFINITY;
    out->mw_hi = k ? fb__change_kth_diff(x, m, y, n, total + 1 - k) : INFINITY;
    /* Widening: each run can sit off its "true" level by about its own
     * spread (err% = median absolute deviation of its epochs, relative),
     * which the Mann-Whitney interval, built for independent draws, does
     * not see; add both runs' spreads in quadrature to each side. */
    double eo = isfinite(old_err_pct) ? log1p(old_err_pct / 100) : 0;
    double en = isfinite(now_err_pct) ? log1p(now_err_pct / 100) : 0;
    double w = sqrt(eo * eo + en * en);
    out->lo = out->mw_lo - w;
    out->hi = out->mw_hi + w;
    fb__change_verdict(out, threshold_pct);
done:
    free(x);
    free(y);
}

int fb__change_parse_threshold(const char *text, double *pct) {
    char buf[64];
    size_t len = strlen(text);
    if (len == 0 || len >= sizeof buf) return -1;
    memcpy(buf, text, len + 1);
    if (buf[len - 1] == '%') buf[--len] = '\0';
    /* '.' whatever the locale, no sign, no blank (src/platform/numfmt.c) */
    double v;
    if (len == 0 || !fb__parse_decimal(buf, &v) || v < 0 || v >= 1000) return -1;
    *pct = v;
    return 0;
}

void fb__change_counted(double old_ins, double now_ins, fb__change *out) {
    fb__change_counted_spread(old_ins, old_ins, old_ins, now_ins, now_ins, now_ins, out);
}

static double fb__change_pct_of(double old_ins, double now_ins) {
    return old_ins > 0 ? 100.0 * (now_ins / old_ins - 1.0) : now_ins > 0 ? INFINITY : 0;
}

void fb__change_counted_spread(double old_ins, double old_lo, double old_hi, double now_ins,
                               double now_lo, double now_hi, fb__change *out) {
    out->spread = FB__SPREAD_NONE;
    out->mw_lo = out->mw_hi = out->lo = out->hi = NAN;
    out->shift = out->change_pct = out->lo_pct = out->hi_pct = NAN;
    if (isnan(old_ins) || isnan(now_ins)) {
        out->verdict = FB__V_UNSURE; /* one side counted, the other timed */
        return;
    }
    double pct = old_ins > 0 ? 100.0 * (now_ins / old_ins - 1.0) : now_ins > 0 ? INFINITY : 0;
    out->change_pct = out->lo_pct = out->hi_pct = pct;
    out->shift = out->lo = out->hi = old_ins > 0 && now_ins > 0 ? log(now_ins / old_ins) : NAN;
    out->verdict = now_ins > old_ins ? FB__V_SLOWER : now_ins < old_ins ? FB__V_FASTER : FB__V_SAME;
    if (!(old_lo < old_hi) && !(now_lo < now_hi)) return; /* both exact (or unknown: NAN) */
    /* a spread on either side: a difference that both ranges cover is not
     * a change of the code, it is what the op did from epoch to epoch */
    out->lo_pct = fb__change_pct_of(old_hi, now_lo);
    out->hi_pct = fb__change_pct_of(old_lo, now_hi);
    out->lo = old_hi > 0 && now_lo > 0 ? log(now_lo / old_hi) : NAN;
    out->hi = old_lo > 0 && now_hi > 0 ? log(now_hi / old_lo) : NAN;
    if (now_lo > old_hi) {
        out->spread = FB__SPREAD_BEYOND;
        out->verdict = FB__V_SLOWER;
    } else if (now_hi < old_lo) {
        out->spread = FB__SPREAD_BEYOND;
        out->verdict = FB__V_FASTER;
    } else {
        out->spread = FB__SPREAD_WITHIN;
        out->verdict = FB__V_SAME;
    }
}

/* ------------------------------------------- between processes */

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

static double fb__change_log_s(double s) { return log(s > 1e-15 ? s : 1e-15); }

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

/* The log of the median of s[0..n) (NAN when empty or out of memory). */
static double fb__change_median_log(const double *s, size_t n) {
    double *v = n ? malloc(n * sizeof *v) : NULL;
    if (!v) return NAN;
    memcpy(v, s, n * sizeof *v);
    double med = fb__change_log_s(fb__median(v, n));
    free(v);
    return med;
}

void fb__change_one_process(const double *old_s, size_t m, double old_err_pct, const double *now_s,
                            size_t n, double now_err_pct, double threshold_pct, fb__change *out) {
    fb__change_compare(old_s, m, old_err_pct, now_s, n, now_err_pct, threshold_pct, out);
    if (isnan(out->shift)) return;
    /* the change is the ratio of the two processes' medians, the values the
     * table shows beside it (the Hodges-Lehmann shift is another estimator
     * and would not be their ratio); the interval stays the one over the
     * epochs, stretched to hold it should it lie outside */
    double mo = fb__change_median_log(old_s, m), mn = fb__change_median_log(now_s, n);
    if (!isnan(mo) && !isnan(mn)) out->shift = mn - mo;
    if (out->shift < out->lo) out->lo = out->shift;
    if (out->shift > out->hi) out->hi = out->shift;
    /* one process a side: the interval covers this pair of processes only;
     * the next pair can sit anywhere within the floor fitted on pairs of
     * processes of one binary (src/outputs/change.h), so widen by it on both sides */
    double f = log1p(FB__CHANGE_PROCESS_FLOOR_PCT / 100);
    out->lo -= f;
    out->hi += f;
    fb__change_verdict(out, threshold_pct);
}
