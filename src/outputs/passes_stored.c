/* The series over passes stored on the bench (fb__passes_finish) and the
 * accessors through which the writers and the summary read it, or read a
 * bench without one as one series per result. */
#include "passes.h"

#include "bench.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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
    fb__passes_summary_range(&scratch, k, &tmp->ratio);
    return tmp;
}
