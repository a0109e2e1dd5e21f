/* The suite runner: fb_main, and the suite it runs once src/runner/selection.c
 * has read the options and selected the benchmarks: one fresh fb_bench per
 * benchmark in each pass, the collector sink, the tables between them, the
 * outputs written as one set. It measures nothing itself and touches no
 * field of a bench (src/handle/bench.h's functions). */
#include "bench.h"
#include "cli_check.h" /* control characters shown as \xNN */
#include "isolate.h"   /* -isolate, -timeout */
#include "outfile.h"
#include "passes.h"
#include "passes_exec.h"
#include "process.h"
#include "registry.h" /* families expanded into instances */
#include "report_passes.h"
#include "report.h"
#include "options.h"   /* the command line */
#include "selection.h" /* what runs, checked before anything runs */
#include "setup.h"     /* fb_arg of an instance */
#include "text.h"
#include "valgrind.h" /* -valgrind */
#include "misuse.h"   /* error rows made by a bad API argument */
#include "ucounter.h" /* counters given after the last run */
#include "context.h"  /* -context */
#include "progress.h" /* the status line on a terminal */

#include "change.h" /* -baseline, -threshold, -fail_on_slower */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Applies the command line to a fresh bench: it wins over code and env. */
static void fb__runner_configure(fb_bench *b, const fb__opts *o) {
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

/* The runner's collector, a sink: counts the failed results and, in a
 * sanity check (no table), names each failure on stderr. */
typedef struct fb__collector {
    bool sanity;
    size_t failed;
    size_t misused; /* error rows made by a bad API argument (src/handle/misuse.h) */
} fb__collector;

/* "femtobench: [error: ]a[/b]: msg" on stderr with control characters as
 * \xNN: a name or a message with a line break never makes a second line. */
static void fb__runner_say(const char *head, const char *a, const char *b, const char *msg) {
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

/* head, then text as one line (control characters as \xNN), then tail. */
static void fb__runner_line(const char *head, const char *text, const char *tail) {
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
static const char *volatile fb__runner_current;

static void fb__runner_at_exit(void) {
    const char *name = fb__runner_current;
    if (!name) return;
    fflush(stdout);
    fb__runner_say("femtobench: error: ", name, NULL,
                   "called exit() while it ran: the suite stopped there, no output file "
                   "written (-isolate makes it an error row and goes on)");
    fflush(stderr);
    _Exit(1);
}

static void fb__collector_sink(void *ctx, const fb_bench *b, const fb_result *r) {
    fb__collector *c = ctx;
    (void)b;
    if (!fb_result_error(r) || fb_result_skipped(r)) return; /* fb_skip: no failure */
    ++c->failed;
    if (fb__result_misuse(r)) ++c->misused;
    if (c->sanity) fb__runner_say("femtobench: ", fb_result_name(r), NULL, fb_result_error(r));
}

/* Its comparison sink: a comparison's error rows fail the benchmark like a
 * run's (src/run/compare.c). */
static void fb__collector_cmp_sink(void *ctx, const fb_bench *b, const fb_comparison *cmp) {
    fb__collector *c = ctx;
    (void)b;
    for (size_t a = 0; a < fb_comparison_size(cmp); ++a) {
        const fb_result *r = fb_comparison_result(cmp, a);
        if (!fb_result_error(r)) continue;
        ++c->failed;
        if (c->sanity)
            fb__runner_say("femtobench: ", fb_comparison_title(cmp), fb_result_name(r),
                           fb_result_error(r));
    }
}

/* A pass of -repetitions run in its own process: the bench its results
 * and comparisons are published to in this process. The pass process
 * prints the table and names failures itself, so here only the collector
 * counts them. */
typedef struct fb__runner_pass_ctx {
    fb__collector *collector;
} fb__runner_pass_ctx;

static fb_bench *fb__runner_pass_bench(void *ctx, unsigned pass) {
    fb__runner_pass_ctx *pc = ctx;
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

/* One benchmark: its rounds, then nothing silently dropped: a
 * run that recorded nothing, or under -sanity_check a body that never
 * reached FB_RUN / fb_run / FB_COMPARE / fb_compare, is an error row (a
 * comparison counts as a measurement: the bench stores it). Runs in-process or in
 * -isolate's child (src/runner/isolate.c). */
typedef struct fb__runner_job {
    const fb__opts *o;
    const fb__instance *inst; /* a benchmark, or one instance of a family */
    bool unreported;          /* an error row could not be made (out of memory) */
} fb__runner_job;

static void fb__runner_group_body(fb_bench *b, void *ctx) {
    fb__registration_call(((const fb__instance *)ctx)->reg, b);
}

/* An instance of FB_BENCHMARK_THREADS (src/run/group.c); a group that could
 * not start (out of memory, no threads in this build) is a run that
 * recorded nothing: an error row. */
static void fb__runner_threads(fb_bench *b, const fb__instance *in) {
    int rc = fb_run_threads(b, in->threads, fb__runner_group_body, (void *)(uintptr_t)in);
    if (rc != FB_OK) {
        fb__bench_count_dropped(b);
        fb__bench_diag(b, "'%s' not run: %s", in->name, fb_strerror(rc));
    }
}

static void fb__runner_body(fb_bench *b, void *ctx) {
    fb__runner_job *job = ctx;
    const fb__opts *o = job->o;
    size_t rounds = o->n_asymptote ? o->n_asymptote : 1;
    for (size_t r = 0; r < rounds && !fb__bench_interrupted(b); ++r) {
        if (o->n_asymptote) fb_set_complexity_n(b, o->asymptote[r]);
        if (job->inst->threads) /* FB_BENCHMARK_THREADS: the body on a group of threads */
            fb__runner_threads(b, job->inst);
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
        fb__runner_say("femtobench: error: ", job->inst->name, NULL, msg);
        job->unreported = true;
        if (fb__bench_sink_count(b) == 1 && o->isolate)
            _exit(1); /* -isolate's child: the parent says it */
    }
}

/* Every output of the table (src/runner/options.c) as one set, each at the path
 * pinned before anything ran (src/outputs/outfile_set.c). */
static int fb__runner_write(const fb__opts *o, const fb_bench *suite) {
    char err[1024];
    fb__opts_gbench gb = {suite, o->gb_rows}; /* the Google Benchmark JSON rows' */
    if (fb__outputs_write(&o->outs, suite, &gb, stderr, err, sizeof err) != FB_OK) {
        fprintf(stderr, "femtobench: error: %s\n", err);
        return 1;
    }
    return 0;
}

/* Runs the selected benchmarks (each pass, each instance in a fresh bench)
 * and writes the tables and files: fb_main's work once the options are
 * read. One exit path frees what it made. */
static int fb__runner_suite(int argc, char **argv, fb__opts *o, fb__instance **sel) {
    if (o->quiet) fb__process_set_quiet(true);
    if (o->baseline && strchr(o->baseline, ',')) {
        /* several files (none of them an output: src/runner/selection.c): what
         * they disagree on about the machine said once, before anything runs */
        unsigned pass, passes;
        if (o->base.ctx.files_differ[0] && fb__process_pass_child(&pass, &passes) < 0)
            fb__runner_line("femtobench: warning: the -baseline files disagree about the machine: ",
                            o->base.ctx.files_differ, "");
    }
    bool to_stdout = o->outs.table_fd == 2; /* an output is stdout */
    /* one live table for the whole suite */
    fb__table table;
    memset(&table, 0, sizeof table);
    table.out = o->sanity ? NULL : to_stdout ? stderr : stdout;
    /* a benchmark's fb_set_output changes the shared table's stream for that
     * benchmark alone: each benchmark starts from the suite's stream */
    FILE *const suite_out = table.out;
    FILE *tout = to_stdout ? stderr : stdout;
    fb__collector collector = {o->sanity, 0, 0};

    int status = 0;
    size_t *order = NULL, *res_lo = NULL;
    fb_bench *suite = fb_bench_new();
    if (!suite) {
        status = fb__opts_error("out of memory");
        goto done;
    }
    /* -context: every file the suite writes records the pairs */
    for (size_t i = 0; i < o->context.n; ++i)
        if (fb_set_context(suite, o->context.key[i], o->context.value[i]) != FB_OK) {
            status = fb__opts_error("-context: out of memory");
            goto done;
        }
    size_t ran = 0;
    bool interrupted = false;
    /* -repetitions runs the selection in passes, each in a
     * fresh random order (src/outputs/passes.c); one pass keeps the registry order */
    size_t n_sel = 0;
    while (sel[n_sel]) ++n_sel;
    unsigned passes = o->repetitions ? o->repetitions : 1;
    order = malloc(n_sel * sizeof *order);
    /* families within passes: where each instance's results start and end
     * in the suite, and the pass it last ran in, so that a family's fit is
     * written once all its instances ran in the pass, whatever the order */
    res_lo = malloc((n_sel + 1) * 3 * sizeof *res_lo);
    if (!order || !res_lo) {
        status = fb__opts_error("out of memory");
        goto done;
    }
    size_t *res_hi = res_lo + n_sel + 1, *ran_in = res_hi + n_sel + 1;
    /* the status line on a terminal (src/runner/progress.c), erased before rows */
    fb__progress prog;
    fb__progress_init(&prog, stderr, n_sel * passes,
                      !o->quiet && !o->sanity && isatty(2) && !fb__process_endless());
    table.before_row = fb__progress_clear;
    table.before_row_ctx = &prog;
    for (size_t k = 0; k < n_sel; ++k) ran_in[k] = SIZE_MAX;
    /* -repetitions: each pass a fresh process (src/runner/passes_exec.c), unless
     * this process is one of them (it runs its one pass), under Valgrind
     * (exact counts: passes add nothing, and a new process would not be
     * counted) or in endless mode (in-process passes) */
    unsigned my_pass = 0, all_passes = 0;
    int pass_fd = fb__process_pass_child(&my_pass, &all_passes);
    bool exec_passes = FB_HAVE_POSIX && pass_fd < 0 && passes > 1 && !fb__process_endless() &&
                       !fb__process_callgrind()->on && !o->sanity;
    unsigned first_pass = pass_fd >= 0 ? my_pass : 0;
    unsigned order_passes = pass_fd >= 0 ? all_passes : passes;
    unsigned run_passes = pass_fd >= 0 ? 1 : exec_passes ? 0 : passes;
    if (exec_passes) {
        fb__runner_pass_ctx pc = {&collector};
        char pwhy[512];
        if (fb__passes_exec(argc, argv, passes, suite, fb__runner_pass_bench, &pc, tout,
                            &interrupted, pwhy, sizeof pwhy) != FB_OK) {
            fb__opts_error("%s", pwhy);
            status = 1;
        }
        ran = n_sel * passes;
    }
    for (size_t step = 0; step < n_sel * run_passes && !interrupted; ++step) {
        unsigned pass = first_pass + (unsigned)(step / n_sel);
        if (step % n_sel == 0) fb__passes_order(order, n_sel, pass, order_passes);
        size_t i = order[step % n_sel];
        fb__progress_step(&prog, step, sel[i]->name);
        fb_bench *b = fb_bench_new();
        if (!b || fb__bench_add_sink(b, fb__collector_sink, &collector) != FB_OK ||
            fb__bench_add_comparison_sink(b, fb__collector_cmp_sink, &collector) != FB_OK) {
            fb_bench_free(b);
            status = fb__opts_error("out of memory");
            break;
        }
        table.out = suite_out;
        fb__bench_share_table(b, &table);
        /* one pass of a parent's -repetitions: every result goes back to it */
        if (pass_fd >= 0 &&
            (fb__bench_add_sink(b, fb__passes_exec_sink, &pass_fd) != FB_OK ||
             fb__bench_sink_amend(b, fb__passes_exec_sink, fb__passes_exec_amend) != FB_OK ||
             fb__bench_add_comparison_sink(b, fb__passes_exec_cmp_sink, &pass_fd) != FB_OK)) {
            fb_bench_free(b);
            status = fb__opts_error("out of memory");
            break;
        }
        fb__runner_configure(b, o);
        fb__bench_set_pass(b, pass);
        (void)fb__bench_set_name(b, sel[i]->name); /* FB_RUN(b, NULL) runs under it */
        /* the instance's argument (fb_arg), and where its family starts */
        if (sel[i]->has_arg) fb__bench_set_args(b, sel[i]->args, sel[i]->n_args);
        const fb__port_reg *port = fb__instance_port_family(sel[i]);
        if (port && fb__bench_set_family(b, port->family, port->family_id, port->model) != FB_OK) {
            fb_bench_free(b);
            status = fb__opts_error("out of memory");
            break;
        }
        res_lo[i] = fb_result_count(suite);
        fb__runner_job job = {o, sel[i], false};
        if (o->isolate && !fb__process_endless()) { /* crash isolation */
            char iwhy[320];
            bool intr = false;
            if (fb__isolate_run(b, sel[i]->name, o->timeout_s, fb__runner_body, &job, &intr, iwhy,
                                sizeof iwhy) != FB_OK) {
                fb__runner_line("femtobench: error: ", iwhy, "");
                ++collector.failed;
            }
            if (fb__bench_dropped(b)) { /* a result the parent could not store */
                fb__runner_line("femtobench: error: ", sel[i]->name,
                                ": a result was lost (out of memory)");
                ++collector.failed;
            }
            if (intr) fb__bench_set_interrupted(b);
        } else {
            fb__runner_current = sel[i]->name;
            fb__runner_body(b, &job);
            fb__runner_current = NULL;
        }
        fb__progress_clear(&prog); /* before anything else is printed */
        if (job.unreported) ++collector.failed;
        interrupted = fb__bench_interrupted(b);
        ++ran;
        size_t n_res;
        const fb_result *const *res = fb__bench_results(b, &n_res);
        for (size_t r = 0; r < n_res && !status; ++r) /* dashboards' limits */
            if (fb__select_bad_name(res[r]->name))
                status =
                    fb__opts_error("%s: a run's name '%.40s' %s; nothing written", sel[i]->name,
                                   res[r]->name, fb__select_bad_name(res[r]->name));
        for (size_t c = 0; c < fb_comparison_count(b) && !status; ++c) /* ... and alternatives' */
            for (size_t a = 0; a < fb_comparison_size(fb_comparison_at(b, c)) && !status; ++a) {
                const fb_comparison *cmp = fb_comparison_at(b, c);
                const char *an = fb_comparison_name(cmp, a);
                if (fb__select_bad_name(an))
                    status = fb__opts_error(
                        "%s: comparison '%.40s': an alternative's name '%.40s' %s; nothing "
                        "written",
                        sel[i]->name, fb_comparison_title(cmp), an ? an : "",
                        fb__select_bad_name(an));
            }
        if (o->n_asymptote && !o->sanity && !interrupted &&
            !(fb__instance_in_family(sel[i]) &&
              !fb__fit_alone(res, n_res))) { /* else with its family */
            /* one fit per name the benchmark ran (usually just one) */
            for (size_t f = 0; f < fb__bench_fit_count(b); ++f) {
                fputc('\n', tout);
                fb__write_fit_set(fb__bench_fit_at(b, f), tout);
            }
            fputc('\n', tout);
            fb__table_restart(&table); /* the next table starts with a header */
        }
        fb__bench_take_results(suite, b);
        fb__bench_take_comparisons(suite, b); /* src/run/compare.c */
        fb_bench_free(b);
        res_hi[i] = fb_result_count(suite);
        ran_in[i] = pass;
        if (status) break;
        /* after a family's last instance (in this pass),
         * the fit over the family when its instances set N
         * (docs/complexity.md, "Families") */
        if (fb__instance_in_family(sel[i]) && !o->sanity && !interrupted) {
            size_t fa = i, fz = i + 1, n_fam = 0;
            while (fa > 0 && fb__instance_same_family(sel[i], sel[fa - 1])) --fa;
            while (sel[fz] && fb__instance_same_family(sel[i], sel[fz])) ++fz;
            bool all_ran = true;
            for (size_t k = fa; k < fz; ++k) {
                all_ran = all_ran && ran_in[k] == pass;
                if (ran_in[k] == pass) n_fam += res_hi[k] - res_lo[k];
            }
            const fb_result **fam = all_ran ? malloc((n_fam + 1) * sizeof *fam) : NULL;
            if (all_ran && !fam) {
                status = fb__opts_error("out of memory");
                break;
            }
            size_t m = 0;
            for (size_t k = fa; fam && k < fz; ++k) /* in the family's order */
                for (size_t x = res_lo[k]; x < res_hi[k]; ++x) fam[m++] = fb_result_at(suite, x);
            /* stored once with the suite's results (src/handle/bench_fits.c),
             * then printed; the files read the same stored fit */
            if (fam && fb__fit_store_results(suite, fam, m) != FB_OK) {
                free((void *)fam);
                status = fb__opts_error("out of memory");
                break;
            }
            if (fam && fb__write_family_fits(suite, fam, m, tout)) {
                fputc('\n', tout);
                fb__table_restart(&table); /* the next table starts with a header */
            }
            free((void *)fam);
        }
    }
    fb__progress_clear(&prog);
    table.before_row = NULL;
    /* every pass's results are in: their series over passes is computed
     * once and kept with the suite (src/outputs/passes.c); the summary below and
     * every writer read it */
    if (pass_fd < 0 && !status && fb__passes_finish(suite) != FB_OK)
        status = fb__opts_error("out of memory");
    if (pass_fd >= 0) { /* a pass process: the parent reports and writes the files */
        if (!status || interrupted) fb__passes_exec_end(pass_fd, interrupted);
        status = interrupted ? 130 : status ? status : collector.failed ? 1 : 0;
        goto done;
    }
    /* what err% is and is not, once after the suite's table (not under
     * -quiet, which keeps the table alone) */
    if (!interrupted && !o->sanity && !o->quiet && !status && suite_out)
        fb__md_err_legend(suite_out, suite);
    if (passes > 1 && !interrupted && !o->sanity && !status) {
        fprintf(tout,
                "\nOver %u passes (median of the passes' medians; between passes: the next "
                "process is expected within this %% of it, half the time):\n",
                passes);
        fb__write_passes(suite, tout);
    }
    if (interrupted) {
        fprintf(stderr, "femtobench: interrupted%s\n",
                fb__outputs_any(&o->outs) ? "; no output file written" : "");
        status = 130;
    } else if (!status) {
        if (o->sanity)
            fprintf(stderr, "femtobench: sanity check: %zu benchmark%s ran, %zu failed\n", ran,
                    ran == 1 ? "" : "s", collector.failed);
        /* the results are complete: every family's fit not stored yet (the
         * passes of -repetitions ran in other processes) is stored before
         * any output reads it (src/handle/bench_fits.c) */
        if (o->sanity) /* one iteration per N fits nothing: no fit in any file */
            fb__bench_drop_fits(suite, "-sanity_check runs each benchmark once per N (one "
                                       "iteration), too little to fit");
        else if (fb__fit_store_families(suite) != FB_OK)
            status = fb__opts_error("out of memory");
        /* the change table after the ordinary one (src/outputs/report_change.c) */
        size_t counts[FB__V_COUNT] = {0};
        int cerr = 0, berr = 0;
        if (o->baseline && !o->sanity && fb__process_callgrind()->exact) {
            /* counted: read only now (src/runner/selection.c says why) */
            char why[1024];
            if (fb__baseline_load(o->baseline, &o->base, why, sizeof why))
                berr = fb__opts_error("-baseline=%s: %s", o->baseline, why);
            else if (o->base.ctx.files_differ[0])
                fb__runner_line(
                    "femtobench: warning: the -baseline files disagree about the machine: ",
                    o->base.ctx.files_differ, "");
        }
        if (o->baseline && !o->sanity && !berr) {
            fputc('\n', tout);
            double t = o->threshold_pct >= 0 ? o->threshold_pct : FB__CHANGE_DEFAULT_THRESHOLD_PCT;
            /* kept with the suite: the HTML report draws it */
            fb__change_view *change = fb__change_view_new();
            cerr = !change || fb__change_against(tout, &o->base, suite, t, counts, change) ? 1 : 0;
            fb__bench_set_change(suite, change);
            if (cerr) fb__opts_error("out of memory");
        }
        /* a baseline that shares no benchmark with the run compared nothing:
         * said, and a -fail_on_slower gate fails on it */
        bool none = false;
        if (o->baseline && !o->sanity && !cerr && !berr) {
            size_t total = 0;
            for (int v = 0; v < FB__V_COUNT; ++v) total += counts[v];
            none = counts[FB__V_NEW] + counts[FB__V_GONE] == total;
            if (none)
                fprintf(stderr,
                        "femtobench: warning: no benchmark in common with the baseline: nothing "
                        "was compared%s\n",
                        o->fail_on_slower ? " (-fail_on_slower: exit status 3)" : "");
        }
        int werr = fb__runner_write(o, suite); /* all together */
        status = werr || cerr ? 1 : collector.failed ? 1 : 0;
        if (collector.misused) /* bad input, given through the API (src/handle/misuse.h) */
            status = fb__opts_error("%zu benchmark run%s refused a bad argument to the API (see "
                                    "the error rows)",
                                    collector.misused, collector.misused == 1 ? "" : "s");
        if (!status && o->fail_on_slower && (counts[FB__V_SLOWER] || none)) status = 3;
        if (berr) status = berr;
    }
done:
    free(order);
    free(res_lo);
    fb_bench_free(suite);
    return status;
}

int fb_main(int argc, char **argv) {
    fb__opts o;
    fb__opts_init(&o);
    fb__instance **sel = NULL;
    int rc = fb__select(argc, argv, &o, &sel);
    if (rc < 0) { /* -help, -version: done */
        rc = 0;
    } else if (rc) { /* bad input: said */
    } else if (o.list) {
        for (size_t i = 0; sel[i]; ++i) { /* a name with a line break stays one line */
            fb__put_line(stdout, sel[i]->name);
            putchar('\n');
        }
    } else if (o.valgrind) { /* the same options again, in a child under Callgrind */
        rc = fb__vg_runner_exec(argc, argv, o.valgrind == 2);
    } else {
        static bool at_exit_set;
        if (!at_exit_set) at_exit_set = atexit(fb__runner_at_exit) == 0; /* else unguarded */
        rc = fb__runner_suite(argc, argv, &o, sel);
    }
    fb__instances_free(sel);
    fb__opts_free(&o);
    return rc;
}
