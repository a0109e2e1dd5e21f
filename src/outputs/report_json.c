/* femtobench's own JSON, "schema": "femtobench/1": the full record of a run
 * (context, configuration, statistics, every epoch, complexity fits).
 * Field by field in docs/formats.md. Values are per iteration (one op call)
 * in seconds for elapsed, as in nanobench; batch says how many units that is. */
#include "report.h"

#include "bench.h"
#include "compare_stats.h" /* a comparison counted or timed */
#include "context.h"       /* -context: "custom" in "context" */
#include "json.h"
#include "ucounter.h" /* "user_counters" */
#include "passes.h"   /* -repetitions: the value over passes */
#include "process.h"
#include "valgrind.h" /* counted results (-valgrind) */
#include "stats.h"    /* fit groups of families (src/stats/complexity_group.c) */

#include <stdlib.h>

#include <math.h>
#include <string.h>

static void fb__jr_build(fb__json *j, const char *key, int bits) {
    fb__json_obj(j, key, true);
    fb__json_kbool(j, "known", (bits & 1) != 0);
    fb__json_kbool(j, "optimized", (bits & 2) != 0);
    fb__json_kbool(j, "ndebug", (bits & 4) != 0);
    fb__json_end_obj(j);
}

/* -context's pairs (src/handle/context.c), inside "context" as "custom". */
static void fb__jr_custom(fb__json *j, const fb_bench *b) {
    if (!fb__context_count(b)) return; /* absent without -context */
    fb__json_obj(j, "custom", true);
    for (size_t i = 0; i < fb__context_count(b); ++i)
        fb__json_kstr(j, fb__context_key(b, i), fb__context_value(b, i));
    fb__json_end_obj(j);
}

static void fb__jr_context(fb__json *j, const fb__sysinfo *si, const fb_bench *b) {
    fb__json_obj(j, "context", false);
    fb__json_kstr(j, "host_name", si->host_name);
    fb__json_kstr(j, "executable", si->executable);
    fb__json_kstr(j, "os", si->os ? si->os : "unknown");
    fb__json_kstr(j, "arch", si->arch ? si->arch : "unknown");
    fb__json_kstr(j, "cpu_model", si->cpu_model);
    fb__json_kint(j, "num_cpus", si->num_cpus);
    fb__json_kint(j, "mhz_per_cpu", si->mhz_per_cpu);
    if (si->cpu_scaling < 0)
        fb__json_knull(j, "cpu_scaling_enabled");
    else
        fb__json_kbool(j, "cpu_scaling_enabled", si->cpu_scaling != 0);
    fb__json_caches(j, si);
    if (si->n_load_avg) {
        fb__json_arr(j, "load_avg", true);
        for (int i = 0; i < si->n_load_avg; ++i) fb__json_knum(j, NULL, si->load_avg[i]);
        fb__json_end_arr(j);
    } else {
        fb__json_knull(j, "load_avg");
    }
    fb__json_kstr(j, "compiler", si->compiler);
    fb__json_kstr(j, "library_build_flags", si->build_flags);
    fb__jr_build(j, "library_build", si->library_build);
    if (si->env) {
        fb__json_arr(j, "warnings", false);
        for (size_t i = 0; i < si->env->count && i < FB__ENV_MAX_WARNINGS; ++i) {
            fb__json_obj(j, NULL, true);
            fb__json_kstr(j, "what", si->env->w[i].what);
            fb__json_kstr(j, "fix", si->env->w[i].fix);
            fb__json_end_obj(j);
        }
        fb__json_end_arr(j);
    } else {
        fb__json_knull(j, "warnings");
    }
    fb__jr_custom(j, b);
    fb__json_end_obj(j);
}

/* Which epochs the statistics use and why (docs/formats.md): indices into
 * "measurements". */
static void fb__jr_epoch_list(fb__json *j, const char *key, const fb_result *r, unsigned bit) {
    fb__json_arr(j, key, true);
    for (size_t e = 0; r->epoch_flags && e < r->epochs; ++e)
        if (r->epoch_flags[e] & bit) fb__json_ku64(j, NULL, e);
    fb__json_end_arr(j);
}

static void fb__jr_epochs_used(fb__json *j, const fb_result *r) {
    static const char *const stops[] = {"epochs", "budget", "cap"};
    fb__json_ku64(j, "epochs_asked", r->epochs_asked);
    fb__json_ku64(j, "epochs_used", r->used);
    if (r->disturb_known)
        fb__jr_epoch_list(j, "disturbed", r, FB__EPOCH_DISTURBED);
    else
        fb__json_knull(j, "disturbed");
    fb__jr_epoch_list(j, "dropped", r, FB__EPOCH_DROPPED);
    /* a group's epochs whose time is its threads' CPU span (docs/threads.md) */
    if (r->threads > 1) fb__jr_epoch_list(j, "waited", r, FB__EPOCH_WAITED);
    fb__json_ku64(j, "rounds", r->rounds);
    if (r->probe[0] > 0 || r->probe[1] > 0) { /* a probe ratio is > 0; else none */
        fb__json_obj(j, "probe", true);
        fb__json_knum(j, "before", r->probe[0]);
        fb__json_knum(j, "after", r->probe[1]);
        fb__json_kbool(j, "slow", r->slow_core);
        fb__json_ku64(j, "remeasured", r->remeasured);
        fb__json_end_obj(j);
    } else {
        fb__json_knull(j, "probe");
    }
    fb__json_kstr(j, "stopped_by",
                  r->stopped_by >= 0 && r->stopped_by < 3 ? stops[r->stopped_by] : "epochs");
}

/* "valgrind": the exact counts of a result counted under Callgrind
 * (docs/valgrind.md), null otherwise. */
static void fb__jr_valgrind(fb__json *j, const fb_result *r) {
    const struct fb__vg_result *g = r->vg;
    if (!g) {
        fb__json_knull(j, "valgrind");
        return;
    }
    fb__json_obj(j, "valgrind", false);
    fb__json_kstr(j, "tool", "callgrind");
    fb__json_kbool(j, "cache_sim", g->cache);
    fb__json_arr(j, "iterations", true);
    fb__json_ku64(j, NULL, g->n1);
    fb__json_ku64(j, NULL, g->n2);
    fb__json_end_arr(j);
    fb__json_obj(j, "events", false);
    for (int e = 0; e < FB__VG_EVENTS; ++e) {
        if (!(g->have & (1u << e))) continue;
        fb__json_arr(j, fb__vg_event_name(e), true);
        fb__json_ku64(j, NULL, g->c1[e]);
        fb__json_ku64(j, NULL, g->c2[e]);
        fb__json_end_arr(j);
    }
    fb__json_end_obj(j);
    fb__json_obj(j, "per_iteration", true);
    for (int m = 0; m < FB_VG_MEASURE_COUNT; ++m)
        if (!r->error && g->per_iter[m] == g->per_iter[m]) /* not NAN */
            fb__json_knum(j, fb_vg_measure_name((fb_vg_measure)m), g->per_iter[m]);
    fb__json_end_obj(j);
    /* the counted pairs: 1 when the count repeated exactly; the least and
     * most instructions per iteration of the pairs (docs/valgrind.md) */
    if (!r->error) {
        fb__json_ku64(j, "pairs", g->pairs);
        fb__json_arr(j, "instructions_spread", true);
        fb__json_knum(j, NULL, g->ins_lo);
        fb__json_knum(j, NULL, g->ins_hi);
        fb__json_end_arr(j);
        fb__json_kbool(j, "unsteady", g->wild);
        fb__json_arr(j, "pair_instructions", true);
        for (unsigned k = 0; k < g->pairs && k < FB__VG_PAIRS_MAX; ++k)
            fb__json_knum(j, NULL, g->pair_ins[k]);
        fb__json_end_arr(j);
    }
    fb__json_end_obj(j);
}

/* "user_counters" (fb_counter, src/handle/ucounter.c): each as given, its kind,
 * its column label and the value shown (null when it cannot be computed). */
static void fb__jr_ucounters(fb__json *j, const fb_result *r) {
    if (!fb_result_counter_count(r)) return; /* absent without counters */
    fb__json_arr(j, "user_counters", false);
    for (size_t i = 0; i < fb_result_counter_count(r); ++i) {
        unsigned fl = fb_result_counter_flags(r, i);
        char label[FB__UCOUNTER_LABEL_MAX];
        fb__ucounter_label(r, i, label, sizeof label);
        fb__json_obj(j, NULL, true);
        fb__json_kstr(j, "name", fb_result_counter_name(r, i));
        fb__json_knum(j, "value", r->ucounters->c[i].value);
        fb__json_kstr(j, "kind",
                      (fl & FB_COUNTER_RATE)            ? "rate"
                      : (fl & FB_COUNTER_PER_ITERATION) ? "per_iteration"
                                                        : "plain");
        fb__json_kstr(j, "label", label);
        double v = fb_result_counter(r, i);
        if (isfinite(v))
            fb__json_knum(j, "shown", v);
        else
            fb__json_knull(j, "shown");
        if (isinf(v)) fb__json_kbool(j, "overflow", true); /* JSON has no inf */
        fb__json_end_obj(j);
    }
    fb__json_end_arr(j);
}

static void fb__jr_result(fb__json *j, const fb_result *r) {
    fb__json_obj(j, NULL, false);
    fb__json_kstr(j, "title", r->config.title);
    fb__json_kstr(j, "name", r->name);
    if (r->config.has_arg) /* the argument of a family's instance */
        fb__json_kint(j, "arg", r->config.arg);
    else
        fb__json_knull(j, "arg");
    if (r->config.n_args) { /* every argument (several for FB_BENCHMARK_PRODUCT) */
        fb__json_arr(j, "args", true);
        for (size_t i = 0; i < r->config.n_args; ++i) fb__json_kint(j, NULL, r->config.args[i]);
        fb__json_end_arr(j);
    }
    fb__json_kstr(j, "unit", r->config.unit);
    fb__json_kstr(j, "error", r->error);
    if (r->label) fb__json_kstr(j, "label", r->label); /* fb_set_label: only when given */
    fb__json_knum(j, "batch", r->config.batch);
    if (r->config.complexity_n > 0)
        fb__json_knum(j, "complexityN", r->config.complexity_n);
    else
        fb__json_knull(j, "complexityN");
    fb__json_kbool(j, "relative", r->config.relative);
    fb__json_kstr(j, "time_unit", r->config.time_unit_label);
    fb__json_knum(j, "time_unit_s", r->config.time_unit_s);
    fb__jr_build(j, "callsite_build", r->callsite);
    fb__json_obj(j, "config", false);
    for (int k = 0; k < FB__K_COUNT; ++k)
        fb__json_knum(j, fb__key_info_of((fb__key)k)->name, r->config.num[k]);
    fb__json_end_obj(j);
    fb__json_knum(j, "clock_resolution_s", r->clock_resolution_s);
    fb__json_knum(j, "clock_overhead_s", r->clock_overhead_s);
    if (r->empty_loop_s > 0) /* a loop holding only the barrier, per iteration */
        fb__json_knum(j, "empty_loop_s", r->empty_loop_s);
    else
        fb__json_knull(j, "empty_loop_s");
    /* marks derived from the result's own numbers (src/stats/marks.c) */
    fb__json_kbool(j, "optimized_away", r->optimized_away);
    fb__json_kbool(j, "unresolved", r->unresolved);
    /* disturbed epochs the statistics had to keep (too few others): the
     * value holds time the thread spent off the CPU */
    fb__json_ku64(j, "descheduled", r->descheduled);
    fb__json_ku64(j, "epochs", r->epochs);
    fb__json_ku64(j, "total_iterations", r->total_iterations);
    fb__json_knum(j, "total_s", r->total_s);
    fb__jr_epochs_used(j, r);
    fb__json_ku64(j, "pass", r->config.pass);
    if (r->threads) { /* a group of threads (src/run/group.h): its size, each thread's median */
        fb__json_ku64(j, "threads", r->threads);
        fb__json_arr(j, "thread_medians", true);
        for (size_t t = 0; t < r->threads; ++t) {
            double v = fb_result_thread_median(r, t);
            if (isfinite(v))
                fb__json_knum(j, NULL, v);
            else
                fb__json_knull(j, NULL);
        }
        fb__json_end_arr(j);
    }

    fb__json_obj(j, "stats", false);
    for (int m = 0; m < FB_MEASURE_COUNT; ++m) {
        if (!(r->has & FB__BIT(m))) continue;
        const struct fb__summary *s = &r->summary[m];
        fb__json_obj(j, fb_measure_name((fb_measure)m), true);
        fb__json_knum(j, "median", s->median);
        fb__json_knum(j, "err_pct", s->err_pct);
        fb__json_knum(j, "min", s->min);
        fb__json_knum(j, "max", s->max);
        fb__json_knum(j, "mean", s->mean);
        fb__json_knum(j, "stddev", s->stddev);
        fb__json_end_obj(j);
    }
    fb__json_end_obj(j);

    fb__json_arr(j, "measurements", false);
    for (size_t e = 0; r->iterations && e < r->epochs; ++e) {
        fb__json_obj(j, NULL, true);
        fb__json_ku64(j, "iterations", r->iterations[e]);
        for (int m = 0; m < FB_MEASURE_COUNT; ++m)
            if ((r->has & FB__BIT(m)) && r->values[m])
                fb__json_knum(j, fb_measure_name((fb_measure)m), r->values[m][e]);
        fb__json_end_obj(j);
    }
    fb__json_end_arr(j);
    fb__jr_valgrind(j, r);
    fb__jr_ucounters(j, r);
    fb__json_end_obj(j);
}

/* One entry per fit group with a complexity N, in the order the groups
 * first appear: a benchmark name, or a family's series whose instances set
 * N; each group's fit as stored with the results (src/handle/bench_fits.c). The
 * groups are sorted once (src/stats/complexity_group.c), not searched for each
 * result. FB_OK or FB_ENOMEM (the array is written empty). */
static int fb__jr_complexity(fb__json *j, const fb_bench *b) {
    fb__json_arr(j, "complexity", false);
    size_t n;
    const fb_result *const *rs = fb__bench_results(b, &n);
    fb__fit_groups g;
    if (fb__fit_groups_build(rs, n, &g) != FB_OK) {
        fb__json_end_arr(j);
        return FB_ENOMEM;
    }
    for (size_t i = 0; i < n; ++i) {
        const fb_result *r = rs[i];
        if (!r->name || g.first[i] != i) continue;
        const fb__fit_set *s = fb__fit_stored_in(b, &g, i); /* src/handle/bench_fits.c */
        if (!s) continue;
        fb__json_obj(j, NULL, false);
        fb__json_kstr(j, "name", s->name); /* the series' for a family */
        fb__json_arr(j, "fits", false);
        for (size_t k = 0; k < s->n && k < FB_FIT_MODELS; ++k) {
            fb__json_obj(j, NULL, true);
            fb__json_kstr(j, "model", s->fits[k].name);
            fb__json_knum(j, "coefficient", s->fits[k].coefficient);
            fb__json_knum(j, "constant", s->fits[k].constant);
            fb__json_knum(j, "err_pct", s->fits[k].err_pct);
            fb__json_end_obj(j);
        }
        fb__json_end_arr(j);
        /* what the fit says, and the models it names */
        static const char *const verdicts[] = {"model", "not_separated", "no_fit",
                                               "flat",  "undecided",     "two_points"};
        fb__json_kstr(j, "verdict",
                      s->n && s->verdict >= 0 && s->verdict < 6 ? verdicts[s->verdict] : NULL);
        fb__json_arr(j, "candidates", true);
        for (size_t k = 0; s->n && k < s->candidates; ++k)
            fb__json_kstr(j, NULL, s->candidate_names[k]);
        fb__json_end_arr(j);
        /* the model a port's family asked for (Google Benchmark's
         * Complexity(oN)): its fit is among `fits` */
        const fb_fit *asked = fb__fit_asked(s);
        if (asked) fb__json_kstr(j, "asked", asked->name);
        fb__json_end_obj(j);
    }
    fb__json_end_arr(j);
    fb__fit_groups_free(&g);
    return FB_OK;
}

/* The paired comparisons (src/run/compare.c): per alternative its ratio to the
 * baseline, the interval, the per-round log ratios and its epochs as a
 * result record. */
static void fb__jr_comparisons(fb__json *j, const fb_bench *b) {
    fb__json_arr(j, "comparisons", false);
    for (size_t c = 0; c < fb_comparison_count(b); ++c) {
        const fb_comparison *cmp = fb_comparison_at(b, c);
        size_t n = fb_comparison_size(cmp), rounds = fb_comparison_rounds(cmp);
        fb__json_obj(j, NULL, false);
        fb__json_kstr(j, "title", fb_comparison_title(cmp));
        fb__json_ku64(j, "rounds", rounds);
        fb__json_ku64(j, "preempted", fb_comparison_preempted(cmp));
        fb__json_ku64(j, "iterations", fb_comparison_iterations(cmp));
        fb__json_knum(j, "confidence", fb_comparison_confidence(cmp));
        fb__json_kstr(j, "fastest", fb_comparison_name(cmp, fb_comparison_fastest(cmp)));
        /* -valgrind: ratios of exact instruction counts, not of times */
        fb__json_kstr(j, "measure", cmp->counted ? "instructions" : "time");
        fb__json_arr(j, "alternatives", false);
        for (size_t a = 0; a < n; ++a) {
            fb__json_obj(j, NULL, false);
            fb__json_kstr(j, "name", fb_comparison_name(cmp, a));
            fb__json_kbool(j, "baseline", a == 0);
            fb__json_knum(j, "ratio", fb_comparison_ratio(cmp, a));
            fb__json_knum(j, "low", fb_comparison_low(cmp, a));
            fb__json_knum(j, "high", fb_comparison_high(cmp, a));
            fb__json_kbool(j, "significant", fb_comparison_significant(cmp, a));
            fb__json_ku64(j, "tied", fb_comparison_tied(cmp, a));
            fb__json_arr(j, "log_ratios", true);
            for (size_t r = 0; r < rounds; ++r)
                fb__json_knum(j, NULL, fb_comparison_log_ratio(cmp, a, r));
            fb__json_end_arr(j);
            fb__json_end_obj(j);
        }
        fb__json_end_arr(j);
        fb__json_arr(j, "results", false);
        for (size_t a = 0; a < n; ++a) fb__jr_result(j, fb_comparison_result(cmp, a));
        fb__json_end_arr(j);
        fb__json_end_obj(j);
    }
    fb__json_end_arr(j);
}

/* With -repetitions: each benchmark's value over the passes, one object per
 * series (src/outputs/passes.c) in the order they first ran, each comparison's
 * alternatives after the runs. Absent with one pass. */
static int fb__jr_over_passes(fb__json *j, const fb_bench *b) {
    if (fb__passes_max(b) > 1) { /* stored by the runner (src/outputs/passes.c) */
        fb__json_arr(j, "over_passes", false);
        for (size_t s = 0; s < fb__passes_count(b); ++s) {
            const fb_result *r = fb__passes_result(b, s, 0);
            fb__pass_summary tmp;
            const fb__pass_summary *sum = fb__passes_sum(b, s, &tmp);
            double batch = r->config.batch;
            fb__json_obj(j, NULL, true);
            fb__json_kstr(j, "title", r->config.title);
            fb__json_kstr(j, "name", r->name);
            /* an alternative of the comparison titled "title" */
            fb__json_kbool(j, "alternative", fb__passes_is_alternative(b, s));
            if (r->config.complexity_n > 0)
                fb__json_knum(j, "complexityN", r->config.complexity_n);
            else
                fb__json_knull(j, "complexityN");
            fb__json_ku64(j, "passes", fb__passes_size(b, s));
            fb__json_ku64(j, "passes_measured", sum->passes);
            fb__json_knum(j, "median", sum->median * batch);
            fb__json_knum(j, "between_pct", sum->err_pct);
            fb__json_knum(j, "min", sum->min * batch);
            fb__json_knum(j, "max", sum->max * batch);
            fb__json_kbool(j, "two_modes", sum->two_modes);
            if (fb__passes_is_alternative(b, s)) { /* against the comparison's baseline */
                fb__json_obj(j, "ratio", true);
                fb__json_ku64(j, "passes", sum->ratio.n);
                fb__json_knum(j, "median", sum->ratio.median);
                fb__json_knum(j, "min", sum->ratio.min);
                fb__json_knum(j, "max", sum->ratio.max);
                fb__json_ku64(j, "faster", sum->faster);
                fb__json_ku64(j, "slower", sum->slower);
                fb__json_end_obj(j);
            }
            fb__json_end_obj(j);
        }
        fb__json_end_arr(j);
    }
    return FB_OK;
}

int fb__write_json_with(const fb_bench *b, FILE *f, const fb__sysinfo *si) {
    if (!b || !f || !si) return FB_EINVAL;
    fb__json j;
    fb__json_init(&j, f);
    fb__json_obj(&j, NULL, false);
    fb__json_kstr(&j, "schema", "femtobench/1");
    fb__json_kstr(&j, "version", si->version);
    fb__json_kstr(&j, "date", si->date);
    fb__jr_context(&j, si, b);
    fb__json_arr(&j, "results", false);
    for (size_t i = 0; i < fb_result_count(b); ++i) fb__jr_result(&j, fb_result_at(b, i));
    fb__json_end_arr(&j);
    int rc = fb__jr_over_passes(&j, b);
    int crc = fb__jr_complexity(&j, b);
    if (rc == FB_OK) rc = crc;
    fb__jr_comparisons(&j, b);
    fb__json_end_obj(&j);
    int frc = fb__writer_finish(f);
    return rc != FB_OK ? rc : frc;
}

int fb_write_json(const fb_bench *b, FILE *f) {
    if (!b || !f) return FB_EINVAL;
    return fb__write_json_with(b, f, fb__process_sysinfo());
}
