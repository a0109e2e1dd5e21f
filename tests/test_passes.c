/* Passes of the suite (-repetitions), on fake data: their order,
 * the median over passes, the error between passes, and two modes. */
#include "check.h"
#include "internal.h"

#include <string.h>

static void test_order(void) {
    size_t a[7], b[7];
    fb__passes_order(a, 7, 0, 1); /* one pass: registry order */
    for (size_t i = 0; i < 7; ++i) CHECK(a[i] == i);
    fb__passes_order(a, 7, 0, 5);
    fb__passes_order(b, 7, 1, 5);
    bool differ = false, seen[7] = {false};
    for (size_t i = 0; i < 7; ++i) {
        differ = differ || a[i] != b[i];
        CHECK(a[i] < 7 && !seen[a[i]]); /* a permutation */
        if (a[i] < 7) seen[a[i]] = true;
    }
    CHECK(differ); /* a fresh order per pass */
    size_t c[7];
    fb__passes_order(c, 7, 1, 5); /* reproducible */
    for (size_t i = 0; i < 7; ++i) CHECK(b[i] == c[i]);
}

static void test_one_mode(void) {
    double v[7] = {10.2, 9.9, 10.0, 10.4, 9.8, 10.1, 10.0};
    fb__pass_summary s;
    fb__passes_summarize(v, 7, &s);
    CHECK(s.passes == 7 && !s.two_modes);
    CHECK_NEAR(s.median, 10.0, 1e-12);
    CHECK_NEAR(s.min, 9.8, 1e-12);
    CHECK_NEAR(s.max, 10.4, 1e-12);
    /* between passes: the next process's expected spread, 0.6745 s
     * sqrt(1 + 1/7) with s the sd of the logs (computed apart: 1.42934%) */
    CHECK_NEAR(s.err_pct, 1.4293410219, 1e-6);
}

/* The next value's expected spread: logs 0, ln 2, 2 ln 2 have sd ln 2
 * exactly, so the spread is 2^(0.6745 sqrt(4/3)) - 1. */
static void test_next_spread(void) {
    double v[3] = {1, 2, 4};
    CHECK_NEAR(fb__next_spread_pct(v, 3), 100 * (pow(2, 0.6744897501960817 * sqrt(4.0 / 3)) - 1),
               1e-9);
    CHECK_NEAR(fb__next_spread_pct(v, 3), 71.5743248544, 1e-6);
    CHECK(fb__next_spread_pct(v, 1) == 0);
    double same[4] = {5, 5, 5, 5};
    CHECK_NEAR(fb__next_spread_pct(same, 4), 0, 1e-12);
    /* scale free: the same ratios at another level */
    double w[3] = {3e-9, 6e-9, 12e-9};
    CHECK_NEAR(fb__next_spread_pct(w, 3), fb__next_spread_pct(v, 3), 1e-9);
}

/* A tight loop measured in and out of the host's slow episodes: passes at
 * ~1 and ~2 cycles per iteration. The median lands on one mode by chance;
 * the summary names both. */
static void test_two_modes(void) {
    double v[7] = {0.34, 0.66, 0.335, 0.65, 0.345, 0.67, 0.34};
    fb__pass_summary s;
    fb__passes_summarize(v, 7, &s);
    CHECK(s.two_modes);
    CHECK(s.mode_n[0] == 4 && s.mode_n[1] == 3);
    CHECK_NEAR(s.mode[0], 0.34, 1e-12);
    CHECK_NEAR(s.mode[1], 0.66, 1e-12);
    /* a single outlier is not a mode */
    double w[7] = {10, 10.1, 9.9, 10, 10.2, 9.8, 20};
    fb__passes_summarize(w, 7, &s);
    CHECK(!s.two_modes);
    /* a gap no larger than the spread inside the clusters is not two modes */
    double u[6] = {10, 11, 12, 12.6, 13.5, 14.5};
    fb__passes_summarize(u, 6, &s);
    CHECK(!s.two_modes);
}

/* The stored aggregates over passes (Google Benchmark's _mean, _median
 * and _stddev over repetitions): four passes of batch 4, the third failed;
 * cycles in every timed pass, instructions in two of them. */
static void test_aggregates(void) {
    fb_result r[4];
    const fb_result *rs[4];
    double some[1] = {1};
    const double el[4] = {1e-6, 3e-6, 0, 2e-6};
    const double cyc[4] = {40, 80, 0, 60};
    memset(r, 0, sizeof r);
    for (int i = 0; i < 4; ++i) {
        r[i].config.batch = 4;
        r[i].epochs = 1;
        r[i].has = FB__BIT(FB_ELAPSED) | FB__BIT(FB_CPUCYCLES);
        r[i].values[FB_ELAPSED] = r[i].values[FB_CPUCYCLES] = some;
        r[i].summary[FB_ELAPSED].median = el[i];
        r[i].summary[FB_CPUCYCLES].median = cyc[i];
        rs[i] = &r[i];
    }
    r[2].error = (char *)"failed";
    for (int i = 0; i < 4; i += 3) { /* passes 1 and 4 count instructions */
        r[i].has |= FB__BIT(FB_INSTRUCTIONS);
        r[i].values[FB_INSTRUCTIONS] = some;
        r[i].summary[FB_INSTRUCTIONS].median = i ? 16 : 8;
    }
    double scratch[4];
    fb__pass_summary s;
    memset(&s, 0, sizeof s);
    fb__passes_aggregate(rs, 4, scratch, &s);
    CHECK(s.timed == 3);
    /* elapsed per iteration, {1, 3, 2} us */
    const fb__spread *t = &s.over[FB_ELAPSED];
    CHECK(s.all[FB_ELAPSED] && t->n == 3);
    CHECK_NEAR(t->v[FB__SPREAD_MEAN], 2e-6, 1e-18);
    CHECK_NEAR(t->v[FB__SPREAD_MEDIAN], 2e-6, 1e-18);
    CHECK_NEAR(t->v[FB__SPREAD_STDDEV], 1e-6, 1e-18);
    /* in the unit Google Benchmark names (ns: the config's is unset) */
    CHECK(s.gb_time.n == 3);
    CHECK_NEAR(s.gb_time.v[FB__SPREAD_MEDIAN], 2000, 1e-9);
    CHECK_NEAR(s.gb_time.v[FB__SPREAD_STDDEV], 1000, 1e-9);
    /* cycles per unit: {40, 80, 60} / 4 */
    const fb__spread *c = &s.over[FB_CPUCYCLES];
    CHECK(s.all[FB_CPUCYCLES] && c->n == 3);
    CHECK_NEAR(c->v[FB__SPREAD_MEAN], 15, 1e-12);
    CHECK_NEAR(c->v[FB__SPREAD_MEDIAN], 15, 1e-12);
    CHECK_NEAR(c->v[FB__SPREAD_STDDEV], 5, 1e-12);
    /* instructions: in two of the three timed passes, not all */
    CHECK(!s.all[FB_INSTRUCTIONS] && s.over[FB_INSTRUCTIONS].n == 2);
    CHECK_NEAR(s.over[FB_INSTRUCTIONS].v[FB__SPREAD_MEDIAN], 3, 1e-12);
    CHECK(!s.all[FB_BRANCHMISSES] && s.over[FB_BRANCHMISSES].n == 0);
    /* the rate: 4 / {1, 3, 2} us = {4, 4/3, 2} M/s */
    CHECK(s.rate.n == 3);
    CHECK_NEAR(s.rate.v[FB__SPREAD_MEAN], 22e6 / 9, 1e-6);
    CHECK_NEAR(s.rate.v[FB__SPREAD_MEDIAN], 2e6, 1e-6);
}

/* Exact counts over passes: the median, smallest and largest per unit of
 * the passes counted under Callgrind, a failed pass left out. */
static void test_counted(void) {
    fb_result r[4];
    struct fb__vg_result vg[4];
    const fb_result *rs[4];
    const double ins[4] = {400, 800, 0, 1200};
    memset(r, 0, sizeof r);
    memset(vg, 0, sizeof vg);
    for (int i = 0; i < 4; ++i) {
        r[i].config.batch = 4;
        for (int g = 0; g < FB_VG_MEASURE_COUNT; ++g) vg[i].per_iter[g] = NAN;
        vg[i].per_iter[FB_VG_INSTRUCTIONS] = ins[i];
        r[i].vg = &vg[i];
        rs[i] = &r[i];
    }
    r[2].error = (char *)"failed";
    vg[3].per_iter[FB_VG_BRANCHES] = 40; /* in one pass only */
    double scratch[4];
    fb__pass_summary s;
    memset(&s, 0, sizeof s);
    fb__passes_aggregate(rs, 4, scratch, &s);
    const fb__pass_range *i = &s.counted[FB_VG_INSTRUCTIONS];
    CHECK(i->n == 3);
    CHECK_NEAR(i->median, 200, 0);
    CHECK_NEAR(i->min, 100, 0);
    CHECK_NEAR(i->max, 300, 0);
    CHECK(s.counted[FB_VG_BRANCHES].n == 1);
    CHECK_NEAR(s.counted[FB_VG_BRANCHES].median, 10, 0);
    CHECK(s.counted[FB_VG_L1_MISSES].n == 0 && isnan(s.counted[FB_VG_L1_MISSES].median));
    CHECK(s.timed == 0 && s.rate.n == 0); /* counted, not timed */
}

int main(void) {
    test_order();
    test_one_mode();
    test_next_spread();
    test_two_modes();
    test_aggregates();
    test_counted();
    return CHECK_DONE();
}
