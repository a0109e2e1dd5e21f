/* The setters of the fb_bench handle: the public fb_set_* (hostile values
 * refused or clamped with a diagnostic), the sources tests inject, and the
 * runner's settings of a fresh bench (src/handle/bench.h). */
#include "bench_state.h"

#include "numfmt.h" /* numbers with '.' whatever the locale */
#include "text.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void fb__bench_replace_str(char **dst, const char *src) {
    char *p = fb__strdup(src);
    if (!p) return; /* keep the old value on OOM */
    free(*dst);
    *dst = p;
}

void fb_set_title(fb_bench *b, const char *title) { fb__bench_replace_str(&b->cfg.title, title); }
void fb_set_unit(fb_bench *b, const char *unit) { fb__bench_replace_str(&b->cfg.unit, unit); }
void fb_set_batch(fb_bench *b, double batch) {
    /* hostile values: refused with a diagnostic, never silently */
    if (!(batch > 0) || !isfinite(batch)) {
        char v[32], now[32]; /* '.' whatever the locale */
        fb__fmt_double(v, sizeof v, batch, 6);
        fb__fmt_double(now, sizeof now, b->cfg.batch, 6);
        fb__bench_diag(b, "fb_set_batch(%s): not a finite number > 0; batch stays %s", v, now);
        return;
    }
    b->cfg.batch = batch;
}
/* Sets key k in the code layer, clamped to its documented range (settings.c)
 * with a diagnostic naming the setter. */
static void fb__bench_set_key(fb_bench *b, fb__key k, double v, const char *setter) {
    const fb__key_info *info = fb__key_info_of(k);
    double given = v;
    int c = fb__key_clamp(k, &v);
    char lo[32], hi[32], now[32];
    fb__key_format(info, info->min, lo, sizeof lo);
    fb__key_format(info, info->max, hi, sizeof hi);
    if (c < 0) {
        fb__bench_diag(b, "%s(nan): not a number; %s unchanged (range %s to %s)", setter,
                       info->name, lo, hi);
        return;
    }
    if (c > 0) {
        char g[32];
        fb__key_format(info, v, now, sizeof now);
        fb__fmt_double(g, sizeof g, given, 6);
        fb__bench_diag(b, "%s(%s): out of range (%s to %s); using %s", setter, g, lo, hi, now);
    }
    fb__cfg_set(b, FB__LAYER_CODE, k, v);
}
void fb_set_epochs(fb_bench *b, size_t epochs) {
    fb__bench_set_key(b, FB__K_EPOCHS, (double)epochs, "fb_set_epochs");
}
void fb_set_epoch_iterations(fb_bench *b, uint64_t n) {
    fb__bench_set_key(b, FB__K_EPOCH_ITERATIONS, (double)n, "fb_set_epoch_iterations");
}
void fb_set_min_epoch_iterations(fb_bench *b, uint64_t n) {
    fb__bench_set_key(b, FB__K_MIN_EPOCH_ITERATIONS, (double)n, "fb_set_min_epoch_iterations");
}
void fb_set_min_epoch_time(fb_bench *b, double s) {
    fb__bench_set_key(b, FB__K_MIN_EPOCH_TIME, s, "fb_set_min_epoch_time");
}
void fb_set_max_epoch_time(fb_bench *b, double s) {
    fb__bench_set_key(b, FB__K_MAX_EPOCH_TIME, s, "fb_set_max_epoch_time");
}
void fb_set_max_total_time(fb_bench *b, double s) {
    fb__bench_set_key(b, FB__K_MAX_TOTAL_TIME, s, "fb_set_max_total_time");
}
void fb_set_min_time(fb_bench *b, double s) {
    /* the runner's -min_time replaces it (fb__bench_set_min_time) */
    if (!b) return;
    fb__bench_set_key(b, FB__K_MIN_TIME, s, "fb_set_min_time");
}
void fb_set_warmup(fb_bench *b, uint64_t n) {
    fb__bench_set_key(b, FB__K_WARMUP, (double)n, "fb_set_warmup");
}
void fb_set_relative(fb_bench *b, bool relative) { b->cfg.relative = relative; }
void fb_set_time_unit(fb_bench *b, double seconds, const char *label) {
    if (!(seconds > 0) || !isfinite(seconds) || !label) {
        char g[32];
        fb__fmt_double(g, sizeof g, seconds, 6);
        fb__bench_diag(b,
                       "fb_set_time_unit(%s, %s): needs a finite number > 0 and a label; "
                       "the time unit stays %s",
                       g, label ? "label" : "NULL", b->cfg.time_unit_label);
        return;
    }
    b->cfg.time_unit_s = seconds;
    if (strlen(label) >= sizeof b->cfg.time_unit_label)
        fb__bench_diag(b, "fb_set_time_unit: label longer than %zu bytes; cut",
                       sizeof b->cfg.time_unit_label - 1);
    snprintf(b->cfg.time_unit_label, sizeof b->cfg.time_unit_label, "%s", label);
}
void fb_set_output(fb_bench *b, FILE *out) { b->table->out = out; }
void fb_set_diagnostics(fb_bench *b, FILE *diag) { b->diag = diag; }
void fb_set_complexity_n(fb_bench *b, double n) {
    if (n != 0 && (!(n > 0) || !isfinite(n) || n > FB__MAX_COMPLEXITY_N)) {
        char g[32], m[32];
        fb__fmt_double(g, sizeof g, n, 6);
        fb__fmt_double(m, sizeof m, FB__MAX_COMPLEXITY_N, 6);
        fb__bench_diag(b, "fb_set_complexity_n(%s): not 0 (unset) or a number in (0, %s]; unset", g,
                       m);
        n = 0;
    }
    b->cfg.complexity_n = n;
}
void fb_set_performance_counters(fb_bench *b, bool on) { b->cfg.counters = on; }
void fb_set_clock(fb_bench *b, fb_clock_fn now_ns, void *ctx, double resolution_s) {
    b->clock = now_ns;
    b->clock_ctx = ctx;
    b->clock_resolution_s = resolution_s > 0 ? resolution_s : 1e-9;
}

/* Injected by tests (src/stats/disturb.c, src/machine/probe.c, src/stats/marks.c). */
void fb__bench_set_disturbance(fb_bench *b, fb__disturb_fn fn, void *ctx) {
    b->disturb = fn;
    b->disturb_ctx = ctx;
    b->disturb_set = true;
}
void fb__bench_set_cpu_clock(fb_bench *b, fb_clock_fn fn, void *ctx) {
    b->cpu_clock = fn;
    b->cpu_clock_ctx = ctx;
    b->cpu_clock_set = true;
}
void fb__bench_set_probe(fb_bench *b, fb__probe_fn fn, void *ctx) {
    b->probe = fn;
    b->probe_ctx = ctx;
    b->probe_set = true;
}
void fb__bench_set_empty_loop(fb_bench *b, double seconds) {
    b->empty_loop_s = seconds > 0 ? seconds : 0;
}

/* The handle's settings for the runner (src/handle/bench.h). */
int fb__bench_set_name(fb_bench *b, const char *name) {
    free(b->name);
    b->name = fb__strdup(name);
    return b->name ? FB_OK : FB_ENOMEM;
}
void fb__bench_set_pass(fb_bench *b, unsigned pass) { b->cfg.pass = pass; }
void fb__bench_set_min_time(fb_bench *b, double seconds) {
    fb__cfg_set(b, FB__LAYER_CLI, FB__K_MIN_TIME, seconds);
}
void fb__bench_set_total_iterations(fb_bench *b, double n) { b->cfg.total_iterations = n; }
void fb__bench_drop_sinks(fb_bench *b) { b->n_sinks = 0; }
void fb__bench_drop_comparison_sinks(fb_bench *b) { b->n_cmp_sinks = 0; }
void fb__bench_drop_fits(fb_bench *b, const char *why) {
    for (size_t i = 0; i < b->n_fits; ++i) free(b->fits[i].name);
    free(b->fits);
    b->fits = NULL;
    b->n_fits = 0;
    b->fits_dropped = why;
}
void fb__bench_set_interrupted(fb_bench *b) { b->interrupted = true; }
void fb__bench_count_dropped(fb_bench *b) { ++b->dropped; }
