/* A suite with an order effect, for femtobench-ab's alternation
 * (tests/test_ab_order.py): its one benchmark, Order, is slower in an epoch
 * that goes first in its round than in one that goes second, as the first
 * side of a round warms the caches (or the CPU's clock) for the second.
 * Every time is a fake clock's: an op does 22 units of work (10 ns each) in
 * an epoch that goes first in its round, 20 in one that goes second.
 *
 * Which epoch goes first: the copies of this plugin loaded into one process
 * (both sides, every layout) share one record, found through the process
 * environment (AB_ORDER_STATE: its address, set by the first copy loaded,
 * while loading is single-threaded): which copy opened the block of rounds
 * now being measured and how many epochs of both sides it has run. Each
 * epoch's setup reads and updates it; femtobench-ab calls the setup inside
 * the side's turn (after epoch_begin), so the two sides never touch it at
 * once. A copy's first epoch of a run opens a new block, unless the other
 * side has opened one and run exactly its first epoch (then this copy is
 * second in the block's first round). The block's epochs alternate between
 * the sides' turns, so an even count before an epoch means it goes first in
 * its round.
 *
 * With the sides alternating which goes first from round to round, each
 * layout's rounds are half old-first, half new-first: the change is exactly
 * 0 and the verdict `same`. With old always first, new is always 2 units
 * faster: a false `faster`. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include "femtobench.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct ab_order_state {
    const void *opener;  /* the copy whose first epoch opened the block */
    unsigned long count; /* the block's epochs so far, both sides */
} ab_order_state;

static ab_order_state *ab_order_shared;
static const char ab_order_self = 0;  /* this copy's identity: its address */
static unsigned long ab_order_epochs; /* this copy's epochs in the current run */
static int ab_order_units;            /* the current epoch's work per op */

FB__CONSTRUCTOR(ab_order_find) {
    const char *at = getenv("AB_ORDER_STATE");
    if (at) {
        ab_order_shared = (ab_order_state *)(uintptr_t)strtoull(at, NULL, 16);
        return;
    }
    ab_order_shared = calloc(1, sizeof *ab_order_shared); /* lives as long as the process */
    char text[32];
    snprintf(text, sizeof text, "%llx", (unsigned long long)(uintptr_t)ab_order_shared);
    if (ab_order_shared) setenv("AB_ORDER_STATE", text, 1);
}

typedef struct ab_clock {
    uint64_t now_ns;
} ab_clock;

static uint64_t ab_now(void *ctx) { return ((ab_clock *)ctx)->now_ns; }

static void ab_order_setup(void *ctx) {
    (void)ctx;
    ab_order_state *s = ab_order_shared;
    if (!s) return;
    if (ab_order_epochs++ == 0 && !(s->opener && s->opener != &ab_order_self && s->count == 1)) {
        s->opener = &ab_order_self;
        s->count = 0;
    }
    ab_order_units = s->count % 2 == 0 ? 22 : 20;
    s->count++;
}

static void ab_order_op(void *ctx) {
    ab_clock *c = ctx;
    for (int i = 0; i < ab_order_units; ++i) {
        c->now_ns += 10;
        fb_do_not_optimize(c->now_ns);
    }
}

FB_BENCHMARK(Order) {
    ab_clock c = {0};
    ab_order_epochs = 0;
    ab_order_units = 20;
    fb_set_clock(b, ab_now, &c, 1e-9);
    fb_set_performance_counters(b, false);
    fb_set_setup(b, ab_order_setup, NULL);
    fb_run(b, "Order", ab_order_op, &c);
}

FB_MAIN()
