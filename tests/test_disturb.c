/* Under the fake clock: disturbed epochs are dropped and replaced,
 * explicit epochs are run or explained, an unstable run measures longer. */
#include "check.h"
#include "fake_clock.h"
#include "internal.h"

#include <stdlib.h>

/* A fake disturbance source: the epochs (counted from the first epoch the
 * run times, upscaling included) listed in `bad` are descheduled; each of
 * them also costs `extra_ns` more per op call, as a deschedule does. */
typedef struct fake_disturb {
    fake_clock clock;
    uint64_t reads; /* two per epoch: before and after */
    uint64_t count; /* the "context switches" so far */
    const int *bad;
    size_t n_bad;
    uint64_t extra_ns;
    bool all_bad;
} fake_disturb;

static bool fake_disturb_now_bad(const fake_disturb *d, uint64_t epoch) {
    if (d->all_bad) return true;
    for (size_t i = 0; i < d->n_bad; ++i)
        if ((uint64_t)d->bad[i] == epoch) return true;
    return false;
}

static uint64_t fake_disturb_read(void *ctx) {
    fake_disturb *d = ctx;
    uint64_t epoch = d->reads / 2;
    if (d->reads % 2 == 1 && fake_disturb_now_bad(d, epoch)) d->count++;
    d->reads++;
    return d->count;
}

static void fake_disturb_op(void *ctx) {
    fake_disturb *d = ctx;
    d->clock.now_ns += d->clock.cost_ns;
    /* reads is odd inside an epoch: epoch (reads - 1) / 2 is running */
    if (fake_disturb_now_bad(d, (d->reads - 1) / 2)) d->clock.now_ns += d->extra_ns;
}

static fb_bench *disturbed_bench(fake_disturb *d) {
    fb_bench *b = fake_bench(&d->clock);
    fb__bench_set_disturbance(b, fake_disturb_read, d);
    return b;
}

static void test_disturbed_epochs_are_dropped_and_replaced(void) {
    static const int bad[] = {2, 5};
    fake_disturb d = {{0, 100, 0, 0}, 0, 0, bad, 2, 50, false};
    fb_bench *b = disturbed_bench(&d);
    fb_set_epoch_iterations(b, 1000); /* no upscaling: epoch k is recorded epoch k */
    const fb_result *r = fb_run(b, "disturbed", fake_disturb_op, &d);
    CHECK(r && !fb_result_error(r));
    /* 11 undisturbed epochs: the two disturbed ones were replaced */
    CHECK(fb_result_epochs(r) == 13);
    CHECK(fb_result_disturbed_epochs(r) == 2);
    CHECK(fb_result_used_epochs(r) == 11);
    CHECK(r->disturb_known);
    CHECK(r->epoch_flags[2] == (FB__EPOCH_DISTURBED | FB__EPOCH_DROPPED));
    CHECK(r->epoch_flags[5] == (FB__EPOCH_DISTURBED | FB__EPOCH_DROPPED));
    CHECK(r->epoch_flags[0] == 0 && r->epoch_flags[12] == 0);
    /* the file keeps them; the statistics do not see them */
    CHECK_NEAR(fb_result_value(r, FB_ELAPSED, 2), 150e-9, 1e-15);
    CHECK_NEAR(fb_result_max(r, FB_ELAPSED), 100e-9, 1e-15);
    CHECK_NEAR(fb_result_median(r, FB_ELAPSED), 100e-9, 1e-15);
    CHECK_NEAR(fb_result_err_pct(r, FB_ELAPSED), 0, 1e-12);
    CHECK(r->stopped_by == FB__STOP_EPOCHS);
    fb_bench_free(b);
}

/* Automatic iterations: a descheduled epoch does not shorten the epochs
 * after it. 100 ns calls, 250 us epochs (2500-3000 calls); one epoch reads
 * 10x slow. Planned with, it made the following epochs ~1000 calls long. */
static void test_disturbed_epoch_does_not_plan_the_next(void) {
    /* upscaling times epochs 0-3 (1, 10, 100 and 1000 calls); epoch 4
     * (~2750 calls) is the first recorded, epoch 6 the third */
    static const int bad[] = {6};
    fake_disturb d = {{0, 100, 0, 0}, 0, 0, bad, 1, 900, false};
    fb_bench *b = disturbed_bench(&d);
    const fb_result *r = fb_run(b, "planned", fake_disturb_op, &d);
    CHECK(r && !fb_result_error(r));
    CHECK(fb_result_disturbed_epochs(r) == 1);
    CHECK(r->epoch_flags[2] & FB__EPOCH_DISTURBED);
    CHECK(fb_result_iterations(r, 2) >= 2500);
    /* every epoch after it is planned from the undisturbed ones: 250 us */
    size_t later = 0;
    for (size_t i = 3; i < fb_result_epochs(r); ++i, ++later)
        CHECK(fb_result_iterations(r, i) >= 2500 && fb_result_iterations(r, i) < 3000);
    CHECK(later >= 9);
    CHECK_NEAR(fb_result_median(r, FB_ELAPSED), 100e-9, 1e-15);
    fb_bench_free(b);

    /* the first recorded epoch disturbed: no clean epoch to plan from, so
     * the next keeps its count, until a clean one exists */
    static const int first[] = {4};
    d = (fake_disturb){{0, 100, 0, 0}, 0, 0, first, 1, 900, false};
    b = disturbed_bench(&d);
    r = fb_run(b, "first", fake_disturb_op, &d);
    CHECK(r && !fb_result_error(r));
    CHECK(r->epoch_flags[0] & FB__EPOCH_DISTURBED);
    uint64_t n0 = fb_result_iterations(r, 0);
    CHECK(fb_result_iterations(r, 1) >= n0 && fb_result_iterations(r, 1) <= n0 * 6 / 5);
    for (size_t i = 2; i < fb_result_epochs(r); ++i)
        CHECK(fb_result_iterations(r, i) >= 2500 && fb_result_iterations(r, i) < 3000);
    fb_bench_free(b);
}

static void test_all_disturbed_is_capped_and_kept(void) {
    fake_disturb d = {{0, 100, 0, 0}, 0, 0, NULL, 0, 0, true};
    fb_bench *b = disturbed_bench(&d);
    fb_set_epoch_iterations(b, 1000);
    const fb_result *r = fb_run(b, "always", fake_disturb_op, &d);
    /* no replacement when most epochs are disturbed; with no clean epoch
     * all are kept */
    CHECK(fb_result_epochs(r) == 11);
    CHECK(fb_result_disturbed_epochs(r) == 11);
    CHECK(fb_result_used_epochs(r) == 11);
    CHECK(r->stopped_by == FB__STOP_CAP);
    fb_bench_free(b);

    /* too few clean ones (2 < 3) also keeps them all */
    static const int most[] = {0,  1,  2,  3,  4,  5,  6,  7,  8,  9,
                               10, 11, 12, 13, 14, 15, 16, 17, 18, 19};
    d = (fake_disturb){{0, 100, 0, 0}, 0, 0, most, 20, 0, false};
    b = disturbed_bench(&d);
    fb_set_epoch_iterations(b, 1000);
    r = fb_run(b, "mostly", fake_disturb_op, &d);
    CHECK(fb_result_epochs(r) == 11 && r->stopped_by == FB__STOP_CAP);
    CHECK(fb_result_disturbed_epochs(r) == 11);
    CHECK(fb_result_used_epochs(r) == 11);
    fb_bench_free(b);

    /* 5 of the first 11 disturbed: still mostly clean, so replaced, up to
     * twice the epochs */
    static const int some[] = {1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21};
    d = (fake_disturb){{0, 100, 0, 0}, 0, 0, some, 11, 0, false};
    b = disturbed_bench(&d);
    fb_set_epoch_iterations(b, 1000);
    r = fb_run(b, "every other", fake_disturb_op, &d);
    CHECK(fb_result_epochs(r) == 21 && r->stopped_by == FB__STOP_EPOCHS);
    CHECK(fb_result_disturbed_epochs(r) == 10);
    CHECK(fb_result_used_epochs(r) == 11);
    fb_bench_free(b);
}

static void test_custom_clock_has_no_default_source(void) {
    fake_clock c = {0, 100, 0, 0};
    fb_bench *b = fake_bench(&c);
    const fb_result *r = fb_run(b, "plain", fake_clock_op, &c);
    CHECK(!r->disturb_known && fb_result_disturbed_epochs(r) == 0);
    CHECK(fb_result_used_epochs(r) == 11);
    fb_bench_free(b);
    /* the default source reads the thread's context switches on Linux */
#if FB_HAVE_LINUX
    CHECK(fb__disturb_thread(NULL) != FB__DISTURB_UNKNOWN);
#endif
}

static void test_select_rule(void) {
    unsigned char f[6] = {FB__EPOCH_SUPERSEDED, FB__EPOCH_SUPERSEDED, 0, FB__EPOCH_DISTURBED, 0, 0};
    CHECK(fb__disturb_select(f, 6) == 3);
    CHECK((f[0] & FB__EPOCH_DROPPED) && (f[1] & FB__EPOCH_DROPPED) && (f[3] & FB__EPOCH_DROPPED));
    CHECK(!(f[2] & FB__EPOCH_DROPPED) && !(f[4] & FB__EPOCH_DROPPED));
    /* dropping the disturbed one would leave 2: it stays */
    unsigned char g[3] = {0, FB__EPOCH_DISTURBED, 0};
    CHECK(fb__disturb_select(g, 3) == 3 && !(g[1] & FB__EPOCH_DROPPED));
}

static char *diag_buf;
static size_t diag_len;

static const fb_result *run_slow(fb_bench *b, fake_clock *c, FILE **diag) {
    *diag = open_memstream(&diag_buf, &diag_len);
    fb_set_diagnostics(b, *diag);
    const fb_result *r = fb_run(b, "sha", fake_clock_op, c);
    fclose(*diag);
    return r;
}

static void test_explicit_epochs_are_run(void) {
    FILE *diag;
    /* 10 ms per call: by default the 20 ms budget stops after 3 epochs,
     * silently (docs/design.md, "Time budget") */
    fake_clock c = {0, 10000000, 0, 0};
    fb_bench *b = fake_bench(&c);
    const fb_result *r = run_slow(b, &c, &diag);
    CHECK(fb_result_epochs(r) == 3 && r->stopped_by == FB__STOP_BUDGET);
    CHECK(diag_len == 0);
    free(diag_buf);
    fb_bench_free(b);

    /* epochs asked for in code, by FEMTOBENCH_CONFIG or by the command line are run */
    for (int layer = FB__LAYER_ENV; layer <= FB__LAYER_CLI; ++layer) {
        c = (fake_clock){0, 10000000, 0, 0};
        b = fake_bench(&c);
        fb__cfg_set(b, layer, FB__K_EPOCHS, 21);
        r = run_slow(b, &c, &diag);
        CHECK(fb_result_epochs(r) == 21 && r->stopped_by == FB__STOP_EPOCHS);
        CHECK(r->epochs_explicit && r->epochs_asked == 21);
        CHECK(diag_len == 0);
        free(diag_buf);
        fb_bench_free(b);
    }

    /* with an explicit budget too, the budget wins, and a note says so */
    c = (fake_clock){0, 10000000, 0, 0};
    b = fake_bench(&c);
    fb_set_epochs(b, 21);
    fb_set_max_total_time(b, 0.055);
    r = run_slow(b, &c, &diag);
    CHECK(fb_result_epochs(r) == 6 && r->stopped_by == FB__STOP_BUDGET);
    CHECK(strstr(diag_buf, "femtobench: 'sha': 6 of the 21 epochs asked for (0 disturbed): "
                           "max_total_time was spent; raise it\n") != NULL);
    free(diag_buf);
    fb_bench_free(b);

    /* the cap on explicit epochs: 5 s calls stop at 60 s, with a note */
    c = (fake_clock){0, 5000000000u, 0, 0};
    b = fake_bench(&c);
    fb_set_epochs(b, 21);
    r = run_slow(b, &c, &diag);
    CHECK(fb_result_epochs(r) == 12 && r->stopped_by == FB__STOP_BUDGET);
    CHECK(strstr(diag_buf, "the 60 s cap") != NULL);
    free(diag_buf);
    fb_bench_free(b);
}

/* 100 ns per call, and interruptions of 20 us at random calls (1 in 700):
 * epochs of ~2500 calls (250 us) see 0 to 8 of them and spread widely (err%
 * ~8%); epochs four times longer average them out (err% ~4%). */
static uint64_t burst_state;
static void burst_op(void *ctx) {
    fake_clock *c = ctx;
    c->now_ns += 100;
    burst_state ^= burst_state << 13; /* xorshift64 */
    burst_state ^= burst_state >> 7;
    burst_state ^= burst_state << 17;
    if (burst_state % 700 == 0) c->now_ns += 20000;
}
#define BURST_SEED 88172645463325252u

static void test_unstable_run_measures_longer(void) {
    fake_clock c = {0, 0, 0, 0};
    fb_bench *b = fake_bench(&c);
    burst_state = BURST_SEED;
    const fb_result *r = fb_run(b, "bursty", burst_op, &c);
    CHECK(r && !fb_result_error(r));
    CHECK(r->rounds >= 1);
    CHECK(fb_result_epochs(r) > 11);
    CHECK(fb_result_used_epochs(r) == 11);
    CHECK(r->epoch_flags[0] & FB__EPOCH_SUPERSEDED);
    CHECK(!(r->epoch_flags[fb_result_epochs(r) - 1] & FB__EPOCH_DROPPED));
    CHECK(fb_result_err_pct(r, FB_ELAPSED) < 5.0);
    CHECK(r->total_s <= 0.020 + 0.005); /* within the budget (one epoch may overrun) */
    printf("bursty: %zu epochs, %u rounds, err%% %.2f, total %.2f ms\n", fb_result_epochs(r),
           r->rounds, fb_result_err_pct(r, FB_ELAPSED), r->total_s * 1e3);
    fb_bench_free(b);

    /* the same op with explicit epochs: no second round, the noise is shown */
    c = (fake_clock){0, 0, 0, 0};
    b = fake_bench(&c);
    burst_state = BURST_SEED;
    fb_set_epochs(b, 11);
    r = fb_run(b, "bursty explicit", burst_op, &c);
    CHECK(r->rounds == 0 && fb_result_epochs(r) == 11);
    CHECK(fb_result_unstable(r));
    fb_bench_free(b);

    /* and with a budget too small for a longer round */
    c = (fake_clock){0, 0, 0, 0};
    b = fake_bench(&c);
    burst_state = BURST_SEED;
    fb_set_max_total_time(b, 0.001);
    r = fb_run(b, "bursty small budget", burst_op, &c);
    CHECK(r->rounds == 0);
    fb_bench_free(b);
}

/* The core probe: injected values, one per call (before the
 * first epoch, after the last). */
static double probe_values[2];
static int probe_calls;
static double fake_probe(void *ctx) {
    (void)ctx;
    return probe_values[probe_calls++ % 2];
}

static void test_slow_core_is_marked(void) {
    unsetenv("FEMTOBENCH_SUPPRESS_WARNINGS"); /* the marker is suppressed with the warnings */
    fb__process_reload();
    fake_clock c = {0, 100, 0, 0};
    fb_bench *b = fake_bench(&c);
    char *buf = NULL, *json = NULL;
    size_t len = 0, jlen = 0;
    FILE *f = open_memstream(&buf, &len);
    fb_set_output(b, f);
    fb__bench_set_probe(b, fake_probe, NULL);
    probe_values[0] = 1.02, probe_values[1] = 1.05, probe_calls = 0;
    const fb_result *r = fb_run(b, "normal", fake_clock_op, &c);
    CHECK(probe_calls == 2 && !r->slow_core);
    CHECK_NEAR(r->probe[0], 1.02, 1e-12);
    CHECK_NEAR(r->probe[1], 1.05, 1e-12);
    /* slow after the run: marked at once, no wait and no second
     * measurement (two probes in all) */
    probe_values[0] = 1.0, probe_values[1] = 2.1, probe_calls = 0;
    r = fb_run(b, "episode", fake_clock_op, &c);
    CHECK(r->slow_core && r->remeasured == 0 && probe_calls == 2);
    CHECK(fb_result_epochs(r) == 11);
    fclose(f);
    /* the row measured in a slow episode is marked, the other is not */
    CHECK(strstr(buf, "| `normal`\n") != NULL);
    CHECK(strstr(buf, "| :snail: `episode` (core in a slow episode: a 1-cycle loop ran at 2.1 "
                      "cycles)\n") != NULL);
    /* the JSON records the probe */
    FILE *jf = open_memstream(&json, &jlen);
    CHECK(fb_write_json(b, jf) == FB_OK);
    fclose(jf);
    CHECK(strstr(json, "\"probe\": {\"before\": 1, \"after\": 2.1, \"slow\": true, "
                       "\"remeasured\": 0}") != NULL);
    CHECK(strstr(json, "\"probe\": {\"before\": 1.02, \"after\": 1.05, \"slow\": false, "
                       "\"remeasured\": 0}") != NULL);
    free(buf);
    free(json);
    fb_bench_free(b);

    /* -quiet and FEMTOBENCH_SUPPRESS_WARNINGS drop the marker, as they drop :wavy_dash: */
    setenv("FEMTOBENCH_SUPPRESS_WARNINGS", "1", 1);
    fb__process_reload();
    c = (fake_clock){0, 100, 0, 0};
    b = fake_bench(&c);
    buf = NULL;
    f = open_memstream(&buf, &len);
    fb_set_output(b, f);
    fb__bench_set_probe(b, fake_probe, NULL);
    probe_values[0] = 2.0, probe_values[1] = 2.0, probe_calls = 0;
    r = fb_run(b, "episode", fake_clock_op, &c);
    fclose(f);
    CHECK(r->slow_core && strstr(buf, "| `episode`\n") != NULL && !strstr(buf, ":snail:"));
    free(buf);
    fb_bench_free(b);
    unsetenv("FEMTOBENCH_SUPPRESS_WARNINGS");
    fb__process_reload();

    /* a custom clock without an injected probe: none */
    c = (fake_clock){0, 100, 0, 0};
    b = fake_bench(&c);
    r = fb_run(b, "plain", fake_clock_op, &c);
    CHECK(isnan(r->probe[0]) && isnan(r->probe[1]) && !r->slow_core);
    fb_bench_free(b);
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    /* the real kernel gives a ratio (its value depends on the machine) */
    double p = fb__probe_core(NULL);
    CHECK(isfinite(p) && p > 0);
#endif
}

/* A slow episode that ends during the run: the run is not measured again
 * (waiting for a clean core and measuring again cost 16-73 ms of wall time
 * a fast benchmark); it keeps its one measurement and is marked. Probes:
 * before 1.0, after 1.9. */
static const double episode_seq[] = {1.0, 1.9, 1.8, 1.0, 1.01};
static size_t episode_i;
static double episode_probe(void *ctx) {
    (void)ctx;
    return episode_i < 5 ? episode_seq[episode_i++] : 1.0;
}
static void episode_op(void *ctx) {
    fake_clock *c = ctx;
    c->now_ns += 100;
}

static void test_slow_episode_is_marked_not_remeasured(void) {
    fake_clock c = {0, 0, 0, 0};
    fb_bench *b = fake_bench(&c);
    fb__bench_set_probe(b, episode_probe, NULL);
    episode_i = 0;
    uint64_t t0 = c.now_ns;
    const fb_result *r = fb_run(b, "episode", episode_op, &c);
    CHECK(episode_i == 2); /* the probe before and after: no wait */
    CHECK(r->remeasured == 0 && r->slow_core);
    CHECK_NEAR(r->probe[0], 1.0, 1e-12);
    CHECK_NEAR(r->probe[1], 1.9, 1e-12);
    CHECK(fb_result_epochs(r) == 11);
    /* one measurement's time: upscaling plus 11 epochs of ~250 us, not two */
    CHECK((double)(c.now_ns - t0) * 1e-9 < 11 * 1.2 * 250e-6 + 0.0005);
    fb_bench_free(b);
}

int main(void) {
    test_slow_episode_is_marked_not_remeasured();
    test_slow_core_is_marked();
    test_disturbed_epochs_are_dropped_and_replaced();
    test_disturbed_epoch_does_not_plan_the_next();
    test_all_disturbed_is_capped_and_kept();
    test_custom_clock_has_no_default_source();
    test_select_rule();
    test_explicit_epochs_are_run();
    test_unstable_run_measures_longer();
    return CHECK_DONE();
}
