/* The crypto_hash suite of Bitcoin Core's bench_bitcoin, with our reference
 * implementations (bench/hashes.c). Same names, shapes and units:
 *
 *   SHA256, SHA512     hash a zero-filled 1,000,000-byte buffer   ns/byte
 *   SHA256_32b         hash 32 bytes, digest back into the input   ns/byte
 *   SHA256D64_1024     1024 x 64-byte double SHA-256, in place     ns/byte
 *   SipHash_32b        keyed hash of 32 bytes, result chained back ns/op
 *   FastRandom_32bit   one rand32() from the ChaCha20 RNG          ns/op
 *
 * The chaining ones feed each output into the next input, so no call can
 * be hoisted or overlapped with the next. Buffers are allocated before the
 * timed loop and freed after it. */
#include <femtobench.h>

#include "hashes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FBH_DEMO_MB 1000000 /* decimal, as in Bitcoin's BUFFER_SIZE */

/* A zeroed heap buffer, or NULL with a note on stderr (the benchmark is
 * then skipped: it records no row). The zeros are written, not left to
 * calloc: untouched pages would fault inside the first timed epoch, and
 * reading them would read the kernel's one shared zero page. The barrier
 * keeps the compiler from turning malloc + memset back into calloc. */
static uint8_t *fbh_demo_zeroed(size_t size, const char *bench) {
    uint8_t *p = (uint8_t *)malloc(size);
    if (!p) {
        fprintf(stderr, "%s: out of memory, skipped\n", bench);
        return NULL;
    }
    fb_do_not_optimize(p);
    memset(p, 0, size);
    return p;
}

FB_BENCHMARK(SHA256) {
    uint8_t *in = fbh_demo_zeroed(FBH_DEMO_MB, "SHA256");
    if (!in) return;
    uint8_t digest[FBH_SHA256_SIZE];
    fb_set_batch(b, FBH_DEMO_MB);
    fb_set_unit(b, "byte");
    FB_RUN(b, "SHA256") {
        fbh_sha256(in, FBH_DEMO_MB, digest);
        fb_do_not_optimize(digest);
    }
    free(in);
}

FB_BENCHMARK(SHA256_32b) {
    uint8_t v[32] = {0};
    fb_set_batch(b, 32);
    fb_set_unit(b, "byte");
    FB_RUN(b, "SHA256_32b") {
        fbh_sha256(v, sizeof v, v);
        fb_do_not_optimize(v);
    }
}

/* Blocks hashed per call. tools/baseline_check.py builds a copy of the demo
 * with -DFBH_DEMO_D64_BLOCKS=1280: 25% more work at the same batch, the known
 * regression the change table must find (docs/baselines.md). */
#ifndef FBH_DEMO_D64_BLOCKS
#define FBH_DEMO_D64_BLOCKS 1024
#endif

FB_BENCHMARK(SHA256D64_1024) {
    uint8_t *buf = fbh_demo_zeroed(64 * FBH_DEMO_D64_BLOCKS, "SHA256D64_1024");
    if (!buf) return;
    fb_set_batch(b, 64 * 1024);
    fb_set_unit(b, "byte");
    FB_RUN(b, "SHA256D64_1024") {
        fbh_sha256d64(buf, buf, FBH_DEMO_D64_BLOCKS);
        fb_do_not_optimize(buf);
    }
    free(buf);
}

FB_BENCHMARK(SHA512) {
    uint8_t *in = fbh_demo_zeroed(FBH_DEMO_MB, "SHA512");
    if (!in) return;
    uint8_t digest[FBH_SHA512_SIZE];
    fb_set_batch(b, FBH_DEMO_MB);
    fb_set_unit(b, "byte");
    FB_RUN(b, "SHA512") {
        fbh_sha512(in, FBH_DEMO_MB, digest);
        fb_do_not_optimize(digest);
    }
    free(in);
}

FB_BENCHMARK(SipHash_32b) {
    uint8_t v[32] = {0};
    uint64_t counter = 0;
    FB_RUN(b, "SipHash_32b") {
        uint64_t h = fbh_siphash24_u256(0, ++counter, v);
        fb_do_not_optimize(h);
        memcpy(v, &h, sizeof h);
    }
}

FB_BENCHMARK(FastRandom_32bit) {
    fbh_fastrandom rng;
    fbh_fastrandom_seed(&rng, 0);
    FB_RUN(b, "FastRandom_32bit") {
        uint32_t x = fbh_fastrandom_rand32(&rng);
        fb_do_not_optimize(x);
    }
}
