/* User counters, API misuse rows, the run context, product families and
 * the BMF writer at the API, under the fake clock. */
#include "check.h"
#include "fake_clock.h"
#include "internal.h"

/* b's Bencher (BMF) file, in buf. */
static void bmf_of(const fb_bench *b, char *buf, size_t len) {
    memset(buf, 0, len);
    FILE *m = fmemopen(buf, len - 1, "w");
    CHECK(m && fb_write_bmf(b, m) == FB_OK);
    if (m) fclose(m);
}

static void test_counters(void) {
    fake_clock c = {0, 100, 0, 0}; /* 100 ns a call, free clock reads */
    fb_bench *b = fake_bench(&c);
    fb_set_diagnostics(b, NULL);
    fb_set_batch(b, 4);
    CHECK(fb_counter(b, "bytes", 64, FB_COUNTER_RATE) == FB_OK);
    CHECK(fb_counter(b, "hits", 2, FB_COUNTER_PER_ITERATION) == FB_OK);
    CHECK(fb_counter(b, "size", 7, 0) == FB_OK);
    const fb_result *r = fb_run(b, "op", fake_clock_op, &c);
    CHECK(r && !fb_result_error(r));
    CHECK(fb_result_counter_count(r) == 3);
    CHECK_STR(fb_result_counter_name(r, 0), "bytes");
    CHECK(fb_result_counter_flags(r, 0) == FB_COUNTER_RATE);
    CHECK_NEAR(fb_result_counter(r, 0), 64 / 100e-9, 1e-3); /* per second */
    CHECK_NEAR(fb_result_counter(r, 1), 2.0 / 4, 0);        /* per unit of the row */
    CHECK_NEAR(fb_result_counter(r, 2), 7, 0);              /* as given */
    CHECK(fb_result_counter_name(r, 3) == NULL && isnan(fb_result_counter(r, 3)));
    /* they belong to that run only */
    r = fb_run(b, "next", fake_clock_op, &c);
    CHECK(r && fb_result_counter_count(r) == 0);

    /* BMF: latency in ns per unit, exact under the fake clock */
    char buf[4096];
    bmf_of(b, buf, sizeof buf);
    CHECK(strstr(buf, "\"op\": {") != NULL);
    CHECK(strstr(buf, "\"latency\": {\"value\": 25, \"lower_value\": 25, \"upper_value\": 25}") !=
          NULL);
    CHECK(strstr(buf, "\"bytes\": {\"value\": 640000000}") != NULL);
    fb_bench_free(b);
}

static void test_counter_misuse(void) {
    fake_clock c = {0, 100, 0, 0};
    fb_bench *b = fake_bench(&c);
    fb_set_diagnostics(b, NULL);
    CHECK(fb_counter(NULL, "x", 1, 0) == FB_EINVAL);
    CHECK(fb_counter(b, "", 1, 0) == FB_EINVAL);
    CHECK(fb_counter(b, NULL, 1, 0) == FB_EINVAL);
    CHECK(fb_counter(b, "x", NAN, 0) == FB_EINVAL);
    CHECK(fb_counter(b, "x", INFINITY, 0) == FB_EINVAL);
    CHECK(fb_counter(b, "x", 1, 8) == FB_EINVAL);
    CHECK(fb_counter(b, "x", 1, FB_COUNTER_RATE | FB_COUNTER_PER_ITERATION) == FB_EINVAL);
    CHECK(fb_counter(b, "iterations", 1, 0) == FB_EINVAL); /* a GB row key */
    CHECK(fb_counter(b, "a,b", 1, 0) == FB_EINVAL);
    CHECK(fb_counter(b, "x", 1, 0) == FB_OK);
    CHECK(fb_counter(b, "x", 2, 0) == FB_EINVAL); /* twice for one run */
    const fb_result *r = fb_run(b, "bad", fake_clock_op, &c);
    CHECK(r && fb_result_error(r) && strncmp(fb_result_error(r), "bad input: ", 11) == 0);
    CHECK(r && strstr(fb_result_error(r), "empty name") != NULL); /* the first one */
    r = fb_run(b, "good", fake_clock_op, &c);                     /* the next run is clean */
    CHECK(r && !fb_result_error(r) && fb_result_counter_count(r) == 0);
    char name[8];
    for (int i = 0; i < 16; ++i) {
        snprintf(name, sizeof name, "c%d", i);
        CHECK(fb_counter(b, name, i, 0) == FB_OK);
    }
    CHECK(fb_counter(b, "c16", 1, 0) == FB_EINVAL); /* at most 16 a run */
    fb_bench_free(b);
}

static void test_context(void) {
    fb_bench *b = fb_bench_new();
    fb_set_diagnostics(b, NULL);
    CHECK(fb_set_context(b, "commit", "abc") == FB_OK);
    CHECK(fb_set_context(b, "commit", "def") == FB_EINVAL);
    CHECK(fb_set_context(b, "", "x") == FB_EINVAL);
    CHECK(fb_set_context(b, "a b", "x") == FB_EINVAL);
    CHECK(fb_set_context(b, "host_name", "x") == FB_EINVAL);
    CHECK(fb_set_context(b, "k", NULL) == FB_EINVAL);
    CHECK(fb_set_context(b, "k", "line\nbreak") == FB_EINVAL);
    CHECK(fb_set_context(b, "branch", "") == FB_OK);
    CHECK(fb__context_count(b) == 2);
    CHECK_STR(fb__context_value(b, 0), "abc");
    fb_bench_free(b);
}

static const int64_t test_dims[] = {FB_LIST(1, 2), FB_RANGE(8, 64, 8)};
static const int64_t test_dup[] = {FB_LIST(1, 1)};
static const int64_t test_badrange[] = {FB_RANGE(8, 64, 1)};
static const int64_t test_raw[] = {1, 2, 3};
static const int64_t test_five[] = {FB_LIST(1), FB_LIST(1), FB_LIST(1), FB_LIST(1), FB_LIST(1)};
static void test_reg_fn(fb_bench *b) { (void)b; }

static void test_product(void) {
    fb__registration r = {
        "P", test_reg_fn, NULL, FB__REG_PRODUCT, test_dims, sizeof test_dims / sizeof *test_dims,
        0,   0,           0};
    char err[256];
    CHECK(fb__product_check(&r, err, sizeof err) == FB_OK);
    CHECK(fb__product_count(&r) == 4);
    int64_t a[FB_MAX_ARGS];
    CHECK(fb__product_args(&r, 0, a) == 2 && a[0] == 1 && a[1] == 8);
    CHECK(fb__product_args(&r, 1, a) == 2 && a[0] == 1 && a[1] == 64);
    CHECK(fb__product_args(&r, 3, a) == 2 && a[0] == 2 && a[1] == 64);
    const int64_t *bad[] = {test_dup, test_badrange, test_raw, test_five};
    size_t nbad[] = {4, 4, 3, 15};
    const char *why[] = {"given twice", "mult must be", "not an FB_LIST", "more than 4"};
    for (int i = 0; i < 4; ++i) {
        r.args = bad[i];
        r.n_args = nbad[i];
        err[0] = '\0';
        CHECK(fb__product_check(&r, err, sizeof err) == FB_EINVAL);
        CHECK(strstr(err, why[i]) != NULL);
    }
    /* the arguments of a bench and its run names */
    fake_clock c = {0, 100, 0, 0};
    fb_bench *b = fake_bench(&c);
    int64_t args[2] = {3, 64};
    fb__bench_set_args(b, args, 2);
    CHECK(fb_arg(b) == 3 && fb_arg_at(b, 1) == 64 && fb_arg_at(b, 2) == 0 && fb_arg_count(b) == 2);
    const fb_result *res = fb_run(b, "Grid", fake_clock_op, &c);
    CHECK(res && !strcmp(fb_result_name(res), "Grid/3/64"));
    CHECK(res && fb_result_arg_count(res) == 2 && fb_result_arg_at(res, 1) == 64);
    fb_bench_free(b);
}

/* An op that spends 100 ns timed and 50 ns in an excluded region, or
 * reports 5 us as its manual time. */
typedef struct manual_ctx {
    fake_clock *c;
    fb_bench *b;
    double give_s;
} manual_ctx;
static void manual_op(void *ctx) {
    manual_ctx *m = ctx;
    m->c->now_ns += 100;
    fb_exclude_begin(m->b);
    m->c->now_ns += 50;
    fb_exclude_end(m->b);
}
static void manual_give(void *ctx) {
    manual_ctx *m = ctx;
    m->c->now_ns += 100;
    fb_set_iteration_time(m->b, m->give_s);
}

static void test_manual_time(void) {
    fake_clock c = {0, 0, 0, 0};
    fb_bench *b = fake_bench(&c);
    fb_set_diagnostics(b, NULL);
    manual_ctx m = {&c, b, 5e-6};
    const fb_result *r = fb_run(b, "excluded", manual_op, &m);
    CHECK(r && !fb_result_error(r));
    CHECK_NEAR(fb_result_median(r, FB_ELAPSED), 100e-9, 1e-15); /* the 50 ns left out */
    fb_set_manual_time(b, true);
    r = fb_run(b, "manual", manual_give, &m);
    CHECK(r && !fb_result_error(r));
    CHECK_NEAR(fb_result_median(r, FB_ELAPSED), 5e-6, 1e-15); /* the time given, not the clock's */
    /* bad times: refused, and the run says why */
    CHECK(fb_set_iteration_time(b, -1) == FB_EINVAL);
    CHECK(fb_set_iteration_time(b, NAN) == FB_EINVAL);
    CHECK(fb_set_iteration_time(b, INFINITY) == FB_EINVAL);
    r = fb_run(b, "after bad", manual_give, &m);
    CHECK(r && fb_result_error(r) && strstr(fb_result_error(r), "fb_set_iteration_time(-1)"));
    m.give_s = -2e-6; /* given inside the run */
    r = fb_run(b, "negative", manual_give, &m);
    CHECK(r && fb_result_error(r) && strstr(fb_result_error(r), "bad input: "));
    /* manual timing without any time given */
    r = fb_run(b, "silent", fake_clock_op, &c);
    CHECK(r && fb_result_error(r) && strstr(fb_result_error(r), "without a call"));
    fb_set_manual_time(b, false);
    CHECK(fb_set_iteration_time(b, 1e-6) == FB_EINVAL); /* manual timing is off */
    fb_bench_free(b);
}

/* BMF over passes: a benchmark's passes are one entry, the stored median
 * over them bounded by their smallest and largest, its user counters
 * likewise; a name run twice in each pass is a second series, "#2". */
static void test_bmf_passes(void) {
    fake_clock c = {0, 100, 0, 0};
    fb_bench *b = fake_bench(&c);
    fb_set_diagnostics(b, NULL);
    const uint64_t cost[3] = {100, 300, 200}, again[3] = {50, 70, 60};
    const double size[3] = {7, 9, 8};
    for (unsigned pass = 0; pass < 3; ++pass) {
        fb__bench_set_pass(b, pass);
        c.cost_ns = cost[pass];
        CHECK(fb_counter(b, "size", size[pass], 0) == FB_OK);
        CHECK(fb_run(b, "op", fake_clock_op, &c) != NULL);
        c.cost_ns = again[pass];
        CHECK(fb_run(b, "op", fake_clock_op, &c) != NULL);
    }
    CHECK(fb__passes_finish(b) == FB_OK);
    char buf[4096];
    bmf_of(b, buf, sizeof buf);
    CHECK(strstr(buf, "\"op\": {\n    \"latency\": {\"value\": 200, \"lower_value\": 100, "
                      "\"upper_value\": 300}") != NULL);
    /* units per second: the median of the passes' rates, bounded by them */
    CHECK(strstr(buf, "\"throughput\": {\"value\": 5000000, \"lower_value\": 3333333.33333333, "
                      "\"upper_value\": 10000000}") != NULL);
    CHECK(strstr(buf, "\"size\": {\"value\": 8, \"lower_value\": 7, \"upper_value\": 9}") != NULL);
    CHECK(strstr(buf, "\"op#2\": {\n    \"latency\": {\"value\": 60, \"lower_value\": 50, "
                      "\"upper_value\": 70}") != NULL);
    CHECK(strstr(buf, "\"op#3\"") == NULL); /* the passes are not entries of their own */
    fb_bench_free(b);
}

/* Twice the fake op's cost. */
static void fake_clock_op2(void *ctx) {
    fake_clock_op(ctx);
    fake_clock_op(ctx);
}

/* A comparison in each of three passes: each alternative is one series over
 * the passes, after the runs' series; the Bencher file has one entry per
 * alternative, the median over the passes bounded by them. */
static void test_comparison_passes(void) {
    fake_clock c = {0, 100, 0, 0};
    fb_bench *b = fake_bench(&c);
    fb_set_diagnostics(b, NULL);
    fb_alternative alts[2] = {{"A", fake_clock_op, &c}, {"B", fake_clock_op2, &c}};
    const uint64_t cost[3] = {100, 300, 200};
    for (unsigned pass = 0; pass < 3; ++pass) {
        fb__bench_set_pass(b, pass);
        c.cost_ns = cost[pass];
        CHECK(fb_run(b, "run", fake_clock_op, &c) != NULL);
        CHECK(fb_compare(b, "pair", alts, 2) != NULL);
    }
    CHECK(fb__passes_count(b) == 9); /* without a stored series: one per item */
    fb__pass_summary one;            /* item 4: the first pass's B, its own ratio */
    const fb__pass_summary *s4 = fb__passes_sum(b, 4, &one);
    CHECK(fb__passes_is_alternative(b, 4) && s4->ratio.n == 1 && s4->slower == 1);
    CHECK_NEAR(s4->ratio.median, 0.5, 1e-12);
    CHECK(fb__passes_sum(b, 2, &one)->ratio.n == 0); /* a run */
    CHECK(fb__passes_finish(b) == FB_OK);
    CHECK(fb__passes_count(b) == 3);
    CHECK(!fb__passes_is_alternative(b, 0) && fb__passes_is_alternative(b, 1) &&
          fb__passes_is_alternative(b, 2));
    for (size_t s = 0; s < 3; ++s) CHECK(fb__passes_size(b, s) == 3);
    CHECK(fb__passes_of_alternative(b, 2, 1) == 2); /* the third pass's B */
    CHECK_STR(fb_result_name(fb__passes_result(b, 2, 1)), "B");
    fb__pass_summary tmp;
    const fb__pass_summary *sb = fb__passes_sum(b, 2, &tmp);
    CHECK_NEAR(sb->median, 400e-9, 1e-15);
    /* against the baseline A: half its speed in each pass, significant */
    CHECK(sb->ratio.n == 3 && sb->slower == 3 && sb->faster == 0);
    CHECK_NEAR(sb->ratio.median, 0.5, 1e-12);
    CHECK(fb__passes_sum(b, 1, &tmp)->ratio.n == 3 && fb__passes_sum(b, 0, &tmp)->ratio.n == 0);
    size_t ci, ai;
    CHECK(fb__passes_alternative_at(b, 2, 2, &ci, &ai) && ci == 2 && ai == 1);
    CHECK(!fb__passes_alternative_at(b, 0, 1, &ci, &ai));
    char buf[4096];
    bmf_of(b, buf, sizeof buf);
    CHECK(strstr(buf, "\"pair/A\": {\n    \"latency\": {\"value\": 200, \"lower_value\": 100, "
                      "\"upper_value\": 300}") != NULL);
    CHECK(strstr(buf, "\"pair/B\": {\n    \"latency\": {\"value\": 400, \"lower_value\": 200, "
                      "\"upper_value\": 600}") != NULL);
    CHECK(strstr(buf, "#2") == NULL);
    /* a comparison added later drops the stored series */
    CHECK(fb_compare(b, "pair", alts, 2) != NULL);
    CHECK(fb__passes_count(b) == 11);
    fb_bench_free(b);
}

int main(void) {
    test_manual_time();
    test_counters();
    test_counter_misuse();
    test_context();
    test_product();
    test_bmf_passes();
    test_comparison_passes();
    return CHECK_DONE();
}
