/* SPDX-License-Identifier: MIT
 *
 * throughput.c: report per byte instead of per call, with batch and unit.
 *
 * One call of the operation below processes a whole buffer. Telling femtobench
 * how many units one call handles (fb_set_batch) and what a unit is
 * (fb_set_unit) turns the columns into ns/byte and byte/s.
 *
 * Run: ./throughput
 */
#include <femtobench.h>

#include <stdlib.h>

/* FNV-1a, a simple byte-at-a-time hash: the "operation" we measure. */
static uint64_t fnv1a(const unsigned char *p, size_t n) {
    uint64_t h = 14695981039346656037u;
    for (size_t i = 0; i < n; i++) {
        h = (h ^ p[i]) * 1099511628211u;
    }
    return h;
}

int main(void) {
    fb_bench *b = fb_bench_new();
    if (b == NULL) {
        return 1;
    }
    fb_set_title(b, "hash throughput");
    fb_set_unit(b, "byte");

    /* Two buffer sizes: the per-byte figure shows whether the per-call cost
     * matters (it would for tiny inputs). */
    static const size_t sizes[] = {64, 64 * 1024};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        size_t n = sizes[k];
        unsigned char *buf = malloc(n);
        if (buf == NULL) {
            fb_bench_free(b);
            return 1;
        }
        fb_rng rng;
        fb_rng_seed(&rng, 1);
        for (size_t i = 0; i < n; i++) {
            buf[i] = (unsigned char)fb_rng_u64(&rng);
        }

        /* One call of the body handles n bytes. */
        fb_set_batch(b, (double)n);
        const char *name = n == 64 ? "fnv1a 64 B" : "fnv1a 64 KiB";
        uint64_t h = 0;
        FB_RUN(b, name) {
            h = fnv1a(buf, n);
            fb_do_not_optimize(h);
        }
        free(buf);
    }

    fb_bench_free(b);
    return 0;
}
