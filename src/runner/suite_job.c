/* One benchmark of the runner's suite (src/runner/suite.c runs them): the
 * command line applied to its fresh bench, its body (its rounds, then
 * nothing silently dropped), the collector sink that counts failures, and
 * the guard against a benchmark that calls exit(). It touches no field of a
 * bench (src/handle/bench.h's functions). */
#include "suite_job.h"

#include "misuse.h" /* error rows made by a bad API argument */
#include "text.h"
#include "ucounter.h" /* counters given after the last run */

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

void fb__job_configure(fb_bench *b, const fb__opts *o) {
    /* Google Benchmark's flags; -sanity_check below wins */
    if (o->epochs > 0) fb__cfg_set(b, FB__LAYER_CLI, FB__K_EPOCHS, o->epochs);
    /* --benchmark_min_time: a longer run is more epochs, not longer ones.
     * <t>s: t of measured time per repetition, as -min_time; <n>x: n
     * iterations in all, split over the epochs, or n per epoch when
     * --benchmark_repetitions gives the epochs (GB: n per repetition) */
    double gb_min_time_s = -1;
    if (o->min_epoch_time_s >= 0 && !o->sanity)
        gb_min_time_s = o->min_epoch_time_s * (o->epochs > 0 ? o->epochs : 1);
    if (o->epoch_iterations > 0 && o->epochs > 0)
        fb__cfg_set(b, FB__LAYER_CLI, FB__K_EPOCH_ITERATIONS, o->epoch_iterations);
    else if (o->epoch_iterations > 0 && !o->sanity)
        fb__bench_set_total_iterations(b, o->epoch_iterations);
    if (o->sanity) {
        fb__cfg_set(b, FB__LAYER_CLI, FB__K_EPOCHS, 1);
        fb__cfg_set(b, FB__LAYER_CLI, FB__K_EPOCH_ITERATIONS, 1);
        fb__cfg_set(b, FB__LAYER_CLI, FB__K_WARMUP, 0);
        /* a family instance in a pass: exactly one epoch (one setup/teardown),
         * so no disturbed epoch replaced and no probe re-measurement */
        fb__bench_set_disturbance(b, NULL, NULL);
        fb__bench_set_probe(b, NULL, NULL);
    }
    /* more epochs when the run starts, after the benchmark's own
     * fb_set_epochs (src/run/run_plan.c, src/run/rounds.c); the larger of the two */
    double min_time_s = o->min_time_ms >= 0 ? o->min_time_ms * 1e-3 : -1;
    if (gb_min_time_s > min_time_s) min_time_s = gb_min_time_s;
    if (min_time_s >= 0) fb__bench_set_min_time(b, min_time_s);
}

void fb__job_say(const char *head, const char *a, const char *b, const char *msg) {
    fputs(head, stderr);
    fb__put_line(stderr, a);
    if (b) {
        fputc('/', stderr);
        fb__put_line(stderr, b);
    }
    fputs(": ", stderr);
    fb__put_line(stderr, msg);
    fputc('\n', stderr);
}

void fb__job_line(const char *head, const char *text, const char *tail) {
    fputs(head, stderr);
    fb__put_line(stderr, text);
    fputs(tail, stderr);
    fputc('\n', stderr);
}

/* The benchmark running in this process (not in -isolate's child), or
 * NULL. A benchmark that calls exit() (from any of its threads: a group's
 * leader too) ends the runner in the middle of the suite, with the
 * benchmark's exit status, often 0: a CI gate would pass on what ran before
 * it. The exit handler below says which benchmark it was and makes the
 * status 1; its row and the files cannot be made any more (-isolate makes
 * it an error row and goes on). Mutable state outside the handle and the
 * process state because the OS forces it: an atexit handler takes no
 * argument, so it finds the name here (and at_exit_set in fb_main says the
 * handler is installed once per process). */
static const char *volatile fb__job_current;

void fb__job_at_exit(void) {
    const char *name = fb__job_current;
    if (!name) return;
    fflush(stdout);
    fb__job_say("femtobench: error: ", name, NULL,
                "called exit() while it ran: the suite stopped there, no output file "
                "written (-isolate makes it an error row and goes on)");
    fflush(stderr);
    _Exit(1);
}

void fb__job_run_here(fb_bench *b, fb__job *job) {
    fb__job_current = job->inst->name;
    fb__job_body(b, job);
    fb__job_current = NULL;
}

void fb__collector_sink(void *ctx, const fb_bench *b, const fb_result *r) {
    fb__collector *c = ctx;
    (void)b;
    if (!fb_result_error(r) || fb_result_skipped(r)) return; /* fb_skip: no failure */
    ++c->failed;
    if (fb__result_misuse(r)) ++c->misused;
    if (c->sanity) fb__job_say("femtobench: ", fb_result_name(r), NULL, fb_result_error(r));
}

void fb__collector_cmp_sink(void *ctx, const fb_bench *b, const fb_comparison *cmp) {
    fb__collector *c = ctx;
    (void)b;
    for (size_t a = 0; a < fb_comparison_size(cmp); ++a) {
        const fb_result *r = fb_comparison_result(cmp, a);
        if (!fb_result_error(r)) continue;
        ++c->failed;
        if (c->sanity)
            fb__job_say("femtobench: ", fb_comparison_title(cmp), fb_result_name(r),
                        fb_result_error(r));
    }
}

fb_bench *fb__job_pass_bench(void *ctx, unsigned pass) {
    fb__job_pass_ctx *pc = ctx;
    (void)pass;
    fb_bench *b = fb_bench_new();
    if (b) { /* no live table of its own: the pass printed its rows and comparisons */
        fb__bench_drop_sinks(b);
        fb__bench_drop_comparison_sinks(b);
    }
    if (b && (fb__bench_add_sink(b, fb__collector_sink, pc->collector) != FB_OK ||
              fb__bench_add_comparison_sink(b, fb__collector_cmp_sink, pc->collector) != FB_OK)) {
        fb_bench_free(b);
        return NULL;
    }
    return b;
}

static void fb__job_group_body(fb_bench *b, void *ctx) {
    fb__registration_call(((const fb__instance *)ctx)->reg, b);
}

/* An instance of FB_BENCHMARK_THREADS (src/run/group.c); a group that could
 * not start (out of memory, no threads in this build) is a run that
 * recorded nothing: an error row. */
static void fb__job_threads(fb_bench *b, const fb__instance *in) {
    int rc = fb_run_threads(b, in->threads, fb__job_group_body, (void *)(uintptr_t)in);
    if (rc != FB_OK) {
        fb__bench_count_dropped(b);
        fb__bench_diag(b, "'%s' not run: %s", in->name, fb_strerror(rc));
    }
}

void fb__job_body(fb_bench *b, void *ctx) {
    fb__job *job = ctx;
    const fb__opts *o = job->o;
    size_t rounds = o->n_asymptote ? o->n_asymptote : 1;
    for (size_t r = 0; r < rounds && !fb__bench_interrupted(b); ++r) {
        if (o->n_asymptote) fb_set_complexity_n(b, o->asymptote[r]);
        if (job->inst->threads) /* FB_BENCHMARK_THREADS: the body on a group of threads */
            fb__job_threads(b, job->inst);
        else
            fb__registration_call(job->inst->reg, b);
    }
    if (fb__bench_interrupted(b)) return;
    char msg[256], counter[FB__UCOUNTER_NAME_MAX + 1];
    size_t dropped = fb__bench_dropped(b);
    /* Google Benchmark sets counters after its loop; here a counter belongs
     * to the run that follows it, so one given after the last run goes to
     * that run (the files carry it, a line says so); one with no run before
     * it (or no room left there) has nothing to describe */
    (void)fb__bench_late_counters(b);
    size_t late = fb__ucounters_left(b, counter, sizeof counter);
    if (dropped)
        snprintf(msg, sizeof msg, "%zu run%s recorded nothing (see the diagnostics above)", dropped,
                 dropped == 1 ? "" : "s");
    else if (late)
        snprintf(msg, sizeof msg,
                 "fb_counter(\"%s\")%s with no run to describe: a counter describes the next "
                 "FB_RUN / fb_run (given after the last run, that run)",
                 counter, late > 1 ? " and others" : "");
    else if (o->sanity && fb_result_count(b) == 0 && fb_comparison_count(b) == 0)
        snprintf(msg, sizeof msg,
                 "measured nothing: the benchmark never reached FB_RUN, fb_run or a comparison");
    else
        return;
    if (fb__bench_error_row(b, job->inst->name, msg) != FB_OK) {
        fb__job_say("femtobench: error: ", job->inst->name, NULL, msg);
        job->unreported = true;
        if (fb__bench_sink_count(b) == 1 && o->isolate)
            _exit(1); /* -isolate's child: the parent says it */
    }
}
