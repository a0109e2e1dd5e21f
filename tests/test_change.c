/* The comparison method (src/outputs/change.c, change_mw.c, change_between.c) with
 * known inputs: the Mann-Whitney
 * ranks against published critical values, the order statistics of the
 * pairwise differences against brute force, the Hodges-Lehmann shift, the
 * widening and the verdicts. */
#include "change.h"
#include "check.h"

#include <stdlib.h>

static int cmp_d(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* k-th smallest (1-based) of y[j] - x[i] by sorting all of them. */
static double brute_kth(const double *x, size_t m, const double *y, size_t n, size_t k) {
    double *d = malloc(m * n * sizeof *d);
    for (size_t i = 0; i < m; ++i)
        for (size_t j = 0; j < n; ++j) d[i * n + j] = y[j] - x[i];
    qsort(d, m * n, sizeof *d, cmp_d);
    double v = d[k - 1];
    free(d);
    return v;
}

static void check_ranks(void) {
    /* Two-sided alpha = 0.05 critical values of U (the largest u with
     * P(U <= u) <= 0.025), from the standard tables; k = u + 1. */
    CHECK(fb__change_mw_rank(3, 3, 0.05) == 0); /* P(U = 0) = 1/20 > 0.025 */
    CHECK(fb__change_mw_rank(4, 4, 0.05) == 1); /* P(U = 0) = 1/70 */
    CHECK(fb__change_mw_rank(5, 5, 0.05) == 3);
    CHECK(fb__change_mw_rank(8, 8, 0.05) == 14);
    CHECK(fb__change_mw_rank(10, 10, 0.05) == 24);
    CHECK(fb__change_mw_rank(11, 11, 0.05) == 31);
    CHECK(fb__change_mw_rank(20, 20, 0.05) == 128);
    CHECK(fb__change_mw_rank(5, 10, 0.05) == fb__change_mw_rank(10, 5, 0.05));
    CHECK(fb__change_mw_rank(5, 10, 0.05) == 9); /* table: 8 */
    CHECK(fb__change_mw_rank(1, 100, 0.05) == 0);
    CHECK(fb__change_mw_rank(0, 5, 0.05) == 0);
    /* beyond the exact range the normal approximation continues smoothly */
    size_t e30 = fb__change_mw_rank(30, 30, 0.05), a31 = fb__change_mw_rank(31, 31, 0.05);
    CHECK(e30 == 318); /* table: 317 */
    CHECK(a31 > e30 && a31 < e30 + 30);
    /* exact (the same recursion, run without the cap): 597; the normal
     * approximation used beyond 30 is within one */
    size_t a40 = fb__change_mw_rank(40, 40, 0.05);
    CHECK(a40 >= 596 && a40 <= 598);
    /* a wider level gives a narrower interval */
    CHECK(fb__change_mw_rank(11, 11, 0.10) > fb__change_mw_rank(11, 11, 0.05));
}

static void check_kth(void) {
    double x[] = {1, 2, 3}, y[] = {2, 5};
    /* differences: 1 0 -1 4 3 2 -> -1 0 1 2 3 4 */
    CHECK(fb__change_kth_diff(x, 3, y, 2, 1) == -1);
    CHECK(fb__change_kth_diff(x, 3, y, 2, 3) == 1);
    CHECK(fb__change_kth_diff(x, 3, y, 2, 6) == 4);
    CHECK(isnan(fb__change_kth_diff(x, 3, y, 2, 7)));
    CHECK(isnan(fb__change_kth_diff(x, 3, y, 2, 0)));
    /* random samples with ties, every k */
    fb_rng rng;
    fb_rng_seed(&rng, 42);
    for (int t = 0; t < 30; ++t) {
        size_t m = 1 + fb_rng_bounded(&rng, 12), n = 1 + fb_rng_bounded(&rng, 12);
        double a[12], b[12];
        for (size_t i = 0; i < m; ++i) a[i] = (double)fb_rng_bounded(&rng, 8) * 0.25 - 1;
        for (size_t j = 0; j < n; ++j) b[j] = fb_rng_uniform01(&rng) * 3 - 1.5;
        qsort(a, m, sizeof *a, cmp_d);
        qsort(b, n, sizeof *b, cmp_d);
        for (size_t k = 1; k <= m * n; ++k) {
            CHECK(fb__change_kth_diff(a, m, b, n, k) == brute_kth(a, m, b, n, k));
        }
    }
}

static void check_compare(void) {
    double old[11], now[11], same[11];
    for (int i = 0; i < 11; ++i) {
        old[i] = 1e-8 * (1 + 0.001 * i); /* 10 ns, 0.1% steps */
        now[i] = old[i] * 1.25;
    }
    for (int i = 0; i < 11; ++i) same[i] = old[(i + 5) % 11];
    double err = fb__bl_err_pct(old, 11);
    fb__change c;
    fb__change_compare(old, 11, err, now, 11, err, 5, &c);
    /* every difference is log(1.25): the shift and the interval are exact */
    CHECK_NEAR(c.change_pct, 25.0, 1e-9);
    CHECK(c.mw_lo < log(1.25) + 1e-12 && c.mw_hi > log(1.25) - 1e-12);
    CHECK(c.lo < c.mw_lo && c.hi > c.mw_hi); /* widened by err% */
    CHECK(c.verdict == FB__V_SLOWER);
    fb__change_compare(now, 11, err, old, 11, err, 5, &c);
    CHECK_NEAR(c.change_pct, -20.0, 1e-9);
    CHECK(c.verdict == FB__V_FASTER);
    /* the same sample in another order: no change, a narrow interval */
    fb__change_compare(old, 11, err, same, 11, err, 5, &c);
    CHECK(c.change_pct == 0);
    CHECK(c.lo_pct > -2 && c.hi_pct < 2);
    CHECK(c.verdict == FB__V_SAME);
    /* a 25% change: its interval straddles a 25% threshold, lies within 30% */
    fb__change_compare(old, 11, err, now, 11, err, 25, &c);
    CHECK(c.verdict == FB__V_UNSURE);
    fb__change_compare(old, 11, err, now, 11, err, 30, &c);
    CHECK(c.verdict == FB__V_SAME);
    /* the faster side, mirrored: a -20% change is faster exactly when its
     * whole interval lies below -threshold (its upper end decides), unsure
     * when the interval straddles -threshold, same within a wider one */
    fb__change_compare(now, 11, err, old, 11, err, 5, &c);
    double hi = c.hi_pct, lo = c.lo_pct;
    CHECK(lo < -20 && -20 < hi && hi < -19);
    fb__change_compare(now, 11, err, old, 11, err, -hi - 0.01, &c);
    CHECK(c.verdict == FB__V_FASTER);
    fb__change_compare(now, 11, err, old, 11, err, -hi + 0.01, &c);
    CHECK(c.verdict == FB__V_UNSURE);
    fb__change_compare(now, 11, err, old, 11, err, 20, &c);
    CHECK(c.verdict == FB__V_UNSURE);
    fb__change_compare(now, 11, err, old, 11, err, -lo + 0.01, &c);
    CHECK(c.verdict == FB__V_SAME);
    /* threshold 0: any interval that straddles 0 is unsure */
    fb__change_compare(old, 11, err, same, 11, err, 0, &c);
    CHECK(c.verdict == FB__V_UNSURE);
    /* unstable runs widen the interval: a 25% change with 20% err% each */
    fb__change_compare(old, 11, 20, now, 11, 20, 5, &c);
    CHECK_NEAR(c.change_pct, 25.0, 1e-9);
    CHECK(c.lo_pct < 5);
    CHECK(c.verdict == FB__V_UNSURE);
    /* too few epochs for a 95% interval: unsure, with an infinite interval */
    fb__change_compare(old, 3, 0, now, 3, 0, 5, &c);
    CHECK(isinf(c.lo) && isinf(c.hi));
    CHECK_NEAR(c.change_pct, 25.0, 1e-9);
    CHECK(c.verdict == FB__V_UNSURE);
    /* nothing to compare */
    fb__change_compare(old, 0, 0, now, 11, 0, 5, &c);
    CHECK(isnan(c.change_pct) && c.verdict == FB__V_UNSURE);
    /* the Hodges-Lehmann shift is the median of the differences (even count) */
    double x[] = {1, 2, 3, 4}, y[] = {1.5, 2, 2.5, 4, 9, 10};
    fb__change_compare(x, 4, 0, y, 6, 0, 5, &c);
    double lx[4], ly[6];
    for (int i = 0; i < 4; ++i) lx[i] = log(x[i]);
    for (int j = 0; j < 6; ++j) ly[j] = log(y[j]);
    double hl = 0.5 * (brute_kth(lx, 4, ly, 6, 12) + brute_kth(lx, 4, ly, 6, 13));
    CHECK_NEAR(c.shift, hl, 1e-15);
    /* zero times count as 1 fs, not as log(0) */
    double z[] = {0, 0, 0, 0, 0};
    fb__change_compare(z, 5, 0, z, 5, 0, 5, &c);
    CHECK(c.change_pct == 0 && c.verdict == FB__V_SAME);
}

static void check_threshold(void) {
    double t = -1;
    CHECK(fb__change_parse_threshold("5", &t) == 0 && t == 5);
    CHECK(fb__change_parse_threshold("2.5%", &t) == 0 && t == 2.5);
    CHECK(fb__change_parse_threshold("0", &t) == 0 && t == 0);
    const char *bad[] = {"", "%", "-1", "+5", " 5", "abc", "5x", "1000", "nan", "inf", "5%%"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i)
        CHECK(fb__change_parse_threshold(bad[i], &t) != 0);
    CHECK_STR(fb__verdict_name(FB__V_SLOWER), "slower");
    CHECK_STR(fb__verdict_name(FB__V_GONE), "gone");
}

/* Paired rounds (femtobench-ab): the median log ratio, the sign-test
 * interval at the given confidence, the verdict against the threshold. */
static void check_paired(void) {
    fb__change c;
    double v[30];
    for (int i = 0; i < 30; ++i) v[i] = log(1.10) + (i % 3 - 1) * 0.001; /* 10% slower */
    fb__change_paired(v, 30, 0.99, 3, &c);
    CHECK(c.verdict == FB__V_SLOWER);
    CHECK_NEAR(c.change_pct, 10, 1e-9);
    CHECK(c.lo_pct > 9.8 && c.lo_pct < 10 && c.hi_pct > 10 && c.hi_pct < 10.2);
    for (int i = 0; i < 30; ++i) v[i] = (i % 5 - 2) * 0.002; /* within 0.4%: same */
    fb__change_paired(v, 30, 0.99, 3, &c);
    CHECK(c.verdict == FB__V_SAME && fabs(c.change_pct) < 1e-9);
    for (int i = 0; i < 30; ++i) v[i] = log(0.95) * (i % 2); /* 0 or -5%: unsure */
    fb__change_paired(v, 30, 0.99, 3, &c);
    CHECK(c.verdict == FB__V_UNSURE && c.lo_pct < -3 && c.hi_pct > -3);
    for (int i = 0; i < 30; ++i) v[i] = log(0.9); /* 10% faster, below a 20% threshold */
    fb__change_paired(v, 30, 0.99, 20, &c);
    CHECK(c.verdict == FB__V_SAME);
    fb__change_paired(v, 30, 0.99, 3, &c);
    CHECK(c.verdict == FB__V_FASTER);
    /* 5 rounds support no 99% interval: unsure, with the median still given */
    fb__change_paired(v, 5, 0.99, 3, &c);
    CHECK(c.verdict == FB__V_UNSURE && isnan(c.lo_pct) && isfinite(c.change_pct));
    fb__change_paired(v, 0, 0.99, 3, &c);
    CHECK(c.verdict == FB__V_UNSURE && isnan(c.change_pct));
}

int main(void) {
    check_paired();
    check_ranks();
    check_kth();
    check_compare();
    check_threshold();
    return CHECK_DONE();
}
