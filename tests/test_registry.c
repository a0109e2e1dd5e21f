/* Families of benchmarks (src/registry/registry.c): the arguments of a range, the
 * expansion and checks of registrations, and the grouping of results for
 * complexity fits. The runner's side is tests/test_args.py. */
#include "check.h"
#include "internal.h"
#include "registry.h"

#include <stdlib.h>
#include <string.h>

static void nop(fb_bench *b) { (void)b; }

/* The arguments of FB_BENCHMARK_RANGE(lo, hi, mult) as text. */
static const char *range(int64_t lo, int64_t hi, int64_t mult) {
    static char buf[2048];
    int64_t v[80];
    size_t n = fb__range_args(lo, hi, mult, v, 80);
    size_t k = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < n && i < 80; i++)
        k += (size_t)snprintf(buf + k, sizeof buf - k, "%s%lld", i ? " " : "", (long long)v[i]);
    return buf;
}

static void test_range_args(void) {
    CHECK_STR(range(8, 512, 8), "8 64 512");
    CHECK_STR(range(8, 100, 8), "8 64 100"); /* hi added when the steps miss it */
    CHECK_STR(range(8, 64 << 10, 8), "8 64 512 4096 32768 65536");
    CHECK_STR(range(5, 5, 2), "5");
    CHECK_STR(range(1, 16, 2), "1 2 4 8 16");
    CHECK_STR(range(0, 0, 2), "0");
    CHECK_STR(range(0, 20, 3), "0 1 3 9 20");
    CHECK_STR(range(3, 4, 1000), "3 4");
    /* no overflow: the step past hi is caught before multiplying */
    int64_t v[80];
    size_t n = fb__range_args(1, INT64_MAX, 2, v, 80);
    CHECK(n == 64 && v[62] == (int64_t)1 << 62 && v[63] == INT64_MAX);
    n = fb__range_args(3, INT64_MAX, INT64_MAX, v, 80);
    CHECK(n == 2 && v[0] == 3 && v[1] == INT64_MAX);
    n = fb__range_args(INT64_MAX - 1, INT64_MAX, 2, v, 80);
    CHECK(n == 2 && v[1] == INT64_MAX);
    /* counting without storing, and a cap */
    CHECK(fb__range_args(1, 1024, 2, NULL, 0) == 11);
    CHECK(fb__range_args(1, 1024, 2, v, 3) == 11 && v[2] == 4);
}

/* A list of registrations linked as the constructors link them. */
static fb__registration *link_regs(fb__registration *r, size_t n) {
    for (size_t i = 0; i + 1 < n; i++) r[i].next = &r[i + 1];
    r[n - 1].next = NULL;
    return r;
}

static const int64_t args_a[] = {64, 8, 4096};

static void test_expand(void) {
    fb__registration regs[] = {
        {"Zeta", nop, NULL, FB__REG_ONE, NULL, 0, 0, 0, 0},
        {"Copy", nop, NULL, FB__REG_ARGS, args_a, 3, 0, 0, 0},
        {"Alpha", nop, NULL, FB__REG_RANGE, NULL, 0, 1, 100, 10},
    };
    fb__instance **v = NULL;
    char err[512] = "";
    CHECK(fb__registry_expand(link_regs(regs, 3), &v, err, sizeof err) == FB_OK);
    const char *want[] = {"Alpha/1", "Alpha/10",  "Alpha/100", "Copy/64",
                          "Copy/8",  "Copy/4096", "Zeta"};
    size_t n = 0;
    while (v && v[n]) n++;
    CHECK(n == 7);
    for (size_t i = 0; i < n && i < 7; i++) CHECK_STR(v[i]->name, want[i]);
    if (n == 7) {
        CHECK(v[0]->has_arg && v[0]->arg == 1 && v[0]->reg == &regs[2]);
        CHECK(v[4]->has_arg && v[4]->arg == 8 && v[4]->reg == &regs[1]);
        CHECK(!v[6]->has_arg && v[6]->arg == 0 && v[6]->reg == &regs[0]);
    }
#if FB_HAVE_POSIX_REGEX /* fb__instance_selected takes a compiled <regex.h> pattern */
    /* -filter: the instance's whole name, or its family's */
    regex_t re;
    CHECK(regcomp(&re, "^(Copy)$", REG_EXTENDED | REG_NOSUB) == 0);
    size_t sel = 0;
    for (size_t i = 0; i < n; i++) sel += fb__instance_selected(v[i], &re);
    CHECK(sel == 3);
    regfree(&re);
    CHECK(regcomp(&re, "^(Copy/(8|64))$", REG_EXTENDED | REG_NOSUB) == 0);
    sel = 0;
    for (size_t i = 0; i < n; i++) sel += fb__instance_selected(v[i], &re);
    CHECK(sel == 2);
    regfree(&re);
#endif
    fb__instances_free(v);
}

/* Each bad registration: FB_EINVAL, nothing expanded, a message with every
 * fragment given. */
static void bad(fb__registration *regs, size_t n, const char *a, const char *b) {
    fb__instance **v = (fb__instance **)&v; /* not NULL: must be reset */
    char err[512] = "";
    CHECK(fb__registry_expand(link_regs(regs, n), &v, err, sizeof err) == FB_EINVAL);
    CHECK(v == NULL);
    if (!strstr(err, a) || !strstr(err, b)) {
        fprintf(stderr, "message '%s' lacks '%s' or '%s'\n", err, a, b);
        check_failures_++;
    }
}

static void test_bad_registrations(void) {
    static const int64_t twice[] = {1, 2, 1};
    fb__registration ok = {"Fine", nop, NULL, FB__REG_ONE, NULL, 0, 0, 0, 0};
    fb__registration r[2];
    r[0] = ok;
    r[1] = (fb__registration){"Empty", nop, NULL, FB__REG_ARGS, args_a, 0, 0, 0, 0};
    bad(r, 2, "'Empty'", "no arguments");
    r[1] = (fb__registration){"Twice", nop, NULL, FB__REG_ARGS, twice, 3, 0, 0, 0};
    bad(r, 2, "FB_BENCHMARK_ARGS(Twice, 1, 2, 1)", "argument 1 is given twice");
    r[1] = (fb__registration){"M", nop, NULL, FB__REG_RANGE, NULL, 0, 1, 8, 1};
    bad(r, 2, "FB_BENCHMARK_RANGE(M, 1, 8, 1)", "mult must be at least 2");
    r[1] = (fb__registration){"M", nop, NULL, FB__REG_RANGE, NULL, 0, 1, 8, -4};
    bad(r, 2, "'M'", "mult must be at least 2");
    r[1] = (fb__registration){"M", nop, NULL, FB__REG_RANGE, NULL, 0, 9, 8, 2};
    bad(r, 2, "'M'", "lo is greater than hi");
    r[1] = (fb__registration){"M", nop, NULL, FB__REG_RANGE, NULL, 0, -1, 8, 2};
    bad(r, 2, "'M'", "lo must not be negative");
    r[1] = (fb__registration){"Fine", nop, NULL, FB__REG_RANGE, NULL, 0, 1, 8, 2};
    bad(r, 2, "family 'Fine' collides", "FB_BENCHMARK_RANGE(Fine, 1, 8, 2)");
    r[1] = (fb__registration){"Fine", nop, NULL, FB__REG_ONE, NULL, 0, 0, 0, 0};
    bad(r, 2, "benchmark name 'Fine' is registered twice", "");
    r[0] = (fb__registration){"C/8", nop, NULL, FB__REG_ONE, NULL, 0, 0, 0, 0};
    r[1] = (fb__registration){"C", nop, NULL, FB__REG_RANGE, NULL, 0, 1, 8, 2};
    bad(r, 2, "'C/8' is registered twice", "an instance of FB_BENCHMARK_RANGE(C, 1, 8, 2)");
    /* a long argument list is cut short in the message, never overflowed */
    static int64_t many[200];
    for (int i = 0; i < 200; i++) many[i] = 1000000000000 + i;
    many[199] = many[0];
    r[0] = ok;
    r[1] = (fb__registration){"Many", nop, NULL, FB__REG_ARGS, many, 200, 0, 0, 0};
    bad(r, 2, "FB_BENCHMARK_ARGS(Many, 1000000000000, 1000000000001,", " ...)");
}

/* A measured result for the fit tests. */
static void add(fb_bench *b, const char *name, bool has_arg, int64_t arg, double n, double t) {
    fb_result *r = calloc(1, sizeof *r);
    r->name = fb__strdup(name);
    r->config.title = fb__strdup("t");
    r->config.unit = fb__strdup("op");
    r->config.batch = 1;
    r->config.has_arg = has_arg;
    r->config.arg = arg;
    r->config.complexity_n = n;
    r->epochs = 1;
    r->iterations = calloc(1, sizeof *r->iterations);
    r->iterations[0] = 1;
    r->values[FB_ELAPSED] = calloc(1, sizeof(double));
    r->values[FB_ELAPSED][0] = t;
    r->has = FB__BIT(FB_ELAPSED);
    fb__stats_compute(r);
    fb__bench_add_result(b, r);
}

#define RS(b) ((const fb_result *const *)(b)->results), (b)->n_results

static void test_fit_groups(void) {
    fb_bench *b = fb_bench_new();
    /* 0-2: a family whose instances set N = arg: one series, fitted together */
    add(b, "Scan/100", true, 100, 100, 1e-6);
    add(b, "Scan/200", true, 200, 200, 2e-6);
    add(b, "Scan/400", true, 400, 400, 4e-6);
    /* 3-6: a family under -asymptote: each instance fitted over its own N */
    add(b, "Grow/1", true, 1, 10, 1e-6);
    add(b, "Grow/1", true, 1, 20, 2e-6);
    add(b, "Grow/2", true, 2, 10, 4e-6);
    add(b, "Grow/2", true, 2, 20, 16e-6);
    /* 7-8: a plain name; 9: no N */
    add(b, "plain", false, 0, 10, 1e-6);
    add(b, "plain", false, 0, 20, 1e-6);
    add(b, "none", false, 0, 0, 1e-6);
    /* 10: the name keeps "/4" but the argument is 5: its own series */
    add(b, "Odd/4", true, 5, 100, 1e-6);
    CHECK(b->n_results == 11);
    size_t want_first[] = {0, 0, 0, 3, 3, 5, 5, 7, 7, (size_t)-1, 10};
    for (size_t i = 0; i < 11; i++) CHECK(fb__fit_group_first(RS(b), i) == want_first[i]);
    CHECK(fb__fit_family_wide(RS(b), 0) && fb__fit_family_wide(RS(b), 2));
    CHECK(!fb__fit_family_wide(RS(b), 3) && !fb__fit_family_wide(RS(b), 7));
    CHECK(fb__result_series_len(b->results[1]) == 4);  /* "Scan" */
    CHECK(fb__result_series_len(b->results[10]) == 5); /* "Odd/4" */
    fb__fit_set s;
    CHECK(fb__fit_group(RS(b), 1, &s) == FB_OK && s.n == FB_FIT_MODELS && s.distinct == 3);
    CHECK_STR(s.fits[0].name, "O(n)");
    CHECK(fb__fit_group(RS(b), 5, &s) == FB_OK && s.n == FB_FIT_MODELS);
    CHECK_STR(s.fits[0].name, "O(n^2)"); /* Grow/2 alone: 4 -> 16 us for N 10 -> 20 */
    CHECK(fb__fit_group(RS(b), 10, &s) == FB_OK && s.n == 0);
    CHECK(fb__fit_group(RS(b), 9, &s) == FB_OK && s.n == 0);
    CHECK(fb__fit_alone(RS(b)));

    /* the runner's printout after the family Scan (its results alone), and
     * nothing for a family under -asymptote */
    fb_bench *fam = fb_bench_new();
    add(fam, "Scan/100", true, 100, 100, 1e-6);
    add(fam, "Scan/200", true, 200, 200, 2e-6);
    add(fam, "Scan/400", true, 400, 400, 4e-6);
    CHECK(!fb__fit_alone(RS(fam)));
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    /* nothing printed before the series' fit is stored; stored once */
    CHECK(fb__fit_stored(fam, 0) == NULL);
    CHECK(fb__write_family_fits(fam, RS(fam), f) == 0);
    CHECK(fb__fit_store_results(fam, RS(fam)) == FB_OK);
    const fb__fit_set *stored = fb__fit_stored(fam, 0);
    CHECK(stored && stored->family && strcmp(stored->name, "Scan") == 0);
    CHECK(stored && fb__fit_stored(fam, 1) == stored && fb__fit_stored(fam, 2) == stored);
    CHECK(fb__write_family_fits(fam, RS(fam), f) == 1);
    fclose(f);
    const char *head = "\nComplexity of `Scan` over its instances:\n|   coefficient |";
    CHECK(buf && strncmp(buf, head, strlen(head)) == 0);
    CHECK(buf && strstr(buf, "| O(n)\n") != NULL);
    free(buf);
    f = open_memstream(&buf, &len);
    CHECK(fb__fit_store_families(b) == FB_OK);
    CHECK(fb__write_family_fits(b, (const fb_result *const *)b->results + 3, 8, f) == 0);
    fclose(f);
    CHECK(buf && strstr(buf, "Grow") == NULL);
    free(buf);
    /* the suite's stored fits: Scan's series, Grow's and plain's names */
    CHECK(fb__fit_stored(b, 0) && fb__fit_stored(b, 0)->family);
    CHECK(fb__fit_stored(b, 3) && !fb__fit_stored(b, 3)->family);
    CHECK(fb__fit_stored(b, 7) && strcmp(fb__fit_stored(b, 7)->name, "plain") == 0);
    CHECK(fb__fit_stored(b, 9) == NULL);
    /* another instance of the series: the stored fit is stale until stored again */
    add(fam, "Scan/800", true, 800, 800, 8e-6);
    CHECK(fb__fit_stored(fam, 0) == NULL);
    CHECK(fb__fit_store_families(fam) == FB_OK && fb__fit_stored(fam, 3) != NULL);
    CHECK(fb__fit_stored(fam, 3)->distinct == 4);
    fb_bench_free(fam);
    fb_bench_free(b);
}

/* A million arguments: the check for a repeated one sorts a copy (n log n;
 * comparing every pair took 195 s and runs past this test's time limit). */
static void test_many_args(void) {
    enum { N = 1000000 };
    int64_t *args = malloc(N * sizeof *args);
    CHECK(args != NULL);
    if (!args) return;
    for (int64_t i = 0; i < N; ++i) args[i] = (i * 7919) % N; /* distinct, not in order */
    fb__registration r = {"Many", nop, NULL, FB__REG_ARGS, args, N, 0, 0, 0};
    fb__instance **v = NULL;
    char err[256];
    CHECK(fb__registry_expand(&r, &v, err, sizeof err) == FB_OK);
    size_t n = 0;
    while (v && v[n]) ++n;
    CHECK(n == N);
    fb__instances_free(v);
    args[N - 1] = args[0]; /* the first argument again, at the end */
    v = NULL;
    CHECK(fb__registry_expand(&r, &v, err, sizeof err) == FB_EINVAL);
    CHECK(strstr(err, "argument 0 is given twice") != NULL);
    free(args);
}

int main(void) {
    test_many_args();
    test_range_args();
    test_expand();
    test_bad_registrations();
    test_fit_groups();
    return CHECK_DONE();
}
