/* The change view (src/outputs/change_view.c) computed from given records of both
 * sides, without printing: the rows' order and matching, the "new" and
 * "gone" rows, how each row is compared, its verdict and interval, and the
 * summary counts the table prints. */
#include "change.h"
#include "check.h"

#include <math.h>
#include <string.h>

#define EPOCHS 11

/* A record of `name` with the fields every record here shares. */
static fb__bl_record record(char *name) {
    fb__bl_record r;
    memset(&r, 0, sizeof r);
    r.title = "benchmark";
    r.name = name;
    r.unit = "op";
    r.batch = 1;
    return r;
}

/* A timed record: EPOCHS epochs around t_s (a spread of +-1%), in `pass`. */
static fb__bl_record timed(char *name, double t_s, unsigned pass, double *store) {
    fb__bl_record r = record(name);
    r.pass = pass;
    r.epochs = EPOCHS;
    for (size_t k = 0; k < EPOCHS; ++k) store[k] = t_s * (0.99 + 0.002 * (double)k);
    r.per_unit_s = store;
    r.median_s = t_s;
    r.err_pct = 0.5;
    return r;
}

static fb__bl_record counted(char *name, double ins) {
    fb__bl_record r = record(name);
    r.counted = true;
    r.ins_per_unit = r.ins_lo_per_unit = r.ins_hi_per_unit = ins;
    r.median_s = NAN;
    return r;
}

static const fb__change_row *row(const fb__change_view *v, const char *name) {
    for (size_t i = 0; i < v->n; ++i)
        if (strcmp(v->rows[i].name, name) == 0) return &v->rows[i];
    return NULL;
}

/* One process a side: matched, new, gone, failed, counted rows. */
static void check_one_process(void) {
    static double e[8][EPOCHS];
    fb__bl_record old_rec[] = {
        timed("A", 10e-9, 0, e[0]), timed("B", 10e-9, 0, e[1]), timed("Gone", 5e-9, 0, e[2]),
        counted("C", 100),          timed("F", 10e-9, 0, e[3]),
    };
    fb__bl_record now_rec[] = {
        timed("B", 200e-9, 0, e[4]), timed("A", 10e-9, 0, e[5]), timed("New", 1e-9, 0, e[6]),
        counted("C", 110),           timed("F", 10e-9, 0, e[7]),
    };
    now_rec[4].error = "crashed";
    fb__baseline base = {.rec = old_rec, .n = 5}, now = {.rec = now_rec, .n = 5};
    fb__change_view v;
    CHECK(fb__change_view_compute(&base, &now, 10.0, false, &v) == FB_OK);
    /* the current run's order, then the gone benchmark */
    CHECK(v.n == 6);
    const char *order[] = {"B", "A", "New", "C", "F", "Gone"};
    for (size_t i = 0; i < 6 && i < v.n; ++i) CHECK_STR(v.rows[i].name, order[i]);

    const fb__change_row *b = row(&v, "B"), *a = row(&v, "A"), *nw = row(&v, "New");
    const fb__change_row *c = row(&v, "C"), *f = row(&v, "F"), *g = row(&v, "Gone");
    CHECK(b && a && nw && c && f && g);
    if (!(b && a && nw && c && f && g)) return;
    /* twenty times as slow: +1900%, beyond the floor-widened interval; the
     * change is the ratio of the two medians shown */
    CHECK(b->kind == FB__CHANGE_ROW_ONE && b->change.verdict == FB__V_SLOWER);
    CHECK_NEAR(b->change.change_pct, 1900.0, 1e-6);
    CHECK(b->change.lo_pct > 10.0 && b->change.lo_pct < 1900.0 && b->change.hi_pct > 1900.0);
    CHECK_NEAR(b->old.value_s, 10e-9, 1e-15);
    CHECK_NEAR(b->now.value_s, 200e-9, 1e-15);
    CHECK_NEAR(100 * (b->now.value_s / b->old.value_s - 1), b->change.change_pct, 1e-9);
    /* no change, but one process a side: widened by the floor past the
     * threshold, so no verdict either way */
    CHECK(a->kind == FB__CHANGE_ROW_ONE && a->change.verdict == FB__V_UNSURE);
    CHECK(a->change.lo_pct < -10.0 && a->change.hi_pct > 10.0);
    CHECK(nw->kind == FB__CHANGE_ROW_NEW && nw->change.verdict == FB__V_NEW);
    CHECK(!nw->old.present && nw->now.present && isnan(nw->change.change_pct));
    CHECK(g->kind == FB__CHANGE_ROW_GONE && g->change.verdict == FB__V_GONE);
    CHECK(g->old.present && !g->now.present && isnan(g->now.value_s));
    /* exact counts: 10% more instructions is slower, with no interval */
    CHECK(c->kind == FB__CHANGE_ROW_COUNTED && c->change.verdict == FB__V_SLOWER);
    CHECK(c->old.counted && c->now.counted && c->old.ins_per_unit == 100);
    CHECK_NEAR(c->change.change_pct, 10.0, 1e-9);
    CHECK(f->kind == FB__CHANGE_ROW_FAILED && f->change.verdict == FB__V_UNSURE);
    CHECK(f->now.failed && !f->old.failed && isnan(f->now.value_s));
    CHECK_STR(f->now.unit, "op");
    /* the summary the table prints */
    CHECK(v.counts[FB__V_SLOWER] == 2 && v.counts[FB__V_UNSURE] == 2);
    CHECK(v.counts[FB__V_NEW] == 1 && v.counts[FB__V_GONE] == 1);
    CHECK(v.counts[FB__V_FASTER] == 0 && v.counts[FB__V_SAME] == 0);
    CHECK(v.n_one == 2 && v.n_between == 0);
    CHECK(v.processes_old == 1 && v.processes_now == 1 && v.threshold_pct == 10.0);
    fb__change_view_clear(&v);
    CHECK(v.n == 0 && v.rows == NULL);
}

/* Several processes a side (the runner's -repetitions): one row per key and
 * occurrence, compared between processes; paired by index for -run. */
static void check_between(void) {
    static double e[8][EPOCHS];
    fb__bl_record old_rec[] = {
        timed("D", 10.0e-9, 0, e[0]), timed("D", 10.2e-9, 1, e[1]), timed("D", 10.1e-9, 2, e[2]),
        timed("D", 20.0e-9, 2, e[3]), /* D again in process 2: its second occurrence */
    };
    fb__bl_record now_rec[] = {
        timed("D", 5.0e-9, 0, e[4]),
        timed("D", 5.1e-9, 1, e[5]),
        timed("D", 5.05e-9, 2, e[6]),
    };
    fb__baseline base = {.rec = old_rec, .n = 4}, now = {.rec = now_rec, .n = 3};
    fb__change_view v;
    CHECK(fb__change_view_compute(&base, &now, 10.0, false, &v) == FB_OK);
    CHECK(v.n == 2);
    if (v.n == 2) {
        /* three processes a side: a t interval between them, about -50% */
        CHECK(v.rows[0].kind == FB__CHANGE_ROW_BETWEEN);
        CHECK(v.rows[0].change.verdict == FB__V_FASTER);
        CHECK_NEAR(v.rows[0].change.change_pct, -50.0, 1.0);
        CHECK(v.rows[0].change.lo_pct < -50.0 && v.rows[0].change.hi_pct > -50.0);
        /* the geometric mean of the processes' medians: the change is the
         * ratio of the two sides' values */
        CHECK_NEAR(v.rows[0].old.value_s, cbrt(10.0e-9 * 10.2e-9 * 10.1e-9), 1e-18);
        CHECK_NEAR(100 * (v.rows[0].now.value_s / v.rows[0].old.value_s - 1),
                   v.rows[0].change.change_pct, 1e-9);
        /* the second D of the baseline's process 2 has no partner */
        CHECK(v.rows[1].kind == FB__CHANGE_ROW_GONE);
    }
    CHECK(v.n_between == 1 && v.n_one == 0 && v.processes_old == 3 && v.processes_now == 3);
    fb__change_view_clear(&v);

    /* paired by process: a side with only one pair is not compared */
    fb__baseline one = {.rec = now_rec, .n = 1};
    CHECK(fb__change_view_compute(&base, &one, 10.0, true, &v) == FB_OK);
    CHECK(v.n == 2 && v.paired && v.rows[0].kind == FB__CHANGE_ROW_FEW);
    CHECK(v.rows[0].change.verdict == FB__V_UNSURE && v.counts[FB__V_UNSURE] == 1);
    fb__change_view_clear(&v);
}

/* Counts that moved between counted epochs (-valgrind): a difference within
 * the two spreads is `same` and says so, one beyond them is a change, and
 * two exact counts stay exact (one instruction more is `slower`). */
static void check_spread(void) {
    fb__bl_record old_rec[] = {counted("S", 1000), counted("B", 1000), counted("E", 233)};
    fb__bl_record now_rec[] = {counted("S", 1004), counted("B", 1010), counted("E", 234)};
    old_rec[0].ins_lo_per_unit = 995, old_rec[0].ins_hi_per_unit = 1006;
    now_rec[0].ins_lo_per_unit = 1001, now_rec[0].ins_hi_per_unit = 1008;
    old_rec[1].ins_lo_per_unit = 999, old_rec[1].ins_hi_per_unit = 1001;
    now_rec[1].ins_lo_per_unit = 1009, now_rec[1].ins_hi_per_unit = 1011;
    fb__baseline base = {.rec = old_rec, .n = 3}, now = {.rec = now_rec, .n = 3};
    fb__change_view v;
    CHECK(fb__change_view_compute(&base, &now, 10.0, false, &v) == FB_OK);
    const fb__change_row *s = row(&v, "S"), *b = row(&v, "B"), *e = row(&v, "E");
    CHECK(s && b && e);
    if (s && b && e) {
        CHECK(s->change.verdict == FB__V_SAME && s->change.spread == FB__SPREAD_WITHIN);
        CHECK_NEAR(s->change.lo_pct, 100.0 * (1001.0 / 1006 - 1), 1e-9);
        CHECK_NEAR(s->change.hi_pct, 100.0 * (1008.0 / 995 - 1), 1e-9);
        CHECK(b->change.verdict == FB__V_SLOWER && b->change.spread == FB__SPREAD_BEYOND);
        CHECK_NEAR(b->change.change_pct, 1.0, 1e-9);
        CHECK(e->change.verdict == FB__V_SLOWER && e->change.spread == FB__SPREAD_NONE);
    }
    fb__change_view_clear(&v);
    /* the same count whatever the spread: same, and exact when both are */
    fb__change c;
    fb__change_counted(100, 100, &c);
    CHECK(c.verdict == FB__V_SAME && c.spread == FB__SPREAD_NONE);
    fb__change_counted_spread(100, 90, 130, 80, 70, 89, &c);
    CHECK(c.verdict == FB__V_FASTER && c.spread == FB__SPREAD_BEYOND);
}

/* Rows are matched by title too: two suites' benchmarks of one name (the
 * runner's title per suite, fb_set_title) are two rows, each compared with
 * its own title's baseline, however the records are ordered. */
static void check_titles(void) {
    static double e[4][EPOCHS];
    fb__bl_record old_rec[] = {timed("X", 10e-9, 0, e[0]), timed("X", 100e-9, 0, e[1])};
    fb__bl_record now_rec[] = {timed("X", 100e-9, 0, e[2]), timed("X", 10e-9, 0, e[3])};
    old_rec[0].title = "small";
    old_rec[1].title = "large";
    now_rec[0].title = "large"; /* the other order */
    now_rec[1].title = "small";
    fb__baseline base = {.rec = old_rec, .n = 2}, now = {.rec = now_rec, .n = 2};
    fb__change_view v;
    CHECK(fb__change_view_compute(&base, &now, 10.0, false, &v) == FB_OK);
    CHECK(v.n == 2);
    for (size_t i = 0; i < v.n; ++i) {
        CHECK(v.rows[i].kind == FB__CHANGE_ROW_ONE);
        /* one process a side: within the floor, never faster or slower */
        CHECK(v.rows[i].change.verdict != FB__V_FASTER && v.rows[i].change.verdict != FB__V_SLOWER);
        CHECK_NEAR(v.rows[i].change.change_pct, 0.0, 1e-9);
        CHECK_NEAR(v.rows[i].old.value_s, v.rows[i].now.value_s, 1e-15);
    }
    if (v.n == 2) {
        CHECK_STR(v.rows[0].title, "large");
        CHECK_STR(v.rows[1].title, "small");
    }
    fb__change_view_clear(&v);
    /* a baseline saved under one title, the run under another: no match,
     * the run's row `new` and the baseline's `gone` */
    fb__bl_record saved = timed("Y", 10e-9, 0, e[0]), ran = timed("Y", 100e-9, 0, e[1]);
    saved.title = "a";
    ran.title = "b";
    fb__baseline base_a = {.rec = &saved, .n = 1}, now_b = {.rec = &ran, .n = 1};
    CHECK(fb__change_view_compute(&base_a, &now_b, 10.0, false, &v) == FB_OK);
    CHECK(v.n == 2);
    if (v.n == 2) {
        CHECK(v.rows[0].kind == FB__CHANGE_ROW_NEW);
        CHECK_STR(v.rows[0].title, "b");
        CHECK(v.rows[1].kind == FB__CHANGE_ROW_GONE);
        CHECK_STR(v.rows[1].title, "a");
    }
    CHECK(v.counts[FB__V_NEW] == 1 && v.counts[FB__V_GONE] == 1);
    fb__change_view_clear(&v);
}

int main(void) {
    check_titles();
    check_one_process();
    check_between();
    check_spread();
    return CHECK_DONE();
}
