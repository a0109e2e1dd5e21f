/* Bencher Metric Format (BMF) JSON, the format bencher.dev's `json`
 * adapter reads (docs/formats.md): one object per benchmark name, one
 * object per measure in it, each with "value" and optional "lower_value"
 * and "upper_value". femtobench writes, per benchmark:
 *   latency      nanoseconds per unit: the median; bounds: a distribution-free
 *                ~95% interval of the median from the epochs' order
 *                statistics (min and max under 6 epochs);
 *   throughput   units per second: 1e9 / latency, bounds likewise;
 *   instructions (and l1-misses, ll-misses, branches, branch-misses under
 *                -valgrind=cache) instead of both when counted under
 *                Callgrind: exact counts per unit, no bounds;
 *   <counter>    each user counter (fb_counter) as shown in the table.
 * Several results of one name (the passes of -repetitions) become one
 * entry: the median over them, bounded by their smallest and largest. A
 * result with a complexity N is named "name/N"; an error row has no value
 * and is left out (the table and the exit status say it failed). */
#include "report.h"

#include "bench.h"
#include "json.h"
#include "stats.h"
#include "ucounter.h"
#include "valgrind.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The BMF name of r: its name, "/N" appended with a complexity N. */
static void fb__bmf_key(const fb_result *r, char *buf, size_t len) {
    if (r->config.complexity_n > 0)
        snprintf(buf, len, "%s/%.17g", r->name, r->config.complexity_n);
    else
        snprintf(buf, len, "%s", r->name);
}

/* The measured latency of one result, ns per unit: the median and its interval,
 * as the statistics stored them (src/stats.c). */
static bool fb__bmf_latency(const fb_result *r, double out[3]) {
    if (r->error || r->vg || !(r->has & FB__BIT(FB_ELAPSED)) || !r->values[FB_ELAPSED] ||
        !r->epochs || !r->used)
        return false;
    const fb__summary *s = &r->summary[FB_ELAPSED];
    out[0] = s->median * 1e9 / r->config.batch;
    out[1] = s->median_low * 1e9 / r->config.batch;
    out[2] = s->median_high * 1e9 / r->config.batch;
    return isfinite(out[0]);
}

/* value (and bounds when given or when over several results). */
static void fb__bmf_measure(fb__json *j, const char *name, const double *v, size_t n,
                            const double *bounds) {
    if (!n) return;
    double *s = malloc(n * sizeof *s);
    if (!s) return;
    memcpy(s, v, n * sizeof *s);
    double mid = fb__median(s, n); /* sorts s */
    fb__json_obj(j, name, true);
    fb__json_knum(j, "value", mid);
    if (n > 1) {
        fb__json_knum(j, "lower_value", s[0]);
        fb__json_knum(j, "upper_value", s[n - 1]);
    } else if (bounds) {
        fb__json_knum(j, "lower_value", bounds[0]);
        fb__json_knum(j, "upper_value", bounds[1]);
    }
    fb__json_end_obj(j);
    free(s);
}

static const char *const fb__bmf_vg_names[FB_VG_MEASURE_COUNT] = {
    "instructions", "l1-misses", "ll-misses", "branches", "branch-misses"};

/* One benchmark: the results rs[0..n) of one BMF name. */
static void fb__bmf_entry(fb__json *j, const char *key, const fb_result *const *rs, size_t n) {
    double *v = malloc((n ? n : 1) * sizeof *v);
    if (!v) return;
    size_t m = 0;
    double one[3] = {0, 0, 0};
    bool counted = false;
    for (size_t i = 0; i < n; ++i) counted = counted || (rs[i]->vg && !rs[i]->error);
    size_t measured = 0;
    for (size_t i = 0; i < n; ++i) measured += !rs[i]->error;
    if (!measured) {
        free(v);
        return;
    }
    fb__json_obj(j, key, false);
    if (counted) {
        for (int g = 0; g < FB_VG_MEASURE_COUNT; ++g) {
            m = 0;
            for (size_t i = 0; i < n; ++i) {
                double x = rs[i]->error ? NAN : fb_result_valgrind(rs[i], (fb_vg_measure)g);
                if (isfinite(x)) v[m++] = x / rs[i]->config.batch;
            }
            fb__bmf_measure(j, fb__bmf_vg_names[g], v, m, NULL);
        }
    } else {
        double lat[3] = {NAN, NAN, NAN};
        m = 0;
        for (size_t i = 0; i < n; ++i)
            if (fb__bmf_latency(rs[i], one)) {
                v[m++] = one[0];
                memcpy(lat, one, sizeof lat);
            }
        fb__bmf_measure(j, "latency", v, m, lat + 1);
        for (size_t i = 0; i < m; ++i) v[i] = 1e9 / v[i];
        double thr[2] = {1e9 / lat[2], 1e9 / lat[1]};
        fb__bmf_measure(j, "throughput", v, m, thr);
    }
    /* user counters, by name, over the results that have them */
    for (size_t i = 0; i < n; ++i)
        for (size_t c = 0; c < fb_result_counter_count(rs[i]); ++c) {
            const char *name = fb_result_counter_name(rs[i], c);
            bool first = true;
            for (size_t p = 0; p < i && first; ++p)
                for (size_t q = 0; q < fb_result_counter_count(rs[p]) && first; ++q)
                    first = strcmp(fb_result_counter_name(rs[p], q), name) != 0;
            for (size_t q = 0; q < c && first; ++q)
                first = strcmp(fb_result_counter_name(rs[i], q), name) != 0;
            if (!first) continue;
            m = 0;
            for (size_t p = i; p < n; ++p)
                for (size_t q = 0; q < fb_result_counter_count(rs[p]); ++q)
                    if (!strcmp(fb_result_counter_name(rs[p], q), name)) {
                        double x = fb_result_counter(rs[p], q);
                        if (isfinite(x)) v[m++] = x;
                    }
            fb__bmf_measure(j, name, v, m, NULL);
        }
    fb__json_end_obj(j);
    free(v);
}

int fb_write_bmf(const fb_bench *b, FILE *f) {
    if (!b || !f) return FB_EINVAL;
    size_t n = fb_result_count(b);
    const fb_result **group = malloc((n ? n : 1) * sizeof *group);
    char *keys = malloc((n ? n : 1) * 1100);
    if (!group || !keys) {
        free(group);
        free(keys);
        return FB_ENOMEM;
    }
    for (size_t i = 0; i < n; ++i) fb__bmf_key(fb_result_at(b, i), keys + i * 1100, 1100);
    fb__json j;
    fb__json_init(&j, f);
    j.digits = 15;
    fb__json_obj(&j, NULL, false);
    for (size_t i = 0; i < n; ++i) {
        const char *key = keys + i * 1100;
        bool first = true;
        for (size_t p = 0; p < i && first; ++p) first = strcmp(keys + p * 1100, key) != 0;
        if (!first) continue;
        size_t m = 0;
        for (size_t p = i; p < n; ++p)
            if (!strcmp(keys + p * 1100, key)) group[m++] = fb_result_at(b, p);
        fb__bmf_entry(&j, key, group, m);
    }
    /* each alternative of a paired comparison: "title/name" */
    for (size_t c = 0; c < fb_comparison_count(b); ++c) {
        const fb_comparison *cmp = fb_comparison_at(b, c);
        for (size_t a = 0; a < fb_comparison_size(cmp); ++a) {
            const fb_result *r = fb_comparison_result(cmp, a);
            char key[1100];
            snprintf(key, sizeof key, "%s/%s", fb_comparison_title(cmp), r->name);
            fb__bmf_entry(&j, key, &r, 1);
        }
    }
    fb__json_end_obj(&j);
    free(group);
    free(keys);
    return fb__writer_finish(f);
}
