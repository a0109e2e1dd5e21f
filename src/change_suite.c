/* The speed of each process, divided out of a change table compared between
 * processes (src/change_suite.h; docs/baselines.md, "The speed of each
 * process").
 *
 * Model, per benchmark b and process p, of the log of the process's median:
 *   l[b][p] = mu[b] + delta[b] (p in the new side) + f[p] + e[b][p]
 * f[p] is the speed of the whole process (a slow stretch of the machine),
 * e the benchmark's own noise. f is estimated as the median over benchmarks
 * of l[b][p] - c[b], c[b] the benchmark's center (the mean of its two sides'
 * medians, so a benchmark that changed sits symmetric around it); the
 * median does not follow one benchmark, or a few, that changed. Paired
 * (-run): the median over benchmarks of the pair's log ratio. Each
 * benchmark's change is then estimated on l - f: delta[b] minus the whole
 * suite's change, which is estimated from the factors themselves. */
#include "change_suite.h"

#include "stats.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void fb__suite_init(fb__suite *s, bool paired) {
    memset(s, 0, sizeof *s);
    s->paired = paired;
}

void fb__suite_free(fb__suite *s) {
    if (!s) return;
    free(s->row);
    free(s->pass);
    free(s->lv);
    free(s->old_pass);
    free(s->new_pass);
    free(s->f_old);
    free(s->f_new);
    memset(s, 0, sizeof *s);
}

static double fb__suite_log(double sec) { return log(sec > 1e-15 ? sec : 1e-15); }

int fb__suite_add(fb__suite *s, const double *old_s, const unsigned *old_pass, size_t m,
                  const double *now_s, const unsigned *now_pass, size_t n) {
    if (s->rows == s->cap_rows) {
        size_t cap = s->cap_rows ? 2 * s->cap_rows : 16;
        fb__suite_row *r = realloc(s->row, cap * sizeof *r);
        if (!r) return FB_ENOMEM;
        s->row = r;
        s->cap_rows = cap;
    }
    if (s->n_vals + m + n > s->cap_vals) {
        size_t cap = s->cap_vals ? 2 * s->cap_vals : 64;
        while (cap < s->n_vals + m + n) cap *= 2;
        unsigned *p = realloc(s->pass, cap * sizeof *p);
        if (p) s->pass = p;
        double *l = p ? realloc(s->lv, cap * sizeof *l) : NULL;
        if (l) s->lv = l;
        if (!l) return FB_ENOMEM;
        s->cap_vals = cap;
    }
    size_t off = s->n_vals;
    for (size_t i = 0; i < m; ++i) {
        s->pass[off + i] = old_pass[i];
        s->lv[off + i] = fb__suite_log(old_s[i]);
    }
    for (size_t j = 0; j < n; ++j) {
        s->pass[off + m + j] = now_pass[j];
        s->lv[off + m + j] = fb__suite_log(now_s[j]);
    }
    s->n_vals += m + n;
    s->row[s->rows++] = (fb__suite_row){m, n, off};
    return FB_OK;
}

/* ------------------------------------------------ the factors */

/* The median of the non-NAN values of v[0..n) at stride `stride` (scratch:
 * n doubles); NAN when none. */
static double fb__suite_median(const double *v, size_t n, size_t stride, double *scratch) {
    size_t k = 0;
    for (size_t i = 0; i < n; ++i)
        if (!isnan(v[i * stride])) scratch[k++] = v[i * stride];
    return k ? fb__median(scratch, k) : NAN;
}

int fb__suite_factors(const double *lo, size_t m, const double *ln, size_t n, size_t b, double *fo,
                      double *fn) {
    size_t most = m > n ? m : n;
    double *c = malloc((b ? b : 1) * sizeof *c);
    double *scratch = malloc(((b > most ? b : most) + 1) * sizeof *scratch);
    if (!c || !scratch) {
        free(c);
        free(scratch);
        return FB_ENOMEM;
    }
    /* each benchmark's center: the mean of its sides' medians */
    for (size_t r = 0; r < b; ++r) {
        double a = fb__suite_median(lo + r * m, m, 1, scratch);
        double z = fb__suite_median(ln + r * n, n, 1, scratch);
        c[r] = isnan(a) ? z : isnan(z) ? a : 0.5 * (a + z);
    }
    /* each process: the median over benchmarks of its distance from them */
    for (int side = 0; side < 2; ++side) {
        const double *l = side ? ln : lo;
        size_t cols = side ? n : m;
        double *f = side ? fn : fo;
        for (size_t p = 0; p < cols; ++p) {
            size_t k = 0;
            for (size_t r = 0; r < b; ++r)
                if (!isnan(l[r * cols + p]) && !isnan(c[r])) scratch[k++] = l[r * cols + p] - c[r];
            f[p] = k ? fb__median(scratch, k) : 0;
        }
    }
    free(c);
    free(scratch);
    return FB_OK;
}

int fb__suite_factors_paired(const double *d, size_t k, size_t b, double *f) {
    double *scratch = malloc((b ? b : 1) * sizeof *scratch);
    if (!scratch) return FB_ENOMEM;
    for (size_t p = 0; p < k; ++p) {
        double med = fb__suite_median(d + p, b, k, scratch);
        f[p] = isnan(med) ? 0 : med;
    }
    free(scratch);
    return FB_OK;
}

unsigned fb__suite_df(size_t p, size_t b, bool paired) {
    if (b == 0) return 0;
    double df = paired ? (p >= 1 ? (double)(p - 1) * (double)(b - 1) / (double)b : 0)
                       : (p >= 2 ? ((double)(p - 2) * (double)b - (double)(p - 1)) / (double)b : 0);
    return df >= 1 && df < (double)UINT_MAX ? (unsigned)floor(df) : 0;
}

static int fb__suite_cmp_unsigned(const void *pa, const void *pb) {
    unsigned a = *(const unsigned *)pa, b = *(const unsigned *)pb;
    return (a > b) - (a < b);
}

/* The sorted distinct passes of one side over all rows; *out is malloc'd. */
static int fb__suite_procs(const fb__suite *s, int side, unsigned **out, size_t *count) {
    *out = malloc((s->n_vals ? s->n_vals : 1) * sizeof **out);
    *count = 0;
    if (!*out) return FB_ENOMEM;
    size_t k = 0;
    for (size_t r = 0; r < s->rows; ++r) {
        const fb__suite_row *w = &s->row[r];
        size_t from = w->off + (side ? w->m : 0), cnt = side ? w->n : w->m;
        for (size_t i = 0; i < cnt; ++i) (*out)[k++] = s->pass[from + i];
    }
    qsort(*out, k, sizeof **out, fb__suite_cmp_unsigned);
    size_t u = 0;
    for (size_t i = 0; i < k; ++i)
        if (u == 0 || (*out)[i] != (*out)[u - 1]) (*out)[u++] = (*out)[i];
    *count = u;
    return FB_OK;
}

static size_t fb__suite_find(const unsigned *v, size_t n, unsigned key) {
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (v[mid] < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo; /* present: the procs list holds every pass of the rows */
}

int fb__suite_fit(fb__suite *s) {
    s->on = false;
    if (s->rows < FB__CHANGE_SUITE_MIN_BENCHMARKS) return FB_OK;
    int rc = fb__suite_procs(s, 0, &s->old_pass, &s->n_old);
    if (rc == FB_OK) rc = fb__suite_procs(s, 1, &s->new_pass, &s->n_new);
    if (rc != FB_OK) return rc;
    size_t m = s->n_old, n = s->n_new, b = s->rows;
    if (s->paired) { /* a pair is known by its pass on both sides */
        free(s->new_pass);
        s->new_pass = s->old_pass;
        s->old_pass = NULL;
        s->n_old = 0;
        n = s->n_new = m;
        m = 0;
    }
    double *lo = malloc((b * m > 0 ? b * m : 1) * sizeof *lo);
    double *ln = malloc((b * n > 0 ? b * n : 1) * sizeof *ln);
    s->f_old = malloc((m ? m : 1) * sizeof *s->f_old);
    s->f_new = malloc((n ? n : 1) * sizeof *s->f_new);
    if (!lo || !ln || !s->f_old || !s->f_new) {
        rc = FB_ENOMEM;
        goto done;
    }
    for (size_t i = 0; i < b * m; ++i) lo[i] = NAN;
    for (size_t i = 0; i < b * n; ++i) ln[i] = NAN;
    for (size_t r = 0; r < b; ++r) {
        const fb__suite_row *w = &s->row[r];
        if (s->paired) {
            for (size_t i = 0; i < w->m && i < w->n; ++i)
                ln[r * n + fb__suite_find(s->new_pass, n, s->pass[w->off + i])] =
                    s->lv[w->off + w->m + i] - s->lv[w->off + i];
            continue;
        }
        for (size_t i = 0; i < w->m; ++i)
            lo[r * m + fb__suite_find(s->old_pass, m, s->pass[w->off + i])] = s->lv[w->off + i];
        for (size_t j = 0; j < w->n; ++j)
            ln[r * n + fb__suite_find(s->new_pass, n, s->pass[w->off + w->m + j])] =
                s->lv[w->off + w->m + j];
    }
    rc = s->paired ? fb__suite_factors_paired(ln, n, b, s->f_new)
                   : fb__suite_factors(lo, m, ln, n, b, s->f_old, s->f_new);
    s->on = rc == FB_OK;
done:
    free(lo);
    free(ln);
    return rc;
}

/* ------------------------------------------------ the verdicts */

unsigned fb__suite_whole_df(const fb__suite *s) {
    if (!s->on) return 0;
    return fb__change_between_df(s->paired ? s->n_new : s->n_old, s->n_new, s->paired);
}

void fb__suite_whole(const fb__suite *s, double t_crit, double threshold_pct, fb__change *out) {
    out->shift = out->mw_lo = out->mw_hi = out->lo = out->hi = NAN;
    out->change_pct = out->lo_pct = out->hi_pct = NAN;
    out->verdict = FB__V_UNSURE;
    if (!s->on) return;
    size_t m = s->paired ? s->n_new : s->n_old, n = s->n_new;
    double *a = malloc((m ? m : 1) * sizeof *a), *z = malloc((n ? n : 1) * sizeof *z);
    if (a && z) {
        /* fb__change_between_t takes times: the factors as ratios */
        for (size_t i = 0; i < m; ++i) a[i] = s->paired ? 1 : exp(s->f_old[i]);
        for (size_t j = 0; j < n; ++j) z[j] = exp(s->f_new[j]);
        fb__change_between_t(a, m, z, n, s->paired, t_crit, threshold_pct, out);
    }
    free(a);
    free(z);
}

/* The row's processes counted as the df takes them: m + n, or the pairs. */
static size_t fb__suite_row_p(const fb__suite *s, const fb__suite_row *w) {
    return s->paired ? (w->m < w->n ? w->m : w->n) : w->m + w->n;
}

unsigned fb__suite_row_df(const fb__suite *s, size_t r) {
    if (!s->on || r >= s->rows) return 0;
    const fb__suite_row *w = &s->row[r];
    if (!s->paired && (w->m == 0 || w->n == 0)) return 0;
    return fb__suite_df(fb__suite_row_p(s, w), s->rows, s->paired);
}

void fb__suite_compare(const fb__suite *s, size_t r, double t_crit, double threshold_pct,
                       fb__change *out) {
    out->shift = out->mw_lo = out->mw_hi = out->lo = out->hi = NAN;
    out->change_pct = out->lo_pct = out->hi_pct = NAN;
    out->verdict = FB__V_UNSURE;
    unsigned df = fb__suite_row_df(s, r);
    if (!df || isnan(t_crit)) return;
    const fb__suite_row *w = &s->row[r];
    const double *l = s->lv + w->off;
    const unsigned *pass = s->pass + w->off;
    size_t m = s->paired ? fb__suite_row_p(s, w) : w->m, n = s->paired ? m : w->n;
    double *a = malloc(m * sizeof *a), *z = malloc(n * sizeof *z);
    if (a && z) {
        /* the values with each process's factor divided out (paired: the
         * pair's factor, from the new side) */
        for (size_t i = 0; i < m; ++i)
            a[i] = exp(l[i] -
                       (s->paired ? 0 : s->f_old[fb__suite_find(s->old_pass, s->n_old, pass[i])]));
        for (size_t j = 0; j < n; ++j)
            z[j] = exp(
                l[w->m + j] -
                s->f_new[fb__suite_find(s->new_pass, s->n_new, pass[s->paired ? j : w->m + j])]);
        /* fb__change_between_t's spread is the residual sum of squares over
         * m + n - 2 (paired: K - 1) degrees of freedom; this row has df:
         * scale its critical value so that the half width is
         * t_crit * sqrt(ss / df) * ... */
        unsigned plain = fb__change_between_df(m, n, s->paired);
        fb__change_between_t(a, m, z, n, s->paired, t_crit * sqrt((double)plain / (double)df),
                             threshold_pct, out);
    }
    free(a);
    free(z);
}
