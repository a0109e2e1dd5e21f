/* The change table (src/outputs/report_change.c): a run against a baseline as
 * the terminal prints it, from the change view (src/outputs/change.h);
 * shared by -baseline, -repetitions and tools/femtobench_compare.c. */
#ifndef FB_REPORT_CHANGE_H
#define FB_REPORT_CHANGE_H

#include "base.h"
#include "baseline.h"
#include "change.h"

#include <stdio.h>

/* The change table of `now` against `base` (src/outputs/report_change.c): context
 * warnings, one row per benchmark, the summary line. counts[] receives the
 * number of each verdict. Returns 0 or FB_ENOMEM. */
FB__PRIVATE int fb__change_table(FILE *f, const fb__baseline *base, const fb__baseline *now,
                                 double threshold_pct, size_t counts[FB__V_COUNT]);
/* The same with the processes of the two sides paired by their index
 * (`pass`): femtobench-compare -run. */
FB__PRIVATE int fb__change_table_paired(FILE *f, const fb__baseline *base, const fb__baseline *now,
                                        double threshold_pct, size_t counts[FB__V_COUNT]);
/* The table of an already computed view, its context's warnings first. */
FB__PRIVATE void fb__change_view_print(FILE *f, const fb__change_view *v);

/* The change table of a live bench (the runner's suite) against base; the
 * view is also kept in view (may be NULL) for the HTML report. */
FB__PRIVATE int fb__change_against(FILE *f, const fb__baseline *base, const fb_bench *now,
                                   double threshold_pct, size_t counts[FB__V_COUNT],
                                   fb__change_view *view);

#endif
