/* The change table's line for the whole suite: the change of the speed of
 * the processes (src/change_suite.c), under the rows it was divided out
 * of. */
#include "change_suite.h"

#include <math.h>

static void fb__rcs_pct(FILE *f, double pct) {
    if (isnan(pct))
        fputs("?", f);
    else if (isinf(pct))
        fputs(pct > 0 ? "+inf" : "-inf", f);
    else
        fprintf(f, "%+.1f%%", pct);
}

void fb__suite_print(FILE *f, const fb__suite *s, const fb__change *whole) {
    fputs("> whole suite: ", f);
    fb__rcs_pct(f, whole->change_pct);
    if (!isnan(whole->lo_pct)) {
        fputs(" [", f);
        fb__rcs_pct(f, whole->lo_pct);
        fputs(", ", f);
        fb__rcs_pct(f, whole->hi_pct);
        fputc(']', f);
    }
    fprintf(f,
            " %s (the speed of each %s: the median over the %zu benchmarks of its distance "
            "from their centers); it is divided out of each row above, so a row's change is "
            "relative to the whole suite's\n",
            fb__verdict_name(whole->verdict), s->paired ? "pair of runs" : "process", s->rows);
}
