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

#include "bench.h" /* the stored complexity fits */

#include "disturb.h"
#include "json.h"
#include "numfmt.h"
#include "passes.h" /* -repetitions: passes are repetitions of one name */
#include "process.h"
#include "stats.h" /* a family's instances are one GB family: its series */
#include "result.h"
#include "text.h"
#include "valgrind.h" /* counted results (-valgrind) */
#include "ucounter.h" /* user counters: numbers in each row */
#include "context.h"  /* -context: keys of "context", as GB's --benchmark_context */

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* One GB family per name, the instances of a family ("fn/8", "fn/64")
 * counting as one: their names without "/<arg>". */
static bool fb__gb_same_name(const fb_result *a, const fb_result *b) {
    return fb__result_same_series(a, b);
}

/* Google Benchmark's name of a model (its GetBigOString). */
static const char *fb__gb_big_o(const char *model) {
    static const char *const map[][2] = {{"O(1)", "(1)"},     {"O(n)", "N"},
                                         {"O(log n)", "lgN"}, {"O(n log n)", "NlgN"},
                                         {"O(n^2)", "N^2"},   {"O(n^3)", "N^3"}};
    for (size_t i = 0; i < sizeof map / sizeof map[0]; ++i)
        if (strcmp(model, map[i][0]) == 0) return map[i][1];
    return "f(N)";
}

/* After the last row of a port's family (fb_register_ordered: Google
 * Benchmark's Complexity) with a fit, GB's "<family>_BigO" and
 * "<family>_RMS" rows: the coefficient of the model the family asked for
 * (the best one without), in the rows' time unit, and its err% as a
 * fraction. femtobench's fit has a constant term and relative residuals
 * (docs/complexity.md), so the numbers are its own, not GB's. */
static void fb__gb_complexity_rows(fb__json *j, const fb_bench *b, const fb_result *r,
                                   size_t family, size_t repetitions) {
    if (!r->config.family) return;
    const fb__fit_set *s = fb__fit_stored(b, fb__fit_index(b, r));
    if (!s || !s->family || s->n == 0) return;
    const fb_fit *fit = fb__fit_asked(s);
    if (!fit) fit = &s->fits[0];
    const char *unit;
    double seconds;
    fb__gb_unit(r, &unit, &seconds);
    fb__gb_row w = {s->name, family, 0, repetitions, unit};
    fb__gb_head(j, &w, "_BigO", true);
    fb__json_ku64(j, "threads", fb_result_threads(r));
    fb__json_kstr(j, "aggregate_name", "BigO");
    fb__json_kstr(j, "aggregate_unit", "time");
    fb__json_knum(j, "cpu_coefficient", fit->coefficient / seconds);
    fb__json_knum(j, "real_coefficient", fit->coefficient / seconds);
    fb__json_kstr(j, "big_o", fb__gb_big_o(fit->name));
    fb__json_kstr(j, "time_unit", unit);
    fb__json_end_obj(j);
    fb__gb_head(j, &w, "_RMS", true);
    fb__json_ku64(j, "threads", fb_result_threads(r));
    fb__json_kstr(j, "aggregate_name", "RMS");
    fb__json_kstr(j, "aggregate_unit", "percentage");
    fb__json_knum(j, "rms", fit->err_pct / 100);
    fb__json_end_obj(j);
}

/* A pass GB counts as a repetition: one that measured a time (as the
 * stored aggregates over passes count them, src/outputs/passes.c). */
static bool fb__gb_timed(const fb_result *r) {
    return !r->error && (r->has & FB__BIT(FB_ELAPSED)) && r->values[FB_ELAPSED] && r->epochs;
}

/* One series run in several passes (-repetitions): the passes are GB's
 * repetitions of one name. Median layout: one row, the median over the
 * passes of each pass's median; repetitions layout: a row per pass (its
 * median), then _mean, _median and _stddev over the passes; aggregates
 * layout: those three only. The values over passes are the series' stored
 * aggregates (src/outputs/passes.c). A failed pass is an error row of its own.
 * FB_OK. */
static int fb__gb_passes(fb__json *j, const fb_bench *b, size_t s, const fb__gb_row *row,
                         int rows) {
    size_t lo = 0, hi = fb__passes_size(b, s);
    const fb_result *first = fb__passes_result(b, s, lo);
    fb__gb_row w = *row;
    double tu_s;
    fb__gb_unit(first, &w.unit, &tu_s);
    if (first->vg && !first->error) { /* exact counts: the same in every pass */
        fb__gb_counted(j, first, &w);
        return FB_OK;
    }
    fb__pass_summary tmp;
    const fb__pass_summary *ps = fb__passes_sum(b, s, &tmp);
    size_t timed = ps->timed;
    double t_scale = 1.0 / tu_s;
    const char *rate_key = fb__gb_rate_key(first);
    if (rows == FB_GBENCH_MEDIAN && timed > 0) {
        w.repetitions = 1;
        fb__gb_head(j, &w, "", false);
        fb__json_ku64(j, "repetition_index", 0);
        fb__json_ku64(j, "threads", fb_result_threads(first));
        uint64_t iters = 0;
        for (size_t x = lo; x < hi; ++x) {
            const fb_result *r = fb__passes_result(b, s, x);
            if (fb__gb_timed(r)) iters += r->total_iterations;
        }
        fb__json_ku64(j, "iterations", iters);
        double med = ps->over[FB_ELAPSED].v[FB__SPREAD_MEDIAN];
        /* the CPU time over passes is per unit (src/outputs/passes.h): per call again */
        double cpu_call = ps->all[FB_CPUTIME]
                              ? ps->over[FB_CPUTIME].v[FB__SPREAD_MEDIAN] * first->config.batch
                              : NAN;
        fb__gb_times(j, &w, med * t_scale, cpu_call * t_scale);
        fb__gb_rate(j, first, med);
        fb__gb_ucounters(j, first, med);
        for (int m = 1; m < FB_MEASURE_COUNT; ++m)
            if (ps->all[m]) fb__gb_counter(j, (fb_measure)m, ps->over[m].v[FB__SPREAD_MEDIAN]);
        fb__json_end_obj(j);
    }
    w.repetitions = timed;
    bool pass_rows = rows == FB_GBENCH_REPETITIONS || timed < 2;
    for (size_t x = lo, index = 0; x < hi; ++x) {
        const fb_result *r = fb__passes_result(b, s, x);
        if (!fb__gb_timed(r)) {
            fb__gb_error_row(j, r, w);
            continue;
        }
        if (!pass_rows || rows == FB_GBENCH_MEDIAN) continue;
        fb__gb_head(j, &w, "", false);
        fb__json_ku64(j, "repetition_index", index++);
        fb__json_ku64(j, "threads", fb_result_threads(r));
        fb__json_ku64(j, "iterations", r->total_iterations);
        fb__gb_times(j, &w, r->summary[FB_ELAPSED].median * t_scale,
                     fb_result_median(r, FB_CPUTIME) * t_scale);
        fb__gb_rate(j, r, r->summary[FB_ELAPSED].median);
        fb__gb_ucounters(j, r, r->summary[FB_ELAPSED].median);
        for (int m = 1; m < FB_MEASURE_COUNT; ++m)
            if ((r->has & FB__BIT(m)) && r->values[m])
                fb__gb_counter(j, (fb_measure)m, r->summary[m].median / r->config.batch);
        fb__json_end_obj(j);
    }
    if (rows != FB_GBENCH_MEDIAN && timed >= 2) {
        static const char *const aggs[3] = {"mean", "median", "stddev"};
        bool has_rate = rate_key && ps->rate.n >= 2;
        for (int a = 0; a < 3; ++a) {
            char suffix[16];
            snprintf(suffix, sizeof suffix, "_%s", aggs[a]);
            fb__gb_head(j, &w, suffix, true);
            fb__json_ku64(j, "threads", fb_result_threads(first));
            fb__json_kstr(j, "aggregate_name", aggs[a]);
            fb__json_kstr(j, "aggregate_unit", "time");
            fb__json_ku64(j, "iterations", timed);
            double cpu = ps->all[FB_CPUTIME]
                             ? ps->over[FB_CPUTIME].v[a] * first->config.batch * t_scale
                             : NAN;
            fb__gb_times(j, &w, ps->gb_time.v[a], cpu);
            if (has_rate) fb__json_knum(j, rate_key, ps->rate.v[a]);
            for (int m = 1; m < FB_MEASURE_COUNT; ++m)
                if (ps->all[m]) fb__gb_counter(j, (fb_measure)m, ps->over[m].v[a]);
            fb__json_end_obj(j);
        }
    }
    return FB_OK;
}

char *fb__gb_series_name(const fb_bench *b, size_t s) {
    const fb_result *r = fb__passes_result(b, s, 0);
    if (!fb__passes_is_alternative(b, s)) return fb__gb_run_name(r);
    const char *title = r->config.title ? r->config.title : "", *name = r->name ? r->name : "";
    size_t len = strlen(title) + strlen(name) + 2;
    char *t = malloc(len);
    if (t) snprintf(t, len, "%s/%s", title, name);
    return t;
}

/* The names of the series, "#k" for the k-th series of one name. */
static int fb__gb_series_names(const fb_bench *b, char **names) {
    size_t n = fb__passes_count(b);
    for (size_t s = 0; s < n; ++s) {
        names[s] = fb__gb_series_name(b, s);
        if (!names[s]) return FB_ENOMEM; /* the caller frees what was made */
    }
    return fb__number_repeats(names, n);
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
    /* not keys of Google Benchmark's own context (its readers ignore
     * them): where the run was, for a comparison across machines */
    fb__json_kstr(j, "femtobench_os", si->os ? si->os : "unknown");
    fb__json_kstr(j, "femtobench_arch", si->arch ? si->arch : "unknown");
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
    size_t n = fb__passes_count(b); /* the series over passes, stored (src/outputs/passes.c) */
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
             * instance: the series' index among those with its name; each
             * alternative of a comparison is a family of its own */
            const fb_result *r = fb__passes_result(b, i, 0);
            fb__gb_row row = {names[i], 0, 0, 0, "ns"};
            bool alt = fb__passes_is_alternative(b, i);
            size_t first = i;
            for (size_t q = 0; q < i && !alt; ++q) {
                if (fb__passes_is_alternative(b, q) ||
                    !fb__gb_same_name(fb__passes_result(b, q, 0), r))
                    continue;
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
            /* a port's family ends: its fit, as GB's BigO and RMS rows */
            bool last = !alt && r->config.family;
            for (size_t q = i + 1; q < n && last; ++q)
                last = fb__passes_is_alternative(b, q) ||
                       !fb__gb_same_name(fb__passes_result(b, q, 0), r);
            if (last && rc == FB_OK)
                fb__gb_complexity_rows(&j, b, r, family[i], fb__passes_size(b, i));
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
