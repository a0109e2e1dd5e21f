/* The file writers (CSV, femtobench JSON, Google Benchmark JSON), their
 * escaping and number handling, machine facts from a fake /proc and /sys,
 * and the safe output files.
 *
 * Golden files: tests/data/golden_results.{csv,json}, golden_results.gbench.json,
 * written from results built here by hand with a fixed context. After an
 * intended change of a format (or of stats.c / complexity.c), regenerate
 * them with `FB_UPDATE_GOLDEN=1 build/tests/test_formats` and review the diff. */
#include "check.h"
#include "fake_sysfs.h"
#include "internal.h"
#include "numfmt.h"
#include "report_gbench.h"
#include "valgrind.h"

#include <dirent.h>
#include <errno.h>
#include <locale.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

/* ------------------------------------------------------------ helpers */

/* A result as the core would record it: epochs of iterations and
 * per-iteration values for the measures in `has` (values[m] is n numbers). */
static fb_result *make_result(const char *title, const char *name, const char *unit, double batch,
                              double n_cx, size_t epochs, const uint64_t *iters, fb__mask has,
                              const double *const values[FB_MEASURE_COUNT]) {
    fb_result *r = calloc(1, sizeof *r);
    r->config.title = fb__strdup(title);
    r->name = fb__strdup(name);
    r->config.unit = fb__strdup(unit);
    snprintf(r->config.time_unit_label, sizeof r->config.time_unit_label, "ns");
    r->config.time_unit_s = 1e-9;
    r->config.batch = batch;
    r->config.complexity_n = n_cx;
    r->callsite = 7;
    for (int k = 0; k < FB__K_COUNT; ++k) r->config.num[k] = fb__key_info_of((fb__key)k)->def;
    r->clock_resolution_s = 2e-8;
    r->clock_overhead_s = 1.5e-8;
    r->epochs = epochs;
    r->epochs_asked = epochs;
    r->probe[0] = r->probe[1] = NAN;
    r->iterations = calloc(epochs ? epochs : 1, sizeof *r->iterations);
    for (size_t e = 0; e < epochs; ++e) r->iterations[e] = iters[e];
    r->has = has;
    for (int m = 0; m < FB_MEASURE_COUNT; ++m) {
        if (!(has & FB__BIT(m))) continue;
        r->values[m] = calloc(epochs ? epochs : 1, sizeof(double));
        for (size_t e = 0; e < epochs; ++e) r->values[m][e] = values[m][e];
    }
    fb__stats_compute(r);
    return r;
}

/* Declares epoch e of r disturbed: the statistics drop it. */
static fb_result *mark_disturbed(fb_result *r, size_t e) {
    if (!r->epoch_flags) r->epoch_flags = calloc(r->epochs, 1);
    r->epoch_flags[e] |= FB__EPOCH_DISTURBED;
    r->disturbed++;
    r->disturb_known = true;
    r->epochs_asked = r->epochs - r->disturbed;
    fb__disturb_select(r->epoch_flags, r->epochs);
    fb__stats_compute(r);
    return r;
}

static fb_result *make_error(const char *name, const char *error) {
    fb_result *r = make_result("errors", name, "op", 1, 0, 0, NULL, 0,
                               (const double *const[FB_MEASURE_COUNT]){0});
    r->error = fb__strdup(error);
    return r;
}

/* A result counted under Callgrind (-valgrind): two epochs (n, 2n) with
 * the events' totals; cache adds the cache and branch simulation events. */
static fb_result *make_counted(const char *name, double batch, bool cache, const char *error) {
    uint64_t it[2] = {64, 128};
    fb_result *r = make_result("counted", name, batch > 1 ? "byte" : "op", batch, 0, 2, it, 0,
                               (const double *const[FB_MEASURE_COUNT]){0});
    struct fb__vg_result *g = calloc(1, sizeof *g);
    g->n1 = 64;
    g->n2 = 128;
    g->cache = cache;
    g->have = cache ? (1u << FB__VG_EVENTS) - 1 : 1u << FB__VG_IR;
    for (int e = 0; e < FB__VG_EVENTS; ++e) {
        g->c1[e] = 1000u + 64u * (unsigned)(e + 1);
        g->c2[e] = 1000u + 128u * (unsigned)(e + 1);
    }
    g->c2[FB__VG_BCM] = g->c1[FB__VG_BCM] - 1; /* fewer misses in the longer epoch */
    fb__vg_derive(g);
    g->pairs = 1; /* exact: the count repeated */
    g->ins_lo = g->ins_hi = g->pair_ins[0] = g->per_iter[FB_VG_INSTRUCTIONS];
    r->vg = g;
    if (error) {
        r->error = fb__strdup(error);
        for (int m = 0; m < FB_VG_MEASURE_COUNT; ++m) g->per_iter[m] = NAN;
    }
    return r;
}

#define WEIRD "a\"b,c;d\\e|f\n\t\xc3\xa9"

/* A fake clock for the golden comparison. */
typedef struct golden_clock {
    uint64_t now_ns, read_ns;
} golden_clock;
typedef struct golden_alt {
    golden_clock *c;
    uint64_t cost_ns;
} golden_alt;
static uint64_t golden_now(void *ctx) {
    golden_clock *c = ctx;
    return c->now_ns += c->read_ns;
}
static void golden_op(void *ctx) {
    golden_alt *a = ctx;
    a->c->now_ns += a->cost_ns;
}

/* The results of the golden files: counters, a batch, an error, a
 * complexity series, the weird name and non-finite values. */
static fb_bench *golden_bench(void) {
    fb_bench *b = fb_bench_new();
    {
        uint64_t it[5] = {100, 100, 120, 100, 100};
        double el[5] = {1.5e-8, 1.25e-8, 1.75e-8, 1.5e-8, 2e-8};
        double ins[5] = {40, 40, 40.5, 40, 40};
        double cyc[5] = {50, 48, 52, 50, 60};
        double pf[5] = {0, 0, 0.25, 0, 0};
        const double *v[FB_MEASURE_COUNT] = {
            [FB_ELAPSED] = el, [FB_INSTRUCTIONS] = ins, [FB_CPUCYCLES] = cyc, [FB_PAGEFAULTS] = pf};
        fb_result *r = make_result("demo", "sum", "op", 1, 0, 5, it,
                                   FB__BIT(FB_ELAPSED) | FB__BIT(FB_INSTRUCTIONS) |
                                       FB__BIT(FB_CPUCYCLES) | FB__BIT(FB_PAGEFAULTS),
                                   v);
        r->probe[0] = 1.03; /* measured in a slow episode of the core */
        r->probe[1] = 1.96;
        r->slow_core = true;
        fb__bench_add_result(b, r);
    }
    {
        uint64_t it[4] = {1000, 1000, 1000, 1000};
        double el[4] = {6.4e-7, 6.5e-7, 6.4e-7, 7e-7};
        const double *v[FB_MEASURE_COUNT] = {[FB_ELAPSED] = el};
        /* the slow last epoch was descheduled: in the file, not in the statistics */
        fb__bench_add_result(
            b, mark_disturbed(
                   make_result("demo", "copy", "byte", 64, 0, 4, it, FB__BIT(FB_ELAPSED), v), 3));
    }
    fb__bench_add_result(b, make_error("broken", "the op was optimized away"));
    for (int k = 0; k < 3; ++k) {
        double n = 100.0 * (1 << k);
        uint64_t it[3] = {10, 10, 10};
        double el[3] = {n * 1e-8, n * 1.1e-8, n * 0.95e-8};
        const double *v[FB_MEASURE_COUNT] = {[FB_ELAPSED] = el};
        fb__bench_add_result(
            b, make_result("sorting", "sort", "op", 1, n, 3, it, FB__BIT(FB_ELAPSED), v));
    }
    {
        uint64_t it[3] = {7, 7, 7};
        double el[3] = {1e-6, 2e-6, 3e-6};
        const double *v[FB_MEASURE_COUNT] = {[FB_ELAPSED] = el};
        fb__bench_add_result(
            b, make_result("t \"q\", ;\\ |", WEIRD, "b\"yte", 2, 0, 3, it, FB__BIT(FB_ELAPSED), v));
    }
    {
        /* a counter that was never scheduled (NAN) and one with an
         * infinite epoch: nulls in JSON, empty cells in CSV */
        uint64_t it[3] = {1, 1, 1};
        double el[3] = {1e-3, 1e-3, 1e-3};
        double ins[3] = {NAN, NAN, NAN};
        double cyc[3] = {1, INFINITY, 2};
        const double *v[FB_MEASURE_COUNT] = {
            [FB_ELAPSED] = el, [FB_INSTRUCTIONS] = ins, [FB_CPUCYCLES] = cyc};
        fb__bench_add_result(
            b,
            make_result("odd", "nonfinite", "op", 1, 0, 3, it,
                        FB__BIT(FB_ELAPSED) | FB__BIT(FB_INSTRUCTIONS) | FB__BIT(FB_CPUCYCLES), v));
    }
    fb__bench_add_result(b, make_counted("add", 1, false, NULL));
    fb__bench_add_result(b, make_counted("hash", 32, true, NULL));
    fb__bench_add_result(b, make_counted("lost", 1, false, "no Callgrind output"));
    /* a family's instances (memcpy/8, memcpy/64, memcpy/512) with N set
     * from the argument: an "arg" field and column, one complexity entry
     * "memcpy", one Google Benchmark family named memcpy/<arg> */
    for (int k = 0; k < 3; ++k) {
        int64_t arg = (int64_t)8 << (3 * k);
        char name[32];
        snprintf(name, sizeof name, "memcpy/%d", (int)arg);
        uint64_t it[3] = {100, 100, 100};
        double t = (double)arg * 1e-10 + 2e-9; /* the median: exactly linear in N */
        double el[3] = {t, t * 1.1, t * 0.95};
        const double *v[FB_MEASURE_COUNT] = {[FB_ELAPSED] = el};
        fb_result *r = make_result("family", name, "byte", (double)arg, (double)arg, 3, it,
                                   FB__BIT(FB_ELAPSED), v);
        r->config.has_arg = true;
        r->config.arg = arg;
        fb__bench_add_result(b, r);
    }
    {
        /* a comparison measured with a fake clock: 125 vs 100 ns a call,
         * the clock read costing 3 ns (ratios close to, not exactly, 1.25) */
        static golden_clock gc;
        memset(&gc, 0, sizeof gc);
        gc.read_ns = 3;
        golden_alt a0 = {&gc, 125}, a1 = {&gc, 100};
        fb_set_clock(b, golden_now, &gc, 1e-9);
        fb_set_output(b, NULL);
        fb_set_performance_counters(b, false);
        fb_set_epochs(b, 6);
        fb_alternative alts[2] = {{"slow", golden_op, &a0}, {"fast", golden_op, &a1}};
        /* a fixed call-site build, as make_result's: the golden files must
         * not depend on how this test was compiled */
        (void)fb__compare_at(b, "cmp", alts, 2, 7);
    }
    /* the results are complete: the family's fit is stored, as the runner
     * does before it writes (src/stats/complexity_group.c) */
    CHECK(fb__fit_store_families(b) == FB_OK);
    return b;
}

static fb__env_report golden_env;

static void golden_context(fb__sysinfo *si) {
    memset(si, 0, sizeof *si);
    snprintf(si->date, sizeof si->date, "2000-01-02T03:04:05+00:00");
    snprintf(si->host_name, sizeof si->host_name, "testhost");
    snprintf(si->executable, sizeof si->executable, "/opt/bench/suite");
    snprintf(si->cpu_model, sizeof si->cpu_model, "Test CPU \"X\" @ 1.00GHz");
    si->num_cpus = 4;
    si->mhz_per_cpu = 1000;
    si->cpu_scaling = 0;
    si->n_load_avg = 3;
    si->load_avg[0] = 0.5, si->load_avg[1] = 0.25, si->load_avg[2] = 0.125;
    si->n_caches = 2;
    si->caches[0] = (fb__cache_info){"Data", 1, 32768, 2};
    si->caches[1] = (fb__cache_info){"Unified", 3, 8388608, 4};
    si->os = "testos";
    si->arch = "testarch";
    si->version = "0.0.0-test";
    si->compiler = "testcc 1.0";
    si->build_flags = "-O2 -DNDEBUG";
    si->library_build = 7;
    golden_env.count = 1;
    snprintf(golden_env.w[0].what, sizeof golden_env.w[0].what,
             "CPU frequency scaling: \"powersave\"");
    snprintf(golden_env.w[0].fix, sizeof golden_env.w[0].fix,
             "use the performance governor\t(cpupower)");
    si->env = &golden_env;
}

/* The Google Benchmark JSON layouts with a fixed context. */
static int gb_repetitions(const fb_bench *b, FILE *f, const fb__sysinfo *si) {
    return fb__write_gbench_json_rows_with(b, f, si, FB_GBENCH_REPETITIONS);
}
static int gb_aggregates(const fb_bench *b, FILE *f, const fb__sysinfo *si) {
    return fb__write_gbench_json_rows_with(b, f, si, FB_GBENCH_AGGREGATES);
}

/* Occurrences of needle in s. */
static size_t count_of(const char *s, const char *needle) {
    size_t n = 0;
    for (const char *p = s; (p = strstr(p, needle)) != NULL; p += strlen(needle)) ++n;
    return n;
}

/* Runs a writer into memory; returns a malloc'd NUL-terminated string. */
static char *capture(int (*w)(const fb_bench *, FILE *, const fb__sysinfo *),
                     int (*plain)(const fb_bench *, FILE *), const fb_bench *b,
                     const fb__sysinfo *si, int *rc) {
    FILE *f = tmpfile();
    if (!f) return NULL;
    *rc = w ? w(b, f, si) : plain(b, f);
    long n = ftell(f);
    rewind(f);
    char *s = malloc((size_t)(n > 0 ? n : 0) + 1);
    size_t got = fread(s, 1, (size_t)(n > 0 ? n : 0), f);
    s[got] = '\0';
    fclose(f);
    return s;
}

static char *slurp(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    char *s = malloc((size_t)(n > 0 ? n : 0) + 1);
    size_t got = fread(s, 1, (size_t)(n > 0 ? n : 0), f);
    s[got] = '\0';
    fclose(f);
    return s;
}

static void write_file(const char *path, const char *text) {
    FILE *f = fopen(path, "wb");
    if (!f) return;
    fputs(text, f);
    fclose(f);
}

/* Compares text with the golden file; FB_UPDATE_GOLDEN=1 rewrites it. */
static void check_golden(const char *file, const char *text) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", FB_TEST_DATA_DIR, file);
    const char *upd = getenv("FB_UPDATE_GOLDEN");
    if (upd && *upd && strcmp(upd, "0") != 0) {
        write_file(path, text);
        printf("updated %s\n", path);
        return;
    }
    char *want = slurp(path);
    if (!want) {
        fprintf(stderr, "missing golden file %s (FB_UPDATE_GOLDEN=1 writes it)\n", path);
        check_failures_++;
        return;
    }
    if (strcmp(want, text) != 0) {
        size_t line = 1, i = 0;
        while (want[i] && want[i] == text[i]) line += want[i++] == '\n';
        fprintf(stderr, "%s differs from the output at line %zu\n--- output from there:\n%.300s\n",
                path, line, text + i);
        check_failures_++;
    }
    free(want);
}

/* ------------------------------------------------------------- tests */

/* A counted alternative of comparison `title`: k instructions per op
 * (Callgrind's totals 1000 + 64k and 1000 + 128k over 64 and 128
 * iterations). */
static fb_result *counted_alt(const char *title, const char *name, unsigned k) {
    fb_result *r = make_counted(name, 1, false, NULL);
    free(r->config.title);
    r->config.title = fb__strdup(title);
    r->vg->c1[FB__VG_IR] = 1000u + 64u * k;
    r->vg->c2[FB__VG_IR] = 1000u + 128u * k;
    fb__vg_derive(r->vg);
    r->vg->ins_lo = r->vg->ins_hi = r->vg->pair_ins[0] = r->vg->per_iter[FB_VG_INSTRUCTIONS];
    fb__stats_compute(r);
    return r;
}

/* A counted result whose count moved between counted epochs: the median
 * pair counted k instructions per op, the pairs lo..hi. */
static fb_result *spread_counted(const char *title, const char *name, unsigned k, double lo,
                                 double hi) {
    fb_result *r = counted_alt(title, name, k);
    r->vg->pairs = 5;
    r->vg->ins_lo = lo;
    r->vg->ins_hi = hi;
    const double pairs[5] = {lo, (lo + k) / 2, k, (k + hi) / 2, hi};
    memcpy(r->vg->pair_ins, pairs, sizeof pairs);
    r->vg->wild = hi - lo > FB__VG_WILD_FRACTION * r->vg->per_iter[FB_VG_INSTRUCTIONS];
    return r;
}

/* A comparison counted under Callgrind, as src/run/compare.c builds one. */
static void add_counted_comparison(fb_bench *b, const char *title, const char *n0, unsigned k0,
                                   const char *n1, unsigned k1) {
    fb_comparison *c = fb__comparison_alloc(title, 2, 0);
    c->confidence = 0.95;
    c->results[0] = counted_alt(title, n0, k0);
    c->results[1] = counted_alt(title, n1, k1);
    CHECK(fb__comparison_counted(c) == FB_OK);
    CHECK(fb__bench_publish_comparison(b, c) == FB_OK);
}

/* Golden files of a -valgrind run: counted results (one with the cache
 * simulation, a batch, an error row) and two counted comparisons (twice
 * the instructions: exactly 0.5; the same: exactly 1), in the table, CSV,
 * JSON, Google Benchmark JSON and HTML. Nothing in them is volatile: the
 * machine context is the fixed one of golden_context. */
static void test_golden_valgrind(void) {
    fb_bench *b = fb_bench_new();
    fb_set_output(b, NULL);
    fb__bench_add_result(b, make_counted("add", 1, false, NULL));
    fb__bench_add_result(b, make_counted("hash", 32, true, NULL));
    fb__bench_add_result(b,
                         make_counted("failed", 1, false, "the counted epochs did not complete"));
    /* counts that moved between counted epochs: a spread, one of them
     * unsteady (over FB__VG_WILD_FRACTION of its median) */
    fb__bench_add_result(b, spread_counted("counted", "shuffled", 1000, 990, 1012));
    fb__bench_add_result(b, spread_counted("counted", "unsteady", 1000, 800, 1300));
    add_counted_comparison(b, "pair double", "ten", 12, "twice", 24);
    add_counted_comparison(b, "pair same", "one", 12, "other", 12);
    /* two counts 1% apart whose spreads overlap: the same */
    fb_comparison *sc = fb__comparison_alloc("pair spread", 2, 0);
    sc->confidence = 0.95;
    sc->results[0] = spread_counted("pair spread", "first", 1000, 995, 1012);
    sc->results[1] = spread_counted("pair spread", "second", 1010, 1002, 1020);
    CHECK(fb__comparison_counted(sc) == FB_OK);
    CHECK(fb__bench_publish_comparison(b, sc) == FB_OK);
    CHECK(fb_comparison_low(fb_comparison_at(b, 2), 1) < 1.0 &&
          fb_comparison_high(fb_comparison_at(b, 2), 1) > 1.0 &&
          !fb_comparison_significant(fb_comparison_at(b, 2), 1));
    CHECK(fb_comparison_ratio(fb_comparison_at(b, 0), 1) == 0.5 &&
          fb_comparison_low(fb_comparison_at(b, 0), 1) == 0.5 &&
          fb_comparison_significant(fb_comparison_at(b, 0), 1));
    CHECK(fb_comparison_ratio(fb_comparison_at(b, 1), 1) == 1.0 &&
          fb_comparison_high(fb_comparison_at(b, 1), 1) == 1.0 &&
          !fb_comparison_significant(fb_comparison_at(b, 1), 1));
    fb__sysinfo si;
    golden_context(&si);
    int rc = -99;
    char *md = capture(NULL, fb_write_markdown, b, NULL, &rc);
    CHECK(rc == FB_OK);
    check_golden("golden_valgrind.md", md);
    CHECK(strstr(md, "ns/") == NULL || strstr(md, "ins/") != NULL);
    CHECK(strstr(md, "`twice` executed 2.000x the instructions of `ten` per op") != NULL);
    char *csv = capture(NULL, fb_write_csv, b, NULL, &rc);
    CHECK(rc == FB_OK);
    check_golden("golden_valgrind.csv", csv);
    char *json = capture(fb__write_json_with, NULL, b, &si, &rc);
    CHECK(rc == FB_OK);
    check_golden("golden_valgrind.json", json);
    CHECK(count_of(json, "\"measure\": \"instructions\"") == 3);
    char *gb = capture(fb__write_gbench_json_with, NULL, b, &si, &rc);
    CHECK(rc == FB_OK);
    check_golden("golden_valgrind.gbench.json", gb);
    /* a time of 0 only in error rows (error_occurred, which tools skip) */
    CHECK(count_of(gb, "\"real_time\": 0,") == count_of(gb, "\"error_occurred\": true"));
    char *html = capture(fb__write_html_with, NULL, b, &si, &rc);
    CHECK(rc == FB_OK);
    check_golden("golden_valgrind.html", html);
    CHECK(strstr(html, "not measured") == NULL && strstr(html, "chart counted") != NULL);
    free(md);
    free(csv);
    free(json);
    free(gb);
    free(html);
    fb_bench_free(b);
}

static void test_golden(void) {
    fb_bench *b = golden_bench();
    fb__sysinfo si;
    golden_context(&si);
    int rc = -99;
    char *csv = capture(NULL, fb_write_csv, b, NULL, &rc);
    CHECK(rc == FB_OK);
    check_golden("golden_results.csv", csv);
    char *json = capture(fb__write_json_with, NULL, b, &si, &rc);
    CHECK(rc == FB_OK);
    check_golden("golden_results.json", json);
    char *gb = capture(gb_repetitions, NULL, b, &si, &rc);
    CHECK(rc == FB_OK);
    check_golden("golden_results.gbench.json", gb);
    /* the default layout: one row per result, the median */
    char *gbm = capture(fb__write_gbench_json_with, NULL, b, &si, &rc);
    CHECK(rc == FB_OK);
    check_golden("golden_results.gbench_median.json", gbm);
    /* (and one per alternative of the comparison, named title/name) */
    CHECK(count_of(gbm, "\"run_type\"") ==
          fb_result_count(b) + fb_comparison_size(fb_last_comparison(b)));
    CHECK(count_of(gbm, "\"name\": \"cmp/slow\",") == 1 &&
          count_of(gbm, "\"name\": \"cmp/fast\",") == 1);
    CHECK(count_of(gbm, "\"run_type\": \"aggregate\"") == 0);
    CHECK(count_of(gbm, "\"name\": \"sum\",") == 1);
    char *gba = capture(gb_aggregates, NULL, b, &si, &rc);
    CHECK(rc == FB_OK);
    CHECK(count_of(gba, "\"name\": \"sum\",") == 0 &&
          count_of(gba, "\"name\": \"sum_median\",") == 1);
    CHECK(count_of(gba, "\"run_type\": \"aggregate\"") ==
          count_of(gb, "\"run_type\": \"aggregate\""));
    CHECK(fb__write_gbench_json_rows_with(b, stdout, &si, 3) == FB_EINVAL);
    free(gbm);
    free(gba);

    /* escaping of the weird name, in every format */
    CHECK(strstr(csv, "\"a\"\"b,c;d\\e|f\n\t\xc3\xa9\"") != NULL);
    CHECK(strstr(csv, "\"t \"\"q\"\", ;\\ |\",") != NULL);
    CHECK(strstr(json, "\"name\": \"a\\\"b,c;d\\\\e|f\\n\\t\xc3\xa9\"") != NULL);
    CHECK(strstr(gb, "\"name\": \"a\\\"b,c;d\\\\e|f\\n\\t\xc3\xa9\"") != NULL);
    /* non-finite values */
    CHECK(strstr(json, "\"instructions\": {\"median\": null, \"err_pct\": null") != NULL);
    CHECK(strstr(json, "\"max\": null") != NULL); /* cpucycles max = inf */
    CHECK(strstr(json, "NaN") == NULL && strstr(json, "nan") == NULL &&
          strstr(json, "inf") == NULL);
    CHECK(strstr(gb, "nan") == NULL && strstr(gb, "inf") == NULL);
    CHECK(strstr(gb, "null") == NULL); /* a non-finite counter is left out */
    CHECK(strstr(csv, "nan") == NULL && strstr(csv, "inf") == NULL);
    /* nonfinite row: instructions empty, cpucycles median 2 */
    CHECK(strstr(
              csv,
              "odd,nonfinite,,op,1,,3,3,1000000,1000000,1000000,1000000,0,,2,,,,,,,,,,0.003,,,,,,1,"
              "1000000,,,,\n") != NULL);
    /* the error row: text cells filled, measured cells empty */
    CHECK(
        strstr(csv,
               "errors,broken,,op,1,,,,,,,,,,,,,,,,,,,,,the op was optimized away,,,,,1,,,,,\n") !=
        NULL);
    /* counted under Callgrind: no time, the exact count per unit (1 per
     * iteration), two epochs of 64 + 128 iterations, one counted pair (its
     * spread: the count); in GB a counter */
    CHECK(strstr(csv, "counted,add,,op,1,,2,192,,,,,,,,,,,,1,,,,,0,,,,,,1,,,1,1,1\n") != NULL);
    CHECK(strstr(gb, "\"valgrind_instructions\": 0.03125") != NULL);
    CHECK(strstr(json, "\"per_iteration\": {\"instructions\": 1}") != NULL);
    /* GB: the complexity series become sort/100, sort/200, sort/400 */
    CHECK(strstr(gb, "\"name\": \"sort/200_median\"") != NULL);
    /* a family's instances keep their names (N is their argument),
     * carry the argument in CSV and JSON, and are fitted as one series */
    CHECK(strstr(gb, "\"name\": \"memcpy/64_median\"") != NULL);
    CHECK(strstr(gb, "memcpy/64/64") == NULL);
    CHECK(strstr(csv, "\nfamily,memcpy/64,64,byte,64,64,3,300,") != NULL);
    CHECK(strstr(json, "\"name\": \"memcpy/512\",\n      \"arg\": 512,") != NULL);
    CHECK(strstr(json, "\"name\": \"memcpy\",\n      \"fits\": [\n        {\"model\": \"O(n)\"") !=
          NULL);
    CHECK(strstr(gb, "\"error_occurred\": true") != NULL);
    CHECK(strstr(json, "\"complexity\": [") != NULL && strstr(json, "\"model\": \"O(n)\"") != NULL);
    /* the comparison: CSV rows with relative and interval, a JSON entry with
     * per-round log ratios, GB rows named title/name */
    CHECK(strstr(csv, ",relative,ci_low,ci_high,marks,passes,passes_median_ns_per_unit,"
                      "between_passes_pct,valgrind_instructions_low_per_unit,"
                      "valgrind_instructions_high_per_unit,valgrind_pairs\n") != NULL);
    CHECK(strstr(csv, "\ncmp,slow,,op,1,,6,") != NULL);
    CHECK(strstr(csv, "\ncmp,fast,,op,1,,6,") != NULL);
    CHECK(strstr(json, "\"comparisons\": [") != NULL && strstr(json, "\"log_ratios\": [") != NULL);
    CHECK(strstr(json, "\"fastest\": \"fast\"") != NULL);
    CHECK(strstr(gb, "\"name\": \"cmp/slow\"") != NULL &&
          strstr(gb, "\"name\": \"cmp/fast_median\"") != NULL);
    free(csv);
    free(json);
    free(gb);
    fb_bench_free(b);
}

static void test_gbench_names(void) {
    /* same name twice: distinct run names; families by name */
    fb_bench *b = fb_bench_new();
    uint64_t it[2] = {1, 1};
    double el[2] = {1e-9, 1e-9};
    const double *v[FB_MEASURE_COUNT] = {[FB_ELAPSED] = el};
    fb__bench_add_result(b, make_result("t", "x", "op", 1, 0, 2, it, FB__BIT(FB_ELAPSED), v));
    fb__bench_add_result(b, make_result("t", "y", "op", 1, 0, 2, it, FB__BIT(FB_ELAPSED), v));
    fb__bench_add_result(b, make_result("t", "x", "op", 1, 0, 2, it, FB__BIT(FB_ELAPSED), v));
    fb_result *us = make_result("t", "z", "op", 1, 0, 2, it, FB__BIT(FB_ELAPSED), v);
    snprintf(us->config.time_unit_label, sizeof us->config.time_unit_label, "us");
    us->config.time_unit_s = 1e-6;
    fb__bench_add_result(b, us);
    fb_result *odd = make_result("t", "w", "op", 1, 0, 2, it, FB__BIT(FB_ELAPSED), v);
    snprintf(odd->config.time_unit_label, sizeof odd->config.time_unit_label, "cyc");
    odd->config.time_unit_s = 3e-10;
    fb__bench_add_result(b, odd);
    fb__sysinfo si;
    golden_context(&si);
    int rc;
    char *gb = capture(fb__write_gbench_json_with, NULL, b, &si, &rc);
    CHECK(rc == FB_OK);
    CHECK(strstr(gb, "\"name\": \"x#2\",\n      \"family_index\": 0,\n      "
                     "\"per_family_instance_index\": 1") != NULL);
    CHECK(strstr(gb, "\"name\": \"y\",\n      \"family_index\": 1,\n      "
                     "\"per_family_instance_index\": 0") != NULL);
    CHECK(
        strstr(gb,
               "\"real_time\": 0.001,\n      \"cpu_time\": 0.001,\n      \"time_unit\": \"us\"") !=
        NULL);
    CHECK(strstr(gb, "\"real_time\": 1,\n      \"cpu_time\": 1,\n      \"time_unit\": \"ns\",\n    "
                     "  \"aggregate") == NULL);
    CHECK(strstr(gb, "\"name\": \"w\"") != NULL && strstr(gb, "\"cyc\"") == NULL);
    free(gb);
    fb_bench_free(b);

    /* batched: real_time per call, the rate beside it, as GB writes it */
    b = fb_bench_new();
    double el2[2] = {2e-6, 2e-6};
    const double *v2[FB_MEASURE_COUNT] = {[FB_ELAPSED] = el2};
    fb__bench_add_result(b,
                         make_result("t", "sha", "byte", 1024, 0, 2, it, FB__BIT(FB_ELAPSED), v2));
    fb__bench_add_result(b, make_result("t", "ops", "op", 4, 0, 2, it, FB__BIT(FB_ELAPSED), v2));
    fb__bench_add_result(b, make_result("t", "one", "op", 1, 0, 2, it, FB__BIT(FB_ELAPSED), v2));
    gb = capture(fb__write_gbench_json_with, NULL, b, &si, &rc);
    CHECK(rc == FB_OK);
    CHECK(strstr(gb, "\"name\": \"sha\"") && strstr(gb, "\"real_time\": 2000,") &&
          strstr(gb, "\"bytes_per_second\": 512000000\n") &&
          strstr(gb, "\"items_per_second\": 2000000\n"));
    CHECK(count_of(gb, "_per_second") == 2); /* none for batch 1, unit op */
    free(gb);
    gb = capture(gb_repetitions, NULL, b, &si, &rc);
    CHECK(rc == FB_OK &&
          count_of(gb, "\"bytes_per_second\": 512000000") == 4); /* 2 epochs, mean, median */
    CHECK(count_of(gb, "\"bytes_per_second\": 0\n") == 1);       /* the stddev */
    free(gb);
    fb_bench_free(b);
}

/* Each character that makes a CSV field need quotes does so alone (a name
 * with only that one), so no rule hides behind another: the comma, the
 * double quote, the semicolon (a list separator in many locales' spreadsheet
 * programs), CR, LF, TAB and a space at either end. A name with none of
 * them, '|' and '\\' included, stays bare. */
static void test_csv_quoting_each(void) {
    static const char *const quoted[] = {"a,b",  "a\"b", "a;b", "a\rb",
                                         "a\nb", "a\tb", " ab", "ab "};
    static const char *const want[] = {"\"a,b\"",  "\"a\"\"b\"", "\"a;b\"", "\"a\rb\"",
                                       "\"a\nb\"", "\"a\tb\"",   "\" ab\"", "\"ab \""};
    uint64_t it[1] = {1};
    double el[1] = {1e-9};
    const double *v[FB_MEASURE_COUNT] = {[FB_ELAPSED] = el};
    for (size_t i = 0; i < sizeof quoted / sizeof *quoted; ++i) {
        fb_bench *b = fb_bench_new();
        fb__bench_add_result(
            b, make_result("t", quoted[i], "op", 1, 0, 1, it, FB__BIT(FB_ELAPSED), v));
        int rc;
        char *csv = capture(NULL, fb_write_csv, b, NULL, &rc);
        char row[64];
        snprintf(row, sizeof row, "\nt,%s,,op,", want[i]);
        CHECK(rc == FB_OK && csv && strstr(csv, row) != NULL);
        if (csv && !strstr(csv, row)) fprintf(stderr, "  CSV of name #%zu: %s\n", i, csv);
        free(csv);
        fb_bench_free(b);
    }
    fb_bench *b = fb_bench_new();
    fb__bench_add_result(b, make_result("t", "a|b\\c", "op", 1, 0, 1, it, FB__BIT(FB_ELAPSED), v));
    int rc;
    char *csv = capture(NULL, fb_write_csv, b, NULL, &rc);
    CHECK(rc == FB_OK && csv && strstr(csv, "\nt,a|b\\c,,op,") != NULL);
    free(csv);
    fb_bench_free(b);
}

static void test_empty_and_args(void) {
    fb_bench *b = fb_bench_new();
    fb__sysinfo si;
    golden_context(&si);
    int rc;
    char *csv = capture(NULL, fb_write_csv, b, NULL, &rc);
    CHECK(rc == FB_OK && strchr(csv, '\n') == csv + strlen(csv) - 1); /* header only */
    char *json = capture(fb__write_json_with, NULL, b, &si, &rc);
    CHECK(rc == FB_OK && strstr(json, "\"results\": []") && strstr(json, "\"complexity\": []"));
    char *gb = capture(fb__write_gbench_json_with, NULL, b, &si, &rc);
    CHECK(rc == FB_OK && strstr(gb, "\"benchmarks\": []"));
    free(csv);
    free(json);
    free(gb);
    CHECK(fb_write_csv(NULL, stdout) == FB_EINVAL);
    CHECK(fb_write_json(b, NULL) == FB_EINVAL);
    CHECK(fb_write_gbench_json(NULL, NULL) == FB_EINVAL);
    /* the real context: the public writers fill it from this machine */
    json = capture(NULL, fb_write_json, b, NULL, &rc);
    CHECK(rc == FB_OK && strstr(json, "\"schema\": \"femtobench/1\""));
    CHECK(strstr(json, fb_version()) != NULL);
    gb = capture(NULL, fb_write_gbench_json, b, NULL, &rc);
    CHECK(rc == FB_OK && strstr(gb, "\"caches\": [") && strstr(gb, "\"json_schema_version\": 1"));
    free(json);
    free(gb);
    /* a stream that fails: FB_EIO */
    FILE *ro = fopen("/dev/null", "r");
    if (ro) {
        CHECK(fb_write_csv(b, ro) == FB_EIO);
        fclose(ro);
    }
    fb_bench_free(b);
}

static void json_of(const char *s, char *out, size_t len) {
    FILE *f = tmpfile();
    fb__json_str(f, s);
    long n = ftell(f);
    rewind(f);
    size_t got = fread(out, 1, len - 1 < (size_t)n ? len - 1 : (size_t)n, f);
    out[got] = '\0';
    fclose(f);
}

static void test_text(void) {
    char buf[128];
    json_of("ctrl\x01\x1f\x7f end", buf, sizeof buf);
    CHECK_STR(buf, "\"ctrl\\u0001\\u001f\\u007f end\"");
    json_of("\xff|\xc0\xaf|\xed\xa0\x80|\xe2\x82|\xf0\x9f\x98\x80|\xe2\x80\xa8", buf, sizeof buf);
    CHECK_STR(buf, "\"\xef\xbf\xbd|\xef\xbf\xbd\xef\xbf\xbd|\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd|"
                   "\xef\xbf\xbd\xef\xbf\xbd|\xf0\x9f\x98\x80|\\u2028\"");
    json_of(NULL, buf, sizeof buf);
    CHECK_STR(buf, "null");

    fb__fmt_double(buf, sizeof buf, 0.1, 0);
    CHECK_STR(buf, "0.1");
    fb__fmt_double(buf, sizeof buf, 1.0 / 3, 0);
    CHECK_STR(buf, "0.3333333333333333");
    fb__fmt_double(buf, sizeof buf, 1e-9, 0);
    CHECK_STR(buf, "1e-09");
    fb__fmt_double(buf, sizeof buf, 123456789012.0, 0);
    CHECK_STR(buf, "123456789012");
    fb__fmt_double(buf, sizeof buf, -0.0, 0);
    CHECK_STR(buf, "-0");
    fb__fmt_double(buf, sizeof buf, 1.5e-8 * 1e9, 0);
    CHECK_STR(buf, "14.999999999999998");
    fb__fmt_double(buf, sizeof buf, 1.5e-8 * 1e9, 15);
    CHECK_STR(buf, "15");
    const double probes[] = {5e-324, 1.7976931348623157e308, 0.30000000000000004, 2.5e-8, 1e21};
    for (size_t i = 0; i < sizeof probes / sizeof probes[0]; ++i) {
        fb__fmt_double(buf, sizeof buf, probes[i], 0);
        CHECK(strtod(buf, NULL) == probes[i]);
    }
    /* a locale with a decimal comma must not leak into the files */
    const char *comma[] = {"de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8", "de_DE", NULL};
    bool tried = false;
    for (int i = 0; comma[i] && !tried; ++i) {
        if (!setlocale(LC_NUMERIC, comma[i])) continue;
        tried = true;
        fb__fmt_double(buf, sizeof buf, 2.5, 0);
        CHECK_STR(buf, "2.5");
        setlocale(LC_NUMERIC, "C");
    }
    if (!tried) printf("note: no decimal-comma locale installed; locale check skipped\n");
    /* locale-independent fixed format and parsing (src/platform/numfmt.c) */
    fb__fmt_fixed(buf, sizeof buf, 0.675, 2);
    CHECK_STR(buf, "0.68");
    fb__fmt_fixed(buf, sizeof buf, -1234.5, 1);
    CHECK_STR(buf, "-1234.5");
    fb__fmt_fixed(buf, sizeof buf, NAN, 1);
    CHECK_STR(buf, "nan");
    fb__fmt_grouped(buf, sizeof buf, 1234567.25, 2);
    CHECK_STR(buf, "1,234,567.25");
    double d = -1;
    CHECK(fb__parse_decimal("0.5", &d) && d == 0.5);
    CHECK(fb__parse_decimal("5", &d) && d == 5);
    CHECK(fb__parse_decimal(".25", &d) && d == 0.25);
    CHECK(fb__parse_decimal("1e3", &d) && d == 1000);
    CHECK(fb__parse_decimal("2.5E-1", &d) && d == 0.25);
    const char *bad[] = {"",    ".",   "0,5", " 1",  "1 ",    "+1",   "-1",   "0x10",
                         "inf", "nan", "1e",  "1e+", "1e999", "1..2", "1.2.3"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; ++i) CHECK(!fb__parse_decimal(bad[i], &d));
}

/* -------------------------------------------------------------- sysinfo */

static void test_sysinfo(const char *tmp) {
    char root[1024];
    snprintf(root, sizeof root, "%s/root", tmp);
    mkdir(root, 0755);
    fake_sysfs_put(
        root, "/proc/cpuinfo",
        "processor\t: 0\nvendor_id\t: X\nmodel name\t: Fake CPU \"9000\" @ 2.00GHz\ncpu "
        "MHz\t\t: 1999.999\n\n"
        "processor\t: 1\nmodel name\t: Fake CPU \"9000\" @ 2.00GHz\ncpu MHz\t\t: 2000.000\n\n");
    fake_sysfs_put(root, "/proc/loadavg", "0.52 1.25 10.00 1/123 4567\n");
    fake_sysfs_put(root, "/sys/devices/system/cpu/cpu0/cache/index0/type", "Data\n");
    fake_sysfs_put(root, "/sys/devices/system/cpu/cpu0/cache/index0/level", "1\n");
    fake_sysfs_put(root, "/sys/devices/system/cpu/cpu0/cache/index0/size", "48K\n");
    fake_sysfs_put(root, "/sys/devices/system/cpu/cpu0/cache/index0/shared_cpu_list", "0-1\n");
    fake_sysfs_put(root, "/sys/devices/system/cpu/cpu0/cache/index1/type", "Unified\n");
    fake_sysfs_put(root, "/sys/devices/system/cpu/cpu0/cache/index1/level", "3\n");
    fake_sysfs_put(root, "/sys/devices/system/cpu/cpu0/cache/index1/size", "32M\n");
    fake_sysfs_put(root, "/sys/devices/system/cpu/cpu0/cache/index1/shared_cpu_list",
                   "0-7,16-23,30\n");
    fake_sysfs_put(root, "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", "performance\n");
    fake_sysfs_put(root, "/sys/devices/system/cpu/cpu1/cpufreq/scaling_governor", "powersave\n");
    fake_sysfs_put(root, "/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq", "3600000\n");
    fb__sysinfo si;
    fb__sysinfo_read(root, &si);
    CHECK_STR(si.cpu_model, "Fake CPU \"9000\" @ 2.00GHz");
    CHECK(si.num_cpus == 2);
    CHECK(si.mhz_per_cpu == 3600);
    CHECK(si.cpu_scaling == 1);
    CHECK(si.n_load_avg == 3 && si.load_avg[0] == 0.52 && si.load_avg[1] == 1.25 &&
          si.load_avg[2] == 10);
    CHECK(si.n_caches == 2);
    CHECK_STR(si.caches[0].type, "Data");
    CHECK(si.caches[0].level == 1 && si.caches[0].size == 48 * 1024 &&
          si.caches[0].num_sharing == 2);
    CHECK(si.caches[1].level == 3 && si.caches[1].size == 32LL * 1024 * 1024 &&
          si.caches[1].num_sharing == 17);
    CHECK(strlen(si.date) == 25 && si.date[10] == 'T' && !strcmp(si.date + 19, "+00:00"));
    CHECK(si.version && !strcmp(si.version, fb_version()));
    CHECK(si.compiler && *si.compiler && si.build_flags && *si.build_flags);

    /* an empty tree: fallbacks, no failure */
    char empty[1024];
    snprintf(empty, sizeof empty, "%s/empty", tmp);
    mkdir(empty, 0755);
    fb__sysinfo_read(empty, &si);
    CHECK_STR(si.cpu_model, "unknown");
    CHECK(si.num_cpus >= 1); /* from sysconf */
    CHECK(si.mhz_per_cpu == 0 && si.cpu_scaling == -1 && si.n_load_avg == 0 && si.n_caches == 0);
    fb__sysinfo_read("/", &si); /* the real machine: must not crash */
    CHECK(si.num_cpus >= 1);
}

/* -------------------------------------------------------------- outfile */

static int writer_ok(const fb_bench *b, FILE *f) {
    (void)b;
    fputs("NEW CONTENT\n", f);
    return FB_OK;
}

static int writer_fails(const fb_bench *b, FILE *f) {
    (void)b;
    fputs("PARTIAL", f);
    return FB_ENOMEM;
}

static volatile sig_atomic_t got_sigint;
static volatile sig_atomic_t sigint_seen_in_writer;
static void on_sigint(int sig) {
    (void)sig;
    got_sigint = 1;
}

/* Raises SIGINT in the middle of the write: it must stay pending until the
 * file is complete and renamed. */
static int writer_interrupted(const fb_bench *b, FILE *f) {
    (void)b;
    fputs("FIRST HALF\n", f);
    raise(SIGINT);
    sigint_seen_in_writer = got_sigint;
    fputs("SECOND HALF\n", f);
    return FB_OK;
}

/* Number of entries in dir whose name starts with ".<base>.tmp-". */
static int count_temps(const char *dir, const char *base) {
    char prefix[256];
    snprintf(prefix, sizeof prefix, ".%s.tmp-", base);
    int n = 0;
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d)))
        if (!strncmp(e->d_name, prefix, strlen(prefix))) ++n;
    if (d) closedir(d);
    return n;
}

static void test_outfile(const char *tmp) {
    char path[1024], err[512], other[1024];
    fb_bench *b = fb_bench_new();

    /* check: bad paths, each with a reason */
    CHECK(fb__outfile_check("", err, sizeof err) == FB_EINVAL);
    CHECK(strstr(err, "empty") != NULL);
    CHECK(fb__outfile_check("-", err, sizeof err) == FB_OK);
    CHECK(fb__outfile_check(tmp, err, sizeof err) != FB_OK);
    CHECK(strstr(err, "is a directory") != NULL);
    snprintf(path, sizeof path, "%s/no/such/dir/out.json", tmp);
    CHECK(fb__outfile_check(path, err, sizeof err) != FB_OK);
    CHECK(strstr(err, "does not exist") != NULL);
    snprintf(other, sizeof other, "%s/plainfile", tmp);
    write_file(other, "x");
    snprintf(path, sizeof path, "%s/plainfile/out.json", tmp);
    CHECK(fb__outfile_check(path, err, sizeof err) != FB_OK);
    CHECK(strstr(err, "Not a directory") != NULL || strstr(err, "not a directory") != NULL);
    snprintf(path, sizeof path, "%s/dangling", tmp);
    CHECK(symlink("/nonexistent/femtobench/target", path) == 0);
    CHECK(fb__outfile_check(path, err, sizeof err) != FB_OK);
    CHECK(strstr(err, "does not exist") != NULL);
    /* a directory nobody may write: root ignores permissions, /proc not */
    if (geteuid() != 0) {
        snprintf(other, sizeof other, "%s/ro", tmp);
        mkdir(other, 0555);
        snprintf(path, sizeof path, "%s/ro/out.json", tmp);
        CHECK(fb__outfile_check(path, err, sizeof err) != FB_OK);
        CHECK(strstr(err, "cannot create a file") != NULL);
        CHECK(fb__outfile_write(path, writer_ok, b, err, sizeof err) != FB_OK);
    }
    struct stat st;
    if (stat("/proc/self", &st) == 0) {
        CHECK(fb__outfile_check("/proc/femtobench-test.json", err, sizeof err) != FB_OK);
        CHECK(strstr(err, "cannot create a file in directory '/proc'") != NULL);
    }
    snprintf(path, sizeof path, "%s/fresh.json", tmp);
    CHECK(fb__outfile_check(path, err, sizeof err) == FB_OK);
    CHECK(access(path, F_OK) != 0); /* the probe left nothing */
    CHECK(count_temps(tmp, "fresh.json") == 0);

    /* write: a new file gets the umask's permissions */
    mode_t old_mask = umask(022);
    CHECK(fb__outfile_write(path, writer_ok, b, err, sizeof err) == FB_OK);
    char *s = slurp(path);
    CHECK(s && !strcmp(s, "NEW CONTENT\n"));
    free(s);
    CHECK(stat(path, &st) == 0 && (st.st_mode & 0777) == 0644);

    /* replacing keeps the old file's permissions */
    snprintf(path, sizeof path, "%s/out.json", tmp);
    write_file(path, "OLD CONTENT\n");
    chmod(path, 0640);
    CHECK(fb__outfile_check(path, err, sizeof err) == FB_OK);
    CHECK(fb__outfile_write(path, writer_ok, b, err, sizeof err) == FB_OK);
    s = slurp(path);
    CHECK(s && !strcmp(s, "NEW CONTENT\n"));
    free(s);
    CHECK(stat(path, &st) == 0 && (st.st_mode & 0777) == 0640);
    CHECK(count_temps(tmp, "out.json") == 0);
    umask(old_mask);

    /* a failing writer: the old file stays, no temp file, a reason */
    write_file(path, "OLD CONTENT\n");
    CHECK(fb__outfile_write(path, writer_fails, b, err, sizeof err) == FB_ENOMEM);
    CHECK(strstr(err, "out.json") != NULL && strstr(err, "out of memory") != NULL);
    s = slurp(path);
    CHECK(s && !strcmp(s, "OLD CONTENT\n"));
    free(s);
    CHECK(count_temps(tmp, "out.json") == 0);

    /* SIGINT during the write: pending until after the rename */
    struct sigaction sa, old_sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_sa);
    got_sigint = 0;
    sigint_seen_in_writer = 1;
    CHECK(fb__outfile_write(path, writer_interrupted, b, err, sizeof err) == FB_OK);
    CHECK(sigint_seen_in_writer == 0); /* blocked while writing */
    CHECK(got_sigint == 1);            /* delivered right after */
    s = slurp(path);
    CHECK(s && !strcmp(s, "FIRST HALF\nSECOND HALF\n"));
    free(s);
    CHECK(count_temps(tmp, "out.json") == 0);
    sigaction(SIGINT, &old_sa, NULL);
    sigset_t now;
    sigprocmask(SIG_BLOCK, NULL, &now);
    CHECK(!sigismember(&now, SIGINT)); /* the mask is restored */

    /* through a symlink: the link stays a link, its target is replaced */
    snprintf(other, sizeof other, "%s/real.json", tmp);
    write_file(other, "OLD CONTENT\n");
    snprintf(path, sizeof path, "%s/link.json", tmp);
    CHECK(symlink("real.json", path) == 0);
    CHECK(fb__outfile_check(path, err, sizeof err) == FB_OK);
    CHECK(fb__outfile_write(path, writer_ok, b, err, sizeof err) == FB_OK);
    CHECK(lstat(path, &st) == 0 && S_ISLNK(st.st_mode));
    s = slurp(other);
    CHECK(s && !strcmp(s, "NEW CONTENT\n"));
    free(s);

    /* a device is written in place, never replaced */
    CHECK(fb__outfile_check("/dev/null", err, sizeof err) == FB_OK);
    CHECK(fb__outfile_write("/dev/null", writer_ok, b, err, sizeof err) == FB_OK);
    CHECK(stat("/dev/null", &st) == 0 && S_ISCHR(st.st_mode));

    /* a directory as the target of a write */
    CHECK(fb__outfile_write(tmp, writer_ok, b, err, sizeof err) == FB_EINVAL);
    CHECK(strstr(err, "is a directory") != NULL);

    /* the real writers through the safe file */
    snprintf(path, sizeof path, "%s/real.csv", tmp);
    CHECK(fb__outfile_write(path, fb_write_csv, b, err, sizeof err) == FB_OK);
    s = slurp(path);
    CHECK(s && !strncmp(s, "title,name,arg,unit,", 20));
    free(s);
    fb_bench_free(b);
}

/* The marks a result earns from its numbers (src/stats/marks.c) reach every
 * output: an op at a sixth of the empty loop's cost in epochs of 50 ns is
 * "optimized away?" and "not resolved" in the table, CSV, JSON, GB JSON and
 * HTML; one at the empty loop's cost (one add) is "at the loop's
 * resolution", never "optimized away?"; a real op is neither. */
static void test_marks(void) {
    fb_bench *b = fb_bench_new();
    fb_set_output(b, NULL);
    uint64_t it[3] = {1000, 1000, 1000};
    double el[3] = {0.05e-9, 0.051e-9, 0.05e-9}, el2[3] = {1e-6, 1e-6, 1e-6};
    double el3[3] = {0.3e-9, 0.31e-9, 0.3e-9};
    const double *v[FB_MEASURE_COUNT] = {[FB_ELAPSED] = el};
    const double *v2[FB_MEASURE_COUNT] = {[FB_ELAPSED] = el2};
    const double *v3[FB_MEASURE_COUNT] = {[FB_ELAPSED] = el3};
    fb_result *r = make_result("t", "deleted", "op", 1, 0, 3, it, FB__BIT(FB_ELAPSED), v);
    r->empty_loop_s = 0.29e-9;
    fb__stats_compute(r); /* again, with the empty loop known */
    fb__bench_add_result(b, r);
    r = make_result("t", "real", "op", 1, 0, 3, it, FB__BIT(FB_ELAPSED), v2);
    r->empty_loop_s = 0.29e-9;
    fb__stats_compute(r); /* again, with the empty loop known */
    fb__bench_add_result(b, r);
    r = make_result("t", "oneadd", "op", 1, 0, 3, it, FB__BIT(FB_ELAPSED), v3);
    r->empty_loop_s = 0.29e-9;
    fb__stats_compute(r);
    fb__bench_add_result(b, r);
    CHECK(!fb_result_optimized_away(fb_result_at(b, 2)) &&
          fb_result_at_loop_resolution(fb_result_at(b, 2)));
    CHECK(!fb_result_at_loop_resolution(fb_result_at(b, 0)) &&
          !fb_result_at_loop_resolution(fb_result_at(b, 1)));
    CHECK(fb_result_optimized_away(fb_result_at(b, 0)) && fb_result_unresolved(fb_result_at(b, 0)));
    CHECK(!fb_result_optimized_away(fb_result_at(b, 1)) &&
          !fb_result_unresolved(fb_result_at(b, 1)));
    fb__sysinfo si;
    golden_context(&si);
    int rc;
    char *csv = capture(NULL, fb_write_csv, b, NULL, &rc);
    /* the marks column, then the passes' three columns */
    CHECK(strstr(csv, ",optimized_away unresolved,1,") != NULL);
    CHECK(strstr(csv, ",at_loop_resolution unresolved,1,") != NULL);
    CHECK(strstr(csv, "t,real,") != NULL && strstr(strstr(csv, "t,real,"), ",,1,") != NULL);
    char *json = capture(fb__write_json_with, NULL, b, &si, &rc);
    CHECK(strstr(json, "\"optimized_away\": true") != NULL);
    CHECK(strstr(json, "\"optimized_away\": false") != NULL);
    CHECK(strstr(json, "\"unresolved\": true") != NULL);
    CHECK(strstr(json, "\"empty_loop_s\": 2.9e-10") != NULL);
    char *gb = capture(fb__write_gbench_json_with, NULL, b, &si, &rc);
    CHECK(strstr(gb, "\"label\": \"optimized away? not resolved by the clock\"") != NULL);
    CHECK(strstr(gb, "\"label\": \"at the loop's resolution; not resolved by the clock\"") != NULL);
    char *md = capture(NULL, fb_write_markdown, b, NULL, &rc);
    CHECK(strstr(md, "`deleted` (optimized away? 0.05 ns per iteration") != NULL);
    CHECK(strstr(md, "`oneadd` (at the loop's resolution: 0.30 ns per iteration") != NULL);
    CHECK(strstr(md, "`oneadd` (optimized away?") == NULL);
    CHECK(strstr(md, "(not resolved by the clock") != NULL);
    CHECK(strstr(md, "`real`\n") != NULL);
    char *html = capture(NULL, fb_write_html, b, NULL, &rc);
    CHECK(strstr(html, "optimized away? it costs under a quarter") != NULL);
    CHECK(strstr(html, "at the loop&#39;s resolution") != NULL ||
          strstr(html, "at the loop's resolution") != NULL);
    free(csv);
    free(json);
    free(gb);
    free(md);
    free(html);
    fb_bench_free(b);
}

int main(void) {
    char tmp[] = "/tmp/fb_test_formats.XXXXXX";
    test_marks();
    if (!mkdtemp(tmp)) CHECK_SKIP("mkdtemp failed");
    test_text();
    test_golden();
    test_golden_valgrind();
    test_gbench_names();
    test_csv_quoting_each();
    test_empty_and_args();
    test_sysinfo(tmp);
    test_outfile(tmp);
    fake_sysfs_remove(tmp);
    return CHECK_DONE();
}
