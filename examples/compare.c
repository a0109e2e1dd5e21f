/* SPDX-License-Identifier: MIT
 *
 * compare.c: is A faster than B, and how sure are we?
 *
 * fb_compare() and FB_COMPARE run the alternatives paired and interleaved:
 * the same iteration count for all, one epoch of each per round, in a
 * shuffled order, so whatever the machine does meanwhile (frequency changes,
 * a noisy neighbour) hits all of them alike. The table gets `relative` (the
 * baseline's time over this one's: 125% = 1.25x as fast) and a 95% interval
 * for it; the line under it says whether the two were told apart.
 * The first alternative is the baseline. docs/compare.md has the method.
 *
 * Run: ./compare
 */
#include <femtobench.h>

#include <string.h>

#define N 4096

static unsigned char src[N], dst[N];

/* The function-pointer form: one op per alternative. */
static void copy_memcpy(void *ctx) {
    unsigned char *d = ctx;
    fb_do_not_optimize(d); /* the compiler cannot know where d points */
    memcpy(d, src, N);
    fb_clobber_memory();
}

static void copy_words(void *ctx) {
    unsigned char *d = ctx;
    fb_do_not_optimize(d);
    for (size_t i = 0; i < N; i += sizeof(uint64_t)) {
        uint64_t w;
        memcpy(&w, src + i, sizeof w);
        memcpy(d + i, &w, sizeof w);
        fb_clobber_memory(); /* one word at a time: no vectorizing, no memcpy call */
    }
}

int main(void) {
    fb_bench *b = fb_bench_new();
    if (b == NULL) {
        return 1;
    }
    for (size_t i = 0; i < N; ++i) {
        src[i] = (unsigned char)(i * 7u);
    }

    const fb_alternative copies[] = {
        {"memcpy", copy_memcpy, dst},
        {"word loop", copy_words, dst},
    };
    const fb_comparison *c = fb_compare(b, "copy 4 KiB", copies, 2);
    if (c == NULL) {
        fb_bench_free(b);
        return 1;
    }
    if (fb_comparison_significant(c, 1)) {
        printf("\nthe word loop takes %.2fx the time of memcpy\n\n",
               1.0 / fb_comparison_ratio(c, 1));
    }

    /* The inline form: bodies go straight into the timed loops, no call per
     * iteration. Code in the block outside the alternatives runs once per
     * epoch, untimed. Both alternatives see the same inputs. */
    fb_rng rng;
    fb_rng_seed(&rng, 7);
    unsigned sum = 0;
    FB_COMPARE(b, "popcount") {
        FB_ALTERNATIVE("bit loop") {
            uint64_t v = fb_rng_u64(&rng);
            unsigned n = 0;
            while (v != 0) {
                n += (unsigned)(v & 1u);
                v >>= 1;
            }
            sum += n;
            fb_do_not_optimize(sum);
        }
        FB_ALTERNATIVE("SWAR") {
            uint64_t v = fb_rng_u64(&rng);
            v = v - ((v >> 1) & 0x5555555555555555u);
            v = (v & 0x3333333333333333u) + ((v >> 2) & 0x3333333333333333u);
            v = (v + (v >> 4)) & 0x0f0f0f0f0f0f0f0fu;
            sum += (unsigned)((v * 0x0101010101010101u) >> 56);
            fb_do_not_optimize(sum);
        }
    }

    fb_bench_free(b);
    return 0;
}
