/* The immutable result of a run: its accessors and its release. */
#include "result.h"

#include <math.h>
#include <stdlib.h>

const char *fb_measure_name(fb_measure m) {
    static const char *const names[FB_MEASURE_COUNT] = {
        "elapsed",      "instructions", "cpucycles",       "branchinstructions",
        "branchmisses", "pagefaults",   "contextswitches", "cputime"};
    return (unsigned)m < FB_MEASURE_COUNT ? names[m] : NULL;
}

void fb__result_free(fb_result *r) {
    if (!r) return;
    free(r->name);
    free(r->error);
    free(r->label);
    fb__config_free(&r->config);
    free(r->iterations);
    free(r->epoch_flags);
    for (int m = 0; m < FB_MEASURE_COUNT; ++m) free(r->values[m]);
    free(r->vg); /* Callgrind counts (src/run/valgrind.c) */
    free(r->ucounters);
    free(r->thread_median_s);
    free(r);
}

const char *fb_result_name(const fb_result *r) { return r->name; }
const char *fb_result_title(const fb_result *r) { return r->config.title; }
const char *fb_result_unit(const fb_result *r) { return r->config.unit; }
const char *fb_result_error(const fb_result *r) { return r->error; }
double fb_result_batch(const fb_result *r) { return r->config.batch; }
double fb_result_complexity_n(const fb_result *r) { return r->config.complexity_n; }
size_t fb_result_epochs(const fb_result *r) { return r->epochs; }
size_t fb_result_disturbed_epochs(const fb_result *r) { return r->disturbed; }
size_t fb_result_used_epochs(const fb_result *r) { return r->used; }
bool fb_result_has(const fb_result *r, fb_measure m) {
    return (unsigned)m < FB_MEASURE_COUNT && (r->has & FB__BIT(m)) && r->values[m];
}
static const fb__summary *fb__sum(const fb_result *r, fb_measure m) {
    return fb_result_has(r, m) ? &r->summary[m] : NULL;
}
double fb_result_cpu_median(const fb_result *r) {
    return fb__sum(r, FB_CPUTIME) ? fb__sum(r, FB_CPUTIME)->median / r->config.batch : NAN;
}
bool fb_result_descheduled(const fb_result *r) { return !r->error && r->descheduled > 0; }
double fb_result_median(const fb_result *r, fb_measure m) {
    return fb__sum(r, m) ? fb__sum(r, m)->median : NAN;
}
double fb_result_err_pct(const fb_result *r, fb_measure m) {
    return fb__sum(r, m) ? fb__sum(r, m)->err_pct : NAN;
}
double fb_result_min(const fb_result *r, fb_measure m) {
    return fb__sum(r, m) ? fb__sum(r, m)->min : NAN;
}
double fb_result_max(const fb_result *r, fb_measure m) {
    return fb__sum(r, m) ? fb__sum(r, m)->max : NAN;
}
double fb_result_mean(const fb_result *r, fb_measure m) {
    return fb__sum(r, m) ? fb__sum(r, m)->mean : NAN;
}
double fb_result_stddev(const fb_result *r, fb_measure m) {
    return fb__sum(r, m) ? fb__sum(r, m)->stddev : NAN;
}
double fb_result_value(const fb_result *r, fb_measure m, size_t epoch) {
    return fb_result_has(r, m) && epoch < r->epochs ? r->values[m][epoch] : NAN;
}
uint64_t fb_result_iterations(const fb_result *r, size_t epoch) {
    return epoch < r->epochs ? r->iterations[epoch] : 0;
}
uint64_t fb_result_total_iterations(const fb_result *r) { return r->total_iterations; }
double fb_result_total_s(const fb_result *r) { return r->total_s; }
bool fb_result_optimized_away(const fb_result *r) { return r && r->optimized_away; }
bool fb_result_at_loop_resolution(const fb_result *r) { return r && r->at_loop_resolution; }
bool fb_result_unresolved(const fb_result *r) { return r && r->unresolved; }
bool fb_result_unstable(const fb_result *r) {
    return !r->error && r->epochs > 1 && r->summary[FB_ELAPSED].err_pct >= 5.0;
}

/* A user counter as the files show it (src/result/result.h). */
double fb__ucounter_shown(const fb_result *r, size_t i, double s_per_call) {
    if (!r->ucounters || i >= r->ucounters->n) return NAN;
    const fb__ucounter *c = &r->ucounters->c[i];
    if (c->flags & FB_COUNTER_RATE)
        return s_per_call > 0 && isfinite(s_per_call) ? c->value / s_per_call : NAN;
    if (c->flags & FB_COUNTER_PER_ITERATION) return c->value / r->config.batch;
    return c->value;
}

/* A group of threads (src/run/group.h): its size and each thread's median. */
size_t fb_result_threads(const fb_result *r) { return r && r->threads ? r->threads : 1; }

double fb_result_thread_median(const fb_result *r, size_t i) {
    if (!r || !r->thread_median_s || i >= r->threads) return NAN;
    return r->thread_median_s[i];
}

void fb__result_thread_range(const fb_result *r, double *lo, double *hi) {
    *lo = *hi = NAN;
    for (size_t t = 0; r->thread_median_s && t < r->threads; ++t) {
        double v = r->thread_median_s[t];
        if (isnan(*lo) || v < *lo) *lo = v;
        if (isnan(*hi) || v > *hi) *hi = v;
    }
}
