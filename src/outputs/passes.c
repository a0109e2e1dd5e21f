/* Passes of the suite: their order, and the summary over passes of each
 * benchmark's value (median, spread between passes, modes) and of what the
 * writers report over passes (aggregates, counts, user counters). */
#include "passes.h"

#include "bench.h"
#include "report_gbench.h" /* the time unit Google Benchmark names */
#include "stats.h"
#include "ucounter.h" /* user counters as shown */

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

/* A pass that measured a time: what Google Benchmark's rows count as a
 * repetition. */
static bool fb__passes_timed(const fb_result *r) {
    return !r->error && (r->has & FB__BIT(FB_ELAPSED)) && r->values[FB_ELAPSED] && r->epochs;
}

/* The range of v[0..n) (sorted in place). */
static void fb__passes_range(double *v, size_t n, fb__pass_range *out) {
    out->n = n;
    out->median = out->min = out->max = NAN;
    if (!n) return;
    out->median = fb__median(v, n); /* sorts v */
    out->min = v[0];
    out->max = v[n - 1];
}

void fb__passes_aggregate(const fb_result *const *rs, size_t n, double *scratch,
                          fb__pass_summary *out) {
    for (int g = 0; g < FB_VG_MEASURE_COUNT; ++g) { /* exact counts per unit */
        size_t k = 0;
        for (size_t x = 0; x < n; ++x) {
            double c = rs[x]->error ? NAN : fb_result_valgrind(rs[x], (fb_vg_measure)g);
            if (isfinite(c)) scratch[k++] = c / rs[x]->config.batch;
        }
        fb__passes_range(scratch, k, &out->counted[g]);
    }
    out->timed = 0;
    for (size_t x = 0; x < n; ++x) out->timed += fb__passes_timed(rs[x]);
    double per_unit = n ? 1.0 / rs[0]->config.batch : NAN;
    for (int m = 0; m < FB_MEASURE_COUNT; ++m) {
        size_t k = 0;
        for (size_t x = 0; x < n; ++x) {
            const fb_result *r = rs[x];
            if (!fb__passes_timed(r) || !(r->has & FB__BIT(m)) || !r->values[m]) continue;
            scratch[k++] = m == FB_ELAPSED ? r->summary[m].median : r->summary[m].median * per_unit;
        }
        out->all[m] = k > 0 && k == out->timed;
        fb__spread_of(scratch, k, &out->over[m]);
    }
    const char *label;
    double tu_s = 1e-9;
    if (n) fb__gb_unit(rs[0], &label, &tu_s);
    double t_scale = 1.0 / tu_s;
    size_t k = 0;
    for (size_t x = 0; x < n; ++x)
        if (fb__passes_timed(rs[x])) scratch[k++] = rs[x]->summary[FB_ELAPSED].median * t_scale;
    fb__spread_of(scratch, k, &out->gb_time);
    k = 0;
    for (size_t x = 0; x < n; ++x)
        if (fb__passes_timed(rs[x]) && rs[x]->summary[FB_ELAPSED].median > 0)
            scratch[k++] = rs[0]->config.batch / rs[x]->summary[FB_ELAPSED].median;
    fb__spread_of(scratch, k, &out->rate);
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
    out->median = fb__median(v, n); /* sorts v */
    out->min = v[0];
    out->max = v[n - 1];
    /* between passes: the spread the next process is expected to have, not
     * the passes' own (docs/design.md, "Passes") */
    out->err_pct = fb__next_spread_pct(v, n);
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

/* ------------------------------------------------------------ series */

typedef struct fb__ps_ent {
    const fb_result *r;
    size_t i, occ;
    bool alt; /* a comparison's alternative */
} fb__ps_ent;

static int fb__ps_cmp_size(size_t a, size_t b) { return (a > b) - (a < b); }

static int fb__ps_cmp_key(const fb__ps_ent *ea, const fb__ps_ent *eb) {
    const fb_result *a = ea->r, *b = eb->r;
    int c = (int)ea->alt - (int)eb->alt;
    if (!c)
        c = strcmp(a->config.title ? a->config.title : "", b->config.title ? b->config.title : "");
    if (!c) c = strcmp(a->name ? a->name : "", b->name ? b->name : "");
    if (!c)
        c = (a->config.complexity_n > b->config.complexity_n) -
            (a->config.complexity_n < b->config.complexity_n);
    return c;
}

static int fb__ps_cmp_pass(const void *pa, const void *pb) {
    const fb__ps_ent *a = pa, *b = pb;
    int c = fb__ps_cmp_key(a, b);
    if (!c) c = fb__ps_cmp_size(a->r->config.pass, b->r->config.pass);
    return c ? c : fb__ps_cmp_size(a->i, b->i);
}

static int fb__ps_cmp_occ(const void *pa, const void *pb) {
    const fb__ps_ent *a = pa, *b = pb;
    int c = fb__ps_cmp_key(a, b);
    if (!c) c = fb__ps_cmp_size(a->occ, b->occ);
    if (!c) c = fb__ps_cmp_size(a->r->config.pass, b->r->config.pass);
    return c ? c : fb__ps_cmp_size(a->i, b->i);
}

/* groups by their first item (the order of the series) */
typedef struct fb__ps_group {
    size_t first, lo, hi; /* [lo, hi) in the sorted entries */
} fb__ps_group;

static int fb__ps_cmp_first(const void *pa, const void *pb) {
    return fb__ps_cmp_size(((const fb__ps_group *)pa)->first, ((const fb__ps_group *)pb)->first);
}

void fb__passes_series_free(fb__pass_series *s) {
    if (!s) return;
    free(s->counters);
    free((void *)s->items);
    free(s->alt_base);
    free(s->of);
    free(s->start);
    free(s->members);
    free(s->sum);
    memset(s, 0, sizeof *s);
}

/* Each series' user counters over its passes (scratch: a double per
 * item), into one array that the summaries point into. */
static int fb__passes_counters(fb__pass_series *p, double *scratch) {
    size_t total = 0;
    for (size_t s = 0; s < p->n; ++s)
        for (size_t k = p->start[s]; k < p->start[s + 1]; ++k)
            total += fb_result_counter_count(p->items[p->members[k]]);
    p->counters = malloc((total ? total : 1) * sizeof *p->counters);
    if (!p->counters) return FB_ENOMEM;
    fb__pass_counter *c = p->counters;
    for (size_t s = 0; s < p->n; ++s) {
        fb__pass_summary *sum = &p->sum[s];
        sum->counters = c;
        sum->n_counters = 0;
        for (size_t k = p->start[s]; k < p->start[s + 1]; ++k) {
            const fb_result *r = p->items[p->members[k]];
            for (size_t q = 0; q < fb_result_counter_count(r); ++q) {
                const char *name = fb_result_counter_name(r, q);
                bool seen = false; /* few names a series: each result has at most 16 */
                for (size_t i = 0; i < sum->n_counters && !seen; ++i)
                    seen = !strcmp(c[i].name, name);
                if (seen) continue;
                fb__pass_counter *pc = &c[sum->n_counters++];
                snprintf(pc->name, sizeof pc->name, "%s", name);
                size_t m = 0;
                for (size_t k2 = k; k2 < p->start[s + 1]; ++k2) {
                    const fb_result *r2 = p->items[p->members[k2]];
                    for (size_t q2 = 0; q2 < fb_result_counter_count(r2); ++q2)
                        if (!strcmp(fb_result_counter_name(r2, q2), name)) {
                            double x = fb_result_counter(r2, q2);
                            if (isfinite(x)) scratch[m++] = x;
                        }
                }
                fb__passes_range(scratch, m, &pc->range);
            }
        }
        c += sum->n_counters;
    }
    return FB_OK;
}

/* The items of b: its results, then every comparison's alternatives. */
static int fb__passes_items(const fb_bench *b, fb__pass_series *out) {
    size_t n_res;
    const fb_result *const *rs = fb__bench_results(b, &n_res);
    size_t n_cmp = fb_comparison_count(b), n = n_res;
    for (size_t c = 0; c < n_cmp; ++c) n += fb_comparison_size(fb_comparison_at(b, c));
    out->items = malloc((n ? n : 1) * sizeof *out->items);
    out->alt_base = malloc((n_cmp + 1) * sizeof *out->alt_base);
    if (!out->items || !out->alt_base) return FB_ENOMEM;
    for (size_t i = 0; i < n_res; ++i) out->items[i] = rs[i];
    size_t k = n_res;
    for (size_t c = 0; c < n_cmp; ++c) {
        const fb_comparison *cmp = fb_comparison_at(b, c);
        out->alt_base[c] = k;
        for (size_t a = 0; a < fb_comparison_size(cmp); ++a)
            out->items[k++] = fb_comparison_result(cmp, a);
    }
    out->alt_base[n_cmp] = k;
    out->n_items = n;
    return FB_OK;
}

/* Item i (>= the results) as comparison *c, alternative *a: by bisection
 * of base[0..n_cmp] (each comparison's first item). */
static void fb__passes_locate(const size_t *base, size_t n_cmp, size_t i, size_t *c, size_t *a) {
    size_t lo = 0, hi = n_cmp; /* base[lo] <= i < base[hi] */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (base[mid] <= i)
            lo = mid;
        else
            hi = mid;
    }
    *c = lo;
    *a = i - base[lo];
}

/* Alternative a of comparison c in one pass: its ratio to the baseline
 * (appended to scratch[*k] when finite) and whether it was significantly
 * faster or slower (counted in out). */
static void fb__passes_ratio_of(const fb_bench *b, size_t c, size_t a, double *scratch, size_t *k,
                                fb__pass_summary *out) {
    const fb_comparison *cmp = fb_comparison_at(b, c);
    double r = fb_comparison_ratio(cmp, a);
    if (!isfinite(r)) return;
    scratch[(*k)++] = r;
    if (fb_comparison_significant(cmp, a)) r > 1 ? ++out->faster : ++out->slower;
}

/* The ratio of an alternative's series over its passes: the items
 * it[0..n) of one series, all alternatives (scratch: n doubles). */
static void fb__passes_ratio(const fb_bench *b, const fb__pass_series *p, const size_t *it,
                             size_t n, double *scratch, fb__pass_summary *out) {
    size_t k = 0;
    out->faster = out->slower = 0;
    for (size_t x = 0; x < n; ++x) {
        size_t c, a;
        fb__passes_locate(p->alt_base, fb_comparison_count(b), it[x], &c, &a);
        fb__passes_ratio_of(b, c, a, scratch, &k, out);
    }
    fb__passes_range(scratch, k, &out->ratio);
}

int fb__passes_series(const fb_bench *b, fb__pass_series *out) {
    memset(out, 0, sizeof *out);
    size_t n_res = fb_result_count(b);
    int rc = fb__passes_items(b, out);
    size_t n = out->n_items;
    fb__ps_ent *e = malloc((n ? n : 1) * sizeof *e);
    fb__ps_group *g = malloc((n ? n : 1) * sizeof *g);
    double *v = malloc((n ? n : 1) * sizeof *v);
    const fb_result **pr = malloc((n ? n : 1) * sizeof *pr); /* one series' results */
    out->of = malloc((n ? n : 1) * sizeof *out->of);
    out->start = malloc((n + 1) * sizeof *out->start);
    out->members = malloc((n ? n : 1) * sizeof *out->members);
    out->sum = malloc((n ? n : 1) * sizeof *out->sum);
    if (rc != FB_OK || !e || !g || !v || !pr || !out->of || !out->start || !out->members ||
        !out->sum) {
        rc = FB_ENOMEM;
        goto done;
    }
    for (size_t i = 0; i < n; ++i) e[i] = (fb__ps_ent){out->items[i], i, 0, i >= n_res};
    qsort(e, n, sizeof *e, fb__ps_cmp_pass);
    for (size_t i = 1; i < n; ++i)
        if (!fb__ps_cmp_key(&e[i], &e[i - 1]) && e[i].r->config.pass == e[i - 1].r->config.pass)
            e[i].occ = e[i - 1].occ + 1;
    qsort(e, n, sizeof *e, fb__ps_cmp_occ);
    size_t ng = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i + 1, first = e[i].i;
        while (j < n && !fb__ps_cmp_key(&e[j], &e[i]) && e[j].occ == e[i].occ) {
            if (e[j].i < first) first = e[j].i;
            ++j;
        }
        g[ng++] = (fb__ps_group){first, i, j};
        i = j;
    }
    qsort(g, ng, sizeof *g, fb__ps_cmp_first);
    size_t m = 0;
    for (size_t s = 0; s < ng; ++s) {
        out->start[s] = m;
        size_t k = 0;
        for (size_t x = g[s].lo; x < g[s].hi; ++x) {
            const fb_result *r = e[x].r;
            out->of[e[x].i] = s;
            out->members[m++] = e[x].i;
            pr[x - g[s].lo] = r;
            if (!r->error && (r->has & FB__BIT(FB_ELAPSED)) && r->epochs)
                v[k++] = r->summary[FB_ELAPSED].median / r->config.batch;
        }
        if (g[s].hi - g[s].lo > out->max_passes) out->max_passes = (unsigned)(g[s].hi - g[s].lo);
        fb__passes_summarize(v, k, &out->sum[s]);
        fb__passes_aggregate(pr, g[s].hi - g[s].lo, v, &out->sum[s]);
        fb__passes_range(v, 0, &out->sum[s].ratio);
        if (out->members[out->start[s]] >= n_res) /* a comparison's alternative */
            fb__passes_ratio(b, out, out->members + out->start[s], g[s].hi - g[s].lo, v,
                             &out->sum[s]);
    }
    out->start[ng] = m;
    out->n = ng;
    rc = fb__passes_counters(out, v);
done:
    free(e);
    free(g);
    free(v);
    free(pr);
    if (rc != FB_OK) fb__passes_series_free(out);
    return rc;
}

/* ------------------------------------------------------ stored series */

/* Frees a series fb__passes_finish stored (the bench calls it). */
static void fb__passes_release(fb__pass_series *s) {
    fb__passes_series_free(s);
    free(s);
}

int fb__passes_finish(fb_bench *b) {
    fb__bench_set_passes(b, NULL, NULL);
    fb__pass_series *s = malloc(sizeof *s);
    if (!s) return FB_ENOMEM;
    if (fb__passes_series(b, s) != FB_OK) {
        free(s);
        return FB_ENOMEM;
    }
    fb__bench_set_passes(b, s, fb__passes_release);
    return FB_OK;
}

/* Without a stored series: item i of b (>= its results) as comparison *c,
 * alternative *a (O(comparisons)); false past the last. */
static bool fb__passes_scan(const fb_bench *b, size_t i, size_t *c, size_t *a) {
    i -= fb_result_count(b);
    for (*c = 0; *c < fb_comparison_count(b); ++*c) {
        size_t size = fb_comparison_size(fb_comparison_at(b, *c));
        if (i < size) {
            *a = i;
            return true;
        }
        i -= size;
    }
    return false;
}

/* Without a stored series: item i of b, a result or an alternative's. */
static const fb_result *fb__passes_item(const fb_bench *b, size_t i) {
    size_t c, a;
    if (i < fb_result_count(b)) return fb_result_at(b, i);
    return fb__passes_scan(b, i, &c, &a) ? fb_comparison_result(fb_comparison_at(b, c), a) : NULL;
}

static size_t fb__passes_items_count(const fb_bench *b) {
    size_t n = fb_result_count(b);
    for (size_t c = 0; c < fb_comparison_count(b); ++c)
        n += fb_comparison_size(fb_comparison_at(b, c));
    return n;
}

size_t fb__passes_count(const fb_bench *b) {
    const fb__pass_series *p = fb__bench_passes(b);
    return p ? p->n : fb__passes_items_count(b);
}

unsigned fb__passes_max(const fb_bench *b) {
    const fb__pass_series *p = fb__bench_passes(b);
    return p ? p->max_passes : fb__passes_items_count(b) ? 1 : 0;
}

size_t fb__passes_of(const fb_bench *b, size_t i) {
    const fb__pass_series *p = fb__bench_passes(b);
    return p ? p->of[i] : i;
}

size_t fb__passes_of_alternative(const fb_bench *b, size_t c, size_t a) {
    const fb__pass_series *p = fb__bench_passes(b);
    if (p) return p->of[p->alt_base[c] + a];
    size_t i = fb_result_count(b) + a;
    for (size_t q = 0; q < c; ++q) i += fb_comparison_size(fb_comparison_at(b, q));
    return i;
}

size_t fb__passes_size(const fb_bench *b, size_t s) {
    const fb__pass_series *p = fb__bench_passes(b);
    return p ? p->start[s + 1] - p->start[s] : 1;
}

const fb_result *fb__passes_result(const fb_bench *b, size_t s, size_t k) {
    const fb__pass_series *p = fb__bench_passes(b);
    return p ? p->items[p->members[p->start[s] + k]] : fb__passes_item(b, s);
}

bool fb__passes_is_alternative(const fb_bench *b, size_t s) {
    const fb__pass_series *p = fb__bench_passes(b);
    return (p ? p->members[p->start[s]] : s) >= fb_result_count(b);
}

bool fb__passes_alternative_at(const fb_bench *b, size_t s, size_t k, size_t *c, size_t *a) {
    const fb__pass_series *p = fb__bench_passes(b);
    size_t i = p ? p->members[p->start[s] + k] : s, n_res = fb_result_count(b);
    if (i < n_res) return false;
    if (!p) return fb__passes_scan(b, i, c, a);
    fb__passes_locate(p->alt_base, fb_comparison_count(b), i, c, a);
    return true;
}

const fb__pass_summary *fb__passes_sum(const fb_bench *b, size_t s, fb__pass_summary *tmp) {
    const fb__pass_series *p = fb__bench_passes(b);
    if (p) return &p->sum[s];
    /* one result, one pass: its own median per unit, as fb__passes_summarize
     * gives for one value (none when it measured no time) */
    const fb_result *r = fb__passes_item(b, s);
    memset(tmp, 0, sizeof *tmp);
    tmp->median = tmp->err_pct = tmp->min = tmp->max = NAN;
    if (!r->error && (r->has & FB__BIT(FB_ELAPSED)) && r->epochs) {
        tmp->passes = 1;
        tmp->median = tmp->min = tmp->max = r->summary[FB_ELAPSED].median / r->config.batch;
        tmp->err_pct = 0;
    }
    double scratch;
    fb__passes_aggregate(&r, 1, &scratch, tmp);
    size_t c, a, k = 0; /* an alternative: its comparison's ratio */
    if (fb__passes_alternative_at(b, s, 0, &c, &a)) fb__passes_ratio_of(b, c, a, &scratch, &k, tmp);
    fb__passes_range(&scratch, k, &tmp->ratio);
    return tmp;
}
