/* The runner's suite as a value: open, one benchmark at a time (one fresh
 * fb_bench per benchmark in each pass, src/runner/suite_job.c), a family's
 * fit once its instances ran in the pass, close (the tables between them,
 * the outputs written as one set). It measures nothing itself and touches no
 * field of a bench (src/handle/bench.h's functions). */
#include "suite.h"

#include "change.h"        /* -baseline, -threshold, -fail_on_slower */
#include "report_change.h" /* the change table */
#include "isolate.h"       /* -isolate, -timeout */
#include "outfile.h"
#include "passes.h"
#include "passes_exec.h"
#include "process.h"
#include "report_passes.h"
#include "selection.h" /* the names dashboards take */
#include "setup.h"     /* fb_arg of an instance */

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void fb__suite_open(fb__suite *s, int argc, char **argv, fb__opts *o, fb__instance **sel) {
    memset(s, 0, sizeof *s);
    s->o = o;
    s->sel = sel;
    if (o->quiet) fb__process_set_quiet(true);
    if (o->baseline && strchr(o->baseline, ',')) {
        /* several files (none of them an output: src/runner/selection.c): what
         * they disagree on about the machine said once, before anything runs */
        unsigned pass, passes;
        if (o->base.ctx.files_differ[0] && fb__process_pass_child(&pass, &passes) < 0)
            fb__job_line("femtobench: warning: the -baseline files disagree about the machine: ",
                         o->base.ctx.files_differ, "");
    }
    bool to_stdout = o->outs.table_fd == 2; /* an output is stdout */
    s->table.out = o->sanity ? NULL : to_stdout ? stderr : stdout;
    /* a benchmark's fb_set_output changes the shared table's stream for that
     * benchmark alone: each benchmark starts from the suite's stream */
    s->suite_out = s->table.out;
    s->tout = to_stdout ? stderr : stdout;
    s->collector.sanity = o->sanity;

    s->all = fb_bench_new();
    if (!s->all) {
        s->status = fb__opts_error("out of memory");
        return;
    }
    /* -context: every file the suite writes records the pairs */
    for (size_t i = 0; i < o->context.n; ++i)
        if (fb_set_context(s->all, o->context.key[i], o->context.value[i]) != FB_OK) {
            s->status = fb__opts_error("-context: out of memory");
            return;
        }
    /* -repetitions runs the selection in passes, each in a
     * fresh random order (src/outputs/passes.c); one pass keeps the registry order */
    while (sel[s->n_sel]) ++s->n_sel;
    size_t n_sel = s->n_sel;
    s->passes = o->repetitions ? o->repetitions : 1;
    s->order = malloc(n_sel * sizeof *s->order);
    s->res_lo = malloc((n_sel + 1) * 3 * sizeof *s->res_lo);
    if (!s->order || !s->res_lo) {
        s->status = fb__opts_error("out of memory");
        return;
    }
    s->res_hi = s->res_lo + n_sel + 1;
    s->ran_in = s->res_hi + n_sel + 1;
    s->open = true;
    /* the status line on a terminal (src/runner/progress.c), erased before rows */
    fb__progress_init(&s->prog, stderr, n_sel * s->passes,
                      !o->quiet && !o->sanity && isatty(2) && !fb__process_endless());
    s->table.before_row = fb__progress_clear;
    s->table.before_row_ctx = &s->prog;
    for (size_t k = 0; k < n_sel; ++k) s->ran_in[k] = SIZE_MAX;
    /* -repetitions: each pass a fresh process (src/runner/passes_exec.c), unless
     * this process is one of them (it runs its one pass), under Valgrind
     * (exact counts: passes add nothing, and a new process would not be
     * counted) or in endless mode (in-process passes) */
    unsigned my_pass = 0, all_passes = 0;
    s->pass_fd = fb__process_pass_child(&my_pass, &all_passes);
    bool exec_passes = FB_HAVE_POSIX && s->pass_fd < 0 && s->passes > 1 && !fb__process_endless() &&
                       !fb__process_callgrind()->on && !o->sanity;
    s->first_pass = s->pass_fd >= 0 ? my_pass : 0;
    s->order_passes = s->pass_fd >= 0 ? all_passes : s->passes;
    s->run_passes = s->pass_fd >= 0 ? 1 : exec_passes ? 0 : s->passes;
    if (exec_passes) {
        fb__job_pass_ctx pc = {&s->collector};
        char pwhy[512];
        if (fb__passes_exec(argc, argv, s->passes, s->all, fb__job_pass_bench, &pc, s->tout,
                            &s->interrupted, pwhy, sizeof pwhy) != FB_OK) {
            fb__opts_error("%s", pwhy);
            s->status = 1;
        }
        s->ran = n_sel * s->passes;
    }
}

bool fb__suite_more(const fb__suite *s, size_t step) {
    /* a failure ends the suite after the benchmark it happened in */
    return s->open && step < s->n_sel * s->run_passes && !s->interrupted && !s->status;
}

/* A fresh bench for instance i in pass: the collector, the shared table, a
 * parent's pass sinks, the command line, the instance's name, argument and
 * family. NULL: out of memory (said, the status set). */
static fb_bench *fb__suite_bench(fb__suite *s, size_t i, unsigned pass) {
    const fb__instance *in = s->sel[i];
    fb_bench *b = fb_bench_new();
    if (!b || fb__bench_add_sink(b, fb__collector_sink, &s->collector) != FB_OK ||
        fb__bench_add_comparison_sink(b, fb__collector_cmp_sink, &s->collector) != FB_OK)
        goto oom;
    s->table.out = s->suite_out;
    fb__bench_share_table(b, &s->table);
    /* one pass of a parent's -repetitions: every result goes back to it */
    if (s->pass_fd >= 0 &&
        (fb__bench_add_sink(b, fb__passes_exec_sink, &s->pass_fd) != FB_OK ||
         fb__bench_sink_amend(b, fb__passes_exec_sink, fb__passes_exec_amend) != FB_OK ||
         fb__bench_add_comparison_sink(b, fb__passes_exec_cmp_sink, &s->pass_fd) != FB_OK))
        goto oom;
    fb__job_configure(b, s->o);
    fb__bench_set_pass(b, pass);
    (void)fb__bench_set_name(b, in->name); /* FB_RUN(b, NULL) runs under it */
    /* the instance's argument (fb_arg), and where its family starts */
    if (in->has_arg) fb__bench_set_args(b, in->args, in->n_args);
    const fb__port_reg *port = fb__instance_port_family(in);
    if (port && fb__bench_set_family(b, port->family, port->family_id, port->model) != FB_OK)
        goto oom;
    return b;
oom:
    fb_bench_free(b);
    s->status = fb__opts_error("out of memory");
    return NULL;
}

/* The names of b's runs and comparisons' alternatives within dashboards'
 * limits; else the status, said. */
static void fb__suite_check_names(fb__suite *s, const char *name, const fb_bench *b) {
    size_t n_res;
    const fb_result *const *res = fb__bench_results(b, &n_res);
    for (size_t r = 0; r < n_res && !s->status; ++r) /* dashboards' limits */
        if (fb__select_bad_name(res[r]->name))
            s->status = fb__opts_error("%s: a run's name '%.40s' %s; nothing written", name,
                                       res[r]->name, fb__select_bad_name(res[r]->name));
    for (size_t c = 0; c < fb_comparison_count(b) && !s->status; ++c) /* ... and alternatives' */
        for (size_t a = 0; a < fb_comparison_size(fb_comparison_at(b, c)) && !s->status; ++a) {
            const fb_comparison *cmp = fb_comparison_at(b, c);
            const char *an = fb_comparison_name(cmp, a);
            if (fb__select_bad_name(an))
                s->status = fb__opts_error(
                    "%s: comparison '%.40s': an alternative's name '%.40s' %s; nothing "
                    "written",
                    name, fb_comparison_title(cmp), an ? an : "", fb__select_bad_name(an));
        }
}

size_t fb__suite_run_one(fb__suite *s, size_t step) {
    const fb__opts *o = s->o;
    size_t n_sel = s->n_sel;
    unsigned pass = s->first_pass + (unsigned)(step / n_sel);
    if (step % n_sel == 0) fb__passes_order(s->order, n_sel, pass, s->order_passes);
    size_t i = s->order[step % n_sel];
    const char *name = s->sel[i]->name;
    fb__progress_step(&s->prog, step, name);
    fb_bench *b = fb__suite_bench(s, i, pass);
    if (!b) return i;
    s->res_lo[i] = fb_result_count(s->all);
    fb__job job = {o, s->sel[i], false};
    if (o->isolate && !fb__process_endless()) { /* crash isolation */
        char iwhy[320];
        bool intr = false;
        if (fb__isolate_run(b, name, o->timeout_s, fb__job_body, &job, &intr, iwhy, sizeof iwhy) !=
            FB_OK) {
            fb__job_line("femtobench: error: ", iwhy, "");
            ++s->collector.failed;
        }
        if (fb__bench_dropped(b)) { /* a result the parent could not store */
            fb__job_line("femtobench: error: ", name, ": a result was lost (out of memory)");
            ++s->collector.failed;
        }
        if (intr) fb__bench_set_interrupted(b);
    } else {
        fb__job_run_here(b, &job);
    }
    fb__progress_clear(&s->prog); /* before anything else is printed */
    if (job.unreported) ++s->collector.failed;
    s->interrupted = fb__bench_interrupted(b);
    ++s->ran;
    fb__suite_check_names(s, name, b);
    size_t n_res;
    const fb_result *const *res = fb__bench_results(b, &n_res);
    if (o->n_asymptote && !o->sanity && !s->interrupted &&
        !(fb__instance_in_family(s->sel[i]) &&
          !fb__fit_alone(res, n_res))) { /* else with its family */
        /* one fit per name the benchmark ran (usually just one) */
        for (size_t f = 0; f < fb__bench_fit_count(b); ++f) {
            fputc('\n', s->tout);
            fb__write_fit_set(fb__bench_fit_at(b, f), s->tout);
        }
        fputc('\n', s->tout);
        fb__table_restart(&s->table); /* the next table starts with a header */
    }
    fb__bench_take_results(s->all, b);
    fb__bench_take_comparisons(s->all, b); /* src/run/compare.c */
    fb_bench_free(b);
    s->res_hi[i] = fb_result_count(s->all);
    s->ran_in[i] = pass;
    return i;
}

/* Instance i's family: the instances [*fa, *fz) of the selection. */
static void fb__suite_family(const fb__suite *s, size_t i, size_t *fa, size_t *fz) {
    fb__instance **sel = s->sel;
    *fa = i;
    *fz = i + 1;
    while (*fa > 0 && fb__instance_same_family(sel[i], sel[*fa - 1])) --*fa;
    while (sel[*fz] && fb__instance_same_family(sel[i], sel[*fz])) ++*fz;
}

bool fb__suite_family_ended(const fb__suite *s, size_t i) {
    if (s->status || !fb__instance_in_family(s->sel[i]) || s->o->sanity || s->interrupted)
        return false;
    size_t fa, fz;
    fb__suite_family(s, i, &fa, &fz);
    for (size_t k = fa; k < fz; ++k)
        if (s->ran_in[k] != s->ran_in[i]) return false;
    return true;
}

/* after a family's last instance (in this pass), the fit over the family
 * when its instances set N (docs/complexity.md, "Families") */
void fb__suite_family_done(fb__suite *s, size_t i) {
    size_t fa, fz, n_fam = 0;
    fb__suite_family(s, i, &fa, &fz);
    for (size_t k = fa; k < fz; ++k) n_fam += s->res_hi[k] - s->res_lo[k];
    const fb_result **fam = malloc((n_fam + 1) * sizeof *fam);
    if (!fam) {
        s->status = fb__opts_error("out of memory");
        return;
    }
    size_t m = 0;
    for (size_t k = fa; k < fz; ++k) /* in the family's order */
        for (size_t x = s->res_lo[k]; x < s->res_hi[k]; ++x) fam[m++] = fb_result_at(s->all, x);
    /* stored once with the suite's results (src/handle/bench_fits.c),
     * then printed; the files read the same stored fit */
    if (fb__fit_store_results(s->all, fam, m) != FB_OK)
        s->status = fb__opts_error("out of memory");
    else if (fb__write_family_fits(s->all, fam, m, s->tout)) {
        fputc('\n', s->tout);
        fb__table_restart(&s->table); /* the next table starts with a header */
    }
    free((void *)fam);
}

/* Every output of the table (src/runner/options_table.c) as one set, each at the path
 * pinned before anything ran (src/outputs/outfile_set.c). */
static int fb__suite_write(const fb__opts *o, const fb_bench *suite) {
    char err[1024];
    fb__opts_gbench gb = {suite, o->gb_rows}; /* the Google Benchmark JSON rows' */
    if (fb__outputs_write(&o->outs, suite, &gb, stderr, err, sizeof err) != FB_OK) {
        fprintf(stderr, "femtobench: error: %s\n", err);
        return 1;
    }
    return 0;
}

/* Once the suite ran (or stopped): a pass process's end; else the tables
 * after the suite's, the change table against the baseline, the outputs
 * written, the exit status. */
static void fb__suite_end(fb__suite *s) {
    fb__opts *o = s->o;
    fb__progress_clear(&s->prog);
    s->table.before_row = NULL;
    /* every pass's results are in: their series over passes is computed
     * once and kept with the suite (src/outputs/passes.c); the summary below and
     * every writer read it */
    if (s->pass_fd < 0 && !s->status && fb__passes_finish(s->all) != FB_OK)
        s->status = fb__opts_error("out of memory");
    if (s->pass_fd >= 0) { /* a pass process: the parent reports and writes the files */
        if (!s->status || s->interrupted) fb__passes_exec_end(s->pass_fd, s->interrupted);
        s->status = s->interrupted ? 130 : s->status ? s->status : s->collector.failed ? 1 : 0;
        return;
    }
    /* what err% is and is not, once after the suite's table (not under
     * -quiet, which keeps the table alone) */
    if (!s->interrupted && !o->sanity && !o->quiet && !s->status && s->suite_out)
        fb__md_err_legend(s->suite_out, s->all);
    if (s->passes > 1 && !s->interrupted && !o->sanity && !s->status) {
        fprintf(s->tout,
                "\nOver %u passes (median of the passes' medians; between passes: the next "
                "process is expected within this %% of it, half the time):\n",
                s->passes);
        fb__write_passes(s->all, s->tout);
    }
    if (s->interrupted) {
        fprintf(stderr, "femtobench: interrupted%s\n",
                fb__outputs_any(&o->outs) ? "; no output file written" : "");
        s->status = 130;
    } else if (!s->status) {
        if (o->sanity)
            fprintf(stderr, "femtobench: sanity check: %zu benchmark%s ran, %zu failed\n", s->ran,
                    s->ran == 1 ? "" : "s", s->collector.failed);
        /* the results are complete: every family's fit not stored yet (the
         * passes of -repetitions ran in other processes) is stored before
         * any output reads it (src/handle/bench_fits.c) */
        if (o->sanity) /* one iteration per N fits nothing: no fit in any file */
            fb__bench_drop_fits(s->all, "-sanity_check runs each benchmark once per N (one "
                                        "iteration), too little to fit");
        else if (fb__fit_store_families(s->all) != FB_OK)
            s->status = fb__opts_error("out of memory");
        /* the change table after the ordinary one (src/outputs/report_change.c) */
        size_t counts[FB__V_COUNT] = {0};
        int cerr = 0, berr = 0;
        if (o->baseline && !o->sanity && fb__process_callgrind()->exact) {
            /* counted: read only now (src/runner/selection.c says why) */
            char why[1024];
            if (fb__baseline_load(o->baseline, &o->base, why, sizeof why))
                berr = fb__opts_error("-baseline=%s: %s", o->baseline, why);
            else if (o->base.ctx.files_differ[0])
                fb__job_line(
                    "femtobench: warning: the -baseline files disagree about the machine: ",
                    o->base.ctx.files_differ, "");
        }
        if (o->baseline && !o->sanity && !berr) {
            fputc('\n', s->tout);
            double t = o->threshold_pct >= 0 ? o->threshold_pct : FB__CHANGE_DEFAULT_THRESHOLD_PCT;
            /* kept with the suite: the HTML report draws it */
            fb__change_view *change = fb__change_view_new();
            cerr =
                !change || fb__change_against(s->tout, &o->base, s->all, t, counts, change) ? 1 : 0;
            fb__bench_set_change(s->all, change);
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
        int werr = fb__suite_write(o, s->all); /* all together */
        s->status = werr || cerr ? 1 : s->collector.failed ? 1 : 0;
        if (s->collector.misused) /* bad input, given through the API (src/handle/misuse.h) */
            s->status = fb__opts_error("%zu benchmark run%s refused a bad argument to the API (see "
                                       "the error rows)",
                                       s->collector.misused, s->collector.misused == 1 ? "" : "s");
        if (!s->status && o->fail_on_slower && (counts[FB__V_SLOWER] || none)) s->status = 3;
        if (berr) s->status = berr;
    }
}

int fb__suite_close(fb__suite *s) {
    if (s->open) fb__suite_end(s);
    free(s->order);
    free(s->res_lo);
    fb_bench_free(s->all);
    return s->status;
}
