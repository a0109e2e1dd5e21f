/* femtobench-ab's verdict on one run (tools/ab/ab_judge.c): layouts as a random
 * effect, the halves in time, the columns the change is the ratio of. Pure:
 * every input is made here. */
#include "../tools/ab/ab_judge.c"

#include "check.h"

#define N_MAX 512

typedef struct rounds_buf {
    double lr[N_MAX];
    unsigned char layout[N_MAX], pass[N_MAX];
    double lay_old[16], lay_new[16];
    fba_rounds in;
} rounds_buf;

/* `per` rounds a layout and pass of ln(1 + change(l, p)) plus a small
 * deterministic wobble; old times 100 ns times the layout's factor. */
static void make(rounds_buf *b, size_t layouts, size_t passes, size_t per,
                 double (*change)(size_t l, size_t p), double (*place)(size_t l)) {
    size_t n = 0;
    for (size_t p = 0; p < passes; ++p)
        for (size_t l = 0; l < layouts; ++l)
            for (size_t r = 0; r < per; ++r) {
                double wobble = 1e-4 * (double)((r * 7 + l * 3 + p) % 5) - 2e-4;
                b->lr[n] = log1p(change(l, p)) + wobble;
                b->layout[n] = (unsigned char)l;
                b->pass[n] = (unsigned char)p;
                n++;
            }
    for (size_t l = 0; l < layouts; ++l) {
        b->lay_old[l] = 100e-9 * place(l);
        b->lay_new[l] = b->lay_old[l] * (1 + change(l, 0));
    }
    b->in = (fba_rounds){b->lr, b->layout, b->pass, n, layouts, passes, b->lay_old, b->lay_new};
}

static double ten(size_t l, size_t p) {
    (void)l;
    (void)p;
    return 0.10;
}
static double none(size_t l, size_t p) {
    (void)l;
    (void)p;
    return 0.0;
}
/* the change itself moves with placement: +20% on even layouts, -15% on odd */
static double placed(size_t l, size_t p) {
    (void)p;
    return l % 2 ? -0.15 : 0.20;
}
/* the machine changed between the halves: slower, then faster */
static double drift(size_t l, size_t p) {
    (void)l;
    return p ? -0.10 : 0.15;
}
static double flat(size_t l) {
    (void)l;
    return 1.0;
}
static double two_speeds(size_t l) { return l % 2 ? 2.0 : 1.0; }

int main(void) {
    static rounds_buf b;
    fba_judged j;
    double conf = 1 - 0.05 / 6;

    /* 8 layouts, +10% everywhere: slower, a tight interval, no layout effect */
    make(&b, 8, 2, 4, ten, flat);
    fba_judge_rounds(&b.in, conf, 3.0, &j);
    CHECK(j.random && j.layouts_used == 8);
    CHECK(j.change.verdict == FB__V_SLOWER);
    CHECK_NEAR(j.change.change_pct, 10.0, 0.1);
    CHECK(j.change.lo_pct > 9.5 && j.change.hi_pct < 10.5);
    CHECK(!j.layout_sensitive && !j.moment_split);
    /* the columns: new / old - 1 is the change shown */
    CHECK_NEAR(j.new_s / j.old_s - 1, j.change.change_pct / 100, 1e-12);
    CHECK_NEAR(j.old_s, 100e-9, 1e-15);

    /* nothing changed, but the time doubles with placement: same (each
     * layout is paired with its own), the spread shown */
    make(&b, 8, 2, 4, none, two_speeds);
    fba_judge_rounds(&b.in, conf, 3.0, &j);
    CHECK(j.change.verdict == FB__V_SAME);
    CHECK_NEAR(j.spread_pct, 100.0, 1e-9);
    CHECK(!j.layout_sensitive);

    /* the change moves with placement (+20% or -15%): no verdict either
     * way, layout-sensitive */
    make(&b, 8, 2, 4, placed, flat);
    fba_judge_rounds(&b.in, conf, 3.0, &j);
    CHECK(j.change.verdict == FB__V_UNSURE);
    CHECK(j.layout_sensitive);
    CHECK(j.layout_effect > 100);
    CHECK(j.change.lo_pct < -3 && j.change.hi_pct > 3);

    /* the same rounds as one layout (placement not measured): the pooled
     * sign test; the machine changed between the halves: unsure, both
     * halves' changes kept */
    make(&b, 1, 2, 32, drift, flat);
    fba_judge_rounds(&b.in, conf, 3.0, &j);
    CHECK(!j.random);
    CHECK(j.moment_split);
    CHECK(j.change.verdict == FB__V_UNSURE);
    CHECK_NEAR(j.half_pct[0], 15.0, 0.1);
    CHECK_NEAR(j.half_pct[1], -10.0, 0.1);
    CHECK(!j.layout_sensitive);
    /* and with layouts */
    make(&b, 8, 2, 4, drift, flat);
    fba_judge_rounds(&b.in, conf, 3.0, &j);
    CHECK(j.moment_split && j.change.verdict == FB__V_UNSURE);

    /* halves that differ but agree on the verdict are not a split */
    make(&b, 1, 2, 32, ten, flat);
    fba_judge_rounds(&b.in, conf, 3.0, &j);
    CHECK(!j.moment_split && j.change.verdict == FB__V_SLOWER);

    /* one layout, +10%: slower by the sign test */
    CHECK_NEAR(j.change.change_pct, 10.0, 0.1);

    /* only two of eight layouts kept a round: no interval over layouts */
    make(&b, 8, 2, 4, ten, flat);
    size_t keep = 0;
    for (size_t i = 0; i < b.in.n; ++i)
        if (b.layout[i] < 2) {
            b.lr[keep] = b.lr[i];
            b.layout[keep] = b.layout[i];
            b.pass[keep] = b.pass[i];
            keep++;
        }
    b.in.n = keep;
    fba_judge_rounds(&b.in, conf, 3.0, &j);
    CHECK(j.layouts_used == 2 && j.change.verdict == FB__V_UNSURE);
    CHECK(!isfinite(j.change.lo_pct));

    /* nothing kept at all */
    b.in.n = 0;
    fba_judge_rounds(&b.in, conf, 3.0, &j);
    CHECK(j.change.verdict == FB__V_UNSURE && !isfinite(j.change.change_pct));
    return CHECK_DONE();
}
