/* The suite runner: registry, command line, orchestration (fb_main).
 * It measures nothing itself: each benchmark gets a fresh fb_bench. */
#include "bench.h"
#include "cli_check.h"
#include "filter.h"
#include "isolate.h"
#include "outfile.h"
#include "passes.h"
#include "passes_exec.h"
#include "plugin.h"
#include "process.h"
#include "registry.h" /* families expanded into instances */
#include "report_passes.h"
#include "report.h"
#include "numfmt.h"  /* locale-independent numbers */
#include "options.h" /* the command line */
#include "setup.h"
#include "text.h"
#include "valgrind.h" /* -valgrind */
#include "misuse.h"   /* error rows made by a bad API argument */
#include "context.h"  /* -context */
#include "progress.h" /* the status line on a terminal */

#include "change.h" /* -baseline, -threshold, -fail_on_slower */

#include <stdarg.h>

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Applies the command line to a fresh bench: it wins over code and env. */
static void fb__runner_configure(fb_bench *b, const fb__opts *o) {
    /* Google Benchmark's flags; -sanity_check below wins */
    if (o->epochs > 0) fb__cfg_set(b, FB__LAYER_CLI, FB__K_EPOCHS, o->epochs);
    if (o->min_epoch_time_s >= 0)
        fb__cfg_set(b, FB__LAYER_CLI, FB__K_MIN_EPOCH_TIME, o->min_epoch_time_s);
    if (o->epoch_iterations > 0)
        fb__cfg_set(b, FB__LAYER_CLI, FB__K_EPOCH_ITERATIONS, o->epoch_iterations);
    if (o->sanity) {
        fb__cfg_set(b, FB__LAYER_CLI, FB__K_EPOCHS, 1);
        fb__cfg_set(b, FB__LAYER_CLI, FB__K_EPOCH_ITERATIONS, 1);
        fb__cfg_set(b, FB__LAYER_CLI, FB__K_WARMUP, 0);
        /* a family instance in a pass: exactly one epoch (one setup/teardown),
         * so no disturbed epoch replaced and no probe re-measurement */
        b->disturb_set = b->probe_set = true;
        b->disturb = NULL;
        b->probe = NULL;
    }
    /* spread over the epochs when the run starts, after the benchmark's own
     * fb_set_epochs (src/run.c) */
    if (o->min_time_ms >= 0) b->cfg.min_time_s = o->min_time_ms * 1e-3;
}

/* The runner's collector, a sink: counts the failed results and, in a
 * sanity check (no table), names each failure on stderr. */
typedef struct fb__collector {
    bool sanity;
    size_t failed;
    size_t misused; /* error rows made by a bad API argument (src/misuse.h) */
} fb__collector;

static void fb__collector_sink(void *ctx, const fb_bench *b, const fb_result *r) {
    fb__collector *c = ctx;
    (void)b;
    if (!fb_result_error(r)) return;
    ++c->failed;
    if (fb__result_misuse(r)) ++c->misused;
    if (c->sanity) fprintf(stderr, "femtobench: %s: %s\n", fb_result_name(r), fb_result_error(r));
}

/* Its comparison sink: a comparison's error rows fail the benchmark like a
 * run's (src/compare.c). */
static void fb__collector_cmp_sink(void *ctx, const fb_bench *b, const fb_comparison *cmp) {
    fb__collector *c = ctx;
    (void)b;
    for (size_t a = 0; a < fb_comparison_size(cmp); ++a) {
        const fb_result *r = fb_comparison_result(cmp, a);
        if (!fb_result_error(r)) continue;
        ++c->failed;
        if (c->sanity)
            fprintf(stderr, "femtobench: %s/%s: %s\n", fb_comparison_title(cmp), fb_result_name(r),
                    fb_result_error(r));
    }
}

/* A pass of -repetitions run in its own process: the bench its results
 * are published to in this process. The pass process prints the table and
 * names failures itself, so here only the collector counts them. */
typedef struct fb__runner_pass_ctx {
    fb__collector *collector;
} fb__runner_pass_ctx;

static fb_bench *fb__runner_pass_bench(void *ctx, unsigned pass) {
    fb__runner_pass_ctx *pc = ctx;
    (void)pass;
    fb_bench *b = fb_bench_new();
    if (b) b->n_sinks = 0; /* no live table of its own: the pass printed its rows */
    if (b && fb__bench_add_sink(b, fb__collector_sink, pc->collector) != FB_OK) {
        fb_bench_free(b);
        return NULL;
    }
    return b;
}

/* The Google Benchmark JSON writer of each row layout (FB_GBENCH_*). */
static int fb__runner_gb_median(const fb_bench *b, FILE *f) {
    return fb_write_gbench_json_rows(b, f, FB_GBENCH_MEDIAN);
}
static int fb__runner_gb_repetitions(const fb_bench *b, FILE *f) {
    return fb_write_gbench_json_rows(b, f, FB_GBENCH_REPETITIONS);
}
static int fb__runner_gb_aggregates(const fb_bench *b, FILE *f) {
    return fb_write_gbench_json_rows(b, f, FB_GBENCH_AGGREGATES);
}

/* Names that dashboards refuse: Bencher's benchmark names are 1 to 1024
 * bytes. NULL when fine, else what is wrong. */
static const char *fb__runner_bad_name(const char *name) {
    if (!name || !*name) return "is empty";
    if (strlen(name) > 1024) return "is longer than 1024 bytes (dashboards refuse it)";
    return NULL;
}

/* One benchmark: its rounds, then nothing silently dropped: a
 * run that recorded nothing, or under -sanity_check a body that never
 * reached FB_RUN / fb_run / FB_COMPARE / fb_compare, is an error row (a
 * comparison counts as a measurement: it is stored in b->comparisons). Runs in-process or in
 * -isolate's child (src/isolate.c). */
typedef struct fb__runner_job {
    const fb__opts *o;
    const fb__instance *inst; /* a benchmark, or one instance of a family */
    bool unreported;          /* an error row could not be made (out of memory) */
} fb__runner_job;

static void fb__runner_group_body(fb_bench *b, void *ctx) {
    ((const fb__instance *)ctx)->reg->fn(b);
}

/* An instance of FB_BENCHMARK_THREADS (src/group.c); a group that could
 * not start (out of memory, no threads in this build) is a run that
 * recorded nothing: an error row. */
static void fb__runner_threads(fb_bench *b, const fb__instance *in) {
    int rc = fb_run_threads(b, in->threads, fb__runner_group_body, (void *)(uintptr_t)in);
    if (rc != FB_OK) {
        ++b->dropped;
        fb__bench_diag(b, "'%s' not run: %s", in->name, fb_strerror(rc));
    }
}

static void fb__runner_body(fb_bench *b, void *ctx) {
    fb__runner_job *job = ctx;
    const fb__opts *o = job->o;
    size_t rounds = o->n_asymptote ? o->n_asymptote : 1;
    for (size_t r = 0; r < rounds && !b->interrupted; ++r) {
        if (o->n_asymptote) fb_set_complexity_n(b, o->asymptote[r]);
        if (job->inst->threads) /* FB_BENCHMARK_THREADS: the body on a group of threads */
            fb__runner_threads(b, job->inst);
        else
            job->inst->reg->fn(b);
    }
    if (b->interrupted) return;
    char msg[160];
    if (b->dropped)
        snprintf(msg, sizeof msg, "%zu run%s recorded nothing (see the diagnostics above)",
                 b->dropped, b->dropped == 1 ? "" : "s");
    else if (o->sanity && b->n_results == 0 && b->n_comparisons == 0)
        snprintf(msg, sizeof msg,
                 "measured nothing: the benchmark never reached FB_RUN, fb_run or a comparison");
    else
        return;
    if (fb__bench_error_row(b, job->inst->name, msg) != FB_OK) {
        fprintf(stderr, "femtobench: error: %s: %s\n", job->inst->name, msg);
        job->unreported = true;
        if (b->n_sinks == 1 && o->isolate) _exit(1); /* -isolate's child: the parent says it */
    }
}

static int fb__runner_write(const fb__opts *o, const fb__outfile_job *jobs, size_t n,
                            const fb_bench *suite) {
    char err[1024];
    if (!n) return 0;
    if (fb__outfile_write_set(jobs, n, suite, err, sizeof err) != FB_OK) {
        fprintf(stderr, "femtobench: error: %s\n", err);
        return 1;
    }
    for (size_t i = 0; i < n; ++i) {
        if (fb__outfile_fd_of(jobs[i].path) >= 0) continue;
        const char *shown = jobs[i].path; /* the path as given, not as pinned */
        for (int k = 0; k < 4; ++k)
            if (o->pinned[k] && !strcmp(jobs[i].option, fb__opts_out_name(k))) shown = o->shown[k];
        fprintf(stderr, "femtobench: wrote '%s'\n", shown);
    }
    return 0;
}

/* The outputs asked for, as a set for src/outfile.c. */
static size_t fb__runner_jobs(const fb__opts *o, fb__outfile_job *jobs) {
    size_t n = 0;
    /* the Google Benchmark JSON in the row layout asked for */
    fb__writer_fn gb = o->gb_rows == FB_GBENCH_REPETITIONS  ? fb__runner_gb_repetitions
                       : o->gb_rows == FB_GBENCH_AGGREGATES ? fb__runner_gb_aggregates
                                                            : fb__runner_gb_median;
    if (o->out_csv) jobs[n++] = (fb__outfile_job){"output_csv", o->out_csv, fb_write_csv, 0, 0};
    if (o->out_json) jobs[n++] = (fb__outfile_job){"output_json", o->out_json, fb_write_json, 0, 0};
    if (o->out_gbench) jobs[n++] = (fb__outfile_job){"output_gbench", o->out_gbench, gb, 0, 0};
    if (o->out_html) jobs[n++] = (fb__outfile_job){"output_html", o->out_html, fb_write_html, 0, 0};
    if (o->gb_stdout) jobs[n++] = (fb__outfile_job){"benchmark_format=json", "-", gb, 0, 0};
    if (o->out_bmf) jobs[n++] = (fb__outfile_job){"output_bmf", o->out_bmf, fb_write_bmf, 0, 0};
    return n;
}

/* The table goes to stdout, or to stderr when an output is stdout ("-",
 * /dev/stdout, /proc/self/fd/1, a link to one of them). */
static int fb__runner_table_fd(const fb__outfile_job *jobs, size_t n) {
    for (size_t i = 0; i < n; ++i)
        if (fb__outfile_fd_of(jobs[i].path) == 1) return 2;
    return 1;
}

static int fb__runner(int argc, char **argv, fb__opts *o, fb__instance ***sel_out) {
    int rc = fb__opts_parse(argc, argv, o);
    if (rc) return rc;
    if (fb__process_config_errors() && !o->help) {
        /* the bad entries, then the one error line: bad input, like a bad option */
        fb__process_config_report(stderr);
        return fb__opts_error("FEMTOBENCH_CONFIG: %d bad entr%s (see above); nothing was run",
                              fb__process_config_errors(),
                              fb__process_config_errors() == 1 ? "y" : "ies");
    }
    if (o->help) {
        fb__opts_help(stdout, argc > 0 ? argv[0] : "femtobench");
        return -1;
    }
    if (o->version) {
        /* through the plugin entry point: a suite linked from the static
         * library then always carries it (femtobench-ab, docs/ab.md) */
        const fb__plugin_api *api = fb__plugin_entry();
        printf("femtobench %s (plugin interface %u)\n", api->version, api->abi);
        return -1;
    }
    /* Google Benchmark flags that change nothing here: said, not refused */
    for (size_t i = 0; i < o->n_gb_notes && !o->quiet; ++i)
        fprintf(stderr, "femtobench: note: --%s %s\n", o->gb_notes[i],
                fb__opts_help_of(o->gb_notes[i]));
    /* the Google Benchmark JSON layout: -gbench_rows, else GB's flags */
    if (o->gb_rows < 0)
        o->gb_rows = o->gb_aggregates_only == 1                    ? FB_GBENCH_AGGREGATES
                     : o->gb_aggregates_only == 0 || o->epochs > 0 ? FB_GBENCH_REPETITIONS
                                                                   : FB_GBENCH_MEDIAN;
    /* everything registered, families expanded into instances ("fn/arg"),
     * sorted by name, bad registrations and duplicates refused (registry.c) */
    fb__instance **all;
    char why_reg[512];
    if (fb__registry_expand(fb__process_registry(), &all, why_reg, sizeof why_reg) != FB_OK)
        return fb__opts_error("%s", why_reg);
    *sel_out = all;
    size_t n = 0;
    while (all[n]) ++n;
    for (size_t i = 0; i < n; ++i)
        if (fb__runner_bad_name(all[i]->name))
            return fb__opts_error("benchmark name '%.40s...' %s", all[i]->name,
                                  fb__runner_bad_name(all[i]->name));

    const char *filter = o->filter ? o->filter : ".*";
    /* bounded, compiled and matched in a child, anchored by the
     * match's offsets (src/filter.c); an instance is selected by its own name
     * or its family's; --benchmark_filter matches anywhere (GB) */
    unsigned char *hit = calloc(2 * n + 1, 1);
    const char **fnames = calloc(2 * n + 1, sizeof *fnames);
    char fwhy[320];
    if (!hit || !fnames) {
        free(hit);
        free(fnames);
        return fb__opts_error("out of memory");
    }
    for (size_t i = 0; i < n; ++i) {
        fnames[i] = all[i]->name;
        fnames[n + i] = all[i]->has_arg || all[i]->threads ? all[i]->reg->name : all[i]->name;
    }
    int bad_filter =
        fb__filter_select_mode(filter, fnames, 2 * n, hit, o->filter_search, fwhy, sizeof fwhy);
    free(fnames);
    if (bad_filter) {
        free(hit);
        const char *opt = o->filter_search ? "benchmark_filter" : "filter";
        if (strlen(filter) > 64) return fb__opts_error("-%s=%.60s...: %s", opt, filter, fwhy);
        return fb__opts_error("-%s=%s: %s", opt, filter, fwhy);
    }
    size_t k = 0;
    for (size_t i = 0; i < n; ++i)
        if ((hit[i] || hit[n + i]) != o->filter_negate)
            all[k++] = all[i];
        else
            fb__instance_free(all[i]);
    free(hit);
    all[k] = NULL;
    if (k == 0) {
        if (o->filter)
            return fb__opts_error("-%s=%s%s selects no benchmark (see -list)",
                                  o->filter_search ? "benchmark_filter" : "filter",
                                  o->filter_negate ? "-" : "", filter);
        return fb__opts_error("no benchmark is registered");
    }

    /* the outputs as one set (src/outfile.c): each writable, no
     * two the same file, none the file the table goes to */
    fb__outfile_job jobs[FB__OUTFILE_MAX_SET];
    size_t n_jobs = fb__runner_jobs(o, jobs);
    int table_fd = o->sanity ? -1 : fb__runner_table_fd(jobs, n_jobs);
    char why[1024];
    if (fb__outfile_check_set(jobs, n_jobs, table_fd, why, sizeof why) != FB_OK)
        return fb__opts_error("%s", why);
    if (o->isolate && fb__isolate_check(why, sizeof why) != FB_OK) /* Windows: no fork */
        return fb__opts_error("%s: %s", o->timeout_s > 0 ? "-timeout" : "-isolate", why);
    if (o->valgrind) { /* -valgrind: what cannot work is refused before anything runs */
        const char *opt = o->valgrind == 2 ? "-valgrind=cache" : "-valgrind";
        if (o->sanity) return fb__opts_error("%s and -sanity_check do not go together", opt);
        if (o->min_time_ms >= 0)
            return fb__opts_error("-min_time: has no effect with %s (it counts, it does not "
                                  "time)",
                                  opt);
        if (fb__process_endless())
            return fb__opts_error("%s: FEMTOBENCH_ENDLESS is set (an endless run never ends "
                                  "under Valgrind either)",
                                  opt);
        if (fb__vg_runner_check(why, sizeof why) != FB_OK)
            return fb__opts_error("%s: %s", opt, why);
    }
    /* the baseline is read and fully checked before anything runs */
    if (!o->baseline && o->threshold_pct >= 0)
        return fb__opts_error("-threshold needs -baseline=<file>");
    if (!o->baseline && o->fail_on_slower)
        return fb__opts_error("-fail_on_slower needs -baseline=<file>");
    if (o->baseline) {
        for (size_t i = 0; i < n_jobs; ++i) /* never the file it compares with */
            if (fb__outfile_not_input(jobs[i].path, o->baseline, why, sizeof why) != FB_OK)
                return fb__opts_error("-%s=%s: %s", jobs[i].option, jobs[i].path, why);
        if (fb__baseline_load(o->baseline, &o->base, why, sizeof why))
            return fb__opts_error("-baseline=%s: %s", o->baseline, why);
    }
    /* each output pinned to where it was checked: a benchmark that calls
     * chdir() moves nothing (src/outfile.c) */
    const char **outs[4] = {&o->out_csv, &o->out_json, &o->out_gbench, &o->out_html};
    for (int i = 0; i < 4; ++i) {
        if (!*outs[i]) continue;
        if (fb__outfile_pin(*outs[i], &o->pinned[i], why, sizeof why) != FB_OK)
            return fb__opts_error("-%s=%s: %s", fb__opts_out_name(i), *outs[i], why);
        o->shown[i] = *outs[i];
        *outs[i] = o->pinned[i];
    }
    return 0;
}

/* Runs the selected benchmarks (each pass, each instance in a fresh bench)
 * and writes the tables and files: fb_main's work once the options are
 * read. One exit path frees what it made. */
static int fb__runner_suite(int argc, char **argv, fb__opts *o, fb__instance **sel) {
    if (o->quiet) fb__process_set_quiet(true);
    fb__outfile_job jobs[FB__OUTFILE_MAX_SET];
    size_t n_jobs = fb__runner_jobs(o, jobs);
    bool to_stdout = fb__runner_table_fd(jobs, n_jobs) == 2;
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
     * fresh random order (src/passes.c); one pass keeps the registry order */
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
    /* the status line on a terminal (src/progress.c), erased before rows */
    fb__progress prog;
    fb__progress_init(&prog, stderr, n_sel * passes,
                      !o->quiet && !o->sanity && isatty(2) && !fb__process_endless());
    table.before_row = fb__progress_clear;
    table.before_row_ctx = &prog;
    for (size_t k = 0; k < n_sel; ++k) ran_in[k] = SIZE_MAX;
    /* -repetitions: each pass a fresh process (src/passes_exec.c), unless
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
        if (pass_fd >= 0 && fb__bench_add_sink(b, fb__passes_exec_sink, &pass_fd) != FB_OK) {
            fb_bench_free(b);
            status = fb__opts_error("out of memory");
            break;
        }
        fb__runner_configure(b, o);
        b->cfg.pass = pass;
        b->name = fb__strdup(sel[i]->name); /* FB_RUN(b, NULL) runs under it */
        /* the instance's argument (fb_arg), and where its family starts */
        if (sel[i]->has_arg) fb__bench_set_args(b, sel[i]->args, sel[i]->n_args);
        res_lo[i] = suite->n_results;
        fb__runner_job job = {o, sel[i], false};
        if (o->isolate && !fb__process_endless()) { /* crash isolation */
            char iwhy[320];
            bool intr = false;
            if (fb__isolate_run(b, sel[i]->name, o->timeout_s, fb__runner_body, &job, &intr, iwhy,
                                sizeof iwhy) != FB_OK) {
                fprintf(stderr, "femtobench: error: %s\n", iwhy);
                ++collector.failed;
            }
            if (b->dropped) { /* a result the parent could not store */
                fprintf(stderr, "femtobench: error: %s: a result was lost (out of memory)\n",
                        sel[i]->name);
                ++collector.failed;
            }
            b->interrupted = b->interrupted || intr;
        } else {
            fb__runner_body(b, &job);
        }
        fb__progress_clear(&prog); /* before anything else is printed */
        if (job.unreported) ++collector.failed;
        interrupted = b->interrupted;
        ++ran;
        for (size_t r = 0; r < b->n_results && !status; ++r) /* dashboards' limits */
            if (fb__runner_bad_name(b->results[r]->name))
                status =
                    fb__opts_error("%s: a run's name '%.40s' %s; nothing written", sel[i]->name,
                                   b->results[r]->name, fb__runner_bad_name(b->results[r]->name));
        for (size_t c = 0; c < b->n_comparisons && !status; ++c) /* ... and alternatives' */
            for (size_t a = 0; a < fb_comparison_size(b->comparisons[c]) && !status; ++a) {
                const char *an = fb_comparison_name(b->comparisons[c], a);
                if (fb__runner_bad_name(an))
                    status = fb__opts_error(
                        "%s: comparison '%.40s': an alternative's name '%.40s' %s; nothing "
                        "written",
                        sel[i]->name, fb_comparison_title(b->comparisons[c]), an ? an : "",
                        fb__runner_bad_name(an));
            }
        if (o->n_asymptote && !o->sanity && !interrupted &&
            !(sel[i]->has_arg && !fb__fit_alone((const fb_result *const *)b->results,
                                                b->n_results))) { /* else with its family */
            /* one fit per name the benchmark ran (usually just one) */
            for (size_t f = 0; f < b->n_fits; ++f) {
                fputc('\n', tout);
                fb__write_fit_set(&b->fits[f], tout);
            }
            fputc('\n', tout);
            fb__table_restart(&table); /* the next table starts with a header */
        }
        fb__bench_take_results(suite, b);
        fb__bench_take_comparisons(suite, b); /* src/compare.c */
        fb_bench_free(b);
        res_hi[i] = suite->n_results;
        ran_in[i] = pass;
        if (status) break;
        /* after a family's last instance (in this pass),
         * the fit over the family when its instances set N
         * (docs/complexity.md, "Families") */
        if (sel[i]->has_arg && !o->sanity && !interrupted) {
            size_t fa = i, fz = i + 1, n_fam = 0;
            while (fa > 0 && sel[fa - 1]->reg == sel[i]->reg) --fa;
            while (sel[fz] && sel[fz]->reg == sel[i]->reg) ++fz;
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
                for (size_t x = res_lo[k]; x < res_hi[k]; ++x) fam[m++] = suite->results[x];
            if (fam && fb__family_write_fits(fam, m, tout)) {
                fputc('\n', tout);
                fb__table_restart(&table); /* the next table starts with a header */
            }
            free((void *)fam);
        }
    }
    fb__progress_clear(&prog);
    table.before_row = NULL;
    if (pass_fd >= 0) { /* a pass process: the parent reports and writes the files */
        if (!status || interrupted) fb__passes_exec_end(pass_fd, interrupted);
        status = interrupted ? 130 : status ? status : collector.failed ? 1 : 0;
        goto done;
    }
    if (passes > 1 && !interrupted && !o->sanity && !status) {
        fprintf(tout,
                "\nOver %u passes (median of the passes' medians; between passes: the next "
                "process is expected within this %% of it, half the time):\n",
                passes);
        fb__write_passes(suite, tout);
    }
    if (interrupted) {
        fprintf(stderr, "femtobench: interrupted%s\n",
                o->out_csv || o->out_json || o->out_gbench || o->out_html || o->gb_stdout ||
                        o->out_bmf
                    ? "; no output file written"
                    : "");
        status = 130;
    } else if (!status) {
        if (o->sanity)
            fprintf(stderr, "femtobench: sanity check: %zu benchmark%s ran, %zu failed\n", ran,
                    ran == 1 ? "" : "s", collector.failed);
        /* the change table after the ordinary one (src/report_change.c) */
        size_t counts[FB__V_COUNT] = {0};
        int cerr = 0;
        if (o->baseline && !o->sanity) {
            fputc('\n', tout);
            double t = o->threshold_pct >= 0 ? o->threshold_pct : FB__CHANGE_DEFAULT_THRESHOLD_PCT;
            /* kept with the suite: the HTML report draws it */
            suite->change = calloc(1, sizeof *suite->change);
            cerr = !suite->change ||
                           fb__change_against(tout, &o->base, suite, t, counts, suite->change)
                       ? 1
                       : 0;
            if (cerr) fb__opts_error("out of memory");
        }
        /* a baseline that shares no benchmark with the run compared nothing:
         * said, and a -fail_on_slower gate fails on it */
        bool none = false;
        if (o->baseline && !o->sanity && !cerr) {
            size_t total = 0;
            for (int v = 0; v < FB__V_COUNT; ++v) total += counts[v];
            none = counts[FB__V_NEW] + counts[FB__V_GONE] == total;
            if (none)
                fprintf(stderr,
                        "femtobench: warning: no benchmark in common with the baseline: nothing "
                        "was compared%s\n",
                        o->fail_on_slower ? " (-fail_on_slower: exit status 3)" : "");
        }
        int werr = fb__runner_write(o, jobs, n_jobs, suite); /* all together */
        status = werr || cerr ? 1 : collector.failed ? 1 : 0;
        if (collector.misused) /* bad input, given through the API (src/misuse.h) */
            status = fb__opts_error("%zu benchmark run%s refused a bad argument to the API (see "
                                    "the error rows)",
                                    collector.misused, collector.misused == 1 ? "" : "s");
        if (!status && o->fail_on_slower && (counts[FB__V_SLOWER] || none)) status = 3;
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
    int rc = fb__runner(argc, argv, &o, &sel);
    if (rc < 0) { /* -help, -version: done */
        rc = 0;
    } else if (rc) { /* bad input: said */
    } else if (o.list) {
        for (size_t i = 0; sel[i]; ++i) printf("%s\n", sel[i]->name);
    } else if (o.valgrind) { /* the same options again, in a child under Callgrind */
        rc = fb__vg_runner_exec(argc, argv, o.valgrind == 2);
    } else {
        rc = fb__runner_suite(argc, argv, &o, sel);
    }
    fb__instances_free(sel);
    fb__opts_free(&o);
    return rc;
}
