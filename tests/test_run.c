/* The epoch loop and iteration control, driven by a fake clock. */
#include "check.h"
#include "fake_clock.h"
#include "internal.h"

#include <math.h>

#include <signal.h>
#include <stdlib.h>

static void test_constant_op(void) {
    fake_clock c = {0, 100, 0, 0};
    fb_bench *b = fake_bench(&c);
    const fb_result *r = fb_run(b, "const", fake_clock_op, &c);
    CHECK(r != NULL);
    CHECK(fb_result_error(r) == NULL);
    CHECK(fb_result_epochs(r) == 11);
    CHECK_NEAR(fb_result_median(r, FB_ELAPSED), 100e-9, 1e-15);
    CHECK_NEAR(fb_result_err_pct(r, FB_ELAPSED), 0, 1e-9);
    CHECK_NEAR(fb_result_mean(r, FB_ELAPSED), 100e-9, 1e-15);
    /* target = max(1000 x 1 ns, min_epoch_time 250 us) = 250 us = 2500 ops;
     * measuring epochs carry a random factor in [1, 1.2) */
    uint64_t total = 0;
    for (size_t i = 0; i < fb_result_epochs(r); ++i) {
        uint64_t n = fb_result_iterations(r, i);
        total += n;
        CHECK(n >= 1667 && n <= 3000);
    }
    CHECK(total == fb_result_total_iterations(r));
    CHECK_NEAR(fb_result_total_s(r), (double)total * 100e-9, 1e-12);
    /* iterations differ between epochs (jitter against aliasing) */
    CHECK(fb_result_iterations(r, 1) != fb_result_iterations(r, 2) ||
          fb_result_iterations(r, 2) != fb_result_iterations(r, 3));
    /* no more op calls than recorded + upscaling (1+10+100+1000 < 1200) */
    CHECK(c.calls - total < 1200);
    fb_bench_free(b);
}

static void test_fb_run_and_FB_RUN_agree(void) {
    fake_clock c1 = {0, 37, 0, 20}, c2 = {0, 37, 0, 20};
    fb_bench *b1 = fake_bench(&c1), *b2 = fake_bench(&c2);
    const fb_result *r1 = fb_run(b1, "fn", fake_clock_op, &c1);
    FB_RUN(b2, "macro") { fake_clock_op(&c2); }
    const fb_result *r2 = fb_last_result(b2);
    CHECK(r1 && r2);
    CHECK_STR(fb_result_name(r2), "macro");
    /* identical schedule: the same epochs, iterations and times (and there
     * are epochs to compare: the default 11) */
    CHECK(fb_result_epochs(r1) == 11 && fb_result_epochs(r2) == 11);
    for (size_t i = 0; i < fb_result_epochs(r1); ++i)
        CHECK(fb_result_iterations(r1, i) == fb_result_iterations(r2, i));
    CHECK_NEAR(fb_result_median(r1, FB_ELAPSED), fb_result_median(r2, FB_ELAPSED), 1e-15);
    /* the clock read overhead (20 ns per epoch) is within err of 37 ns */
    CHECK_NEAR(fb_result_median(r2, FB_ELAPSED), 37e-9, 0.01 * 37e-9);
    fb_bench_free(b1);
    fb_bench_free(b2);
}

static void test_optimized_away(void) {
    /* the clock moves (1 ns a read), the op costs nothing */
    fake_clock c = {0, 0, 0, 1};
    fb_bench *b = fake_bench(&c);
    const fb_result *r = fb_run(b, "empty", fake_clock_op, &c);
    CHECK(r != NULL);
    CHECK(fb_result_error(r) != NULL);
    CHECK(strstr(fb_result_error(r), "optimized away") != NULL);
    CHECK(fb_result_epochs(r) == 0);
    fb_bench_free(b);
    /* a clock that never moves is not blamed on the op */
    fake_clock still = {0, 0, 0, 0};
    b = fake_bench(&still);
    r = fb_run(b, "still", fake_clock_op, &still);
    CHECK(r != NULL && fb_result_error(r) != NULL);
    CHECK(strstr(fb_result_error(r), "the clock stood still") != NULL);
    CHECK(strstr(fb_result_error(r), "optimized away") == NULL);
    fb_bench_free(b);
}

/* The marks against the empty loop (src/stats/marks.c), with the fake clock and a
 * declared empty loop: an op that costs what the loop costs (one add does)
 * is at the loop's resolution and not "optimized away?"; one under a
 * quarter of it is; one at 3x is neither. */
static void check_loop_mark(uint64_t cost_ns, double empty_loop_s, bool away, bool at_loop) {
    fake_clock c = {0, cost_ns, 0, 0};
    fb_bench *b = fake_bench(&c);
    fb__bench_set_empty_loop(b, empty_loop_s);
    const fb_result *r = fb_run(b, "op", fake_clock_op, &c);
    CHECK(r != NULL && fb_result_error(r) == NULL);
    CHECK(fb_result_optimized_away(r) == away);
    CHECK(fb_result_at_loop_resolution(r) == at_loop);
    fb_bench_free(b);
}

static void test_loop_marks(void) {
    check_loop_mark(2, 2e-9, false, true);    /* the loop's own cost: one add */
    check_loop_mark(3, 2e-9, false, true);    /* 1.5x: still within 2x */
    check_loop_mark(2, 0.5e-9, false, false); /* 4x: real work above the loop */
    check_loop_mark(1, 5e-9, true, false);    /* 0.2x: the body did not run */
    check_loop_mark(2, 0, false, false);      /* no empty loop known: no mark */
}

static void test_slow_op_is_bounded(void) {
    fake_clock c = {0, 10000000, 0, 0}; /* 10 ms per call */
    fb_bench *b = fake_bench(&c);
    const fb_result *r = fb_run(b, "slow", fake_clock_op, &c);
    CHECK(r && !fb_result_error(r));
    /* budget 20 ms, but at least 3 epochs: 3 calls in all */
    CHECK(fb_result_epochs(r) == 3);
    CHECK(c.calls == 3);
    CHECK_NEAR(fb_result_median(r, FB_ELAPSED), 10e-3, 1e-12);
    fb_bench_free(b);

    /* a larger budget allows more epochs, up to `epochs` */
    c = (fake_clock){0, 10000000, 0, 0};
    b = fake_bench(&c);
    fb_set_max_total_time(b, 0.055);
    r = fb_run(b, "slow", fake_clock_op, &c);
    CHECK(fb_result_epochs(r) == 6);
    fb_bench_free(b);
}

static void test_exact_iterations_with_warmup(void) {
    fake_clock c = {0, 50, 0, 0};
    fb_bench *b = fake_bench(&c);
    fb_set_epoch_iterations(b, 1000);
    fb_set_warmup(b, 77);
    fb_set_epochs(b, 5);
    const fb_result *r = fb_run(b, "exact", fake_clock_op, &c);
    CHECK(fb_result_epochs(r) == 5);
    for (size_t i = 0; i < 5; ++i) CHECK(fb_result_iterations(r, i) == 1000);
    CHECK(c.calls == 77 + 5000);
    fb_bench_free(b);
}

static void test_min_epoch_iterations(void) {
    fake_clock c = {0, 1000000, 0, 0}; /* 1 ms: one call would outlast the target */
    fb_bench *b = fake_bench(&c);
    fb_set_min_epoch_iterations(b, 7);
    fb_set_max_total_time(b, 1.0);
    const fb_result *r = fb_run(b, "floor", fake_clock_op, &c);
    /* 7 ms epochs fit the 1 s budget 11 times: all epochs are recorded */
    CHECK(r && !fb_result_error(r) && fb_result_epochs(r) == 11);
    for (size_t i = 0; r && i < fb_result_epochs(r); ++i) CHECK(fb_result_iterations(r, i) >= 7);
    fb_bench_free(b);
}

static void test_break_is_an_error(void) {
    fake_clock c = {0, 10, 0, 0};
    fb_bench *b = fake_bench(&c);
    int k = 0;
    FB_RUN(b, "breaks") {
        fake_clock_op(&c);
        if (++k == 5) break;
    }
    const fb_result *r = fb_last_result(b);
    CHECK(r && fb_result_error(r) && strstr(fb_result_error(r), "break"));
    /* continue is fine: it still counts as an iteration */
    FB_RUN(b, "continues") {
        fake_clock_op(&c);
        if (c.calls % 2) continue;
        c.now_ns += 10;
    }
    r = fb_last_result(b);
    CHECK(r && !fb_result_error(r));
    CHECK_NEAR(fb_result_median(r, FB_ELAPSED), 15e-9, 0.5e-9);
    fb_bench_free(b);
}

static uint64_t noisy_calls;
static void noisy_op(void *ctx) {
    /* per call: 100, 106, 94, 112, 88 ns, cycling */
    static const uint64_t cost[5] = {100, 106, 94, 112, 88};
    ((fake_clock *)ctx)->now_ns += cost[noisy_calls++ % 5];
}

static void test_statistics_and_unstable(void) {
    fake_clock c = {0, 0, 0, 0};
    fb_bench *b = fake_bench(&c);
    fb_set_epoch_iterations(b, 1);
    fb_set_epochs(b, 21);
    const fb_result *r = fb_run(b, "noisy", noisy_op, &c);
    CHECK(fb_result_epochs(r) == 21);
    CHECK_NEAR(fb_result_median(r, FB_ELAPSED), 100e-9, 1e-15);
    CHECK_NEAR(fb_result_min(r, FB_ELAPSED), 88e-9, 1e-15);
    CHECK_NEAR(fb_result_max(r, FB_ELAPSED), 112e-9, 1e-15);
    /* mean = total time / total iterations */
    CHECK_NEAR(fb_result_mean(r, FB_ELAPSED), fb_result_total_s(r) / 21.0, 1e-15);
    CHECK_NEAR(fb_result_total_s(r), (5 * 100 + 4 * (106 + 94 + 112 + 88)) * 1e-9, 1e-15);
    /* deviations: 0% x5, 6% x8, 12% x8 -> the 11th smallest is 6% */
    CHECK_NEAR(fb_result_err_pct(r, FB_ELAPSED), 6.0, 1e-9);
    CHECK(fb_result_unstable(r));
    fb_bench_free(b);

    /* the same spread over 1000-call epochs averages out: stable */
    c = (fake_clock){0, 0, 0, 0};
    b = fake_bench(&c);
    fb_set_epoch_iterations(b, 1000);
    r = fb_run(b, "averaged", noisy_op, &c);
    CHECK(fb_result_err_pct(r, FB_ELAPSED) < 1.0);
    CHECK(!fb_result_unstable(r));
    fb_bench_free(b);
}

/* The unstable mark is err% >= 5: a run whose err% is exactly 5 has it, one
 * at 4 does not. Per call (one call an epoch): 380, 399, 361, 399, 361 ns
 * -> median 380, deviations 0, 5, 5, 5, 5 % -> err% 5. With these values the
 * rounding of ns -> s cancels and err% is 5.0 exactly (with 100 and 105 ns it
 * would be 4.999999999999991, below the mark). */
static const uint64_t *boundary_costs;
static uint64_t boundary_calls;
static void boundary_op(void *ctx) {
    ((fake_clock *)ctx)->now_ns += boundary_costs[boundary_calls++ % 5];
}

static void test_unstable_at_five_percent(void) {
    static const uint64_t at5[5] = {380, 399, 361, 399, 361}, at4[5] = {100, 104, 96, 104, 96};
    const uint64_t *costs[2] = {at5, at4};
    for (int k = 0; k < 2; ++k) {
        fake_clock c = {0, 0, 0, 0};
        fb_bench *b = fake_bench(&c);
        fb_set_epoch_iterations(b, 1);
        fb_set_epochs(b, 5);
        boundary_costs = costs[k];
        boundary_calls = 0;
        const fb_result *r = fb_run(b, k == 0 ? "at 5%" : "at 4%", boundary_op, &c);
        CHECK(r && fb_result_epochs(r) == 5);
        if (k == 0)
            CHECK(r && fb_result_err_pct(r, FB_ELAPSED) == 5.0);
        else
            CHECK_NEAR(r ? fb_result_err_pct(r, FB_ELAPSED) : 0, 4.0, 1e-9);
        CHECK(r && fb_result_unstable(r) == (k == 0));
        fb_bench_free(b);
    }
}

static void test_config_layers(void) {
    fake_clock c = {0, 100, 0, 0};
    fb_bench *b = fake_bench(&c);
    fb__cfg_set(b, FB__LAYER_ENV, FB__K_EPOCHS, 21);
    CHECK(fb__cfg(b, FB__K_EPOCHS) == 21);
    fb_set_epochs(b, 5); /* code wins over env */
    CHECK(fb__cfg(b, FB__K_EPOCHS) == 5);
    fb__cfg_set(b, FB__LAYER_CLI, FB__K_EPOCHS, 1); /* the command line wins over code */
    CHECK(fb__cfg(b, FB__K_EPOCHS) == 1);
    const fb_result *r = fb_run(b, "one", fake_clock_op, &c);
    CHECK(fb_result_epochs(r) == 1);
    CHECK(fb__cfg(b, FB__K_WARMUP) == 0);
    fb_bench_free(b);
}

static void test_upscaling_schedule(void) {
    /* 1 us per op, target 250 us: 1, 10, 100 are short; 100 us >= target/10
     * so the next is proportional, and 250+ iterations are recorded */
    fake_clock c = {0, 1000, 0, 0};
    fb_bench *b = fake_bench(&c);
    fb_set_epochs(b, 1);
    const fb_result *r = fb_run(b, "up", fake_clock_op, &c);
    CHECK(fb_result_epochs(r) == 1);
    uint64_t n = fb_result_iterations(r, 0);
    CHECK(n >= 250 && n < 300);
    CHECK(c.calls == 1 + 10 + 100 + n);
    fb_bench_free(b);
}

static uint64_t endless_calls;
static void endless_op(void *ctx) {
    fake_clock_op(ctx);
    if (++endless_calls == 100000) raise(SIGINT);
}

static void test_endless(void) {
    fake_clock c = {0, 100, 0, 0};
    setenv("FEMTOBENCH_ENDLESS", "forever", 1);
    fb__process_reload(); /* the process state reads the environment once */
    fb_bench *b = fake_bench(&c);
    unsetenv("FEMTOBENCH_ENDLESS"); /* read once: still "forever" */
    /* other benchmarks run normally */
    const fb_result *r = fb_run(b, "normal", fake_clock_op, &c);
    CHECK(r && fb_result_epochs(r) == 11);
    r = fb_run(b, "forever", endless_op, &c);
    CHECK(r == NULL);
    CHECK(endless_calls >= 100000);
    CHECK(fb_result_count(b) == 1);
    CHECK(b->interrupted);
    CHECK(b->run == NULL); /* the endless run was closed */
    fb_bench_free(b);
    fb__process_reload();
}

static int inner_bodies;
static void run_inner(fb_bench *b) {
    FB_RUN(b, "inner") { ++inner_bodies; }
}

static void test_nested_run_is_refused(void) {
    fake_clock c = {0, 100, 0, 0};
    fb_bench *b = fake_bench(&c);
    char *buf = NULL, *diag = NULL;
    size_t len = 0, dlen = 0;
    FILE *f = open_memstream(&buf, &len);
    FILE *d = open_memstream(&diag, &dlen);
    fb_set_output(b, f);
    fb_set_diagnostics(b, d);
    fb_set_epoch_iterations(b, 10);
    fb_set_epochs(b, 2);
    bool tried = false;
    FB_RUN(b, "outer") {
        fake_clock_op(&c);
        if (!tried) run_inner(b); /* a run inside a run of the same bench */
        tried = true;
    }
    fclose(f);
    fclose(d);
    CHECK(inner_bodies == 0);
    CHECK(fb_result_count(b) == 1);
    CHECK_STR(fb_result_name(fb_last_result(b)), "outer");
    /* a diagnostic, not a result: on the diagnostics stream, once */
    const char *msg = "femtobench: 'inner' not run: another run of this bench is in progress\n";
    CHECK(strstr(diag, msg) != NULL && strstr(strstr(diag, msg) + 1, msg) == NULL);
    CHECK(strstr(buf, "not run") == NULL);
    free(buf);
    free(diag);
    fb_bench_free(b);
}

/* The runner's command line on each fresh bench of the suite
 * (src/runner/suite_job.c): it wins over the benchmark's code;
 * --benchmark_min_time is per repetition; -sanity_check wins over every other
 * flag: one epoch of one iteration, no warm-up, no minimum time. */
static void test_job_configure(void) {
    fb__opts o;
    fb__opts_init(&o);
    o.epochs = 3;             /* --benchmark_repetitions=3 */
    o.min_epoch_time_s = 0.5; /* --benchmark_min_time=0.5s */
    fb_bench *b = fb_bench_new();
    CHECK(b != NULL);
    if (!b) return;
    fb_set_epochs(b, 7); /* the code's: the command line wins */
    fb__job_configure(b, &o);
    CHECK(fb__cfg(b, FB__K_EPOCHS) == 3);
    CHECK(fabs(fb__cfg(b, FB__K_MIN_TIME) - 1.5) < 1e-12);
    fb_bench_free(b);

    o.sanity = true;
    b = fb_bench_new();
    CHECK(b != NULL);
    if (!b) return;
    fb__job_configure(b, &o);
    CHECK(fb__cfg(b, FB__K_EPOCHS) == 1);
    CHECK(fb__cfg(b, FB__K_EPOCH_ITERATIONS) == 1);
    CHECK(fb__cfg(b, FB__K_WARMUP) == 0);
    CHECK(fb__cfg(b, FB__K_MIN_TIME) == 0);
    fb_bench_free(b);
    fb__opts_free(&o);
}

/* The configuration by value says which keys the user set (the code, the
 * command line, FEMTOBENCH_CONFIG), and gives the epoch's one target. */
static void test_config_set_and_target(void) {
    fb_bench *b = fb_bench_new();
    CHECK(b != NULL);
    if (!b) return;
    fb__config c;
    CHECK(fb__bench_config(b, &c) == FB_OK);
    CHECK(!fb__config_set_by_user(&c, FB__K_EPOCHS));
    CHECK(!fb__config_set_by_user(&c, FB__K_MAX_TOTAL_TIME));
    /* the defaults: 1 ns resolution x 1000 is under min_epoch_time */
    double lo = c.num[FB__K_MIN_EPOCH_TIME], hi = c.num[FB__K_MAX_EPOCH_TIME];
    CHECK(fb__config_epoch_target(&c, 1e-9) == (1e-9 * c.num[FB__K_CLOCK_RESOLUTION_MULTIPLE] > lo
                                                    ? 1e-9 * c.num[FB__K_CLOCK_RESOLUTION_MULTIPLE]
                                                    : lo));
    CHECK(fb__config_epoch_target(&c, 1e3) == hi); /* a coarse clock: capped */
    fb__config_free(&c);
    fb_set_epochs(b, 7); /* the code */
    CHECK(fb__config_parse("max_total_time=2s", &b->layers[FB__LAYER_ENV], NULL) == 0); /* env */
    CHECK(fb__bench_config(b, &c) == FB_OK);
    CHECK(fb__config_set_by_user(&c, FB__K_EPOCHS));
    CHECK(fb__config_set_by_user(&c, FB__K_MAX_TOTAL_TIME));
    CHECK(!fb__config_set_by_user(&c, FB__K_WARMUP));
    fb__config_free(&c);
    fb_bench_free(b);
}

/* A longer run is more epochs, not longer ones: the runner's -min_time
 * (and fb_set_min_time) keeps each epoch at the usual target and records
 * epochs until they hold the time asked for, also when the benchmark sets
 * its own epochs after the runner configured it. */
static void test_min_time_with_own_epochs(void) {
    fake_clock c = {0, 1000, 0, 0}; /* 1 us an op */
    fb_bench *b = fake_bench(&c);
    fb__bench_set_min_time(b, 0.110); /* what -min_time=110 sets */
    fb_set_epochs(b, 3);              /* then the benchmark's own code */
    const fb_result *r = fb_run(b, "min_time", fake_clock_op, &c);
    CHECK(r && !fb_result_error(r));
    CHECK(r && fabs(r->config.num[FB__K_MIN_EPOCH_TIME] - 250e-6) < 1e-15);
    /* every epoch at the usual length: 250 us, times the jitter below 1.2 */
    double longest = 0;
    for (size_t i = 0; r && i < fb_result_epochs(r); ++i)
        if ((double)fb_result_iterations(r, i) * 1e-6 > longest)
            longest = (double)fb_result_iterations(r, i) * 1e-6;
    CHECK(longest >= 250e-6 * 2.0 / 3.0 && longest < 250e-6 * 1.2 + 1e-9);
    /* so ~400 of them: 110 ms / (250 us x 1.1 on average) */
    CHECK(r && (double)fb_result_epochs(r) >= 110e-3 / (250e-6 * 1.2));
    CHECK(r && fb_result_total_s(r) >= 0.110);
    CHECK(r && fb_result_total_s(r) < 0.110 + 300e-6); /* one epoch past it at most */
    CHECK(r && r->stopped_by == FB__STOP_EPOCHS);
    fb_bench_free(b);

    /* the API: the same, and out of range said and clamped */
    c = (fake_clock){0, 1000, 0, 0};
    b = fake_bench(&c);
    fb_set_min_time(b, 0.02);
    r = fb_run(b, "api", fake_clock_op, &c);
    CHECK(r && fb_result_total_s(r) >= 0.02 && fb_result_total_s(r) < 0.02 + 300e-6);
    CHECK(r && fb_result_epochs(r) > 11);
    fb_set_min_time(b, -1);
    CHECK(fb__cfg(b, FB__K_MIN_TIME) == 0);
    fb_bench_free(b);

    /* FEMTOBENCH_CONFIG's min_time: the same; the code's and then the
     * runner's replace it */
    c = (fake_clock){0, 1000, 0, 0};
    b = fake_bench(&c);
    CHECK(fb__config_parse("min_time=30ms", &b->layers[FB__LAYER_ENV], NULL) == 0);
    r = fb_run(b, "config", fake_clock_op, &c);
    CHECK(r && fb_result_total_s(r) >= 0.03 && fb_result_total_s(r) < 0.03 + 300e-6);
    CHECK(r && r->config.num[FB__K_MIN_TIME] == 0.03);
    fb_set_min_time(b, 0.01);
    CHECK(fb__cfg(b, FB__K_MIN_TIME) == 0.01);
    fb__bench_set_min_time(b, 0.005);
    r = fb_run(b, "cli", fake_clock_op, &c);
    CHECK(r && fb_result_total_s(r) >= 0.005 && fb_result_total_s(r) < 0.005 + 300e-6);
    fb_bench_free(b);

    /* --benchmark_min_time=<n>x: n iterations in all, split over the
     * epochs (each the same whole count, rounded up) */
    c = (fake_clock){0, 1000, 0, 0};
    b = fake_bench(&c);
    b->cfg.total_iterations = 1000;
    r = fb_run(b, "total", fake_clock_op, &c);
    CHECK(r && fb_result_epochs(r) == 11);
    CHECK(r && fb_result_iterations(r, 0) == 91 && fb_result_total_iterations(r) == 1001);
    fb_bench_free(b);
    /* fewer iterations than epochs: one iteration an epoch */
    c = (fake_clock){0, 1000, 0, 0};
    b = fake_bench(&c);
    b->cfg.total_iterations = 3;
    r = fb_run(b, "three", fake_clock_op, &c);
    CHECK(r && fb_result_epochs(r) == 3 && fb_result_total_iterations(r) == 3);
    fb_bench_free(b);

    /* a run fixed exactly (epochs and iterations both set: Google
     * Benchmark's Iterations(42)) runs as fixed under the runner's
     * min_time: one epoch of 42, not more epochs */
    c = (fake_clock){0, 1000, 0, 0};
    b = fake_bench(&c);
    fb__bench_set_min_time(b, 0.01);
    fb_set_warmup(b, 0);
    fb_set_epochs(b, 1);
    fb_set_epoch_iterations(b, 42);
    r = fb_run(b, "fixed", fake_clock_op, &c);
    CHECK(r && fb_result_epochs(r) == 1 && fb_result_total_iterations(r) == 42);
    fb_bench_free(b);
    /* iterations alone fixed: min_time still adds epochs of that size */
    c = (fake_clock){0, 1000, 0, 0};
    b = fake_bench(&c);
    fb__bench_set_min_time(b, 0.01);
    fb_set_epoch_iterations(b, 42);
    r = fb_run(b, "iterations only", fake_clock_op, &c);
    CHECK(r && fb_result_total_s(r) >= 0.01 && fb_result_iterations(r, 0) == 42);
    fb_bench_free(b);
}

/* fb_set_time_unit: the table's header and values use the unit; bad input
 * keeps the previous unit. */
static void test_time_unit(void) {
    fake_clock c = {0, 2500, 0, 0}; /* 2.5 us an op */
    fb_bench *b = fake_bench(&c);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    fb_set_output(b, f);
    fb_set_epochs(b, 3);
    fb_set_time_unit(b, 1e-6, "us");
    fb_set_time_unit(b, 0, "bad");   /* refused */
    fb_set_time_unit(b, NAN, "bad"); /* refused */
    fb_set_time_unit(b, 1e-3, NULL); /* refused */
    const fb_result *r = fb_run(b, "tu", fake_clock_op, &c);
    fclose(f);
    CHECK(r && fb_result_epochs(r) == 3);
    CHECK(r && strcmp(r->config.time_unit_label, "us") == 0 && r->config.time_unit_s == 1e-6);
    CHECK(buf && strstr(buf, "us/op |") != NULL);
    CHECK(buf && strstr(buf, "|                2.50 |") != NULL);
    free(buf);
    fb_bench_free(b);
}

static void test_time_unit_and_getters(void) {
    fb_bench *b = fb_bench_new();
    CHECK_STR(fb_unit(b), "op");
    CHECK_STR(fb_title(b), "benchmark");
    CHECK(fb_batch(b) == 1.0);
    CHECK(fb_complexity_n(b) == 0);
    fb_set_complexity_n(b, 42);
    CHECK(fb_complexity_n(b) == 42);
    fb_set_unit(b, "byte");
    fb_set_batch(b, 64);
    CHECK_STR(fb_unit(b), "byte");
    CHECK(fb_batch(b) == 64);
    CHECK(fb_result_count(b) == 0 && fb_last_result(b) == NULL);
    CHECK_STR(fb_version(), FB_VERSION_STRING);
    CHECK_STR(fb_measure_name(FB_CPUCYCLES), "cpucycles");
    CHECK(fb_measure_name(FB_MEASURE_COUNT) == NULL);
    CHECK(strcmp(fb_strerror(FB_EINVAL), "invalid argument") == 0);
    fb_bench_free(b);
}

static void test_rng(void) {
    fb_rng a, b;
    fb_rng_seed(&a, 7);
    fb_rng_seed(&b, 7);
    CHECK(fb_rng_u64(&a) == fb_rng_u64(&b));
    fb_rng_seed(&b, 8);
    CHECK(fb_rng_u64(&a) != fb_rng_u64(&b));
    unsigned hist[10] = {0};
    double sum = 0;
    for (int i = 0; i < 100000; ++i) {
        uint32_t v = fb_rng_bounded(&a, 10);
        CHECK(v < 10);
        hist[v]++;
        double u = fb_rng_uniform01(&a);
        CHECK(u >= 0 && u < 1);
        sum += u;
    }
    for (int i = 0; i < 10; ++i) CHECK(hist[i] > 9500 && hist[i] < 10500);
    CHECK_NEAR(sum / 100000, 0.5, 0.01);
}

int main(void) {
    unsetenv("FEMTOBENCH_CONFIG");
    unsetenv("FEMTOBENCH_ENDLESS");
    test_constant_op();
    test_fb_run_and_FB_RUN_agree();
    test_optimized_away();
    test_loop_marks();
    test_slow_op_is_bounded();
    test_exact_iterations_with_warmup();
    test_min_epoch_iterations();
    test_break_is_an_error();
    test_statistics_and_unstable();
    test_unstable_at_five_percent();
    test_config_layers();
    test_upscaling_schedule();
    test_endless();
    test_nested_run_is_refused();
    test_time_unit_and_getters();
    test_min_time_with_own_epochs();
    test_job_configure();
    test_config_set_and_target();
    test_time_unit();
    test_rng();
    return CHECK_DONE();
}
