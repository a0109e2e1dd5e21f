/* The fb_bench handle: configuration layers, results, accessors. */
#include "internal.h"
#include "compare.h" /* fb__bench_free_comparisons */

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Defaults and their reasons are in docs/design.md ("Defaults"). */
const fb__key_info fb__keys[FB__K_COUNT] = {
    [FB__K_EPOCHS] = {"epochs", 0, 11},
    [FB__K_EPOCH_ITERATIONS] = {"epoch_iterations", 0, 0},
    [FB__K_MIN_EPOCH_ITERATIONS] = {"min_epoch_iterations", 0, 1},
    [FB__K_MIN_EPOCH_TIME] = {"min_epoch_time", 1, 250e-6},
    [FB__K_MAX_EPOCH_TIME] = {"max_epoch_time", 1, 100e-3},
    [FB__K_MAX_TOTAL_TIME] = {"max_total_time", 1, 20e-3},
    [FB__K_WARMUP] = {"warmup", 0, 0},
    [FB__K_CLOCK_RESOLUTION_MULTIPLE] = {"clock_resolution_multiple", 0, 1000},
};

const char *fb_version(void) { return FB_VERSION_STRING; }

const char *fb_strerror(int err) {
    switch (err) {
    case FB_OK:
        return "success";
    case FB_EINVAL:
        return "invalid argument";
    case FB_ENOMEM:
        return "out of memory";
    case FB_EIO:
        return "input/output error";
    case FB_ENOTSUP:
        return "not supported on this system";
    case FB_ENOENT:
        return "no such benchmark";
    default:
        return "unknown error";
    }
}

const char *fb_measure_name(fb_measure m) {
    static const char *const names[FB_MEASURE_COUNT] = {
        "elapsed",      "instructions", "cpucycles",      "branchinstructions",
        "branchmisses", "pagefaults",   "contextswitches"};
    return (unsigned)m < FB_MEASURE_COUNT ? names[m] : NULL;
}

char *fb__strdup(const char *s) {
    size_t n = strlen(s ? s : "") + 1;
    char *p = malloc(n);
    if (p) memcpy(p, s ? s : "", n);
    return p;
}

static void fb__replace_str(char **dst, const char *src) {
    char *p = fb__strdup(src);
    if (!p) return; /* keep the old value on OOM */
    free(*dst);
    *dst = p;
}

double fb__cfg(const fb_bench *b, fb__key k) {
    for (int layer = FB__LAYERS - 1; layer >= 0; --layer)
        if (b->cfg_set[layer] & (1u << k)) return b->cfg[layer][k];
    return fb__keys[k].def;
}

void fb__cfg_set(fb_bench *b, int layer, fb__key k, double v) {
    b->cfg[layer][k] = v;
    b->cfg_set[layer] |= 1u << k;
}

static fb_bench *fb__bench_alloc(void) {
    fb_bench *b = calloc(1, sizeof *b);
    if (!b) return NULL;
    b->title = fb__strdup("benchmark");
    b->unit = fb__strdup("op");
    if (!b->title || !b->unit) {
        free(b->title);
        free(b->unit);
        free(b);
        return NULL;
    }
    b->batch = 1.0;
    b->time_unit_s = 1e-9;
    strcpy(b->time_unit_label, "ns");
    b->out = stdout;
    b->counters_on = true;
    b->session = &b->own_session;
    const char *endless = getenv("FEMTOBENCH_ENDLESS");
    if (endless && *endless) b->endless_name = fb__strdup(endless);
    fb__env_apply_config(b);
    return b;
}

fb_bench *fb_bench_new(void) { return fb__bench_alloc(); }

fb_bench *fb__bench_new_in(fb__session *s) {
    fb_bench *b = fb__bench_alloc();
    if (b && s) b->session = s;
    return b;
}

void fb__session_close(fb__session *s) {
    if (s->perf) fb__perf_close(s->perf);
    s->perf = NULL;
    s->perf_tried = 0;
}

void fb__result_free(fb_result *r) {
    if (!r) return;
    free(r->name);
    free(r->title);
    free(r->unit);
    free(r->error);
    free(r->iterations);
    for (int m = 0; m < FB_MEASURE_COUNT; ++m) free(r->values[m]);
    free(r);
}

void fb_bench_free(fb_bench *b) {
    if (!b) return;
    for (size_t i = 0; i < b->n_results; ++i) fb__result_free(b->results[i]);
    free(b->results);
    fb__bench_free_comparisons(b); /* src/compare.c */
    if (b->session == &b->own_session) fb__session_close(&b->own_session);
    free(b->title);
    free(b->unit);
    free(b->endless_name);
    free(b->name);
    free(b);
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
    return FB_OK;
}

int fb__bench_take_results(fb_bench *dst, fb_bench *src) {
    size_t i = 0;
    if (!src->n_results) return FB_OK;
    for (; i < src->n_results; ++i)
        if (fb__bench_add_result(dst, src->results[i]) != FB_OK) break;
    /* whatever could not be moved stays with src and is freed with it */
    memmove(src->results, src->results + i, (src->n_results - i) * sizeof *src->results);
    src->n_results -= i;
    return src->n_results ? FB_ENOMEM : FB_OK;
}

fb__perf *fb__bench_perf(fb_bench *b) {
    fb__session *s = b->session;
    if (!b->counters_on) return NULL;
    /* counters count the thread that opened them: reopen on another thread */
    if (s->perf_tried && !pthread_equal(s->perf_thread, pthread_self())) fb__session_close(s);
    if (!s->perf_tried) {
        s->perf_thread = pthread_self();
        char why[512] = "";
        s->perf_tried = 1;
        s->perf = fb__perf_open(why, sizeof why);
        if (why[0] && b->out && !fb__env_suppressed()) fb__perf_note_once(stderr, why);
    }
    return s->perf;
}

/* ------------------------------------------------------------ setters */

void fb_set_title(fb_bench *b, const char *title) { fb__replace_str(&b->title, title); }
void fb_set_unit(fb_bench *b, const char *unit) { fb__replace_str(&b->unit, unit); }
void fb_set_batch(fb_bench *b, double batch) {
    b->batch = batch > 0 && isfinite(batch) ? batch : 1.0;
}
void fb_set_epochs(fb_bench *b, size_t epochs) {
    fb__cfg_set(b, FB__LAYER_CODE, FB__K_EPOCHS, (double)(epochs ? epochs : 1));
}
void fb_set_epoch_iterations(fb_bench *b, uint64_t n) {
    fb__cfg_set(b, FB__LAYER_CODE, FB__K_EPOCH_ITERATIONS, (double)n);
}
void fb_set_min_epoch_iterations(fb_bench *b, uint64_t n) {
    fb__cfg_set(b, FB__LAYER_CODE, FB__K_MIN_EPOCH_ITERATIONS, (double)(n ? n : 1));
}
void fb_set_min_epoch_time(fb_bench *b, double s) {
    fb__cfg_set(b, FB__LAYER_CODE, FB__K_MIN_EPOCH_TIME, s > 0 ? s : 0);
}
void fb_set_max_epoch_time(fb_bench *b, double s) {
    fb__cfg_set(b, FB__LAYER_CODE, FB__K_MAX_EPOCH_TIME, s > 0 ? s : 0);
}
void fb_set_max_total_time(fb_bench *b, double s) {
    fb__cfg_set(b, FB__LAYER_CODE, FB__K_MAX_TOTAL_TIME, s > 0 ? s : 0);
}
void fb_set_warmup(fb_bench *b, uint64_t n) {
    fb__cfg_set(b, FB__LAYER_CODE, FB__K_WARMUP, (double)n);
}
void fb_set_relative(fb_bench *b, bool relative) { b->relative = relative; }
void fb_set_time_unit(fb_bench *b, double seconds, const char *label) {
    if (!(seconds > 0) || !label) return;
    b->time_unit_s = seconds;
    snprintf(b->time_unit_label, sizeof b->time_unit_label, "%s", label);
}
void fb_set_output(fb_bench *b, FILE *out) { b->out = out; }
void fb_set_complexity_n(fb_bench *b, double n) { b->complexity_n = n > 0 && isfinite(n) ? n : 0; }
void fb_set_performance_counters(fb_bench *b, bool on) { b->counters_on = on; }
void fb_set_clock(fb_bench *b, fb_clock_fn now_ns, void *ctx, double resolution_s) {
    b->clock = now_ns;
    b->clock_ctx = ctx;
    b->clock_resolution_s = resolution_s > 0 ? resolution_s : 1e-9;
}

double fb_complexity_n(const fb_bench *b) { return b->complexity_n; }
double fb_batch(const fb_bench *b) { return b->batch; }
const char *fb_unit(const fb_bench *b) { return b->unit; }
const char *fb_title(const fb_bench *b) { return b->title; }

/* ------------------------------------------------------------ results */

size_t fb_result_count(const fb_bench *b) { return b->n_results; }
const fb_result *fb_result_at(const fb_bench *b, size_t i) {
    return i < b->n_results ? b->results[i] : NULL;
}
const fb_result *fb_last_result(const fb_bench *b) {
    return b->n_results ? b->results[b->n_results - 1] : NULL;
}

const char *fb_result_name(const fb_result *r) { return r->name; }
const char *fb_result_title(const fb_result *r) { return r->title; }
const char *fb_result_unit(const fb_result *r) { return r->unit; }
const char *fb_result_error(const fb_result *r) { return r->error; }
double fb_result_batch(const fb_result *r) { return r->batch; }
double fb_result_complexity_n(const fb_result *r) { return r->complexity_n; }
size_t fb_result_epochs(const fb_result *r) { return r->epochs; }
bool fb_result_has(const fb_result *r, fb_measure m) {
    return (unsigned)m < FB_MEASURE_COUNT && (r->has & FB__BIT(m)) && r->values[m];
}
static const struct fb__summary *fb__sum(const fb_result *r, fb_measure m) {
    return fb_result_has(r, m) ? &r->summary[m] : NULL;
}
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
bool fb_result_unstable(const fb_result *r) {
    return !r->error && r->epochs > 1 && r->summary[FB_ELAPSED].err_pct >= 5.0;
}

void fb_rng_seed(fb_rng *r, uint64_t seed) {
    r->a = r->b = r->c = seed;
    r->counter = 1;
    for (int i = 0; i < 12; ++i) (void)fb_rng_u64(r);
}

#if !(defined(__GNUC__) || defined(__clang__))
void fb__escape(const volatile void *p) { (void)p; }
#endif
