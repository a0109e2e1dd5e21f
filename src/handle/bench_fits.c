/* The complexity fits stored with a bench's results, one per group
 * (docs/complexity.md, "Families"): a name's (stored by src/handle/bench_publish.c as each
 * result arrives) or a family series' (stored here when the runner's family
 * finished, or its results are complete, and marked stale when another
 * result of the series arrives), so that the terminal, the JSON and the
 * HTML report read one fit. Which results form a group is
 * src/stats/complexity_group.c's rule. */
#include "bench_state.h"
#include "stats.h"

#include <stdlib.h>
#include <string.h>

size_t fb__fit_index(const fb_bench *b, const fb_result *r) {
    for (size_t i = 0; i < b->n_results; ++i)
        if (b->results[i] == r) return i;
    return (size_t)-1;
}

/* The stored fit named `name` (len bytes of it) of that kind (id: a port
 * family's, 0 otherwise), or NULL. */
static fb__fit_set *fb__fit_find(const fb_bench *b, const char *name, size_t len, bool family,
                                 unsigned id) {
    for (size_t k = 0; k < b->n_fits; ++k) {
        fb__fit_set *s = &b->fits[k];
        if (s->family == family && s->family_id == id && strlen(s->name) == len &&
            strncmp(s->name, name, len) == 0)
            return s;
    }
    return NULL;
}

/* The stored family fit of r's series, or NULL. */
static fb__fit_set *fb__fit_find_series(const fb_bench *b, const fb_result *r) {
    size_t len;
    const char *series = fb__result_series(r, &len);
    return fb__fit_find(b, series, len, true, r->config.family ? r->config.family_id : 0);
}

/* The stored fit of result i: its series' when it is fitted wide. */
static const fb__fit_set *fb__fit_stored_as(const fb_bench *b, size_t i, bool wide) {
    const fb_result *r = b->results[i];
    if (!wide) return fb__fit_find(b, r->name, strlen(r->name), false, 0);
    const fb__fit_set *s = fb__fit_find_series(b, r);
    return s && !s->stale ? s : NULL;
}

const fb__fit_set *fb__fit_stored(const fb_bench *b, size_t i) {
    if (i >= b->n_results || !b->results[i]->name) return NULL;
    return fb__fit_stored_as(
        b, i, fb__fit_family_wide((const fb_result *const *)b->results, b->n_results, i));
}

const fb__fit_set *fb__fit_stored_in(const fb_bench *b, const fb__fit_groups *g, size_t i) {
    if (i >= b->n_results || i >= g->n || !b->results[i]->name) return NULL;
    return fb__fit_stored_as(b, i, g->wide[i]);
}

/* fb__fit_store_group with the table g of b's results. */
static int fb__fit_store_series(fb_bench *b, const fb__fit_groups *g, size_t i) {
    const fb_result *const *rs = (const fb_result *const *)b->results;
    if (i >= b->n_results || !b->results[i]->name || !g->wide[i]) return FB_OK;
    const fb_result *r = b->results[i];
    size_t len;
    const char *series = fb__result_series(r, &len);
    fb__fit_set *s = fb__fit_find_series(b, r);
    if (!s) {
        char *name = malloc(len + 1);
        fb__fit_set *p = name ? realloc(b->fits, (b->n_fits + 1) * sizeof *p) : NULL;
        if (!p) {
            free(name);
            return FB_ENOMEM;
        }
        memcpy(name, series, len);
        name[len] = '\0';
        b->fits = p;
        s = &b->fits[b->n_fits++];
        memset(s, 0, sizeof *s);
        s->name = name;
        s->family = true;
        s->family_id = r->config.family ? r->config.family_id : 0;
    }
    fb__fit_set fit;
    int rc = fb__fit_groups_fit(g, rs, i, &fit);
    if (rc != FB_OK) {
        s->stale = true;
        return rc;
    }
    fit.name = s->name;
    fit.family = true;
    fit.family_id = s->family_id;
    fit.asked = r->config.family ? r->config.family_model : 0;
    fit.stale = false;
    *s = fit;
    return FB_OK;
}

int fb__fit_store_group(fb_bench *b, size_t i) {
    fb__fit_groups g;
    if (fb__fit_groups_build((const fb_result *const *)b->results, b->n_results, &g) != FB_OK)
        return FB_ENOMEM;
    int rc = fb__fit_store_series(b, &g, i);
    fb__fit_groups_free(&g);
    return rc;
}

/* The groups of b's results are sorted once (src/stats/complexity_group.c), not
 * searched again for each result. */
int fb__fit_store_results(fb_bench *b, const fb_result *const *rs, size_t n) {
    if (!n) return FB_OK;
    fb__fit_groups g;
    if (fb__fit_groups_build((const fb_result *const *)b->results, b->n_results, &g) != FB_OK)
        return FB_ENOMEM;
    int rc = FB_OK;
    for (size_t k = 0; k < n && rc == FB_OK; ++k) {
        /* rs is b's results (result k), or some of them (searched) */
        size_t i = rs == (const fb_result *const *)b->results ? k : fb__fit_index(b, rs[k]);
        const fb_result *r = rs[k];
        if (i == (size_t)-1 || !r->name || !g.wide[i]) continue;
        const fb__fit_set *s = fb__fit_find_series(b, r);
        if (!s || s->stale) rc = fb__fit_store_series(b, &g, i);
    }
    fb__fit_groups_free(&g);
    return rc;
}

int fb__fit_store_families(fb_bench *b) {
    return fb__fit_store_results(b, (const fb_result *const *)b->results, b->n_results);
}

void fb__fit_mark_stale(fb_bench *b, const fb_result *r) {
    if (!r->name || !fb__result_in_family(r)) return;
    fb__fit_set *s = fb__fit_find_series(b, r);
    if (s) s->stale = true;
}
