/* Groups of threads (fb_run_threads, src/run/group.c) under a fake clock: the
 * arithmetic of the group's epoch, the leader's plan shared by every
 * thread, the time per iteration over all threads' iterations, each
 * thread's median, a group that breaks, and bad input. No wall-clock
 * bound: each thread's clock is its own fake clock, which moves only when
 * that thread's op says so. */
#include "check.h"
#include "internal.h"

#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* --------------------------------------------------- the group's epoch */

static void test_combine(void) {
    fb__group_slot s[3];
    memset(s, 0, sizeof s);
    /* thread 1 starts first, thread 2 ends last: the group's epoch runs
     * from 100 to 1500, not the longest thread's own 1390 */
    s[0].t0_ns = 130, s[0].t1_ns = 1000;
    s[1].t0_ns = 100, s[1].t1_ns = 1100;
    s[2].t0_ns = 110, s[2].t1_ns = 1500;
    for (int i = 0; i < 3; ++i) {
        s[i].counts[FB_INSTRUCTIONS] = 10.0 * (i + 1);
        s[i].known = FB__BIT(FB_INSTRUCTIONS) | FB__BIT(FB_CPUCYCLES);
    }
    s[1].known = FB__BIT(FB_INSTRUCTIONS); /* cycles unknown on one thread */
    s[2].disturbed = true;
    fb__group_epoch g;
    fb__group_combine(s, 3, 2, &g);
    CHECK(g.ticks_ns == 1400);
    CHECK(g.counts[FB_INSTRUCTIONS] == 60.0);
    CHECK(g.known == FB__BIT(FB_INSTRUCTIONS));
    CHECK(g.disturbed);
    CHECK(!g.broke);
    s[0].broke = true;
    fb__group_combine(s, 3, 2, &g);
    CHECK(g.broke);
    fb__group_combine(s, 0, 2, &g);
    CHECK(g.ticks_ns == 0 && g.known == 0);
    /* a clock that went back: no negative time */
    s[0].t0_ns = 500, s[0].t1_ns = 400;
    fb__group_combine(s, 1, 2, &g);
    CHECK(g.ticks_ns == 0);
}

/* A busy machine: the threads waited for a core, and the group's time is
 * the span it would have had with its cores free, from the threads' CPU
 * time (src/run/group.h). */
static void test_combine_waited(void) {
    fb__group_slot s[4];
    memset(s, 0, sizeof s);
    /* two threads of 1 ms CPU each, whose span is 2.5 ms: they waited */
    for (int i = 0; i < 2; ++i) {
        s[i].t0_ns = 0;
        s[i].t1_ns = 2500000;
        s[i].counts[FB_CPUTIME] = i ? 1.0e-3 : 0.9e-3;
        s[i].known = FB__BIT(FB_CPUTIME);
        s[i].disturbed = true;
    }
    fb__group_epoch g;
    fb__group_combine(s, 2, 2, &g);
    CHECK(g.waited && !g.disturbed);
    CHECK(g.ticks_ns == 1000000); /* the busiest thread's CPU time */
    /* the same with one core: the threads' CPU time shared by it */
    fb__group_combine(s, 2, 1, &g);
    CHECK(g.waited && g.ticks_ns == 1900000);
    /* four threads on two cores: their CPU time shared by the two */
    for (int i = 2; i < 4; ++i) s[i] = s[1];
    fb__group_combine(s, 4, 2, &g);
    CHECK(g.waited && g.ticks_ns == 1950000);
    /* within the margin (2%): the clock's span stands */
    s[0].t1_ns = s[1].t1_ns = 1010000;
    fb__group_combine(s, 2, 2, &g);
    CHECK(!g.waited && g.ticks_ns == 1010000 && g.disturbed);
    s[0].t1_ns = s[1].t1_ns = 2500000;
    /* a thread that blocked on its own: its time off the CPU is the op's */
    s[1].blocked = true;
    fb__group_combine(s, 2, 2, &g);
    CHECK(!g.waited && g.ticks_ns == 2500000);
    s[1].blocked = false;
    /* a thread without its CPU time, or the cores unknown: the clock's */
    s[1].known = 0;
    fb__group_combine(s, 2, 2, &g);
    CHECK(!g.waited && g.ticks_ns == 2500000);
    s[1].known = FB__BIT(FB_CPUTIME);
    fb__group_combine(s, 2, 0, &g);
    CHECK(!g.waited && g.ticks_ns == 2500000);
    /* one thread is not a group: its epochs are left out instead */
    fb__group_combine(s, 1, 1, &g);
    CHECK(!g.waited && g.ticks_ns == 2500000);
}

/* ------------------------------------------ a group under a fake clock */

/* Each thread's fake clock: the setup hook, which the leader runs before
 * every epoch (before the barrier that starts it), opens a new epoch at a
 * common time `base`; a thread's clock then reads base plus the work its
 * op did since (tl_work), so every thread starts the epoch at `base` and
 * ends it at base + its own work. */
static _Atomic uint64_t base_ns;
static _Thread_local uint64_t tl_seen, tl_work;

static uint64_t group_clock(void *ctx) {
    (void)ctx;
    uint64_t b = atomic_load(&base_ns);
    if (b != tl_seen) tl_seen = b, tl_work = 0;
    return b + tl_work;
}

static void group_setup(void *ctx) {
    (void)ctx;
    atomic_fetch_add(&base_ns, 1000000000u);
}

typedef struct plan {
    uint64_t cost_ns[4];        /* what one op costs on each thread */
    _Atomic uint64_t calls[4];  /* op calls per thread */
    _Atomic uint64_t epochs[4]; /* FB_RUN epochs per thread */
    int skip_second_on;         /* a thread that skips the second run (-1: none) */
    int extra_on;               /* a thread that makes an extra run (-1: none) */
    int break_on;               /* a thread that breaks out of FB_RUN (-1: none) */
} plan;

static void group_body(fb_bench *b, void *ctx) {
    plan *p = ctx;
    size_t i = fb_thread_index(b);
    uint64_t cost = p->cost_ns[i];
    uint64_t calls = 0;
    bool broke = false;
    FB_RUN(b, "spin") {
        if ((int)i == p->break_on && !broke && calls > 0) {
            broke = true;
            break;
        }
        tl_work += cost;
        ++calls;
    }
    atomic_fetch_add(&p->calls[i], calls);
    if ((int)i != p->skip_second_on) {
        FB_RUN(b, "again") { tl_work += cost; }
    }
    if ((int)i == p->extra_on) {
        FB_RUN(b, "extra") { tl_work += cost; }
    }
}

static fb_bench *group_bench(FILE *diag) {
    fb_bench *b = fb_bench_new();
    fb_set_clock(b, group_clock, NULL, 1e-9);
    fb_set_output(b, NULL);
    fb_set_diagnostics(b, diag);
    fb_set_performance_counters(b, false);
    fb_set_setup(b, group_setup, NULL);
    return b;
}

static plan plan_of(uint64_t c0, uint64_t c1, uint64_t c2) {
    plan p;
    memset(&p, 0, sizeof p);
    p.cost_ns[0] = c0, p.cost_ns[1] = c1, p.cost_ns[2] = c2, p.cost_ns[3] = c0;
    p.skip_second_on = p.extra_on = p.break_on = -1;
    return p;
}

static void test_exact_group(void) {
    fb_bench *b = group_bench(NULL);
    fb_set_epoch_iterations(b, 1000);
    fb_set_epochs(b, 5);
    plan p = plan_of(10, 20, 40);
    CHECK(fb_run_threads(b, 3, group_body, &p) == FB_OK);
    CHECK(fb_result_count(b) == 2);
    const fb_result *r = fb_result_at(b, 0);
    CHECK_STR(fb_result_name(r), "spin/threads:3");
    CHECK(fb_result_error(r) == NULL);
    CHECK(fb_result_threads(r) == 3);
    CHECK(fb_result_epochs(r) == 5);
    /* every thread ran the leader's iterations: 5 epochs of 1000 */
    for (int i = 0; i < 3; ++i) CHECK(atomic_load(&p.calls[i]) == 5000);
    /* an epoch's iterations: all threads' */
    CHECK(fb_result_iterations(r, 0) == 3000);
    /* the group's epoch lasts until the slowest thread ends (1000 x 40
     * ns), over all 3000 iterations */
    CHECK_NEAR(fb_result_median(r, FB_ELAPSED), 40e-6 / 3000, 1e-15);
    /* each thread's own time per iteration */
    CHECK_NEAR(fb_result_thread_median(r, 0), 10e-9, 1e-15);
    CHECK_NEAR(fb_result_thread_median(r, 1), 20e-9, 1e-15);
    CHECK_NEAR(fb_result_thread_median(r, 2), 40e-9, 1e-15);
    CHECK(isnan(fb_result_thread_median(r, 3)));
    CHECK_STR(fb_result_name(fb_result_at(b, 1)), "again/threads:3");
    /* a thread count of 1 is a group too: its rows say so */
    plan q = plan_of(10, 0, 0);
    CHECK(fb_run_threads(b, 1, group_body, &q) == FB_OK);
    CHECK(fb_result_count(b) == 4);
    CHECK_STR(fb_result_name(fb_result_at(b, 2)), "spin/threads:1");
    CHECK(fb_result_threads(fb_result_at(b, 2)) == 1);
    CHECK_NEAR(fb_result_median(fb_result_at(b, 2), FB_ELAPSED), 10e-9, 1e-15);
    /* outside a group */
    CHECK(fb_threads(b) == 1 && fb_thread_index(b) == 0);
    fb_bench_free(b);
}

/* Each thread's excluded regions come off its own time; manual timing
 * does not apply to a group (an error row says why). */
static void excluded_body(fb_bench *b, void *ctx) {
    const uint64_t *cost = ctx;
    uint64_t c = cost[fb_thread_index(b)];
    FB_RUN(b, "excl") {
        tl_work += c;
        fb_exclude_begin(b);
        tl_work += 1000; /* untimed */
        fb_exclude_end(b);
    }
}

static void test_excluded_group(void) {
    fb_bench *b = group_bench(NULL);
    fb_set_epoch_iterations(b, 100);
    fb_set_epochs(b, 3);
    uint64_t cost[2] = {10, 30};
    CHECK(fb_run_threads(b, 2, excluded_body, cost) == FB_OK);
    const fb_result *r = fb_result_at(b, 0);
    CHECK(fb_result_error(r) == NULL);
    CHECK_NEAR(fb_result_thread_median(r, 0), 10e-9, 1e-15);
    CHECK_NEAR(fb_result_thread_median(r, 1), 30e-9, 1e-15);
    CHECK_NEAR(fb_result_median(r, FB_ELAPSED), 30e-9 / 2, 1e-15);
    fb_set_manual_time(b, true);
    CHECK(fb_run_threads(b, 2, excluded_body, cost) == FB_OK);
    const char *e = fb_result_error(fb_result_at(b, 1));
    CHECK(e && strstr(e, "manual timing does not apply to a group"));
    fb_bench_free(b);
}

/* A rate counter declared on every thread goes with the group's row, per
 * second of the group's time per op. */
static void counter_body(fb_bench *b, void *ctx) {
    (void)ctx;
    fb_counter(b, "bytes", 64, FB_COUNTER_RATE);
    FB_RUN(b, "copy") { tl_work += 10; }
}

static void test_counter_group(void) {
    fb_bench *b = group_bench(NULL);
    fb_set_epoch_iterations(b, 100);
    fb_set_epochs(b, 3);
    CHECK(fb_run_threads(b, 2, counter_body, NULL) == FB_OK);
    const fb_result *r = fb_result_at(b, 0);
    CHECK(fb_result_error(r) == NULL);
    CHECK(fb_result_counter_count(r) == 1);
    /* 100 x 10 ns on each thread at once: 5 ns per op of the group */
    CHECK_NEAR(fb_result_counter(r, 0), 64 / 5e-9, 1.0);
    CHECK(b->dropped == 0);
    fb_bench_free(b);
}

/* The automatic schedule (warmup, upscaling) is the leader's: the threads
 * run the same iterations in every epoch, whatever their own speed. */
static void test_auto_group(void) {
    fb_bench *b = group_bench(NULL);
    fb_set_warmup(b, 7);
    plan p = plan_of(3, 5, 7);
    CHECK(fb_run_threads(b, 3, group_body, &p) == FB_OK);
    const fb_result *r = fb_result_at(b, 0);
    CHECK(fb_result_error(r) == NULL);
    CHECK(atomic_load(&p.calls[0]) == atomic_load(&p.calls[1]));
    CHECK(atomic_load(&p.calls[1]) == atomic_load(&p.calls[2]));
    CHECK(atomic_load(&p.calls[0]) >= fb_result_total_iterations(r) / 3);
    CHECK_NEAR(fb_result_median(r, FB_ELAPSED), 7e-9 / 3, 1e-15);
    fb_bench_free(b);

    /* the schedule plans with the fastest thread's own time: a slow thread
     * (100x) makes the group's epochs longer, not its iterations fewer */
    b = group_bench(NULL);
    fb_set_min_epoch_time(b, 1e-4);
    fb_set_epochs(b, 3);
    plan s = plan_of(1, 100, 1);
    CHECK(fb_run_threads(b, 3, group_body, &s) == FB_OK);
    r = fb_result_at(b, 0);
    CHECK(fb_result_error(r) == NULL);
    for (size_t e = 0; e < fb_result_epochs(r); ++e) {
        uint64_t per_thread = fb_result_iterations(r, e) / 3;
        /* about 1e-4 s of the fastest thread's 1 ns calls (the schedule's
         * jitter adds up to 20%), not 1e-4 s of the slow thread's */
        CHECK(per_thread >= 66000 && per_thread <= 130000);
    }
    CHECK_NEAR(fb_result_median(r, FB_ELAPSED), 100e-9 / 3, 1e-15);
    fb_bench_free(b);
}

/* A thread that makes fewer runs, more runs, or breaks out of FB_RUN: the
 * leader's row says so, nothing hangs, nothing is silently dropped. */
static void test_broken_group(void) {
    FILE *diag = tmpfile();
    fb_bench *b = group_bench(diag);
    fb_set_epoch_iterations(b, 100);
    fb_set_epochs(b, 3);
    plan p = plan_of(10, 10, 10);
    p.skip_second_on = 2;
    CHECK(fb_run_threads(b, 3, group_body, &p) == FB_OK);
    CHECK(fb_result_count(b) == 2);
    CHECK(fb_result_error(fb_result_at(b, 0)) == NULL);
    fflush(diag);
    const char *e = fb_result_error(fb_result_at(b, 1));
    CHECK(e && strstr(e, "a thread of the group stopped"));

    /* thread 1 was in the broken run too: its run is counted as dropped */
    CHECK(b->dropped == 1);

    plan x = plan_of(10, 10, 10);
    x.extra_on = 1;
    size_t before = fb_result_count(b);
    CHECK(fb_run_threads(b, 2, group_body, &x) == FB_OK);
    CHECK(fb_result_count(b) == before + 2);
    CHECK(b->dropped == 2); /* the follower's extra run, counted */

    plan k = plan_of(10, 10, 10);
    k.break_on = 1;
    before = fb_result_count(b);
    CHECK(fb_run_threads(b, 2, group_body, &k) == FB_OK);
    e = fb_result_error(fb_result_at(b, before));
    CHECK(e && strstr(e, "`break`"));
    fb_bench_free(b);

    char buf[4096] = "";
    rewind(diag);
    size_t n = fread(buf, 1, sizeof buf - 1, diag);
    buf[n] = '\0';
    CHECK(strstr(buf, "1 run of the other threads ended unmeasured: every thread must run the "
                      "same FB_RUN / fb_run calls") != NULL);
    fclose(diag);
}

static void noop_body(fb_bench *b, void *ctx) {
    (void)b;
    (void)ctx;
}

static void nested_body(fb_bench *b, void *ctx) {
    *(int *)ctx = fb_run_threads(b, 2, noop_body, NULL);
}

static void compare_body(fb_bench *b, void *ctx) {
    (void)ctx;
    uint64_t x = 0;
    FB_COMPARE(b, "cmp") {
        FB_ALTERNATIVE("a") { ++x; }
        FB_ALTERNATIVE("b") { x += 2; }
    }
    fb_do_not_optimize(x);
}

static void test_bad_input(void) {
    FILE *diag = tmpfile();
    fb_bench *b = group_bench(diag);
    CHECK(fb_run_threads(b, 0, noop_body, NULL) == FB_EINVAL);
    CHECK(fb_run_threads(b, 257, noop_body, NULL) == FB_EINVAL);
    CHECK(fb_run_threads(b, (size_t)-1, noop_body, NULL) == FB_EINVAL);
    CHECK(fb_run_threads(b, 2, NULL, NULL) == FB_EINVAL);
    CHECK(fb_run_threads(NULL, 2, noop_body, NULL) == FB_EINVAL);
    int nested = 0;
    CHECK(fb_run_threads(b, 1, nested_body, &nested) == FB_OK);
    CHECK(nested == FB_EINVAL);
#if !FB_HAVE_THREADS
    CHECK(fb_run_threads(b, 2, noop_body, NULL) == FB_ENOTSUP);
#else
    CHECK(fb_run_threads(b, 256, noop_body, NULL) == FB_OK);
#endif
    CHECK(fb_result_count(b) == 0);
    /* a comparison in a group: refused, counted once (by the leader) */
    CHECK(fb_run_threads(b, FB_HAVE_THREADS ? 2 : 1, compare_body, NULL) == FB_OK);
    CHECK(fb_comparison_count(b) == 0);
    CHECK(b->dropped == 1);
    fb_bench_free(b);
    char buf[4096] = "";
    rewind(diag);
    size_t n = fread(buf, 1, sizeof buf - 1, diag);
    buf[n] = '\0';
    CHECK(strstr(buf, "fb_run_threads: 0 threads: give 1 to 256") != NULL);
    CHECK(strstr(buf, "fb_run_threads: 257 threads: give 1 to 256") != NULL);
    CHECK(strstr(buf, "already in a group") != NULL);
    CHECK(strstr(buf, "comparison 'cmp' not run: a comparison does not run in a group") != NULL);
    fclose(diag);
}

int main(void) {
    test_combine();
    test_combine_waited();
    test_bad_input();
#if FB_HAVE_THREADS
    test_exact_group();
    test_auto_group();
    test_excluded_group();
    test_counter_group();
    test_broken_group();
#else /* no threads (Windows): a group of one thread only, tested above */
    (void)test_exact_group;
    (void)test_auto_group;
    (void)test_excluded_group;
    (void)test_counter_group;
    (void)test_broken_group;
#endif
    return CHECK_DONE();
}
