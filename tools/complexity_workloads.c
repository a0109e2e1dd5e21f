/* Workloads of known shape for tools/complexity_check.py:
 *   ConstLinear: a fixed cost (a dependent chain of 5,000 multiply-adds)
 *                plus n more of them: constant + linear, the constant 50x
 *                the linear part at n = 100 and 0.8x it at n = 6400
 *   MergeSort:   a bottom-up merge sort of n random keys (n log n), with a
 *                copy of the input (n) per call
 * Built by the script against the library; not part of the library. */
#include "femtobench.h"
#include "merge_sort.h" /* bench/: the demo's sort */

#include <stdlib.h>
#include <string.h>

static size_t cw_n(const fb_bench *b, size_t def) {
    double n = fb_complexity_n(b);
    return n > 1 && n < 1e9 ? (size_t)n : def;
}

static uint64_t cw_chain(uint64_t x, size_t steps, uint64_t mul) {
    for (size_t i = 0; i < steps; i++) {
        x = x * mul + 1;
        fb_do_not_optimize(x);
    }
    return x;
}

FB_BENCHMARK(ConstLinear) {
    size_t n = cw_n(b, 1000);
    uint64_t x = 1;
    FB_RUN(b, "ConstLinear") {
        x = cw_chain(x, 5000, 0x9E3779B97F4A7C15ULL); /* the constant */
        x = cw_chain(x, n, 0x9E3779B97F4A7C15ULL);    /* the linear part */
    }
}

FB_BENCHMARK(MergeSort) {
    size_t n = cw_n(b, 1000);
    uint32_t *input = malloc(n * sizeof *input), *work = malloc(n * sizeof *work),
             *tmp = malloc(n * sizeof *tmp);
    if (input && work && tmp) {
        fb_rng rng;
        fb_rng_seed(&rng, 42);
        for (size_t i = 0; i < n; i++) input[i] = (uint32_t)fb_rng_u64(&rng);
        FB_RUN(b, "MergeSort") {
            memcpy(work, input, n * sizeof *work);
            fb_do_not_optimize(fb__merge_sort(work, tmp, n)[n / 2]);
        }
    }
    free(input);
    free(work);
    free(tmp);
}

int main(int argc, char **argv) { return fb_main(argc, argv); }
