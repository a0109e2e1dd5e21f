/* Reference SHA-256, SHA-512, SipHash-2-4 and ChaCha20 (see hashes.h).
 *
 * Written from the specifications: FIPS 180-4 (SHA-2), the SipHash paper
 * (Aumasson, Bernstein 2012) and RFC 8439 (ChaCha20). The constants below
 * were derived from their definitions (fractional parts of square and cube
 * roots of the first primes); tests/test_hashes.c checks the published
 * vectors. */
#include "hashes.h"

#include <string.h>

/* ------------------------------------------------------------- helpers */

static inline uint32_t fbh__load_be32(const uint8_t *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

static inline void fbh__store_be32(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

static inline uint64_t fbh__load_be64(const uint8_t *p) {
    return (uint64_t)fbh__load_be32(p) << 32 | fbh__load_be32(p + 4);
}

static inline void fbh__store_be64(uint8_t *p, uint64_t v) {
    fbh__store_be32(p, (uint32_t)(v >> 32));
    fbh__store_be32(p + 4, (uint32_t)v);
}

static inline uint32_t fbh__load_le32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline void fbh__store_le32(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

static inline uint64_t fbh__load_le64(const uint8_t *p) {
    return (uint64_t)fbh__load_le32(p) | (uint64_t)fbh__load_le32(p + 4) << 32;
}

/* n is never 0 or the word size here, so both shifts are defined. */
static inline uint32_t fbh__rotr32(uint32_t x, unsigned n) { return x >> n | x << (32 - n); }
static inline uint32_t fbh__rotl32(uint32_t x, unsigned n) { return x << n | x >> (32 - n); }
static inline uint64_t fbh__rotr64(uint64_t x, unsigned n) { return x >> n | x << (64 - n); }
static inline uint64_t fbh__rotl64(uint64_t x, unsigned n) { return x << n | x >> (64 - n); }

/* ------------------------------------------------------------- SHA-256 */

static const uint32_t fbh__sha256_iv[8] = {
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
};

static const uint32_t fbh__sha256_k[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

/* K[i] + W[i] for the padding block that follows a 64-byte message
 * (W = 0x80000000, 0 x 14, 512 bits, expanded). The block is the same for
 * every input, so SHA256D64 skips its message schedule. */
static const uint32_t fbh__sha256_pad64_kw[64] = {
    0xc28a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf374,
    0x649b69c1, 0xf0fe4786, 0x0fe1edc6, 0x240cf254, 0x4fe9346f, 0x6cc984be, 0x61b9411e, 0x16f988fa,
    0xf2c65152, 0xa88e5a6d, 0xb019fc65, 0xb9d99ec7, 0x9a1231c3, 0xe70eeaa0, 0xfdb1232b, 0xc7353eb0,
    0x3069bad5, 0xcb976d5f, 0x5a0f118f, 0xdc1eeefd, 0x0a35b689, 0xde0b7a04, 0x58f4ca9d, 0xe15d5b16,
    0x007f3e86, 0x37088980, 0xa507ea32, 0x6fab9537, 0x17406110, 0x0d8cd6f1, 0xcdaa3b6d, 0xc0bbbe37,
    0x83613bda, 0xdb48a363, 0x0b02e931, 0x6fd15ca7, 0x521afaca, 0x31338431, 0x6ed41a95, 0x6d437890,
    0xc39c91f2, 0x9eccabbd, 0xb5c9a0e6, 0x532fb63c, 0xd2c741c6, 0x07237ea3, 0xa4954b68, 0x4c191d76,
};

/* One round; the callers rotate the roles of a..h instead of moving data. */
#define FBH__SHA256_ROUND(a, b, c, d, e, f, g, h, kw)                                              \
    do {                                                                                           \
        uint32_t fbh__t1 = (h) +                                                                   \
                           (fbh__rotr32((e), 6) ^ fbh__rotr32((e), 11) ^ fbh__rotr32((e), 25)) +   \
                           (((e) & (f)) ^ (~(e) & (g))) + (kw);                                    \
        uint32_t fbh__t2 = (fbh__rotr32((a), 2) ^ fbh__rotr32((a), 13) ^ fbh__rotr32((a), 22)) +   \
                           (((a) & (b)) ^ ((a) & (c)) ^ ((b) & (c)));                              \
        (d) += fbh__t1;                                                                            \
        (h) = fbh__t1 + fbh__t2;                                                                   \
    } while (0)

/* The 64 rounds, given K[i] + W[i]. */
static void fbh__sha256_rounds(uint32_t s[8], const uint32_t kw[64]) {
    uint32_t a = s[0], b = s[1], c = s[2], d = s[3], e = s[4], f = s[5], g = s[6], h = s[7];
    for (int i = 0; i < 64; i += 8) {
        FBH__SHA256_ROUND(a, b, c, d, e, f, g, h, kw[i + 0]);
        FBH__SHA256_ROUND(h, a, b, c, d, e, f, g, kw[i + 1]);
        FBH__SHA256_ROUND(g, h, a, b, c, d, e, f, kw[i + 2]);
        FBH__SHA256_ROUND(f, g, h, a, b, c, d, e, kw[i + 3]);
        FBH__SHA256_ROUND(e, f, g, h, a, b, c, d, kw[i + 4]);
        FBH__SHA256_ROUND(d, e, f, g, h, a, b, c, kw[i + 5]);
        FBH__SHA256_ROUND(c, d, e, f, g, h, a, b, kw[i + 6]);
        FBH__SHA256_ROUND(b, c, d, e, f, g, h, a, kw[i + 7]);
    }
    s[0] += a;
    s[1] += b;
    s[2] += c;
    s[3] += d;
    s[4] += e;
    s[5] += f;
    s[6] += g;
    s[7] += h;
}

/* w[0..15] holds the block's words; fills w[16..63] and adds K to all. */
static void fbh__sha256_schedule(uint32_t w[64]) {
    for (int i = 16; i < 64; i++) {
        uint32_t s0 = fbh__rotr32(w[i - 15], 7) ^ fbh__rotr32(w[i - 15], 18) ^ (w[i - 15] >> 3);
        uint32_t s1 = fbh__rotr32(w[i - 2], 17) ^ fbh__rotr32(w[i - 2], 19) ^ (w[i - 2] >> 10);
        w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    for (int i = 0; i < 64; i++) w[i] += fbh__sha256_k[i];
}

static void fbh__sha256_block(uint32_t s[8], const uint8_t p[64]) {
    uint32_t w[64];
    for (int i = 0; i < 16; i++) w[i] = fbh__load_be32(p + 4 * i);
    fbh__sha256_schedule(w);
    fbh__sha256_rounds(s, w);
}

void fbh_sha256_init(fbh_sha256_ctx *c) {
    memcpy(c->state, fbh__sha256_iv, sizeof c->state);
    c->bytes = 0;
}

void fbh_sha256_update(fbh_sha256_ctx *c, const void *data, size_t len) {
    const uint8_t *p = (const uint8_t *)data;
    size_t used = (size_t)(c->bytes % 64);
    c->bytes += len;
    if (used) {
        size_t take = 64 - used < len ? 64 - used : len;
        memcpy(c->buf + used, p, take);
        p += take;
        len -= take;
        if (used + take < 64) return;
        fbh__sha256_block(c->state, c->buf);
    }
    for (; len >= 64; p += 64, len -= 64) fbh__sha256_block(c->state, p);
    if (len) memcpy(c->buf, p, len);
}

void fbh_sha256_final(fbh_sha256_ctx *c, uint8_t out[FBH_SHA256_SIZE]) {
    size_t used = (size_t)(c->bytes % 64);
    c->buf[used++] = 0x80;
    if (used > 56) {
        memset(c->buf + used, 0, 64 - used);
        fbh__sha256_block(c->state, c->buf);
        used = 0;
    }
    memset(c->buf + used, 0, 56 - used);
    fbh__store_be64(c->buf + 56, c->bytes << 3);
    fbh__sha256_block(c->state, c->buf);
    for (int i = 0; i < 8; i++) fbh__store_be32(out + 4 * i, c->state[i]);
}

void fbh_sha256(const void *data, size_t len, uint8_t out[FBH_SHA256_SIZE]) {
    fbh_sha256_ctx c;
    fbh_sha256_init(&c);
    fbh_sha256_update(&c, data, len);
    fbh_sha256_final(&c, out);
}

void fbh_sha256d64(uint8_t *out, const uint8_t *in, size_t blocks) {
    for (size_t n = 0; n < blocks; n++, in += 64, out += 32) {
        /* First hash: the 64-byte message, then the fixed padding block. */
        uint32_t s[8];
        memcpy(s, fbh__sha256_iv, sizeof s);
        fbh__sha256_block(s, in);
        fbh__sha256_rounds(s, fbh__sha256_pad64_kw);
        /* Second hash: a single block, the 32-byte digest (still as words)
         * followed by its padding: 0x80 byte, zeros, length 256 bits. */
        uint32_t w[64] = {s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7], 0x80000000u};
        w[15] = 256;
        fbh__sha256_schedule(w);
        memcpy(s, fbh__sha256_iv, sizeof s);
        fbh__sha256_rounds(s, w);
        for (int i = 0; i < 8; i++) fbh__store_be32(out + 4 * i, s[i]);
    }
}

/* ------------------------------------------------------------- SHA-512 */

static const uint64_t fbh__sha512_iv[8] = {
    0x6a09e667f3bcc908ULL, 0xbb67ae8584caa73bULL, 0x3c6ef372fe94f82bULL, 0xa54ff53a5f1d36f1ULL,
    0x510e527fade682d1ULL, 0x9b05688c2b3e6c1fULL, 0x1f83d9abfb41bd6bULL, 0x5be0cd19137e2179ULL,
};

static const uint64_t fbh__sha512_k[80] = {
    0x428a2f98d728ae22ULL, 0x7137449123ef65cdULL, 0xb5c0fbcfec4d3b2fULL, 0xe9b5dba58189dbbcULL,
    0x3956c25bf348b538ULL, 0x59f111f1b605d019ULL, 0x923f82a4af194f9bULL, 0xab1c5ed5da6d8118ULL,
    0xd807aa98a3030242ULL, 0x12835b0145706fbeULL, 0x243185be4ee4b28cULL, 0x550c7dc3d5ffb4e2ULL,
    0x72be5d74f27b896fULL, 0x80deb1fe3b1696b1ULL, 0x9bdc06a725c71235ULL, 0xc19bf174cf692694ULL,
    0xe49b69c19ef14ad2ULL, 0xefbe4786384f25e3ULL, 0x0fc19dc68b8cd5b5ULL, 0x240ca1cc77ac9c65ULL,
    0x2de92c6f592b0275ULL, 0x4a7484aa6ea6e483ULL, 0x5cb0a9dcbd41fbd4ULL, 0x76f988da831153b5ULL,
    0x983e5152ee66dfabULL, 0xa831c66d2db43210ULL, 0xb00327c898fb213fULL, 0xbf597fc7beef0ee4ULL,
    0xc6e00bf33da88fc2ULL, 0xd5a79147930aa725ULL, 0x06ca6351e003826fULL, 0x142929670a0e6e70ULL,
    0x27b70a8546d22ffcULL, 0x2e1b21385c26c926ULL, 0x4d2c6dfc5ac42aedULL, 0x53380d139d95b3dfULL,
    0x650a73548baf63deULL, 0x766a0abb3c77b2a8ULL, 0x81c2c92e47edaee6ULL, 0x92722c851482353bULL,
    0xa2bfe8a14cf10364ULL, 0xa81a664bbc423001ULL, 0xc24b8b70d0f89791ULL, 0xc76c51a30654be30ULL,
    0xd192e819d6ef5218ULL, 0xd69906245565a910ULL, 0xf40e35855771202aULL, 0x106aa07032bbd1b8ULL,
    0x19a4c116b8d2d0c8ULL, 0x1e376c085141ab53ULL, 0x2748774cdf8eeb99ULL, 0x34b0bcb5e19b48a8ULL,
    0x391c0cb3c5c95a63ULL, 0x4ed8aa4ae3418acbULL, 0x5b9cca4f7763e373ULL, 0x682e6ff3d6b2b8a3ULL,
    0x748f82ee5defb2fcULL, 0x78a5636f43172f60ULL, 0x84c87814a1f0ab72ULL, 0x8cc702081a6439ecULL,
    0x90befffa23631e28ULL, 0xa4506cebde82bde9ULL, 0xbef9a3f7b2c67915ULL, 0xc67178f2e372532bULL,
    0xca273eceea26619cULL, 0xd186b8c721c0c207ULL, 0xeada7dd6cde0eb1eULL, 0xf57d4f7fee6ed178ULL,
    0x06f067aa72176fbaULL, 0x0a637dc5a2c898a6ULL, 0x113f9804bef90daeULL, 0x1b710b35131c471bULL,
    0x28db77f523047d84ULL, 0x32caab7b40c72493ULL, 0x3c9ebe0a15c9bebcULL, 0x431d67c49c100d4cULL,
    0x4cc5d4becb3e42b6ULL, 0x597f299cfc657e2aULL, 0x5fcb6fab3ad6faecULL, 0x6c44198c4a475817ULL,
};

#define FBH__SHA512_ROUND(a, b, c, d, e, f, g, h, kw)                                              \
    do {                                                                                           \
        uint64_t fbh__t1 = (h) +                                                                   \
                           (fbh__rotr64((e), 14) ^ fbh__rotr64((e), 18) ^ fbh__rotr64((e), 41)) +  \
                           (((e) & (f)) ^ (~(e) & (g))) + (kw);                                    \
        uint64_t fbh__t2 = (fbh__rotr64((a), 28) ^ fbh__rotr64((a), 34) ^ fbh__rotr64((a), 39)) +  \
                           (((a) & (b)) ^ ((a) & (c)) ^ ((b) & (c)));                              \
        (d) += fbh__t1;                                                                            \
        (h) = fbh__t1 + fbh__t2;                                                                   \
    } while (0)

static void fbh__sha512_block(uint64_t s[8], const uint8_t p[128]) {
    uint64_t w[80];
    for (int i = 0; i < 16; i++) w[i] = fbh__load_be64(p + 8 * i);
    for (int i = 16; i < 80; i++) {
        uint64_t s0 = fbh__rotr64(w[i - 15], 1) ^ fbh__rotr64(w[i - 15], 8) ^ (w[i - 15] >> 7);
        uint64_t s1 = fbh__rotr64(w[i - 2], 19) ^ fbh__rotr64(w[i - 2], 61) ^ (w[i - 2] >> 6);
        w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    for (int i = 0; i < 80; i++) w[i] += fbh__sha512_k[i];

    uint64_t a = s[0], b = s[1], c = s[2], d = s[3], e = s[4], f = s[5], g = s[6], h = s[7];
    for (int i = 0; i < 80; i += 8) {
        FBH__SHA512_ROUND(a, b, c, d, e, f, g, h, w[i + 0]);
        FBH__SHA512_ROUND(h, a, b, c, d, e, f, g, w[i + 1]);
        FBH__SHA512_ROUND(g, h, a, b, c, d, e, f, w[i + 2]);
        FBH__SHA512_ROUND(f, g, h, a, b, c, d, e, w[i + 3]);
        FBH__SHA512_ROUND(e, f, g, h, a, b, c, d, w[i + 4]);
        FBH__SHA512_ROUND(d, e, f, g, h, a, b, c, w[i + 5]);
        FBH__SHA512_ROUND(c, d, e, f, g, h, a, b, w[i + 6]);
        FBH__SHA512_ROUND(b, c, d, e, f, g, h, a, w[i + 7]);
    }
    s[0] += a;
    s[1] += b;
    s[2] += c;
    s[3] += d;
    s[4] += e;
    s[5] += f;
    s[6] += g;
    s[7] += h;
}

void fbh_sha512_init(fbh_sha512_ctx *c) {
    memcpy(c->state, fbh__sha512_iv, sizeof c->state);
    c->bytes = 0;
}

void fbh_sha512_update(fbh_sha512_ctx *c, const void *data, size_t len) {
    const uint8_t *p = (const uint8_t *)data;
    size_t used = (size_t)(c->bytes % 128);
    c->bytes += len;
    if (used) {
        size_t take = 128 - used < len ? 128 - used : len;
        memcpy(c->buf + used, p, take);
        p += take;
        len -= take;
        if (used + take < 128) return;
        fbh__sha512_block(c->state, c->buf);
    }
    for (; len >= 128; p += 128, len -= 128) fbh__sha512_block(c->state, p);
    if (len) memcpy(c->buf, p, len);
}

void fbh_sha512_final(fbh_sha512_ctx *c, uint8_t out[FBH_SHA512_SIZE]) {
    size_t used = (size_t)(c->bytes % 128);
    c->buf[used++] = 0x80;
    if (used > 112) {
        memset(c->buf + used, 0, 128 - used);
        fbh__sha512_block(c->state, c->buf);
        used = 0;
    }
    memset(c->buf + used, 0, 112 - used);
    /* The length field is 128 bits of bit count. */
    fbh__store_be64(c->buf + 112, c->bytes >> 61);
    fbh__store_be64(c->buf + 120, c->bytes << 3);
    fbh__sha512_block(c->state, c->buf);
    for (int i = 0; i < 8; i++) fbh__store_be64(out + 8 * i, c->state[i]);
}

void fbh_sha512(const void *data, size_t len, uint8_t out[FBH_SHA512_SIZE]) {
    fbh_sha512_ctx c;
    fbh_sha512_init(&c);
    fbh_sha512_update(&c, data, len);
    fbh_sha512_final(&c, out);
}

/* ------------------------------------------------------------- SipHash */

typedef struct fbh__sip {
    uint64_t v0, v1, v2, v3;
} fbh__sip;

static inline void fbh__sipround(fbh__sip *s) {
    s->v0 += s->v1;
    s->v1 = fbh__rotl64(s->v1, 13);
    s->v1 ^= s->v0;
    s->v0 = fbh__rotl64(s->v0, 32);
    s->v2 += s->v3;
    s->v3 = fbh__rotl64(s->v3, 16);
    s->v3 ^= s->v2;
    s->v0 += s->v3;
    s->v3 = fbh__rotl64(s->v3, 21);
    s->v3 ^= s->v0;
    s->v2 += s->v1;
    s->v1 = fbh__rotl64(s->v1, 17);
    s->v1 ^= s->v2;
    s->v2 = fbh__rotl64(s->v2, 32);
}

static inline fbh__sip fbh__sip_init(uint64_t k0, uint64_t k1) {
    /* "somepseudorandomlygeneratedbytes" */
    fbh__sip s = {k0 ^ 0x736f6d6570736575ULL, k1 ^ 0x646f72616e646f6dULL,
                  k0 ^ 0x6c7967656e657261ULL, k1 ^ 0x7465646279746573ULL};
    return s;
}

/* Two compression rounds per 8-byte word (the "2" of SipHash-2-4). */
static inline void fbh__sip_word(fbh__sip *s, uint64_t m) {
    s->v3 ^= m;
    fbh__sipround(s);
    fbh__sipround(s);
    s->v0 ^= m;
}

/* Four finalization rounds (the "4"). */
static inline uint64_t fbh__sip_final(fbh__sip *s) {
    s->v2 ^= 0xff;
    fbh__sipround(s);
    fbh__sipround(s);
    fbh__sipround(s);
    fbh__sipround(s);
    return s->v0 ^ s->v1 ^ s->v2 ^ s->v3;
}

uint64_t fbh_siphash24(uint64_t k0, uint64_t k1, const void *data, size_t len) {
    const uint8_t *p = (const uint8_t *)data;
    fbh__sip s = fbh__sip_init(k0, k1);
    size_t full = len & ~(size_t)7;
    for (size_t i = 0; i < full; i += 8) fbh__sip_word(&s, fbh__load_le64(p + i));
    /* Last word: the 0..7 remaining bytes, little-endian, with the length
     * (mod 256) in the top byte. */
    uint64_t last = (uint64_t)(len & 0xff) << 56;
    for (size_t i = 0; i < (len & 7); i++) last |= (uint64_t)p[full + i] << (8 * i);
    fbh__sip_word(&s, last);
    return fbh__sip_final(&s);
}

uint64_t fbh_siphash24_u256(uint64_t k0, uint64_t k1, const uint8_t val[32]) {
    fbh__sip s = fbh__sip_init(k0, k1);
    fbh__sip_word(&s, fbh__load_le64(val));
    fbh__sip_word(&s, fbh__load_le64(val + 8));
    fbh__sip_word(&s, fbh__load_le64(val + 16));
    fbh__sip_word(&s, fbh__load_le64(val + 24));
    fbh__sip_word(&s, (uint64_t)32 << 56);
    return fbh__sip_final(&s);
}

/* ------------------------------------------------------------ ChaCha20 */

#define FBH__CHACHA_QR(x, a, b, c, d)                                                              \
    do {                                                                                           \
        x[a] += x[b];                                                                              \
        x[d] ^= x[a];                                                                              \
        x[d] = fbh__rotl32(x[d], 16);                                                              \
        x[c] += x[d];                                                                              \
        x[b] ^= x[c];                                                                              \
        x[b] = fbh__rotl32(x[b], 12);                                                              \
        x[a] += x[b];                                                                              \
        x[d] ^= x[a];                                                                              \
        x[d] = fbh__rotl32(x[d], 8);                                                               \
        x[c] += x[d];                                                                              \
        x[b] ^= x[c];                                                                              \
        x[b] = fbh__rotl32(x[b], 7);                                                               \
    } while (0)

/* The block function on a prepared 16-word state (constants, key,
 * counter, nonce): 20 rounds, add the input, serialize little-endian. */
static void fbh__chacha20_core(const uint32_t in[16], uint8_t out[64]) {
    uint32_t x[16];
    memcpy(x, in, sizeof x);
    for (int i = 0; i < 10; i++) {
        FBH__CHACHA_QR(x, 0, 4, 8, 12); /* columns */
        FBH__CHACHA_QR(x, 1, 5, 9, 13);
        FBH__CHACHA_QR(x, 2, 6, 10, 14);
        FBH__CHACHA_QR(x, 3, 7, 11, 15);
        FBH__CHACHA_QR(x, 0, 5, 10, 15); /* diagonals */
        FBH__CHACHA_QR(x, 1, 6, 11, 12);
        FBH__CHACHA_QR(x, 2, 7, 8, 13);
        FBH__CHACHA_QR(x, 3, 4, 9, 14);
    }
    for (int i = 0; i < 16; i++) fbh__store_le32(out + 4 * i, x[i] + in[i]);
}

/* "expand 32-byte k" */
static const uint32_t fbh__chacha_sigma[4] = {0x61707865, 0x3320646e, 0x79622d32, 0x6b206574};

void fbh_chacha20_block(const uint8_t key[32], uint32_t counter, const uint8_t nonce[12],
                        uint8_t out[64]) {
    uint32_t in[16];
    memcpy(in, fbh__chacha_sigma, sizeof fbh__chacha_sigma);
    for (int i = 0; i < 8; i++) in[4 + i] = fbh__load_le32(key + 4 * i);
    in[12] = counter;
    for (int i = 0; i < 3; i++) in[13 + i] = fbh__load_le32(nonce + 4 * i);
    fbh__chacha20_core(in, out);
}

void fbh_fastrandom_init(fbh_fastrandom *r, const uint8_t key[32]) {
    for (int i = 0; i < 8; i++) r->key[i] = fbh__load_le32(key + 4 * i);
    r->counter = 0;
    r->pos = sizeof r->buf; /* empty: the first draw computes block 0 */
}

void fbh_fastrandom_seed(fbh_fastrandom *r, uint64_t seed) {
    uint8_t key[32] = {0};
    for (int i = 0; i < 8; i++) key[i] = (uint8_t)(seed >> (8 * i));
    fbh_fastrandom_init(r, key);
}

void fbh_fastrandom_refill(fbh_fastrandom *r) {
    /* A 64-bit block counter in words 12-13 (the original ChaCha layout)
     * and a zero nonce: identical to RFC 8439 with nonce 0 for the first
     * 2^32 blocks, and never repeats in practice. */
    uint32_t in[16];
    memcpy(in, fbh__chacha_sigma, sizeof fbh__chacha_sigma);
    memcpy(in + 4, r->key, sizeof r->key);
    in[12] = (uint32_t)r->counter;
    in[13] = (uint32_t)(r->counter >> 32);
    in[14] = 0;
    in[15] = 0;
    r->counter++;
    fbh__chacha20_core(in, r->buf);
    r->pos = 0;
}

#undef FBH__SHA256_ROUND
#undef FBH__SHA512_ROUND
#undef FBH__CHACHA_QR
