/* The fb_bench handle: its life (new, free), its configuration layers, the
 * sinks it hands each finished result to (and their amend functions), its
 * diagnostics, and what a run needs from it before it starts. What it
 * stores is src/handle/bench_publish.c's, its setters src/handle/bench_set.c's,
 * its reads src/handle/bench_read.c's. */
#include "bench_state.h"
#include "misuse.h"
#include "context.h"

#include "compare_stats.h" /* comparisons: release, the live table's sink */
#include "process.h"
#include "text.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

double fb__cfg(const fb_bench *b, fb__key k) { return fb__layers_get(b->layers, k); }

void fb__cfg_set(fb_bench *b, int layer, fb__key k, double v) {
    fb__layer_set(&b->layers[layer], k, v);
}

int fb__bench_config(const fb_bench *b, fb__config *out) {
    fb__config c = b->cfg;
    for (int k = 0; k < FB__K_COUNT; ++k) c.num[k] = fb__cfg(b, (fb__key)k);
    c.set = 0;
    for (int layer = 0; layer < FB__LAYERS; ++layer) c.set |= b->layers[layer].set;
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
void fb__bench_drop_passes(fb_bench *b) {
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

/* The change view the runner hands the bench: it owns it, and frees it. */
void fb__bench_set_change(fb_bench *b, fb__change_view *v) {
    fb__change_view_free(b->change);
    b->change = v;
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

void fb_rng_seed(fb_rng *r, uint64_t seed) {
    r->a = r->b = r->c = seed;
    r->counter = 1;
    for (int i = 0; i < 12; ++i) (void)fb_rng_u64(r);
}

#if !(defined(__GNUC__) || defined(__clang__))
void fb__escape(const volatile void *p) { (void)p; }
#endif
