/* Bencher Metric Format (BMF) JSON, the format bencher.dev's `json`
 * adapter reads (docs/formats.md): one object per benchmark, one object
 * per measure in it, each with "value" and optional "lower_value" and
 * "upper_value". femtobench writes, per benchmark:
 *   latency      nanoseconds per unit: the median; bounds: a distribution-free
 *                ~95% interval of the median from the epochs' order
 *                statistics (min and max under 6 epochs);
 *   throughput   units per second: 1e9 / latency, bounds likewise;
 *   instructions (and l1-misses, ll-misses, branches, branch-misses under
 *                -valgrind=cache) instead of both when counted under
 *                Callgrind: exact counts per unit, no bounds;
 *   <counter>    each user counter (fb_counter) as shown in the table.
 * A benchmark is a series over passes (src/outputs/passes.c): with -repetitions,
 * its passes are one entry, the median over them bounded by their smallest
 * and largest, as the series stored them; the writer computes nothing. The
 * entry's name is the one Google Benchmark's JSON gives it ("name/N" with a
 * complexity N the name does not end in already), "#k" for the k-th entry
 * of one name; an error row has no value and is left out (the table and
 * the exit status say it failed). */
#include "report.h"

#include "json.h"
#include "passes.h"        /* the series over passes, stored */
#include "report_gbench.h" /* the entry's name */
#include "text.h"
#include "ucounter.h"
#include "valgrind.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A measure: its value, and its bounds when known (NAN: none). */
static void fb__bmf_measure(fb__json *j, const char *name, double value, double lo, double hi) {
    if (!isfinite(value)) return;
    fb__json_obj(j, name, true);
    fb__json_knum(j, "value", value);
    if (isfinite(lo) && isfinite(hi)) {
        fb__json_knum(j, "lower_value", lo);
        fb__json_knum(j, "upper_value", hi);
    }
    fb__json_end_obj(j);
}

/* A measure over several passes: their median, bounded by the smallest and
 * the largest; one pass: its value alone. */
static void fb__bmf_range(fb__json *j, const char *name, const fb__pass_range *r, double scale) {
    if (!r->n) return;
    bool bounded = r->n > 1;
    fb__bmf_measure(j, name, r->median * scale, bounded ? r->min * scale : NAN,
                    bounded ? r->max * scale : NAN);
}

static const char *const fb__bmf_vg_names[FB_VG_MEASURE_COUNT] = {
    "instructions", "l1-misses", "ll-misses", "branches", "branch-misses"};

/* Timed by the clock: a median of elapsed time over used epochs. */
static bool fb__bmf_timed(const fb_result *r) {
    return !r->error && !r->vg && (r->has & FB__BIT(FB_ELAPSED)) && r->values[FB_ELAPSED] &&
           r->epochs && r->used;
}

/* One result's entry: its stored median and the median's interval, its
 * exact counts, its counters as shown. */
static void fb__bmf_result(fb__json *j, const fb_result *r) {
    if (r->vg) {
        for (int g = 0; g < FB_VG_MEASURE_COUNT; ++g)
            fb__bmf_measure(j, fb__bmf_vg_names[g],
                            fb_result_valgrind(r, (fb_vg_measure)g) / r->config.batch, NAN, NAN);
    } else if (fb__bmf_timed(r)) {
        /* seconds per iteration to nanoseconds per unit */
        const fb__summary *s = &r->summary[FB_ELAPSED];
        double batch = r->config.batch, med = s->median * 1e9 / batch,
               lo = s->median_low * 1e9 / batch, hi = s->median_high * 1e9 / batch;
        fb__bmf_measure(j, "latency", med, lo, hi);
        fb__bmf_measure(j, "throughput", 1e9 / med, 1e9 / hi, 1e9 / lo);
    }
    for (size_t c = 0; c < fb_result_counter_count(r); ++c)
        fb__bmf_measure(j, fb_result_counter_name(r, c), fb_result_counter(r, c), NAN, NAN);
}

/* Series s: one result that measured anything is that result's entry;
 * several are the series' stored ranges over them. */
static void fb__bmf_series(fb__json *j, const fb_bench *b, size_t s, const char *key) {
    const fb_result *lone = NULL;
    size_t measured = 0;
    for (size_t k = 0; k < fb__passes_size(b, s); ++k) {
        const fb_result *r = fb__passes_result(b, s, k);
        if (!r->error) lone = r, ++measured;
    }
    if (!measured) return;
    fb__json_obj(j, key, false);
    fb__pass_summary tmp;
    const fb__pass_summary *ps = fb__passes_sum(b, s, &tmp);
    if (measured == 1) {
        fb__bmf_result(j, lone);
    } else {
        bool counted = false;
        for (int g = 0; g < FB_VG_MEASURE_COUNT; ++g) counted = counted || ps->counted[g].n;
        if (counted) {
            for (int g = 0; g < FB_VG_MEASURE_COUNT; ++g)
                fb__bmf_range(j, fb__bmf_vg_names[g], &ps->counted[g], 1);
        } else if (ps->passes) {
            fb__pass_range lat = {ps->passes, ps->median, ps->min, ps->max};
            fb__bmf_range(j, "latency", &lat, 1e9);
            /* units per second over the passes: the median of their rates,
             * bounded by the slowest and the fastest pass */
            fb__pass_range thr = {ps->rate.n, ps->rate.v[FB__SPREAD_MEDIAN], 1 / ps->max,
                                  1 / ps->min};
            fb__bmf_range(j, "throughput", &thr, 1);
        }
        for (size_t c = 0; c < ps->n_counters; ++c)
            fb__bmf_range(j, ps->counters[c].name, &ps->counters[c].range, 1);
    }
    fb__json_end_obj(j);
}

int fb_write_bmf(const fb_bench *b, FILE *f) {
    if (!b || !f) return FB_EINVAL;
    /* the entries: each series over passes, a comparison's alternatives'
     * ("title/name") after the runs' */
    size_t n = fb__passes_count(b);
    char **keys = calloc(n ? n : 1, sizeof *keys);
    int rc = keys ? FB_OK : FB_ENOMEM;
    for (size_t s = 0; s < n && rc == FB_OK; ++s) {
        keys[s] = fb__gb_series_name(b, s);
        if (!keys[s]) rc = FB_ENOMEM;
    }
    if (rc == FB_OK) rc = fb__number_repeats(keys, n);
    if (rc == FB_OK) {
        fb__json j;
        fb__json_init(&j, f);
        j.digits = 15;
        fb__json_obj(&j, NULL, false);
        for (size_t s = 0; s < n; ++s) fb__bmf_series(&j, b, s, keys[s]);
        fb__json_end_obj(&j);
    }
    for (size_t i = 0; keys && i < n; ++i) free(keys[i]);
    free(keys);
    return rc == FB_OK ? fb__writer_finish(f) : rc;
}
