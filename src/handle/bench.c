/* The fb_bench handle: configuration (setters and layers), the results and
 * fits it keeps, and the sinks it hands each finished result to. */
#include "bench_state.h"
#include "misuse.h"
#include "label.h"
#include "context.h"

#include "compare.h" /* comparisons: release, the live table's sink */
#include "process.h"
#include "numfmt.h" /* numbers with '.' whatever the locale */
#include "text.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static void fb__replace_str(char **dst, const char *src) {
    char *p = fb__strdup(src);
    if (!p) return; /* keep the old value on OOM */
    free(*dst);
    *dst = p;
}

double fb__cfg(const fb_bench *b, fb__key k) { return fb__layers_get(b->layers, k); }

void fb__cfg_set(fb_bench *b, int layer, fb__key k, double v) {
    fb__layer_set(&b->layers[layer], k, v);
}

int fb__bench_config(const fb_bench *b, fb__config *out) {
    fb__config c = b->cfg;
    for (int k = 0; k < FB__K_COUNT; ++k) c.num[k] = fb__cfg(b, (fb__key)k);
    return fb__config_copy(out, &c);
}

fb_bench *fb_bench_new(void) {
    fb_bench *b = calloc(1, sizeof *b);
    if (!b) return NULL;
    b->cfg.title = fb__strdup("benchmark");
    b->cfg.unit = fb__strdup("op");
    if (!b->cfg.title || !b->cfg.unit) {
        fb__config_free(&b->cfg);
        free(b);
        return NULL;
    }
    b->cfg.batch = 1.0;
    b->cfg.time_unit_s = 1e-9;
    strcpy(b->cfg.time_unit_label, "ns");
    b->cfg.counters = true;
    b->diag = stderr;
    b->layers[FB__LAYER_ENV] = *fb__process_config_layer();
    /* the live table is the first sink */
    b->table = &b->own_table;
    b->own_table.out = stdout;
    b->sinks[0].fn = fb__table_sink;
    b->sinks[0].ctx = b->table;
    b->n_sinks = 1;
    /* and the first comparison sink (src/outputs/report_compare.c) */
    b->cmp_sinks[0].fn = fb__table_comparison_sink;
    b->cmp_sinks[0].ctx = b->table;
    b->n_cmp_sinks = 1;
    return b;
}

/* The series over passes the runner stored (src/outputs/passes.c: fb__passes_finish)
 * is the bench's: freed with it, and dropped when the results change. */
static void fb__bench_drop_passes(fb_bench *b) {
    if (b->passes && b->passes_release) b->passes_release(b->passes);
    b->passes = NULL;
    b->passes_release = NULL;
}

void fb__bench_set_passes(fb_bench *b, struct fb__pass_series *s,
                          void (*release)(struct fb__pass_series *s)) {
    fb__bench_drop_passes(b);
    b->passes = s;
    b->passes_release = s ? release : NULL;
}

void fb_bench_free(fb_bench *b) {
    if (!b) return;
    /* Called from inside a run of b (its op, setup or teardown): freeing
     * now would leave the run writing into freed memory. Refused, with a
     * line; the bench stays valid and is freed by a later call. */
    if (b->in_call) {
        fb__bench_diag(b, "error: fb_bench_free called during a run of this bench (from its op, "
                          "setup or teardown); not freed: free it after the run");
        return;
    }
    for (size_t i = 0; i < b->n_results; ++i) fb__result_free(b->results[i]);
    free(b->results);
    fb__bench_drop_passes(b); /* the series over passes (src/outputs/passes.c) */
    for (size_t i = 0; i < b->n_fits; ++i) free(b->fits[i].name);
    free(b->fits);
    /* comparisons (src/run/compare.c), and one left unfinished */
    for (size_t i = 0; i < b->n_comparisons; ++i) fb__comparison_free(b->comparisons[i]);
    free(b->comparisons);
    if (b->cmp && b->cmp_free) b->cmp_free(b->cmp);
    if (b->run && b->run_free) b->run_free(b->run); /* an FB_RUN left with return or goto */
    if (b->own_perf) fb__perf_close(b->own_perf);
    fb__change_view_free(b->change);
    fb__config_free(&b->cfg);
    free(b->name);
    fb__misuse_flush(b); /* the count of repeated misuse lines not said yet */
    free(b->misuse);
    free(b->label);
    fb__context_free(b->context);
    free(b);
}

void fb__bench_share_table(fb_bench *b, fb__table *t) {
    b->table = t ? t : &b->own_table;
    b->sinks[0].ctx = b->table;
    b->cmp_sinks[0].ctx = b->table;
}

int fb__bench_add_sink(fb_bench *b, fb__sink_fn fn, void *ctx) {
    if (b->n_sinks == FB__MAX_SINKS) return FB_ENOMEM;
    b->sinks[b->n_sinks].fn = fn;
    b->sinks[b->n_sinks].ctx = ctx;
    b->sinks[b->n_sinks].amend = NULL;
    ++b->n_sinks;
    return FB_OK;
}

int fb__bench_sink_amend(fb_bench *b, fb__sink_fn fn, fb__sink_fn amend) {
    for (size_t i = 0; i < b->n_sinks; ++i)
        if (b->sinks[i].fn == fn) {
            b->sinks[i].amend = amend;
            return FB_OK;
        }
    return FB_EINVAL;
}

static void fb__bench_amended(fb_bench *b, fb_result *r) {
    fb__stats_compute(r);
    for (size_t i = 0; i < b->n_sinks; ++i)
        if (b->sinks[i].amend) b->sinks[i].amend(b->sinks[i].ctx, b, r);
}

size_t fb__bench_late_counters(fb_bench *b) {
    if (!b->ucounters.n || !b->n_results || !b->last_was_run) return 0;
    fb_result *r = b->results[b->n_results - 1];
    size_t late = fb__ucounters_late(b, r);
    if (!late) return 0;
    fb__stats_compute(r);
    fb__ucounters_say_late(b, r, late);
    fb__ucounters_check(b, r); /* a rate too large to show is said, once */
    fb__bench_amended(b, r);
    return late;
}

int fb__bench_amend_last(fb_bench *b, fb_result *from) {
    if (!b->n_results) {
        fb__result_free(from);
        return FB_EINVAL;
    }
    fb_result *r = b->results[b->n_results - 1];
    fb__ucounters_take(r, from);
    fb__result_free(from);
    fb__bench_amended(b, r);
    return FB_OK;
}

void fb__bench_diag(const fb_bench *b, const char *fmt, ...) {
    if (!b->diag) return;
    va_list ap;
    va_start(ap, fmt);
    char line[1024];
    vsnprintf(line, sizeof line, fmt, ap); /* a longer line is cut, never split */
    va_end(ap);
    /* one line whatever a name in it holds: control characters as \xNN */
    fputs("femtobench: ", b->diag);
    fb__put_line(b->diag, line);
    fputc('\n', b->diag);
    fflush(b->diag);
}

fb__perf *fb__bench_prepare(fb_bench *b, int callsite) {
    fb__process_first_run(b->table->out ? b->diag : NULL, callsite);
    if (!b->cfg.counters) return NULL;
    /* counted under Callgrind (-valgrind): the counts replace the counters */
    if (fb__process_callgrind()->exact) return NULL;
    FILE *note = b->table->out ? b->diag : NULL;
    fb__perf *p = fb__process_perf(note);
    if (p) return p;
    /* counters count the thread that opened them: this bench runs on
     * another thread than the process's counters, so it opens its own */
    if (!b->own_perf_tried) {
        char why[512] = "";
        b->own_perf_tried = true;
        b->own_perf = fb__perf_open(why, sizeof why);
        fb__process_note_perf(note, why);
    }
    return b->own_perf;
}

/* ------------------------------------------------------------ results */

static fb__fit_set *fb__bench_fit_mut(fb_bench *b, const char *name) {
    for (size_t i = 0; i < b->n_fits; ++i)
        if (!b->fits[i].family && strcmp(b->fits[i].name, name) == 0) return &b->fits[i];
    return NULL;
}

const fb__fit_set *fb__bench_fit(const fb_bench *b, const char *name) {
    for (size_t i = 0; i < b->n_fits; ++i)
        if (!b->fits[i].family && strcmp(b->fits[i].name, name) == 0) return &b->fits[i];
    return NULL;
}

/* Computes (again) the stored fit of r's name when r carries an N; its
 * family series' stored fit (src/handle/bench_fits.c) is stale from now. */
static int fb__bench_refit(fb_bench *b, const fb_result *r) {
    if (!(r->config.complexity_n > 0) || !r->name) return FB_OK;
    fb__fit_mark_stale(b, r);
    fb__fit_set *s = fb__bench_fit_mut(b, r->name);
    if (!s) {
        fb__fit_set *p = realloc(b->fits, (b->n_fits + 1) * sizeof *p);
        if (!p) return FB_ENOMEM;
        b->fits = p;
        s = &b->fits[b->n_fits];
        memset(s, 0, sizeof *s);
        s->name = fb__strdup(r->name);
        if (!s->name) return FB_ENOMEM;
        ++b->n_fits;
    }
    fb__fit_compute((const fb_result *const *)b->results, b->n_results, s->name, s);
    return FB_OK;
}

int fb__bench_add_result(fb_bench *b, fb_result *r) {
    if (b->n_results == b->cap_results) {
        size_t cap = b->cap_results ? 2 * b->cap_results : 8;
        fb_result **p = realloc(b->results, cap * sizeof *p);
        if (!p) return FB_ENOMEM;
        b->results = p;
        b->cap_results = cap;
    }
    b->results[b->n_results++] = r;
    fb__bench_drop_passes(b); /* a stored series over passes no longer covers them all */
    return fb__bench_refit(b, r);
}

int fb__bench_publish(fb_bench *b, fb_result *r) {
    /* src/handle/ucounter.c: the counters given for this run (false: none given
     * here, e.g. a result measured by -isolate's child and sent back) */
    bool counted_here = fb__ucounters_attach(b, r);
    fb__misuse_attach(b, r); /* src/handle/misuse.c: a bad argument makes it an error row */
    fb__label_attach(b, r);  /* src/handle/label.c: fb_set_label */
    fb__stats_compute(r);
    if (counted_here) fb__ucounters_check(b, r); /* a rate too large to show is said, once */
    size_t before = b->n_results;
    int rc = fb__bench_add_result(b, r);
    if (b->n_results == before) {
        fb__result_free(r);
        return FB_ENOMEM;
    }
    b->last_was_run = true;
    for (size_t i = 0; i < b->n_sinks; ++i) b->sinks[i].fn(b->sinks[i].ctx, b, r);
    return rc;
}

int fb__bench_take_results(fb_bench *dst, fb_bench *src) {
    size_t i = 0;
    int rc = FB_OK;
    if (!src->n_results) return FB_OK; /* results may be NULL: no memmove */
    for (; i < src->n_results; ++i) {
        size_t before = dst->n_results;
        int rc_add = fb__bench_add_result(dst, src->results[i]);
        if (dst->n_results == before) break;
        if (rc_add != FB_OK) rc = rc_add; /* stored, but its fit could not be */
    }
    /* whatever could not be moved stays with src and is freed with it */
    if (i) /* (src->results may be NULL: no pointer arithmetic on it) */
        memmove(src->results, src->results + i, (src->n_results - i) * sizeof *src->results);
    src->n_results -= i;
    fb__bench_drop_passes(src);
    if (src->n_results) rc = FB_ENOMEM;
    return rc;
}

/* -------------------------------------------------------- comparisons */

int fb__bench_add_comparison_sink(fb_bench *b, fb__cmp_sink_fn fn, void *ctx) {
    if (b->n_cmp_sinks == FB__MAX_SINKS) return FB_ENOMEM;
    b->cmp_sinks[b->n_cmp_sinks].fn = fn;
    b->cmp_sinks[b->n_cmp_sinks].ctx = ctx;
    ++b->n_cmp_sinks;
    return FB_OK;
}

static int fb__bench_add_comparison(fb_bench *b, fb_comparison *c) {
    if (b->n_comparisons == b->cap_comparisons) {
        size_t cap = b->cap_comparisons ? 2 * b->cap_comparisons : 4;
        fb_comparison **p = realloc(b->comparisons, cap * sizeof *p);
        if (!p) return FB_ENOMEM;
        b->comparisons = p;
        b->cap_comparisons = cap;
    }
    b->comparisons[b->n_comparisons++] = c;
    fb__bench_drop_passes(b); /* its alternatives are series over passes too */
    return FB_OK;
}

int fb__bench_publish_comparison(fb_bench *b, fb_comparison *c) {
    if (fb__bench_add_comparison(b, c) != FB_OK) {
        fb__comparison_free(c);
        return FB_ENOMEM;
    }
    b->last_was_run = false;
    for (size_t i = 0; i < b->n_cmp_sinks; ++i) b->cmp_sinks[i].fn(b->cmp_sinks[i].ctx, b, c);
    return FB_OK;
}

int fb__bench_take_comparisons(fb_bench *dst, fb_bench *src) {
    size_t i = 0;
    if (!src->n_comparisons) return FB_OK; /* comparisons may be NULL: no memmove */
    for (; i < src->n_comparisons; ++i)
        if (fb__bench_add_comparison(dst, src->comparisons[i]) != FB_OK) break;
    /* whatever could not be moved stays with src and is freed with it */
    memmove(src->comparisons, src->comparisons + i,
            (src->n_comparisons - i) * sizeof *src->comparisons);
    src->n_comparisons -= i;
    return src->n_comparisons ? FB_ENOMEM : FB_OK;
}

/* ------------------------------------------------------------ setters */

void fb_set_title(fb_bench *b, const char *title) { fb__replace_str(&b->cfg.title, title); }
void fb_set_unit(fb_bench *b, const char *unit) { fb__replace_str(&b->cfg.unit, unit); }
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

double fb_complexity_n(const fb_bench *b) { return b->cfg.complexity_n; }
double fb_batch(const fb_bench *b) { return b->cfg.batch; }
const char *fb_unit(const fb_bench *b) { return b->cfg.unit; }
const char *fb_title(const fb_bench *b) { return b->cfg.title; }

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
void fb__bench_set_change(fb_bench *b, fb__change_view *v) {
    fb__change_view_free(b->change);
    b->change = v;
}
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

void fb_rng_seed(fb_rng *r, uint64_t seed) {
    r->a = r->b = r->c = seed;
    r->counter = 1;
    for (int i = 0; i < 12; ++i) (void)fb_rng_u64(r);
}

#if !(defined(__GNUC__) || defined(__clang__))
void fb__escape(const volatile void *p) { (void)p; }
#endif
