/* Google Benchmark JSON (json_schema_version 1), so that compare.py,
 * github-action-benchmark, Bencher and Conbench read femtobench results.
 *
 * The mapping (docs/formats.md): a femtobench epoch is a GB repetition, so
 * each result gives one "iteration" row per epoch (repetitions = epochs,
 * which is what compare.py's U test needs as samples), then "_mean",
 * "_median" and "_stddev" aggregate rows (only with two epochs or more, as
 * GB does with one repetition). real_time is the time per unit (the table's
 * ns/unit: per-iteration time / batch); cpu_time repeats it because
 * femtobench measures wall time only. Counters are extra numeric fields,
 * per unit, with nanobench's names. */
#include "report.h"

#include "disturb.h"
#include "json.h"
#include "process.h"
#include "text.h"

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

/* "name", "name/N" with a complexity N; a repeated run name gets "#2",
 * "#3", ... so that every run is its own benchmark for the tools. */
static char *fb__gb_run_name(const fb_bench *b, size_t i, char **names) {
    const fb_result *r = fb_result_at(b, i);
    const char *name = r->name ? r->name : "";
    char n[64] = "";
    if (r->config.complexity_n > 0) {
        n[0] = '/';
        fb__fmt_double(n + 1, sizeof n - 1, r->config.complexity_n, 0);
    }
    size_t len = strlen(name) + strlen(n) + 32;
    char *s = malloc(len);
    if (!s) return NULL;
    snprintf(s, len, "%s%s", name, n);
    size_t base = strlen(s);
    for (unsigned k = 2;; ++k) {
        bool dup = false;
        for (size_t q = 0; q < i && !dup; ++q) dup = names[q] && strcmp(names[q], s) == 0;
        if (!dup) return s;
        snprintf(s + base, len - base, "#%u", k);
    }
}

static bool fb__gb_same_name(const fb_result *a, const fb_result *b) {
    return strcmp(a->name ? a->name : "", b->name ? b->name : "") == 0;
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

/* Counters are plain numbers to the tools: a counter with no finite value
 * (never scheduled, NAN) is left out of the row rather than written null. */
static void fb__gb_counter(fb__json *j, fb_measure m, double v) {
    if (isfinite(v)) fb__json_knum(j, fb_measure_name(m), v);
}

static void fb__gb_result(fb__json *j, const fb_result *r, const fb__gb_row *row) {
    fb__gb_row w = *row;
    double tu_s;
    fb__gb_unit(r, &w.unit, &tu_s);
    if (r->error || !(r->has & FB__BIT(FB_ELAPSED)) || !r->values[FB_ELAPSED] || r->epochs == 0) {
        /* as GB reports a benchmark that failed: one iteration row */
        w.repetitions = 1;
        fb__gb_head(j, &w, "", false);
        fb__json_ku64(j, "repetition_index", 0);
        fb__json_ku64(j, "threads", 1);
        fb__json_kbool(j, "error_occurred", true);
        fb__json_kstr(j, "error_message", r->error ? r->error : "no time was measured");
        fb__json_ku64(j, "iterations", 0);
        fb__gb_times(j, &w, 0);
        fb__json_end_obj(j);
        return;
    }
    double t_scale = 1.0 / (r->config.batch * tu_s); /* s per iteration -> time units per unit */
    /* issue 19: the repetitions are the epochs the statistics use (not the
     * disturbed or superseded ones), so compare.py's U test sees the same
     * samples as the aggregates */
    w.repetitions = 0;
    for (size_t e = 0; e < r->epochs; ++e)
        if (!r->epoch_flags || !(r->epoch_flags[e] & FB__EPOCH_DROPPED)) w.repetitions++;
    for (size_t e = 0, index = 0; e < r->epochs; ++e) {
        if (r->epoch_flags && (r->epoch_flags[e] & FB__EPOCH_DROPPED)) continue;
        fb__gb_head(j, &w, "", false);
        fb__json_ku64(j, "repetition_index", index++);
        fb__json_ku64(j, "threads", 1);
        fb__json_ku64(j, "iterations", r->iterations[e]);
        fb__gb_times(j, &w, r->values[FB_ELAPSED][e] * t_scale);
        for (int m = 1; m < FB_MEASURE_COUNT; ++m)
            if ((r->has & FB__BIT(m)) && r->values[m])
                fb__gb_counter(j, (fb_measure)m, r->values[m][e] / r->config.batch);
        fb__json_end_obj(j);
    }
    if (w.repetitions < 2) return;
    static const char *const aggs[3] = {"mean", "median", "stddev"};
    for (int a = 0; a < 3; ++a) {
        char suffix[16];
        snprintf(suffix, sizeof suffix, "_%s", aggs[a]);
        fb__gb_head(j, &w, suffix, true);
        fb__json_ku64(j, "threads", 1);
        fb__json_kstr(j, "aggregate_name", aggs[a]);
        fb__json_kstr(j, "aggregate_unit", "time");
        fb__json_ku64(j, "iterations", w.repetitions);
        for (int m = 0; m < FB_MEASURE_COUNT; ++m) {
            if (!(r->has & FB__BIT(m)) || !r->values[m]) continue;
            double scale = m == FB_ELAPSED ? t_scale : 1.0 / r->config.batch;
            const struct fb__summary *s = &r->summary[m];
            double v = a == 0 ? s->mean * scale : a == 1 ? s->median * scale : s->stddev * scale;
            if (m == FB_ELAPSED)
                fb__gb_times(j, &w, v);
            else
                fb__gb_counter(j, (fb_measure)m, v);
        }
        fb__json_end_obj(j);
    }
}

static void fb__gb_context(fb__json *j, const fb__sysinfo *si) {
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
    fb__json_end_obj(j);
}

int fb__write_gbench_json_with(const fb_bench *b, FILE *f, const fb__sysinfo *si) {
    if (!b || !f || !si) return FB_EINVAL;
    size_t n = fb_result_count(b);
    char **names = calloc(n ? n : 1, sizeof *names);
    size_t *family = calloc(n ? n : 1, sizeof *family);
    int rc = names && family ? FB_OK : FB_ENOMEM;
    for (size_t i = 0; i < n && rc == FB_OK; ++i)
        if (!(names[i] = fb__gb_run_name(b, i, names))) rc = FB_ENOMEM;

    if (rc == FB_OK) {
        fb__json j;
        fb__json_init(&j, f);
        j.digits = 15; /* derived values: no 14.999999999999998 */
        fb__json_obj(&j, NULL, false);
        fb__gb_context(&j, si);
        fb__json_arr(&j, "benchmarks", false);
        size_t families = 0;
        for (size_t i = 0; i < n; ++i) {
            /* family: the distinct name, in order of first appearance;
             * instance: the result's index among those with its name */
            const fb_result *r = fb_result_at(b, i);
            fb__gb_row row = {names[i], 0, 0, 0, "ns"};
            size_t first = i;
            for (size_t q = 0; q < i; ++q) {
                if (!fb__gb_same_name(fb_result_at(b, q), r)) continue;
                if (first == i) first = q;
                ++row.instance;
            }
            if (first == i) {
                family[i] = families++;
            } else {
                family[i] = family[first];
            }
            row.family = family[i];
            fb__gb_result(&j, r, &row);
        }
        fb__json_end_arr(&j);
        fb__json_end_obj(&j);
        rc = fb__writer_finish(f);
    }
    for (size_t i = 0; names && i < n; ++i) free(names[i]);
    free(names);
    free(family);
    return rc;
}

int fb_write_gbench_json(const fb_bench *b, FILE *f) {
    if (!b || !f) return FB_EINVAL;
    return fb__write_gbench_json_with(b, f, fb__process_sysinfo());
}
