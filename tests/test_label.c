/* Labels (fb_set_label, Google Benchmark's SetLabel): carried by the run
 * they were given for, shown after the name in the table and recorded by
 * every file; a bad label is bad input (an error row). Fake clock. */
#include "check.h"
#include "fake_clock.h"
#include "internal.h"
#include "isolate_record.h"

#include <stdlib.h>
#include <string.h>

typedef int (*writer_fn)(const fb_bench *b, FILE *f);

/* What the writer wrote for b (freed by the caller). */
static char *written(const fb_bench *b, writer_fn w) {
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    CHECK(f && w(b, f) == 0);
    if (f) fclose(f);
    return buf;
}

static void test_label_on_its_run(void) {
    fake_clock c = {0, 100, 0, 0};
    fb_bench *b = fake_bench(&c);
    char *table = NULL;
    size_t table_len = 0;
    FILE *live = open_memstream(&table, &table_len);
    fb_set_output(b, live);
    fb_set_epoch_iterations(b, 10);
    fb_set_epochs(b, 3);
    CHECK(fb_set_label(b, "not this one") == FB_OK);
    CHECK(fb_set_label(b, "small | input") == FB_OK); /* the last one given is kept */
    fb_run(b, "first", fake_clock_op, &c);
    fb_run(b, "second", fake_clock_op, &c); /* a label is for one run */
    uint64_t x = 1;
    FB_RUN(b, "inside") {
        fb_set_label(b, "given in the body");
        x += x;
        fb_do_not_optimize(x);
    }
    fclose(live);
    CHECK(fb_result_count(b) == 3);
    CHECK_STR(fb_result_label(fb_result_at(b, 0)), "small | input");
    CHECK(fb_result_label(fb_result_at(b, 1)) == NULL);
    CHECK_STR(fb_result_label(fb_result_at(b, 2)), "given in the body");
    CHECK(fb_result_label(NULL) == NULL);

    /* the table: after the name, escaped for a cell */
    CHECK(table && strstr(table, "| `first` [small \\| input]\n"));
    CHECK(table && strstr(table, "| `second`\n"));
    char *md = written(b, fb_write_markdown);
    CHECK(md && strstr(md, "| `first` [small \\| input]\n"));
    /* CSV: a label column (there is a label), empty without one */
    char *csv = written(b, fb_write_csv);
    CHECK(csv && strstr(csv, ",label"));
    CHECK(csv && strstr(csv, ",small | input"));
    /* JSON: "label" where given */
    char *json = written(b, fb_write_json);
    CHECK(json && strstr(json, "\"label\": \"small | input\""));
    CHECK(json && strstr(json, "\"label\": \"given in the body\""));
    /* Google Benchmark JSON: its "label" field, marks after it */
    char *gb = written(b, fb_write_gbench_json);
    CHECK(gb && strstr(gb, "\"label\": \"small | input\""));
    char *html = written(b, fb_write_html);
    CHECK(html && strstr(html, "[small | input]"));

    /* crash isolation's record carries it (-isolate) */
    unsigned char *rec = NULL;
    size_t len = 0, cap = 0;
    CHECK(fb__isolate_encode(fb_result_at(b, 0), &rec, &len, &cap) == FB_OK);
    CHECK(fb__isolate_encode(fb_result_at(b, 1), &rec, &len, &cap) == FB_OK);
    fb_result *back = NULL, *back2 = NULL;
    size_t used = fb__isolate_decode(rec, len, &back);
    CHECK(used > 0 && back && back->label && strcmp(back->label, "small | input") == 0);
    CHECK(used > 0 && fb__isolate_decode(rec + used, len - used, &back2) > 0 && back2 &&
          back2->label == NULL);
    fb__result_free(back);
    fb__result_free(back2);
    free(rec);
    free(table);
    free(md);
    free(csv);
    free(json);
    free(gb);
    free(html);
    fb_bench_free(b);
}

static void test_no_label_no_column(void) {
    fake_clock c = {0, 100, 0, 0};
    fb_bench *b = fake_bench(&c);
    fb_set_epoch_iterations(b, 10);
    fb_set_epochs(b, 3);
    CHECK(fb_set_label(b, "dropped") == FB_OK);
    CHECK(fb_set_label(b, "") == FB_OK); /* "" gives none */
    fb_run(b, "plain", fake_clock_op, &c);
    CHECK(fb_result_label(fb_result_at(b, 0)) == NULL);
    char *csv = written(b, fb_write_csv);
    CHECK(csv && !strstr(csv, "label"));
    char *json = written(b, fb_write_json);
    CHECK(json && !strstr(json, "\"label\""));
    free(csv);
    free(json);
    fb_bench_free(b);
}

static void test_bad_label(void) {
    fake_clock c = {0, 100, 0, 0};
    fb_bench *b = fake_bench(&c);
    fb_set_diagnostics(b, NULL);
    fb_set_epoch_iterations(b, 10);
    fb_set_epochs(b, 3);
    CHECK(fb_set_label(NULL, "x") == FB_EINVAL);
    CHECK(fb_set_label(b, "two\nlines") == FB_EINVAL);
    fb_run(b, "bad", fake_clock_op, &c);
    const char *e = fb_result_error(fb_result_at(b, 0));
    CHECK(e && strstr(e, "fb_set_label") && strstr(e, "control character"));
    char *big = malloc(FB__LABEL_MAX + 2);
    if (big) {
        memset(big, 'a', FB__LABEL_MAX + 1);
        big[FB__LABEL_MAX + 1] = '\0';
        CHECK(fb_set_label(b, big) == FB_EINVAL);
        big[FB__LABEL_MAX] = '\0';            /* at the limit: kept */
        fb_run(b, "long", fake_clock_op, &c); /* the first misuse's error row */
        CHECK(fb_result_error(fb_result_at(b, 1)) != NULL);
        CHECK(fb_set_label(b, big) == FB_OK);
        fb_run(b, "at the limit", fake_clock_op, &c);
        CHECK(fb_result_error(fb_result_at(b, 2)) == NULL);
        CHECK(fb_result_label(fb_result_at(b, 2)) &&
              strlen(fb_result_label(fb_result_at(b, 2))) == FB__LABEL_MAX);
        free(big);
    }
    fb_bench_free(b);
}

int main(void) {
    test_label_on_its_run();
    test_no_label_no_column();
    test_bad_label();
    return CHECK_DONE();
}
