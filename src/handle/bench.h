/* The fb_bench handle's internal interface (src/handle/bench.c, and its parts
 * bench_publish.c, bench_set.c, bench_read.c, bench_fits.c): the configuration
 * a run starts from, the results it produced, the fits computed from them,
 * and the sinks each finished result is handed to. The handle itself
 * (struct fb_bench) is in src/handle/bench_state.h, seen only by the handle's own
 * parts and the measuring layer; everyone else uses these functions. */
#ifndef FB_BENCH_H
#define FB_BENCH_H

#include "base.h"
#include "disturb.h"
#include "probe.h"
#include "perf.h"
#include "report.h"
#include "result.h"
#include "settings.h"
#include "stats.h"

#include <stdio.h>

/* A sink receives every finished result, after its statistics, with the
 * bench that holds it (read-only: e.g. the relative mode's baseline). */
typedef void (*fb__sink_fn)(void *ctx, const fb_bench *b, const fb_result *r);
typedef struct fb__sink {
    fb__sink_fn fn;
    void *ctx;
    /* NULL, or called when the result fn received last is amended after it
     * (counters given after its run: fb__bench_late_counters); a sink that
     * forwards results to another process sends the amended one */
    fb__sink_fn amend;
} fb__sink;
#define FB__MAX_SINKS 4

/* A comparison sink receives every finished comparison (src/run/compare.c);
 * the live table's is the first (src/outputs/report_compare.c). */
typedef void (*fb__cmp_sink_fn)(void *ctx, const fb_bench *b, const fb_comparison *c);
typedef struct fb__cmp_sink {
    fb__cmp_sink_fn fn;
    void *ctx;
} fb__cmp_sink;
/* A run against a baseline (the runner's -baseline), kept with the results
 * for the writers that draw it (the HTML report): src/outputs/change.h. */
typedef struct fb__change_view fb__change_view;
FB__PRIVATE void fb__change_view_free(fb__change_view *v);

/* Injects the disturbance source of b's runs (NULL: none); tests use it to
 * declare epochs disturbed under the fake clock (src/stats/disturb.c). */
FB__PRIVATE void fb__bench_set_disturbance(fb_bench *b, fb__disturb_fn fn, void *ctx);

/* Under a custom clock, the cost per iteration of a loop holding only the
 * barrier, as a test declares it (0: unknown, no optimized-away mark;
 * src/stats/marks.c). */
FB__PRIVATE void fb__bench_set_empty_loop(fb_bench *b, double seconds);
/* Injects the core probe of b's runs (NULL: none; src/machine/probe.c). */
/* Injects the thread CPU clock of b's runs (NULL: none), in ns; tests use
 * it beside the fake clock to declare epochs descheduled (wall > CPU). */
FB__PRIVATE void fb__bench_set_cpu_clock(fb_bench *b, fb_clock_fn fn, void *ctx);
FB__PRIVATE void fb__bench_set_probe(fb_bench *b, fb__probe_fn fn, void *ctx);

/* The value of key k for the next run (all layers). */
FB__PRIVATE double fb__cfg(const fb_bench *b, fb__key k);
FB__PRIVATE void fb__cfg_set(fb_bench *b, int layer, fb__key k, double v);
/* The configuration of a run starting now, by value (FB_OK or FB_ENOMEM). */
FB__PRIVATE int fb__bench_config(const fb_bench *b, fb__config *out);
/* Shares t as b's live table (the runner's one table for all benches). */
FB__PRIVATE void fb__bench_share_table(fb_bench *b, fb__table *t);
/* Adds a sink after the live table; FB_OK, or FB_ENOMEM when full. */
FB__PRIVATE int fb__bench_add_sink(fb_bench *b, fb__sink_fn fn, void *ctx);
/* Gives the sink whose function is fn an amend function (fb__sink);
 * FB_EINVAL when b has no such sink. */
FB__PRIVATE int fb__bench_sink_amend(fb_bench *b, fb__sink_fn fn, fb__sink_fn amend);
/* Counters given after the last run while no run is open (Google
 * Benchmark's habit: counters set after the loop): attached to the result
 * published last, when that was a run (not a comparison); its statistics
 * computed again, one line on the diagnostics, and the sinks' amend
 * functions called. Returns how many were attached (0: none pending, no
 * run to take them, or no room: they stay pending). */
FB__PRIVATE size_t fb__bench_late_counters(fb_bench *b);
/* The parent's side: the process that measured the result published last
 * attached late counters to it and sent it again as `from`; its counters
 * move to the stored one (statistics again, amend sinks called), and from
 * is freed. FB_EINVAL when b holds no result. */
FB__PRIVATE int fb__bench_amend_last(fb_bench *b, fb_result *from);

/* Before a run: resolves the process facts (clock, machine report, first
 * diagnostics) and returns the counters for this thread (NULL: off). */
FB__PRIVATE fb__perf *fb__bench_prepare(fb_bench *b, int callsite);
/* A diagnostic line on b's diagnostics stream ("femtobench: " prefixed). */
FB__PRIVATE void fb__bench_diag(const fb_bench *b, const char *fmt, ...) FB__PRINTF(2, 3);

/* The end of a run: stores r (owned by b from now on), computes its
 * statistics and complexity fit, and hands it to every sink. FB_OK, or
 * FB_ENOMEM (r is then freed). */
FB__PRIVATE int fb__bench_publish(fb_bench *b, fb_result *r);
/* Stores r (its statistics already computed) and refits its name; no sinks.
 * FB_ENOMEM when r could not be stored, or its fit not computed. */
FB__PRIVATE int fb__bench_add_result(fb_bench *b, fb_result *r);
/* Moves all results of src to the end of dst, refitting dst (the runner's
 * suite record). */
FB__PRIVATE int fb__bench_take_results(fb_bench *dst, fb_bench *src);
/* Publishes an error result named name with message msg and b's current
 * configuration (src/runner/error_row.c): how the runner reports a benchmark that
 * measured nothing, or a child that crashed. FB_OK or FB_ENOMEM. */
FB__PRIVATE int fb__bench_error_row(fb_bench *b, const char *name, const char *msg);
/* Comparisons (src/run/compare.c): adds a comparison sink after the live
 * table's (FB_OK, or FB_ENOMEM when full); stores c (owned by b from now
 * on) and hands it to every comparison sink (FB_ENOMEM: c is freed); moves
 * all comparisons of src to the end of dst (the runner's suite record). */
FB__PRIVATE int fb__bench_add_comparison_sink(fb_bench *b, fb__cmp_sink_fn fn, void *ctx);
FB__PRIVATE int fb__bench_publish_comparison(fb_bench *b, fb_comparison *c);
FB__PRIVATE int fb__bench_take_comparisons(fb_bench *dst, fb_bench *src);
/* The stored fit of `name`, or NULL. */
FB__PRIVATE const fb__fit_set *fb__bench_fit(const fb_bench *b, const char *name);

/* The handle's parts for the files above it (the runner, the writers),
 * which never see struct fb_bench: the results stored (*n of them), the
 * fits stored, the view of a run against a baseline (NULL: none; a new,
 * empty one is made and kept, NULL when out of memory). */
FB__PRIVATE const fb_result *const *fb__bench_results(const fb_bench *b, size_t *n);
FB__PRIVATE size_t fb__bench_fit_count(const fb_bench *b);
FB__PRIVATE const fb__fit_set *fb__bench_fit_at(const fb_bench *b, size_t i);
FB__PRIVATE const fb__change_view *fb__bench_change(const fb_bench *b);
/* Keeps v (from fb__change_view_new) with b, which frees it (and the one
 * before). */
FB__PRIVATE void fb__bench_set_change(fb_bench *b, fb__change_view *v);
/* The runner's settings of a fresh bench: the registered name FB_RUN(b,
 * NULL) runs under (FB_OK, or FB_ENOMEM and left unset), the -repetitions pass,
 * the -min_time (more epochs: src/run/rounds.c); no sinks at all, the live table
 * included (its rows are printed elsewhere), and no comparison sinks. */
FB__PRIVATE int fb__bench_set_name(fb_bench *b, const char *name);
FB__PRIVATE void fb__bench_set_pass(fb_bench *b, unsigned pass);
FB__PRIVATE void fb__bench_set_min_time(fb_bench *b, double seconds);
/* The runner's --benchmark_min_time=<n>x: n iterations in all, split over
 * the run's epochs (0: none). */
FB__PRIVATE void fb__bench_set_total_iterations(fb_bench *b, double n);
FB__PRIVATE void fb__bench_drop_sinks(fb_bench *b);
FB__PRIVATE void fb__bench_drop_comparison_sinks(fb_bench *b);
/* Forgets the stored complexity fits and keeps why (a static string: a
 * sanity check measures too little to fit), for the writers to say. */
FB__PRIVATE void fb__bench_drop_fits(fb_bench *b, const char *why);
/* Why the fits were dropped (fb__bench_drop_fits), or NULL. */
FB__PRIVATE const char *fb__bench_fits_dropped(const fb_bench *b);
FB__PRIVATE size_t fb__bench_sink_count(const fb_bench *b);
/* The live table's stream (NULL: silent) and the diagnostics stream. */
FB__PRIVATE FILE *fb__bench_output(const fb_bench *b);
FB__PRIVATE FILE *fb__bench_diagnostics(const fb_bench *b);
/* Endless mode ended by a signal; runs that recorded nothing (refused, or
 * out of memory), which the runner turns into an error row. */
FB__PRIVATE bool fb__bench_interrupted(const fb_bench *b);
FB__PRIVATE void fb__bench_set_interrupted(fb_bench *b);
FB__PRIVATE size_t fb__bench_dropped(const fb_bench *b);
FB__PRIVATE void fb__bench_count_dropped(fb_bench *b);

/* The series over passes the runner stored (src/outputs/passes.c: fb__passes_finish),
 * or NULL; setting one releases the one before with its `release` (the
 * handle owns it, and drops it when a result is added after it). */
FB__PRIVATE const struct fb__pass_series *fb__bench_passes(const fb_bench *b);
FB__PRIVATE void fb__bench_set_passes(fb_bench *b, struct fb__pass_series *s,
                                      void (*release)(struct fb__pass_series *s));
/* Releases the stored series (the results it covers changed). */
FB__PRIVATE void fb__bench_drop_passes(fb_bench *b);

/* The fits stored with a bench's results, one per group: a name's (stored
 * by src/handle/bench_publish.c as each result arrives) or a family series'
 * (src/handle/bench_fits.c).
 * fb__fit_stored: the stored fit of result i's group, NULL when none (or a
 * family fit not stored since its series got a result). fb__fit_store_group:
 * computes and stores the fit of result i's series when i is fitted with
 * it. fb__fit_store_results: the same for each of rs[0..n) (results of b)
 * whose series fit is not stored yet: the runner, when a family's last
 * instance finished; fb__fit_store_families: for all of b's results, once
 * they are complete and before any writer runs. fb__fit_mark_stale: r (an
 * instance) was added to b: its series' stored fit is stale. FB_OK or
 * FB_ENOMEM. fb__fit_index: r's index in b, or (size_t)-1. */
FB__PRIVATE const fb__fit_set *fb__fit_stored(const fb_bench *b, size_t i);
/* fb__fit_stored, with g the fit groups of b's results (fb__fit_groups_build
 * on them): without a scan of the results, for a writer that lists every
 * group. */
FB__PRIVATE const fb__fit_set *fb__fit_stored_in(const fb_bench *b, const fb__fit_groups *g,
                                                 size_t i);
FB__PRIVATE int fb__fit_store_group(fb_bench *b, size_t i);
FB__PRIVATE int fb__fit_store_results(fb_bench *b, const fb_result *const *rs, size_t n);
FB__PRIVATE int fb__fit_store_families(fb_bench *b);
FB__PRIVATE void fb__fit_mark_stale(fb_bench *b, const fb_result *r);
FB__PRIVATE size_t fb__fit_index(const fb_bench *b, const fb_result *r);

#endif
