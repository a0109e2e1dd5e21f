/* SPDX-License-Identifier: MIT
 *
 * complexity.c: how does the time grow with the input size N?
 *
 * Run:   ./complexity -asymptote=100,200,400,800,1600
 *
 * The runner runs the benchmark once per N (fb_complexity_n(b) tells it which
 * N), prints a row per N with a `complexityN` column, then fits O(1), O(n),
 * O(log n), O(n log n), O(n^2), O(n^3) and prints the fits, best first.
 * Without -asymptote the benchmark runs once, at its default size.
 */
#include <femtobench.h>

#include <stdlib.h>

/* Insertion sort: O(n^2) on random input. */
static void insertion_sort(uint32_t *v, size_t n) {
    for (size_t i = 1; i < n; i++) {
        uint32_t x = v[i];
        size_t j = i;
        while (j > 0 && v[j - 1] > x) {
            v[j] = v[j - 1];
            j--;
        }
        v[j] = x;
    }
}

FB_BENCHMARK(InsertionSort) {
    /* N from -asymptote, or a default when it was not given. */
    size_t n = fb_complexity_n(b) > 0 ? (size_t)fb_complexity_n(b) : 1000;
    uint32_t *input = malloc(n * sizeof *input);
    uint32_t *work = malloc(n * sizeof *work);
    if (input == NULL || work == NULL) {
        free(input);
        free(work);
        return;
    }
    fb_rng rng;
    fb_rng_seed(&rng, 3);
    for (size_t i = 0; i < n; i++) {
        input[i] = (uint32_t)fb_rng_u64(&rng);
    }

    /* Tag the result with its N (the runner already did when -asymptote
     * was given; setting it again is harmless and covers the default run). */
    fb_set_complexity_n(b, (double)n);
    FB_RUN(b, "InsertionSort") {
        /* Every pass sorts the same unsorted input. The copy is O(n): it does
         * not change the O(n^2) verdict. */
        for (size_t i = 0; i < n; i++) {
            work[i] = input[i];
        }
        insertion_sort(work, n);
        fb_do_not_optimize(work[0]);
    }
    free(input);
    free(work);
}

FB_MAIN()
