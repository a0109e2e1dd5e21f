/* Google Benchmark JSON rows of one result (the document, its families
 * and the passes are src/outputs/report_gbench.c's): the time unit GB knows, the
 * run name, the median row, one row per epoch and the _mean, _median and
 * _stddev aggregates, the counters, rates and user counters of each, and
 * the error and counted (-valgrind) rows. docs/formats.md gives the
 * mapping. */
#include "report_gbench.h"

#include "disturb.h"
#include "numfmt.h"
#include "result.h"
#include "valgrind.h" /* counted results (-valgrind) */
#include "ucounter.h" /* user counters: numbers in each row */

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The result's time unit when GB knows it, else ns. It is fixed per
 * benchmark, never chosen by magnitude: compare.py only compares rows whose
 * time_unit matches, so two runs must agree. */
void fb__gb_unit(const fb_result *r, const char **label, double *seconds) {
    static const struct {
        const char *label;
        double s;
    } units[] = {{"ns", 1e-9}, {"us", 1e-6}, {"ms", 1e-3}, {"s", 1.0}};
    for (size_t i = 0; i < sizeof units / sizeof units[0]; ++i) {
        if (strcmp(r->config.time_unit_label, units[i].label) == 0 &&
            fabs(r->config.time_unit_s - units[i].s) <= 1e-12 * units[i].s) {
            *label = units[i].label;
            *seconds = units[i].s;
            return;
        }
    }
    *label = "ns";
    *seconds = 1e-9;
}

/* "name", or "name/N" with a complexity N. An instance of a family is
 * named "fn/arg" already (GB's own convention): "/N" is only added when N is
 * not its argument. A name that two series share gets "#2", "#3", ... in
 * the writer, so that each is its own benchmark for the tools; the passes
 * of one series (-repetitions) share its name, as GB's repetitions do. */
char *fb__gb_run_name(const fb_result *r) {
    const char *name = r->name ? r->name : "";
    char n[64] = "";
    if (r->config.complexity_n > 0 && !r->config.family && /* a port's names are its own */
        !(r->config.has_arg && r->config.complexity_n == (double)r->config.arg)) {
        n[0] = '/';
        fb__fmt_double(n + 1, sizeof n - 1, r->config.complexity_n, 0);
    }
    size_t len = strlen(name) + strlen(n) + 32;
    char *s = malloc(len);
    if (s) snprintf(s, len, "%s%s", name, n);
    return s;
}

void fb__gb_head(fb__json *j, const fb__gb_row *w, const char *suffix, bool aggregate) {
    fb__json_obj(j, NULL, false);
    fb__json_kstr2(j, "name", w->run_name, suffix);
    fb__json_ku64(j, "family_index", w->family);
    fb__json_ku64(j, "per_family_instance_index", w->instance);
    fb__json_kstr(j, "run_name", w->run_name);
    fb__json_kstr(j, "run_type", aggregate ? "aggregate" : "iteration");
    fb__json_ku64(j, "repetitions", w->repetitions);
}

void fb__gb_times(fb__json *j, const fb__gb_row *w, double t, double cpu) {
    fb__json_knum(j, "real_time", t);
    fb__json_knum(j, "cpu_time", isfinite(cpu) ? cpu : t);
    fb__json_kstr(j, "time_unit", w->unit);
}

/* Google Benchmark's "label" (a string its tools show and never compare):
 * the result's own (fb_set_label, SetLabel), then its marks (src/stats/marks.c)
 * after "; ", when it has either. */
void fb__gb_label(fb__json *j, const fb_result *r) {
    const char *marks = NULL;
    if (r->optimized_away && r->unresolved)
        marks = "optimized away? not resolved by the clock";
    else if (r->optimized_away)
        marks = "optimized away?";
    else if (r->at_loop_resolution && r->unresolved)
        marks = "at the loop's resolution; not resolved by the clock";
    else if (r->at_loop_resolution)
        marks = "at the loop's resolution";
    else if (r->unresolved)
        marks = "not resolved by the clock";
    if (r->label && marks) {
        char tail[96];
        snprintf(tail, sizeof tail, "; %s", marks);
        fb__json_kstr2(j, "label", r->label, tail);
    } else if (r->label || marks) {
        fb__json_kstr(j, "label", r->label ? r->label : marks);
    }
}

/* Counters are plain numbers to the tools: a counter with no finite value
 * (never scheduled, NAN) is left out of the row rather than written null. */
void fb__gb_counter(fb__json *j, fb_measure m, double v) {
    if (m != FB_CPUTIME && isfinite(v)) fb__json_knum(j, fb_measure_name(m), v);
}

/* User counters (fb_counter) as GB writes state.counters: a number per
 * counter in the row, under its name; a rate at s_per_call seconds per
 * call. A counter with no value (no time to divide by) is left out, as
 * above; a rate too large for a double is null (JSON has no inf), never
 * left out (the run's diagnostics say which). */
void fb__gb_ucounters(fb__json *j, const fb_result *r, double s_per_call) {
    for (size_t i = 0; i < fb_result_counter_count(r); ++i) {
        double v = fb__ucounter_shown(r, i, s_per_call);
        if (isfinite(v))
            fb__json_knum(j, fb_result_counter_name(r, i), v);
        else if (isinf(v))
            fb__json_knull(j, fb_result_counter_name(r, i));
    }
}

/* The aggregate a (FB__SPREAD_*) of each user counter over the epochs the
 * statistics use, stored with the result (src/stats/stats.c); left out under two
 * values. */
static void fb__gb_ucounters_agg(fb__json *j, const fb_result *r, int a) {
    for (size_t i = 0; i < fb_result_counter_count(r); ++i) {
        const fb__spread *sp = &r->ucounters->c[i].epochs;
        if (sp->n >= 2) fb__json_knum(j, fb_result_counter_name(r, i), sp->v[a]);
    }
}

/* The rate field of a batched result ("bytes_per_second" or
 * "items_per_second"), or NULL when the batch is 1 and the unit not bytes. */
const char *fb__gb_rate_key(const fb_result *r) {
    const char *u = r->config.unit ? r->config.unit : "";
    bool bytes = !strcmp(u, "byte") || !strcmp(u, "bytes") || !strcmp(u, "B");
    if (bytes) return "bytes_per_second";
    return r->config.batch != 1 ? "items_per_second" : NULL;
}

/* Units per second at `s_per_call` seconds per call (left out when 0). */
void fb__gb_rate(fb__json *j, const fb_result *r, double s_per_call) {
    const char *key = fb__gb_rate_key(r);
    if (key && s_per_call > 0 && isfinite(s_per_call))
        fb__json_knum(j, key, r->config.batch / s_per_call);
}

void fb__gb_error_row(fb__json *j, const fb_result *r, fb__gb_row w) {
    /* as GB reports a benchmark that failed: one iteration row */
    w.repetitions = 1;
    fb__gb_head(j, &w, "", false);
    fb__json_ku64(j, "repetition_index", 0);
    fb__json_ku64(j, "threads", fb_result_threads(r));
    fb__json_kbool(j, "error_occurred", true);
    fb__json_kstr(j, "error_message", r->error ? r->error : "no time was measured");
    if (r->label) fb__json_kstr(j, "label", r->label); /* fb_set_label */
    fb__json_ku64(j, "iterations", 0);
    fb__gb_times(j, &w, 0, NAN);
    fb__json_end_obj(j);
}

/* A result counted under Callgrind (-valgrind) has no time: one iteration
 * row over the n2 - n1 iterations that make the count, times 0, and the
 * exact counts per unit as counters named valgrind_<measure>. */
void fb__gb_counted(fb__json *j, const fb_result *r, fb__gb_row *w) {
    w->repetitions = 1;
    fb__gb_head(j, w, "", false);
    fb__json_ku64(j, "repetition_index", 0);
    fb__json_ku64(j, "threads", fb_result_threads(r));
    fb__json_ku64(j, "iterations", r->vg->n2 - r->vg->n1);
    /* nothing is timed: a dashboard that plots real_time would draw a 0.
     * real_time and cpu_time carry the instructions per op call instead,
     * in "ns" (one instruction a nanosecond), so a tool that compares
     * times (compare.py, a dashboard, a gate) compares exact counts; the
     * label says so (docs/formats.md) */
    w->unit = "ns";
    fb__gb_times(j, w, fb_result_valgrind(r, FB_VG_INSTRUCTIONS), NAN);
    const char *vg_label = "valgrind: real_time and cpu_time are instructions per call, not ns";
    char tail[96];
    snprintf(tail, sizeof tail, "; %s", vg_label);
    if (r->label) /* fb_set_label's first */
        fb__json_kstr2(j, "label", r->label, tail);
    else
        fb__json_kstr(j, "label", vg_label);
    for (int m = 0; m < FB_VG_MEASURE_COUNT; ++m) {
        double v = fb_result_valgrind(r, (fb_vg_measure)m) / r->config.batch;
        char key[64];
        snprintf(key, sizeof key, "valgrind_%s", fb_vg_measure_name((fb_vg_measure)m));
        if (isfinite(v)) fb__json_knum(j, key, v);
    }
    if (r->vg->ins_lo < r->vg->ins_hi) { /* a count that moved: its spread, per unit */
        fb__json_knum(j, "valgrind_instructions_low", r->vg->ins_lo / r->config.batch);
        fb__json_knum(j, "valgrind_instructions_high", r->vg->ins_hi / r->config.batch);
    }
    fb__gb_ucounters(j, r, NAN); /* no time: the rates are left out */
    fb__json_end_obj(j);
}

/* Returns FB_OK. */
int fb__gb_result(fb__json *j, const fb_result *r, const fb__gb_row *row, int rows) {
    fb__gb_row w = *row;
    double tu_s;
    fb__gb_unit(r, &w.unit, &tu_s);
    if (r->vg && !r->error) {
        fb__gb_counted(j, r, &w);
        return FB_OK;
    }
    if (r->error || !(r->has & FB__BIT(FB_ELAPSED)) || !r->values[FB_ELAPSED] || r->epochs == 0) {
        fb__gb_error_row(j, r, w);
        return FB_OK;
    }
    double t_scale = 1.0 / tu_s; /* s per call -> time units per call */
    const struct fb__summary *el = &r->summary[FB_ELAPSED];
    if (rows == FB_GBENCH_MEDIAN) {
        /* one row: the median per call; iterations: every call measured */
        w.repetitions = 1;
        fb__gb_head(j, &w, "", false);
        fb__gb_label(j, r);
        fb__json_ku64(j, "repetition_index", 0);
        fb__json_ku64(j, "threads", fb_result_threads(r));
        fb__json_ku64(j, "iterations", r->total_iterations);
        fb__gb_times(j, &w, el->median * t_scale, fb_result_median(r, FB_CPUTIME) * t_scale);
        fb__gb_rate(j, r, el->median);
        fb__gb_ucounters(j, r, el->median);
        for (int m = 1; m < FB_MEASURE_COUNT; ++m)
            if ((r->has & FB__BIT(m)) && r->values[m])
                fb__gb_counter(j, (fb_measure)m, r->summary[m].median / r->config.batch);
        fb__json_end_obj(j);
        return FB_OK;
    }
    /* the repetitions are the epochs the statistics use (not the
     * disturbed or superseded ones), so compare.py's U test sees the same
     * samples as the aggregates */
    w.repetitions = 0;
    for (size_t e = 0; e < r->epochs; ++e)
        if (!r->epoch_flags || !(r->epoch_flags[e] & FB__EPOCH_DROPPED)) w.repetitions++;
    bool epoch_rows = rows == FB_GBENCH_REPETITIONS || w.repetitions < 2;
    for (size_t e = 0, index = 0; epoch_rows && e < r->epochs; ++e) {
        if (r->epoch_flags && (r->epoch_flags[e] & FB__EPOCH_DROPPED)) continue;
        fb__gb_head(j, &w, "", false);
        fb__gb_label(j, r);
        fb__json_ku64(j, "repetition_index", index++);
        fb__json_ku64(j, "threads", fb_result_threads(r));
        fb__json_ku64(j, "iterations", r->iterations[e]);
        fb__gb_times(j, &w, r->values[FB_ELAPSED][e] * t_scale,
                     fb_result_value(r, FB_CPUTIME, e) * t_scale);
        fb__gb_rate(j, r, r->values[FB_ELAPSED][e]);
        fb__gb_ucounters(j, r, r->values[FB_ELAPSED][e]);
        for (int m = 1; m < FB_MEASURE_COUNT; ++m)
            if ((r->has & FB__BIT(m)) && r->values[m])
                fb__gb_counter(j, (fb_measure)m, r->values[m][e] / r->config.batch);
        fb__json_end_obj(j);
    }
    if (w.repetitions < 2) return FB_OK;
    /* the rate's aggregates are over the per-epoch rates, as GB aggregates
     * a counter over its repetitions (the epochs used only): stored with
     * the result (src/stats/stats.c) */
    bool has_rate = fb__gb_rate_key(r) != NULL && r->rate_epochs.n >= 2;
    static const char *const aggs[3] = {"mean", "median", "stddev"};
    for (int a = 0; a < 3; ++a) {
        char suffix[16];
        snprintf(suffix, sizeof suffix, "_%s", aggs[a]);
        fb__gb_head(j, &w, suffix, true);
        fb__gb_label(j, r);
        fb__json_ku64(j, "threads", fb_result_threads(r));
        fb__json_kstr(j, "aggregate_name", aggs[a]);
        fb__json_kstr(j, "aggregate_unit", "time");
        fb__json_ku64(j, "iterations", w.repetitions);
        for (int m = 0; m < FB_MEASURE_COUNT; ++m) {
            if (!(r->has & FB__BIT(m)) || !r->values[m]) continue;
            double scale = m == FB_ELAPSED ? t_scale : 1.0 / r->config.batch;
            const struct fb__summary *s = &r->summary[m];
            double v = a == 0 ? s->mean * scale : a == 1 ? s->median * scale : s->stddev * scale;
            if (m == FB_ELAPSED) {
                const struct fb__summary *c =
                    fb_result_has(r, FB_CPUTIME) ? &r->summary[FB_CPUTIME] : NULL;
                double cpu = !c       ? NAN
                             : a == 0 ? c->mean * t_scale
                             : a == 1 ? c->median * t_scale
                                      : c->stddev * t_scale;
                fb__gb_times(j, &w, v, cpu);
                if (has_rate) fb__json_knum(j, fb__gb_rate_key(r), r->rate_epochs.v[a]);
            } else {
                fb__gb_counter(j, (fb_measure)m, v);
            }
        }
        fb__gb_ucounters_agg(j, r, a);
        fb__json_end_obj(j);
    }
    return FB_OK;
}
