/* SPDX-License-Identifier: MIT
 *
 * The demo suite's paired comparison (docs/compare.md): how much does the
 * ChaCha20-based FastRandom cost next to two non-cryptographic generators,
 * femtobench's own sfc64 (fb_rng) and a textbook 64-bit LCG (Knuth's MMIX
 * constants, the high 32 bits)? Measured paired and interleaved, so the
 * ratios hold on a busy machine too. */
#include <femtobench.h>
#include "hashes.h"

FB_BENCHMARK(RandomGenerators) {
    fbh_fastrandom chacha;
    fbh_fastrandom_seed(&chacha, 0);
    fb_rng sfc;
    fb_rng_seed(&sfc, 0);
    uint64_t lcg = 0;
    FB_COMPARE(b, "32-bit random numbers") {
        FB_ALTERNATIVE("FastRandom (ChaCha20)") {
            uint32_t x = fbh_fastrandom_rand32(&chacha);
            fb_do_not_optimize(x);
        }
        FB_ALTERNATIVE("sfc64 (fb_rng)") {
            uint32_t x = (uint32_t)(fb_rng_u64(&sfc) >> 32);
            fb_do_not_optimize(x);
        }
        FB_ALTERNATIVE("LCG (textbook)") {
            lcg = lcg * 6364136223846793005u + 1442695040888963407u;
            uint32_t x = (uint32_t)(lcg >> 32);
            fb_do_not_optimize(x);
        }
    }
}
