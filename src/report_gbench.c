/* Google Benchmark JSON (json_schema_version 1), so that compare.py,
 * github-action-benchmark, Bencher and Conbench read femtobench results.
 *
 * The mapping (docs/formats.md). Row layouts:
 *  - FB_GBENCH_MEDIAN (the default): one row per result, named as the
 *    benchmark, with the median over its epochs. Dashboards
 *    (github-action-benchmark's `googlecpp`, Bencher's `cpp_google`) take
 *    every row as a data point keyed by name, so a name must appear once.
 *  - FB_GBENCH_REPETITIONS: as GB with --benchmark_repetitions: a femtobench
 *    epoch is a GB repetition, one "iteration" row per epoch (the samples of
 *    compare.py's U test), then "_mean", "_median" and "_stddev" aggregate
 *    rows (only with two epochs or more, as GB does with one repetition).
 *  - FB_GBENCH_AGGREGATES: the aggregate rows only
 *    (--benchmark_report_aggregates_only).
 * real_time is the time per op call (per GB iteration), as GB writes it even
 * for a batched benchmark, with bytes_per_second (unit "byte", "bytes" or
 * "B") or items_per_second (other units) beside it when the batch is not 1.
 * cpu_time repeats real_time because femtobench measures wall time only.
 * Counters are extra numeric fields, per unit, with nanobench's names. */
#include "report_gbench.h"

#include "disturb.h"
#include "json.h"
#include "numfmt.h"
#include "passes.h" /* -repetitions: passes are repetitions of one name */
#include "process.h"
#include "registry.h" /* a family's instances are one GB family */
#include "result.h"
#include "text.h"
#include "valgrind.h" /* counted results (-valgrind) */
#include "ucounter.h" /* user counters: numbers in each row */
#include "context.h"  /* -context: keys of "context", as GB's --benchmark_context */

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The result's time unit when GB knows it, else ns. It is fixed per
 * benchmark, never chosen by magnitude: compare.py only compares rows whose
 * time_unit matches, so two runs must agree. */
static void fb__gb_unit(const fb_result *r, const char **label, double *seconds) {
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
static char *fb__gb_run_name(const fb_result *r) {
    const char *name = r->name ? r->name : "";
    char n[64] = "";
    if (r->config.complexity_n > 0 &&
        !(r->config.has_arg && r->config.complexity_n == (double)r->config.arg)) {
        n[0] = '/';
        fb__fmt_double(n + 1, sizeof n - 1, r->config.complexity_n, 0);
    }
    size_t len = strlen(name) + strlen(n) + 32;
    char *s = malloc(len);
    if (s) snprintf(s, len, "%s%s", name, n);
    return s;
}

/* One GB family per name, the instances of a family ("fn/8", "fn/64")
 * counting as one: their names without "/<arg>". */
static bool fb__gb_same_name(const fb_result *a, const fb_result *b) {
    size_t n = fb__result_series_len(a);
    return n == fb__result_series_len(b) &&
           strncmp(a->name ? a->name : "", b->name ? b->name : "", n) == 0;
}

typedef struct fb__gb_row {
    const char *run_name;
    size_t family, instance, repetitions;
    const char *unit;
} fb__gb_row;

static void fb__gb_head(fb__json *j, const fb__gb_row *w, const char *suffix, bool aggregate) {
    fb__json_obj(j, NULL, false);
    fb__json_kstr2(j, "name", w->run_name, suffix);
    fb__json_ku64(j, "family_index", w->family);
    fb__json_ku64(j, "per_family_instance_index", w->instance);
    fb__json_kstr(j, "run_name", w->run_name);
    fb__json_kstr(j, "run_type", aggregate ? "aggregate" : "iteration");
    fb__json_ku64(j, "repetitions", w->repetitions);
}

static void fb__gb_times(fb__json *j, const fb__gb_row *w, double t) {
    fb__json_knum(j, "real_time", t);
    fb__json_knum(j, "cpu_time", t);
    fb__json_kstr(j, "time_unit", w->unit);
}

/* Google Benchmark's "label" (a string its tools show and never compare)
 * carries the result's marks (src/marks.c), when it has any. */
static void fb__gb_label(fb__json *j, const fb_result *r) {
    if (r->optimized_away && r->unresolved)
        fb__json_kstr(j, "label", "optimized away? not resolved by the clock");
    else if (r->optimized_away)
        fb__json_kstr(j, "label", "optimized away?");
    else if (r->unresolved)
        fb__json_kstr(j, "label", "not resolved by the clock");
}

/* Counters are plain numbers to the tools: a counter with no finite value
 * (never scheduled, NAN) is left out of the row rather than written null. */
static void fb__gb_counter(fb__json *j, fb_measure m, double v) {
    if (isfinite(v)) fb__json_knum(j, fb_measure_name(m), v);
}

static void fb__gb_spread(double *v, size_t n, double out[3]);

/* User counters (fb_counter) as GB writes state.counters: a number per
 * counter in the row, under its name; a rate at s_per_call seconds per
 * call. A counter with no finite value is left out, as above. */
static void fb__gb_ucounters(fb__json *j, const fb_result *r, double s_per_call) {
    for (size_t i = 0; i < fb_result_counter_count(r); ++i) {
        double v = fb__ucounter_shown(r, i, s_per_call);
        if (isfinite(v)) fb__json_knum(j, fb_result_counter_name(r, i), v);
    }
}

/* The aggregate a (0 mean, 1 median, 2 stddev) of each user counter over
 * the epochs the statistics use (a rate changes from epoch to epoch; any
 * other counter is the same in each, its stddev 0). */
static void fb__gb_ucounters_agg(fb__json *j, const fb_result *r, int a) {
    double *v = malloc((r->epochs ? r->epochs : 1) * sizeof *v);
    for (size_t i = 0; v && i < fb_result_counter_count(r); ++i) {
        size_t n = 0;
        for (size_t e = 0; e < r->epochs; ++e) {
            if (r->epoch_flags && (r->epoch_flags[e] & FB__EPOCH_DROPPED)) continue;
            double x = fb__ucounter_shown(r, i, r->values[FB_ELAPSED][e]);
            if (isfinite(x)) v[n++] = x;
        }
        if (n < 2) continue;
        double out[3];
        fb__gb_spread(v, n, out);
        fb__json_knum(j, fb_result_counter_name(r, i), out[a]);
    }
    free(v);
}

/* The rate field of a batched result ("bytes_per_second" or
 * "items_per_second"), or NULL when the batch is 1 and the unit not bytes. */
static const char *fb__gb_rate_key(const fb_result *r) {
    const char *u = r->config.unit ? r->config.unit : "";
    bool bytes = !strcmp(u, "byte") || !strcmp(u, "bytes") || !strcmp(u, "B");
    if (bytes) return "bytes_per_second";
    return r->config.batch != 1 ? "items_per_second" : NULL;
}

/* Units per second at `s_per_call` seconds per call (left out when 0). */
static void fb__gb_rate(fb__json *j, const fb_result *r, double s_per_call) {
    const char *key = fb__gb_rate_key(r);
    if (key && s_per_call > 0 && isfinite(s_per_call))
        fb__json_knum(j, key, r->config.batch / s_per_call);
}

/* mean, median, sample stddev of v[0..n) (n >= 2); sorts v. */
static void fb__gb_spread(double *v, size_t n, double out[3]) {
    double sum = 0, ss = 0;
    for (size_t i = 0; i < n; ++i) sum += v[i];
    double mean = sum / (double)n;
    for (size_t i = 0; i < n; ++i) ss += (v[i] - mean) * (v[i] - mean);
    out[0] = mean;
    out[1] = fb__median(v, n);
    out[2] = sqrt(ss / (double)(n - 1));
}

static void fb__gb_error_row(fb__json *j, const fb_result *r, fb__gb_row w) {
    /* as GB reports a benchmark that failed: one iteration row */
    w.repetitions = 1;
    fb__gb_head(j, &w, "", false);
    fb__json_ku64(j, "repetition_index", 0);
    fb__json_ku64(j, "threads", fb_result_threads(r));
    fb__json_kbool(j, "error_occurred", true);
    fb__json_kstr(j, "error_message", r->error ? r->error : "no time was measured");
    fb__json_ku64(j, "iterations", 0);
    fb__gb_times(j, &w, 0);
    fb__json_end_obj(j);
}

/* A result counted under Callgrind (-valgrind) has no time: one iteration
 * row over the n2 - n1 iterations that make the count, times 0, and the
 * exact counts per unit as counters named valgrind_<measure>. */
static void fb__gb_counted(fb__json *j, const fb_result *r, fb__gb_row *w) {
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
    fb__gb_times(j, w, fb_result_valgrind(r, FB_VG_INSTRUCTIONS));
    fb__json_kstr(j, "label", "valgrind: real_time and cpu_time are instructions per call, not ns");
    for (int m = 0; m < FB_VG_MEASURE_COUNT; ++m) {
        double v = fb_result_valgrind(r, (fb_vg_measure)m) / r->config.batch;
        char key[64];
        snprintf(key, sizeof key, "valgrind_%s", fb_vg_measure_name((fb_vg_measure)m));
        if (isfinite(v)) fb__json_knum(j, key, v);
    }
    fb__gb_ucounters(j, r, NAN); /* no time: the rates are left out */
    fb__json_end_obj(j);
}

/* Returns FB_OK or FB_ENOMEM (scratch for the aggregate rates). */
static int fb__gb_result(fb__json *j, const fb_result *r, const fb__gb_row *row, int rows) {
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
        fb__gb_times(j, &w, el->median * t_scale);
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
        fb__gb_times(j, &w, r->values[FB_ELAPSED][e] * t_scale);
        fb__gb_rate(j, r, r->values[FB_ELAPSED][e]);
        fb__gb_ucounters(j, r, r->values[FB_ELAPSED][e]);
        for (int m = 1; m < FB_MEASURE_COUNT; ++m)
            if ((r->has & FB__BIT(m)) && r->values[m])
                fb__gb_counter(j, (fb_measure)m, r->values[m][e] / r->config.batch);
        fb__json_end_obj(j);
    }
    if (w.repetitions < 2) return FB_OK;
    /* the rate's aggregates are over the per-epoch rates, as GB aggregates
     * a counter over its repetitions (the epochs used only) */
    double rate[3] = {0, 0, 0};
    bool has_rate = fb__gb_rate_key(r) != NULL;
    if (has_rate) {
        double *v = malloc(r->epochs * sizeof *v);
        if (!v) return FB_ENOMEM;
        size_t n = 0;
        for (size_t e = 0; e < r->epochs; ++e) {
            if (r->epoch_flags && (r->epoch_flags[e] & FB__EPOCH_DROPPED)) continue;
            if (r->values[FB_ELAPSED][e] > 0) v[n++] = r->config.batch / r->values[FB_ELAPSED][e];
        }
        if (n >= 2)
            fb__gb_spread(v, n, rate);
        else
            has_rate = false;
        free(v);
    }
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
                fb__gb_times(j, &w, v);
                if (has_rate) fb__json_knum(j, fb__gb_rate_key(r), rate[a]);
            } else {
                fb__gb_counter(j, (fb_measure)m, v);
            }
        }
        fb__gb_ucounters_agg(j, r, a);
        fb__json_end_obj(j);
    }
    return FB_OK;
}

/* Values over passes: the pass medians of the series' timed results. */
typedef struct fb__gb_pass_vals {
    const fb_result **r; /* timed results, in pass order */
    size_t n;
} fb__gb_pass_vals;

/* mean, median, stddev over the passes of value(r) */
static void fb__gb_over(const fb__gb_pass_vals *pv, double *scratch, int m, double scale,
                        double out[3]) {
    for (size_t k = 0; k < pv->n; ++k) scratch[k] = pv->r[k]->summary[m].median * scale;
    fb__gb_spread(scratch, pv->n, out);
}

/* One series run in several passes (-repetitions): the passes are GB's
 * repetitions of one name. Median layout: one row, the median over the
 * passes of each pass's median; repetitions layout: a row per pass (its
 * median), then _mean, _median and _stddev over the passes; aggregates
 * layout: those three only. A failed pass is an error row of its own.
 * FB_OK or FB_ENOMEM. */
static int fb__gb_passes(fb__json *j, const fb_bench *b, size_t s, const fb__gb_row *row,
                         int rows) {
    size_t lo = 0, hi = fb__passes_size(b, s);
    const fb_result *first = fb_result_at(b, fb__passes_member(b, s, lo));
    fb__gb_row w = *row;
    double tu_s;
    fb__gb_unit(first, &w.unit, &tu_s);
    if (first->vg && !first->error) { /* exact counts: the same in every pass */
        fb__gb_counted(j, first, &w);
        return FB_OK;
    }
    fb__gb_pass_vals pv = {malloc((hi - lo) * sizeof *pv.r), 0};
    double *scratch = malloc((hi - lo) * sizeof *scratch);
    if (!pv.r || !scratch) {
        free(pv.r);
        free(scratch);
        return FB_ENOMEM;
    }
    for (size_t x = lo; x < hi; ++x) {
        const fb_result *r = fb_result_at(b, fb__passes_member(b, s, x));
        if (!r->error && (r->has & FB__BIT(FB_ELAPSED)) && r->values[FB_ELAPSED] && r->epochs)
            pv.r[pv.n++] = r;
    }
    double t_scale = 1.0 / tu_s;
    const char *rate_key = fb__gb_rate_key(first);
    if (rows == FB_GBENCH_MEDIAN && pv.n > 0) {
        w.repetitions = 1;
        fb__gb_head(j, &w, "", false);
        fb__json_ku64(j, "repetition_index", 0);
        fb__json_ku64(j, "threads", fb_result_threads(first));
        uint64_t iters = 0;
        for (size_t k = 0; k < pv.n; ++k) iters += pv.r[k]->total_iterations;
        fb__json_ku64(j, "iterations", iters);
        double agg[3];
        fb__gb_over(&pv, scratch, FB_ELAPSED, 1.0, agg);
        fb__gb_times(j, &w, agg[1] * t_scale);
        fb__gb_rate(j, first, agg[1]);
        fb__gb_ucounters(j, first, agg[1]);
        for (int m = 1; m < FB_MEASURE_COUNT; ++m) {
            bool all = true;
            for (size_t k = 0; k < pv.n && all; ++k)
                all = (pv.r[k]->has & FB__BIT(m)) && pv.r[k]->values[m];
            if (!all) continue;
            fb__gb_over(&pv, scratch, m, 1.0 / first->config.batch, agg);
            fb__gb_counter(j, (fb_measure)m, agg[1]);
        }
        fb__json_end_obj(j);
    }
    w.repetitions = pv.n;
    bool pass_rows = rows == FB_GBENCH_REPETITIONS || pv.n < 2;
    for (size_t x = lo, index = 0; x < hi; ++x) {
        const fb_result *r = fb_result_at(b, fb__passes_member(b, s, x));
        bool timed =
            !r->error && (r->has & FB__BIT(FB_ELAPSED)) && r->values[FB_ELAPSED] && r->epochs;
        if (!timed) {
            fb__gb_error_row(j, r, w);
            continue;
        }
        if (!pass_rows || rows == FB_GBENCH_MEDIAN) continue;
        fb__gb_head(j, &w, "", false);
        fb__json_ku64(j, "repetition_index", index++);
        fb__json_ku64(j, "threads", fb_result_threads(r));
        fb__json_ku64(j, "iterations", r->total_iterations);
        fb__gb_times(j, &w, r->summary[FB_ELAPSED].median * t_scale);
        fb__gb_rate(j, r, r->summary[FB_ELAPSED].median);
        fb__gb_ucounters(j, r, r->summary[FB_ELAPSED].median);
        for (int m = 1; m < FB_MEASURE_COUNT; ++m)
            if ((r->has & FB__BIT(m)) && r->values[m])
                fb__gb_counter(j, (fb_measure)m, r->summary[m].median / r->config.batch);
        fb__json_end_obj(j);
    }
    if (rows != FB_GBENCH_MEDIAN && pv.n >= 2) {
        static const char *const aggs[3] = {"mean", "median", "stddev"};
        double t[3], rate[3] = {0, 0, 0};
        fb__gb_over(&pv, scratch, FB_ELAPSED, t_scale, t);
        if (rate_key) {
            size_t k = 0;
            for (size_t q = 0; q < pv.n; ++q)
                if (pv.r[q]->summary[FB_ELAPSED].median > 0)
                    scratch[k++] = first->config.batch / pv.r[q]->summary[FB_ELAPSED].median;
            if (k >= 2)
                fb__gb_spread(scratch, k, rate);
            else
                rate_key = NULL;
        }
        for (int a = 0; a < 3; ++a) {
            char suffix[16];
            snprintf(suffix, sizeof suffix, "_%s", aggs[a]);
            fb__gb_head(j, &w, suffix, true);
            fb__json_ku64(j, "threads", fb_result_threads(first));
            fb__json_kstr(j, "aggregate_name", aggs[a]);
            fb__json_kstr(j, "aggregate_unit", "time");
            fb__json_ku64(j, "iterations", pv.n);
            fb__gb_times(j, &w, t[a]);
            if (rate_key) fb__json_knum(j, rate_key, rate[a]);
            for (int m = 1; m < FB_MEASURE_COUNT; ++m) {
                bool all = true;
                for (size_t k = 0; k < pv.n && all; ++k)
                    all = (pv.r[k]->has & FB__BIT(m)) && pv.r[k]->values[m];
                if (!all) continue;
                double c[3];
                fb__gb_over(&pv, scratch, m, 1.0 / first->config.batch, c);
                fb__gb_counter(j, (fb_measure)m, c[a]);
            }
            fb__json_end_obj(j);
        }
    }
    free(pv.r);
    free(scratch);
    return FB_OK;
}

/* The names of the series, "#k" for the k-th series of one name (sorted:
 * O(S log S)). */
typedef struct fb__gb_named {
    char *name;
    size_t s;
} fb__gb_named;

static int fb__gb_cmp_named(const void *pa, const void *pb) {
    const fb__gb_named *a = pa, *b = pb;
    int c = strcmp(a->name, b->name);
    return c ? c : (a->s > b->s) - (a->s < b->s);
}

static int fb__gb_series_names(const fb_bench *b, char **names) {
    size_t n = fb__passes_count(b);
    fb__gb_named *v = malloc((n ? n : 1) * sizeof *v);
    if (!v) return FB_ENOMEM;
    for (size_t s = 0; s < n; ++s) {
        v[s].name = fb__gb_run_name(fb_result_at(b, fb__passes_member(b, s, 0)));
        v[s].s = s;
        if (!v[s].name) {
            for (size_t k = 0; k < s; ++k) free(v[k].name);
            free(v);
            return FB_ENOMEM;
        }
    }
    qsort(v, n, sizeof *v, fb__gb_cmp_named);
    int rc = FB_OK;
    const char *first = NULL; /* the group's first name: kept, never freed here */
    for (size_t i = 0, k = 1; i < n; ++i) {
        k = first && strcmp(v[i].name, first) == 0 ? k + 1 : 1;
        if (k == 1) {
            names[v[i].s] = v[i].name;
            first = v[i].name;
            continue;
        }
        size_t len = strlen(v[i].name) + 24;
        char *nk = malloc(len);
        if (nk) snprintf(nk, len, "%s#%zu", v[i].name, k);
        free(v[i].name);
        names[v[i].s] = nk;
        if (!nk) rc = FB_ENOMEM;
    }
    free(v);
    return rc;
}

static void fb__gb_context(fb__json *j, const fb__sysinfo *si, const fb_bench *b) {
    fb__json_obj(j, "context", false);
    fb__json_kstr(j, "date", si->date);
    fb__json_kstr(j, "host_name", si->host_name);
    if (si->executable[0]) fb__json_kstr(j, "executable", si->executable);
    fb__json_kint(j, "num_cpus", si->num_cpus);
    fb__json_kint(j, "mhz_per_cpu", si->mhz_per_cpu);
    if (si->cpu_scaling >= 0) fb__json_kbool(j, "cpu_scaling_enabled", si->cpu_scaling != 0);
    fb__json_caches(j, si); /* always an array: Bencher requires it */
    fb__json_arr(j, "load_avg", true);
    for (int i = 0; i < si->n_load_avg; ++i) fb__json_knum(j, NULL, si->load_avg[i]);
    fb__json_end_arr(j);
    fb__json_kstr(j, "library_name", "femtobench");
    fb__json_kstr(j, "library_version", si->version);
    /* GB's meaning: "release" when the library was built with NDEBUG */
    fb__json_kstr(j, "library_build_type", (si->library_build & 4) ? "release" : "debug");
    fb__json_kint(j, "json_schema_version", 1);
    /* -context=key=value: beside GB's own keys (their names are refused) */
    for (size_t i = 0; i < fb__context_count(b); ++i)
        fb__json_kstr(j, fb__context_key(b, i), fb__context_value(b, i));
    fb__json_end_obj(j);
}

int fb__write_gbench_json_rows_with(const fb_bench *b, FILE *f, const fb__sysinfo *si, int rows) {
    if (!b || !f || !si || rows < FB_GBENCH_MEDIAN || rows > FB_GBENCH_AGGREGATES) return FB_EINVAL;
    size_t n = fb__passes_count(b); /* the series over passes, stored (src/passes.c) */
    char **names = calloc(n ? n : 1, sizeof *names);
    size_t *family = calloc(n ? n : 1, sizeof *family);
    int rc = names && family ? fb__gb_series_names(b, names) : FB_ENOMEM;

    if (rc == FB_OK) {
        fb__json j;
        fb__json_init(&j, f);
        j.digits = 15; /* derived values: no 14.999999999999998 */
        fb__json_obj(&j, NULL, false);
        fb__gb_context(&j, si, b);
        fb__json_arr(&j, "benchmarks", false);
        size_t families = 0;
        for (size_t i = 0; i < n; ++i) {
            /* family: the distinct name, in order of first appearance;
             * instance: the series' index among those with its name */
            const fb_result *r = fb_result_at(b, fb__passes_member(b, i, 0));
            fb__gb_row row = {names[i], 0, 0, 0, "ns"};
            size_t first = i;
            for (size_t q = 0; q < i; ++q) {
                if (!fb__gb_same_name(fb_result_at(b, fb__passes_member(b, q, 0)), r)) continue;
                if (first == i) first = q;
                ++row.instance;
            }
            if (first == i) {
                family[i] = families++;
            } else {
                family[i] = family[first];
            }
            row.family = family[i];
            if (rc != FB_OK) break;
            if (fb__passes_size(b, i) == 1)
                rc = fb__gb_result(&j, r, &row, rows);
            else
                rc = fb__gb_passes(&j, b, i, &row, rows);
        }
        /* each alternative of a comparison: rows named title/name, a family
         * of their own (src/compare.c) */
        for (size_t c = 0; c < fb_comparison_count(b) && rc == FB_OK; ++c) {
            const fb_comparison *cmp = fb_comparison_at(b, c);
            for (size_t a = 0; a < fb_comparison_size(cmp); ++a) {
                const fb_result *r = fb_comparison_result(cmp, a);
                /* a comparison repeated under one title: #2, #3, ... as above */
                unsigned seen = 1;
                for (size_t q = 0; q < c; ++q) {
                    const fb_comparison *o = fb_comparison_at(b, q);
                    for (size_t p = 0; p < fb_comparison_size(o); ++p)
                        seen += strcmp(fb_comparison_title(o), r->config.title) == 0 &&
                                strcmp(fb_comparison_name(o, p), r->name) == 0;
                }
                size_t len = strlen(r->config.title) + strlen(r->name) + 16;
                char *name = malloc(len);
                if (!name) {
                    rc = FB_ENOMEM;
                    break;
                }
                if (seen > 1)
                    snprintf(name, len, "%s/%s#%u", r->config.title, r->name, seen);
                else
                    snprintf(name, len, "%s/%s", r->config.title, r->name);
                fb__gb_row row = {name, families++, 0, 0, "ns"};
                rc = fb__gb_result(&j, r, &row, rows);
                free(name);
                if (rc != FB_OK) break;
            }
        }
        fb__json_end_arr(&j);
        fb__json_end_obj(&j);
        int frc = fb__writer_finish(f);
        if (rc == FB_OK) rc = frc;
    }
    for (size_t i = 0; names && i < n; ++i) free(names[i]);
    free(names);
    free(family);
    return rc;
}

int fb__write_gbench_json_with(const fb_bench *b, FILE *f, const fb__sysinfo *si) {
    return fb__write_gbench_json_rows_with(b, f, si, FB_GBENCH_MEDIAN);
}

int fb_write_gbench_json_rows(const fb_bench *b, FILE *f, int rows) {
    if (!b || !f) return FB_EINVAL;
    return fb__write_gbench_json_rows_with(b, f, fb__process_sysinfo(), rows);
}

int fb_write_gbench_json(const fb_bench *b, FILE *f) {
    return fb_write_gbench_json_rows(b, f, FB_GBENCH_MEDIAN);
}
