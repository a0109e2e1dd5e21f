/* The counts a result carries (src/result/counted.h): the events' names and
 * the public accessors of fb_result's counts under Callgrind. */
#include "counted.h"

#include "result.h"

#include <math.h>
#include <stddef.h>

const char *fb__vg_event_name(int e) {
    static const char *const names[FB__VG_EVENTS] = {
        "Ir", "Dr", "Dw", "I1mr", "D1mr", "D1mw", "ILmr", "DLmr", "DLmw", "Bc", "Bcm", "Bi", "Bim"};
    return e >= 0 && e < FB__VG_EVENTS ? names[e] : NULL;
}

const char *fb_vg_measure_name(fb_vg_measure m) {
    static const char *const names[FB_VG_MEASURE_COUNT] = {"instructions", "l1_misses", "ll_misses",
                                                           "branches", "branch_misses"};
    return (unsigned)m < FB_VG_MEASURE_COUNT ? names[m] : NULL;
}

bool fb_result_counted(const fb_result *r) { return r && r->vg; }

double fb_result_valgrind(const fb_result *r, fb_vg_measure m) {
    if (!r || !r->vg || r->error || (unsigned)m >= FB_VG_MEASURE_COUNT) return NAN;
    return r->vg->per_iter[m];
}

unsigned fb_result_valgrind_spread(const fb_result *r, double *lo, double *hi) {
    bool ok = r && r->vg && !r->error;
    if (lo) *lo = ok ? r->vg->ins_lo : NAN;
    if (hi) *hi = ok ? r->vg->ins_hi : NAN;
    return ok ? r->vg->pairs : 0;
}
