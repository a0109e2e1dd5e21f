/* SPDX-License-Identifier: MIT
 *
 * counters.c: user counters beside the time, as Google Benchmark's
 * state.counters.
 *
 * fb_counter(b, "name", value, flags) attaches a counter to the next run on
 * b: declare it before FB_RUN. flags 0 shows the value as given;
 * FB_COUNTER_PER_ITERATION an amount per iteration (per unit of the row);
 * FB_COUNTER_RATE an amount per iteration shown per second. Each counter is a
 * column of the table and a field of every file (-output_json,
 * -output_gbench, -output_csv, -output_html, -output_bmf).
 *
 * Run:   ./counters
 *        ./counters -output_gbench=- | python3 -m json.tool
 */
#include <femtobench.h>

#include <stdlib.h>
#include <string.h>

#define FB_EX_SIZE 4096

/* Copies 4 KiB: the rate counter turns the time into bytes per second. */
FB_BENCHMARK(Copy) {
    static unsigned char src[FB_EX_SIZE], dst[FB_EX_SIZE];
    fb_counter(b, "bytes", FB_EX_SIZE, FB_COUNTER_RATE);
    fb_counter(b, "size", FB_EX_SIZE, 0);
    FB_RUN(b, NULL) {
        memcpy(dst, src, sizeof dst);
        fb_do_not_optimize(dst);
    }
}

/* Looks up keys in a small open-addressing table: the probes per lookup
 * are counted once, outside the timed runs, and shown per iteration. */
FB_BENCHMARK(Lookup) {
    enum { SLOTS = 1024, KEYS = 700 };
    static uint32_t table[SLOTS];
    fb_rng rng;
    fb_rng_seed(&rng, 7);
    memset(table, 0, sizeof table);
    uint64_t probes = 0;
    for (int k = 0; k < KEYS; ++k) {
        uint32_t key = (uint32_t)fb_rng_u64(&rng) | 1u, slot = key % SLOTS;
        while (table[slot]) slot = (slot + 1) % SLOTS, ++probes;
        table[slot] = key;
    }
    fb_counter(b, "probes", (double)probes / KEYS, FB_COUNTER_PER_ITERATION);
    fb_counter(b, "lookups", 1, FB_COUNTER_RATE);
    uint32_t key = 12345;
    FB_RUN(b, NULL) {
        uint32_t slot = key % SLOTS;
        while (table[slot] && table[slot] != key) slot = (slot + 1) % SLOTS;
        key = key * 2654435761u + slot;
        fb_do_not_optimize(key);
    }
}

FB_MAIN()
