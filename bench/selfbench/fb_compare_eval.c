/* The comparison evaluation, femtobench side (tools/compare_eval.py runs it;
 * docs/compare.md has the method and the figures).
 *
 *   fb_compare_eval self N    N comparisons of one function (a 40-step chain,
 *                             state through ctx) with itself under two names
 *   fb_compare_eval copies N  the same with two inlined copies of the chain
 *                             (FB_COMPARE): separately compiled code can
 *                             differ for real (alignment)
 *   fb_compare_eval known N   N comparisons, baseline 44 steps against 40:
 *                             the true ratio t_44 / t_40 is 1.1
 *
 * One line per comparison: ratio low high significant rounds wall_s. Each
 * comparison runs at the defaults (FEMTOBENCH_CONFIG applies) on a fresh
 * bench, silent. */
#include <femtobench.h>

#include "compare_chains.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

static double cc_now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The one function of `self`, called through a pointer. */
static void cc_chain40(void *ctx) {
    uint64_t x = *(uint64_t *)ctx;
    CC_CHAIN40(x);
    *(uint64_t *)ctx = x;
}

int main(int argc, char **argv) {
    const char *mode = argc == 3 ? argv[1] : "";
    int known = strcmp(mode, "known") == 0, copies = strcmp(mode, "copies") == 0;
    if (!known && !copies && strcmp(mode, "self") != 0) {
        fprintf(stderr, "usage: fb_compare_eval self|copies|known N\n");
        return 2;
    }
    long n = strtol(argv[2], NULL, 10);
    uint64_t xa = 1, xb = 3;
    for (long i = 0; i < n; ++i) {
        fb_bench *b = fb_bench_new();
        if (!b) return 1;
        fb_set_output(b, NULL);
        double t0 = cc_now_s();
        if (known) {
            FB_COMPARE(b, "known") {
                FB_ALTERNATIVE("chain44") { CC_CHAIN44(xa); }
                FB_ALTERNATIVE("chain40") { CC_CHAIN40(xb); }
            }
        } else if (copies) {
            FB_COMPARE(b, "copies") {
                FB_ALTERNATIVE("chain40 a") { CC_CHAIN40(xa); }
                FB_ALTERNATIVE("chain40 b") { CC_CHAIN40(xb); }
            }
        } else {
            const fb_alternative alts[2] = {{"chain40", cc_chain40, &xa},
                                            {"again", cc_chain40, &xb}};
            (void)fb_compare(b, "self", alts, 2);
        }
        double wall = cc_now_s() - t0;
        const fb_comparison *c = fb_last_comparison(b);
        if (!c || fb_result_error(fb_comparison_result(c, 1))) {
            fprintf(stderr, "comparison failed\n");
            return 1;
        }
        printf("%.9g %.9g %.9g %d %zu %.6f\n", fb_comparison_ratio(c, 1), fb_comparison_low(c, 1),
               fb_comparison_high(c, 1), fb_comparison_significant(c, 1) ? 1 : 0,
               fb_comparison_rounds(c), wall);
        fb_bench_free(b);
    }
    fb_do_not_optimize(xa);
    fb_do_not_optimize(xb);
    return 0;
}
