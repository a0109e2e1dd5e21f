/* SPDX-License-Identifier: MIT
 *
 * relative.c: compare two implementations of the same thing.
 *
 * With fb_set_relative(b, true) the table gets a `relative` column: the first
 * row is the baseline (100%), and each later row says how fast it is next to
 * it (200% = twice as fast). Put the reference implementation first.
 *
 * Run: ./relative
 */
#include <femtobench.h>

/* Population count two ways. */
static unsigned popcount_loop(uint64_t x) {
    unsigned n = 0;
    while (x != 0) {
        n += (unsigned)(x & 1u);
        x >>= 1;
    }
    return n;
}

static unsigned popcount_swar(uint64_t x) {
    x = x - ((x >> 1) & 0x5555555555555555u);
    x = (x & 0x3333333333333333u) + ((x >> 2) & 0x3333333333333333u);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fu;
    return (unsigned)((x * 0x0101010101010101u) >> 56);
}

int main(void) {
    /* Both must agree, or the comparison means nothing. */
    for (uint64_t x = 1; x != 0; x <<= 7) {
        uint64_t v = x * 0x9e3779b97f4a7c15u;
        if (popcount_loop(v) != popcount_swar(v)) {
            fprintf(stderr, "implementations disagree on %llu\n", (unsigned long long)v);
            return 1;
        }
    }

    fb_bench *b = fb_bench_new();
    if (b == NULL) {
        return 1;
    }
    fb_set_title(b, "popcount");
    fb_set_relative(b, true);

    /* The same inputs for both: a random generator with a fixed seed. */
    fb_rng rng;
    unsigned sum = 0;

    fb_rng_seed(&rng, 7);
    FB_RUN(b, "bit loop (baseline)") {
        sum += popcount_loop(fb_rng_u64(&rng));
        fb_do_not_optimize(sum);
    }

    fb_rng_seed(&rng, 7);
    FB_RUN(b, "SWAR") {
        sum += popcount_swar(fb_rng_u64(&rng));
        fb_do_not_optimize(sum);
    }

    fb_bench_free(b);
    return 0;
}
