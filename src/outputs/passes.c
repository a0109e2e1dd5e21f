/* Passes of the suite: their order, and a bench's results and comparisons'
 * alternatives grouped over passes into series, each with its summary
 * (src/outputs/passes_summary.c) and user counters. */
#include "passes.h"

#include "bench.h"
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
                fb__passes_summary_range(scratch, m, &pc->range);
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
void fb__passes_locate(const size_t *base, size_t n_cmp, size_t i, size_t *c, size_t *a) {
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
void fb__passes_ratio_of(const fb_bench *b, size_t c, size_t a, double *scratch, size_t *k,
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
    fb__passes_summary_range(scratch, k, &out->ratio);
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
        fb__passes_summary_range(v, 0, &out->sum[s].ratio);
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
