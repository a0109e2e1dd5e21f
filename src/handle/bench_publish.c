/* What the fb_bench handle stores: each finished result (its statistics,
 * its name's complexity fit, the sinks it is handed to) and each finished
 * comparison (its sinks), and the moves of both from one bench to another
 * (the runner's suite record). */
#include "bench_state.h"
#include "misuse.h"
#include "label.h"

#include "compare_stats.h" /* comparisons: release */
#include "text.h"

#include <stdlib.h>
#include <string.h>

static fb__fit_set *fb__bench_fit_mut(fb_bench *b, const char *name) {
    for (size_t i = 0; i < b->n_fits; ++i)
        if (!b->fits[i].family && strcmp(b->fits[i].name, name) == 0) return &b->fits[i];
    return NULL;
}

const fb__fit_set *fb__bench_fit(const fb_bench *b, const char *name) {
    for (size_t i = 0; i < b->n_fits; ++i)
        if (!b->fits[i].family && strcmp(b->fits[i].name, name) == 0) return &b->fits[i];
    return NULL;
}

/* Computes (again) the stored fit of r's name when r carries an N; its
 * family series' stored fit (src/handle/bench_fits.c) is stale from now. */
static int fb__bench_refit(fb_bench *b, const fb_result *r) {
    if (!(r->config.complexity_n > 0) || !r->name) return FB_OK;
    fb__fit_mark_stale(b, r);
    fb__fit_set *s = fb__bench_fit_mut(b, r->name);
    if (!s) {
        fb__fit_set *p = realloc(b->fits, (b->n_fits + 1) * sizeof *p);
        if (!p) return FB_ENOMEM;
        b->fits = p;
        s = &b->fits[b->n_fits];
        memset(s, 0, sizeof *s);
        s->name = fb__strdup(r->name);
        if (!s->name) return FB_ENOMEM;
        ++b->n_fits;
    }
    fb__fit_compute((const fb_result *const *)b->results, b->n_results, s->name, s);
    return FB_OK;
}

int fb__bench_add_result(fb_bench *b, fb_result *r) {
    if (b->n_results == b->cap_results) {
        size_t cap = b->cap_results ? 2 * b->cap_results : 8;
        fb_result **p = realloc(b->results, cap * sizeof *p);
        if (!p) return FB_ENOMEM;
        b->results = p;
        b->cap_results = cap;
    }
    b->results[b->n_results++] = r;
    fb__bench_drop_passes(b); /* a stored series over passes no longer covers them all */
    return fb__bench_refit(b, r);
}

int fb__bench_publish(fb_bench *b, fb_result *r) {
    /* src/handle/ucounter.c: the counters given for this run (false: none given
     * here, e.g. a result measured by -isolate's child and sent back) */
    bool counted_here = fb__ucounters_attach(b, r);
    fb__misuse_attach(b, r); /* src/handle/misuse.c: a bad argument makes it an error row */
    fb__label_attach(b, r);  /* src/handle/label.c: fb_set_label */
    fb__stats_compute(r);
    if (counted_here) fb__ucounters_check(b, r); /* a rate too large to show is said, once */
    size_t before = b->n_results;
    int rc = fb__bench_add_result(b, r);
    if (b->n_results == before) {
        fb__result_free(r);
        return FB_ENOMEM;
    }
    b->last_was_run = true;
    for (size_t i = 0; i < b->n_sinks; ++i) b->sinks[i].fn(b->sinks[i].ctx, b, r);
    return rc;
}

int fb__bench_take_results(fb_bench *dst, fb_bench *src) {
    size_t i = 0;
    int rc = FB_OK;
    if (!src->n_results) return FB_OK; /* results may be NULL: no memmove */
    for (; i < src->n_results; ++i) {
        size_t before = dst->n_results;
        int rc_add = fb__bench_add_result(dst, src->results[i]);
        if (dst->n_results == before) break;
        if (rc_add != FB_OK) rc = rc_add; /* stored, but its fit could not be */
    }
    /* whatever could not be moved stays with src and is freed with it */
    if (i) /* (src->results may be NULL: no pointer arithmetic on it) */
        memmove(src->results, src->results + i, (src->n_results - i) * sizeof *src->results);
    src->n_results -= i;
    fb__bench_drop_passes(src);
    if (src->n_results) rc = FB_ENOMEM;
    return rc;
}

/* -------------------------------------------------------- comparisons */

int fb__bench_add_comparison_sink(fb_bench *b, fb__cmp_sink_fn fn, void *ctx) {
    if (b->n_cmp_sinks == FB__MAX_SINKS) return FB_ENOMEM;
    b->cmp_sinks[b->n_cmp_sinks].fn = fn;
    b->cmp_sinks[b->n_cmp_sinks].ctx = ctx;
    ++b->n_cmp_sinks;
    return FB_OK;
}

static int fb__bench_add_comparison(fb_bench *b, fb_comparison *c) {
    if (b->n_comparisons == b->cap_comparisons) {
        size_t cap = b->cap_comparisons ? 2 * b->cap_comparisons : 4;
        fb_comparison **p = realloc(b->comparisons, cap * sizeof *p);
        if (!p) return FB_ENOMEM;
        b->comparisons = p;
        b->cap_comparisons = cap;
    }
    b->comparisons[b->n_comparisons++] = c;
    fb__bench_drop_passes(b); /* its alternatives are series over passes too */
    return FB_OK;
}

int fb__bench_publish_comparison(fb_bench *b, fb_comparison *c) {
    if (fb__bench_add_comparison(b, c) != FB_OK) {
        fb__comparison_free(c);
        return FB_ENOMEM;
    }
    b->last_was_run = false;
    for (size_t i = 0; i < b->n_cmp_sinks; ++i) b->cmp_sinks[i].fn(b->cmp_sinks[i].ctx, b, c);
    return FB_OK;
}

int fb__bench_take_comparisons(fb_bench *dst, fb_bench *src) {
    size_t i = 0;
    if (!src->n_comparisons) return FB_OK; /* comparisons may be NULL: no memmove */
    for (; i < src->n_comparisons; ++i)
        if (fb__bench_add_comparison(dst, src->comparisons[i]) != FB_OK) break;
    /* whatever could not be moved stays with src and is freed with it */
    memmove(src->comparisons, src->comparisons + i,
            (src->n_comparisons - i) * sizeof *src->comparisons);
    src->n_comparisons -= i;
    return src->n_comparisons ? FB_ENOMEM : FB_OK;
}
