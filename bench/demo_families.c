/* Two benchmark families (FB_BENCHMARK_RANGE):
 *
 *   SipHash/8 .. SipHash/65536   SipHash-2-4 of a message of that many
 *                                bytes, in ns/byte: the per-call cost
 *                                (key setup, finalization) dominates short
 *                                messages, the per-byte cost long ones
 *   SortShuffled/1024 .. /32768  qsort of that many shuffled numbers; a
 *                                setup reshuffles the input before every
 *                                epoch (untimed), one sort per epoch, and
 *                                the runner fits the family: O(n log n)
 *
 *   femtobench-demo -filter=SipHash
 *   femtobench-demo -filter=SortShuffled
 *
 * Buffers are allocated before the timed loop and freed after it. */
#include <femtobench.h>

#include "hashes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* SipHash over 8 B .. 64 KiB (8, 64, 512, 4096, 32768, 65536 bytes). Each
 * hash's output is folded into the key of the next, so no call can be
 * hoisted or overlapped with the next. */
FB_BENCHMARK_RANGE(SipHash, 8, 64 << 10, 8) {
    size_t n = (size_t)fb_arg(b);
    uint8_t *msg = (uint8_t *)malloc(n);
    if (!msg) {
        fprintf(stderr, "SipHash/%zu: out of memory, skipped\n", n);
        return;
    }
    for (size_t i = 0; i < n; i++) msg[i] = (uint8_t)(i * 131u + 7u);
    fb_set_unit(b, "byte");
    fb_set_batch(b, (double)n);
    uint64_t k1 = 0x0f0e0d0c0b0a0908u;
    FB_RUN(b, NULL) {
        k1 ^= fbh_siphash24(0x0706050403020100u, k1, msg, n);
        fb_do_not_optimize(k1);
    }
    free(msg);
}

/* ------------------------------------------------------------ SortShuffled */

typedef struct fbd_deck {
    uint32_t *v;
    size_t n;
    fb_rng rng;
} fbd_deck;

/* The setup: a Fisher-Yates shuffle, before every epoch, untimed. */
static void fbd_shuffle(void *ctx) {
    fbd_deck *d = (fbd_deck *)ctx;
    for (size_t i = d->n - 1; i > 0; i--) {
        size_t j = fb_rng_bounded(&d->rng, (uint32_t)(i + 1));
        uint32_t t = d->v[i];
        d->v[i] = d->v[j];
        d->v[j] = t;
    }
}

static int fbd_cmp_u32(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* A fair sort benchmark: every sort gets freshly shuffled input. Without the
 * setup, every call after an epoch's first would sort sorted numbers. One
 * sort per epoch (tens of microseconds and more) is far above the clock's
 * resolution; 21 epochs steady the median. */
FB_BENCHMARK_RANGE(SortShuffled, 1 << 10, 1 << 15, 2) {
    fbd_deck d;
    d.n = (size_t)fb_arg(b);
    d.v = (uint32_t *)malloc(d.n * sizeof *d.v);
    if (!d.v) {
        fprintf(stderr, "SortShuffled/%zu: out of memory, skipped\n", d.n);
        return;
    }
    for (size_t i = 0; i < d.n; i++) d.v[i] = (uint32_t)i * 2654435761u;
    fb_rng_seed(&d.rng, 42);
    fb_set_setup(b, fbd_shuffle, &d);
    fb_set_epoch_iterations(b, 1);
    fb_set_epochs(b, 21);
    fb_set_max_total_time(b, 0.2); /* 21 epochs even of the largest sort */
    fb_set_complexity_n(b, (double)d.n);
    FB_RUN(b, NULL) {
        qsort(d.v, d.n, sizeof *d.v, fbd_cmp_u32);
        fb_do_not_optimize(d.v[0]);
    }
    free(d.v);
}
