/* A fake clock for tests: time moves only when the op says so. */
#ifndef FB_TEST_FAKE_CLOCK_H
#define FB_TEST_FAKE_CLOCK_H

#include "femtobench.h"

typedef struct fake_clock {
    uint64_t now_ns;
    uint64_t cost_ns; /* what one op call costs */
    uint64_t calls;   /* op calls so far */
    uint64_t read_ns; /* cost of one clock read */
} fake_clock;

static inline uint64_t fake_clock_now(void *ctx) {
    fake_clock *c = (fake_clock *)ctx;
    c->now_ns += c->read_ns;
    return c->now_ns;
}

static inline void fake_clock_op(void *ctx) {
    fake_clock *c = (fake_clock *)ctx;
    c->now_ns += c->cost_ns;
    c->calls++;
}

/* A bench with the fake clock (1 ns resolution) and no output, no counters. */
static inline fb_bench *fake_bench(fake_clock *c) {
    fb_bench *b = fb_bench_new();
    fb_set_clock(b, fake_clock_now, c, 1e-9);
    fb_set_output(b, NULL);
    fb_set_performance_counters(b, false);
    return b;
}

#endif
