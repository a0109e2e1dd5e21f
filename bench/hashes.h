/* Reference hash functions and a ChaCha20 RNG for the demo suite (the
 * shapes of Bitcoin Core's crypto_hash benchmarks). Portable C11, no
 * intrinsics: small and clear first, reasonably fast second. Byte order is
 * handled explicitly, so results do not depend on the host's endianness.
 *
 * Every name starts with fbh_ / FBH_ (fbh__ for file-internal helpers):
 * the sources may be concatenated into one translation unit.
 *
 * Not for production cryptography: no side-channel hardening, and the
 * buffers that held secrets are not wiped. */
#ifndef FBH_HASHES_H
#define FBH_HASHES_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------ SHA-256 */

#define FBH_SHA256_SIZE 32

typedef struct fbh_sha256_ctx {
    uint32_t state[8];
    uint64_t bytes;  /* message length so far */
    uint8_t buf[64]; /* partial block; bytes % 64 of it are used */
} fbh_sha256_ctx;

void fbh_sha256_init(fbh_sha256_ctx *c);
void fbh_sha256_update(fbh_sha256_ctx *c, const void *data, size_t len);
/* Writes the digest; c must be initialised again before reuse. */
void fbh_sha256_final(fbh_sha256_ctx *c, uint8_t out[FBH_SHA256_SIZE]);
void fbh_sha256(const void *data, size_t len, uint8_t out[FBH_SHA256_SIZE]);

/* Bitcoin's merkle inner loop: out[32*i..] = SHA256(SHA256(in[64*i..64*i+63]))
 * for i < blocks. out may equal in (each output is written after its input
 * was read, and it never overlaps a later input). */
void fbh_sha256d64(uint8_t *out, const uint8_t *in, size_t blocks);

/* ------------------------------------------------------------ SHA-512 */

#define FBH_SHA512_SIZE 64

typedef struct fbh_sha512_ctx {
    uint64_t state[8];
    uint64_t bytes; /* message length so far (up to 2^64-1 bytes) */
    uint8_t buf[128];
} fbh_sha512_ctx;

void fbh_sha512_init(fbh_sha512_ctx *c);
void fbh_sha512_update(fbh_sha512_ctx *c, const void *data, size_t len);
void fbh_sha512_final(fbh_sha512_ctx *c, uint8_t out[FBH_SHA512_SIZE]);
void fbh_sha512(const void *data, size_t len, uint8_t out[FBH_SHA512_SIZE]);

/* ------------------------------------------------------------ SipHash */

/* SipHash-2-4 with 64-bit output; the 128-bit key is k0 || k1 (k0 holds
 * key bytes 0..7 read little-endian, as in the reference code). */
uint64_t fbh_siphash24(uint64_t k0, uint64_t k1, const void *data, size_t len);
/* The same for exactly 32 bytes (a uint256, as in Bitcoin's SipHashUint256):
 * equal to fbh_siphash24(k0, k1, val, 32), without the length handling. */
uint64_t fbh_siphash24_u256(uint64_t k0, uint64_t k1, const uint8_t val[32]);

/* ------------------------------------------------------------ ChaCha20 */

/* The RFC 8439 block function: 64 bytes of keystream for (key, counter,
 * 96-bit nonce). */
void fbh_chacha20_block(const uint8_t key[32], uint32_t counter, const uint8_t nonce[12],
                        uint8_t out[64]);

/* A deterministic RNG like Bitcoin's FastRandomContext: the ChaCha20
 * keystream for a 256-bit key, nonce 0, block counter 0, 1, 2, ...,
 * consumed in order (rand32 takes 4 bytes, rand64 8, little-endian).
 * Not thread-safe; one per thread. */
typedef struct fbh_fastrandom {
    uint32_t key[8];
    uint64_t counter; /* next block */
    uint8_t buf[64];  /* the current block */
    unsigned pos;     /* bytes of buf consumed */
} fbh_fastrandom;

void fbh_fastrandom_init(fbh_fastrandom *r, const uint8_t key[32]);
/* Key = seed as 8 little-endian bytes followed by 24 zero bytes. */
void fbh_fastrandom_seed(fbh_fastrandom *r, uint64_t seed);
/* Refills the buffer; called by the inline functions below. */
void fbh_fastrandom_refill(fbh_fastrandom *r);

static inline uint32_t fbh_fastrandom_rand32(fbh_fastrandom *r) {
    if (r->pos > 64 - 4) fbh_fastrandom_refill(r);
    const uint8_t *p = r->buf + r->pos;
    r->pos += 4;
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t fbh_fastrandom_rand64(fbh_fastrandom *r) {
    uint64_t lo = fbh_fastrandom_rand32(r);
    return lo | (uint64_t)fbh_fastrandom_rand32(r) << 32;
}

#ifdef __cplusplus
}
#endif

#endif /* FBH_HASHES_H */
