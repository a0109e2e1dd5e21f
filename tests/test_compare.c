/* The paired comparison (src/run/compare.c), driven by fake clocks. */
#include "check.h"
#include "internal.h"
#include "fake_clock.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A fake world: time moves only when an op runs. Each alternative's op costs
 * cost_ns[i] per call, times a drift factor (linear in time: drift_per_ns)
 * and a noise factor drawn afresh at every clock read. The clock records the
 * alternative of each epoch and the time of each read. */
#define W_MAX_TRACE 100000
typedef struct world {
    double now_ns;
    double cost_ns[4];
    double drift_per_ns; /* factor = 1 + drift_per_ns * now */
    double noise;        /* factor = 1 + noise * U(-1, 1), per epoch */
    double noise_factor;
    double read_cost_ns; /* what a clock read adds to the time (0: nothing) */
    fb_rng rng;
    int last_alt;
    size_t n_trace;
    int trace[W_MAX_TRACE];          /* alternative of each epoch */
    uint64_t reads[2 * W_MAX_TRACE]; /* every clock reading */
    size_t n_reads;
} world;

static uint64_t world_now(void *ctx) {
    world *w = ctx;
    if (w->last_alt >= 0 && w->n_trace < W_MAX_TRACE) w->trace[w->n_trace++] = w->last_alt;
    w->last_alt = -1;
    w->noise_factor = 1 + w->noise * (2 * fb_rng_uniform01(&w->rng) - 1);
    uint64_t t = (uint64_t)w->now_ns;
    if (w->n_reads < 2 * W_MAX_TRACE) w->reads[w->n_reads++] = t;
    w->now_ns += w->read_cost_ns;
    return t;
}

static void world_init(world *w, double c0, double c1, double c2) {
    memset(w, 0, sizeof *w);
    w->cost_ns[0] = c0;
    w->cost_ns[1] = c1;
    w->cost_ns[2] = c2;
    w->last_alt = -1;
    w->noise_factor = 1;
    fb_rng_seed(&w->rng, 42);
}

static inline void world_step(world *w, int alt) {
    w->last_alt = alt;
    w->now_ns += w->cost_ns[alt] * (1 + w->drift_per_ns * w->now_ns) * w->noise_factor;
}

typedef struct alt_ctx {
    world *w;
    int alt;
} alt_ctx;

static void world_op(void *ctx) {
    alt_ctx *a = ctx;
    world_step(a->w, a->alt);
}

static fb_bench *world_bench(world *w) {
    fb_bench *b = fb_bench_new();
    fb_set_clock(b, world_now, w, 1e-9);
    fb_set_output(b, NULL);
    fb_set_performance_counters(b, false);
    return b;
}

/* Compares alternatives 0..k-1 of w with fb_compare. */
static const fb_comparison *world_compare(fb_bench *b, world *w, size_t k) {
    static alt_ctx ctx[4];
    static const char *const names[4] = {"A", "B", "C", "D"};
    fb_alternative alts[4];
    for (size_t i = 0; i < k; ++i) {
        ctx[i].w = w;
        ctx[i].alt = (int)i;
        alts[i].name = names[i];
        alts[i].op = world_op;
        alts[i].ctx = &ctx[i];
    }
    return fb_compare(b, "world", alts, k);
}

static void test_identical(void) {
    world w;
    world_init(&w, 100, 100, 0);
    fb_bench *b = world_bench(&w);
    const fb_comparison *c = world_compare(b, &w, 2);
    CHECK(c != NULL);
    CHECK(c == fb_last_comparison(b));
    CHECK(fb_comparison_count(b) == 1);
    CHECK(fb_comparison_size(c) == 2);
    CHECK_STR(fb_comparison_name(c, 0), "A");
    CHECK_STR(fb_comparison_name(c, 1), "B");
    CHECK_STR(fb_comparison_title(c), "world");
    /* exactly 1; every round tied, and the interval is what the clock
     * resolves: a step of the clock in each side's epoch, no narrower */
    CHECK(fb_comparison_ratio(c, 0) == 1.0);
    CHECK(fb_comparison_ratio(c, 1) == 1.0);
    double epoch_s = fb_result_median(fb_comparison_result(c, 0), FB_ELAPSED) *
                     (double)fb_comparison_iterations(c);
    double q = 2 * 1e-9 / epoch_s;
    CHECK(fabs(log(fb_comparison_high(c, 1)) - q) < 1e-9 * q + 1e-15);
    CHECK(fabs(log(fb_comparison_low(c, 1)) + q) < 1e-9 * q + 1e-15);
    CHECK(fb_comparison_low(c, 1) < 1.0 && fb_comparison_high(c, 1) > 1.0);
    CHECK(!fb_comparison_significant(c, 1));
    CHECK(!fb_comparison_significant(c, 0));
    CHECK(fb_comparison_rounds(c) == 30); /* the default */
    CHECK(fb_comparison_tied(c, 1) == 30);
    CHECK_NEAR(fb_comparison_confidence(c), 0.95, 1e-12);
    for (size_t r = 0; r < fb_comparison_rounds(c); ++r)
        CHECK(fb_comparison_log_ratio(c, 1, r) == 0.0);
    CHECK(isnan(fb_comparison_log_ratio(c, 1, 30)));
    CHECK(fb_comparison_name(c, 2) == NULL);
    CHECK(isnan(fb_comparison_ratio(c, 2)));
    /* each side's epochs are an ordinary result */
    const fb_result *r = fb_comparison_result(c, 1);
    CHECK(r != NULL && fb_result_error(r) == NULL);
    CHECK(fb_result_epochs(r) == 30);
    CHECK_NEAR(fb_result_median(r, FB_ELAPSED), 100e-9, 1e-15);
    CHECK_STR(fb_result_title(r), "world");
    CHECK_STR(fb_result_name(r), "B");
    /* results of runs are separate */
    CHECK(fb_result_count(b) == 0);
    fb_bench_free(b);
}

/* The shared iteration count: the same for every epoch of every side, set
 * by the slowest (250 us at 300 ns = 834), as long as the fastest's epoch
 * stays over 1000 clock ticks. */
static void test_shared_iterations(void) {
    world w;
    world_init(&w, 300, 100, 0);
    fb_bench *b = world_bench(&w);
    const fb_comparison *c = world_compare(b, &w, 2);
    CHECK(c != NULL);
    CHECK(fb_comparison_iterations(c) == 834);
    for (size_t i = 0; i < 2; ++i) {
        const fb_result *r = fb_comparison_result(c, i);
        CHECK(fb_result_epochs(r) == fb_comparison_rounds(c));
        for (size_t e = 0; e < fb_result_epochs(r); ++e) CHECK(fb_result_iterations(r, e) == 834);
    }
    CHECK_NEAR(fb_comparison_ratio(c, 1), 3.0, 1e-12);
    CHECK(fb_comparison_significant(c, 1));
    CHECK(fb_comparison_fastest(c) == 1);
    fb_bench_free(b);
    /* a coarse clock (10 us ticks): the fastest's epoch must span 1000 of
     * them, so the count rises to 10 ms / 100 ns = 100000 */
    world_init(&w, 300, 100, 0);
    b = world_bench(&w);
    fb_set_clock(b, world_now, &w, 10e-6);
    c = world_compare(b, &w, 2);
    CHECK(c != NULL && fb_comparison_iterations(c) == 100000);
    /* an exact count from the configuration is used as is */
    fb_set_epoch_iterations(b, 777);
    c = world_compare(b, &w, 2);
    CHECK(c != NULL && fb_comparison_iterations(c) == 777);
    CHECK(fb_result_iterations(fb_comparison_result(c, 0), 0) == 777);
    CHECK(fb_comparison_count(b) == 2);
    fb_bench_free(b);
}

/* The measuring epochs follow cyclic Latin squares: each block of K rounds
 * has every alternative once per round and once in each position. */
static void check_latin(const world *w, size_t k, size_t rounds) {
    CHECK(w->n_trace >= rounds * k);
    const int *t = w->trace + (w->n_trace - rounds * k);
    for (size_t block = 0; block < rounds / k; ++block)
        for (size_t i = 0; i < k; ++i) {
            unsigned in_round = 0, in_pos = 0;
            for (size_t j = 0; j < k; ++j) {
                in_round |= 1u << t[(block * k + i) * k + j]; /* round i of the block */
                in_pos |= 1u << t[(block * k + j) * k + i];   /* position i of each round */
            }
            CHECK(in_round == (1u << k) - 1);
            CHECK(in_pos == (1u << k) - 1);
        }
}

static void test_latin_square(void) {
    for (size_t k = 2; k <= 3; ++k) {
        world w;
        world_init(&w, 100, 120, 140);
        fb_bench *b = world_bench(&w);
        fb_set_epochs(b, 30);
        const fb_comparison *c = world_compare(b, &w, k);
        CHECK(c != NULL);
        CHECK(fb_comparison_rounds(c) == 30);
        check_latin(&w, k, 30);
        /* Bonferroni: the table, not each row, is at 95% */
        CHECK_NEAR(fb_comparison_confidence(c), 1 - 0.05 / (double)(k - 1), 1e-12);
        fb_bench_free(b);
    }
    /* FEMTOBENCH_CONFIG applies (code wins over it) */
    {
        setenv("FEMTOBENCH_CONFIG", "epochs=10", 1);
        fb__process_reload(); /* the environment is read once per process */
        world w;
        world_init(&w, 100, 120, 140);
        fb_bench *b = world_bench(&w);
        unsetenv("FEMTOBENCH_CONFIG");
        fb__process_reload();
        const fb_comparison *c = world_compare(b, &w, 2);
        CHECK(c != NULL && fb_comparison_rounds(c) == 10);
        fb_set_epochs(b, 14);
        c = world_compare(b, &w, 2);
        CHECK(c != NULL && fb_comparison_rounds(c) == 14);
        fb_bench_free(b);
    }
    /* rounds are whole blocks, and enough for an interval */
    world w;
    world_init(&w, 100, 120, 140);
    fb_bench *b = world_bench(&w);
    fb_set_epochs(b, 3);
    const fb_comparison *c = world_compare(b, &w, 2);
    CHECK(c != NULL && fb_comparison_rounds(c) == 6);
    c = world_compare(b, &w, 3);
    CHECK(c != NULL && fb_comparison_rounds(c) == 9); /* 7 at 97.5%, rounded up to 3s */
    CHECK(isfinite(fb_comparison_low(c, 1)));
    fb_bench_free(b);
}

/* A drift of 10% over the run, the same for all: pairing and the Latin
 * square cancel it; one run after the other does not. */
static void test_drift(void) {
    world w;
    fb_bench *b;
    for (int same = 0; same < 2; ++same) {
        world_init(&w, same ? 100 : 125, 100, 0);
        b = world_bench(&w);
        (void)world_compare(b, &w, 2);
        double span = w.now_ns; /* the run's length without drift */
        fb_bench_free(b);
        world_init(&w, same ? 100 : 125, 100, 0);
        w.drift_per_ns = 0.1 / span;
        b = world_bench(&w);
        const fb_comparison *c = world_compare(b, &w, 2);
        CHECK(c != NULL);
        CHECK(w.now_ns > span * 1.04); /* the drift did happen */
        double truth = same ? 1.0 : 1.25;
        CHECK_NEAR(fb_comparison_ratio(c, 1), truth, truth * 1e-4);
        CHECK(fb_comparison_low(c, 1) <= truth && truth <= fb_comparison_high(c, 1));
        CHECK(fb_comparison_significant(c, 1) == !same);
        fb_bench_free(b);
    }

    /* the control: the same drift over two runs one after the other */
    world_init(&w, 125, 100, 0);
    b = world_bench(&w);
    alt_ctx a0 = {&w, 0}, a1 = {&w, 1};
    (void)fb_run(b, "A", world_op, &a0);
    (void)fb_run(b, "B", world_op, &a1);
    double span = w.now_ns;
    fb_bench_free(b);
    world_init(&w, 125, 100, 0);
    w.drift_per_ns = 0.1 / span;
    b = world_bench(&w);
    double ta = fb_result_median(fb_run(b, "A", world_op, &a0), FB_ELAPSED);
    double tb = fb_result_median(fb_run(b, "B", world_op, &a1), FB_ELAPSED);
    CHECK(fabs(ta / tb - 1.25) > 0.04); /* about 5% off */
    fb_bench_free(b);
}

/* Noise of +-10% per epoch: a known ratio of 1.25 lies inside the interval,
 * which is narrow; identical sides are not separated. */
static void test_known_ratio_with_noise(void) {
    size_t covered = 0, separated_same = 0, trials = 20;
    for (size_t seed = 0; seed < trials; ++seed) {
        for (int same = 0; same < 2; ++same) {
            world w;
            world_init(&w, same ? 100 : 125, 100, 0);
            fb_rng_seed(&w.rng, 1000 + seed);
            w.noise = 0.1;
            fb_bench *b = world_bench(&w);
            const fb_comparison *c = world_compare(b, &w, 2);
            CHECK(c != NULL);
            double lo = fb_comparison_low(c, 1), hi = fb_comparison_high(c, 1);
            double truth = same ? 1.0 : 1.25;
            if (!same) {
                covered += lo <= truth && truth <= hi;
                CHECK(fb_comparison_significant(c, 1));
                CHECK(hi / lo < 1.15); /* with +-10% per epoch: narrow enough to act on */
                CHECK(fb_comparison_tied(c, 1) == 0);
            } else {
                separated_same += fb_comparison_significant(c, 1);
            }
            fb_bench_free(b);
        }
    }
    /* the first seed alone, and 95% intervals over all (binomially >= 17/20) */
    CHECK(covered >= 17);
    CHECK(separated_same <= 3);
}

/* The same comparison inline: the same schedule, read by read. */
static void test_inline_same_schedule(void) {
    static world w1, w2;
    world_init(&w1, 130, 100, 170);
    w1.noise = 0.05;
    fb_bench *b1 = world_bench(&w1);
    const fb_comparison *c1 = world_compare(b1, &w1, 3);

    world_init(&w2, 130, 100, 170);
    w2.noise = 0.05;
    fb_bench *b2 = world_bench(&w2);
    size_t passes = 0;
    FB_COMPARE(b2, "world") {
        ++passes; /* untimed code between epochs */
        FB_ALTERNATIVE("A") { world_step(&w2, 0); }
        FB_ALTERNATIVE("B") { world_step(&w2, 1); }
        FB_ALTERNATIVE("C") { world_step(&w2, 2); }
    }
    const fb_comparison *c2 = fb_last_comparison(b2);
    CHECK(c1 != NULL && c2 != NULL);
    CHECK(w1.n_reads == w2.n_reads);
    CHECK(w1.n_reads > 0 && memcmp(w1.reads, w2.reads, w1.n_reads * sizeof w1.reads[0]) == 0);
    CHECK(w1.n_trace == w2.n_trace);
    CHECK(memcmp(w1.trace, w2.trace, w1.n_trace * sizeof w1.trace[0]) == 0);
    if (passes != w2.n_trace + 1) fprintf(stderr, "passes %zu epochs %zu\n", passes, w2.n_trace);
    CHECK(passes == w2.n_trace + 1); /* one epoch per pass, plus the first pass */
    CHECK(fb_comparison_rounds(c1) == fb_comparison_rounds(c2));
    CHECK(fb_comparison_iterations(c1) == fb_comparison_iterations(c2));
    for (size_t i = 0; i < 3; ++i) {
        CHECK(fb_comparison_ratio(c1, i) == fb_comparison_ratio(c2, i));
        CHECK(fb_comparison_low(c1, i) == fb_comparison_low(c2, i));
        CHECK(fb_comparison_high(c1, i) == fb_comparison_high(c2, i));
        CHECK_STR(fb_comparison_name(c1, i), fb_comparison_name(c2, i));
    }
    CHECK(fb_comparison_fastest(c2) == 1);
    fb_bench_free(b1);
    fb_bench_free(b2);
}

/* Manual timing in a comparison: each alternative's epochs take the time
 * its body gave (fb_set_iteration_time), and an excluded region comes off
 * the clock's time, as in a run. */
static void test_manual_time_in_comparison(void) {
    fake_clock c = {0, 100, 0, 0};
    fb_bench *b = fake_bench(&c);
    fb_set_manual_time(b, true);
    FB_COMPARE(b, "manual") {
        FB_ALTERNATIVE("one") {
            fake_clock_op(&c); /* the clock says 100 ns; the body says 1 us */
            fb_set_iteration_time(b, 1e-6);
        }
        FB_ALTERNATIVE("two") {
            fake_clock_op(&c);
            fb_set_iteration_time(b, 2e-6);
        }
    }
    const fb_comparison *cmp = fb_last_comparison(b);
    CHECK(cmp && fb_comparison_size(cmp) == 2);
    if (cmp && fb_comparison_size(cmp) == 2) {
        CHECK_NEAR(fb_comparison_ratio(cmp, 1), 0.5, 1e-9);
        CHECK_NEAR(fb_comparison_low(cmp, 1), 0.5, 1e-4); /* the clock resolution widens it */
        CHECK_NEAR(fb_comparison_high(cmp, 1), 0.5, 1e-4);
        CHECK_NEAR(fb_result_median(fb_comparison_result(cmp, 0), FB_ELAPSED), 1e-6, 1e-12);
    }
    fb_bench_free(b);

    /* excluded: 300 of each iteration's 400 ns are left out of "slow" */
    c = (fake_clock){0, 100, 0, 0};
    b = fake_bench(&c);
    FB_COMPARE(b, "excluded") {
        FB_ALTERNATIVE("plain") { fake_clock_op(&c); }
        FB_ALTERNATIVE("slow") {
            fake_clock_op(&c);
            fb_exclude_begin(b);
            c.now_ns += 300;
            fb_exclude_end(b);
        }
    }
    cmp = fb_last_comparison(b);
    CHECK(cmp && fb_comparison_size(cmp) == 2);
    if (cmp && fb_comparison_size(cmp) == 2) CHECK_NEAR(fb_comparison_ratio(cmp, 1), 1.0, 0.02);
    fb_bench_free(b);
}

/* Hygiene: the user's own names, nested in other loops, next to FB_RUN. */
static void test_inline_hygiene(void) {
    fake_clock c = {0, 100, 0, 0};
    fb_bench *b = fake_bench(&c);
    int i = 0, n = 0, once = 0, s = 0, b_ = 0;
    for (int fb = 0; fb < 1; ++fb) {
        FB_COMPARE(b, "hygiene") {
            FB_ALTERNATIVE("x") {
                fake_clock_op(&c);
                ++i;
            }
            FB_ALTERNATIVE("y") {
                fake_clock_op(&c);
                ++n;
                if (n % 2) continue; /* ends one iteration early, still counts */
                ++once;
            }
        }
    }
    (void)s;
    (void)b_;
    const fb_comparison *cmp = fb_last_comparison(b);
    CHECK(cmp != NULL);
    CHECK(fb_comparison_ratio(cmp, 1) == 1.0);
    CHECK(i > 0 && n > 0 && once == n / 2);
    fb_bench_free(b);
}

static const fb_comparison *bad(fb_bench *b, const fb_alternative *alts, size_t n,
                                const char *expect) {
    FILE *out = tmpfile(), *results = tmpfile();
    fb_set_diagnostics(b, out); /* error lines go to the diagnostics stream */
    fb_set_output(b, results);  /* and nothing to the results (the header says so) */
    const fb_comparison *c = fb_compare(b, "bad", alts, n);
    fflush(out);
    fflush(results);
    CHECK(ftell(results) == 0);
    fb_set_output(b, NULL);
    fclose(results);
    char text[4096] = ""; /* the machine's warnings may come first */
    rewind(out);
    size_t got = fread(text, 1, sizeof text - 1, out);
    text[got] = '\0';
    if (!strstr(text, expect)) fprintf(stderr, "expected '%s' in '%s'\n", expect, text);
    CHECK(strstr(text, expect) != NULL);
    const char *line = strstr(text, "femtobench: error: comparison 'bad': ");
    CHECK(line && (line == text || line[-1] == '\n'));
    fb_set_diagnostics(b, NULL);
    fclose(out);
    return c;
}

static void test_bad_input(void) {
    fake_clock c = {0, 100, 0, 0};
    fb_bench *b = fake_bench(&c);
    fb_alternative one[1] = {{"a", fake_clock_op, &c}};
    CHECK(bad(b, one, 1, "needs at least two alternatives, got 1") == NULL);
    CHECK(bad(b, NULL, 0, "needs at least two alternatives, got 0") == NULL);
    CHECK(bad(b, NULL, 2, "needs at least two alternatives, got 0") == NULL);
    fb_alternative noop[2] = {{"a", fake_clock_op, &c}, {"b", NULL, NULL}};
    CHECK(bad(b, noop, 2, "alternative 1 has no op") == NULL);
    fb_alternative noname[2] = {{"a", fake_clock_op, &c}, {NULL, fake_clock_op, &c}};
    CHECK(bad(b, noname, 2, "alternative 1 has no name") == NULL);
    fb_alternative dup[3] = {
        {"a", fake_clock_op, &c}, {"b", fake_clock_op, &c}, {"a", fake_clock_op, &c}};
    CHECK(bad(b, dup, 3, "two alternatives are named `a`") == NULL);
    CHECK(c.calls == 0); /* nothing ran */
    CHECK(fb_comparison_count(b) == 0);
    CHECK(fb_compare(NULL, "x", one, 1) == NULL);

    /* the inline form: the same checks, nothing measured */
    FB_COMPARE(b, "lonely") {
        FB_ALTERNATIVE("only") { fake_clock_op(&c); }
    }
    FB_COMPARE(b, "twins") {
        FB_ALTERNATIVE("t") { fake_clock_op(&c); }
        FB_ALTERNATIVE("t") { fake_clock_op(&c); }
    }
    CHECK(c.calls == 0);
    CHECK(fb_last_comparison(b) == NULL);
    fb_bench_free(b);
}

/* More than 100 alternatives are refused before any epoch (every one runs
 * every round): one line, nothing run, counted as a run that recorded
 * nothing; 100 run, K x rounds epochs of them. */
static void test_alternatives_capped(void) {
    enum { K = 101 };
    fake_clock c = {0, 100, 0, 0};
    fb_bench *b = fake_bench(&c);
    fb_set_epoch_iterations(b, 1);
    static fb_alternative alts[K];
    static char names[K][8];
    for (int i = 0; i < K; ++i) {
        snprintf(names[i], sizeof names[i], "a%d", i);
        alts[i] = (fb_alternative){names[i], fake_clock_op, &c};
    }
    CHECK(bad(b, alts, K, "101 alternatives: at most 100 in one comparison") == NULL);
    CHECK(c.calls == 0 && fb_comparison_count(b) == 0 && b->dropped == 1);
    const fb_comparison *cmp = fb_compare(b, "hundred", alts, K - 1);
    CHECK(cmp != NULL && fb_comparison_size(cmp) == K - 1);
    CHECK(cmp != NULL && c.calls == (K - 1) * fb_comparison_rounds(cmp));
    fb_bench_free(b);
}

/* An alternative that costs nothing: an error row, as fb_run gives. */
static void test_optimized_away(void) {
    world w;
    world_init(&w, 100, 0, 0);
    fb_bench *b = world_bench(&w);
    const fb_comparison *c = world_compare(b, &w, 2);
    CHECK(c != NULL);
    CHECK(fb_comparison_rounds(c) == 0);
    const char *e1 = fb_result_error(fb_comparison_result(c, 1));
    const char *e0 = fb_result_error(fb_comparison_result(c, 0));
    CHECK(e1 && strstr(e1, "optimized away"));
    CHECK(e0 && strstr(e0, "not compared: `B` could not be measured"));
    CHECK(isnan(fb_comparison_ratio(c, 1)));
    CHECK(!fb_comparison_significant(c, 1));
    fb_bench_free(b);
}

/* break, an alternative skipped on a later pass, nesting: error rows. */
static void test_inline_misuse(void) {
    fake_clock c = {0, 100, 0, 0};
    fb_bench *b = fake_bench(&c);
    FB_COMPARE(b, "break") {
        FB_ALTERNATIVE("a") { fake_clock_op(&c); }
        FB_ALTERNATIVE("b") {
            fake_clock_op(&c);
            if (c.calls > 5000) break;
        }
    }
    const fb_comparison *cmp = fb_last_comparison(b);
    CHECK(cmp != NULL);
    const char *e = fb_result_error(fb_comparison_result(cmp, 1));
    CHECK(e && strstr(e, "`break`"));

    int pass = 0;
    FB_COMPARE(b, "skip") {
        FB_ALTERNATIVE("a") { fake_clock_op(&c); }
        if (++pass < 5) {
            FB_ALTERNATIVE("b") { fake_clock_op(&c); }
        }
    }
    cmp = fb_last_comparison(b);
    CHECK(cmp != NULL && fb_comparison_count(b) == 2);
    e = fb_result_error(fb_comparison_result(cmp, 0));
    CHECK(e && strstr(e, "same alternatives"));

#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wshadow" /* the misuse under test */
#endif
    FB_COMPARE(b, "outer") {
        FB_ALTERNATIVE("a") { fake_clock_op(&c); }
        FB_ALTERNATIVE("b") {
            fake_clock_op(&c);
            FB_ALTERNATIVE("c") { fake_clock_op(&c); }
        }
    }
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif
    cmp = fb_last_comparison(b);
    CHECK(cmp != NULL && fb_comparison_count(b) == 3);
    e = fb_result_error(fb_comparison_result(cmp, 1));
    CHECK(e && strstr(e, "inside another FB_ALTERNATIVE"));

    /* break out of the block itself: the bench stays usable */
    FB_COMPARE(b, "block break") {
        FB_ALTERNATIVE("a") { fake_clock_op(&c); }
        FB_ALTERNATIVE("b") { fake_clock_op(&c); }
        if (pass++ > 20) break;
    }
    cmp = fb_last_comparison(b);
    CHECK(cmp != NULL && fb_comparison_count(b) == 4);
    e = fb_result_error(fb_comparison_result(cmp, 0));
    CHECK(e && strstr(e, "FB_COMPARE's block"));
    CHECK(fb_run(b, "after", fake_clock_op, &c) != NULL);
    fb_bench_free(b);
}

/* Slow ops: bounded time, at least the rounds an interval needs. */
static void test_slow_ops_bounded(void) {
    world w;
    world_init(&w, 10e6, 12e6, 0); /* 10 and 12 ms per call */
    fb_bench *b = world_bench(&w);
    const fb_comparison *c = world_compare(b, &w, 2);
    CHECK(c != NULL);
    CHECK(fb_comparison_iterations(c) == 1);
    CHECK(fb_comparison_rounds(c) >= 6 && fb_comparison_rounds(c) < 20);
    CHECK(w.now_ns < 0.5e9);
    CHECK_NEAR(fb_comparison_ratio(c, 1), 10.0 / 12.0, 1e-9);
    fb_bench_free(b);
}

static void test_interval_math(void) {
    double v[8] = {6, 5, 4, 3, 2, 1};
    double med, lo, hi;
    CHECK(fb__cmp_interval(v, 6, 0.95, &med, &lo, &hi));
    CHECK(med == 3.5 && lo == 1 && hi == 6); /* k = 1: P(X = 0) = 1/64 <= 2.5% */
    double w[5] = {1, 2, 3, 4, 5};
    CHECK(!fb__cmp_interval(w, 5, 0.95, &med, &lo, &hi)); /* 1/32 > 2.5% */
    CHECK(med == 3 && isnan(lo));
    /* n = 20 at 95%: P(X <= 5) = 2.07% <= 2.5% < P(X <= 6) = 5.77%: k = 6 */
    double u[20];
    for (int i = 0; i < 20; ++i) u[i] = 20 - i;
    CHECK(fb__cmp_interval(u, 20, 0.95, &med, &lo, &hi));
    CHECK(lo == 6 && hi == 15 && med == 10.5);
    CHECK(fb__cmp_min_rounds(0.95) == 6);
    CHECK(fb__cmp_min_rounds(0.975) == 7);
    CHECK(fb__cmp_min_rounds(1 - 0.05 / 9) == 9);
}

/* Rounds with a context switch in any epoch are left out, while enough
 * remain for an interval. */
static void test_preempted_rounds(void) {
    /* 2 alternatives x 8 rounds (stride 10) */
    double sw[20] = {0};
    bool skip[8];
    CHECK(fb__cmp_preempted(sw, 2, 10, 8, 6, skip) == 0);
    sw[3] = 1;      /* alternative 0, round 3 */
    sw[10 + 5] = 2; /* alternative 1, round 5 */
    sw[10 + 3] = 1; /* round 3 again: counted once */
    CHECK(fb__cmp_preempted(sw, 2, 10, 8, 6, skip) == 2);
    CHECK(skip[3] && skip[5] && !skip[0] && !skip[4]);
    sw[7] = 0.25; /* scaled noise under one switch: not preempted */
    CHECK(fb__cmp_preempted(sw, 2, 10, 8, 6, skip) == 2 && !skip[7]);
    sw[0] = 1; /* 3 of 8 preempted: 5 < 6 would remain, so none is left out */
    CHECK(fb__cmp_preempted(sw, 2, 10, 8, 6, skip) == 0);
    for (int r = 0; r < 8; ++r) CHECK(!skip[r]);
}

/* Old-first and new-first rounds in equal numbers: the excess of one
 * order is left out, the latest first; nothing when they are balanced. */
static void test_balance_order(void) {
    bool skip[8] = {0};
    CHECK(fb__cmp_balance_order(skip, 8) == 0);
    for (int r = 0; r < 8; ++r) CHECK(!skip[r]);
    /* round 3 (odd: new first) left out: 4 even against 3 odd, so the
     * latest even round (6) goes too */
    skip[3] = true;
    CHECK(fb__cmp_balance_order(skip, 8) == 1);
    CHECK(skip[6] && skip[3] && !skip[4] && !skip[2] && !skip[0] && !skip[7]);
    /* rounds 0, 2 and 4 out: 1 even (6) against 4 odd (1, 3, 5, 7): 7, 5, 3 go */
    bool s2[8] = {true, false, true, false, true, false, false, false};
    CHECK(fb__cmp_balance_order(s2, 8) == 3);
    CHECK(s2[7] && s2[5] && s2[3] && !s2[1] && !s2[6]);
    /* an odd count of rounds: 5 rounds, 3 even and 2 odd, so round 4 goes */
    bool s3[5] = {0};
    CHECK(fb__cmp_balance_order(s3, 5) == 1 && s3[4] && !s3[0] && !s3[2]);
}

static void test_table_and_summary(void) {
    world w;
    world_init(&w, 125, 100, 0);
    fb_bench *b = world_bench(&w);
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    fb_set_output(b, out);
    (void)world_compare(b, &w, 2);
    fclose(out);
    CHECK(strstr(text, "| relative |              95% CI |") == text);
    CHECK(strstr(text, "|   125.0% | 125.0% .. 125.0% |") != NULL ||
          strstr(text, "125.0% .. 125.0%") != NULL);
    CHECK(strstr(text, "`B` ran 1.25x faster than `A`, 95% CI [1.25 .. 1.25], 30 paired rounds, "
                       "interleaved\n") != NULL);
    CHECK(strstr(text, "30 of 30 rounds tied") == NULL);
    free(text);

    /* three alternatives: the fastest against the runner-up */
    world_init(&w, 130, 100, 120);
    text = NULL;
    out = open_memstream(&text, &len);
    fb_set_output(b, out);
    (void)world_compare(b, &w, 3);
    fclose(out);
    CHECK(strstr(text, "`B` is fastest of 3, 1.20x ahead of `C`, 95% CI [1.20 .. 1.20] "
                       "(corrected for 2 comparisons), 30 paired rounds, interleaved\n") != NULL);
    free(text);

    /* identical: not separated, all rounds tied */
    world_init(&w, 100, 100, 0);
    text = NULL;
    out = open_memstream(&text, &len);
    fb_set_output(b, out);
    (void)world_compare(b, &w, 2);
    fclose(out);
    CHECK(strstr(text, "`B` and `A` were not separated: ratio 1.00x, 95% CI [1.00 .. 1.00], "
                       "30 paired rounds, interleaved\n30 of 30 rounds tied") != NULL);
    free(text);
    /* the markdown writer prints every comparison again */
    text = NULL;
    out = open_memstream(&text, &len);
    CHECK(fb_write_markdown(b, out) == FB_OK);
    fclose(out);
    CHECK(strstr(text, "`B` is fastest of 3") != NULL);
    CHECK(strstr(text, "were not separated") != NULL);
    free(text);
    fb_bench_free(b);
}

/* A longer comparison is more rounds, not longer epochs: the runner's
 * -min_time (the key min_time) keeps each epoch at the usual target and
 * adds rounds until every alternative holds the time asked for. */
static void test_min_time_rounds(void) {
    world w;
    world_init(&w, 100, 120, 0);
    fb_bench *b = world_bench(&w);
    fb_set_epochs(b, 30);
    fb__bench_set_min_time(b, 0.03); /* what -min_time=30 sets */
    const fb_comparison *c = world_compare(b, &w, 2);
    CHECK(c != NULL);
    const fb_result *r0 = c ? fb_comparison_result(c, 0) : NULL;
    CHECK(r0 && r0->config.num[FB__K_MIN_EPOCH_TIME] == 250e-6); /* the usual target */
    /* 30 ms of 250 us epochs: 120 rounds or more, not 30 longer ones */
    CHECK(c && fb_comparison_rounds(c) >= 120 && fb_comparison_rounds(c) % 2 == 0);
    for (size_t i = 0; c && i < 2; ++i) {
        const fb_result *r = fb_comparison_result(c, i);
        double epoch_s = fb_result_median(r, FB_ELAPSED) * (double)fb_comparison_iterations(c);
        CHECK(epoch_s >= 250e-6 * 2.0 / 3.0 && epoch_s < 250e-6 * 1.5);
        CHECK(fb_result_total_s(r) >= 0.03);
    }
    fb_bench_free(b);
}

/* A comparison inside another, or inside FB_RUN, is refused with one line
 * on the diagnostics stream; a block left with `return` is released by
 * fb_bench_free (the sanitizer build checks the leak). */
static void test_nested_refused(void) {
    world w;
    world_init(&w, 100, 120, 0);
    fb_bench *b = world_bench(&w);
    char *text = NULL;
    size_t len = 0;
    FILE *diag = open_memstream(&text, &len);
    fb_set_diagnostics(b, diag);
    alt_ctx a0 = {&w, 0}, a1 = {&w, 1};
    fb_alternative alts[2] = {{"x", world_op, &a0}, {"y", world_op, &a1}};
    FB_COMPARE(b, "outer") {
        FB_ALTERNATIVE("a") { world_step(&w, 0); }
        FB_ALTERNATIVE("b") { world_step(&w, 1); }
        CHECK(fb_compare(b, "inner", alts, 2) == NULL);
    }
    FB_RUN(b, "run") {
        CHECK(fb_compare(b, "in a run", alts, 2) == NULL);
        world_step(&w, 0);
    }
    fclose(diag);
    CHECK(strstr(text, "femtobench: comparison 'inner' not run: another run of this bench is in "
                       "progress\n") != NULL);
    CHECK(strstr(text, "femtobench: comparison 'in a run' not run") != NULL);
    CHECK(fb_comparison_count(b) == 1);
    CHECK_STR(fb_comparison_title(fb_last_comparison(b)), "outer");
    free(text);
    fb_set_diagnostics(b, NULL);
    /* left early: the state in progress is freed with the bench */
    for (int once = 1; once; once = 0) {
        FB_COMPARE(b, "left") {
            FB_ALTERNATIVE("a") { world_step(&w, 0); }
            FB_ALTERNATIVE("b") { world_step(&w, 1); }
            goto left;
        }
    }
left:
    CHECK(fb_comparison_count(b) == 1);
    fb_bench_free(b);
}

/* Untimed setup and teardown (fb_set_setup): called around each
 * alternative's epoch, outside the clock reads. A setup that advances the
 * fake clock by a whole second changes nothing measured: identical sides
 * stay exactly 1 and the medians stay 100 and 125 ns. */
typedef struct hook_count {
    world *w;
    size_t setups, teardowns;
    bool open;       /* a setup's epoch not yet torn down */
    bool unbalanced; /* a setup while one was open, or a teardown without one */
} hook_count;

static void hook_setup(void *ctx) {
    hook_count *h = ctx;
    if (h->open) h->unbalanced = true;
    h->open = true;
    h->setups++;
    h->w->now_ns += 1e9;
}

static void hook_teardown(void *ctx) {
    hook_count *h = ctx;
    if (!h->open) h->unbalanced = true;
    h->open = false;
    h->teardowns++;
    h->w->now_ns += 1e9;
}

static void test_setup_teardown(void) {
    world w;
    world_init(&w, 100, 125, 0);
    fb_bench *b = world_bench(&w);
    hook_count h = {&w, 0, 0, false, false};
    fb_set_setup(b, hook_setup, &h);
    fb_set_teardown(b, hook_teardown, &h);
    const fb_comparison *c = world_compare(b, &w, 2);
    CHECK(c != NULL);
    size_t epochs =
        fb_result_epochs(fb_comparison_result(c, 0)) + fb_result_epochs(fb_comparison_result(c, 1));
    CHECK(epochs == 60);
    /* one around every epoch (the calibration's too), never nested */
    CHECK(h.setups >= epochs && h.setups == h.teardowns && !h.unbalanced && !h.open);
    CHECK_NEAR(fb_result_median(fb_comparison_result(c, 0), FB_ELAPSED), 100e-9, 1e-15);
    CHECK_NEAR(fb_result_median(fb_comparison_result(c, 1), FB_ELAPSED), 125e-9, 1e-15);
    CHECK_NEAR(fb_comparison_ratio(c, 1), 0.8, 1e-12);
    fb_bench_free(b);
}

/* A 10 ms op against a 1.4 ns op: the shared count (10, so the slow side
 * stays within max_epoch_time) gives the fast side 14 ns epochs, 14 steps of
 * the clock. The fast side is marked not resolved, in the table too, and the
 * interval is at least what the clock resolves, so it covers the true
 * ratio. */
static void test_unresolved_fast_side(void) {
    world w;
    world_init(&w, 10e6, 1.4, 0);
    fb_bench *b = world_bench(&w);
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    fb_set_output(b, out);
    const fb_comparison *c = world_compare(b, &w, 2);
    fclose(out);
    CHECK(c != NULL && fb_comparison_iterations(c) == 10);
    CHECK(!fb_result_unresolved(fb_comparison_result(c, 0)));
    CHECK(fb_result_unresolved(fb_comparison_result(c, 1)));
    double truth = 10e6 / 1.4;
    CHECK(fb_comparison_low(c, 1) <= truth && truth <= fb_comparison_high(c, 1));
    double q = 1e-9 / 0.1 + 1e-9 / 14e-9; /* at least this, in log */
    CHECK(log(fb_comparison_high(c, 1) / fb_comparison_low(c, 1)) >= 2 * q * 0.99);
    CHECK(buf && strstr(buf, "`B` (not resolved by the clock") != NULL);
    CHECK(buf && strstr(buf, "`B`: 10 iterations an epoch") != NULL);
    free(buf);
    fb_bench_free(b);
}

/* A ratio of 10^7: a 2 s op against a 200 ns op. The slowest, capped at
 * max_epoch_time, runs one iteration an epoch, so the fast side's epoch is
 * 200 ns: 200 steps of the clock (not "under 100"), but under the 1 us the
 * clock needs (1000 resolutions). Every epoch also carries 50 ns that no
 * clock overhead accounts for, so the interval misses the true ratio: the
 * fast side is marked not resolved, and the table says its ratio is beyond
 * what the comparison resolves, instead of a silent wrong interval. */
static void test_extreme_ratio(void) {
    world w;
    world_init(&w, 2e9, 200, 0);
    w.read_cost_ns = 50;
    fb_bench *b = world_bench(&w);
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    fb_set_output(b, out);
    const fb_comparison *c = world_compare(b, &w, 2);
    fclose(out);
    CHECK(c != NULL && fb_comparison_iterations(c) == 1);
    double truth = 2e9 / 200;
    CHECK(c != NULL && !(fb_comparison_low(c, 1) <= truth && truth <= fb_comparison_high(c, 1)));
    CHECK(!fb_result_unresolved(fb_comparison_result(c, 0)));
    CHECK(fb_result_unresolved(fb_comparison_result(c, 1)));
    CHECK(buf && strstr(buf, "`B` (not resolved by the clock") != NULL);
    CHECK(buf && strstr(buf, "`B`: 1 iterations an epoch (the count all alternatives share) take "
                             "250 ns, under the 1 us the clock needs: its ratio is beyond what "
                             "this comparison resolves") != NULL);
    free(buf);
    fb_bench_free(b);
}

/* An alternative that costs about the declared empty loop (as one add does)
 * is marked "at the loop's resolution", not "optimized away?" (result,
 * table, summary); one that costs 100x is neither. */
static void test_marks_optimized_away(void) {
    world w;
    world_init(&w, 100, 1, 0);
    fb_bench *b = world_bench(&w);
    fb__bench_set_empty_loop(b, 0.9e-9);
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    fb_set_output(b, out);
    const fb_comparison *c = world_compare(b, &w, 2);
    fclose(out);
    CHECK(c != NULL);
    CHECK(!fb_result_optimized_away(fb_comparison_result(c, 0)));
    CHECK(!fb_result_optimized_away(fb_comparison_result(c, 1)));
    CHECK(!fb_result_at_loop_resolution(fb_comparison_result(c, 0)));
    CHECK(fb_result_at_loop_resolution(fb_comparison_result(c, 1)));
    CHECK(buf && strstr(buf, "`B` (at the loop's resolution: 1.00 ns per iteration") != NULL);
    CHECK(buf && strstr(buf, "`B` is at the loop's resolution") != NULL);
    CHECK(buf && strstr(buf, "optimized away?") == NULL);
    CHECK(buf && strstr(buf, "`A` costs") == NULL);
    free(buf);
    /* no empty loop known (a custom clock's default): never marked */
    fb_bench_free(b);
    world_init(&w, 100, 1, 0);
    b = world_bench(&w);
    c = world_compare(b, &w, 2);
    CHECK(c != NULL && !fb_result_optimized_away(fb_comparison_result(c, 1)));
    CHECK(c != NULL && !fb_result_at_loop_resolution(fb_comparison_result(c, 1)));
    fb_bench_free(b);
}

int main(void) {
    test_unresolved_fast_side();
    test_extreme_ratio();
    test_marks_optimized_away();
    test_setup_teardown();
    test_interval_math();
    test_identical();
    test_shared_iterations();
    test_latin_square();
    test_drift();
    test_known_ratio_with_noise();
    test_inline_same_schedule();
    test_inline_hygiene();
    test_bad_input();
    test_alternatives_capped();
    test_optimized_away();
    test_inline_misuse();
    test_slow_ops_bounded();
    test_preempted_rounds();
    test_balance_order();
    test_manual_time_in_comparison();
    test_table_and_summary();
    test_nested_refused();
    test_min_time_rounds();
    return CHECK_DONE();
}
