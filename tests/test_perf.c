/* Counters (src/machine/perf_linux.c): the group parser and scaler on crafted read()
 * buffers, the overhead subtraction, real software events (page faults,
 * context switches), hardware events where the machine has a PMU, the sticky
 * error, and the one-time fallback note. */
#define _DEFAULT_SOURCE 1 /* MAP_ANONYMOUS, readlink */

#include "check.h"
#include "internal.h"

#include <errno.h>
#include <pthread.h>
#include <stdint.h>

#if FB_HAVE_PERF_EVENTS
#include <fcntl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#endif

static int test_count_lines(FILE *f, const char *needle) {
    char line[1024];
    int n = 0;
    rewind(f);
    while (fgets(line, sizeof line, f))
        if (strstr(line, needle)) n++;
    return n;
}

#if FB_HAVE_PERF_EVENTS

#define NAN_OR(x) (isnan(x) ? -1.0 : (x))

static void test_parse(void) {
    const fb__perf_slot slots[3] = {
        {100, FB_INSTRUCTIONS}, {101, FB_CPUCYCLES}, {102, FB_PAGEFAULTS}};
    uint64_t prev[2] = {0, 0};
    double c[FB_MEASURE_COUNT];
    fb__mask known;

    /* enabled == running: exact, no scaling */
    const uint64_t b1[] = {3, 1000, 1000, 50, 100, 70, 101, 3, 102};
    CHECK(fb__perf_parse_group(b1, 9, slots, 3, prev, c, &known) == 0);
    CHECK(known == (FB__BIT(FB_INSTRUCTIONS) | FB__BIT(FB_CPUCYCLES) | FB__BIT(FB_PAGEFAULTS)));
    CHECK(c[FB_INSTRUCTIONS] == 50 && c[FB_CPUCYCLES] == 70 && c[FB_PAGEFAULTS] == 3);
    CHECK(prev[0] == 1000 && prev[1] == 1000);

    /* the next epoch: enabled grew by 2000, running by 1000 -> counts x2
     * (deltas, since RESET does not reset the times); ids out of order */
    const uint64_t b2[] = {3, 3000, 2000, 3, 102, 50, 100, 70, 101};
    CHECK(fb__perf_parse_group(b2, 9, slots, 3, prev, c, &known) == 0);
    CHECK(known == (FB__BIT(FB_INSTRUCTIONS) | FB__BIT(FB_CPUCYCLES) | FB__BIT(FB_PAGEFAULTS)));
    CHECK_NEAR(c[FB_INSTRUCTIONS], 100, 1e-9);
    CHECK_NEAR(c[FB_CPUCYCLES], 140, 1e-9);
    CHECK_NEAR(c[FB_PAGEFAULTS], 6, 1e-9);

    /* running did not advance while enabled did: never scheduled, counts
     * unknown (NAN, not known), no division by zero; times still tracked */
    const uint64_t b3[] = {3, 4000, 2000, 9, 100, 9, 101, 9, 102};
    CHECK(fb__perf_parse_group(b3, 9, slots, 3, prev, c, &known) == 0);
    CHECK(known == 0);
    CHECK(isnan(c[FB_INSTRUCTIONS]) && isnan(c[FB_CPUCYCLES]) && isnan(c[FB_PAGEFAULTS]));
    CHECK(prev[0] == 4000 && prev[1] == 2000);

    /* neither time advanced (an empty epoch): raw values */
    const uint64_t b4[] = {3, 4000, 2000, 0, 101, 1, 100, 0, 102};
    CHECK(fb__perf_parse_group(b4, 9, slots, 3, prev, c, &known) == 0);
    CHECK(known == (FB__BIT(FB_INSTRUCTIONS) | FB__BIT(FB_CPUCYCLES) | FB__BIT(FB_PAGEFAULTS)));
    CHECK(c[FB_INSTRUCTIONS] == 1 && c[FB_CPUCYCLES] == 0);

    /* 3x multiplexed, an unknown id ignored, a slot absent from the buffer */
    const uint64_t b5[] = {2, 7000, 3000, 5, 999, 10, 101};
    CHECK(fb__perf_parse_group(b5, 7, slots, 3, prev, c, &known) == 0);
    CHECK(known == FB__BIT(FB_CPUCYCLES));
    CHECK_NEAR(c[FB_CPUCYCLES], 30, 1e-9);
    CHECK(isnan(c[FB_INSTRUCTIONS]) && isnan(c[FB_PAGEFAULTS]));

    /* malformed: too short, nr larger than the buffer */
    const uint64_t b6[] = {3, 1, 1, 5, 100};
    CHECK(fb__perf_parse_group(b6, 2, slots, 3, prev, c, &known) == -1 && known == 0);
    CHECK(fb__perf_parse_group(b6, 5, slots, 3, prev, c, &known) == -1 && known == 0);
    CHECK(isnan(c[FB_INSTRUCTIONS]));
}

static void test_subtract(void) {
    double c[FB_MEASURE_COUNT] = {0}, meas[FB_MEASURE_COUNT] = {0}, loop[FB_MEASURE_COUNT] = {0};
    c[FB_ELAPSED] = 7;
    c[FB_INSTRUCTIONS] = 100, meas[FB_INSTRUCTIONS] = 30, loop[FB_INSTRUCTIONS] = 0.5;
    c[FB_BRANCHINSTRUCTIONS] = 10, meas[FB_BRANCHINSTRUCTIONS] = 20;
    c[FB_CPUCYCLES] = 5, meas[FB_CPUCYCLES] = 1;
    c[FB_BRANCHMISSES] = NAN, meas[FB_BRANCHMISSES] = 1;
    c[FB_PAGEFAULTS] = 3, meas[FB_PAGEFAULTS] = 1; /* not in `which` */
    fb__mask which = FB__BIT(FB_INSTRUCTIONS) | FB__BIT(FB_BRANCHINSTRUCTIONS) |
                     FB__BIT(FB_CPUCYCLES) | FB__BIT(FB_BRANCHMISSES) | FB__BIT(FB_ELAPSED);
    fb__perf_subtract(c, which, meas, loop, 100);
    CHECK(c[FB_INSTRUCTIONS] == 20);      /* 100 - 30 - 0.5 * 100 */
    CHECK(c[FB_BRANCHINSTRUCTIONS] == 0); /* 10 - 20 saturates at 0 */
    CHECK(c[FB_CPUCYCLES] == 4);
    CHECK(isnan(c[FB_BRANCHMISSES]));
    CHECK(c[FB_PAGEFAULTS] == 3);
    CHECK(c[FB_ELAPSED] == 7); /* never touched */
    /* loop overhead alone above the count saturates too */
    c[FB_INSTRUCTIONS] = 40;
    fb__perf_subtract(c, FB__BIT(FB_INSTRUCTIONS), meas, loop, 1000000);
    CHECK(c[FB_INSTRUCTIONS] == 0);
}

/* ------------------------------------------------------ software events */

typedef struct test_pages {
    size_t pages, page_size;
    int touch;
    int failed;
} test_pages;

/* Maps `pages` fresh anonymous pages and touches each (one page fault each)
 * or none (no fault: the kernel maps them lazily), then unmaps them. */
static void test_touch_pages(void *ctx) {
    test_pages *t = ctx;
    size_t len = t->pages * t->page_size;
    char *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) {
        t->failed = 1;
        return;
    }
    for (size_t i = 0; t->touch && i < t->pages; ++i) m[i * t->page_size] = (char)i;
    munmap(m, len);
}

static void test_sleep_1us(void *ctx) {
    (void)ctx;
    struct timespec ts = {0, 1000};
    nanosleep(&ts, NULL);
}

/* Median over `epochs` epochs of the count of m per iteration, with the
 * loop of fb_run (the FB__SHAPE_CALL shape). */
static double test_per_iter(fb__perf *p, fb_measure m, fb_op op, void *ctx, uint64_t iters,
                            int epochs) {
    double v[16];
    if (epochs > 16) epochs = 16;
    for (int e = 0; e < epochs; ++e) {
        double c[FB_MEASURE_COUNT] = {0};
        fb__perf_begin(p);
        for (uint64_t i = iters; i; --i) op(ctx);
        fb__perf_end(p, iters, FB__SHAPE_CALL, c);
        v[e] = c[m] / (double)iters;
    }
    return fb__median(v, (size_t)epochs);
}

static void test_software_events(void) {
    char why[512];
    fb__perf *p = fb__perf_open_flags(why, sizeof why, FB__PERF_SW_ONLY);
    CHECK(p != NULL);
    if (!p) return;
    fb__mask avail = fb__perf_available(p);
    printf("software-only group: available mask 0x%x, why \"%s\"\n", avail, why);
    if (!(avail & FB__BIT(FB_PAGEFAULTS))) {
        /* e.g. a container whose seccomp profile blocks perf_event_open */
        printf("SKIP (software events): %s\n", why);
        fb__perf_close(p);
        return;
    }
    CHECK((avail & FB__BIT(FB_INSTRUCTIONS)) == 0); /* hardware not requested */
    double meas[FB_MEASURE_COUNT], loop[FB__SHAPES][FB_MEASURE_COUNT];
    double cal_s = fb__perf_calibration(p, meas, loop);
    printf("calibration: %.3f ms; measuring overhead: %g page faults, %g context switches\n",
           cal_s * 1e3, meas[FB_PAGEFAULTS], meas[FB_CONTEXTSWITCHES]);
    CHECK(cal_s > 0 && cal_s < 0.05);
    CHECK(loop[FB__SHAPE_CALL][FB_PAGEFAULTS] == 0 && loop[FB__SHAPE_INLINE][FB_PAGEFAULTS] == 0);

    test_pages t = {16, (size_t)sysconf(_SC_PAGESIZE), 1, 0};
    double pf16 = test_per_iter(p, FB_PAGEFAULTS, test_touch_pages, &t, 50, 7);
    t.pages = 32;
    double pf32 = test_per_iter(p, FB_PAGEFAULTS, test_touch_pages, &t, 50, 7);
    t.touch = 0;
    double pf0 = test_per_iter(p, FB_PAGEFAULTS, test_touch_pages, &t, 50, 7);
    printf("page faults per iteration: %.3f (16 pages), %.3f (32 pages), %.3f (32 untouched)\n",
           pf16, pf32, pf0);
    CHECK(!t.failed);
    CHECK_NEAR(pf16, 16, 1.0);
    CHECK_NEAR(pf32, 32, 1.0);
    CHECK_NEAR(pf0, 0, 0.5);
    CHECK(fb__perf_last_known(p) == avail);

    if (avail & FB__BIT(FB_CONTEXTSWITCHES)) {
        double cs = test_per_iter(p, FB_CONTEXTSWITCHES, test_sleep_1us, NULL, 20, 5);
        double cs0 = test_per_iter(p, FB_CONTEXTSWITCHES, test_touch_pages, &t, 20, 5);
        printf("context switches per iteration: %.3f (1 us sleep), %.3f (nothing)\n", cs, cs0);
        CHECK(cs >= 0.9 && cs <= 1.5);
        CHECK(cs0 < 0.5);
    } else {
        printf("context switches unavailable here: %s\n", why);
        CHECK(strstr(why, "contextswitches") != NULL);
    }
    fb__perf_close(p);
}

/* The perf descriptors this process holds. */
static int test_perf_fds(void) {
    int n = 0;
    for (int fd = 0; fd < 256; ++fd) {
        char path[64], target[128] = {0};
        snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
        if (readlink(path, target, sizeof target - 1) > 0 && strstr(target, "perf_event")) n++;
    }
    return n;
}

/* Without a PMU, page faults and context switches come from getrusage: no
 * perf descriptor, no calibration, and the same counts as the software
 * events (a voluntary switch, a nanosleep inside the epoch, counts). */
static void test_usage_events(void) {
    int fds0 = test_perf_fds();
    fb__perf *p = fb__perf_open_flags(NULL, 0, FB__PERF_USAGE_ONLY);
    CHECK(p != NULL);
    if (!p) return;
    fb__mask want = FB__BIT(FB_PAGEFAULTS) | FB__BIT(FB_CONTEXTSWITCHES);
    CHECK(fb__perf_available(p) == want);
    CHECK(test_perf_fds() == fds0);
    double meas[FB_MEASURE_COUNT], loop[FB__SHAPES][FB_MEASURE_COUNT];
    CHECK(fb__perf_calibration(p, meas, loop) == 0);
    CHECK(meas[FB_PAGEFAULTS] == 0 && meas[FB_CONTEXTSWITCHES] == 0);

    test_pages t = {16, (size_t)sysconf(_SC_PAGESIZE), 1, 0};
    double pf16 = test_per_iter(p, FB_PAGEFAULTS, test_touch_pages, &t, 50, 7);
    t.pages = 32;
    double pf32 = test_per_iter(p, FB_PAGEFAULTS, test_touch_pages, &t, 50, 7);
    t.touch = 0;
    double pf0 = test_per_iter(p, FB_PAGEFAULTS, test_touch_pages, &t, 50, 7);
    double cs = test_per_iter(p, FB_CONTEXTSWITCHES, test_sleep_1us, NULL, 20, 5);
    double cs0 = test_per_iter(p, FB_CONTEXTSWITCHES, test_touch_pages, &t, 20, 5);
    printf("getrusage counters: %.3f / %.3f / %.3f page faults per iteration (16, 32, 32 "
           "untouched pages), %.3f / %.3f context switches (1 us sleep, nothing)\n",
           pf16, pf32, pf0, cs, cs0);
    CHECK(!t.failed);
    CHECK_NEAR(pf16, 16, 1.0);
    CHECK_NEAR(pf32, 32, 1.0);
    CHECK_NEAR(pf0, 0, 0.5);
    CHECK(cs >= 0.9 && cs <= 1.5);
    CHECK(cs0 < 0.5);
    CHECK(fb__perf_last_known(p) == want);
    fb__perf_close(p);
}

/* fb__perf_open where no hardware event opens (this VM): the software
 * measures are still there, from getrusage, and no perf event was opened,
 * so no wait for the kernel's perf hooks. Through a whole run, an op that
 * sleeps shows one context switch per iteration in the result. */
static void test_default_without_pmu(void) {
    int fds0 = test_perf_fds();
    fb__perf *p = fb__perf_open(NULL, 0);
    CHECK(p != NULL);
    if (!p) return;
    fb__mask avail = fb__perf_available(p);
    bool pmu = (avail & FB__BIT(FB_INSTRUCTIONS)) != 0;
    fb__perf_close(p);
    if (pmu) {
        printf("SKIP (no-PMU path): this machine has hardware counters\n");
        return;
    }
    CHECK(avail == (FB__BIT(FB_PAGEFAULTS) | FB__BIT(FB_CONTEXTSWITCHES)));
    CHECK(test_perf_fds() == fds0);

    fb_bench *b = fb_bench_new();
    fb_set_output(b, NULL);
    fb_set_diagnostics(b, NULL);
    fb_set_epochs(b, 5);
    fb_set_epoch_iterations(b, 20);
    fb_run(b, "sleep 1 us", test_sleep_1us, NULL);
    const fb_result *r = fb_last_result(b);
    CHECK(r != NULL);
    if (r) {
        CHECK(fb_result_has(r, FB_CONTEXTSWITCHES));
        CHECK(fb_result_has(r, FB_PAGEFAULTS));
        double cs = fb_result_median(r, FB_CONTEXTSWITCHES);
        printf("run through fb_run: %.3f context switches per iteration (1 us sleep)\n", cs);
        CHECK(cs >= 0.9 && cs <= 1.5);
    }

    fb_bench_free(b);
}

/* A failed ioctl makes the error sticky: the handle then reports nothing. */
static void test_sticky_error(void) {
    int probe = dup(0);
    if (probe < 0) return;
    close(probe); /* the lowest free fd: the group leader's, next */
    fb__perf *p = fb__perf_open_flags(NULL, 0, FB__PERF_SW_ONLY);
    CHECK(p != NULL);
    if (!p || !(fb__perf_available(p) & FB__BIT(FB_PAGEFAULTS))) {
        fb__perf_close(p);
        return;
    }
    char path[64], target[128] = {0};
    snprintf(path, sizeof path, "/proc/self/fd/%d", probe);
    ssize_t n = readlink(path, target, sizeof target - 1);
    if (n <= 0 || !strstr(target, "perf_event")) {
        printf("sticky error test not run: fd %d is %s\n", probe, target);
        fb__perf_close(p);
        return;
    }
    int devnull = open("/dev/null", O_RDONLY);
    CHECK(devnull >= 0 && dup2(devnull, probe) == probe); /* ioctl now fails: ENOTTY */
    close(devnull);
    double c[FB_MEASURE_COUNT] = {0};
    fb__perf_begin(p);
    fb__perf_end(p, 10, FB__SHAPE_INLINE, c);
    CHECK(fb__perf_available(p) == 0);
    CHECK(fb__perf_last_known(p) == 0);
    CHECK(isnan(c[FB_PAGEFAULTS]));
    c[FB_PAGEFAULTS] = 5;
    fb__perf_begin(p); /* no syscalls any more */
    fb__perf_end(p, 10, FB__SHAPE_INLINE, c);
    CHECK(isnan(c[FB_PAGEFAULTS]));
    printf("sticky error: a failed ioctl leaves no counters (checked)\n");
    fb__perf_close(p); /* closes the /dev/null copy */
}

/* ------------------------------------------------------ hardware events */

#define TEST_NOPS(k) __asm__ __volatile__(".rept " #k "\n\tnop\n\t.endr")

static FB__NOINLINE void test_nops16(void *ctx) {
    (void)ctx;
    TEST_NOPS(16);
}

/* FB_RUN's shape: `for (; i; --i) { body }` with K nops as the body. */
#define TEST_INLINE_NOPS(name, k)                                                                  \
    static FB__NOINLINE double name(fb__perf *p, fb_measure m, uint64_t n) {                       \
        double c[FB_MEASURE_COUNT] = {0};                                                          \
        volatile uint64_t n_hidden = n;                                                            \
        uint64_t i = n_hidden;                                                                     \
        fb__perf_begin(p);                                                                         \
        for (; i; --i) {                                                                           \
            TEST_NOPS(k);                                                                          \
        }                                                                                          \
        fb__perf_end(p, n, FB__SHAPE_INLINE, c);                                                   \
        return c[m] / (double)n;                                                                   \
    }
TEST_INLINE_NOPS(test_inline_nops8, 8)
TEST_INLINE_NOPS(test_inline_nops16, 16)

static double test_min_of(double (*f)(fb__perf *, fb_measure, uint64_t), fb__perf *p,
                          fb_measure m) {
    double best = INFINITY;
    for (int r = 0; r < 7; ++r) {
        double v = f(p, m, 10000);
        if (v < best) best = v;
    }
    return best;
}

static void test_hardware_events(void) {
    char why[512];
    fb__perf *p = fb__perf_open(why, sizeof why);
    CHECK(p != NULL);
    if (!p) return;
    fb__mask avail = fb__perf_available(p);
    if (!(avail & FB__BIT(FB_INSTRUCTIONS))) {
        printf("SKIP (hardware events): instructions counter unavailable: %s\n", why);
        fb__perf_close(p);
        return;
    }
    double meas[FB_MEASURE_COUNT], loop[FB__SHAPES][FB_MEASURE_COUNT];
    double cal_s = fb__perf_calibration(p, meas, loop);
    printf("calibration %.3f ms; measuring overhead %g ins %g cyc; loop overhead per iteration: "
           "inline %g ins %g bra, call %g ins %g bra\n",
           cal_s * 1e3, meas[FB_INSTRUCTIONS], meas[FB_CPUCYCLES],
           loop[FB__SHAPE_INLINE][FB_INSTRUCTIONS], loop[FB__SHAPE_INLINE][FB_BRANCHINSTRUCTIONS],
           loop[FB__SHAPE_CALL][FB_INSTRUCTIONS], loop[FB__SHAPE_CALL][FB_BRANCHINSTRUCTIONS]);
    CHECK(cal_s < 0.005);
    double k8 = test_min_of(test_inline_nops8, p, FB_INSTRUCTIONS);
    double k16 = test_min_of(test_inline_nops16, p, FB_INSTRUCTIONS);
    double call16 = INFINITY;
    for (int r = 0; r < 7; ++r) {
        double c[FB_MEASURE_COUNT] = {0};
        fb_op volatile op_hidden = test_nops16;
        fb_op op = op_hidden;
        fb__perf_begin(p);
        for (uint64_t i = 10000; i; --i) op(NULL);
        fb__perf_end(p, 10000, FB__SHAPE_CALL, c);
        if (c[FB_INSTRUCTIONS] / 10000 < call16) call16 = c[FB_INSTRUCTIONS] / 10000;
    }
    printf("instructions per iteration: %.3f (8 nops), %.3f (16 nops), %.3f (16 nops, call)\n", k8,
           k16, call16);
    CHECK_NEAR(k8, 8, 1.0);
    CHECK_NEAR(k16, 16, 1.0);
    CHECK_NEAR(k16 / k8, 2.0, 0.15);
    CHECK_NEAR(call16, 16, 1.5);
    if (avail & FB__BIT(FB_BRANCHINSTRUCTIONS)) {
        double bra = test_min_of(test_inline_nops8, p, FB_BRANCHINSTRUCTIONS);
        printf("branches per iteration (8 nops): %.3f\n", bra);
        CHECK_NEAR(bra, 0, 0.1);
    }
    if (avail & FB__BIT(FB_CPUCYCLES)) {
        double cyc = test_min_of(test_inline_nops16, p, FB_CPUCYCLES);
        printf("cycles per iteration (16 nops): %.3f, IPC %.2f\n", cyc, cyc > 0 ? k16 / cyc : 0);
        CHECK(cyc > 1 && cyc < 40);
    }
    fb__perf_close(p);
}

/* ------------------------------------------------------ fallback note */

static int test_read_paranoid(void) {
    int v = -100;
    FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
    if (f) {
        if (fscanf(f, "%d", &v) != 1) v = -100;
        fclose(f);
    }
    return v;
}

static void test_fallback_note(void) {
    char why[512];
    fb__perf *p = fb__perf_open(why, sizeof why);
    CHECK(p != NULL);
    fb__mask avail = fb__perf_available(p);
    printf("default group: available mask 0x%x\nwhy: %s\n", avail, why);
    if (!(avail & FB__BIT(FB_INSTRUCTIONS))) {
        /* this machine: hardware counters are missing, and the line says so */
        char para[64];
        snprintf(para, sizeof para, "kernel.perf_event_paranoid=%d", test_read_paranoid());
        CHECK(strstr(why, "missing") != NULL);
        CHECK(strstr(why, "instructions, cpucycles") != NULL);
        CHECK(strstr(why, "errno ") != NULL);
        CHECK(strstr(why, para) != NULL);
        CHECK(strchr(why, '\n') == NULL);
        /* the errno's text is in the line */
        int found = 0;
        for (int e = 1; e < 200 && !found; ++e) {
            char tag[32];
            snprintf(tag, sizeof tag, "errno %d:", e);
            found = strstr(why, tag) && strstr(why, strerror(e));
        }
        CHECK(found);
        CHECK(strstr(why, "PMU") || strstr(why, "sysctl") || strstr(why, "seccomp"));
    }
    fb__perf_close(p);
}
#endif /* FB_HAVE_PERF_EVENTS */

static void test_note_once(void) {
    FILE *f = tmpfile();
    CHECK(f != NULL);
    if (!f) return;
    unsetenv("FEMTOBENCH_SUPPRESS_WARNINGS");
    fb__process_reload();
    fb__process_note_perf(NULL, "no stream: not printed, not used up");
    fb__process_note_perf(f, "");
    fb__process_note_perf(f, "performance counters missing: test line");
    fb__process_note_perf(f, "performance counters missing: test line");
    fb__process_note_perf(f, "a second, different note");
    CHECK(test_count_lines(f, "femtobench: note: ") == 1);
    CHECK(test_count_lines(f, "femtobench: note: performance counters missing: test line") == 1);
    fclose(f);
}

/* Counters count the thread that opened them. The process's counters belong
 * to the first thread that measures; a bench used on another thread opens
 * its own, and its results carry that thread's counts. */
typedef struct thread_case {
    fb__perf *process_perf, *seen;
    fb__mask seen_available; /* read before the thread's bench frees seen */
    fb__mask has;
    size_t results;
} thread_case;

static void touch_op(void *ctx) {
    volatile int *x = ctx;
    *x += 1;
}

static void *second_thread(void *arg) {
    thread_case *t = arg;
    fb_bench *b = fb_bench_new();
    fb_set_output(b, NULL);
    fb_set_epochs(b, 3);
    t->seen = fb__bench_prepare(b, -1);
    t->seen_available = t->seen ? fb__perf_available(t->seen) : 0;
    volatile int x = 0;
    fb_run(b, "second thread", touch_op, (void *)&x);
    t->results = fb_result_count(b);
    t->has = t->results ? fb_last_result(b)->has : 0;
    fb_bench_free(b);
    return NULL;
}

static void test_second_thread(void) {
    fb_bench *b = fb_bench_new();
    fb_set_output(b, NULL);
    fb_set_diagnostics(b, NULL);
    fb__perf *mine = fb__bench_prepare(b, -1);
    thread_case t = {mine, NULL, 0, 0, 0};
    pthread_t th;
    CHECK(pthread_create(&th, NULL, second_thread, &t) == 0);
    pthread_join(th, NULL);
    CHECK(t.results == 1);
    /* the second thread never uses the main thread's counters */
    CHECK(mine == NULL || t.seen != mine);
    /* and measures the same events the process's counters have */
    fb__mask want = mine ? fb__perf_available(mine) & ~FB__BIT(FB_ELAPSED) : 0;
    fb__mask got = t.has & ~FB__BIT(FB_ELAPSED);
    printf("second thread: counters %#x of %#x\n", got, want);
    CHECK(want == 0 || (t.seen && t.seen_available == fb__perf_available(mine)));
    CHECK(t.has & FB__BIT(FB_ELAPSED));
    fb_bench_free(b);
}

int main(void) {
    test_second_thread();
#if FB_HAVE_PERF_EVENTS
    test_parse();
    test_subtract();
    test_software_events();
    test_usage_events();
    test_default_without_pmu();
    test_sticky_error();
    test_hardware_events();
    test_fallback_note();
#else
    char why[256];
    fb__perf *p = fb__perf_open(why, sizeof why);
    CHECK(p != NULL && fb__perf_available(p) == 0 && strstr(why, "missing"));
    printf("why: %s\n", why);
    fb__perf_close(p);
#endif
    test_note_once();
    return CHECK_DONE();
}
