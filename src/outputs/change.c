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
 * The Mann-Whitney interval's rank and k-th difference are
 * src/outputs/change_mw.c's; the change between processes (a t interval of
 * the processes' medians) is src/outputs/change_between.c's.
 *
 * All of it is pure: no clock, no I/O; tests/test_change.c checks it with
 * known inputs. */
#include "change.h"

#include "numfmt.h"
#include "compare_stats.h" /* the sign-test interval of paired rounds */
#include "stats.h"         /* fb__dbl_cmp */

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *fb__verdict_name(fb__verdict v) {
    static const char *const names[FB__V_COUNT] = {"faster", "slower", "same",
                                                   "unsure", "new",    "gone"};
    return v >= 0 && v < FB__V_COUNT ? names[v] : "?";
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

/* The verdict of an interval [lo_pct, hi_pct] against the threshold. */
static fb__verdict fb__change_judge(double lo_pct, double hi_pct, double t) {
    if (lo_pct > t) return FB__V_SLOWER;
    if (hi_pct < -t) return FB__V_FASTER;
    if (lo_pct >= -t && hi_pct <= t) return FB__V_SAME;
    return FB__V_UNSURE;
}

void fb__change_verdict(fb__change *out, double threshold_pct) {
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

/* A time per unit as a log; a time of 0 counts as 1 fs per unit. */
double fb__change_log_s(double s) { return log(s > 1e-15 ? s : 1e-15); }

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
