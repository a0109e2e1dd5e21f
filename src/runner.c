/* The suite runner: registry, command line, orchestration (fb_main).
 * It measures nothing itself: each benchmark gets a fresh fb_bench. */
#include "bench.h"
#include "outfile.h"
#include "passes.h"
#include "process.h"
#include "report_passes.h"
#include "report.h"
#include "text.h"

#include <stdarg.h>

#include <errno.h>
#include <math.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

typedef struct fb__opts {
    bool help, list, sanity, quiet;
    const char *filter;
    double min_time_ms; /* < 0: not given */
    unsigned repetitions; /* passes of the suite (issue 19); 0: not given = 1 */
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
    {"repetitions", true, "<n>",
     "run the selected suite n times (default 1), each pass in a fresh random order; per "
     "benchmark the median over passes and the spread between them"},
    {"quiet", false, "",
     "no environment warnings or unstable markers (as FEMTOBENCH_SUPPRESS_WARNINGS=1)"},
};
#define FB__N_OPTS (sizeof fb__opt_specs / sizeof fb__opt_specs[0])

static int fb__runner_error(const char *fmt, ...) FB__PRINTF(1, 2);
static int fb__runner_error(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fputs("femtobench: error: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
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
        else if (!strcmp(spec->name, "filter"))
            o->filter = val;
        else if (!strcmp(spec->name, "min_time")) {
            if (!fb__parse_nonneg(val, &o->min_time_ms))
                return fb__runner_error("-min_time=%s: not a non-negative number of milliseconds",
                                        val);
        } else if (!strcmp(spec->name, "repetitions")) { /* issue 19: src/passes.c */
            char *end = NULL;
            long n = strtol(val, &end, 10);
            if (!*val || *end || n < 1 || n > 1000)
                return fb__runner_error("-repetitions=%s: not a whole number from 1 to 1000", val);
            o->repetitions = (unsigned)n;
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

static int fb__runner_write(const char *path, int (*writer)(const fb_bench *, FILE *),
                            const fb_bench *suite) {
    char err[512];
    if (!path) return 0;
    if (fb__outfile_write(path, writer, suite, err, sizeof err) != FB_OK) {
        fprintf(stderr, "femtobench: error: %s\n", err);
        return 1;
    }
    if (strcmp(path, "-")) fprintf(stderr, "femtobench: wrote '%s'\n", path);
    return 0;
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
    size_t plen = strlen(filter) + 5;
    char *pattern = malloc(plen);
    if (!pattern) return fb__runner_error("out of memory");
    snprintf(pattern, plen, "^(%s)$", filter);
    regex_t re;
    int err = regcomp(&re, pattern, REG_EXTENDED | REG_NOSUB);
    free(pattern);
    if (err) {
        char msg[256];
        regerror(err, &re, msg, sizeof msg);
        return fb__runner_error("-filter=%s: invalid regular expression: %s", filter, msg);
    }
    size_t k = 0;
    for (size_t i = 0; i < n; ++i)
        if (regexec(&re, all[i]->name, 0, NULL, 0) == 0) all[k++] = all[i];
    regfree(&re);
    all[k] = NULL;
    if (k == 0) {
        if (o->filter)
            return fb__runner_error("-filter=%s selects no benchmark (see -list)", filter);
        return fb__runner_error("no benchmark is registered");
    }

    const char *outs[3] = {o->out_csv, o->out_json, o->out_gbench};
    const char *names[3] = {"output_csv", "output_json", "output_gbench"};
    int to_stdout = 0;
    for (int i = 0; i < 3; ++i) {
        if (!outs[i]) continue;
        char why[512];
        if (!strcmp(outs[i], "-")) {
            if (++to_stdout > 1)
                return fb__runner_error("-%s=-: only one output can go to stdout", names[i]);
        } else if (fb__outfile_check(outs[i], why, sizeof why) != FB_OK) {
            return fb__runner_error("-%s=%s: %s", names[i], outs[i], why);
        }
    }
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
    bool to_stdout = (o.out_csv && !strcmp(o.out_csv, "-")) ||
                     (o.out_json && !strcmp(o.out_json, "-")) ||
                     (o.out_gbench && !strcmp(o.out_gbench, "-"));
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
    /* issue 19: -repetitions runs the selection in passes, each in a
     * fresh random order (src/passes.c); one pass keeps the registry order */
    size_t n_sel = 0;
    while (sel[n_sel]) ++n_sel;
    unsigned passes = o.repetitions ? o.repetitions : 1;
    size_t *order = malloc(n_sel * sizeof *order);
    if (!order) {
        fb_bench_free(suite);
        free(sel);
        free(o.asymptote);
        return fb__runner_error("out of memory");
    }
    for (size_t step = 0; step < n_sel * passes && !interrupted; ++step) {
        unsigned pass = (unsigned)(step / n_sel);
        if (step % n_sel == 0) fb__passes_order(order, n_sel, pass, passes);
        size_t i = order[step % n_sel];
        size_t rounds = o.n_asymptote ? o.n_asymptote : 1;
        fb_bench *b = fb_bench_new();
        if (!b || fb__bench_add_sink(b, fb__collector_sink, &collector) != FB_OK) {
            fb_bench_free(b);
            status = fb__runner_error("out of memory");
            break;
        }
        fb__bench_share_table(b, &table);
        fb__runner_configure(b, &o);
        b->cfg.pass = pass;
        b->name = fb__strdup(sel[i]->name); /* FB_RUN(b, NULL) runs under it */
        for (size_t r = 0; r < rounds && !b->interrupted; ++r) {
            if (o.n_asymptote) fb_set_complexity_n(b, o.asymptote[r]);
            sel[i]->fn(b);
        }
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
    free(order);
    if (passes > 1 && !interrupted && !o.sanity && !status) {
        fprintf(tout, "\nOver %u passes (median of the passes' medians; between passes: half the "
                      "passes lie within this %% of it):\n",
                passes);
        fb__write_passes(suite, tout);
    }
    if (interrupted) {
        fprintf(stderr, "femtobench: interrupted%s\n",
                o.out_csv || o.out_json || o.out_gbench ? "; no output file written" : "");
        status = 130;
    } else if (!status) {
        if (o.sanity)
            fprintf(stderr, "femtobench: sanity check: %zu benchmark%s ran, %zu failed\n", ran,
                    ran == 1 ? "" : "s", collector.failed);
        int werr = fb__runner_write(o.out_csv, fb_write_csv, suite) |
                   fb__runner_write(o.out_json, fb_write_json, suite) |
                   fb__runner_write(o.out_gbench, fb_write_gbench_json, suite);
        status = werr ? 1 : collector.failed ? 1 : 0;
    }
    fb_bench_free(suite);
    free(sel);
    free(o.asymptote);
    return status;
}
