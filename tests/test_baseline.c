/* Baselines: the bounded JSON reader (src/outputs/json_read.c), the femtobench JSON
 * loader with its error messages (src/outputs/baseline.c), a live bench and its
 * written JSON giving the same records, and the change table
 * (src/outputs/report_change.c) on hand-made runs. */
#include "baseline.h"
#include "change.h"
#include "report_change.h"
#include "check.h"
#include "fake_clock.h"
#include "internal.h"
#include "json_read.h"

#include <locale.h>
#include <unistd.h>

/* ------------------------------------------------------------ reader */

static int parse(const char *text, char *err, size_t len) {
    fb__jr_doc d;
    int rc = fb__jr_parse(&d, text, strlen(text), err, len);
    if (rc == 0) fb__jr_free(&d);
    return rc;
}

#define BAD_JSON(text, want)                                                                       \
    do {                                                                                           \
        char e_[256] = "";                                                                         \
        CHECK(parse(text, e_, sizeof e_) == -1);                                                   \
        if (!strstr(e_, want)) fprintf(stderr, "  for %s: got '%s'\n", #text, e_);                 \
        CHECK(strstr(e_, want) != NULL);                                                           \
    } while (0)

static void check_reader(void) {
    char err[256];
    fb__jr_doc d;
    const char *ok =
        " {\"a\": 7, \"a\": [1, -2.5e3, 0.125, true, false, null, \"x\\u00e9\\ud83d\\ude00\\n\"],"
        " \"b\": {}, \"c\": []}\n";
    CHECK(fb__jr_parse(&d, ok, strlen(ok), err, sizeof err) == 0);
    CHECK(d.v[0].type == FB__JR_OBJ && d.v[0].count == 4);
    uint32_t a = fb__jr_get(&d, 0, "a");
    CHECK(a && d.v[a].type == FB__JR_ARR &&
          d.v[a].count == 7); /* the last "a", as Python's json and jq */
    uint32_t e = d.v[a].first;
    CHECK(d.v[e].num == 1);
    e = d.v[e].next;
    CHECK(d.v[e].num == -2500);
    e = d.v[e].next;
    CHECK(d.v[e].num == 0.125);
    e = d.v[e].next;
    CHECK(d.v[e].type == FB__JR_TRUE);
    e = d.v[d.v[d.v[e].next].next].next;
    CHECK(d.v[e].type == FB__JR_STR);
    CHECK_STR(fb__jr_str(&d, e), "x\xc3\xa9\xf0\x9f\x98\x80\n");
    CHECK(fb__jr_get(&d, 0, "b") && d.v[fb__jr_get(&d, 0, "b")].count == 0);
    CHECK(fb__jr_get(&d, 0, "nope") == 0);
    CHECK(fb__jr_get(&d, a, "a") == 0); /* not an object */
    fb__jr_free(&d);

    BAD_JSON("", "truncated JSON at byte 0");
    BAD_JSON("{\"a\": [1, 2", "truncated JSON at byte 11");
    BAD_JSON("{\"a\": \"abc", "truncated JSON at byte 10");
    BAD_JSON("{\"a\": tru", "truncated JSON at byte 9");
    BAD_JSON("{\"a\": -", "truncated JSON at byte 7");
    BAD_JSON("{\"a\": \"\\u12", "truncated");
    BAD_JSON("{\"a\": \"\xc3", "truncated");
    BAD_JSON("hello", "invalid JSON at byte 0 ('h'): expected a value");
    BAD_JSON("{\"a\": 1,}", "expected a member name");
    BAD_JSON("[1 2]", "expected ',' or ']'");
    BAD_JSON("{\"a\" 1}", "expected ':'");
    BAD_JSON("{\"a\": 01}", "expected ',' or '}'");
    BAD_JSON("[1.]", "expected a digit after '.'");
    BAD_JSON("[1e]", "exponent");
    BAD_JSON("[NaN]", "expected a value");
    BAD_JSON("[1e999]", "out of range");
    BAD_JSON("[\"a\tb\"]", "control character");
    BAD_JSON("[\"\\x\"]", "invalid escape");
    BAD_JSON("[\"\\u0000\"]", "\\u0000");
    BAD_JSON("[\"\\udc00\"]", "lone low surrogate");
    BAD_JSON("[\"\\ud800x\"]", "high surrogate");
    BAD_JSON("[\"\xff\"]", "invalid UTF-8");
    BAD_JSON("[\"\xc0\xaf\"]", "invalid UTF-8");     /* overlong */
    BAD_JSON("[\"\xed\xa0\x80\"]", "invalid UTF-8"); /* a surrogate */
    BAD_JSON("{} {}", "trailing text");
    BAD_JSON("[1] x", "trailing text");
    /* text after a NUL byte is still text */
    CHECK(fb__jr_parse(&d, "[1]\0", 4, err, sizeof err) == -1);

    /* nesting: 64 levels are fine, 65 are refused without recursion */
    char deep[200];
    memset(deep, '[', 64);
    memset(deep + 64, ']', 64);
    deep[128] = '\0';
    CHECK(parse(deep, err, sizeof err) == 0);
    memset(deep, '[', 65);
    memset(deep + 65, ']', 65);
    deep[130] = '\0';
    BAD_JSON(deep, "nesting deeper than 64 at byte 64");
    /* a number too long to be a time */
    char num[100] = "[1";
    memset(num + 2, '0', 70);
    strcpy(num + 72, "]");
    BAD_JSON(num, "longer than 63");

    /* a comma in the locale's numbers does not change how JSON reads */
    if (setlocale(LC_NUMERIC, "de_DE.UTF-8") || setlocale(LC_NUMERIC, "fr_FR.UTF-8")) {
        CHECK(fb__jr_parse(&d, "[2.5]", 5, err, sizeof err) == 0);
        CHECK(d.v[1].num == 2.5);
        fb__jr_free(&d);
        setlocale(LC_NUMERIC, "C");
    }
}

/* ------------------------------------------------------------ loader */

/* A minimal femtobench/1 document with one benchmark whose epochs are
 * `epochs` (JSON text of the measurements array). */
static char *doc(const char *schema, const char *name, const char *epochs) {
    static char buf[4096];
    snprintf(buf, sizeof buf,
             "{\"schema\": %s, \"version\": \"0.1.0\", \"context\": {\"cpu_model\": \"C\", "
             "\"compiler\": \"cc 1\", \"library_build_flags\": \"-O2\", \"library_build\": "
             "{\"known\": true, \"optimized\": true, \"ndebug\": true}},"
             " \"results\": [{\"title\": \"t\", \"name\": \"%s\", \"unit\": \"byte\", \"error\": "
             "null, \"batch\": 4, \"complexityN\": null, \"stats\": {\"elapsed\": {}},"
             " \"measurements\": %s}]}",
             schema, name, epochs);
    return buf;
}

#define BAD_DOC(text, want)                                                                        \
    do {                                                                                           \
        char e_[512] = "";                                                                         \
        fb__baseline bl_;                                                                          \
        const char *t_ = (text);                                                                   \
        CHECK(fb__baseline_parse(t_, strlen(t_), &bl_, e_, sizeof e_) == -1);                      \
        if (!strstr(e_, want)) fprintf(stderr, "  want '%s', got '%s'\n", want, e_);               \
        CHECK(strstr(e_, want) != NULL);                                                           \
        CHECK(strchr(e_, '\n') == NULL); /* one line */                                            \
        CHECK(bl_.n == 0 && bl_.rec == NULL);                                                      \
    } while (0)

static void check_loader(void) {
    char err[512];
    fb__baseline bl;
    const char *good = doc("\"femtobench/1\"", "SHA256",
                           "[{\"iterations\": 2, \"elapsed\": 8e-9}, {\"iterations\": 2, "
                           "\"elapsed\": 1.2e-8}, {\"iterations\": 2, \"elapsed\": 4e-9}]");
    CHECK(fb__baseline_parse(good, strlen(good), &bl, err, sizeof err) == 0);
    CHECK(bl.n == 1);
    CHECK_STR(bl.rec[0].name, "SHA256");
    CHECK_STR(bl.rec[0].title, "t");
    CHECK_STR(bl.rec[0].unit, "byte");
    CHECK(bl.rec[0].epochs == 3 && bl.rec[0].batch == 4 && bl.rec[0].complexity_n == 0);
    CHECK(bl.rec[0].per_unit_s[0] == 2e-9 && bl.rec[0].per_unit_s[1] == 3e-9);
    CHECK_NEAR(bl.rec[0].err_pct, 50.0, 1e-9); /* {2, 3, 1} around 2 */
    CHECK_STR(bl.ctx.cpu_model, "C");
    CHECK_STR(bl.ctx.version, "0.1.0");
    CHECK(bl.ctx.counters == 0);
    CHECK(strstr(bl.ctx.build_type, "library optimized, NDEBUG") != NULL);
    fb__baseline_free(&bl);

    const char *ep = "[{\"iterations\": 1, \"elapsed\": 1e-9}, {\"iterations\": 1, \"elapsed\": "
                     "-1e-9}]";
    BAD_DOC(doc("\"femtobench/1\"", "SHA256", ep), "benchmark 'SHA256' epoch 2: negative time");
    BAD_DOC(doc("\"femtobench/1\"", "SHA256", "[{\"iterations\": 1, \"elapsed\": null}]"),
            "benchmark 'SHA256' epoch 1: time is null (not a number)");
    BAD_DOC(doc("\"femtobench/1\"", "X", "[{\"iterations\": 1}]"), "epoch 1: no \"elapsed\" time");
    BAD_DOC(doc("\"femtobench/1\"", "X", "[{\"iterations\": 1, \"elapsed\": \"1\"}]"),
            "epoch 1: time is a string, not a number");
    BAD_DOC(doc("\"femtobench/1\"", "X", "[{\"iterations\": 0, \"elapsed\": 1}]"),
            "\"iterations\" must be a whole number >= 1");
    BAD_DOC(doc("\"femtobench/1\"", "X", "[{\"iterations\": 1.5, \"elapsed\": 1}]"),
            "\"iterations\" must be a whole number >= 1");
    BAD_DOC(doc("\"femtobench/1\"", "X", "[]"), "benchmark 'X': no epochs");
    BAD_DOC(doc("\"femtobench/1\"", "X", "{}"), "\"measurements\" is an object, not an array");
    BAD_DOC(doc("\"femtobench/1\"", "X", "[7]"), "epoch 1: a number, not an object");
    BAD_DOC(doc("\"femtobench/2\"", "X", "[]"),
            "schema 'femtobench/2' is version 2; this femtobench reads version 1");
    BAD_DOC(doc("\"nanobench\"", "X", "[]"), "schema 'nanobench' is not femtobench JSON version 1");
    BAD_DOC(doc("3", "X", "[]"), "\"schema\" is a number, not a string");
    BAD_DOC("{\"context\": {}, \"benchmarks\": []}", "Google Benchmark JSON");
    BAD_DOC("{\"results\": []}", "no \"schema\"");
    BAD_DOC("[1, 2]", "the top level is an array");
    BAD_DOC("{\"schema\": \"femtobench/1\"}", "no \"results\"");
    BAD_DOC("{\"schema\": \"femtobench/1\", \"results\": {}}", "\"results\" is an object");
    BAD_DOC("{\"schema\": \"femtobench/1\", \"results\": [3]}", "results[0] is a number");
    BAD_DOC("{\"schema\": \"femtobench/1\", \"results\": [{}]}", "results[0]: no \"name\"");
    BAD_DOC("{\"schema\": \"femtobench/1\", \"results\": [{\"name\": \"n\", \"title\": null, "
            "\"unit\": null, \"batch\": 0}]}",
            "benchmark 'n': \"batch\" must be a number > 0");
    BAD_DOC("{\"schema\": \"femtobench/1\", \"results\": [{\"name\": \"n\", \"title\": null, "
            "\"unit\": null, \"batch\": 1, \"complexityN\": -3}]}",
            "\"complexityN\" must be null or a number > 0");
    BAD_DOC("{\"schema\": \"femtobench/1\", \"results\": [], \"context\": 1}",
            "\"context\" is a number");
    BAD_DOC("", "empty file");
    BAD_DOC("not json", "not valid JSON: invalid JSON at byte 1 ('o'): expected 'null'");
    BAD_DOC("<html>", "not valid JSON: invalid JSON at byte 0 ('<'): expected a value");
    char trunc[4096];
    snprintf(trunc, sizeof trunc, "%s", good);
    trunc[123] = '\0';
    BAD_DOC(trunc, "truncated JSON at byte 123");

    /* "dropped" epochs are left out, as the run's statistics left them out;
     * "pass" is the process the result ran in */
    const char *dropped =
        "{\"schema\": \"femtobench/1\", \"results\": [{\"name\": \"d\", \"title\": null, "
        "\"unit\": null, \"batch\": 1, \"pass\": 3, \"dropped\": [1], \"measurements\": ["
        "{\"iterations\": 1, \"elapsed\": 2e-9}, {\"iterations\": 1, \"elapsed\": 9e-6}, "
        "{\"iterations\": 1, \"elapsed\": 4e-9}]}]}";
    CHECK(fb__baseline_parse(dropped, strlen(dropped), &bl, err, sizeof err) == 0);
    CHECK(bl.n == 1 && bl.rec[0].epochs == 2 && bl.rec[0].pass == 3);
    CHECK(bl.rec[0].per_unit_s[0] == 2e-9 && bl.rec[0].per_unit_s[1] == 4e-9);
    CHECK_NEAR(bl.rec[0].median_s, 3e-9, 1e-21); /* not 4e-9 with the dropped 9 us */
    fb__baseline_free(&bl);
    BAD_DOC("{\"schema\": \"femtobench/1\", \"results\": [{\"name\": \"n\", \"title\": null, "
            "\"unit\": null, \"batch\": 1, \"dropped\": [5], \"measurements\": "
            "[{\"iterations\": 1, \"elapsed\": 1}]}]}",
            "\"dropped\" holds a number out of range");
    BAD_DOC("{\"schema\": \"femtobench/1\", \"results\": [{\"name\": \"n\", \"title\": null, "
            "\"unit\": null, \"batch\": 1, \"pass\": -1, \"measurements\": "
            "[{\"iterations\": 1, \"elapsed\": 1}]}]}",
            "\"pass\" must be a whole number >= 0");

    /* a failed benchmark needs no epochs; an empty suite is a valid baseline */
    const char *failed =
        "{\"schema\": \"femtobench/1\", \"results\": [{\"name\": \"b\", \"title\": "
        "\"e\", \"unit\": \"op\", \"error\": \"optimized away\", \"batch\": 1, "
        "\"measurements\": []}]}";
    CHECK(fb__baseline_parse(failed, strlen(failed), &bl, err, sizeof err) == 0);
    CHECK(bl.n == 1 && bl.rec[0].error && bl.rec[0].epochs == 0);
    CHECK_STR(bl.ctx.cpu_model, "unknown");
    fb__baseline_free(&bl);

    /* files: missing, a directory, the golden file of docs/formats.md */
    CHECK(fb__baseline_load("/nonexistent/x.json", &bl, err, sizeof err) == -1);
    CHECK_STR(err, "cannot open: No such file or directory");
    CHECK(fb__baseline_load("/", &bl, err, sizeof err) == -1);
#if FB_HAVE_WINDOWS /* the CRT refuses to open a directory: EACCES */
    CHECK(strstr(err, "Permission denied") != NULL);
#else
    CHECK(strstr(err, "Is a directory") != NULL);
#endif
    int golden = fb__baseline_load(FB_TEST_DATA_DIR "/golden_results.json", &bl, err, sizeof err);
    CHECK(golden == 0);
    if (golden == 0 && bl.n == 8) {
        CHECK(bl.n == 8);
        CHECK_STR(bl.rec[0].name, "sum");
        CHECK(bl.ctx.counters == 1);
        CHECK_STR(bl.ctx.compiler, "testcc 1.0");
        CHECK_STR(bl.ctx.cpu_model, "Test CPU \"X\" @ 1.00GHz");
        CHECK(bl.rec[1].batch == 64 && bl.rec[1].per_unit_s[0] == 6.4e-07 / 64);
        CHECK(bl.rec[2].error != NULL);
        CHECK(bl.rec[4].complexity_n == 200);
    }
    fb__baseline_free(&bl);
}

/* ------------------------------------------- a live bench and its file */

static void check_roundtrip(void) {
    fake_clock c = {0, 1000, 0, 0};
    fb_bench *b = fake_bench(&c);
    fb_set_title(b, "round");
    fb_run(b, "one", fake_clock_op, &c);
    c.cost_ns = 3000;
    fb_set_batch(b, 3);
    fb_set_unit(b, "byte");
    fb_set_complexity_n(b, 10);
    fb_run(b, "two", fake_clock_op, &c);
    fb__baseline live;
    CHECK(fb__baseline_from_bench(b, &live) == 0);
    FILE *f = tmpfile();
    CHECK(f && fb_write_json(b, f) == 0);
    long size = ftell(f);
    rewind(f);
    char *text = malloc((size_t)size);
    CHECK(fread(text, 1, (size_t)size, f) == (size_t)size);
    fclose(f);
    fb__baseline file;
    char err[256];
    CHECK(fb__baseline_parse(text, (size_t)size, &file, err, sizeof err) == 0);
    CHECK(live.n == 2 && file.n == 2);
    for (size_t i = 0; i < live.n && i < file.n; ++i) {
        CHECK_STR(live.rec[i].name, file.rec[i].name);
        CHECK_STR(live.rec[i].title, file.rec[i].title);
        CHECK_STR(live.rec[i].unit, file.rec[i].unit);
        CHECK(live.rec[i].batch == file.rec[i].batch);
        CHECK(live.rec[i].complexity_n == file.rec[i].complexity_n);
        CHECK(live.rec[i].epochs == file.rec[i].epochs && live.rec[i].epochs > 0);
        for (size_t e = 0; e < live.rec[i].epochs && e < file.rec[i].epochs; ++e)
            CHECK(live.rec[i].per_unit_s[e] == file.rec[i].per_unit_s[e]);
        CHECK(live.rec[i].err_pct == file.rec[i].err_pct);
    }
    CHECK_NEAR(live.rec[1].per_unit_s[0], 1e-6, 1e-12); /* 3000 ns per call / batch 3 */
    CHECK(live.rec[1].complexity_n == 10);
    CHECK_STR(live.ctx.version, file.ctx.version);
    CHECK_STR(live.ctx.cpu_model, file.ctx.cpu_model);
    CHECK_STR(live.ctx.compiler, file.ctx.compiler);
    CHECK_STR(live.ctx.build_type, file.ctx.build_type);
    CHECK_STR(live.ctx.build_flags, file.ctx.build_flags);
    CHECK(live.ctx.counters == file.ctx.counters && live.ctx.counters == 0);

    /* the same run against itself: every benchmark the same, no warnings */
    size_t counts[FB__V_COUNT];
    char *out = NULL;
    size_t out_len = 0;
    FILE *m = open_memstream(&out, &out_len);
    CHECK(fb__change_table(m, &file, &live, 5, counts) == 0);
    fclose(m);
    /* one process a side: nothing smaller than the floor gets a verdict */
    CHECK(counts[FB__V_UNSURE] == 2 && counts[FB__V_SLOWER] == 0 && counts[FB__V_SAME] == 0);
    CHECK(strstr(out, "warning") == NULL);
    CHECK(strstr(out, "| unsure  | `two` N=10 (round)\n") != NULL);
    CHECK(strstr(out, "> one process a side for 2 benchmarks") != NULL);
    free(out);
    free(text);
    fb__baseline_free(&live);
    fb__baseline_free(&file);
    fb_bench_free(b);
}

/* The epochs a run dropped (disturbed, superseded) are not compared: the
 * "now" column is the run's own median over the epochs it kept. */
static void check_dropped_live(void) {
    fake_clock c = {0, 1000, 0, 0};
    fb_bench *b = fake_bench(&c);
    fb_run(b, "kept", fake_clock_op, &c);
    fb_result *r = b->n_results ? b->results[0] : NULL;
    CHECK(r && r->epochs >= 4);
    if (!r || r->epochs < 4) {
        fb_bench_free(b);
        return;
    }
    if (!r->epoch_flags) r->epoch_flags = calloc(r->epochs, 1);
    CHECK(r->epoch_flags != NULL);
    if (!r->epoch_flags) {
        fb_bench_free(b);
        return;
    }
    r->epoch_flags[0] |= FB__EPOCH_DROPPED;
    r->values[FB_ELAPSED][0] *= 1000; /* a preempted epoch, left out */
    fb__baseline live;
    CHECK(fb__baseline_from_bench(b, &live) == 0);
    CHECK(live.n == 1 && live.rec[0].epochs == r->epochs - 1);
    for (size_t e = 0; e < live.rec[0].epochs; ++e)
        CHECK(live.rec[0].per_unit_s[e] < 1e-5); /* never the 1000x epoch */
    CHECK_NEAR(live.rec[0].median_s, 1e-6, 1e-9);
    fb__baseline_free(&live);
    fb_bench_free(b);
}

/* ------------------------------------------------------- the table */

static fb__bl_record rec(const char *name, double complexity_n, double base_s, double factor,
                         size_t epochs) {
    fb__bl_record r;
    memset(&r, 0, sizeof r);
    r.title = fb__strdup("benchmark");
    r.name = fb__strdup(name);
    r.unit = fb__strdup("op");
    r.batch = 1;
    r.complexity_n = complexity_n;
    r.epochs = epochs;
    r.per_unit_s = malloc((epochs ? epochs : 1) * sizeof(double));
    for (size_t e = 0; e < epochs; ++e)
        r.per_unit_s[e] = base_s * factor * (1 + 0.001 * (double)((e * 7) % 11));
    r.err_pct = fb__bl_err_pct(r.per_unit_s, epochs);
    double tmp[64];
    memcpy(tmp, r.per_unit_s, (epochs < 64 ? epochs : 64) * sizeof(double));
    r.median_s = epochs ? fb__median(tmp, epochs < 64 ? epochs : 64) : NAN;
    return r;
}

static void check_table(void) {
    fb__baseline base, now;
    memset(&base, 0, sizeof base);
    memset(&now, 0, sizeof now);
    base.rec = calloc(5, sizeof *base.rec);
    now.rec = calloc(5, sizeof *now.rec);
    base.rec[base.n++] = rec("steady", 0, 1e-8, 1, 11);
    base.rec[base.n++] = rec("regress", 0, 2e-6, 1, 11);
    base.rec[base.n++] = rec("improve", 0, 5e-3, 1, 11);
    base.rec[base.n++] = rec("sort", 100, 1e-6, 1, 11);
    base.rec[base.n++] = rec("removed|pipe", 0, 1, 1, 11);
    now.rec[now.n++] = rec("added", 0, 1e-8, 1, 11);
    now.rec[now.n++] = rec("sort", 200, 2e-6, 1, 11); /* another N: new */
    now.rec[now.n++] = rec("improve", 0, 5e-3, 0.5, 11);
    now.rec[now.n++] = rec("regress", 0, 2e-6, 1.3, 11);
    now.rec[now.n++] = rec("steady", 0, 1e-8, 1, 1); /* too few epochs */
    snprintf(base.ctx.cpu_model, sizeof base.ctx.cpu_model, "CPU A");
    snprintf(now.ctx.cpu_model, sizeof now.ctx.cpu_model, "CPU B");
    snprintf(base.ctx.compiler, sizeof base.ctx.compiler, "cc");
    snprintf(now.ctx.compiler, sizeof now.ctx.compiler, "cc");
    now.ctx.counters = 1;
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    size_t counts[FB__V_COUNT];
    CHECK(fb__change_table(f, &base, &now, 5, counts) == 0);
    fclose(f);
    /* one process a side: widened by the floor between processes (12x), so
     * the 30% regression and the halving are both unsure */
    CHECK(counts[FB__V_FASTER] == 0 && counts[FB__V_SLOWER] == 0 && counts[FB__V_SAME] == 0 &&
          counts[FB__V_UNSURE] == 3 && counts[FB__V_NEW] == 2 && counts[FB__V_GONE] == 2);
    const char *want =
        "> warning: the runs differ in CPU model: baseline 'CPU A', now 'CPU B'\n"
        "> warning: the runs differ in performance counters: baseline 'off', now 'on'\n"
        "|           baseline |                now |   change |             95% CI | verdict | "
        "benchmark\n"
        "|-------------------:|-------------------:|---------:|-------------------:|:--------|:---"
        "-------\n"
        "|                  - |        10.05 ns/op |        - |                  - | new     | "
        "`added`\n"
        "|                  - |         2.01 us/op |        - |                  - | new     | "
        "`sort` N=200\n"
        "|         5.03 ms/op |         2.51 ms/op |   -50.0% |  [-95.9%, +504.3%] | unsure  | "
        "`improve`\n"
        "|         2.01 us/op |         2.61 us/op |   +30.0% | [-89.2%, +1471.3%] | unsure  | "
        "`regress`\n"
        "|        10.05 ns/op |        10.00 ns/op |    -0.5% |     too few epochs | unsure  | "
        "`steady`\n"
        "|         1.00 us/op |                  - |        - |                  - | gone    | "
        "`sort` N=100\n"
        "|          1.00 s/op |                  - |        - |                  - | gone    | "
        "`removed\\|pipe`\n"
        "\n"
        "> one process a side for 3 benchmarks: the spread between processes is unknown, so the "
        "interval is widened by the floor between processes (1100%, fitted on held-out pairs of "
        "processes of one binary) and only a larger change gets a verdict; run both sides with "
        "-repetitions=5, or femtobench-compare -run OLD NEW\n"
        "femtobench: 7 benchmarks against the baseline (threshold 5%): 0 faster, 0 slower, 0 same, "
        "3 unsure, 2 new, 2 gone\n";
    if (strcmp(out, want) != 0) fprintf(stderr, "got:\n%s\nwant:\n%s\n", out, want);
    CHECK_STR(out, want);
    free(out);
    fb__baseline_free(&base);
    fb__baseline_free(&now);
}

/* The counters' table (src/outputs/report_change_counters.c) pairs a counter
 * with the baseline's record of the same title and name, as the change
 * table pairs the times: a baseline saved under one title (fb_set_title, the
 * runner's per suite) is not the record of another title's benchmark of the
 * same name. */
static fb__bl_record counter_rec(const char *title, const char *name, fb__bl_counter *c,
                                 double shown) {
    fb__bl_record r;
    memset(&r, 0, sizeof r);
    r.title = (char *)title;
    r.name = (char *)name;
    r.unit = (char *)"op";
    r.batch = 1;
    r.median_s = NAN;
    snprintf(c->label, sizeof c->label, "bytes/s");
    c->shown = shown;
    r.n_uc = 1;
    r.uc = c;
    return r;
}

static void check_counters_by_title(void) {
    fb__bl_counter c[5];
    /* X under two titles in the baseline, the other title's first; Y saved
     * under the title "a" only */
    fb__bl_record old_rec[] = {counter_rec("large", "X", &c[0], 1000),
                               counter_rec("small", "X", &c[1], 100),
                               counter_rec("a", "Y", &c[2], 50)};
    fb__bl_record now_rec[] = {counter_rec("small", "X", &c[3], 110),
                               counter_rec("b", "Y", &c[4], 70)};
    fb__baseline base, now;
    memset(&base, 0, sizeof base);
    memset(&now, 0, sizeof now);
    base.rec = old_rec;
    base.n = 3;
    now.rec = now_rec;
    now.n = 2;
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    fb__change_counters(f, &base, &now);
    fclose(f);
    /* X against its own title's 100 (+10%), never the other's 1000; Y
     * under "b" has no record in the baseline: no row */
    CHECK(strstr(out, "| bytes/s | 100.00 | 110.00 | +10.0 | `X`\n") != NULL);
    CHECK(strstr(out, "1,000") == NULL && strstr(out, "1000") == NULL);
    CHECK(strstr(out, "`Y`") == NULL);
    if (!strstr(out, "| 100.00 | 110.00 |") || strstr(out, "`Y`"))
        fprintf(stderr, "got:\n%s\n", out);
    free(out);
    /* only the other title's Y in the baseline: no table at all */
    base.rec = old_rec + 2;
    base.n = 1;
    now.rec = now_rec + 1;
    now.n = 1;
    out = NULL;
    len = 0;
    f = open_memstream(&out, &len);
    fb__change_counters(f, &base, &now);
    fclose(f);
    CHECK_STR(out, "");
    free(out);
}

/* ------------------------------------------- between processes */

static void check_t_quantile(void) {
    /* two-sided critical values of Student's t (tables) */
    CHECK_NEAR(fb__change_t_quantile(0.05, 1), 12.7062, 1e-3);
    CHECK_NEAR(fb__change_t_quantile(0.05, 2), 4.3027, 1e-3);
    CHECK_NEAR(fb__change_t_quantile(0.05, 9), 2.2622, 1e-3);
    CHECK_NEAR(fb__change_t_quantile(0.01, 4), 4.6041, 1e-3);
    CHECK_NEAR(fb__change_t_quantile(0.005, 8), 3.8325, 1e-3);
    CHECK_NEAR(fb__change_t_quantile(0.05, 30), 2.0423, 1e-3);
    CHECK_NEAR(fb__change_t_quantile(0.05, 1000), 1.9623, 1e-3);
    CHECK(isnan(fb__change_t_quantile(0.05, 0)));
}

static void check_between(void) {
    /* per-process medians: a paired t interval of the log ratios */
    double old[5] = {1.00, 1.10, 0.95, 1.05, 1.00}, now[5];
    for (int i = 0; i < 5; ++i) now[i] = old[i] * 1.25 * (1 + 0.01 * (i % 2 ? 1 : -1));
    fb__change c;
    fb__change_between(old, 5, now, 5, true, 0.05, 10, &c);
    CHECK(c.verdict == FB__V_SLOWER && c.lo_pct > 20 && c.hi_pct < 30);
    CHECK_NEAR(c.change_pct, 24.8, 0.2);
    /* unpaired, the same values: the spread between processes is large
     * next to the change, so the pooled interval is wide */
    fb__change_between(old, 5, now, 5, false, 0.05, 10, &c);
    CHECK(c.lo < c.shift && c.shift < c.hi && c.lo_pct < 20);
    /* hand-computed: mean log ratio, pooled sd, t(0.05, 8) = 2.306 */
    double so = 0, sn = 0, ss = 0;
    for (int i = 0; i < 5; ++i) so += log(old[i]), sn += log(now[i]);
    for (int i = 0; i < 5; ++i)
        ss += (log(old[i]) - so / 5) * (log(old[i]) - so / 5) +
              (log(now[i]) - sn / 5) * (log(now[i]) - sn / 5);
    double half = 2.3060 * sqrt(ss / 8) * sqrt(0.4);
    CHECK_NEAR(c.hi - c.lo, 2 * half, 1e-3);
    /* one side of one process: the other side's spread stands for both */
    fb__change_between(old, 1, now, 5, false, 0.05, 10, &c);
    CHECK(isfinite(c.lo) && c.hi - c.lo > 2 * half);
    /* one process a side: no interval here (the caller widens the epochs') */
    fb__change_between(old, 1, now, 1, false, 0.05, 10, &c);
    CHECK(c.verdict == FB__V_UNSURE && isnan(c.shift));
    fb__change_between(old, 1, now, 1, true, 0.05, 10, &c);
    CHECK(c.verdict == FB__V_UNSURE && isnan(c.shift));
    /* the same binary: identical per-pair values are same */
    fb__change_between(old, 5, old, 5, true, 0.05, 10, &c);
    CHECK(c.verdict == FB__V_SAME && c.change_pct == 0);
}

/* A run of `passes` processes: each benchmark's record per process, the
 * per-process medians spread by `spread` (relative) around base * factor. */
static void add_passes(fb__baseline *bl, const char *name, double base_s, double factor,
                       double spread, unsigned passes) {
    static const double wobble[10] = {0, 1, -1, 0.5, -0.5, 0.8, -0.8, 0.2, -0.2, 0.4};
    for (unsigned p = 0; p < passes; ++p) {
        fb__bl_record r = rec(name, 0, base_s * (1 + spread * wobble[p % 10]), factor, 11);
        r.pass = p;
        bl->rec[bl->n++] = r;
    }
}

static void check_passes_table(void) {
    fb__baseline base, now;
    memset(&base, 0, sizeof base);
    memset(&now, 0, sizeof now);
    base.rec = calloc(40, sizeof *base.rec);
    now.rec = calloc(40, sizeof *now.rec);
    add_passes(&base, "steady", 1e-8, 1, 0.01, 5);
    add_passes(&base, "regress", 2e-6, 1, 0.01, 5);
    add_passes(&base, "noisy", 1e-6, 1, 0.2, 5);
    add_passes(&now, "noisy", 1e-6, 1.1, 0.2, 5);
    add_passes(&now, "regress", 2e-6, 1.25, 0.01, 5);
    add_passes(&now, "steady", 1e-8, 1, 0.01, 5);
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    size_t counts[FB__V_COUNT];
    CHECK(fb__change_table(f, &base, &now, 5, counts) == 0);
    fclose(f);
    /* one row per benchmark, not per pass; no gone rows */
    CHECK(counts[FB__V_SLOWER] == 1 && counts[FB__V_SAME] == 1 && counts[FB__V_UNSURE] == 1 &&
          counts[FB__V_NEW] == 0 && counts[FB__V_GONE] == 0);
    CHECK(strstr(out, "| slower  | `regress`") && strstr(out, "| same    | `steady`") &&
          strstr(out, "| unsure  | `noisy`"));
    CHECK(strstr(out, "> between processes (t interval, pooled spread): baseline 5, now 5") !=
          NULL);
    CHECK(strstr(out, "family-wise over 3 benchmarks") != NULL);
    CHECK(strstr(out, "one process a side") == NULL);
    /* the baseline and now columns: the median over processes */
    CHECK(strstr(out, "|         2.01 us/op |         2.51 us/op |") != NULL);
    if (!strstr(out, "| slower  | `regress`")) fprintf(stderr, "%s\n", out);
    free(out);
    /* paired (femtobench-compare -run): the same rows by pairs */
    out = NULL;
    f = open_memstream(&out, &len);
    CHECK(fb__change_table_paired(f, &base, &now, 5, counts) == 0);
    fclose(f);
    /* the pairs share each process's wobble, so pairing cancels it: the
     * noisy benchmark's 10% is now found as well */
    CHECK(counts[FB__V_SLOWER] == 2 && counts[FB__V_SAME] == 1 && counts[FB__V_UNSURE] == 0);
    CHECK(strstr(out, "| slower  | `noisy`") != NULL);
    CHECK(strstr(out, "(alternating runs, paired): baseline 5, now 5") != NULL);
    free(out);
    fb__baseline_free(&base);
    fb__baseline_free(&now);
}

/* Matching is by sorting: 100,000 rows a side in a fraction of a second
 * (a pairwise search took minutes; ctest's TIMEOUT bounds this test). */
static void check_many_rows(void) {
    enum { N = 100000 };
    fb__baseline base, now;
    memset(&base, 0, sizeof base);
    memset(&now, 0, sizeof now);
    base.rec = calloc(N, sizeof *base.rec);
    now.rec = calloc(N, sizeof *now.rec);
    CHECK(base.rec && now.rec);
    if (!base.rec || !now.rec) return;
    for (size_t i = 0; i < N; ++i) {
        char name[32];
        snprintf(name, sizeof name, "b%zu", i);
        base.rec[base.n++] = rec(name, 0, 1e-6, 1, 1);
        snprintf(name, sizeof name, "b%zu", N - 1 - i + (i < 10 ? N : 0)); /* 10 new, 10 gone */
        now.rec[now.n++] = rec(name, 0, 1e-6, 1, 1);
    }
    FILE *f = fopen("/dev/null", "w");
    size_t counts[FB__V_COUNT];
    CHECK(f && fb__change_table(f, &base, &now, 5, counts) == 0);
    if (f) fclose(f);
    CHECK(counts[FB__V_NEW] == 10 && counts[FB__V_GONE] == 10 &&
          counts[FB__V_UNSURE] + counts[FB__V_SAME] == N - 10);
    fb__baseline_free(&base);
    fb__baseline_free(&now);
}

int main(void) {
    check_t_quantile();
    check_between();
    check_passes_table();
    check_many_rows();
    check_reader();
    check_loader();
    check_roundtrip();
    check_dropped_live();
    check_table();
    check_counters_by_title();
    return CHECK_DONE();
}
