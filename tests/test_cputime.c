/* Under the fake clock and a fake thread CPU clock: the CPU time per
 * epoch beside the wall time, epochs whose wall time exceeds their CPU time
 * flagged as descheduled and left out of the median, a run descheduled for
 * its whole length marked loudly, and the writers' CPU fields (Google
 * Benchmark's cpu_time, CSV, JSON, the table's CPU hint). */
#include "check.h"
#include "fake_clock.h"
#include "internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Wall time moves by cost_ns per call, CPU time too; in the epochs listed
 * in `bad` (counted from the first epoch the run times: two CPU clock reads
 * per epoch) the thread is off the CPU for off_ns per call: wall time
 * moves, CPU time does not. */
typedef struct fake_cpu {
    fake_clock clock;
    uint64_t cpu_ns;
    uint64_t reads;
    const int *bad;
    size_t n_bad;
    bool all_bad;
    uint64_t off_ns;
} fake_cpu;

static bool fake_cpu_bad(const fake_cpu *d, uint64_t epoch) {
    if (d->all_bad) return true;
    for (size_t i = 0; i < d->n_bad; ++i)
        if ((uint64_t)d->bad[i] == epoch) return true;
    return false;
}

static uint64_t fake_cpu_read(void *ctx) {
    fake_cpu *d = ctx;
    d->reads++;
    return d->cpu_ns;
}

static void fake_cpu_op(void *ctx) {
    fake_cpu *d = ctx;
    d->clock.now_ns += d->clock.cost_ns;
    d->cpu_ns += d->clock.cost_ns;
    /* reads is odd inside an epoch: epoch (reads - 1) / 2 is running */
    if (fake_cpu_bad(d, (d->reads - 1) / 2)) d->clock.now_ns += d->off_ns;
}

static fb_bench *cpu_bench(fake_cpu *d) {
    fb_bench *b = fake_bench(&d->clock);
    fb__bench_set_cpu_clock(b, fake_cpu_read, d);
    return b;
}

static char *slurp(FILE *f) {
    long n = ftell(f);
    rewind(f);
    char *s = calloc((size_t)n + 1, 1);
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n) s[0] = '\0';
    return s;
}

/* A stretch of epochs descheduled (wall 10x, CPU unchanged): each is
 * flagged from wall - CPU alone (no context-switch source here), replaced,
 * and left out of the median; the CPU time is the op's in every epoch. */
static void test_descheduled_stretch_is_dropped(void) {
    static const int bad[] = {3, 4, 5, 6};
    fake_cpu d = {{0, 100, 0, 0}, 0, 0, bad, 4, false, 900};
    fb_bench *b = cpu_bench(&d);
    fb_set_epoch_iterations(b, 1000);
    const fb_result *r = fb_run(b, "stretch", fake_cpu_op, &d);
    CHECK(r && !fb_result_error(r));
    CHECK(r->disturb_known);
    CHECK(fb_result_epochs(r) == 15);
    CHECK(fb_result_disturbed_epochs(r) == 4);
    CHECK(fb_result_used_epochs(r) == 11);
    CHECK(!fb_result_descheduled(r));
    for (int i = 3; i <= 6; ++i)
        CHECK(r->epoch_flags[i] == (FB__EPOCH_DISTURBED | FB__EPOCH_DROPPED));
    CHECK_NEAR(fb_result_value(r, FB_ELAPSED, 4), 1000e-9, 1e-15);
    CHECK_NEAR(fb_result_value(r, FB_CPUTIME, 4), 100e-9, 1e-15);
    CHECK_NEAR(fb_result_median(r, FB_ELAPSED), 100e-9, 1e-15);
    CHECK_NEAR(fb_result_max(r, FB_ELAPSED), 100e-9, 1e-15);
    CHECK(fb_result_has(r, FB_CPUTIME));
    CHECK_NEAR(fb_result_median(r, FB_CPUTIME), 100e-9, 1e-15);
    CHECK_NEAR(fb_result_cpu_median(r), 100e-9, 1e-15);
    fb_bench_free(b);
}

/* Off the CPU for less than the margin (2% of the epoch, at least 10 us):
 * not descheduled. Above it: descheduled. */
static void test_margin(void) {
    CHECK(!fb__disturb_off_cpu(250e-6, 250e-6));
    CHECK(!fb__disturb_off_cpu(250e-6, 241e-6)); /* 9 us off: under 10 us */
    CHECK(fb__disturb_off_cpu(250e-6, 239e-6));  /* 11 us */
    CHECK(!fb__disturb_off_cpu(10e-3, 9.85e-3)); /* 150 us of 10 ms: under 2% */
    CHECK(fb__disturb_off_cpu(10e-3, 9.7e-3));   /* 300 us: over 2% */
    CHECK(!fb__disturb_off_cpu(1e-3, 1.2e-3));   /* CPU above wall: never */
}

/* Descheduled for its whole length (a 32-add chain read 74x its value with
 * err% 1.5%): every epoch is flagged, none can be dropped, and the row is
 * marked loudly with the CPU time beside it. */
static void test_whole_run_descheduled_is_marked(void) {
    fake_cpu d = {{0, 10, 0, 0}, 0, 0, NULL, 0, true, 730};
    fb_bench *b = cpu_bench(&d);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    fb_set_output(b, f);
    fb_set_epoch_iterations(b, 1000);
    const fb_result *r = fb_run(b, "chain", fake_cpu_op, &d);
    fclose(f);
    CHECK(r && !fb_result_error(r));
    CHECK(fb_result_disturbed_epochs(r) == fb_result_epochs(r));
    CHECK(fb_result_used_epochs(r) == fb_result_epochs(r));
    CHECK(fb_result_descheduled(r));
    CHECK_NEAR(fb_result_median(r, FB_ELAPSED), 740e-9, 1e-15);
    CHECK_NEAR(fb_result_err_pct(r, FB_ELAPSED), 0, 1e-12); /* a tight, wrong row */
    CHECK_NEAR(fb_result_cpu_median(r), 10e-9, 1e-15);
    CHECK(buf && strstr(buf, "| :warning: `chain` (descheduled: 11 of 11 epochs were off the CPU "
                             "and too few others remained: the value includes time spent "
                             "waiting; CPU time 10.00 ns/op)") != NULL);
    free(buf);

    /* the CSV marks it, and carries the CPU time */
    FILE *t = tmpfile();
    CHECK(t && fb_write_csv(b, t) == FB_OK);
    char *csv = t ? slurp(t) : NULL;
    CHECK(csv && strstr(csv, ",cpu_ns_per_unit") && strstr(csv, ",descheduled,"));
    free(csv);
    if (t) fclose(t);
    fb_bench_free(b);
}

/* Google Benchmark's cpu_time is the CPU time, real_time the wall time; the
 * femtobench JSON has cputime per epoch and in the stats; the table shows
 * the CPU time only where it differs from the wall time by 5% or more. */
static void test_writers(void) {
    /* wall and CPU agree */
    fake_cpu d = {{0, 100, 0, 0}, 0, 0, NULL, 0, false, 0};
    fb_bench *b = cpu_bench(&d);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    fb_set_output(b, f);
    fb_set_epoch_iterations(b, 1000);
    fb_run(b, "same", fake_cpu_op, &d);
    fclose(f);
    CHECK(buf && strstr(buf, "`same`\n") != NULL); /* no CPU hint: they agree */
    free(buf);

    FILE *t = tmpfile();
    CHECK(t && fb_write_gbench_json(b, t) == FB_OK);
    char *gb = t ? slurp(t) : NULL;
    CHECK(gb && strstr(gb, "\"real_time\": 100,") && strstr(gb, "\"cpu_time\": 100,"));
    CHECK(gb && !strstr(gb, "\"cputime\"")); /* cpu_time, not a counter */
    free(gb);
    if (t) fclose(t);
    fb_bench_free(b);

    /* 3% of each epoch off the CPU (30 us of 1 ms: each flagged, all kept):
     * real_time 103, cpu_time 100; the table says nothing under 5% */
    d = (fake_cpu){{0, 100, 0, 0}, 0, 0, NULL, 0, true, 3};
    b = cpu_bench(&d);
    fb_set_output(b, NULL);
    fb_set_epoch_iterations(b, 10000);
    fb_run(b, "three", fake_cpu_op, &d);
    t = tmpfile();
    CHECK(t && fb_write_gbench_json(b, t) == FB_OK);
    gb = t ? slurp(t) : NULL;
    CHECK(gb && strstr(gb, "\"real_time\": 103,") && strstr(gb, "\"cpu_time\": 100,"));
    free(gb);
    if (t) fclose(t);
    t = tmpfile();
    CHECK(t && fb_write_json(b, t) == FB_OK);
    char *js = t ? slurp(t) : NULL;
    CHECK(js && strstr(js, "\"cputime\"") != NULL);
    free(js);
    if (t) fclose(t);
    fb_bench_free(b);

    /* an op that blocks on its own would read CPU 100 of wall 200: the
     * table shows the CPU time and the ratio (the row is also marked, as
     * no source here tells a sleep from a deschedule) */
    d = (fake_cpu){{0, 100, 0, 0}, 0, 0, NULL, 0, true, 100};
    b = cpu_bench(&d);
    buf = NULL;
    f = open_memstream(&buf, &len);
    fb_set_output(b, f);
    fb_set_epoch_iterations(b, 1000);
    fb_run(b, "half", fake_cpu_op, &d);
    fclose(f);
    CHECK(buf && strstr(buf, "CPU time 100.00 ns/op)") != NULL);
    free(buf);
    fb_bench_free(b);
}

/* A custom clock without an injected CPU clock measures no CPU time. */
static void test_custom_clock_has_no_cpu_time(void) {
    fake_clock c = {0, 100, 0, 0};
    fb_bench *b = fake_bench(&c);
    const fb_result *r = fb_run(b, "plain", fake_clock_op, &c);
    CHECK(r && !fb_result_has(r, FB_CPUTIME));
    CHECK(isnan(fb_result_cpu_median(r)));
    CHECK(!fb_result_descheduled(r));
    fb_bench_free(b);
    CHECK(strcmp(fb_measure_name(FB_CPUTIME), "cputime") == 0);
#if FB_HAVE_LINUX
    CHECK(fb__clock_cpu_ns() != FB__CLOCK_CPU_UNKNOWN);
#endif
}

int main(void) {
    test_descheduled_stretch_is_dropped();
    test_margin();
    test_whole_run_descheduled_is_marked();
    test_writers();
    test_custom_clock_has_no_cpu_time();
    return CHECK_DONE();
}
