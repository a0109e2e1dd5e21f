/* The one epoch routine (src/run/epoch.c) under the fake clock: the epoch hook's
 * contract (src/platform/epoch_hook.h) kept for runs and comparisons, the refusal of
 * nested runs and comparisons said once and counted, the disturbance source
 * reaching a comparison, and a comparison of many alternatives bounded. */
#include "check.h"
#include "fake_clock.h"
#include "internal.h"

#include <stdlib.h>

/* ------------------------------------------------------------ a fake hook */

#define LOG_MAX 256
typedef struct fake_hook {
    fake_clock *clock;
    uint64_t fix_iters;
    size_t fix_epochs;
    bool skip;
    /* what the library told */
    int run_begins, run_ends;
    char begun[64], ended[64];
    size_t n_begin, n_end;
    size_t begin_k[LOG_MAX], end_k[LOG_MAX];
    uint64_t end_iters[LOG_MAX];
    double end_elapsed[LOG_MAX];
    bool end_disturbed[LOG_MAX];
    bool in_epoch;     /* between epoch_begin and epoch_end */
    bool order_broken; /* an epoch began twice, or ended without beginning */
    uint64_t clock_at_begin, clock_at_end;
} fake_hook;

static bool hook_run_begin(void *ctx, const char *name, uint64_t *iters, size_t *epochs) {
    fake_hook *h = ctx;
    h->run_begins++;
    snprintf(h->begun, sizeof h->begun, "%s", name);
    *iters = h->fix_iters;
    *epochs = h->fix_epochs;
    return !h->skip;
}
static void hook_epoch_begin(void *ctx, size_t k) {
    fake_hook *h = ctx;
    if (h->in_epoch) h->order_broken = true;
    h->in_epoch = true;
    if (h->n_begin < LOG_MAX) h->begin_k[h->n_begin] = k;
    h->n_begin++;
    h->clock_at_begin = h->clock->now_ns;
}
static void hook_epoch_end(void *ctx, size_t k, uint64_t iters, double elapsed_s, bool disturbed) {
    fake_hook *h = ctx;
    if (!h->in_epoch) h->order_broken = true;
    h->in_epoch = false;
    if (h->n_end < LOG_MAX) {
        h->end_k[h->n_end] = k;
        h->end_iters[h->n_end] = iters;
        h->end_elapsed[h->n_end] = elapsed_s;
        h->end_disturbed[h->n_end] = disturbed;
    }
    h->n_end++;
    h->clock_at_end = h->clock->now_ns;
}
static void hook_run_end(void *ctx, const char *name) {
    fake_hook *h = ctx;
    h->run_ends++;
    snprintf(h->ended, sizeof h->ended, "%s", name);
}

static fb__epoch_hook make_hook(fake_hook *h) {
    fb__epoch_hook hook = {h, hook_run_begin, hook_epoch_begin, hook_epoch_end, hook_run_end, NULL};
    return hook;
}

/* A disturbance source that declares the epochs (counted from 0, two reads
 * each) listed in bad[] disturbed. */
typedef struct fake_disturb {
    uint64_t reads, count;
    const size_t *bad;
    size_t n_bad;
} fake_disturb;
static uint64_t fake_disturb_read(void *ctx) {
    fake_disturb *d = ctx;
    uint64_t epoch = d->reads / 2;
    if (d->reads % 2 == 1)
        for (size_t i = 0; i < d->n_bad; ++i)
            if (d->bad[i] == epoch) d->count++;
    d->reads++;
    return d->count;
}

/* A probe: slow before the run, clean after (a run would be measured again). */
static int probe_calls;
static double slow_then_clean(void *ctx) {
    (void)ctx;
    return probe_calls++ == 0 ? 2.0 : 1.0;
}

/* -------------------------------------------------------------- runs */

static void test_hook_fixes_iterations_and_epochs(void) {
    fake_clock c = {0, 100, 0, 0};
    fake_hook h = {&c,  7,   5,   false, 0,   0,     "",    "", 0, 0,
                   {0}, {0}, {0}, {0},   {0}, false, false, 0,  0};
    fb__epoch_hook hook = make_hook(&h);
    fb__process_set_epoch_hook(&hook);
    fb_bench *b = fake_bench(&c);
    fb_set_epochs(b, 11); /* the hook's choice wins */
    const fb_result *r = fb_run(b, "fixed", fake_clock_op, &c);
    fb__process_set_epoch_hook(NULL);
    CHECK(r != NULL && !fb_result_error(r));
    CHECK(h.run_begins == 1 && h.run_ends == 1);
    CHECK_STR(h.begun, "fixed");
    CHECK_STR(h.ended, "fixed");
    /* no warmup by default: exactly the 5 epochs of 7 iterations, no upscaling */
    CHECK(fb_result_epochs(r) == 5);
    CHECK(h.n_begin == 5 && h.n_end == 5 && !h.order_broken && !h.in_epoch);
    CHECK(c.calls == 35);
    for (size_t i = 0; i < 5 && i < h.n_end; ++i) {
        CHECK(h.begin_k[i] == i && h.end_k[i] == i);
        CHECK(h.end_iters[i] == 7 && fb_result_iterations(r, i) == 7);
        /* what the hook is told is what the result stores */
        CHECK_NEAR(h.end_elapsed[i], fb_result_value(r, FB_ELAPSED, i) * 7, 1e-15);
        CHECK_NEAR(h.end_elapsed[i], 700e-9, 1e-15);
        CHECK(!h.end_disturbed[i]);
    }
    fb_bench_free(b);
}

/* The hook's epoch_begin comes before the setup, epoch_end after the
 * teardown: neither is inside the timed region. */
static fake_hook *order_hook;
static int order_errors;
static void order_setup(void *ctx) {
    (void)ctx;
    if (!order_hook->in_epoch) order_errors++;
}
static void order_teardown(void *ctx) {
    (void)ctx;
    if (!order_hook->in_epoch) order_errors++; /* epoch_end not yet called */
}

static void test_hook_is_outside_setup_and_timing(void) {
    fake_clock c = {0, 100, 0, 0};
    fake_hook h = {&c,  3,   4,   false, 0,   0,     "",    "", 0, 0,
                   {0}, {0}, {0}, {0},   {0}, false, false, 0,  0};
    fb__epoch_hook hook = make_hook(&h);
    order_hook = &h;
    order_errors = 0;
    fb__process_set_epoch_hook(&hook);
    fb_bench *b = fake_bench(&c);
    fb_set_setup(b, order_setup, NULL);
    fb_set_teardown(b, order_teardown, NULL);
    FB_RUN(b, "inline") { fake_clock_op(&c); }
    fb__process_set_epoch_hook(NULL);
    CHECK(order_errors == 0);
    CHECK(h.n_end == 4 && h.run_ends == 1);
    CHECK(fb_result_epochs(fb_last_result(b)) == 4);
    fb_bench_free(b);
}

static void test_hook_disturbed_epochs_reported_not_replaced(void) {
    /* one disturbed epoch of six, then most of them: without a hook the
     * first would be replaced, the second stopped short with a note; with
     * the hook both run exactly the 6 asked for, each flag reported */
    static const size_t one[] = {2}, most[] = {1, 2, 3, 4};
    const size_t *bad[] = {one, most};
    size_t n_bad[] = {1, 4};
    for (int t = 0; t < 2; ++t) {
        fake_clock c = {0, 100, 0, 0};
        fake_hook h = {&c,  10,  6,   false, 0,   0,     "",    "", 0, 0,
                       {0}, {0}, {0}, {0},   {0}, false, false, 0,  0};
        fb__epoch_hook hook = make_hook(&h);
        fake_disturb d = {0, 0, bad[t], n_bad[t]};
        fb__process_set_epoch_hook(&hook);
        fb_bench *b = fake_bench(&c);
        fb__bench_set_disturbance(b, fake_disturb_read, &d);
        char *diag = NULL;
        size_t dlen = 0;
        FILE *df = open_memstream(&diag, &dlen);
        fb_set_diagnostics(b, df);
        const fb_result *r = fb_run(b, "disturbed", fake_clock_op, &c);
        fb__process_set_epoch_hook(NULL);
        fclose(df);
        CHECK(r && fb_result_epochs(r) == 6 && fb_result_disturbed_epochs(r) == n_bad[t]);
        CHECK(h.n_end == 6);
        for (size_t i = 0; i < 6 && i < h.n_end; ++i) {
            bool want = false;
            for (size_t j = 0; j < n_bad[t]; ++j) want = want || bad[t][j] == i;
            CHECK(h.end_disturbed[i] == want);
        }
        /* all asked for were run: no "N of the M epochs asked for" note */
        CHECK(strstr(diag, "epochs asked for") == NULL);
        free(diag);
        fb_bench_free(b);
    }

    /* the same run without a hook replaces the disturbed epoch */
    fake_clock c = {0, 100, 0, 0};
    fake_disturb d = {0, 0, one, 1};
    fb_bench *b = fake_bench(&c);
    fb__bench_set_disturbance(b, fake_disturb_read, &d);
    fb_set_epochs(b, 6);
    fb_set_epoch_iterations(b, 10);
    const fb_result *r = fb_run(b, "replaced", fake_clock_op, &c);
    CHECK(r && fb_result_epochs(r) == 7 && fb_result_disturbed_epochs(r) == 1);
    fb_bench_free(b);
}

static void test_hook_no_probe_restart(void) {
    fake_clock c = {0, 100, 0, 0};
    fake_hook h = {&c,  10,  3,   false, 0,   0,     "",    "", 0, 0,
                   {0}, {0}, {0}, {0},   {0}, false, false, 0,  0};
    fb__epoch_hook hook = make_hook(&h);
    fb__process_set_epoch_hook(&hook);
    fb_bench *b = fake_bench(&c);
    fb__bench_set_probe(b, slow_then_clean, NULL);
    probe_calls = 0;
    const fb_result *r = fb_run(b, "slow", fake_clock_op, &c);
    fb__process_set_epoch_hook(NULL);
    /* a hooked run never probes the core (the host judges its epochs):
     * not marked, never started again, exactly the 3 epochs */
    CHECK(r && !r->slow_core && r->remeasured == 0 && fb_result_epochs(r) == 3);
    CHECK(h.n_end == 3 && probe_calls == 0);
    fb_bench_free(b);

    /* without the hook the run is marked the same way: the probe marks a
     * slow core and never measures again (src/stats/marks.c) */
    c = (fake_clock){0, 100, 0, 0};
    b = fake_bench(&c);
    fb__bench_set_probe(b, slow_then_clean, NULL);
    fb_set_epochs(b, 3);
    fb_set_epoch_iterations(b, 10);
    probe_calls = 0;
    r = fb_run(b, "slow", fake_clock_op, &c);
    CHECK(r && r->slow_core && r->remeasured == 0 && fb_result_epochs(r) == 3);
    CHECK(probe_calls == 2);
    fb_bench_free(b);
}

static void test_hook_run_end_after_error(void) {
    fake_clock c = {0, 100, 0, 0};
    fake_hook h = {&c,  10,  3,   false, 0,   0,     "",    "", 0, 0,
                   {0}, {0}, {0}, {0},   {0}, false, false, 0,  0};
    fb__epoch_hook hook = make_hook(&h);
    fb__process_set_epoch_hook(&hook);
    fb_bench *b = fake_bench(&c);
    FB_RUN(b, "broken") {
        fake_clock_op(&c);
        break; /* not supported: the row becomes an error */
    }
    fb__process_set_epoch_hook(NULL);
    const fb_result *r = fb_last_result(b);
    CHECK(r && fb_result_error(r) != NULL);
    CHECK(h.run_begins == 1 && h.run_ends == 1 && h.n_end == 1 && !h.in_epoch);
    CHECK_STR(h.ended, "broken");
    fb_bench_free(b);
}

/* A body that returns out of FB_RUN leaves the run open: freeing the bench
 * still ends it for the hook. */
static void run_and_return(fb_bench *b, fake_clock *c) {
    FB_RUN(b, "left") {
        fake_clock_op(c);
        return;
    }
}

static void test_hook_run_end_when_left_early(void) {
    fake_clock c = {0, 100, 0, 0};
    fake_hook h = {&c,  10,  3,   false, 0,   0,     "",    "", 0, 0,
                   {0}, {0}, {0}, {0},   {0}, false, false, 0,  0};
    fb__epoch_hook hook = make_hook(&h);
    fb__process_set_epoch_hook(&hook);
    fb_bench *b = fake_bench(&c);
    run_and_return(b, &c);
    CHECK(h.run_begins == 1 && h.run_ends == 0);
    fb_bench_free(b);
    fb__process_set_epoch_hook(NULL);
    CHECK(h.run_ends == 1);
    CHECK_STR(h.ended, "left");
}

static void test_hook_skip(void) {
    fake_clock c = {0, 100, 0, 0};
    fake_hook h = {&c, 0, 0, true, 0, 0, "", "", 0, 0, {0}, {0}, {0}, {0}, {0}, false, false, 0, 0};
    fb__epoch_hook hook = make_hook(&h);
    fb__process_set_epoch_hook(&hook);
    fb_bench *b = fake_bench(&c);
    fb__bench_set_arg(b, 42);
    const fb_result *r = fb_run(b, "Skipped", fake_clock_op, &c);
    int bodies = 0;
    FB_RUN(b, "inline") { ++bodies; }
    fb__process_set_epoch_hook(NULL);
    CHECK(r == NULL && fb_result_count(b) == 0 && c.calls == 0 && bodies == 0);
    CHECK(h.n_begin == 0 && h.n_end == 0);
    /* the row's full name, family argument included; every run_begin has its run_end */
    CHECK(h.run_begins == 2 && h.run_ends == 2);
    CHECK_STR(h.ended, "inline/42");
    CHECK(b->dropped == 0 && b->epoch == NULL && b->run == NULL);
    /* the bench is free again: a later run without the hook runs */
    fb_set_epoch_iterations(b, 10);
    fb_set_epochs(b, 3);
    r = fb_run(b, "after", fake_clock_op, &c);
    CHECK(r && fb_result_epochs(r) == 3);
    fb_bench_free(b);
}

/* --------------------------------------------------------- comparisons */

static void slow_op(void *ctx) {
    fake_clock *c = ctx;
    c->now_ns += 2 * c->cost_ns;
    c->calls++;
}

static void test_hook_paces_a_comparison(void) {
    fake_clock c = {0, 100, 0, 0};
    fake_hook h = {&c,  20,  9,   false, 0,   0,     "",    "", 0, 0,
                   {0}, {0}, {0}, {0},   {0}, false, false, 0,  0};
    fb__epoch_hook hook = make_hook(&h);
    fb__process_set_epoch_hook(&hook);
    fb_bench *b = fake_bench(&c);
    fb_alternative alts[] = {{"one", fake_clock_op, &c}, {"two", slow_op, &c}};
    const fb_comparison *cmp = fb_compare(b, "paced", alts, 2);
    fb__process_set_epoch_hook(NULL);
    CHECK(cmp != NULL && fb_comparison_rounds(cmp) == 9 && fb_comparison_iterations(cmp) == 20);
    /* one epoch of each alternative per round: 18 epochs, in order */
    CHECK(h.n_begin == 18 && h.n_end == 18 && !h.order_broken);
    for (size_t i = 0; i < 18 && i < h.n_end; ++i) CHECK(h.end_k[i] == i && h.end_iters[i] == 20);
    CHECK(h.run_begins == 1 && h.run_ends == 1);
    CHECK_STR(h.begun, "paced");
    CHECK_NEAR(fb_comparison_ratio(cmp, 1), 0.5, 1e-12);
    fb_bench_free(b);
}

/* The disturbance source reaches a comparison: the rounds with a disturbed
 * epoch are flagged on the alternatives' results and left out of the
 * ratio. */
static void test_comparison_disturbed_rounds(void) {
    fake_clock c = {0, 100, 0, 0};
    /* with a fixed count there is no calibration: epochs are counted from
     * the first round's, two a round (epoch 4: round 2, epoch 11: round 5) */
    static const size_t bad[] = {4, 11};
    fake_disturb d = {0, 0, bad, 2};
    fb_bench *b = fake_bench(&c);
    fb__bench_set_disturbance(b, fake_disturb_read, &d);
    fb_set_epoch_iterations(b, 10);
    fb_alternative alts[] = {{"one", fake_clock_op, &c}, {"two", slow_op, &c}};
    const fb_comparison *cmp = fb_compare(b, "disturbed", alts, 2);
    CHECK(cmp != NULL && fb_comparison_preempted(cmp) == 2);
    size_t flagged = fb_result_disturbed_epochs(fb_comparison_result(cmp, 0)) +
                     fb_result_disturbed_epochs(fb_comparison_result(cmp, 1));
    CHECK(flagged == 2);
    CHECK(fb_comparison_result(cmp, 0)->disturb_known);
    fb_bench_free(b);
}

/* ------------------------------------------------------------ nesting */

static int inner_bodies;
static void nested_compare(fb_bench *b, fake_clock *c) {
    FB_COMPARE(b, "inner") {
        FB_ALTERNATIVE("a") {
            fake_clock_op(c);
            ++inner_bodies;
        }
        FB_ALTERNATIVE("b") {
            fake_clock_op(c);
            ++inner_bodies;
        }
    }
}

static size_t count_lines(const char *s, const char *needle) {
    size_t n = 0;
    for (const char *p = s; p && (p = strstr(p, needle)) != NULL; p += strlen(needle)) ++n;
    return n;
}

static void test_nested_comparison_said_once_and_counted(void) {
    fake_clock c = {0, 100, 0, 0};
    fb_bench *b = fake_bench(&c);
    char *diag = NULL;
    size_t dlen = 0;
    FILE *df = open_memstream(&diag, &dlen);
    fb_set_diagnostics(b, df);
    fb_set_epoch_iterations(b, 10);
    fb_set_epochs(b, 5);
    inner_bodies = 0;
    /* in a run: every epoch would try */
    FB_RUN(b, "outer") {
        fake_clock_op(&c);
        nested_compare(b, &c);
    }
    fflush(df);
    CHECK(inner_bodies == 0 && fb_comparison_count(b) == 0);
    CHECK(count_lines(diag, "comparison 'inner' not run") == 1);
    CHECK(b->dropped == 1);
    /* in a comparison's alternative, and in its untimed setup code */
    b->dropped = 0;
    FB_COMPARE(b, "outer2") {
        nested_compare(b, &c);
        FB_ALTERNATIVE("x") { fake_clock_op(&c); }
        FB_ALTERNATIVE("y") {
            fake_clock_op(&c);
            nested_compare(b, &c);
        }
    }
    fflush(df);
    CHECK(inner_bodies == 0 && fb_comparison_count(b) == 1);
    CHECK(count_lines(diag, "comparison 'inner' not run") == 2);
    CHECK(b->dropped == 1);
    /* fb_run inside an alternative of the same bench: refused, once */
    b->dropped = 0;
    size_t results = fb_result_count(b);
    FB_COMPARE(b, "outer3") {
        FB_ALTERNATIVE("x") {
            fake_clock_op(&c);
            fb_run(b, "runinside", fake_clock_op, &c);
        }
        FB_ALTERNATIVE("y") { fake_clock_op(&c); }
    }
    fclose(df);
    CHECK(fb_result_count(b) == results && b->dropped == 1);
    CHECK(count_lines(diag, "'runinside' not run") == 1);
    free(diag);
    fb_bench_free(b);
}

/* A comparison of many alternatives runs K x rounds epochs, not K x K. */
static void test_many_alternatives_bounded(void) {
    enum { K = 64 };
    fake_clock c = {0, 100, 0, 0};
    fb_bench *b = fake_bench(&c);
    fb_set_epoch_iterations(b, 1);
    fb_alternative alts[K];
    char names[K][8];
    for (int i = 0; i < K; ++i) {
        snprintf(names[i], sizeof names[i], "a%d", i);
        alts[i] = (fb_alternative){names[i], fake_clock_op, &c};
    }
    const fb_comparison *cmp = fb_compare(b, "many", alts, K);
    CHECK(cmp != NULL);
    size_t rounds = fb_comparison_rounds(cmp);
    CHECK(rounds >= 1 && rounds < K);
    CHECK(rounds == 30);          /* the default rounds: no whole blocks of 64 */
    CHECK(c.calls == K * rounds); /* one iteration an epoch, no calibration */
    fb_bench_free(b);
}

/* Under a hook (femtobench-ab: every copy of the library it loads) the
 * process clock is measured lightly: its resolution and the CPU clock's
 * read, not the read's overhead nor the empty loop, which only a runner's
 * marks use; a later call without the hook measures it whole. First in
 * main: nothing before it has measured this process's clock. */
static void test_hook_measures_the_clock_lightly(void) {
    fb__epoch_hook hook = {NULL, NULL, NULL, NULL, NULL, NULL};
    fb__process_set_epoch_hook(&hook);
    fb__clock_info paced = fb__process_clock();
    fb__process_set_epoch_hook(NULL);
    fb__clock_info whole = fb__process_clock();
    CHECK(paced.resolution_s > 0 && paced.overhead_s == 0 && paced.empty_loop_s == 0);
    CHECK(whole.resolution_s > 0 && whole.overhead_s > 0);
}

/* The first run under a hook checks nothing of the machine (the host did):
 * no report, rather than an empty one that says all is well. A process
 * reloaded (as a runner's child is) checks it at its first plain run. */
static void test_hook_checks_no_machine(void) {
    fake_clock c = {0, 100, 0, 0};
    fake_hook h = {&c,  10,  3,   false, 0,   0,     "",    "", 0, 0,
                   {0}, {0}, {0}, {0},   {0}, false, false, 0,  0};
    fb__epoch_hook hook = make_hook(&h);
    fb__process_reload();
    fb__process_set_epoch_hook(&hook);
    fb_bench *b = fake_bench(&c);
    const fb_result *r = fb_run(b, "paced", fake_clock_op, &c);
    fb__process_set_epoch_hook(NULL);
    CHECK(r && fb_result_epochs(r) == 3 && fb__process_env_report() == NULL);
    fb_bench_free(b);
    fb__process_reload();
    c = (fake_clock){0, 100, 0, 0};
    b = fake_bench(&c);
    fb_set_epochs(b, 3);
    fb_set_epoch_iterations(b, 10);
    r = fb_run(b, "plain", fake_clock_op, &c);
    CHECK(r && fb__process_env_report() != NULL);
    fb_bench_free(b);
}

int main(void) {
    test_hook_measures_the_clock_lightly();
    test_hook_checks_no_machine();
    test_hook_fixes_iterations_and_epochs();
    test_hook_is_outside_setup_and_timing();
    test_hook_disturbed_epochs_reported_not_replaced();
    test_hook_no_probe_restart();
    test_hook_run_end_after_error();
    test_hook_run_end_when_left_early();
    test_hook_skip();
    test_hook_paces_a_comparison();
    test_comparison_disturbed_rounds();
    test_nested_comparison_said_once_and_counted();
    test_many_alternatives_bounded();
    return CHECK_DONE();
}
