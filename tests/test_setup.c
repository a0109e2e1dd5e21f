/* Untimed setup and teardown around each epoch (fb_set_setup,
 * fb_set_teardown) and the argument of a family's instance (fb_arg), driven
 * by a fake clock: time moves only when the op, the setup or the teardown
 * says so. */
#define _DEFAULT_SOURCE 1 /* MAP_ANONYMOUS */
#include "check.h"
#include "fake_clock.h"
#include "internal.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* A fake clock that also counts its reads and watches the hooks: every
 * epoch reads the clock exactly twice (before and after its loop), so
 * reads / 2 is the number of epochs run, warmup and upscaling included. */
typedef struct hooked {
    fake_clock clock;
    uint64_t reads;
    uint64_t setups, teardowns;
    uint64_t setup_jump_ns, teardown_jump_ns; /* how far each moves the clock */
    int misordered;                           /* hooks called inside an epoch */
} hooked;

static uint64_t hooked_now(void *ctx) {
    hooked *h = (hooked *)ctx;
    h->reads++;
    return fake_clock_now(&h->clock);
}

static void hooked_op(void *ctx) { fake_clock_op(&((hooked *)ctx)->clock); }

static void hooked_setup(void *ctx) {
    hooked *h = (hooked *)ctx;
    /* between epochs: the clock was read an even number of times, and every
     * earlier setup was followed by its teardown */
    if (h->reads % 2 != 0 || h->setups != h->teardowns) h->misordered++;
    h->setups++;
    h->clock.now_ns += h->setup_jump_ns;
}

static void hooked_teardown(void *ctx) {
    hooked *h = (hooked *)ctx;
    if (h->reads % 2 != 0 || h->teardowns + 1 != h->setups) h->misordered++;
    h->teardowns++;
    h->clock.now_ns += h->teardown_jump_ns;
}

static fb_bench *hooked_bench(hooked *h) {
    fb_bench *b = fake_bench(&h->clock);
    fb_set_clock(b, hooked_now, h, 1e-9);
    return b;
}

/* A setup and a teardown that move the clock by a second each change no
 * reported number: the same epochs, iterations and times as without them. */
static void test_setup_time_is_not_measured(void) {
    for (int macro = 0; macro < 2; macro++) {
        hooked plain = {{0, 100, 0, 0}, 0, 0, 0, 0, 0, 0};
        hooked slow = {{0, 100, 0, 0}, 0, 0, 0, 1000000000u, 1000000000u, 0};
        fb_bench *b1 = hooked_bench(&plain), *b2 = hooked_bench(&slow);
        fb_set_warmup(b1, 10);
        fb_set_warmup(b2, 10);
        fb_set_setup(b2, hooked_setup, &slow);
        fb_set_teardown(b2, hooked_teardown, &slow);
        const fb_result *r1, *r2;
        if (macro) {
            FB_RUN(b1, "op") { hooked_op(&plain); }
            FB_RUN(b2, "op") { hooked_op(&slow); }
            r1 = fb_last_result(b1);
            r2 = fb_last_result(b2);
        } else {
            r1 = fb_run(b1, "op", hooked_op, &plain);
            r2 = fb_run(b2, "op", hooked_op, &slow);
        }
        CHECK(r1 && r2 && !fb_result_error(r1) && !fb_result_error(r2));
        if (!r1 || !r2) continue;
        CHECK(slow.setups > 0 && slow.clock.now_ns > 10 * 1000000000ull); /* the jumps happened */
        CHECK(fb_result_epochs(r1) == fb_result_epochs(r2));
        for (size_t e = 0; e < fb_result_epochs(r1); e++) {
            CHECK(fb_result_iterations(r1, e) == fb_result_iterations(r2, e));
            CHECK(fb_result_value(r1, FB_ELAPSED, e) == fb_result_value(r2, FB_ELAPSED, e));
        }
        CHECK(fb_result_median(r2, FB_ELAPSED) == fb_result_median(r1, FB_ELAPSED));
        CHECK_NEAR(fb_result_median(r2, FB_ELAPSED), 100e-9, 1e-15);
        CHECK(fb_result_total_s(r2) == fb_result_total_s(r1));
        CHECK(plain.setups == 0 && plain.teardowns == 0);
        fb_bench_free(b1);
        fb_bench_free(b2);
    }
}

/* Exactly one setup and one teardown per epoch, in warmup, upscaling and
 * measuring epochs alike, never inside an epoch, for fb_run and FB_RUN. */
static void test_once_per_epoch(void) {
    for (int macro = 0; macro < 2; macro++) {
        hooked h = {{0, 100, 0, 0}, 0, 0, 0, 0, 0, 0};
        fb_bench *b = hooked_bench(&h);
        fb_set_warmup(b, 3);
        fb_set_setup(b, hooked_setup, &h);
        fb_set_teardown(b, hooked_teardown, &h);
        const fb_result *r;
        if (macro) {
            FB_RUN(b, "op") { hooked_op(&h); }
            r = fb_last_result(b);
        } else {
            r = fb_run(b, "op", hooked_op, &h);
        }
        CHECK(r && !fb_result_error(r));
        uint64_t epochs_run = h.reads / 2;
        CHECK(h.reads % 2 == 0);
        /* 11 recorded, plus the warmup epoch and the upscaling epochs
         * 3 -> 30 -> 300 (the 3000-iteration one is recorded) */
        CHECK(fb_result_epochs(r) == 11);
        CHECK(epochs_run == 11 + 1 + 2);
        CHECK(h.setups == epochs_run);
        CHECK(h.teardowns == epochs_run);
        CHECK(h.misordered == 0);
        fb_bench_free(b);
    }
}

/* With one iteration per epoch the setup runs before every single call. */
static void test_per_iteration(void) {
    hooked h = {{0, 5000, 0, 0}, 0, 0, 0, 777, 0, 0};
    fb_bench *b = hooked_bench(&h);
    fb_set_epoch_iterations(b, 1);
    fb_set_epochs(b, 7);
    fb_set_setup(b, hooked_setup, &h);
    const fb_result *r = fb_run(b, "one", hooked_op, &h);
    CHECK(r && fb_result_epochs(r) == 7 && fb_result_total_iterations(r) == 7);
    CHECK(h.clock.calls == 7 && h.setups == 7 && h.teardowns == 0);
    CHECK_NEAR(fb_result_median(r, FB_ELAPSED), 5000e-9, 1e-15);
    fb_bench_free(b);
}

/* NULL removes a hook; the hooks stay for later runs on the same bench. */
static void test_remove_and_keep(void) {
    hooked h = {{0, 100, 0, 0}, 0, 0, 0, 0, 0, 0};
    fb_bench *b = hooked_bench(&h);
    fb_set_epoch_iterations(b, 10);
    fb_set_epochs(b, 3);
    fb_set_setup(b, hooked_setup, &h);
    fb_set_teardown(b, hooked_teardown, &h);
    fb_run(b, "a", hooked_op, &h);
    fb_run(b, "b", hooked_op, &h);
    CHECK(h.setups == 6 && h.teardowns == 6);
    fb_set_setup(b, NULL, &h);
    fb_run(b, "c", hooked_op, &h);
    CHECK(h.setups == 6 && h.teardowns == 9);
    fb_set_teardown(b, NULL, NULL);
    fb_run(b, "d", hooked_op, &h);
    CHECK(h.setups == 6 && h.teardowns == 9);
    CHECK(b->setup_ctx == NULL && b->teardown_ctx == NULL);
    fb_bench_free(b);
}

/* A run inside a run of the same bench (refused), in a function of its own:
 * FB_RUN inside FB_RUN would shadow the loop's variables. */
static void run_inner(fb_bench *b, hooked *h) {
    FB_RUN(b, "inner") { hooked_op(h); }
}

/* A refused nested run calls no hook. */
static void test_nested_run_calls_no_hook(void) {
    hooked h = {{0, 100, 0, 0}, 0, 0, 0, 0, 0, 0};
    fb_bench *b = hooked_bench(&h);
    fb_set_diagnostics(b, NULL); /* the refusal is expected */
    fb_set_epoch_iterations(b, 10);
    fb_set_epochs(b, 2);
    fb_set_setup(b, hooked_setup, &h);
    fb_set_teardown(b, hooked_teardown, &h);
    uint64_t inner_setups = 0;
    FB_RUN(b, "outer") {
        uint64_t before = h.setups;
        run_inner(b, &h);
        inner_setups += h.setups - before;
        hooked_op(&h);
    }
    CHECK(inner_setups == 0);
    CHECK(h.setups == 2 && h.teardowns == 2 && h.misordered == 0);
    fb_bench_free(b);
}

/* Setup work (page faults) is not counted by the performance counters:
 * with one iteration per epoch, a setup that faults in fresh pages would add
 * hundreds of faults to every epoch's count. */
static void fault_in(void *ctx) {
    (void)ctx;
    size_t size = 4u << 20; /* a fresh mapping: every page faults when touched */
    unsigned char *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return;
    memset(p, 1, size);
    fb_do_not_optimize(p[size / 2]);
    munmap(p, size);
}

static void test_setup_outside_counters(void) {
    fake_clock c = {0, 1000, 0, 0};
    fb_bench *b = fake_bench(&c);
    fb_set_performance_counters(b, true);
    fb_set_epoch_iterations(b, 1);
    fb_set_epochs(b, 5);
    fb_set_setup(b, fault_in, NULL);
    fb_set_teardown(b, fault_in, NULL);
    const fb_result *r = fb_run(b, "faults", fake_clock_op, &c);
    CHECK(r && !fb_result_error(r));
    if (!r || !fb_result_has(r, FB_PAGEFAULTS)) {
        printf("note: page-fault counter unavailable; counter check skipped\n");
        fb_bench_free(b);
        return;
    }
    /* 4 MiB is 1024 pages: counted, the median would be over 1000 */
    CHECK(fb_result_median(r, FB_PAGEFAULTS) < 50);
    fb_bench_free(b);
}

/* The argument reaches the body and every result, and names its runs. */
static void test_argument(void) {
    fake_clock c = {0, 100, 0, 0};
    fb_bench *b = fake_bench(&c);
    CHECK(fb_arg(b) == 0);
    fb_run(b, "plain", fake_clock_op, &c);
    CHECK(!fb_result_has_arg(fb_last_result(b)) && fb_result_arg(fb_last_result(b)) == 0);
    CHECK_STR(fb_result_name(fb_last_result(b)), "plain");

    fb__bench_set_arg(b, -4096); /* as the runner does for an instance */
    int64_t seen = 0;
    FB_RUN(b, "memcpy") {
        seen = fb_arg(b);
        fake_clock_op(&c);
    }
    const fb_result *r = fb_last_result(b);
    CHECK(seen == -4096);
    CHECK(fb_result_has_arg(r) && fb_result_arg(r) == -4096);
    CHECK_STR(fb_result_name(r), "memcpy/-4096");
    /* a name that already ends in the argument is kept as it is */
    fb_run(b, "memcpy/-4096", fake_clock_op, &c);
    CHECK_STR(fb_result_name(fb_last_result(b)), "memcpy/-4096");
    fb_run(b, "memcpy/4096", fake_clock_op, &c);
    CHECK_STR(fb_result_name(fb_last_result(b)), "memcpy/4096/-4096");
    /* NULL: the registered name (the runner's instance name) */
    free(b->name);
    b->name = fb__strdup("Copy/-4096");
    fb_run(b, NULL, fake_clock_op, &c);
    CHECK_STR(fb_result_name(fb_last_result(b)), "Copy/-4096");
    fb_bench_free(b);
}

/* A setup that frees its own bench: refused (a use-after-free otherwise),
 * said on the diagnostics stream; the run and the bench stay whole. */
typedef struct freeing {
    fb_bench *b;
    int calls;
} freeing;
static void freeing_setup(void *ctx) {
    freeing *fr = ctx;
    if (fr->calls++ == 0) fb_bench_free(fr->b);
}
static void test_setup_frees_its_bench(void) {
    hooked h = {{0, 100, 0, 0}, 0, 0, 0, 0, 0, 0};
    fb_bench *b = hooked_bench(&h);
    char *diag = NULL;
    size_t diag_len = 0;
    FILE *d = open_memstream(&diag, &diag_len);
    CHECK(d != NULL);
    fb_set_diagnostics(b, d);
    fb_set_epoch_iterations(b, 10);
    fb_set_epochs(b, 3);
    freeing fr = {b, 0};
    fb_set_setup(b, freeing_setup, &fr);
    const fb_result *r = fb_run(b, "frees", hooked_op, &h);
    fclose(d);
    CHECK(r && fb_result_epochs(r) == 3 && fb_result_count(b) == 1);
    CHECK(diag && strstr(diag, "fb_bench_free called during a run of this bench") != NULL);
    free(diag);
    fb_bench_free(b); /* after the run: freed */
}

int main(void) {
    test_setup_frees_its_bench();
    test_setup_time_is_not_measured();
    test_once_per_epoch();
    test_per_iteration();
    test_remove_and_keep();
    test_nested_run_calls_no_hook();
    test_setup_outside_counters();
    test_argument();
    return CHECK_DONE();
}
