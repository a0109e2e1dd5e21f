/* SPDX-License-Identifier: MIT
 *
 * setup.c: state that must be fresh before it is measured, with an untimed
 * setup.
 *
 * Sorting the same array twice measures the second sort on sorted input. A
 * setup (fb_set_setup) reshuffles the array before every epoch, outside the
 * clock; with one sort per epoch (fb_set_epoch_iterations(b, 1)) every sort
 * gets a fresh shuffle. The last row shows what happens without the setup.
 *
 * Run: ./setup
 */
#include <femtobench.h>

#include <stdlib.h>

typedef struct deck {
    uint32_t *v;
    size_t n;
    fb_rng rng;
} deck;

/* The setup: a Fisher-Yates shuffle of the whole array. */
static void shuffle(void *ctx) {
    deck *d = (deck *)ctx;
    for (size_t i = d->n - 1; i > 0; i--) {
        size_t j = fb_rng_bounded(&d->rng, (uint32_t)(i + 1));
        uint32_t t = d->v[i];
        d->v[i] = d->v[j];
        d->v[j] = t;
    }
}

static int cmp_u32(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

int main(void) {
    deck d;
    d.n = 10000;
    d.v = malloc(d.n * sizeof *d.v);
    fb_bench *b = fb_bench_new();
    if (d.v == NULL || b == NULL) {
        free(d.v);
        fb_bench_free(b);
        return 1;
    }
    for (size_t i = 0; i < d.n; i++) {
        d.v[i] = (uint32_t)i;
    }
    fb_rng_seed(&d.rng, 1);
    fb_set_title(b, "qsort of 10,000 numbers");

    /* Before every epoch, untimed: a fresh shuffle. One sort per epoch, so
     * each sort sorts shuffled input; a sort takes far longer than a clock
     * read, so one call per epoch loses nothing to the clock's resolution. */
    fb_set_setup(b, shuffle, &d);
    fb_set_epoch_iterations(b, 1);
    fb_set_epochs(b, 21);
    FB_RUN(b, "shuffled before each sort") {
        qsort(d.v, d.n, sizeof *d.v, cmp_u32);
        fb_do_not_optimize(d.v[0]);
    }

    /* Without the setup, and with automatic epochs: every call after the
     * first sorts already sorted numbers, a different (faster) workload. */
    fb_set_setup(b, NULL, NULL);
    fb_set_epoch_iterations(b, 0);
    fb_set_epochs(b, 11);
    FB_RUN(b, "no setup: sorts sorted input") {
        qsort(d.v, d.n, sizeof *d.v, cmp_u32);
        fb_do_not_optimize(d.v[0]);
    }

    fb_bench_free(b);
    free(d.v);
    return 0;
}
