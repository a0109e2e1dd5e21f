/* SPDX-License-Identifier: MIT
 *
 * minimal.c: the smallest useful femtobench program.
 *
 * Build (installed library):   cc -O2 minimal.c -o minimal $(pkg-config --cflags --libs femtobench)
 * Build (single header):       see single_header.c
 * Run:                         ./minimal
 *
 * It prints one markdown table row per FB_RUN: time per op, ops per second,
 * err% (how much the epochs disagreed) and the total time spent measuring.
 */
#include <femtobench.h>

int main(void) {
    /* A bench owns its configuration and its results. */
    fb_bench *b = fb_bench_new();
    if (b == NULL) {
        return 1;
    }
    fb_set_title(b, "minimal");

    /* The body of FB_RUN is the timed loop's body: it is inlined, so no
     * function call is paid per iteration. femtobench decides how many
     * iterations to run; do one operation per pass. */
    uint64_t x = 1;
    FB_RUN(b, "x += x") {
        x += x;
        /* Without this the compiler may see that x is never used and delete
         * the work; the row would then measure an empty loop. */
        fb_do_not_optimize(x);
    }

    uint64_t y = 12345;
    FB_RUN(b, "y *= 31 (multiply)") {
        y *= 31;
        fb_do_not_optimize(y);
    }

    /* The results stay readable until the bench is freed. */
    const fb_result *r = fb_last_result(b);
    if (r != NULL && fb_result_error(r) == NULL) {
        printf("\nmedian of the last row: %.3f ns per op\n", fb_result_median(r, FB_ELAPSED) * 1e9);
    }

    fb_bench_free(b);
    return 0;
}
