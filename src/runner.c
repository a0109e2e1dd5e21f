/* The suite runner: registry, command line, orchestration (fb_main).
 * It measures nothing itself: each benchmark gets a fresh fb_bench. */
#include "bench.h"
#include "cli_check.h"
#include "filter.h"
#include "isolate.h"
#include "outfile.h"
#include "process.h"
#include "report.h"
#include "text.h"

#include <stdarg.h>

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct fb__opts {
    bool help, list, sanity, quiet;
    bool isolate;     /* -isolate, or implied by -timeout (issue 17) */
    double timeout_s; /* -timeout; 0 = none */
    const char *filter;
    double min_time_ms; /* < 0: not given */
    double *asymptote;
    size_t n_asymptote;
    const char *out_csv, *out_json, *out_gbench;
} fb__opts;

typedef struct fb__opt_spec {
    const char *name;
    bool takes_value;
    const char *arg, *help;
} fb__opt_spec;

static const fb__opt_spec fb__opt_specs[] = {
    {"help", false, "", "print this help and exit"},
    {"list", false, "", "list the selected benchmarks, one a line, without running them"},
    {"filter", true, "<regex>",
     "run the benchmarks whose whole name matches this POSIX extended regex (default: .*)"},
    {"min_time", true, "<ms>",
     "minimum measured time per benchmark in milliseconds, spread over its epochs"},
    {"sanity_check", false, "",
     "run each selected benchmark once (one epoch of one iteration), print no table"},
    {"asymptote", true, "<n1,n2,...>",
     "run each selected benchmark once per N and fit its complexity"},
    {"output_csv", true, "<file>", "write all results as CSV ('-' = stdout)"},
    {"output_json", true, "<file>", "write all results as femtobench JSON ('-' = stdout)"},
    {"output_gbench", true, "<file>", "write all results as Google Benchmark JSON ('-' = stdout)"},
    {"quiet", false, "",
     "no environment warnings or unstable markers (as FEMTOBENCH_SUPPRESS_WARNINGS=1)"},
    {"isolate", false, "",
     "run each benchmark in a child process: a crash or exit() becomes an error row"},
    {"timeout", true, "<seconds>",
     "kill a benchmark that runs longer than this (an error row); implies -isolate"},
};
#define FB__N_OPTS (sizeof fb__opt_specs / sizeof fb__opt_specs[0])

static int fb__runner_error(const char *fmt, ...) FB__PRINTF(1, 2);
static int fb__runner_error(const char *fmt, ...) {
    /* one line, whatever the values quoted in it hold (issue 17): control
     * characters are shown as \xNN (src/cli_check.c) */
    char line[1536];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    fputs("femtobench: error: ", stderr);
    fb__cli_put_line(stderr, line);
    fputc('\n', stderr);
    return 2;
}

static void fb__runner_help(FILE *f, const char *prog) {
    fprintf(f, "usage: %s [options]\n\nOptions (one dash or two):\n", prog);
    for (size_t i = 0; i < FB__N_OPTS; ++i) {
        char left[40];
        snprintf(left, sizeof left, "-%s%s%s", fb__opt_specs[i].name,
                 fb__opt_specs[i].takes_value ? "=" : "", fb__opt_specs[i].arg);
        fprintf(f, "  %-26s %s\n", left, fb__opt_specs[i].help);
    }
    fputs("\nEnvironment: FEMTOBENCH_CONFIG=\"epochs=21,min_epoch_time=5ms\", "
          "FEMTOBENCH_ENDLESS=<name>,\nFEMTOBENCH_SUPPRESS_WARNINGS=1. See README.md.\n",
          f);
}

/* Strict number: the whole text, finite, >= 0. */
static bool fb__parse_nonneg(const char *s, double *out) {
    char *end;
    if (!*s || strchr(" \t+-", *s)) return false;
    errno = 0;
    double v = strtod(s, &end);
    if (*end || errno || !isfinite(v) || v < 0) return false;
    *out = v;
    return true;
}

static int fb__parse_asymptote(const char *text, fb__opts *o) {
    size_t cap = 1;
    for (const char *p = text; *p; ++p) cap += *p == ',';
    if (cap > FB__CLI_MAX_ASYMPTOTE) /* issue 17: each N is a run */
        return fb__runner_error("-asymptote: %zu entries (at most %d)", cap, FB__CLI_MAX_ASYMPTOTE);
    o->asymptote = calloc(cap, sizeof *o->asymptote);
    if (!o->asymptote) return fb__runner_error("-asymptote: out of memory");
    const char *p = text;
    for (;;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        char item[64];
        if (len == 0)
            return fb__runner_error(
                "-asymptote=%s: empty entry (expected n1,n2,... with every N > 0)", text);
        if (len >= sizeof item)
            return fb__runner_error("-asymptote=%s: entry '%.*s' is too long", text, (int)len, p);
        memcpy(item, p, len);
        item[len] = '\0';
        double v;
        if (!fb__parse_nonneg(item, &v) || v <= 0)
            return fb__runner_error("-asymptote=%s: '%s' is not a number > 0", text, item);
        if (v > FB__MAX_COMPLEXITY_N) /* issue 17 */
            return fb__runner_error("-asymptote=%s: '%s' is out of range (at most 2^53)", text,
                                    item);
        o->asymptote[o->n_asymptote++] = v;
        if (!comma) break;
        p = comma + 1;
    }
    for (size_t i = 1; i < o->n_asymptote; ++i)
        if (o->asymptote[i] != o->asymptote[0]) return 0;
    return fb__runner_error("-asymptote=%s: needs at least two distinct N", text);
}

static int fb__parse_args(int argc, char **argv, fb__opts *o) {
    for (int i = 1; i < argc; ++i) {
        const char *arg = argv[i];
        if (arg[0] != '-' || arg[1] == '\0')
            return fb__runner_error("unexpected argument '%s' (options start with '-'; see -help)",
                                    arg);
        const char *name = arg + 1 + (arg[1] == '-');
        const char *eq = strchr(name, '=');
        size_t len = eq ? (size_t)(eq - name) : strlen(name);
        const fb__opt_spec *spec = NULL;
        for (size_t k = 0; k < FB__N_OPTS; ++k)
            if (strlen(fb__opt_specs[k].name) == len &&
                strncmp(fb__opt_specs[k].name, name, len) == 0)
                spec = &fb__opt_specs[k];
        if (!spec) {
            char given[64];
            snprintf(given, sizeof given, "%.*s", (int)len, name);
            const char *best = NULL;
            size_t best_d = 3;
            for (size_t k = 0; k < FB__N_OPTS; ++k) {
                size_t d = fb__edit_distance(given, fb__opt_specs[k].name);
                if (d < best_d) best_d = d, best = fb__opt_specs[k].name;
            }
            if (best) return fb__runner_error("unknown option '%s' (did you mean -%s?)", arg, best);
            return fb__runner_error("unknown option '%s' (see -help)", arg);
        }
        if (spec->takes_value && !eq)
            return fb__runner_error("-%s needs a value: -%s=%s", spec->name, spec->name, spec->arg);
        if (!spec->takes_value && eq)
            return fb__runner_error("-%s takes no value, got '%s'", spec->name, arg);
        const char *val = eq ? eq + 1 : "";
        if (!strcmp(spec->name, "help"))
            o->help = true;
        else if (!strcmp(spec->name, "list"))
            o->list = true;
        else if (!strcmp(spec->name, "sanity_check"))
            o->sanity = true;
        else if (!strcmp(spec->name, "quiet"))
            o->quiet = true;
        else if (!strcmp(spec->name, "isolate"))
            o->isolate = true;
        else if (!strcmp(spec->name, "timeout")) { /* issue 17 */
            char why[96];
            if (!fb__parse_nonneg(val, &o->timeout_s) || o->timeout_s <= 0)
                return fb__runner_error("-timeout=%s: not a number of seconds > 0", val);
            if (fb__cli_range(o->timeout_s, 0, FB__CLI_MAX_TIMEOUT_S, "s", why, sizeof why))
                return fb__runner_error("-timeout=%s: %s", val, why);
            o->isolate = true;
        } else if (!strcmp(spec->name, "filter"))
            o->filter = val;
        else if (!strcmp(spec->name, "min_time")) {
            char why[96];
            if (!fb__parse_nonneg(val, &o->min_time_ms))
                return fb__runner_error("-min_time=%s: not a non-negative number of milliseconds",
                                        val);
            if (fb__cli_range(o->min_time_ms, 0, FB__CLI_MAX_MIN_TIME_MS, "ms", why, sizeof why))
                return fb__runner_error("-min_time=%s: %s", val, why); /* issue 17 */
        } else if (!strcmp(spec->name, "asymptote")) {
            free(o->asymptote);
            o->asymptote = NULL;
            o->n_asymptote = 0;
            int rc = fb__parse_asymptote(val, o);
            if (rc) return rc;
        } else {
            if (!*val) return fb__runner_error("-%s: empty file name", spec->name);
            if (!strcmp(spec->name, "output_csv"))
                o->out_csv = val;
            else if (!strcmp(spec->name, "output_json"))
                o->out_json = val;
            else
                o->out_gbench = val;
        }
    }
    return 0;
}

static int fb__cmp_reg(const void *a, const void *b) {
    return strcmp((*(const fb__registration *const *)a)->name,
                  (*(const fb__registration *const *)b)->name);
}

/* Applies the command line to a fresh bench: it wins over code and env. */
static void fb__runner_configure(fb_bench *b, const fb__opts *o) {
    if (o->sanity) {
        fb__cfg_set(b, FB__LAYER_CLI, FB__K_EPOCHS, 1);
        fb__cfg_set(b, FB__LAYER_CLI, FB__K_EPOCH_ITERATIONS, 1);
        fb__cfg_set(b, FB__LAYER_CLI, FB__K_WARMUP, 0);
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
} fb__collector;

static void fb__collector_sink(void *ctx, const fb_bench *b, const fb_result *r) {
    fb__collector *c = ctx;
    (void)b;
    if (!fb_result_error(r)) return;
    ++c->failed;
    if (c->sanity) fprintf(stderr, "femtobench: %s: %s\n", fb_result_name(r), fb_result_error(r));
}

/* One benchmark: its rounds, then (issue 17) nothing silently dropped: a
 * run that recorded nothing, or under -sanity_check a body that never
 * reached FB_RUN / fb_run, is an error row. Runs in-process or in
 * -isolate's child (src/isolate.c). */
typedef struct fb__runner_job {
    const fb__opts *o;
    const fb__registration *reg;
    bool unreported; /* an error row could not be made (out of memory) */
} fb__runner_job;

static void fb__runner_body(fb_bench *b, void *ctx) {
    fb__runner_job *job = ctx;
    const fb__opts *o = job->o;
    size_t rounds = o->n_asymptote ? o->n_asymptote : 1;
    for (size_t r = 0; r < rounds && !b->interrupted; ++r) {
        if (o->n_asymptote) fb_set_complexity_n(b, o->asymptote[r]);
        job->reg->fn(b);
    }
    if (b->interrupted) return;
    char msg[160];
    if (b->dropped)
        snprintf(msg, sizeof msg, "%zu run%s recorded nothing (see the diagnostics above)",
                 b->dropped, b->dropped == 1 ? "" : "s");
    else if (o->sanity && b->n_results == 0)
        snprintf(msg, sizeof msg, "measured nothing: the benchmark never reached FB_RUN or fb_run");
    else
        return;
    if (fb__bench_error_row(b, job->reg->name, msg) != FB_OK) {
        fprintf(stderr, "femtobench: error: %s: %s\n", job->reg->name, msg);
        job->unreported = true;
        if (b->n_sinks == 1 && o->isolate) _exit(1); /* -isolate's child: the parent says it */
    }
}

static int fb__runner_write(const fb__outfile_job *jobs, size_t n, const fb_bench *suite) {
    char err[1024];
    if (!n) return 0;
    if (fb__outfile_write_set(jobs, n, suite, err, sizeof err) != FB_OK) {
        fprintf(stderr, "femtobench: error: %s\n", err);
        return 1;
    }
    for (size_t i = 0; i < n; ++i)
        if (fb__outfile_fd_of(jobs[i].path) < 0)
            fprintf(stderr, "femtobench: wrote '%s'\n", jobs[i].path);
    return 0;
}

/* The outputs asked for, as a set for src/outfile.c. */
static size_t fb__runner_jobs(const fb__opts *o, fb__outfile_job *jobs) {
    size_t n = 0;
    if (o->out_csv) jobs[n++] = (fb__outfile_job){"output_csv", o->out_csv, fb_write_csv};
    if (o->out_json) jobs[n++] = (fb__outfile_job){"output_json", o->out_json, fb_write_json};
    if (o->out_gbench)
        jobs[n++] = (fb__outfile_job){"output_gbench", o->out_gbench, fb_write_gbench_json};
    return n;
}

/* The table goes to stdout, or to stderr when an output is stdout ("-",
 * /dev/stdout, /proc/self/fd/1, a link to one of them). */
static int fb__runner_table_fd(const fb__outfile_job *jobs, size_t n) {
    for (size_t i = 0; i < n; ++i)
        if (fb__outfile_fd_of(jobs[i].path) == 1) return 2;
    return 1;
}

static int fb__runner(int argc, char **argv, fb__opts *o, fb__registration ***sel_out) {
    int rc = fb__parse_args(argc, argv, o);
    if (rc) return rc;
    if (fb__process_config_errors() && !o->help) {
        /* the bad entries, then the one error line: bad input, like a bad option */
        fb__process_config_report(stderr);
        return fb__runner_error("FEMTOBENCH_CONFIG: %d bad entr%s (see above); nothing was run",
                                fb__process_config_errors(),
                                fb__process_config_errors() == 1 ? "y" : "ies");
    }
    if (o->help) {
        fb__runner_help(stdout, argc > 0 ? argv[0] : "femtobench");
        return -1;
    }
    /* everything registered, sorted by name, duplicates refused */
    size_t n = 0;
    for (const fb__registration *r = fb__process_registry(); r; r = r->next) ++n;
    fb__registration **all = calloc(n + 1, sizeof *all); /* NULL-terminated */
    if (!all) return fb__runner_error("out of memory");
    *sel_out = all;
    n = 0;
    for (fb__registration *r = (fb__registration *)fb__process_registry(); r; r = r->next)
        all[n++] = r;
    qsort(all, n, sizeof *all, fb__cmp_reg);
    for (size_t i = 1; i < n; ++i)
        if (!strcmp(all[i]->name, all[i - 1]->name))
            return fb__runner_error("benchmark name '%s' is registered twice", all[i]->name);

    const char *filter = o->filter ? o->filter : ".*";
    /* issue 17: bounded, compiled and matched in a child, anchored by the
     * match's offsets (src/filter.c) */
    unsigned char *hit = calloc(n + 1, 1);
    const char **fnames = calloc(n + 1, sizeof *fnames);
    char fwhy[320];
    if (!hit || !fnames) {
        free(hit);
        free(fnames);
        return fb__runner_error("out of memory");
    }
    for (size_t i = 0; i < n; ++i) fnames[i] = all[i]->name;
    int bad_filter = fb__filter_select(filter, fnames, n, hit, fwhy, sizeof fwhy);
    free(fnames);
    if (bad_filter) {
        free(hit);
        if (strlen(filter) > 64) return fb__runner_error("-filter=%.60s...: %s", filter, fwhy);
        return fb__runner_error("-filter=%s: %s", filter, fwhy);
    }
    size_t k = 0;
    for (size_t i = 0; i < n; ++i)
        if (hit[i]) all[k++] = all[i];
    free(hit);
    all[k] = NULL;
    if (k == 0) {
        if (o->filter)
            return fb__runner_error("-filter=%s selects no benchmark (see -list)", filter);
        return fb__runner_error("no benchmark is registered");
    }

    /* issue 17: the outputs as one set (src/outfile.c): each writable, no
     * two the same file, none the file the table goes to */
    fb__outfile_job jobs[FB__OUTFILE_MAX_SET];
    size_t n_jobs = fb__runner_jobs(o, jobs);
    int table_fd = o->sanity ? -1 : fb__runner_table_fd(jobs, n_jobs);
    char why[1024];
    if (fb__outfile_check_set(jobs, n_jobs, table_fd, why, sizeof why) != FB_OK)
        return fb__runner_error("%s", why);
    return 0;
}

int fb_main(int argc, char **argv) {
    fb__opts o = {0};
    o.min_time_ms = -1;
    fb__registration **sel = NULL;
    int rc = fb__runner(argc, argv, &o, &sel);
    if (rc) {
        free(sel);
        free(o.asymptote);
        return rc < 0 ? 0 : rc;
    }
    if (o.list) {
        for (size_t i = 0; sel[i]; ++i) printf("%s\n", sel[i]->name);
        free(sel);
        free(o.asymptote);
        return 0;
    }
    if (o.quiet) fb__process_set_quiet(true);
    fb__outfile_job jobs[FB__OUTFILE_MAX_SET];
    size_t n_jobs = fb__runner_jobs(&o, jobs);
    bool to_stdout = fb__runner_table_fd(jobs, n_jobs) == 2;
    /* one live table for the whole suite */
    fb__table table;
    memset(&table, 0, sizeof table);
    table.out = o.sanity ? NULL : to_stdout ? stderr : stdout;
    FILE *tout = to_stdout ? stderr : stdout;
    fb__collector collector = {o.sanity, 0};

    fb_bench *suite = fb_bench_new();
    if (!suite) return fb__runner_error("out of memory");
    int status = 0;
    size_t ran = 0;
    bool interrupted = false;
    for (size_t i = 0; sel[i] && !interrupted; ++i) {
        fb_bench *b = fb_bench_new();
        if (!b || fb__bench_add_sink(b, fb__collector_sink, &collector) != FB_OK) {
            fb_bench_free(b);
            status = fb__runner_error("out of memory");
            break;
        }
        fb__bench_share_table(b, &table);
        fb__runner_configure(b, &o);
        b->name = fb__strdup(sel[i]->name); /* FB_RUN(b, NULL) runs under it */
        fb__runner_job job = {&o, sel[i], false};
        if (o.isolate && !fb__process_endless()) { /* issue 17: crash isolation */
            char why[320];
            bool intr = false;
            if (fb__isolate_run(b, sel[i]->name, o.timeout_s, fb__runner_body, &job, &intr, why,
                                sizeof why) != FB_OK) {
                fprintf(stderr, "femtobench: error: %s\n", why);
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
        if (job.unreported) ++collector.failed;
        interrupted = b->interrupted;
        ++ran;
        if (o.n_asymptote && !o.sanity && !interrupted) {
            /* one fit per name the benchmark ran (usually just one) */
            for (size_t f = 0; f < b->n_fits; ++f) {
                fputc('\n', tout);
                fb__write_fit_set(&b->fits[f], tout);
            }
            fputc('\n', tout);
            fb__table_restart(&table); /* the next table starts with a header */
        }
        fb__bench_take_results(suite, b);
        fb_bench_free(b);
    }
    if (interrupted) {
        fprintf(stderr, "femtobench: interrupted%s\n",
                o.out_csv || o.out_json || o.out_gbench ? "; no output file written" : "");
        status = 130;
    } else if (!status) {
        if (o.sanity)
            fprintf(stderr, "femtobench: sanity check: %zu benchmark%s ran, %zu failed\n", ran,
                    ran == 1 ? "" : "s", collector.failed);
        int werr = fb__runner_write(jobs, n_jobs, suite); /* all together (issue 17) */
        status = werr ? 1 : collector.failed ? 1 : 0;
    }
    fb_bench_free(suite);
    free(sel);
    free(o.asymptote);
    return status;
}
