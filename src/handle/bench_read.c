/* Reads of the fb_bench handle: the results and comparisons it stores
 * (the public accessors), its fits, and the fb__bench_* getters of
 * src/handle/bench.h. Apart from src/handle/bench.c because the live table's sinks,
 * which src/handle/bench.c calls, read the bench through these: nothing here
 * calls back into src/handle/bench.c or a writer, so no call goes in a circle. */
#include "bench_state.h"

#include <string.h>

/* The results and comparisons a bench holds (public accessors), and the
 * models fitted to one name's results. */
size_t fb_result_count(const fb_bench *b) { return b ? b->n_results : 0; }
const fb_result *fb_result_at(const fb_bench *b, size_t i) {
    return b && i < b->n_results ? b->results[i] : NULL;
}
const fb_result *fb_last_result(const fb_bench *b) {
    return b && b->n_results ? b->results[b->n_results - 1] : NULL;
}
const fb_comparison *fb_last_comparison(const fb_bench *b) {
    return b && b->n_comparisons ? b->comparisons[b->n_comparisons - 1] : NULL;
}
size_t fb_comparison_count(const fb_bench *b) { return b ? b->n_comparisons : 0; }
const fb_comparison *fb_comparison_at(const fb_bench *b, size_t i) {
    return b && i < b->n_comparisons ? b->comparisons[i] : NULL;
}
size_t fb_complexity_fit(const fb_bench *b, const char *name, fb_fit *fits, size_t cap) {
    if (!b) return 0;
    return fb__fit_models((const fb_result *const *)b->results, b->n_results, name, fits, cap);
}

/* The configuration a run would take (public getters). */
double fb_complexity_n(const fb_bench *b) { return b->cfg.complexity_n; }
double fb_batch(const fb_bench *b) { return b->cfg.batch; }
const char *fb_unit(const fb_bench *b) { return b->cfg.unit; }
const char *fb_title(const fb_bench *b) { return b->cfg.title; }

const fb_result *const *fb__bench_results(const fb_bench *b, size_t *n) {
    *n = b->n_results;
    return (const fb_result *const *)b->results;
}
size_t fb__bench_fit_count(const fb_bench *b) { return b->n_fits; }
const char *fb__bench_fits_dropped(const fb_bench *b) { return b->fits_dropped; }
const fb__fit_set *fb__bench_fit_at(const fb_bench *b, size_t i) {
    return i < b->n_fits ? &b->fits[i] : NULL;
}
const fb__change_view *fb__bench_change(const fb_bench *b) { return b->change; }
FILE *fb__bench_output(const fb_bench *b) { return b->table ? b->table->out : NULL; }
FILE *fb__bench_diagnostics(const fb_bench *b) { return b->diag; }
size_t fb__bench_sink_count(const fb_bench *b) { return b->n_sinks; }
bool fb__bench_interrupted(const fb_bench *b) { return b->interrupted; }
size_t fb__bench_dropped(const fb_bench *b) { return b->dropped; }
const struct fb__pass_series *fb__bench_passes(const fb_bench *b) { return b->passes; }
