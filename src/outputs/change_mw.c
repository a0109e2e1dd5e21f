/* The Mann-Whitney interval's pieces for src/outputs/change.c: the rank k
 * from the exact null distribution of U (up to 30 epochs a side, else the
 * normal approximation), and the k-th smallest of the m * n pairwise
 * differences without m * n memory. Pure: no clock, no I/O;
 * tests/test_change.c checks them with known inputs. */
#include "change.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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
