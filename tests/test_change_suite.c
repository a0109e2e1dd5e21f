/* The speed of each process divided out of a change table
 * (src/change_suite.c), on fake data with known factors: the factors, the
 * degrees of freedom, a row's interval by hand, the whole suite's line, and
 * the change table with a common per-process factor, a regression of one
 * benchmark and a change of every benchmark. */
#include "check.h"
#include "internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Five benchmarks, three processes a side: l = mu[b] + f[p], benchmark 2
 * 0.3 slower in the new side, benchmark 4's old process 0 off by 0.01.
 * Centers are the mean of the sides' medians; the factors come out as
 * f_old - 0.025 and f_new - 0.025 (worked out by hand). */
static const double mu[5] = {-20, -15, -12, -8, -3};
static const double f_old[3] = {0, 0.1, -0.05}, f_new[3] = {0.2, 0, 0.05};

static double l_of(size_t b, int side, size_t p) {
    double v = mu[b] + (side ? f_new[p] : f_old[p]);
    if (b == 2 && side) v += 0.3;
    if (b == 4 && !side && p == 0) v += 0.01;
    return v;
}

static void check_factors(void) {
    double lo[15], ln[15], fo[3], fn[3];
    for (size_t b = 0; b < 5; ++b)
        for (size_t p = 0; p < 3; ++p) lo[b * 3 + p] = l_of(b, 0, p), ln[b * 3 + p] = l_of(b, 1, p);
    CHECK(fb__suite_factors(lo, 3, ln, 3, 5, fo, fn) == FB_OK);
    for (size_t p = 0; p < 3; ++p) {
        CHECK_NEAR(fo[p], f_old[p] - 0.025, 1e-12);
        CHECK_NEAR(fn[p], f_new[p] - 0.025, 1e-12);
    }
    /* a benchmark missing from a process: the median over the others
     * (benchmarks 1 and 3 at 0.075, 2 at -0.075, 4 at 0.07: 0.0725) */
    lo[0 * 3 + 1] = NAN;
    CHECK(fb__suite_factors(lo, 3, ln, 3, 5, fo, fn) == FB_OK);
    CHECK_NEAR(fo[1], 0.0725, 1e-12);
    /* paired: the median over benchmarks of each pair's log ratio; one
     * benchmark 0.5 off does not move it */
    double d[5 * 3];
    const double fk[3] = {0.1, -0.2, 0};
    for (size_t b = 0; b < 5; ++b)
        for (size_t k = 0; k < 3; ++k) d[b * 3 + k] = fk[k] + (b == 1 ? 0.5 : 0.001 * (double)b);
    double f[3];
    CHECK(fb__suite_factors_paired(d, 3, 5, f) == FB_OK);
    for (size_t k = 0; k < 3; ++k) CHECK_NEAR(f[k], fk[k] + 0.003, 1e-12);
}

static void check_df(void) {
    /* unpaired: floor(((p - 2) b - (p - 1)) / b) */
    CHECK(fb__suite_df(10, 20, false) == 7); /* 7.55 */
    CHECK(fb__suite_df(6, 5, false) == 3);   /* 3 */
    CHECK(fb__suite_df(10, 5, false) == 6);  /* 6.2 */
    CHECK(fb__suite_df(3, 5, false) == 0);   /* 0.6: no interval */
    /* paired: floor((K - 1)(b - 1) / b) */
    CHECK(fb__suite_df(10, 20, true) == 8); /* 8.55 */
    CHECK(fb__suite_df(2, 5, true) == 0);   /* 0.8 */
    CHECK(fb__suite_df(3, 5, true) == 1);   /* 1.6 */
    CHECK(fb__suite_df(5, 0, true) == 0);
}

static void add_rows(fb__suite *s, size_t rows) {
    const unsigned passes[3] = {0, 1, 2};
    for (size_t b = 0; b < rows; ++b) {
        double o[3], n[3];
        for (size_t p = 0; p < 3; ++p) o[p] = exp(l_of(b, 0, p)), n[p] = exp(l_of(b, 1, p));
        CHECK(fb__suite_add(s, o, passes, 3, n, passes, 3) == FB_OK);
    }
}

static void check_rows(void) {
    fb__suite s;
    fb__suite_init(&s, false);
    add_rows(&s, 5);
    CHECK(fb__suite_fit(&s) == FB_OK);
    CHECK(s.on && s.n_old == 3 && s.n_new == 3);
    /* the whole suite: mean(f_new) - mean(f_old) */
    fb__change w;
    CHECK(fb__suite_whole_df(&s) == 4);
    fb__suite_whole(&s, fb__change_t_quantile(0.05, 4), 5, &w);
    CHECK_NEAR(w.shift, 0.25 / 3 - 0.05 / 3, 1e-9);
    /* the regressed benchmark: its values with the factors divided out are
     * constant on each side, 0.3 apart: an interval of zero width */
    fb__change c;
    CHECK(fb__suite_row_df(&s, 2) == 3);
    double t3 = fb__change_t_quantile(0.05, 3);
    fb__suite_compare(&s, 2, t3, 10, &c);
    CHECK_NEAR(c.shift, 0.3, 1e-9);
    CHECK_NEAR(c.lo, 0.3, 1e-9);
    CHECK(c.verdict == FB__V_SLOWER);
    fb__suite_compare(&s, 0, t3, 10, &c);
    CHECK_NEAR(c.shift, 0, 1e-9);
    CHECK(c.verdict == FB__V_SAME);
    /* benchmark 4: normalized old values off by {0.01, 0, 0}: shift -0.01/3,
     * residual sum of squares 0.01^2 * 2/3 over 3 degrees of freedom */
    fb__suite_compare(&s, 4, t3, 10, &c);
    double half = t3 * sqrt(0.0001 * 2 / 3 / 3) * sqrt(2.0 / 3);
    CHECK_NEAR(c.shift, -0.01 / 3, 1e-9);
    CHECK_NEAR(c.lo, -0.01 / 3 - half, 1e-9);
    CHECK_NEAR(c.hi, -0.01 / 3 + half, 1e-9);
    fb__suite_free(&s);
    /* fewer rows than the minimum: no factors, no whole suite */
    fb__suite_init(&s, false);
    add_rows(&s, FB__CHANGE_SUITE_MIN_BENCHMARKS - 1);
    CHECK(fb__suite_fit(&s) == FB_OK && !s.on);
    CHECK(fb__suite_whole_df(&s) == 0 && fb__suite_row_df(&s, 0) == 0);
    fb__suite_whole(&s, 3, 5, &w);
    CHECK(w.verdict == FB__V_UNSURE && isnan(w.shift));
    fb__suite_free(&s);
}

/* ------------------------------------------------------- the table */

static fb__bl_record rec(const char *name, double per_unit_s, unsigned pass) {
    fb__bl_record r;
    memset(&r, 0, sizeof r);
    r.title = fb__strdup("benchmark");
    r.name = fb__strdup(name);
    r.unit = fb__strdup("op");
    r.batch = 1;
    r.pass = pass;
    r.epochs = 11;
    r.per_unit_s = malloc(11 * sizeof(double));
    for (size_t e = 0; e < 11; ++e) r.per_unit_s[e] = per_unit_s;
    r.median_s = per_unit_s;
    return r;
}

/* 8 benchmarks x 5 processes a side. Every process has a speed factor
 * common to all its benchmarks (up to 30% apart between processes), each
 * benchmark its own small wobble (0.5%); `slow` slows benchmark "b3" by
 * 25% in the new side, `all` (when not 1) every benchmark by `all`, with
 * the processes of both sides at the same speeds. */
static void make_side(fb__baseline *bl, bool now, double slow, double all) {
    static const double speed_old[5] = {1, 1.3, 0.9, 1.1, 1.2},
                        speed_new[5] = {1.25, 0.95, 1, 1.15, 0.92};
    static const double wobble[7] = {0, 1, -1, 0.5, -0.5, 0.8, -0.8};
    memset(bl, 0, sizeof *bl);
    bl->rec = calloc(40, sizeof *bl->rec);
    for (unsigned p = 0; p < 5; ++p)
        for (size_t b = 0; b < 8; ++b) {
            char name[8];
            snprintf(name, sizeof name, "b%zu", b);
            double v = 1e-6 * (double)(b + 1) * (now && all == 1 ? speed_new[p] : speed_old[p]) *
                       (1 + 0.005 * wobble[(p * 3 + b + (now ? 2 : 0)) % 7]);
            if (now && b == 3) v *= slow;
            if (now) v *= all;
            bl->rec[bl->n++] = rec(name, v, p);
        }
}

static char *table(fb__baseline *base, fb__baseline *now, bool paired, size_t counts[]) {
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    CHECK(f != NULL);
    if (!f) return NULL;
    CHECK((paired ? fb__change_table_paired(f, base, now, 5, counts)
                  : fb__change_table(f, base, now, 5, counts)) == 0);
    fclose(f);
    return out;
}

static void check_table(void) {
    fb__baseline base, now;
    size_t counts[FB__V_COUNT];
    /* one benchmark 25% slower under a common factor of up to 30%: found,
     * and nothing else */
    make_side(&base, false, 1, 1);
    make_side(&now, true, 1.25, 1);
    for (int paired = 0; paired < 2; ++paired) {
        char *out = table(&base, &now, paired, counts);
        CHECK(out && strstr(out, "| slower  | `b3`"));
        CHECK(counts[FB__V_SLOWER] == 1 && counts[FB__V_SAME] == 7 && counts[FB__V_FASTER] == 0);
        CHECK(out && strstr(out, "family-wise over 8 benchmarks and the whole suite"));
        CHECK(out && strstr(out, "> whole suite: "));
        CHECK(out && strstr(out, "; whole suite unsure\n"));
        if (out && !strstr(out, "| slower  | `b3`")) fprintf(stderr, "%s\n", out);
        free(out);
    }
    fb__baseline_free(&now);
    /* every benchmark 20% slower: each row is the same relative to the
     * suite, and the whole suite's line says slower and counts as a slower
     * verdict */
    make_side(&now, true, 1, 1.2);
    char *out = table(&base, &now, true, counts);
    CHECK(out && strstr(out, "| same    | `b3`"));
    CHECK(out && strstr(out, "; whole suite slower\n"));
    CHECK(out && strstr(out, "0 faster, 0 slower, 8 same"));
    CHECK(counts[FB__V_SLOWER] == 1); /* the whole suite: -fail_on_slower sees it */
    if (out && !strstr(out, "; whole suite slower\n")) fprintf(stderr, "%s\n", out);
    free(out);
    fb__baseline_free(&now);
    fb__baseline_free(&base);
}

int main(void) {
    check_factors();
    check_df();
    check_rows();
    check_table();
    return CHECK_DONE();
}
