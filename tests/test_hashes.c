/* bench/hashes.c against published test vectors: FIPS 180 / NIST examples
 * (SHA-256, SHA-512), the SipHash paper's table (SipHash-2-4), RFC 8439
 * (ChaCha20) and a Bitcoin merkle root (SHA256D64).
 *
 * tests/CMakeLists.txt links the core library only, so the implementation
 * is compiled into this program directly. */
#include "hashes.c"

#include "check.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- util */

static void fbh_test_hex(char *dst, const uint8_t *p, size_t n) {
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        dst[2 * i] = digits[p[i] >> 4];
        dst[2 * i + 1] = digits[p[i] & 15];
    }
    dst[2 * n] = '\0';
}

/* Fails with both strings printed, via CHECK_STR. */
#define FBH_TEST_HEX(bytes, n, expect)                                                             \
    do {                                                                                           \
        char fbh_test_buf_[2 * 256 + 1];                                                           \
        fbh_test_hex(fbh_test_buf_, (bytes), (n));                                                 \
        CHECK_STR(fbh_test_buf_, (expect));                                                        \
    } while (0)

static void fbh_test_unhex(uint8_t *dst, const char *hex) {
    for (size_t i = 0; hex[2 * i]; i++) {
        char pair[3] = {hex[2 * i], hex[2 * i + 1], 0};
        dst[i] = (uint8_t)strtoul(pair, NULL, 16);
    }
}

static const char fbh_test_m448[] = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
static const char fbh_test_m896[] =
    "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmno"
    "ijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu";

/* Chunk sizes for streaming: odd ones, below, at and above a block. */
static const size_t fbh_test_chunks[] = {1, 3, 7, 13, 55, 56, 61, 64, 65, 111, 127, 128, 129, 1000};
#define FBH_TEST_NCHUNKS (sizeof fbh_test_chunks / sizeof fbh_test_chunks[0])

/* ------------------------------------------------------------- SHA-256 */

static void fbh_test_sha256(void) {
    uint8_t d[32];
    fbh_sha256("", 0, d);
    FBH_TEST_HEX(d, 32, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    fbh_sha256("abc", 3, d);
    FBH_TEST_HEX(d, 32, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    fbh_sha256(fbh_test_m448, strlen(fbh_test_m448), d);
    FBH_TEST_HEX(d, 32, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    fbh_sha256(fbh_test_m896, strlen(fbh_test_m896), d);
    FBH_TEST_HEX(d, 32, "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");

    /* One million 'a' through the streaming API, in odd chunks. */
    static const char *million_a =
        "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0";
    char *a = malloc(1000000);
    CHECK(a != NULL);
    if (!a) return;
    memset(a, 'a', 1000000);
    fbh_sha256_ctx c;
    fbh_sha256_init(&c);
    size_t done = 0;
    for (size_t k = 0; done < 1000000; k++) {
        size_t n = fbh_test_chunks[k % FBH_TEST_NCHUNKS];
        if (n > 1000000 - done) n = 1000000 - done;
        fbh_sha256_update(&c, a + done, n);
        done += n;
    }
    fbh_sha256_final(&c, d);
    FBH_TEST_HEX(d, 32, million_a);
    fbh_sha256(a, 1000000, d);
    FBH_TEST_HEX(d, 32, million_a);
    free(a);

    /* Every length 0..199 (each padding case around 55/56/64 bytes), one-shot
     * and byte by byte: the hash of all digests concatenated, computed with
     * an independent implementation (Python's hashlib). */
    uint8_t msg[200], digests[200 * 32];
    for (size_t i = 0; i < sizeof msg; i++) msg[i] = (uint8_t)(i % 251);
    for (size_t n = 0; n < 200; n++) {
        fbh_sha256(msg, n, digests + 32 * n);
        fbh_sha256_init(&c);
        for (size_t i = 0; i < n; i++) fbh_sha256_update(&c, msg + i, 1);
        fbh_sha256_final(&c, d);
        CHECK(memcmp(d, digests + 32 * n, 32) == 0);
    }
    fbh_sha256(digests, sizeof digests, d);
    FBH_TEST_HEX(d, 32, "ba7b0fcea7d10c06b855b43d2b4dce1e3e842fff6be0acefb0faf4f2dd05bb47");
}

/* ------------------------------------------------------------- SHA-512 */

static void fbh_test_sha512(void) {
    uint8_t d[64];
    fbh_sha512("", 0, d);
    FBH_TEST_HEX(d, 64,
                 "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce"
                 "47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e");
    fbh_sha512("abc", 3, d);
    FBH_TEST_HEX(d, 64,
                 "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
                 "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f");
    fbh_sha512(fbh_test_m448, strlen(fbh_test_m448), d);
    FBH_TEST_HEX(d, 64,
                 "204a8fc6dda82f0a0ced7beb8e08a41657c16ef468b228a8279be331a703c335"
                 "96fd15c13b1b07f9aa1d3bea57789ca031ad85c7a71dd70354ec631238ca3445");
    fbh_sha512(fbh_test_m896, strlen(fbh_test_m896), d);
    FBH_TEST_HEX(d, 64,
                 "8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018"
                 "501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd26545e96e55b874be909");

    static const char *million_a =
        "e718483d0ce769644e2e42c7bc15b4638e1f98b13b2044285632a803afa973eb"
        "de0ff244877ea60a4cb0432ce577c31beb009c5c2c49aa2e4eadb217ad8cc09b";
    char *a = malloc(1000000);
    CHECK(a != NULL);
    if (!a) return;
    memset(a, 'a', 1000000);
    fbh_sha512_ctx c;
    fbh_sha512_init(&c);
    size_t done = 0;
    for (size_t k = 0; done < 1000000; k++) {
        size_t n = fbh_test_chunks[(k * 5) % FBH_TEST_NCHUNKS];
        if (n > 1000000 - done) n = 1000000 - done;
        fbh_sha512_update(&c, a + done, n);
        done += n;
    }
    fbh_sha512_final(&c, d);
    FBH_TEST_HEX(d, 64, million_a);
    fbh_sha512(a, 1000000, d);
    FBH_TEST_HEX(d, 64, million_a);
    free(a);

    /* Lengths 0..299 (padding cases around 111/112/128 bytes), as above. */
    uint8_t msg[300], digests[300 * 64];
    for (size_t i = 0; i < sizeof msg; i++) msg[i] = (uint8_t)(i % 251);
    for (size_t n = 0; n < 300; n++) {
        fbh_sha512(msg, n, digests + 64 * n);
        fbh_sha512_init(&c);
        for (size_t i = 0; i < n; i++) fbh_sha512_update(&c, msg + i, 1);
        fbh_sha512_final(&c, d);
        CHECK(memcmp(d, digests + 64 * n, 64) == 0);
    }
    fbh_sha512(digests, sizeof digests, d);
    FBH_TEST_HEX(d, 64,
                 "5876909c163eee9aa8e3e0dbbe23ff09a3b1c1690c50ecab0cf75109b7ea0931"
                 "80f3b1db84ac4671a35db7394d95e9b645b20209761dc874ec013385e1db7916");
}

/* ----------------------------------------------------------- SHA256D64 */

static void fbh_test_sha256d64(void) {
    /* Bitcoin block 170: its merkle root is SHA256D of the two txids (in
     * internal byte order); explorers print all three byte-reversed. */
    static const char *txid[2] = {
        "b1fea52486ce0c62bb442b530a3f0132b826c74e473d1f2c220bfa78111c5082",
        "f4184fc596403b9d638783cf57adfe4c75c605f6356fbc91338530e9831e9e16",
    };
    uint8_t in[64], out[32], rev[32];
    for (int t = 0; t < 2; t++) {
        fbh_test_unhex(rev, txid[t]);
        for (int i = 0; i < 32; i++) in[32 * t + i] = rev[31 - i];
    }
    fbh_sha256d64(out, in, 1);
    for (int i = 0; i < 32; i++) rev[i] = out[31 - i];
    FBH_TEST_HEX(rev, 32, "7dac2c5666815c17a3b36427de37bb9d2e2c5ccec3f8633eb91a4205cb4c10ff");

    /* Many inputs, against the one-shot API; then in place, as the
     * benchmark does. */
    enum { N = 37 };
    uint8_t buf[64 * N], expect[32 * N], first[32];
    fbh_fastrandom r;
    fbh_fastrandom_seed(&r, 42);
    for (size_t i = 0; i < sizeof buf; i++) buf[i] = (uint8_t)fbh_fastrandom_rand32(&r);
    memset(buf, 0, 64); /* include the all-zero input */
    for (int i = 0; i < N; i++) {
        fbh_sha256(buf + 64 * i, 64, first);
        fbh_sha256(first, 32, expect + 32 * i);
    }
    uint8_t got[32 * N];
    fbh_sha256d64(got, buf, N);
    CHECK(memcmp(got, expect, sizeof got) == 0);
    fbh_sha256d64(buf, buf, N);
    CHECK(memcmp(buf, expect, sizeof expect) == 0);

    /* Zero inputs: writes nothing. */
    memset(got, 0xab, 32);
    fbh_sha256d64(got, buf, 0);
    CHECK(got[0] == 0xab && got[31] == 0xab);
}

/* ------------------------------------------------------------- SipHash */

/* The SipHash-2-4 reference table (vectors_sip64 of the paper's code):
 * key 00 01 .. 0f, message 00 01 .. (n-1) for n = 0..63, as the 64-bit
 * result (the table's 8 bytes read little-endian). Cross-checked with
 * OpenSSL 3 (openssl mac -macopt hexkey:0001..0f -macopt size:8 SIPHASH). */
static const uint64_t fbh_test_sip[64] = {
    0x726fdb47dd0e0e31ULL, 0x74f839c593dc67fdULL, 0x0d6c8009d9a94f5aULL, 0x85676696d7fb7e2dULL,
    0xcf2794e0277187b7ULL, 0x18765564cd99a68dULL, 0xcbc9466e58fee3ceULL, 0xab0200f58b01d137ULL,
    0x93f5f5799a932462ULL, 0x9e0082df0ba9e4b0ULL, 0x7a5dbbc594ddb9f3ULL, 0xf4b32f46226bada7ULL,
    0x751e8fbc860ee5fbULL, 0x14ea5627c0843d90ULL, 0xf723ca908e7af2eeULL, 0xa129ca6149be45e5ULL,
    0x3f2acc7f57c29bdbULL, 0x699ae9f52cbe4794ULL, 0x4bc1b3f0968dd39cULL, 0xbb6dc91da77961bdULL,
    0xbed65cf21aa2ee98ULL, 0xd0f2cbb02e3b67c7ULL, 0x93536795e3a33e88ULL, 0xa80c038ccd5ccec8ULL,
    0xb8ad50c6f649af94ULL, 0xbce192de8a85b8eaULL, 0x17d835b85bbb15f3ULL, 0x2f2e6163076bcfadULL,
    0xde4daaaca71dc9a5ULL, 0xa6a2506687956571ULL, 0xad87a3535c49ef28ULL, 0x32d892fad841c342ULL,
    0x7127512f72f27cceULL, 0xa7f32346f95978e3ULL, 0x12e0b01abb051238ULL, 0x15e034d40fa197aeULL,
    0x314dffbe0815a3b4ULL, 0x027990f029623981ULL, 0xcadcd4e59ef40c4dULL, 0x9abfd8766a33735cULL,
    0x0e3ea96b5304a7d0ULL, 0xad0c42d6fc585992ULL, 0x187306c89bc215a9ULL, 0xd4a60abcf3792b95ULL,
    0xf935451de4f21df2ULL, 0xa9538f0419755787ULL, 0xdb9acddff56ca510ULL, 0xd06c98cd5c0975ebULL,
    0xe612a3cb9ecba951ULL, 0xc766e62cfcadaf96ULL, 0xee64435a9752fe72ULL, 0xa192d576b245165aULL,
    0x0a8787bf8ecb74b2ULL, 0x81b3e73d20b49b6fULL, 0x7fa8220ba3b2eceaULL, 0x245731c13ca42499ULL,
    0xb78dbfaf3a8d83bdULL, 0xea1ad565322a1a0bULL, 0x60e61c23a3795013ULL, 0x6606d7e446282b93ULL,
    0x6ca4ecb15c5f91e1ULL, 0x9f626da15c9625f3ULL, 0xe51b38608ef25f57ULL, 0x958a324ceb064572ULL,
};

static void fbh_test_siphash(void) {
    const uint64_t k0 = 0x0706050403020100ULL, k1 = 0x0f0e0d0c0b0a0908ULL;
    uint8_t msg[64];
    for (int i = 0; i < 64; i++) msg[i] = (uint8_t)i;
    for (size_t n = 0; n < 64; n++) {
        uint64_t h = fbh_siphash24(k0, k1, msg, n);
        if (h != fbh_test_sip[n])
            fprintf(stderr, "siphash length %zu: got %016llx want %016llx\n", n,
                    (unsigned long long)h, (unsigned long long)fbh_test_sip[n]);
        CHECK(h == fbh_test_sip[n]);
    }
    CHECK(fbh_siphash24(k0, k1, msg, 15) == 0xa129ca6149be45e5ULL);

    /* Longer messages (bytes i mod 256), where only the low byte of the
     * length enters the last word; computed with OpenSSL 3 as above. */
    uint8_t longmsg[1000];
    for (int i = 0; i < 1000; i++) longmsg[i] = (uint8_t)i;
    CHECK(fbh_siphash24(k0, k1, longmsg, 255) == 0xa9c169fec74db21aULL);
    CHECK(fbh_siphash24(k0, k1, longmsg, 256) == 0x999d0526d2a7bfd7ULL);
    CHECK(fbh_siphash24(k0, k1, longmsg, 1000) == 0xdb9b3ed69e31c9a6ULL);

    /* The 32-byte path: the table's length-32 entry, then random values and
     * keys against the generic function. */
    CHECK(fbh_siphash24_u256(k0, k1, msg) == fbh_test_sip[32]);
    fbh_fastrandom r;
    fbh_fastrandom_seed(&r, 7);
    for (int t = 0; t < 100; t++) {
        uint8_t v[32];
        for (int i = 0; i < 32; i++) v[i] = (uint8_t)fbh_fastrandom_rand32(&r);
        uint64_t a = fbh_fastrandom_rand64(&r), b = fbh_fastrandom_rand64(&r);
        CHECK(fbh_siphash24_u256(a, b, v) == fbh_siphash24(a, b, v, 32));
    }
}

/* ------------------------------------------------------------ ChaCha20 */

static void fbh_test_chacha20(void) {
    uint8_t key[32], nonce[12], out[64];
    for (int i = 0; i < 32; i++) key[i] = (uint8_t)i;

    /* RFC 8439 2.3.2: the block function. */
    fbh_test_unhex(nonce, "000000090000004a00000000");
    fbh_chacha20_block(key, 1, nonce, out);
    FBH_TEST_HEX(out, 64,
                 "10f1e7e4d13b5915500fdd1fa32071c4c7d1f4c733c068030422aa9ac3d46c4e"
                 "d2826446079faa0914c2d705d98b02a2b5129cd1de164eb9cbd083e8a2503c4e");

    /* RFC 8439 2.4.2: encryption, keystream blocks 1 and 2 xored in. */
    static const char pt[] = "Ladies and Gentlemen of the class of '99: If I could offer you "
                             "only one tip for the future, sunscreen would be it.";
    uint8_t ct[sizeof pt - 1];
    CHECK(sizeof ct == 114);
    fbh_test_unhex(nonce, "000000000000004a00000000");
    for (size_t i = 0; i < sizeof ct; i++) {
        if (i % 64 == 0) fbh_chacha20_block(key, (uint32_t)(1 + i / 64), nonce, out);
        ct[i] = (uint8_t)(pt[i] ^ out[i % 64]);
    }
    FBH_TEST_HEX(ct, sizeof ct,
                 "6e2e359a2568f98041ba0728dd0d6981e97e7aec1d4360c20a27afccfd9fae0b"
                 "f91b65c5524733ab8f593dabcd62b3571639d624e65152ab8f530c359f0861d8"
                 "07ca0dbf500d6a6156a38e088a22b65e52bc514d16ccf806818ce91ab7793736"
                 "5af90bbf74a35be6b40b8eedf2785e42874d");

    /* RFC 8439 A.1 #1 and #2: all-zero key and nonce, blocks 0 and 1. */
    static const char *zero_blocks =
        "76b8e0ada0f13d90405d6ae55386bd28bdd219b8a08ded1aa836efcc8b770dc7"
        "da41597c5157488d7724e03fb8d84a376a43b8f41518a11cc387b669b2ee6586"
        "9f07e7be5551387a98ba977c732d080dcb0f29a048e3656912c6533e32ee7aed"
        "29b721769ce64e43d57133b074d839d531ed1f28510afb45ace10a1f4b794d6f";
    uint8_t zero[32] = {0}, stream[128];
    memset(nonce, 0, sizeof nonce);
    fbh_chacha20_block(zero, 0, nonce, stream);
    fbh_chacha20_block(zero, 1, nonce, stream + 64);
    FBH_TEST_HEX(stream, 128, zero_blocks);

    /* FastRandom is that keystream, read in order: rand32 4 bytes, rand64
     * 8, little-endian. One rand32 first, so that a rand64 straddles the
     * block boundary (bytes 60..67). */
    fbh_fastrandom r;
    fbh_fastrandom_init(&r, zero);
    CHECK(fbh_fastrandom_rand64(&r) == 0x903df1a0ade0b876ULL);
    CHECK(fbh_fastrandom_rand32(&r) == 0xe56a5d40u);
    uint8_t drawn[128];
    fbh_fastrandom_seed(&r, 0); /* same key */
    for (int i = 0; i < 128;) {
        uint64_t v = i == 0 ? fbh_fastrandom_rand32(&r) : fbh_fastrandom_rand64(&r);
        int n = i == 0 ? 4 : 8;
        for (int j = 0; j < n && i < 128; j++) drawn[i++] = (uint8_t)(v >> (8 * j));
    }
    FBH_TEST_HEX(drawn, 128, zero_blocks);

    /* A key in the 32-byte form and the seed form agree; different seeds
     * give different streams. */
    fbh_fastrandom s1, s2;
    uint8_t k5[32] = {5};
    fbh_fastrandom_init(&s1, k5);
    fbh_fastrandom_seed(&s2, 5);
    CHECK(fbh_fastrandom_rand64(&s1) == fbh_fastrandom_rand64(&s2));
    fbh_fastrandom_seed(&s2, 6);
    CHECK(fbh_fastrandom_rand64(&s1) != fbh_fastrandom_rand64(&s2));
}

int main(void) {
    fbh_test_sha256();
    fbh_test_sha512();
    fbh_test_sha256d64();
    fbh_test_siphash();
    fbh_test_chacha20();
    return CHECK_DONE();
}
