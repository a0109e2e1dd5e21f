/* Complexity fit groups (docs/complexity.md, "Families"): which results
 * are fitted together, and their fits computed once and stored with the
 * results (struct fb_bench's fits), so that the terminal, the JSON and the
 * HTML report read one fit. A result is fitted with its *group*: the
 * results of the same name (stored by src/bench.c as each arrives), except
 * for an instance of a family whose name has one distinct N (its body set
 * N, typically from fb_arg): those are fitted with the whole *series*, the
 * results whose names differ only in their "/<arg>". The fits are stored
 * with the handle (src/bench_fits.c). */
#include "stats.h"

#include "text.h" /* fb__strdup */

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

size_t fb__result_series_len(const fb_result *r) {
    const char *name = r->name ? r->name : "";
    size_t n = strlen(name);
    if (r->threads && !r->config.has_arg) {
        /* FB_BENCHMARK_THREADS' "fn/threads:<n>" (src/group.c): one series
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

static bool fb__same_name(const fb_result *a, const fb_result *b) {
    return strcmp(a->name ? a->name : "", b->name ? b->name : "") == 0;
}

static bool fb__same_series(const fb_result *a, const fb_result *b) {
    size_t n = fb__result_series_len(a);
    return n == fb__result_series_len(b) &&
           strncmp(a->name ? a->name : "", b->name ? b->name : "", n) == 0;
}

bool fb__fit_family_wide(const fb_result *const *rs, size_t n, size_t i) {
    const fb_result *r = rs[i];
    if (!r->config.has_arg || !(r->config.complexity_n > 0)) return false;
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
    return rj->config.has_arg && fb__same_series(ri, rj) && fb__fit_family_wide(rs, n, j);
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
