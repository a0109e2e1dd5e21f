/* Marks a result earns from its own numbers, derived with its statistics
 * (docs/design.md, "An op that was optimized away" and "Epochs the clock
 * cannot resolve"). Nothing here measures or prints. */
#include "marks.h"

#include <math.h>

void fb__marks_compute(fb_result *r) {
    r->optimized_away = r->at_loop_resolution = r->unresolved = false;
    if (r->error || r->vg || !r->used) return;     /* nothing timed, or counted exactly */
    double median = r->summary[FB_ELAPSED].median; /* per iteration, whatever the batch */
    if (!isfinite(median)) return;
    /* the empty loop's cost per iteration is the least a body run once an
     * iteration can cost in FB_RUN's loop: well below it, the body was not
     * run (deleted, the loop folded); within a small factor of it, the time
     * is the loop's own, which one add or a body reduced to the barrier
     * cost alike, so it is said as that and not as a deleted op */
    if (r->empty_loop_s > 0 && median < FB__DELETED_FACTOR * r->empty_loop_s)
        r->optimized_away = true;
    else if (r->empty_loop_s > 0 && median < FB__LOOP_RESOLUTION_FACTOR * r->empty_loop_s)
        r->at_loop_resolution = true;
    /* a typical epoch: the median time per iteration times the mean
     * iterations of an epoch (the counts of one run differ by < 20%) */
    double iters = r->epochs ? (double)r->total_iterations / (double)r->epochs : 0;
    if (r->clock_resolution_s > 0 && median * iters < FB__RESOLVED_MULTIPLE * r->clock_resolution_s)
        r->unresolved = true;
}

bool fb__marks_cpu_differs(double time_s, double cpu_s) {
    if (!(time_s > 0) || !(cpu_s >= 0) || !isfinite(time_s) || !isfinite(cpu_s)) return false;
    return fabs(time_s - cpu_s) >= FB__CPU_DIFF_PCT / 100.0 * fmax(time_s, cpu_s);
}
