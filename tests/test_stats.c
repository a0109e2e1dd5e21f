/* Median, err% (MdAPE around the median), mean, totals. */
#include "check.h"
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>

/* The stored aggregates over the used epochs (Google Benchmark's _mean,
 * _median and _stddev rows): the rate and each user counter as shown. */
static void test_epoch_spreads(void) {
    double v[] = {4, 1, 3, 2};
    fb__spread sp;
    fb__spread_of(v, 4, &sp);
    CHECK(sp.n == 4 && sp.v[FB__SPREAD_MEAN] == 2.5 && sp.v[FB__SPREAD_MEDIAN] == 2.5);
    CHECK_NEAR(sp.v[FB__SPREAD_STDDEV], sqrt(5.0 / 3.0), 1e-12);
    fb__spread_of(v, 1, &sp);
    CHECK(sp.n == 1 && sp.v[FB__SPREAD_MEDIAN] == sp.v[FB__SPREAD_MEAN]);
    CHECK(isnan(sp.v[FB__SPREAD_STDDEV]));
    fb__spread_of(NULL, 0, &sp);
    CHECK(sp.n == 0 && isnan(sp.v[FB__SPREAD_MEAN]) && isnan(sp.v[FB__SPREAD_MEDIAN]));

    /* 4 epochs of 1, 2, 4 and 8 us per call, the last dropped; batch 2 */
    fb_result *r = calloc(1, sizeof *r);
    r->epochs = 4;
    r->config.batch = 2;
    r->iterations = malloc(4 * sizeof *r->iterations);
    r->values[FB_ELAPSED] = malloc(4 * sizeof(double));
    r->epoch_flags = calloc(4, sizeof *r->epoch_flags);
    for (int i = 0; i < 4; ++i) {
        r->iterations[i] = 1;
        r->values[FB_ELAPSED][i] = (double)(1 << i) * 1e-6;
    }
    r->epoch_flags[3] = FB__EPOCH_DROPPED;
    r->has = FB__BIT(FB_ELAPSED);
    r->ucounters = calloc(1, sizeof *r->ucounters);
    const struct {
        const char *name;
        double value;
        unsigned flags;
    } uc[3] = {{"bytes", 10, FB_COUNTER_RATE}, {"k", 3, 0}, {"per", 8, FB_COUNTER_PER_ITERATION}};
    for (size_t i = 0; i < 3; ++i) {
        snprintf(r->ucounters->c[i].name, sizeof r->ucounters->c[i].name, "%s", uc[i].name);
        r->ucounters->c[i].value = uc[i].value;
        r->ucounters->c[i].flags = uc[i].flags;
    }
    r->ucounters->n = 3;
    fb__stats_compute(r);
    /* rates 2 / {1, 2, 4} us = {2, 1, 0.5} M/s: mean 7/6 M, median 1 M,
     * squares (25 + 1 + 16) / 36 = 7/6, / (n - 1) -> stddev sqrt(7/12) M */
    const fb__spread *rate = &r->rate_epochs;
    CHECK(rate->n == 3);
    CHECK_NEAR(rate->v[FB__SPREAD_MEAN], 7e6 / 6, 1e-6);
    CHECK_NEAR(rate->v[FB__SPREAD_MEDIAN], 1e6, 1e-6);
    CHECK_NEAR(rate->v[FB__SPREAD_STDDEV], sqrt(7.0 / 12.0) * 1e6, 1e-6);
    /* a rate counter: 10 / {1, 2, 4} us = {10, 5, 2.5} M/s */
    const fb__spread *c0 = &r->ucounters->c[0].epochs;
    CHECK(c0->n == 3);
    CHECK_NEAR(c0->v[FB__SPREAD_MEAN], 17.5e6 / 3, 1e-6);
    CHECK_NEAR(c0->v[FB__SPREAD_MEDIAN], 5e6, 1e-6);
    /* deviations from 35/6: 25/6, -5/6, -20/6 -> squares 1050/36, / 2 */
    CHECK_NEAR(c0->v[FB__SPREAD_STDDEV], sqrt(1050.0 / 72.0) * 1e6, 1e-6);
    /* a plain counter: the same in each epoch, its stddev 0 */
    const fb__spread *c1 = &r->ucounters->c[1].epochs;
    CHECK(c1->n == 3 && c1->v[FB__SPREAD_MEAN] == 3 && c1->v[FB__SPREAD_MEDIAN] == 3 &&
          c1->v[FB__SPREAD_STDDEV] == 0);
    /* per iteration: 8 / batch 2 */
    const fb__spread *c2 = &r->ucounters->c[2].epochs;
    CHECK(c2->n == 3 && c2->v[FB__SPREAD_MEDIAN] == 4 && c2->v[FB__SPREAD_STDDEV] == 0);
    fb__result_free(r);
}

int main(void) {
    double v1[] = {5, 1, 3};
    CHECK(fb__median(v1, 3) == 3);
    double v2[] = {4, 1, 3, 2};
    CHECK(fb__median(v2, 4) == 2.5);
    double one[] = {7};
    CHECK(fb__median(one, 1) == 7);
    CHECK(isnan(fb__median(one, 0)));

    /* |v - 10| / 10 = {0, 0.1, 0.2, 0.5, 0.05} -> median 0.1 -> 10% */
    double v3[] = {10, 11, 8, 15, 10.5}, scratch[5];
    CHECK_NEAR(fb__mdape_pct(v3, 5, 10, scratch), 10.0, 1e-12);
    double zeros[] = {0, 0, 0};
    CHECK(fb__mdape_pct(zeros, 3, 0, scratch) == 0);

    fb_result *r = calloc(1, sizeof *r);
    r->epochs = 3;
    r->iterations = malloc(3 * sizeof *r->iterations);
    r->values[FB_ELAPSED] = malloc(3 * sizeof(double));
    r->values[FB_PAGEFAULTS] = malloc(3 * sizeof(double));
    uint64_t it[] = {10, 20, 10};
    double el[] = {1e-6, 2e-6, 4e-6}, pf[] = {1, 1, 4};
    for (int i = 0; i < 3; ++i) {
        r->iterations[i] = it[i];
        r->values[FB_ELAPSED][i] = el[i];
        r->values[FB_PAGEFAULTS][i] = pf[i];
    }
    r->has = FB__BIT(FB_ELAPSED) | FB__BIT(FB_PAGEFAULTS);
    fb__stats_compute(r);
    CHECK(fb_result_total_iterations(r) == 40);
    CHECK_NEAR(fb_result_total_s(r), 10e-6 + 40e-6 + 40e-6, 1e-18);
    CHECK_NEAR(fb_result_median(r, FB_ELAPSED), 2e-6, 1e-18);
    CHECK_NEAR(fb_result_mean(r, FB_ELAPSED), 90e-6 / 40, 1e-18);
    CHECK_NEAR(fb_result_min(r, FB_ELAPSED), 1e-6, 1e-18);
    CHECK_NEAR(fb_result_max(r, FB_ELAPSED), 4e-6, 1e-18);
    /* of {1, 2, 4} us: mean 7/3, sum of squares 14/3, / (n - 1) = 7/3 */
    CHECK_NEAR(fb_result_stddev(r, FB_ELAPSED), sqrt(7.0 / 3.0) * 1e-6, 1e-18);
    /* deviations 0.5, 0, 1 -> median 0.5 -> 50% */
    CHECK_NEAR(fb_result_err_pct(r, FB_ELAPSED), 50.0, 1e-9);
    CHECK(fb_result_unstable(r));
    CHECK_NEAR(fb_result_median(r, FB_PAGEFAULTS), 1, 0);
    CHECK_NEAR(fb_result_mean(r, FB_PAGEFAULTS), (10 + 20 + 40) / 40.0, 1e-12);
    CHECK(!fb_result_has(r, FB_INSTRUCTIONS));
    CHECK(isnan(fb_result_median(r, FB_INSTRUCTIONS)));
    CHECK(fb_result_value(r, FB_ELAPSED, 2) == 4e-6);
    CHECK(isnan(fb_result_value(r, FB_ELAPSED, 3)));
    /* under 6 epochs the median's interval is the min and the max */
    CHECK(r->summary[FB_ELAPSED].median_low == 1e-6 && r->summary[FB_ELAPSED].median_high == 4e-6);
    fb__result_free(r);

    /* 10 epochs 1..10 (shuffled), one dropped: k = floor((9 - 1.96 * 3) / 2) = 1 of the 9
     * kept, so the interval is the 2nd smallest and the 2nd largest kept value */
    r = calloc(1, sizeof *r);
    r->epochs = 10;
    r->iterations = malloc(10 * sizeof *r->iterations);
    r->values[FB_ELAPSED] = malloc(10 * sizeof(double));
    r->epoch_flags = calloc(10, sizeof *r->epoch_flags);
    double ten[] = {7, 2, 9, 1, 10, 4, 3, 8, 6, 5};
    for (int i = 0; i < 10; ++i) {
        r->iterations[i] = 1;
        r->values[FB_ELAPSED][i] = ten[i];
    }
    r->epoch_flags[4] = FB__EPOCH_DROPPED; /* the 10 */
    r->has = FB__BIT(FB_ELAPSED);
    fb__stats_compute(r);
    CHECK(r->summary[FB_ELAPSED].median == 5);
    CHECK(r->summary[FB_ELAPSED].median_low == 2);
    CHECK(r->summary[FB_ELAPSED].median_high == 8);
    fb__result_free(r);

    test_epoch_spreads();
    return CHECK_DONE();
}
