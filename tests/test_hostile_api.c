/* Tried as a hostile user of the API would: absurd counts and
 * times (clamped, with a diagnostic, never an overflow or a run that spins),
 * nothing dropped silently, every text of the table escaped, NULL to every
 * writer, and the -isolate record read back exactly. docs/reliability.md. */
#include "check.h"
#include "fake_clock.h"
#include "internal.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* A bench whose diagnostics go to a memory stream; diag_text() reads it. */
static char *diag_buf_;
static size_t diag_len_;
static FILE *diag_;

static fb_bench *diag_bench(fake_clock *c) {
    fb_bench *b = fake_bench(c);
    free(diag_buf_);
    diag_buf_ = NULL;
    diag_ = open_memstream(&diag_buf_, &diag_len_);
    fb_set_diagnostics(b, diag_);
    return b;
}

static const char *diag_text(void) {
    fflush(diag_);
    return diag_buf_ ? diag_buf_ : "";
}

static void diag_done(fb_bench *b) {
    fb_bench_free(b);
    fclose(diag_);
    free(diag_buf_);
    diag_buf_ = NULL;
}

/* ------------------------------------------------- counts and times */

static void test_setters_clamp(void) {
    fake_clock c = {0, 100, 0, 0};
    fb_bench *b = diag_bench(&c);
    fb_set_epochs(b, SIZE_MAX);
    CHECK(fb__cfg(b, FB__K_EPOCHS) == 1e6);
    CHECK(strstr(diag_text(), "fb_set_epochs(") && strstr(diag_text(), "out of range"));
    fb_set_epochs(b, 0);
    CHECK(fb__cfg(b, FB__K_EPOCHS) == 1);
    fb_set_epoch_iterations(b, UINT64_MAX);
    CHECK(fb__cfg(b, FB__K_EPOCH_ITERATIONS) == 1e10);
    fb_set_min_epoch_iterations(b, UINT64_MAX);
    CHECK(fb__cfg(b, FB__K_MIN_EPOCH_ITERATIONS) == 1e10);
    fb_set_warmup(b, UINT64_MAX);
    CHECK(fb__cfg(b, FB__K_WARMUP) == 1e10);
    fb_set_min_epoch_time(b, INFINITY);
    CHECK(fb__cfg(b, FB__K_MIN_EPOCH_TIME) == 1);
    fb_set_max_epoch_time(b, 1e300);
    CHECK(fb__cfg(b, FB__K_MAX_EPOCH_TIME) == 1);
    fb_set_max_total_time(b, DBL_MAX);
    CHECK(fb__cfg(b, FB__K_MAX_TOTAL_TIME) == 3600);
    fb_set_min_epoch_time(b, -INFINITY);
    CHECK(fb__cfg(b, FB__K_MIN_EPOCH_TIME) == 0);
    double before = fb__cfg(b, FB__K_MAX_TOTAL_TIME);
    fb_set_max_total_time(b, NAN); /* refused: unchanged */
    CHECK(fb__cfg(b, FB__K_MAX_TOTAL_TIME) == before);
    CHECK(strstr(diag_text(), "fb_set_max_total_time(nan)") != NULL);
    fb_set_batch(b, NAN);
    fb_set_batch(b, -INFINITY);
    CHECK(fb_batch(b) == 1.0);
    CHECK(strstr(diag_text(), "fb_set_batch(nan)") != NULL);
    fb_set_complexity_n(b, INFINITY);
    CHECK(fb_complexity_n(b) == 0);
    fb_set_complexity_n(b, 1e300);
    CHECK(fb_complexity_n(b) == 0);
    CHECK(strstr(diag_text(), "fb_set_complexity_n(inf)") != NULL);
    fb_set_time_unit(b, NAN, "x");
    fb_set_time_unit(b, 1e-6, NULL);
    CHECK(strstr(diag_text(), "fb_set_time_unit(") != NULL);
    /* every diagnostic is one line starting with "femtobench: " */
    for (const char *p = diag_text(); *p; p = strchr(p, '\n') + 1)
        CHECK(!strncmp(p, "femtobench: ", 12));
    /* a value in range says nothing */
    size_t len = strlen(diag_text());
    fb_set_epochs(b, 21);
    fb_set_max_total_time(b, 0.5);
    CHECK(strlen(diag_text()) == len);
    diag_done(b);
}

/* The largest values at once cannot make a run spin: the budget is capped
 * at an hour (fake time), whatever epochs x target says. */
static void test_largest_values_end(void) {
    fake_clock c = {0, 200000000, 0, 0}; /* 0.2 s per call */
    fb_bench *b = diag_bench(&c);
    fb_set_epochs(b, SIZE_MAX);
    fb_set_epoch_iterations(b, 1);
    fb_set_min_epoch_time(b, 1e300);
    fb_set_max_epoch_time(b, 1e300);
    fb_set_max_total_time(b, 1e300);
    const fb_result *r = fb_run(b, "huge", fake_clock_op, &c);
    CHECK(r && !fb_result_error(r));
    CHECK(c.now_ns <= (uint64_t)3601e9); /* an hour of fake time, then it stops */
    CHECK(fb_result_epochs(r) >= 17000 && fb_result_epochs(r) <= 18001);
    diag_done(b);
}

static void test_config_ranges(void) {
    fb__layer l;
    memset(&l, 0, sizeof l);
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    const char *bad[] = {"epochs=0",
                         "epochs=1000001",
                         "epoch_iterations=10000000001",
                         "min_epoch_time=2s",
                         "max_epoch_time=1000000000000s",
                         "max_total_time=3601s",
                         "clock_resolution_multiple=0",
                         "warmup=99999999999",
                         "min_epoch_iterations=0",
                         "max_total_time=1" /* no unit */,
                         "min_epoch_time=9999999999999999999999999999999999999999s"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; ++i)
        CHECK(fb__config_parse(bad[i], &l, f) == 1);
    CHECK(l.set == 0); /* nothing out of range was taken */
    fclose(f);
    CHECK(strstr(out, "out of range ('epochs' is 1 to 1000000)") != NULL);
    CHECK(strstr(out, "out of range ('max_total_time' is 0s to 3600s)") != NULL);
    free(out);
    /* the edges themselves are in range */
    CHECK(fb__config_parse("epochs=1000000,max_total_time=3600s,min_epoch_time=1s,"
                           "epoch_iterations=10000000000",
                           &l, NULL) == 0);
    /* a hundred digits of fraction are fine; five hundred are a value too
     * long (a bad entry), never a crash */
    char longv[600] = "min_epoch_time=0.";
    memset(longv + strlen(longv), '1', 100);
    CHECK(fb__config_parse(strcat(longv, "ms"), &l, NULL) == 0);
    memset(longv + strlen("min_epoch_time=0."), '1', 500);
    longv[strlen("min_epoch_time=0.") + 500] = '\0';
    CHECK(fb__config_parse(longv, &l, NULL) == 1);
}

/* --------------------------------------------- nothing silently dropped */

static void test_nested_once_and_counted(void) {
    fake_clock c = {0, 100, 0, 0};
    fb_bench *b = diag_bench(&c);
    fb_set_epochs(b, 3);
    fb_set_epoch_iterations(b, 50);
    FB_RUN(b, "outer") {
        fb_run(b, "inner", fake_clock_op, &c);
        c.now_ns += 100;
    }
    const char *d = diag_text();
    const char *first = strstr(d, "'inner' not run");
    CHECK(first != NULL);
    CHECK(first && strstr(first + 1, "'inner' not run") == NULL); /* once, not 150 times */
    CHECK(b->dropped == 1);
    CHECK(fb_result_count(b) == 1);
    /* the runner's error row for it */
    CHECK(fb__bench_error_row(b, "outer", "1 run recorded nothing") == FB_OK);
    CHECK(fb_result_count(b) == 2 && fb_result_error(fb_result_at(b, 1)) != NULL);
    diag_done(b);
}

/* ------------------------------------------------------ the table */

/* Cells of a markdown table row: '|' not preceded by a backslash. */
static int cells(const char *line, size_t n) {
    int k = 0;
    for (size_t i = 0; i < n; ++i)
        if (line[i] == '|' && (i == 0 || line[i - 1] != '\\')) ++k;
    return k;
}

static void test_every_text_escaped(void) {
    fake_clock c = {0, 100, 0, 0};
    fb_bench *b = fake_bench(&c);
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    fb_set_output(b, f);
    fb_set_title(b, "ti|tle\nnext | line");
    fb_set_unit(b, "by|te\n|");
    fb_set_time_unit(b, 1e-6, "u|s\n");
    fb_set_relative(b, true);
    fb_set_epochs(b, 3);
    fb_set_epoch_iterations(b, 10);
    fb_run(b, "na|me\n`x`|\r", fake_clock_op, &c);
    fb_run(b, "second", fake_clock_op, &c);
    fclose(f);
    /* every line of the live table has the same number of cells, and none
     * is broken by a newline from a text */
    int want = -1, lines = 0;
    for (char *p = out; *p;) {
        char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        if (n) {
            int k = cells(p, n);
            if (want < 0) want = k;
            CHECK(k == want);
            ++lines;
        }
        p += n + (nl ? 1 : 0);
    }
    CHECK(lines == 4); /* header, rule, two rows */
    CHECK(strstr(out, "u\\|s\\n/by\\|te\\n\\|") != NULL);
    CHECK(strstr(out, "ti\\|tle\\nnext \\| line") != NULL);
    free(out);
    /* fb_write_markdown: the same */
    out = NULL;
    f = open_memstream(&out, &len);
    CHECK(fb_write_markdown(b, f) == FB_OK);
    fclose(f);
    int rows = 0;
    for (char *p = out; *p;) {
        char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        if (n) {
            CHECK(cells(p, n) == want);
            ++rows;
        }
        p += n + (nl ? 1 : 0);
    }
    CHECK(rows == 4);
    free(out);
    fb_bench_free(b);
}

static void test_writers_null(void) {
    fb_bench *b = fb_bench_new();
    FILE *f = tmpfile();
    int (*writers[])(const fb_bench *, FILE *) = {fb_write_markdown, fb_write_csv, fb_write_json,
                                                  fb_write_gbench_json};
    for (size_t i = 0; i < sizeof writers / sizeof *writers; ++i) {
        CHECK(writers[i](NULL, f) == FB_EINVAL);
        CHECK(writers[i](b, NULL) == FB_EINVAL);
        CHECK(writers[i](NULL, NULL) == FB_EINVAL);
    }
    CHECK(fb_write_complexity(NULL, NULL, f) == FB_EINVAL);
    CHECK(fb_write_complexity(b, NULL, NULL) == FB_EINVAL);
    /* the readers of a bench take NULL as the comparisons' do: nothing there */
    CHECK(fb_result_count(NULL) == 0 && fb_result_at(NULL, 0) == NULL && !fb_last_result(NULL));
    CHECK(fb_comparison_count(NULL) == 0 && !fb_comparison_at(NULL, 0) &&
          !fb_last_comparison(NULL));
    fclose(f);
    fb_bench_free(b);
}

/* --------------------------------------------------- the -isolate record */

static void test_record_round_trip(void) {
    fake_clock c = {0, 1234, 0, 7};
    fb_bench *b = fake_bench(&c);
    fb_set_title(b, "t|\n");
    fb_set_unit(b, "byte");
    fb_set_batch(b, 3);
    fb_set_complexity_n(b, 77);
    fb_set_epochs(b, 5);
    const fb_result *r = fb_run(b, "rec", fake_clock_op, &c);
    fb__bench_error_row(b, "err", "crashed: killed by signal 11");
    unsigned char *buf = NULL;
    size_t len = 0, cap = 0;
    CHECK(fb__isolate_encode(r, &buf, &len, &cap) == FB_OK);
    size_t one = len;
    CHECK(fb__isolate_encode(fb_result_at(b, 1), &buf, &len, &cap) == FB_OK);
    fb_result *back = NULL, *back2 = NULL;
    CHECK(fb__isolate_decode(buf, len, &back) == one);
    CHECK(fb__isolate_decode(buf + one, len - one, &back2) == len - one);
    CHECK(back && !strcmp(back->name, "rec") && !back->error && back->epochs == r->epochs);
    CHECK(back && !strcmp(back->config.title, "t|\n") && back->config.batch == 3 &&
          back->config.complexity_n == 77);
    for (size_t i = 0; back && i < r->epochs; ++i) {
        CHECK(back->iterations[i] == r->iterations[i]);
        CHECK(back->values[FB_ELAPSED][i] == r->values[FB_ELAPSED][i]);
    }
    CHECK(back2 && back2->error && !strcmp(back2->error, "crashed: killed by signal 11"));
    /* every truncation and a corrupted length are refused, never read past */
    for (size_t cut = 0; cut < one; ++cut) {
        fb_result *x = NULL;
        CHECK(fb__isolate_decode(buf, cut, &x) == 0 && x == NULL);
    }
    unsigned char *bad = malloc(one);
    memcpy(bad, buf, one);
    bad[5] = 0xff; /* the name's length */
    fb_result *x = NULL;
    CHECK(fb__isolate_decode(bad, one, &x) == 0 && x == NULL);
    /* found by tests/fuzz/fuzz_record.c: a NUL inside a string is refused
     * (it read back as a shorter name than the record said) */
    memcpy(bad, buf, one);
    CHECK(bad[9] == 'r' && bad[10] == 'e');
    bad[10] = '\0';
    x = NULL;
    CHECK(fb__isolate_decode(bad, one, &x) == 0 && x == NULL);
    free(bad);
    fb__result_free(back);
    fb__result_free(back2);
    free(buf);
    fb_bench_free(b);
}

int main(void) {
    test_setters_clamp();
    test_largest_values_end();
    test_config_ranges();
    test_nested_once_and_counted();
    test_every_text_escaped();
    test_writers_null();
    test_record_round_trip();
    return CHECK_DONE();
}
