/* Complexity fit groups (docs/complexity.md, "Families"): which results
 * are fitted together, and their fits computed once and stored with the
 * results (struct fb_bench's fits), so that the terminal, the JSON and the
 * HTML report read one fit. A result is fitted with its *group*: the
 * results of the same name (stored by src/handle/bench_publish.c as each arrives), except
 * for an instance of a family whose name has one distinct N (its body set
 * N, typically from fb_arg): those are fitted with the whole *series*, the
 * results whose names differ only in their "/<arg>". The fits are stored
 * with the handle (src/handle/bench_fits.c). The single queries (a result's first,
 * its group's fit) scan the results; a writer that lists every group reads
 * the table of all of them instead (fb__fit_groups_build, by sorting). */
#include "stats.h"

#include "text.h" /* fb__strdup */

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

size_t fb__result_series_len(const fb_result *r) {
    const char *name = r->name ? r->name : "";
    size_t n = strlen(name);
    if (r->threads && !r->config.has_arg) {
        /* FB_BENCHMARK_THREADS' "fn/threads:<n>" (src/run/group.c): one series
         * over the thread counts, as Google Benchmark's one family. An
         * instance with an argument keeps it: a complexity fit over its
         * arguments never mixes thread counts. */
        char th[32];
        snprintf(th, sizeof th, "/threads:%zu", r->threads);
        size_t t = strlen(th);
        return n >= t && strcmp(name + n - t, th) == 0 ? n - t : n;
    }
    if (!r->config.has_arg) return n;
    char suffix[24];
    snprintf(suffix, sizeof suffix, "/%" PRId64, r->config.arg);
    size_t k = strlen(suffix);
    return n >= k && strcmp(name + n - k, suffix) == 0 ? n - k : n;
}

const char *fb__result_series(const fb_result *r, size_t *len) {
    if (r->config.family) {
        *len = strlen(r->config.family);
        return r->config.family;
    }
    *len = fb__result_series_len(r);
    return r->name ? r->name : "";
}

const fb_fit *fb__fit_asked(const fb__fit_set *s) {
    static const char *const asked[] = {NULL,         "O(1)",   "O(n)",  "O(log n)",
                                        "O(n log n)", "O(n^2)", "O(n^3)"};
    if (s->asked <= 0 || s->asked > FB_FIT_MODELS) return NULL;
    for (size_t k = 0; k < s->n && k < FB_FIT_MODELS; ++k)
        if (strcmp(s->fits[k].name, asked[s->asked]) == 0) return &s->fits[k];
    return NULL;
}

bool fb__result_in_family(const fb_result *r) { return r->config.has_arg || r->config.family; }

bool fb__result_same_series(const fb_result *a, const fb_result *b) {
    if (!a->config.family != !b->config.family) return false;
    if (a->config.family && a->config.family_id != b->config.family_id) return false;
    size_t la, lb;
    const char *na = fb__result_series(a, &la), *nb = fb__result_series(b, &lb);
    return la == lb && strncmp(na, nb, la) == 0;
}

static bool fb__same_name(const fb_result *a, const fb_result *b) {
    return strcmp(a->name ? a->name : "", b->name ? b->name : "") == 0;
}

bool fb__fit_family_wide(const fb_result *const *rs, size_t n, size_t i) {
    const fb_result *r = rs[i];
    if (!fb__result_in_family(r) || !(r->config.complexity_n > 0)) return false;
    for (size_t k = 0; k < n; ++k) {
        const fb_result *q = rs[k];
        if (q->config.complexity_n > 0 && q->config.complexity_n != r->config.complexity_n &&
            fb__same_name(q, r))
            return false; /* its own name varies N: -asymptote did, fit it alone */
    }
    return true;
}

bool fb__fit_alone(const fb_result *const *rs, size_t n) {
    for (size_t i = 0; i < n; ++i)
        if (rs[i]->config.complexity_n > 0 && !fb__fit_family_wide(rs, n, i)) return true;
    return false;
}

/* Whether results i and j (i with an N) are fitted together. */
static bool fb__fit_together(const fb_result *const *rs, size_t n, size_t i, size_t j,
                             bool wide_i) {
    const fb_result *ri = rs[i], *rj = rs[j];
    if (!(rj->config.complexity_n > 0)) return false;
    if (!wide_i) return fb__same_name(ri, rj);
    return fb__result_in_family(rj) && fb__result_same_series(ri, rj) &&
           fb__fit_family_wide(rs, n, j);
}

size_t fb__fit_group_first(const fb_result *const *rs, size_t n, size_t i) {
    if (i >= n || !(rs[i]->config.complexity_n > 0)) return (size_t)-1;
    bool wide = fb__fit_family_wide(rs, n, i);
    for (size_t k = 0; k < i; ++k)
        if (fb__fit_together(rs, n, i, k, wide)) return k;
    return i;
}

int fb__fit_group(const fb_result *const *rs, size_t n, size_t i, fb__fit_set *out) {
    memset(out, 0, sizeof *out);
    if (i >= n || !(rs[i]->config.complexity_n > 0)) return FB_OK;
    const fb_result **members = malloc(n * sizeof *members);
    if (!members) return FB_ENOMEM;
    bool wide = fb__fit_family_wide(rs, n, i);
    size_t m = 0;
    for (size_t k = 0; k < n; ++k)
        if (fb__fit_together(rs, n, i, k, wide)) members[m++] = rs[k];
    fb__fit_compute(members, m, NULL, out);
    free(members);
    return FB_OK;
}

/* ------------------------------------------------- the table of groups */

/* A result with an N: its key (its name, or its series' prefix) and index.
 * Sorted by key, then index, the results of one key are adjacent and in
 * index order, so a key's first is the first of its run. */
typedef struct fb__fg_key {
    const char *name;
    size_t len;
    size_t i;
    unsigned port, id; /* a port family's series: 1 and its id, else 0 */
} fb__fg_key;

static int fb__fg_cmp(const void *pa, const void *pb) {
    const fb__fg_key *a = pa, *b = pb;
    if (a->port != b->port) return a->port < b->port ? -1 : 1;
    if (a->id != b->id) return a->id < b->id ? -1 : 1;
    int c = memcmp(a->name, b->name, a->len < b->len ? a->len : b->len);
    if (c) return c;
    if (a->len != b->len) return a->len < b->len ? -1 : 1;
    return a->i < b->i ? -1 : a->i > b->i;
}

static bool fb__fg_same_key(const fb__fg_key *a, const fb__fg_key *b) {
    return a->port == b->port && a->id == b->id && a->len == b->len &&
           memcmp(a->name, b->name, a->len) == 0;
}

void fb__fit_groups_free(fb__fit_groups *g) {
    free(g->first);
    free(g->wide);
    free(g->members);
    free(g->mem_at);
    free(g->mem_n);
    free(g->with_first);
    free(g->with_at);
    free(g->with_n);
    memset(g, 0, sizeof *g);
}

/* Sorts keys[0..m) and makes each run of one key keys[a..z) a group: its
 * members members[base + a .. base + z), its first keys[a].i. For names:
 * a result is wide when it is a family's instance and its name's results
 * have one distinct N (fb__fit_family_wide). */
static void fb__fg_runs(const fb_result *const *rs, fb__fg_key *keys, size_t m, size_t base,
                        fb__fit_groups *g, bool names) {
    if (m > 1) qsort(keys, m, sizeof *keys, fb__fg_cmp);
    for (size_t a = 0, z; a < m; a = z) {
        bool uniform = true; /* one distinct N over the run (a name's) */
        for (z = a + 1; z < m && fb__fg_same_key(&keys[a], &keys[z]); ++z)
            if (rs[keys[z].i]->config.complexity_n != rs[keys[a].i]->config.complexity_n)
                uniform = false;
        for (size_t k = a; k < z; ++k) {
            size_t i = keys[k].i;
            g->members[base + k] = i;
            g->mem_at[i] = base + a;
            g->mem_n[i] = z - a;
            g->first[i] = keys[a].i;
            if (names) g->wide[i] = uniform && fb__result_in_family(rs[i]);
        }
    }
}

int fb__fit_groups_build(const fb_result *const *rs, size_t n, fb__fit_groups *g) {
    memset(g, 0, sizeof *g);
    size_t cap = n ? n : 1;
    g->n = n;
    g->first = malloc(cap * sizeof *g->first);
    g->wide = malloc(cap * sizeof *g->wide);
    g->members = malloc(2 * cap * sizeof *g->members);
    g->mem_at = malloc(cap * sizeof *g->mem_at);
    g->mem_n = malloc(cap * sizeof *g->mem_n);
    g->with_first = malloc(cap * sizeof *g->with_first);
    g->with_at = malloc(cap * sizeof *g->with_at);
    g->with_n = malloc(cap * sizeof *g->with_n);
    fb__fg_key *keys = malloc(cap * sizeof *keys);
    if (!g->first || !g->wide || !g->members || !g->mem_at || !g->mem_n || !g->with_first ||
        !g->with_at || !g->with_n || !keys) {
        free(keys);
        fb__fit_groups_free(g);
        return FB_ENOMEM;
    }
    /* the names of the results with an N: a name whose results have one
     * distinct N leaves its instances of a family (has_arg) wide */
    size_t m = 0;
    for (size_t i = 0; i < n; ++i) {
        g->first[i] = (size_t)-1;
        g->wide[i] = false;
        g->mem_at[i] = g->mem_n[i] = g->with_at[i] = g->with_n[i] = 0;
        if (!(rs[i]->config.complexity_n > 0)) continue;
        const char *name = rs[i]->name ? rs[i]->name : "";
        keys[m++] = (fb__fg_key){name, strlen(name), i, 0, 0};
    }
    fb__fg_runs(rs, keys, m, 0, g, true);
    /* the series of the wide results: their groups instead of the name's */
    size_t w = 0;
    for (size_t i = 0; i < n; ++i)
        if (g->wide[i]) {
            size_t len;
            const char *series = fb__result_series(rs[i], &len);
            bool port = rs[i]->config.family != NULL;
            keys[w++] = (fb__fg_key){series, len, i, port, port ? rs[i]->config.family_id : 0};
        }
    fb__fg_runs(rs, keys, w, m, g, false);
    free(keys);
    /* the results of each first, in index order (a counting sort) */
    for (size_t i = 0; i < n; ++i)
        if (g->first[i] != (size_t)-1) ++g->with_n[g->first[i]];
    for (size_t j = 0, at = 0; j < n; ++j) {
        g->with_at[j] = at;
        at += g->with_n[j];
        g->with_n[j] = 0;
    }
    for (size_t i = 0; i < n; ++i)
        if (g->first[i] != (size_t)-1) {
            size_t j = g->first[i];
            g->with_first[g->with_at[j] + g->with_n[j]++] = i;
        }
    return FB_OK;
}

int fb__fit_groups_fit(const fb__fit_groups *g, const fb_result *const *rs, size_t i,
                       fb__fit_set *out) {
    memset(out, 0, sizeof *out);
    if (i >= g->n || !g->mem_n[i]) return FB_OK;
    const fb_result **sel = malloc(g->mem_n[i] * sizeof *sel);
    if (!sel) return FB_ENOMEM;
    for (size_t k = 0; k < g->mem_n[i]; ++k) sel[k] = rs[g->members[g->mem_at[i] + k]];
    fb__fit_compute(sel, g->mem_n[i], NULL, out);
    free(sel);
    return FB_OK;
}
