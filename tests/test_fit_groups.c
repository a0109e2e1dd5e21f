/* The table of complexity fit groups (src/stats/complexity_group.c,
 * fb__fit_groups_build): on many random sets of results it must say what
 * the definition says, result by result. The definition is written out
 * here as the oracle, as it was before the table: a result's first is the
 * first k fitted together with it, found by scanning (O(i * n) a result,
 * O(n^3) for a writer asking for each). Names with and without "/<arg>",
 * an argument that does not match the name, no name, thread suffixes, a
 * name whose N varies (-asymptote) and results without an N. */
#include "check.h"
#include "internal.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ oracle */

static bool oracle_same_name(const fb_result *a, const fb_result *b) {
    return strcmp(a->name ? a->name : "", b->name ? b->name : "") == 0;
}

static bool oracle_same_series(const fb_result *a, const fb_result *b) {
    size_t n = fb__result_series_len(a);
    return n == fb__result_series_len(b) &&
           strncmp(a->name ? a->name : "", b->name ? b->name : "", n) == 0;
}

static bool oracle_wide(const fb_result *const *rs, size_t n, size_t i) {
    const fb_result *r = rs[i];
    if (!r->config.has_arg || !(r->config.complexity_n > 0)) return false;
    for (size_t k = 0; k < n; ++k) {
        const fb_result *q = rs[k];
        if (q->config.complexity_n > 0 && q->config.complexity_n != r->config.complexity_n &&
            oracle_same_name(q, r))
            return false;
    }
    return true;
}

static bool oracle_together(const fb_result *const *rs, size_t n, size_t i, size_t j) {
    const fb_result *ri = rs[i], *rj = rs[j];
    if (!(ri->config.complexity_n > 0) || !(rj->config.complexity_n > 0)) return false;
    if (!oracle_wide(rs, n, i)) return oracle_same_name(ri, rj);
    return rj->config.has_arg && oracle_same_series(ri, rj) && oracle_wide(rs, n, j);
}

static size_t oracle_first(const fb_result *const *rs, size_t n, size_t i) {
    if (!(rs[i]->config.complexity_n > 0)) return (size_t)-1;
    for (size_t k = 0; k < i; ++k)
        if (oracle_together(rs, n, i, k)) return k;
    return i;
}

/* ----------------------------------------------------- random results */

static uint64_t rng_state = 0x9e3779b97f4a7c15u;

static unsigned rnd(unsigned below) {
    rng_state = rng_state * 6364136223846793005u + 1442695040888963407u;
    return (unsigned)((rng_state >> 33) % below);
}

/* A result with a name made of parts that the grouping strips or keeps,
 * and a time that grows with N (so that a group's fit has points). */
static fb_result *random_result(void) {
    static const char *const bases[] = {"F", "G", "Scan", "F/1", "x/y"};
    static const int64_t args[] = {1, 2, 3, 10, 64};
    static const double ns[] = {0, 0, 1, 2, 3, 10, 64, 100};
    fb_result *r = calloc(1, sizeof *r);
    if (!r) return NULL;
    r->config.has_arg = rnd(3) != 0;
    r->config.arg = args[rnd(5)];
    r->threads = rnd(3) == 0 ? (size_t)(1 + rnd(4)) : 0;
    /* N: often the argument (a family's instances), or any */
    r->config.complexity_n = rnd(2) ? (double)r->config.arg : ns[rnd(8)];
    if (rnd(12) == 0) r->config.complexity_n = -1; /* no N */
    char name[64];
    const char *base = bases[rnd(5)];
    int64_t shown = rnd(6) ? r->config.arg : args[rnd(5)]; /* sometimes not the argument */
    switch (rnd(6)) {
    case 0:
        snprintf(name, sizeof name, "%s", base);
        break;
    case 1:
    case 2:
        snprintf(name, sizeof name, "%s/%" PRId64, base, shown);
        break;
    case 3:
        snprintf(name, sizeof name, "%s/threads:%zu", base, r->threads);
        break;
    case 4:
        snprintf(name, sizeof name, "%s/%" PRId64 "/threads:%zu", base, shown, r->threads);
        break;
    default:
        name[0] = '\0';
        break;
    }
    r->name = rnd(20) ? fb__strdup(name) : NULL;
    r->config.title = fb__strdup("t");
    r->config.unit = fb__strdup("op");
    r->config.batch = 1;
    r->epochs = 1;
    r->iterations = calloc(1, sizeof *r->iterations);
    r->values[FB_ELAPSED] = calloc(1, sizeof(double));
    if (r->iterations && r->values[FB_ELAPSED]) {
        r->iterations[0] = 1;
        double n = r->config.complexity_n > 0 ? r->config.complexity_n : 1;
        r->values[FB_ELAPSED][0] = 1e-9 * n * (1 + rnd(100) / 1000.0);
        r->has = FB__BIT(FB_ELAPSED);
        fb__stats_compute(r);
    }
    return r;
}

/* The table against the oracle for every result of rs[0..n). */
static void check_set(const fb_result *const *rs, size_t n, bool fits) {
    fb__fit_groups g;
    CHECK(fb__fit_groups_build(rs, n, &g) == FB_OK);
    CHECK(g.n == n);
    for (size_t i = 0; i < n; ++i) {
        size_t want = oracle_first(rs, n, i);
        CHECK(g.first[i] == want);
        CHECK(fb__fit_group_first(rs, n, i) == want); /* the single query agrees */
        CHECK(g.wide[i] == oracle_wide(rs, n, i));
        CHECK(fb__fit_family_wide(rs, n, i) == g.wide[i]);
        /* the members fitted with i, in index order */
        size_t m = 0;
        for (size_t k = 0; k < n; ++k)
            if (oracle_together(rs, n, i, k)) {
                CHECK(m < g.mem_n[i] && g.members[g.mem_at[i] + m] == k);
                ++m;
            }
        CHECK(m == g.mem_n[i]);
        /* for a first: the results whose first it is, in index order */
        if (want == i) {
            size_t w = 0;
            for (size_t k = 0; k < n; ++k)
                if (oracle_first(rs, n, k) == i) {
                    CHECK(w < g.with_n[i] && g.with_first[g.with_at[i] + w] == k);
                    ++w;
                }
            CHECK(w == g.with_n[i]);
        }
        if (fits) { /* the group's fit from the table is the single query's */
            fb__fit_set a, b;
            CHECK(fb__fit_groups_fit(&g, rs, i, &a) == FB_OK);
            CHECK(fb__fit_group(rs, n, i, &b) == FB_OK);
            CHECK(a.n == b.n && a.distinct == b.distinct && a.verdict == b.verdict);
            for (size_t k = 0; k < a.n && k < b.n; ++k) {
                CHECK_STR(a.fits[k].name, b.fits[k].name);
                CHECK(a.fits[k].coefficient == b.fits[k].coefficient);
            }
        }
    }
    fb__fit_groups_free(&g);
    CHECK(g.first == NULL && g.n == 0);
}

static void test_random_sets(void) {
    fb_result *rs[48];
    size_t firsts = 0, wide = 0, shared = 0; /* the sets must reach each case */
    /* under an emulator (qemu-aarch64, about 50x slower: the oracle is
     * O(n^3) a set) a tenth of the sets, each case still reached */
    int sets = getenv("FB_TEST_EMULATOR") ? 300 : 3000;
    for (int set = 0; set < sets; ++set) {
        size_t n = rnd(49);
        for (size_t i = 0; i < n; ++i) {
            rs[i] = random_result();
            CHECK(rs[i] != NULL);
            if (!rs[i]) n = i;
        }
        /* -asymptote: one name again with other N */
        if (n > 2 && rnd(3) == 0) {
            size_t a = rnd((unsigned)n), b = (a + 1 + rnd((unsigned)n - 1)) % n; /* b != a */
            free(rs[b]->name);
            rs[b]->name = rs[a]->name ? fb__strdup(rs[a]->name) : NULL;
            rs[b]->config.has_arg = rs[a]->config.has_arg;
            rs[b]->config.arg = rs[a]->config.arg;
            rs[b]->threads = rs[a]->threads;
        }
        const fb_result *const *crs = (const fb_result *const *)rs;
        check_set(crs, n, set % 10 == 0);
        for (size_t i = 0; i < n; ++i) {
            size_t f = oracle_first(crs, n, i);
            firsts += f == i;
            wide += oracle_wide(crs, n, i);
            shared += f != i && f != (size_t)-1;
        }
        for (size_t i = 0; i < n; ++i) fb__result_free(rs[i]);
    }
    CHECK(firsts > (size_t)sets / 3 && wide > (size_t)sets / 3 && shared > (size_t)sets / 3);
}

/* The cases by hand: a family's series (wide), a name whose N varies (its
 * own group), a result without an N, and a name that is also an instance. */
static void test_by_hand(void) {
    fb_result r[6];
    memset(r, 0, sizeof r);
    const char *names[] = {"S/1", "S/2", "A/1", "A/1", "none", "S"};
    const bool arg[] = {true, true, true, true, false, false};
    const double n[] = {1, 2, 1, 2, 0, 2};
    const fb_result *rs[6];
    for (size_t i = 0; i < 6; ++i) {
        r[i].name = (char *)names[i];
        r[i].config.has_arg = arg[i];
        r[i].config.arg = (int64_t)i + 1 == 2 ? 2 : 1;
        r[i].config.complexity_n = n[i];
        rs[i] = &r[i];
    }
    fb__fit_groups g;
    CHECK(fb__fit_groups_build(rs, 6, &g) == FB_OK);
    const size_t want[] = {0, 0, 2, 2, (size_t)-1, 5};
    for (size_t i = 0; i < 6; ++i) CHECK(g.first[i] == want[i]);
    CHECK(g.wide[0] && g.wide[1] && !g.wide[2] && !g.wide[3] && !g.wide[4] && !g.wide[5]);
    CHECK(g.with_n[0] == 2 && g.with_n[2] == 2 && g.with_n[5] == 1);
    fb__fit_groups_free(&g);
    CHECK(fb__fit_groups_build(rs, 0, &g) == FB_OK && g.n == 0);
    fb__fit_groups_free(&g);
}

int main(void) {
    test_by_hand();
    test_random_sets();
    return check_failures_ ? 1 : 0;
}
