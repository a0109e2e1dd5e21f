/* Asymptotic complexity: fits the median time of results tagged with a
 * complexity N against O(1), O(log n), O(n), O(n log n), O(n^2), O(n^3).
 *
 * The method (docs/complexity.md has the long version and the reasons):
 * - every model but O(1) is time = constant + coefficient * f(N), both terms
 *   non-negative, fitted by least squares on *relative* residuals
 *   (weights 1/y^2), so the smallest N counts as much as the largest and a
 *   fixed cost does not push the fit towards a flatter model;
 * - err% is the RMS of the relative residuals, the quantity the fit minimizes;
 * - a growing model is chosen over O(1) only when its predicted time rises
 *   by at least 5% over the measured N range and the time depends on N by
 *   an F test against O(1) or by Kendall's trend test, each at the 1%
 *   level; otherwise O(1) is reported first.
 * With exactly two distinct N a line through two points fits any model, so
 * the growing models are then fitted without the constant term.
 *
 * Reads results through the public accessors and allocates nothing: each
 * pass walks the results again. The fit of a benchmark is computed once per
 * new point and stored with the results (fb__fit_set); writers only read it. */
#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The err% of the best fit above which no model is said to fit. */
#define FB__CX_NO_FIT_PCT 20.0
/* The err% of O(1) up to which a time that no growing model beats is
 * called flat; above it the points did not decide. */
#define FB__CX_FLAT_PCT 10.0

/* Models in order of simplicity: ties go to the earlier one. */
enum { FB__CX_O1 = 0, FB__CX_LOGN, FB__CX_N, FB__CX_NLOGN, FB__CX_N2, FB__CX_N3 };

static const char *const fb__cx_names[FB_FIT_MODELS] = {"O(1)",       "O(log n)", "O(n)",
                                                        "O(n log n)", "O(n^2)",   "O(n^3)"};

/* A growing model must raise the predicted time by this fraction between
 * the smallest and the largest N to be told apart from O(1). */
#define FB__CX_MIN_RISE 0.05

static double fb__cx_f(int model, double n) {
    switch (model) {
    case FB__CX_LOGN:
        return log2(n);
    case FB__CX_N:
        return n;
    case FB__CX_NLOGN:
        return n * log2(n);
    case FB__CX_N2:
        return n * n;
    case FB__CX_N3:
        return n * n * n;
    default:
        return 1.0;
    }
}

/* Result i of b as a data point: with the name asked for, a positive
 * finite N, no error and a positive finite median time per call. */
/* The results a fit reads. */
typedef struct fb__cx_src {
    const fb_result *const *r;
    size_t n;
} fb__cx_src;

bool fb__fit_point(const fb_result *r, double *n, double *y) {
    /* counted under Callgrind (-valgrind): the exact instructions per call */
    bool counted = r && fb_result_counted(r);
    if (!r || fb_result_error(r) || (!counted && !fb_result_has(r, FB_ELAPSED))) return false;
    *n = fb_result_complexity_n(r);
    *y = counted ? fb_result_valgrind(r, FB_VG_INSTRUCTIONS) : fb_result_median(r, FB_ELAPSED);
    return isfinite(*n) && *n > 0 && isfinite(*y) && *y > 0;
}

static bool fb__cx_point(const fb__cx_src *b, const char *name, size_t i, double *n, double *y) {
    const fb_result *r = i < b->n ? b->r[i] : NULL;
    if (r && name) {
        const char *rn = fb_result_name(r);
        if (!rn || strcmp(rn, name) != 0) return false;
    }
    return fb__fit_point(r, n, y);
}

/* What the data looks like before any fit. */
typedef struct fb__cx_data {
    size_t points;
    size_t distinct; /* distinct N, counted up to 3 */
    double n_min, n_max, y_max;
} fb__cx_data;

static void fb__cx_scan(const fb__cx_src *b, const char *name, fb__cx_data *d) {
    double seen[2] = {0, 0};
    memset(d, 0, sizeof *d);
    for (size_t i = 0, count = b->n; i < count; i++) {
        double n, y;
        if (!fb__cx_point(b, name, i, &n, &y)) continue;
        if (d->points == 0 || n < d->n_min) d->n_min = n;
        if (d->points == 0 || n > d->n_max) d->n_max = n;
        if (y > d->y_max) d->y_max = y;
        d->points++;
        if (d->distinct < 3) {
            bool known = false;
            for (size_t k = 0; k < d->distinct; k++) known = known || seen[k] == n;
            if (!known) {
                if (d->distinct < 2) seen[d->distinct] = n;
                d->distinct++;
            }
        }
    }
}

/* Sum of squared relative residuals of y = constant + coefficient * f(N). */
static double fb__cx_rss(const fb__cx_src *b, const char *name, int model, double constant,
                         double coefficient) {
    double rss = 0;
    for (size_t i = 0, count = b->n; i < count; i++) {
        double n, y;
        if (!fb__cx_point(b, name, i, &n, &y)) continue;
        double e = (constant + coefficient * fb__cx_f(model, n) - y) / y;
        rss += e * e;
    }
    return rss;
}

/* Weighted least squares with weights 1/y^2 is ordinary least squares of
 * constant * u + coefficient * v against 1, with u = 1/y and v = f(N)/y.
 * Times are scaled by y_max and f by f(n_max) so the sums stay well
 * conditioned whatever the units; the result is scaled back. Both terms are
 * kept non-negative: when the free solution has a negative term, the best
 * of the two one-term fits is taken (the minimum of a convex quadratic over
 * the quadrant lies on an axis when it is not inside). */
static void fb__cx_solve(const fb__cx_src *b, const char *name, const fb__cx_data *d, int model,
                         bool with_constant, fb_fit *out) {
    double fs = fabs(fb__cx_f(model, d->n_max));
    if (!(fs > 0)) fs = 1;
    double suu = 0, suv = 0, svv = 0, su = 0, sv = 0;
    for (size_t i = 0, count = b->n; i < count; i++) {
        double n, y;
        if (!fb__cx_point(b, name, i, &n, &y)) continue;
        double u = d->y_max / y, v = fb__cx_f(model, n) / fs * u;
        suu += u * u;
        suv += u * v;
        svv += v * v;
        su += u;
        sv += v;
    }
    /* candidates: constant only, coefficient only, both */
    double ca[3] = {su / suu, 0, 0};
    double cc[3] = {0, svv > 0 && sv > 0 ? sv / svv : 0, 0};
    int ncand = 2;
    double det = suu * svv - suv * suv;
    if (with_constant && det > 1e-12 * suu * svv) {
        ca[2] = (su * svv - sv * suv) / det;
        cc[2] = (sv * suu - su * suv) / det;
        if (ca[2] >= 0 && cc[2] >= 0) ncand = 3;
    }
    /* O(1): the level alone; without a constant: the coefficient alone */
    int first = 0, last = 0;
    if (model != FB__CX_O1) {
        first = with_constant ? 0 : 1;
        last = with_constant ? ncand - 1 : 1;
    }
    double best_rss = HUGE_VAL;
    out->name = fb__cx_names[model];
    out->coefficient = out->constant = 0;
    for (int k = first; k <= last; k++) {
        double constant = ca[k] * d->y_max, coefficient = cc[k] * d->y_max / fs;
        double rss = model == FB__CX_O1 ? fb__cx_rss(b, name, model, 0, constant)
                                        : fb__cx_rss(b, name, model, constant, coefficient);
        /* strict: on a tie the earlier, simpler candidate stays */
        if (rss < best_rss) {
            best_rss = rss;
            if (model == FB__CX_O1) {
                out->coefficient = constant; /* the level; f(n) = 1 */
                out->constant = 0;
            } else {
                out->constant = constant;
                out->coefficient = coefficient;
            }
        }
    }
    out->err_pct = 100.0 * sqrt(best_rss / (double)d->points);
}

/* Two-sided 1% critical value of Student's t with dof degrees of freedom. */
static double fb__cx_t99(size_t dof) {
    static const double table[30] = {63.657, 9.925, 5.841, 4.604, 4.032, 3.707, 3.499, 3.355,
                                     3.250,  3.169, 3.106, 3.055, 3.012, 2.977, 2.947, 2.921,
                                     2.898,  2.878, 2.861, 2.845, 2.831, 2.819, 2.807, 2.797,
                                     2.787,  2.779, 2.771, 2.763, 2.756, 2.750};
    if (dof >= 1 && dof <= 30) return table[dof - 1];
    /* Cornish-Fisher expansion around the normal quantile */
    double z = 2.5758293035489, z3 = z * z * z, z5 = z3 * z * z, v = (double)dof;
    return z + (z3 + z) / (4 * v) + (5 * z5 + 16 * z3 + 3 * z) / (96 * v * v);
}

/* Kendall's trend test: the one-sided p-value of "time rises with N",
 * from S = sum over pairs of different N of sign(dN) * sign(dy). It needs
 * no model, so it still sees a clear rise that no model fits well (a cache
 * cliff, say), where the F test, measuring against the misfit, does not.
 * Exact (the distribution of inversions of a random permutation) up to
 * FB__CX_EXACT points with distinct N; else the normal approximation with
 * the variance corrected for repeated N. */
#define FB__CX_EXACT 32

static double fb__cx_trend_p(const fb__cx_src *b, const char *name, size_t m) {
    long long s = 0;
    double ties = 0;
    size_t count = b->n;
    for (size_t i = 0; i < count; i++) {
        double ni, yi;
        if (!fb__cx_point(b, name, i, &ni, &yi)) continue;
        double t = 1; /* points with this N, this one included */
        for (size_t j = 0; j < count; j++) {
            double nj, yj;
            if (j == i || !fb__cx_point(b, name, j, &nj, &yj)) continue;
            if (nj == ni)
                t++;
            else if (j > i && yj != yi)
                s += (nj > ni) == (yj > yi) ? 1 : -1;
        }
        ties += (t - 1) * (2 * t + 5); /* over a group of t: t(t-1)(2t+5) */
    }
    if (ties == 0 && m <= FB__CX_EXACT) {
        /* P(inversions = k) for 1, 2, .., m items: adding item j adds 0 to
         * j-1 inversions, equally likely */
        double p[FB__CX_EXACT * (FB__CX_EXACT - 1) / 2 + 1], c[sizeof p / sizeof *p];
        size_t top = 0; /* largest count of inversions so far */
        p[0] = 1;
        for (size_t j = 2; j <= m; j++) {
            double run = 0;
            for (size_t k = 0; k <= top; k++) c[k] = run += p[k];
            top += j - 1;
            for (size_t k = 0; k <= top; k++) {
                double hi = c[k < top - (j - 1) ? k : top - (j - 1)];
                double lo = k >= j ? c[k - j] : 0;
                p[k] = (hi - lo) / (double)j;
            }
        }
        /* S = pairs - 2 * inversions; ties in y round towards no trend */
        long long pairs = (long long)(m * (m - 1) / 2), inv = (pairs - s + 1) / 2;
        double tail = 0;
        for (long long k = 0; k <= inv && k <= (long long)top; k++) tail += p[k];
        return tail;
    }
    double md = (double)m, var = (md * (md - 1) * (2 * md + 5) - ties) / 18;
    if (!(var > 0)) return 1;
    return 0.5 * erfc(((double)s - 1) / sqrt(2 * var)); /* continuity-corrected */
}

/* Does the growing fit g beat the O(1) fit c0 meaningfully? */
static bool fb__cx_significant(const fb__cx_src *b, const char *name, const fb__cx_data *d,
                               int model, const fb_fit *g, const fb_fit *c0) {
    if (!(g->coefficient > 0)) return false;
    double lo = g->constant + g->coefficient * fb__cx_f(model, d->n_min);
    double hi = g->constant + g->coefficient * fb__cx_f(model, d->n_max);
    if (!(lo > 0) || hi - lo < FB__CX_MIN_RISE * lo) return false;
    /* rss = m * err^2, and m cancels out of F */
    double rss1 = g->err_pct * g->err_pct, rss0 = c0->err_pct * c0->err_pct;
    if (d->distinct < 3) /* nothing left to test with: the lower error wins */
        return rss1 < rss0;
    double dof = (double)(d->points - 2), t = fb__cx_t99(d->points - 2);
    /* F = (rss0 - rss1) / (rss1 / dof) >= t^2, without dividing by 0 */
    if (rss0 > rss1 && (rss0 - rss1) * dof >= t * t * rss1) return true;
    return fb__cx_trend_p(b, name, d->points) <= 0.01;
}

/* Two growing models A and B have the same number of terms, so
 * neither is nested in the other; both are nested in y = constant + a fA(N)
 * + b fB(N). B is needed beyond A when adding B's term to A lowers the RSS
 * significantly: F = (RSS_A - RSS_AB) / (RSS_AB / (m - 3)) >= t^2 (1%).
 * RSS_AB (relative residuals, unconstrained) comes from a modified
 * Gram-Schmidt over the columns u = y_max / y, fA(N) / fA(n_max) * u and
 * fB(N) / fB(n_max) * u, each inner product summed point by point (the
 * normal equations of these nearly collinear columns would lose every
 * digit). Columns are kept as combinations of the three: basis k is
 * A c[k]. Returns RSS_AB, or -1 when the columns are degenerate. */
typedef struct fb__cx_union {
    const fb__cx_src *b;
    const char *name;
    const fb__cx_data *d;
    int model[2];
    double fs[2];
} fb__cx_union;

/* sum over points of (A x)_i (A z)_i; z NULL: the target 1 */
static double fb__cx_dot(const fb__cx_union *U, const double *x, const double *z) {
    double sum = 0;
    for (size_t i = 0, count = U->b->n; i < count; i++) {
        double n, y;
        if (!fb__cx_point(U->b, U->name, i, &n, &y)) continue;
        double u = U->d->y_max / y;
        double col[3] = {u, fb__cx_f(U->model[0], n) / U->fs[0] * u,
                         fb__cx_f(U->model[1], n) / U->fs[1] * u};
        double ax = x[0] * col[0] + x[1] * col[1] + x[2] * col[2];
        double az = z ? z[0] * col[0] + z[1] * col[1] + z[2] * col[2] : 1;
        sum += ax * az;
    }
    return sum;
}

static double fb__cx_rss_union(const fb__cx_src *b, const char *name, const fb__cx_data *d, int ma,
                               int mb) {
    fb__cx_union U = {
        b, name, d, {ma, mb}, {fabs(fb__cx_f(ma, d->n_max)), fabs(fb__cx_f(mb, d->n_max))}};
    for (int k = 0; k < 2; k++)
        if (!(U.fs[k] > 0)) U.fs[k] = 1;
    double c[3][3] = {{0}}, proj[3];
    for (int k = 0; k < 3; k++) {
        double w[3] = {0, 0, 0};
        w[k] = 1;
        double norm0 = sqrt(fb__cx_dot(&U, w, w));
        for (int j = 0; j < k; j++) {
            double p = fb__cx_dot(&U, c[j], w);
            for (int q = 0; q < 3; q++) w[q] -= p * c[j][q];
        }
        double norm = sqrt(fb__cx_dot(&U, w, w));
        if (!(norm > 1e-9 * norm0)) return -1;
        for (int q = 0; q < 3; q++) c[k][q] = w[q] / norm;
        proj[k] = fb__cx_dot(&U, c[k], NULL);
    }
    /* the residual of the target 1 after its projection on the basis */
    double x[3] = {0, 0, 0};
    for (int k = 0; k < 3; k++)
        for (int q = 0; q < 3; q++) x[q] += proj[k] * c[k][q];
    double one = 0, fit_one = fb__cx_dot(&U, x, NULL), fit_fit = fb__cx_dot(&U, x, x);
    for (size_t i = 0, count = b->n; i < count; i++) {
        double n, y;
        if (fb__cx_point(b, name, i, &n, &y)) one += 1;
    }
    /* |1 - Ax|^2 = m - 2 <Ax, 1> + |Ax|^2, each summed point by point */
    double rss = one - 2 * fit_one + fit_fit;
    return rss > 0 ? rss : 0;
}

/* Distinct N among the points (fb__cx_data counts only up to 3), from a
 * sorted copy: n log n. Out of memory: the scan's count, at most 3. */
static size_t fb__cx_distinct(const fb__cx_src *b, const char *name) {
    double *ns = malloc((b->n ? b->n : 1) * sizeof *ns);
    size_t m = 0, distinct = 0;
    if (!ns) {
        fb__cx_data d;
        fb__cx_scan(b, name, &d);
        return d.distinct;
    }
    for (size_t i = 0, count = b->n; i < count; i++) {
        double n, y;
        if (fb__cx_point(b, name, i, &n, &y)) ns[m++] = n;
    }
    qsort(ns, m, sizeof *ns, fb__dbl_cmp);
    for (size_t i = 0; i < m; i++) distinct += i == 0 || ns[i] != ns[i - 1];
    free(ns);
    return distinct;
}

/* Is growing model m told apart from the best one (its RSS significantly
 * above what the union of both explains)? With fewer than 4 points there
 * is no degree of freedom for the test: m is then apart only when its err%
 * is more than twice the best's and above 1%. */
static bool fb__cx_apart(const fb__cx_src *b, const char *name, const fb__cx_data *d, int m,
                         int best, const fb_fit *all) {
    double rss_m = all[m].err_pct * all[m].err_pct / 1e4 * (double)d->points;
    if (fb__cx_distinct(b, name) < 4)
        return all[m].err_pct > 2 * all[best].err_pct && all[m].err_pct > 1.0;
    double rss_u = fb__cx_rss_union(b, name, d, m, best);
    if (rss_u < 0) return false; /* the same shape on these N */
    double dof = (double)(d->points - 3), t = fb__cx_t99(d->points - 3);
    return rss_m > rss_u && (rss_m - rss_u) * dof >= t * t * rss_u;
}

typedef struct fb__cx_verdict {
    int verdict;
    size_t candidates;
    const char *names[FB_FIT_MODELS];
    double rise;
} fb__cx_verdict;

/* The time at the largest N over that at the smallest (medians of the
 * points at those N, geometric mean when repeated). */
static double fb__cx_rise(const fb__cx_src *b, const char *name, const fb__cx_data *d) {
    double lo = 0, hi = 0;
    size_t nlo = 0, nhi = 0;
    for (size_t i = 0, count = b->n; i < count; i++) {
        double n, y;
        if (!fb__cx_point(b, name, i, &n, &y)) continue;
        if (n == d->n_min) lo += log(y), nlo++;
        if (n == d->n_max) hi += log(y), nhi++;
    }
    return nlo && nhi ? exp(hi / (double)nhi - lo / (double)nlo) : NAN;
}

static size_t fb__cx_fit(const fb__cx_src *b, const char *name, fb_fit *fits, size_t cap,
                         size_t *distinct, fb__cx_verdict *v) {
    fb__cx_data d;
    fb__cx_scan(b, name, &d);
    *distinct = d.distinct;
    if (v) {
        memset(v, 0, sizeof *v);
        v->verdict = FB__CX_TWO_POINTS;
        v->rise = NAN;
    }
    if (d.distinct < 2) return 0;

    fb_fit all[FB_FIT_MODELS];
    bool with_constant = d.distinct >= 3;
    for (int m = 0; m < FB_FIT_MODELS; m++) fb__cx_solve(b, name, &d, m, with_constant, &all[m]);

    /* the best growing model by err%, earlier (simpler) on a tie */
    int best = FB__CX_LOGN;
    for (int m = FB__CX_LOGN + 1; m < FB_FIT_MODELS; m++)
        if (all[m].err_pct < all[best].err_pct) best = m;
    bool grows = fb__cx_significant(b, name, &d, best, &all[best], &all[FB__CX_O1]);

    /* the growing models the points do not tell apart from the
     * best; the simplest of them is named first (with 2 distinct N every
     * model goes through the origin and the lower error decides) */
    bool tied[FB_FIT_MODELS] = {false};
    size_t n_tied = 0;
    int chosen = FB__CX_O1;
    if (grows && all[best].err_pct > FB__CX_NO_FIT_PCT) {
        /* no model fits: the best is named, as the best, not as a verdict */
        tied[best] = true;
        n_tied = 1;
        chosen = best;
    } else if (grows) {
        for (int m = FB__CX_LOGN; m < FB_FIT_MODELS; m++) {
            tied[m] = m == best || (with_constant && !fb__cx_apart(b, name, &d, m, best, all));
            if (tied[m] && n_tied++ == 0) chosen = m;
        }
    } else {
        tied[FB__CX_O1] = true;
        n_tied = 1;
    }

    /* the chosen model first, then the rest by err%; insertion sort is
     * stable, so ties keep the simpler model first */
    int order[FB_FIT_MODELS];
    size_t k = 0;
    order[k++] = chosen;
    for (int m = 0; m < FB_FIT_MODELS; m++) {
        if (m == chosen) continue;
        size_t j = k++;
        while (j > 1 && all[order[j - 1]].err_pct > all[m].err_pct) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = m;
    }
    for (size_t i = 0; i < cap && i < FB_FIT_MODELS && fits; i++) fits[i] = all[order[i]];
    if (v) {
        v->candidates = 0;
        for (int m = 0; m < FB_FIT_MODELS; m++)
            if (tied[m]) v->names[v->candidates++] = fb__cx_names[m];
        v->rise = fb__cx_rise(b, name, &d);
        if (d.distinct < 3)
            v->verdict = FB__CX_TWO_POINTS;
        else if (!grows)
            /* O(1) is not rejected: flat only when it fits like a flat line */
            v->verdict = all[FB__CX_O1].err_pct <= FB__CX_FLAT_PCT ? FB__CX_FLAT : FB__CX_UNDECIDED;
        else if (all[best].err_pct > FB__CX_NO_FIT_PCT)
            v->verdict = FB__CX_NO_FIT;
        else
            v->verdict = n_tied > 1 ? FB__CX_NOT_SEPARATED : FB__CX_MODEL;
    }
    return FB_FIT_MODELS;
}

size_t fb__fit_models(const fb_result *const *results, size_t n_results, const char *name,
                      fb_fit *fits, size_t cap) {
    fb__cx_src src = {results, n_results};
    size_t distinct;
    return fb__cx_fit(&src, name, fits, cap, &distinct, NULL);
}

void fb__fit_compute(const fb_result *const *results, size_t n_results, const char *name,
                     fb__fit_set *out) {
    fb__cx_src src = {results, n_results};
    fb__cx_verdict v;
    fb__cx_data d;
    out->n = fb__cx_fit(&src, name, out->fits, FB_FIT_MODELS, &out->distinct, &v);
    fb__cx_scan(&src, name, &d);
    if (out->distinct >= 3) out->distinct = fb__cx_distinct(&src, name); /* the note's count */
    out->verdict = v.verdict;
    out->candidates = v.candidates;
    memcpy(out->candidate_names, v.names, sizeof v.names);
    out->rise = v.rise;
    out->n_min = d.n_min;
    out->n_max = d.n_max;
}
