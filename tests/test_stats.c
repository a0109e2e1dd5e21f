/* Median, err% (MdAPE around the median), mean, totals. */
#include "check.h"
#include "internal.h"

#include <stdlib.h>

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
    return CHECK_DONE();
}
