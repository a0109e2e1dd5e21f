/* Manual timing and excluded regions (src/handle/manual.h). */
#include "manual.h"

#include "bench_state.h"
#include "clock.h"
#include "misuse.h"
#include "numfmt.h" /* numbers with '.' whatever the locale */

#include <math.h>

/* The clock the bench's runs read (a custom one, e.g. the tests' fake). */
static uint64_t fb__manual_now(const fb_bench *b) {
    return b->clock ? b->clock(b->clock_ctx) : fb__clock_now_ns();
}

void fb_set_manual_time(fb_bench *b, bool on) {
    if (b) b->manual.on = on;
}

int fb_set_iteration_time(fb_bench *b, double seconds) {
    if (!b) return FB_EINVAL;
    if (!(seconds >= 0) || !isfinite(seconds)) /* NaN, negative, infinite */
    {
        char g[32]; /* '.' whatever the locale */
        fb__fmt_double(g, sizeof g, seconds, 6);
        return fb__bench_misuse(b, "fb_set_iteration_time(%s): not a finite number of seconds >= 0",
                                g);
    }
    if (!b->manual.on)
        return fb__bench_misuse(b, "fb_set_iteration_time: manual timing is off (call "
                                   "fb_set_manual_time(b, true) before the run)");
    b->manual.given_s += seconds;
    b->manual.given = true;
    return FB_OK;
}

void fb_exclude_begin(fb_bench *b) { b->manual.begin_ns = fb__manual_now(b); }

void fb_exclude_end(fb_bench *b) {
    uint64_t now = fb__manual_now(b);
    if (b->manual.begin_ns && now >= b->manual.begin_ns)
        b->manual.excluded_ns += now - b->manual.begin_ns;
    b->manual.begin_ns = 0;
}

void fb__manual_epoch_begin(fb_bench *b) {
    b->manual.given_s = 0;
    b->manual.given = false;
    b->manual.excluded_ns = 0;
    b->manual.begin_ns = 0;
}

double fb__manual_epoch_time(fb_bench *b, double measured_s) {
    if (b->manual.on) {
        if (!b->manual.given)
            fb__bench_misuse(b, "fb_set_manual_time: an epoch ended without a call to "
                                "fb_set_iteration_time");
        return b->manual.given_s;
    }
    double e = measured_s - (double)b->manual.excluded_ns * 1e-9;
    return e > 0 ? e : 0;
}
