/* femtobench-ab's verdict on one run from its paired rounds (tools/ab/ab_judge.c,
 * pure): the change over code layouts and over the run's two halves in time
 * (docs/ab.md, "How it works"). */
#ifndef FBA_JUDGE_H
#define FBA_JUDGE_H

#include "change.h"

#include <stdbool.h>
#include <stddef.h>

/* One run's kept rounds: lr[i] = ln(t_new / t_old) of round i, measured
 * with layout layout[i] of each side in pass pass[i] (passes are the blocks
 * in time: every layout once per pass). lay_old / lay_new: each layout's
 * median time per unit on each side (NAN: none kept). */
typedef struct fba_rounds {
    const double *lr;
    const unsigned char *layout, *pass;
    size_t n;
    size_t layouts, passes;
    const double *lay_old, *lay_new;
} fba_rounds;

typedef struct fba_judged {
    fb__change change;   /* change_pct, lo_pct, hi_pct and the verdict */
    double old_s, new_s; /* the columns: new_s / old_s - 1 is the change */
    bool random;         /* the interval spans layouts (>= 3 measured) */
    size_t layouts_used; /* layouts with a kept round */
    double spread_pct; /* placement: the most either side's layouts differ (max / min - 1), NAN with
                          one */
    double layout_effect;  /* the layouts' changes' variance over their noise's (about 1: none) */
    bool layout_sensitive; /* unsure because the change moves with placement (layout_effect > 3) */
    bool moment_split; /* the halves in time disagree beyond their intervals and the threshold */
    double half_pct[2], half_lo_pct[2], half_hi_pct[2]; /* each half's change; NAN: none */
} fba_judged;

/* Judges one run at `confidence` (each row's, family-wise corrected)
 * against threshold_pct. With 3 layouts or more, each layout's change is
 * the median of its rounds and the run's change their mean, with a t
 * interval over the layouts (placement as a random effect); with fewer, the
 * median of all rounds with the sign-test interval. The verdict is the
 * interval against the threshold, `unsure` when the two halves in time
 * disagree (moment_split). */
void fba_judge_rounds(const fba_rounds *in, double confidence, double threshold_pct,
                      fba_judged *out);

#endif
