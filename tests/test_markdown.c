/* The markdown table: golden output from fake-clock results. */
#include "check.h"
#include "fake_clock.h"
#include "internal.h"

#include <stdlib.h>

static void test_golden_table(void) {
    fake_clock c = {0, 0, 0, 0};
    fb_bench *b = fake_bench(&c);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    fb_set_output(b, f);
    fb_set_epoch_iterations(b, 1000);
    fb_set_epochs(b, 5);

    c.cost_ns = 1234567; /* 1.2 s epochs: the 5 epochs asked for are run */
    fb_run(b, "slowish", fake_clock_op, &c);
    c.cost_ns = 250;
    fb_set_title(b, "Hashes");
    fb_set_unit(b, "byte");
    fb_set_batch(b, 32);
    fb_run(b, "per byte", fake_clock_op, &c);
    fb_run(b, "a|b`c", fake_clock_op, &c); /* same columns: no new header */
    fb_set_complexity_n(b, 100);
    fb_run(b, "with N", fake_clock_op, &c);
    c.cost_ns = 0;
    c.read_ns = 1; /* the clock moves, the op costs nothing: "optimized away" */
    fb_set_epoch_iterations(b, 0);
    fb_run(b, "gone", fake_clock_op, &c);
    fclose(f);
    const char *want =
        "|               ns/op |                op/s |    err% |     total | benchmark\n"
        "|--------------------:|--------------------:|--------:|----------:|:----------\n"
        "|        1,234,567.00 |              810.00 |    0.0% |      6.17 | `slowish`\n"
        "\n"
        "|             ns/byte |              byte/s |    err% |     total | Hashes\n"
        "|--------------------:|--------------------:|--------:|----------:|:----------\n"
        "|                7.81 |      128,000,000.00 |    0.0% |      0.00 | `per byte`\n"
        "|                7.81 |      128,000,000.00 |    0.0% |      0.00 | ``a\\|b`c``\n"
        "\n"
        "| complexityN |             ns/byte |              byte/s |    err% |     total | Hashes\n"
        "|------------:|--------------------:|--------------------:|--------:|----------:|:--------"
        "--\n"
        "|         100 |                7.81 |      128,000,000.00 |    0.0% |      0.00 | `with "
        "N`\n"
        "|         100 |                   - |                   - |       - |         - | :boom: "
        "`gone` "
        "(time does not grow with iterations: was the op optimized away? Keep its result alive "
        "with "
        "fb_do_not_optimize())\n";
    CHECK_STR(buf, want);

    /* fb_write_markdown prints the same table from the stored results */
    char *buf2 = NULL;
    size_t len2 = 0;
    FILE *f2 = open_memstream(&buf2, &len2);
    CHECK(fb_write_markdown(b, f2) == 0);
    fclose(f2);
    CHECK_STR(buf2, want);
    free(buf);
    free(buf2);
    fb_bench_free(b);
}

static void test_relative_and_unstable(void) {
    fake_clock c = {0, 0, 0, 0};
    fb_bench *b = fake_bench(&c);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    fb_set_output(b, f);
    fb_set_epoch_iterations(b, 100);
    fb_set_epochs(b, 3);
    fb_set_relative(b, true);
    c.cost_ns = 200;
    fb_run(b, "base", fake_clock_op, &c);
    c.cost_ns = 100;
    fb_run(b, "twice as fast", fake_clock_op, &c);
    c.cost_ns = 400;
    fb_set_batch(b, 4); /* relative compares per unit: 100 ns per unit */
    fb_run(b, "per unit", fake_clock_op, &c);
    fclose(f);
    const char *want =
        "| relative |               ns/op |                op/s |    err% |     total | benchmark\n"
        "|---------:|--------------------:|--------------------:|--------:|----------:|:----------"
        "\n"
        "|   100.0% |              200.00 |        5,000,000.00 |    0.0% |      0.00 | `base`\n"
        "|   200.0% |              100.00 |       10,000,000.00 |    0.0% |      0.00 | `twice as "
        "fast`\n"
        "|   200.0% |              100.00 |       10,000,000.00 |    0.0% |      0.00 | `per "
        "unit`\n";
    CHECK_STR(buf, want);
    free(buf);
    fb_bench_free(b);

    /* an unstable row gets the marker and a hint */
    static const uint64_t costs[] = {100, 130, 70};
    b = fake_bench(&c);
    buf = NULL;
    f = open_memstream(&buf, &len);
    fb_set_output(b, f);
    fb_set_epoch_iterations(b, 1);
    fb_set_epochs(b, 3);
    FB_RUN(b, "shaky") { c.now_ns += costs[c.calls++ % 3]; }
    fclose(f);
    CHECK(strstr(buf,
                 "| :wavy_dash: `shaky` (Unstable: its epochs disagree; more epochs "
                 "(-min_time) or passes (-repetitions) show whether the median holds)\n") != NULL);
    CHECK(strstr(buf, "min_epoch_iterations") == NULL); /* never longer epochs */
    CHECK(strstr(buf, "|   30.0% |") != NULL);
    free(buf);

    /* FEMTOBENCH_SUPPRESS_WARNINGS silences the marker and the hint */
    setenv("FEMTOBENCH_SUPPRESS_WARNINGS", "1", 1);
    fb__process_reload(); /* read once per process */
    buf = NULL;
    f = open_memstream(&buf, &len);
    CHECK(fb_write_markdown(b, f) == 0);
    fclose(f);
    unsetenv("FEMTOBENCH_SUPPRESS_WARNINGS");
    fb__process_reload();
    CHECK(strstr(buf, "|   30.0% |      0.00 | `shaky`\n") != NULL);
    CHECK(strstr(buf, "wavy_dash") == NULL);
    free(buf);
    fb_bench_free(b);
}

static void test_hostile_names(void) {
    fake_clock c = {0, 10, 0, 0};
    fb_bench *b = fake_bench(&c);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    fb_set_output(b, f);
    fb_set_epoch_iterations(b, 20); /* 200 ns epochs: resolved by the 1 ns clock */
    fb_set_epochs(b, 1);
    fb_set_title(b, "t|i\ttle");
    fb_run(b, "a\"b,c;d\\e|f\n\t\xc3\xa9", fake_clock_op, &c);
    fb_run(b, "`tick`", fake_clock_op, &c);
    fclose(f);
    /* every line of the table has the same number of unescaped cell bars */
    int lines = 0;
    for (char *line = strtok(buf, "\n"); line; line = strtok(NULL, "\n")) {
        int bars = 0;
        for (char *p = line; *p; ++p)
            if (*p == '|' && (p == line || p[-1] != '\\')) ++bars;
        CHECK(bars == 5);
        ++lines;
    }
    CHECK(lines == 4);
    free(buf);
    buf = NULL;
    f = open_memstream(&buf, &len);
    CHECK(fb_write_markdown(b, f) == 0);
    fclose(f);
    CHECK(strstr(buf, "| t\\|i\\ttle\n") != NULL);
    CHECK(strstr(buf, "| `a\"b,c;d\\e\\|f\\n\\t\xc3\xa9`\n") != NULL);
    CHECK(strstr(buf, "| `` `tick` ``\n") != NULL);
    free(buf);
    fb_bench_free(b);
}

/* A result with hand-made counter data, as on a machine with a PMU. */
static fb_result *counter_result(const char *name, fb__mask has) {
    fb_result *r = calloc(1, sizeof *r);
    r->name = fb__strdup(name);
    r->config.title = fb__strdup("benchmark");
    r->config.unit = fb__strdup("byte");
    strcpy(r->config.time_unit_label, "ns");
    r->config.time_unit_s = 1e-9;
    r->config.batch = 4;
    r->epochs = 1;
    r->iterations = calloc(1, sizeof *r->iterations);
    r->iterations[0] = 1000;
    static const double per_iter[FB_MEASURE_COUNT] = {8e-9, 100, 25, 12, 0.5, 0, 0};
    for (int m = 0; m < FB_MEASURE_COUNT; ++m) {
        r->values[m] = malloc(sizeof(double));
        r->values[m][0] = per_iter[m];
    }
    r->has = has;
    fb__stats_compute(r);
    return r;
}

static void test_counter_columns(void) {
    fb_bench *b = fb_bench_new();
    fb__mask all = 0x7f;
    fb__bench_add_result(b, counter_result("all", all));
    fb__bench_add_result(b, counter_result("no branches", all & ~FB__BIT(FB_BRANCHINSTRUCTIONS)));
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    CHECK(fb_write_markdown(b, f) == 0);
    fclose(f);
    /* per unit (batch 4): 25 ins, 6.25 cyc, IPC 4, 3 bra, miss 0.5/12 */
    const char *want = "|             ns/byte |              byte/s |    err% |        ins/byte |  "
                       "      cyc/byte |"
                       "    IPC |       bra/byte |   miss% |     total | benchmark\n"
                       "|--------------------:|--------------------:|--------:|----------------:|--"
                       "--------------:|"
                       "-------:|---------------:|--------:|----------:|:----------\n"
                       "|                2.00 |      500,000,000.00 |    0.0% |           25.00 |  "
                       "          6.25 |"
                       "  4.000 |           3.00 |    4.2% |      0.00 | `all`\n"
                       "\n"
                       "|             ns/byte |              byte/s |    err% |        ins/byte |  "
                       "      cyc/byte |"
                       "    IPC |     total | benchmark\n"
                       "|--------------------:|--------------------:|--------:|----------------:|--"
                       "--------------:|"
                       "-------:|----------:|:----------\n"
                       "|                2.00 |      500,000,000.00 |    0.0% |           25.00 |  "
                       "          6.25 |"
                       "  4.000 |      0.00 | `no branches`\n";
    CHECK_STR(buf, want);
    free(buf);
    fb_bench_free(b);
}

static void test_grouping(void) {
    char s[64];
    fb__fmt_grouped(s, sizeof s, 1234567.891, 2);
    CHECK_STR(s, "1,234,567.89");
    fb__fmt_grouped(s, sizeof s, 999.999, 2);
    CHECK_STR(s, "1,000.00");
    fb__fmt_grouped(s, sizeof s, 12, 0);
    CHECK_STR(s, "12");
    fb__fmt_grouped(s, sizeof s, -1234.5, 1);
    CHECK_STR(s, "-1,234.5");
    fb__fmt_grouped(s, sizeof s, 0.004, 2);
    CHECK_STR(s, "0.00");
    fb__fmt_grouped(s, sizeof s, NAN, 2);
    CHECK_STR(s, "-");
}

int main(void) {
    unsetenv("FEMTOBENCH_CONFIG");
    setenv("FEMTOBENCH_SUPPRESS_WARNINGS", "", 1);
    unsetenv("FEMTOBENCH_SUPPRESS_WARNINGS");
    test_golden_table();
    test_relative_and_unstable();
    test_hostile_names();
    test_counter_columns();
    test_grouping();
    return CHECK_DONE();
}
