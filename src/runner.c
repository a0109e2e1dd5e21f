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
#include "numfmt.h" /* locale-independent numbers */
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

typedef struct fb__opts {
    bool help, list, sanity, quiet;
    bool isolate;     /* -isolate, or implied by -timeout */
    double timeout_s; /* -timeout; 0 = none */
    const char *filter;
    double min_time_ms;   /* < 0: not given */
    unsigned repetitions; /* passes of the suite; 0: not given = 1 */
    double *asymptote;
    size_t n_asymptote;
    const char *out_csv, *out_json, *out_gbench;
    const char *out_html; /* the HTML report */
    /* -baseline: read and checked before anything runs */
    const char *baseline;
    double threshold_pct; /* < 0: not given */
    bool fail_on_slower;
    fb__baseline base;
    /* -version, -gbench_rows and Google Benchmark's flag names */
    bool version;
    bool filter_search, filter_negate; /* --benchmark_filter: GB's meaning */
    int gb_rows;                       /* FB_GBENCH_*; -1: not given */
    int gb_aggregates_only;            /* --benchmark_report_aggregates_only: -1 not given */
    bool gb_stdout;                    /* --benchmark_format=json */
    const char *gb_out_format;         /* --benchmark_out_format, NULL: json */
    double epochs;                     /* --benchmark_repetitions; 0: not given */
    double min_epoch_time_s;           /* --benchmark_min_time=<t>[s]; < 0: not given */
    double epoch_iterations;           /* --benchmark_min_time=<n>x; 0: not given */
    int valgrind;                      /* 0, 1 = -valgrind, 2 = -valgrind=cache */
    /* -context=key=value (src/context.c; its pairs in every file),
     * -output_bmf, and the notes on Google Benchmark flags that change
     * nothing here (printed once the options are read, unless -quiet) */
    fb__context context;
    const char *out_bmf;
    const char *gb_notes[16];
    size_t n_gb_notes;
    /* the outputs (csv, json, gbench, html) as given, and pinned to an
     * absolute path before anything runs (src/outfile.c) */
    const char *shown[4];
    char *pinned[4];
} fb__opts;

static const char *const fb__runner_out_option[4] = {"output_csv", "output_json", "output_gbench",
                                                     "output_html"};

/* takes_value: FB__V_NONE, FB__V_REQUIRED, or FB__V_BOOL (Google Benchmark's
 * boolean flags: bare, or =true/false/1/0/yes/no). */
/* FB__V_OPTIONAL: a value may follow (-valgrind or -valgrind=cache). */
enum { FB__V_NONE = 0, FB__V_REQUIRED = 1, FB__V_BOOL = 2, FB__V_OPTIONAL = 3 };

typedef struct fb__opt_spec {
    const char *name;
    int takes_value;
    const char *arg, *help;
} fb__opt_spec;

static const fb__opt_spec fb__opt_specs[] = {
    {"help", false, "", "print this help and exit"},
    {"list", false, "", "list the selected benchmarks, one a line, without running them"},
    {"filter", true, "<regex>",
     "run the benchmarks whose whole name (or family's name) matches this POSIX extended regex "
     "(default: .*)"},
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
     "run the selected suite n times (default 1), each pass in a fresh process and a fresh "
     "random order; per benchmark the median over passes and the spread between them"},
    {"output_html", true, "<file>",
     "write a self-contained HTML report with charts ('-' = stdout)"},
    {"quiet", false, "",
     "no environment warnings or unstable markers (as FEMTOBENCH_SUPPRESS_WARNINGS=1)"},
    {"baseline", true, "<file>",
     "compare with a femtobench JSON written earlier by -output_json: print a change table"},
    {"threshold", true, "<pct>",
     "with -baseline: changes within this % are 'same' (default: 10; docs/baselines.md)"},
    {"fail_on_slower", false, "",
     "with -baseline: exit status 3 when a benchmark is slower, or none is in common"},
    {"gbench_rows", true, "<layout>",
     "Google Benchmark JSON rows: median (one per benchmark, the default), repetitions (one per "
     "epoch + _mean/_median/_stddev) or aggregates (the three aggregates only)"},
    {"version", false, "", "print the femtobench version and exit"},
    {"context", true, "<key>=<value>",
     "record key=value (the commit, the branch, ...) in every output file; repeatable"},
    {"output_bmf", true, "<file>",
     "write all results in Bencher Metric Format JSON for bencher.dev ('-' = stdout)"},
    /* Google Benchmark's names (README.md, "Google Benchmark's flags") */
    {"benchmark_filter", true, "<regex>",
     "as GB: run the benchmarks whose name contains a match of this POSIX extended regex; a "
     "leading '-' runs those without one"},
    {"benchmark_out", true, "<file>", "as -output_gbench=<file>"},
    {"benchmark_out_format", true, "json", "the format of -benchmark_out: json only"},
    {"benchmark_format", true, "console|json",
     "json: Google Benchmark JSON on stdout, the table on stderr; console: the table (default)"},
    {"benchmark_list_tests", FB__V_BOOL, "[=true]", "as -list"},
    {"benchmark_min_time", true, "<t>[s]|<n>x",
     "minimum time of each epoch in seconds (GB's per-repetition time), or <n>x: n iterations "
     "per epoch"},
    {"benchmark_repetitions", true, "<n>",
     "n epochs, and -gbench_rows=repetitions (GB: n runs, each a row, then aggregates)"},
    {"benchmark_report_aggregates_only", FB__V_BOOL, "[=true]",
     "true: -gbench_rows=aggregates; false: -gbench_rows=repetitions"},
    {"valgrind", FB__V_OPTIONAL, "[=cache]",
     "exact instruction counts per op under Valgrind's Callgrind instead of times; "
     "=cache adds simulated cache and branch misses (docs/valgrind.md)"},
    {"isolate", false, "",
     "run each benchmark in a child process: a crash or exit() becomes an error row"},
    {"timeout", true, "<seconds>",
     "kill a benchmark that runs longer than this (an error row); implies -isolate"},
    /* Google Benchmark flags that change nothing here: accepted with a note */
    {"benchmark_context", true, "<k>=<v>,...", "as -context=<k>=<v> for each pair"},
    {"benchmark_dry_run", FB__V_BOOL, "[=true]", "as -sanity_check"},
    {"benchmark_color", FB__V_OPTIONAL, "[=<v>]", "accepted: the table has no colours"},
    {"benchmark_counters_tabular", FB__V_OPTIONAL, "[=<v>]",
     "accepted: counters are always columns"},
    {"benchmark_display_aggregates_only", FB__V_OPTIONAL, "[=<v>]",
     "accepted: the table shows one row per benchmark"},
    {"benchmark_enable_random_interleaving", FB__V_OPTIONAL, "[=<v>]",
     "accepted: -repetitions=<n> runs passes in random order"},
    {"benchmark_min_warmup_time", FB__V_OPTIONAL, "[=<t>]",
     "accepted: femtobench scales up before it measures"},
    {"benchmark_time_unit", FB__V_OPTIONAL, "[=<unit>]",
     "accepted: each row picks its unit (fb_set_time_unit)"},
    {"benchmark_perf_counters", FB__V_OPTIONAL, "[=<list>]",
     "accepted: the hardware counters are read when available"},
    {"v", FB__V_OPTIONAL, "[=<n>]", "accepted: verbosity has no levels here"},
};
#define FB__N_OPTS (sizeof fb__opt_specs / sizeof fb__opt_specs[0])

static int fb__runner_error(const char *fmt, ...) FB__PRINTF(1, 2);
static int fb__runner_error(const char *fmt, ...) {
    /* one line, whatever the values quoted in it hold: control
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
        if (!strcmp(fb__opt_specs[i].name, "benchmark_filter"))
            fputs("\nGoogle Benchmark's flag names, for compare.py and scripts written for it:\n",
                  f);
        char left[80];
        snprintf(left, sizeof left, "-%s%s%s", fb__opt_specs[i].name,
                 fb__opt_specs[i].takes_value == FB__V_REQUIRED ? "=" : "", fb__opt_specs[i].arg);
        if (strlen(left) > 26) /* a long GB name: the help on its own line */
            fprintf(f, "  %s\n  %-26s %s\n", left, "", fb__opt_specs[i].help);
        else
            fprintf(f, "  %-26s %s\n", left, fb__opt_specs[i].help);
    }
    fputs("\nEnvironment: FEMTOBENCH_CONFIG=\"epochs=21,min_epoch_time=5ms\", "
          "FEMTOBENCH_ENDLESS=<name>,\nFEMTOBENCH_SUPPRESS_WARNINGS=1. See README.md.\n",
          f);
}

/* Strict number: the whole text, finite, >= 0, '.' as the decimal point
 * whatever the locale (src/numfmt.c). */
static bool fb__parse_nonneg(const char *s, double *out) {
    return fb__parse_decimal(s, out) && *out >= 0;
}

/* A Google Benchmark boolean flag's value: "" (bare flag) is true. */
static int fb__parse_gb_bool(const char *name, const char *val, bool *out) {
    static const char *const t[] = {"", "true", "1", "yes", "on"};
    static const char *const f[] = {"false", "0", "no", "off"};
    for (size_t i = 0; i < sizeof t / sizeof *t; ++i)
        if (!strcmp(val, t[i])) return *out = true, 0;
    for (size_t i = 0; i < sizeof f / sizeof *f; ++i)
        if (!strcmp(val, f[i])) return *out = false, 0;
    return fb__runner_error("-%s=%s: expected true or false", name, val);
}

/* The Google Benchmark flags other than the boolean ones. */
static int fb__parse_gb_flag(const char *name, const char *val, fb__opts *o) {
    if (!strcmp(name, "benchmark_filter")) {
        o->filter_negate = val[0] == '-';
        o->filter = val + o->filter_negate;
        o->filter_search = true;
        if (!*o->filter) return fb__runner_error("-%s=%s: empty regular expression", name, val);
    } else if (!strcmp(name, "benchmark_out")) {
        if (!*val) return fb__runner_error("-%s: empty file name", name);
        o->out_gbench = val;
    } else if (!strcmp(name, "benchmark_out_format")) {
        if (strcmp(val, "json") != 0)
            return fb__runner_error("-%s=%s: femtobench writes Google Benchmark's json format "
                                    "only (its own CSV: -output_csv=<file>)",
                                    name, val);
        o->gb_out_format = val;
    } else if (!strcmp(name, "benchmark_format")) {
        if (!strcmp(val, "json"))
            o->gb_stdout = true;
        else if (!strcmp(val, "console"))
            o->gb_stdout = false;
        else
            return fb__runner_error("-%s=%s: expected console or json (femtobench's CSV: "
                                    "-output_csv=-)",
                                    name, val);
    } else if (!strcmp(name, "benchmark_min_time")) {
        char num[64];
        size_t len = strlen(val);
        char last = len ? val[len - 1] : '\0';
        double v;
        if (len == 0 || len >= sizeof num)
            return fb__runner_error("-%s=%s: expected seconds (0.5 or 0.5s) or iterations (100x)",
                                    name, val);
        snprintf(num, sizeof num, "%.*s", (int)(len - (last == 's' || last == 'x')), val);
        if (last == 'x') {
            if (!fb__parse_nonneg(num, &v) || v < 1 || v != floor(v) || v > 9007199254740992.0)
                return fb__runner_error("-%s=%s: the iterations must be a whole number >= 1", name,
                                        val);
            o->epoch_iterations = v;
            o->min_epoch_time_s = -1;
        } else {
            if (!fb__parse_nonneg(num, &v))
                return fb__runner_error("-%s=%s: not a non-negative number of seconds", name, val);
            o->min_epoch_time_s = v;
            o->epoch_iterations = 0;
        }
    } else if (!strcmp(name, "benchmark_repetitions")) {
        double v;
        if (!fb__parse_nonneg(val, &v) || v < 1 || v != floor(v) || v > 1e6)
            return fb__runner_error("-%s=%s: expected a whole number from 1 to 1000000", name, val);
        o->epochs = v;
    } else if (!strcmp(name, "gbench_rows")) {
        static const char *const rows[] = {"median", "repetitions", "aggregates"};
        o->gb_rows = -1;
        for (int i = 0; i < 3; ++i)
            if (!strcmp(val, rows[i])) o->gb_rows = i; /* FB_GBENCH_* in that order */
        if (o->gb_rows < 0)
            return fb__runner_error("-%s=%s: expected median, repetitions or aggregates", name,
                                    val);
    } else {
        return -1; /* not one of these */
    }
    return 0;
}

/* -context=key=value: checked as fb_set_context checks it (src/context.c). */
static int fb__parse_context(const char *opt, const char *val, fb__opts *o) {
    const char *eq = strchr(val, '=');
    if (!eq) return fb__runner_error("-%s=%s: expected key=value", opt, val);
    char key[FB__CONTEXT_KEY_MAX + 2];
    size_t klen = (size_t)(eq - val);
    snprintf(key, sizeof key, "%.*s", (int)(klen < sizeof key - 1 ? klen : sizeof key - 1), val);
    if (klen >= sizeof key - 1) key[sizeof key - 2] = 'x'; /* too long: refused below */
    const char *why = fb__context_bad_in(&o->context, key, eq + 1);
    if (why) return fb__runner_error("-%s=%s: %s", opt, val, why);
    if (fb__context_add(&o->context, key, eq + 1) != FB_OK)
        return fb__runner_error("-%s: out of memory", opt);
    return 0;
}

/* The options added for dashboards and Google Benchmark users: -context,
 * -output_bmf, --benchmark_context, --benchmark_dry_run and the GB flags
 * that change nothing. -1: not one of these; else 0 or the exit status. */
static int fb__parse_feature_flag(const char *name, const char *val, fb__opts *o) {
    if (!strcmp(name, "context")) return fb__parse_context(name, val, o);
    if (!strcmp(name, "output_bmf")) {
        if (!*val) return fb__runner_error("-%s: empty file name", name);
        o->out_bmf = val;
        return 0;
    }
    if (!strcmp(name, "benchmark_context")) { /* GB: k1=v1,k2=v2 */
        char pair[FB__CONTEXT_KEY_MAX + FB__CONTEXT_VALUE_MAX + 4];
        for (const char *p = val;;) {
            const char *comma = strchr(p, ',');
            size_t len = comma ? (size_t)(comma - p) : strlen(p);
            if (len >= sizeof pair)
                return fb__runner_error("-%s: an entry is longer than %zu bytes", name,
                                        sizeof pair - 1);
            memcpy(pair, p, len);
            pair[len] = '\0';
            int rc = fb__parse_context(name, pair, o);
            if (rc) return rc;
            if (!comma) break;
            p = comma + 1;
        }
        return 0;
    }
    if (!strcmp(name, "benchmark_dry_run")) {
        bool on = false;
        int rc = fb__parse_gb_bool(name, val, &on);
        if (rc) return rc;
        o->sanity = o->sanity || on;
        return 0;
    }
    for (size_t k = 0; k < FB__N_OPTS; ++k) {
        const fb__opt_spec *s = &fb__opt_specs[k];
        if (strcmp(s->name, name) != 0 || strncmp(s->help, "accepted: ", 10) != 0) continue;
        if (o->n_gb_notes < sizeof o->gb_notes / sizeof o->gb_notes[0])
            o->gb_notes[o->n_gb_notes++] = s->name;
        return 0;
    }
    return -1;
}

static int fb__parse_asymptote(const char *text, fb__opts *o) {
    size_t cap = 1;
    for (const char *p = text; *p; ++p) cap += *p == ',';
    if (cap > FB__CLI_MAX_ASYMPTOTE) /* each N is a run */
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
        if (v > FB__MAX_COMPLEXITY_N)
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
        if (spec->takes_value == FB__V_REQUIRED && !eq)
            return fb__runner_error("-%s needs a value: -%s=%s", spec->name, spec->name, spec->arg);
        if (spec->takes_value == FB__V_NONE && eq)
            return fb__runner_error("-%s takes no value, got '%s'", spec->name, arg);
        const char *val = eq ? eq + 1 : "";
        int gb = fb__parse_gb_flag(spec->name, val, o);
        if (gb >= 0) {
            if (gb) return gb;
            continue;
        }
        if ((gb = fb__parse_feature_flag(spec->name, val, o)) >= 0) {
            if (gb) return gb;
            continue;
        }
        bool on = false;
        if (!strcmp(spec->name, "benchmark_list_tests")) {
            if ((gb = fb__parse_gb_bool(spec->name, val, &on)) != 0) return gb;
            o->list = on;
        } else if (!strcmp(spec->name, "benchmark_report_aggregates_only")) {
            if ((gb = fb__parse_gb_bool(spec->name, val, &on)) != 0) return gb;
            o->gb_aggregates_only = on;
        } else if (!strcmp(spec->name, "version"))
            o->version = true;
        else if (!strcmp(spec->name, "help"))
            o->help = true;
        else if (!strcmp(spec->name, "list"))
            o->list = true;
        else if (!strcmp(spec->name, "sanity_check"))
            o->sanity = true;
        else if (!strcmp(spec->name, "quiet"))
            o->quiet = true;
        else if (!strcmp(spec->name, "isolate"))
            o->isolate = true;
        else if (!strcmp(spec->name, "timeout")) {
            char why[96];
            if (!fb__parse_nonneg(val, &o->timeout_s) || o->timeout_s <= 0)
                return fb__runner_error("-timeout=%s: not a number of seconds > 0", val);
            if (fb__cli_range(o->timeout_s, 0, FB__CLI_MAX_TIMEOUT_S, "s", why, sizeof why))
                return fb__runner_error("-timeout=%s: %s", val, why);
            o->isolate = true;
        } else if (!strcmp(spec->name, "fail_on_slower"))
            o->fail_on_slower = true;
        else if (!strcmp(spec->name, "threshold")) {
            if (fb__change_parse_threshold(val, &o->threshold_pct))
                return fb__runner_error("-threshold=%s: not a percentage >= 0 and < 1000", val);
        } else if (!strcmp(spec->name, "baseline")) {
            if (!*val) return fb__runner_error("-baseline: empty file name");
            o->baseline = val;
        } else if (!strcmp(spec->name, "filter")) {
            o->filter = val;
            o->filter_search = o->filter_negate = false;
        } else if (!strcmp(spec->name, "valgrind")) { /* src/valgrind_runner.c */
            if (eq && strcmp(val, "cache") != 0)
                return fb__runner_error("-valgrind=%s: unknown value (use -valgrind or "
                                        "-valgrind=cache)",
                                        val);
            o->valgrind = eq ? 2 : 1;
        } else if (!strcmp(spec->name, "min_time")) {
            char why[96];
            if (!fb__parse_nonneg(val, &o->min_time_ms))
                return fb__runner_error("-min_time=%s: not a non-negative number of milliseconds",
                                        val);
            if (fb__cli_range(o->min_time_ms, 0, FB__CLI_MAX_MIN_TIME_MS, "ms", why, sizeof why))
                return fb__runner_error("-min_time=%s: %s", val, why);
        } else if (!strcmp(spec->name, "repetitions")) { /* src/passes.c */
            /* the grammar of every other number (no blank, no sign) */
            double n;
            if (!fb__parse_nonneg(val, &n) || n != floor(n) || n < 1 || n > 1000 ||
                strpbrk(val, ".eE"))
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
            else if (!strcmp(spec->name, "output_html"))
                o->out_html = val;
            else
                o->out_gbench = val;
        }
    }
    return 0;
}

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
            if (o->pinned[k] && !strcmp(jobs[i].option, fb__runner_out_option[k]))
                shown = o->shown[k];
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
    if (o->version) {
        /* through the plugin entry point: a suite linked from the static
         * library then always carries it (femtobench-ab, docs/ab.md) */
        const fb__plugin_api *api = fb__plugin_entry();
        printf("femtobench %s (plugin interface %u)\n", api->version, api->abi);
        return -1;
    }
    /* Google Benchmark flags that change nothing here: said, not refused */
    for (size_t i = 0; i < o->n_gb_notes && !o->quiet; ++i)
        for (size_t k = 0; k < FB__N_OPTS; ++k)
            if (!strcmp(fb__opt_specs[k].name, o->gb_notes[i]))
                fprintf(stderr, "femtobench: note: --%s %s\n", o->gb_notes[i],
                        fb__opt_specs[k].help);
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
        return fb__runner_error("%s", why_reg);
    *sel_out = all;
    size_t n = 0;
    while (all[n]) ++n;
    for (size_t i = 0; i < n; ++i)
        if (fb__runner_bad_name(all[i]->name))
            return fb__runner_error("benchmark name '%.40s...' %s", all[i]->name,
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
        return fb__runner_error("out of memory");
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
        if (strlen(filter) > 64) return fb__runner_error("-%s=%.60s...: %s", opt, filter, fwhy);
        return fb__runner_error("-%s=%s: %s", opt, filter, fwhy);
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
            return fb__runner_error("-%s=%s%s selects no benchmark (see -list)",
                                    o->filter_search ? "benchmark_filter" : "filter",
                                    o->filter_negate ? "-" : "", filter);
        return fb__runner_error("no benchmark is registered");
    }

    /* the outputs as one set (src/outfile.c): each writable, no
     * two the same file, none the file the table goes to */
    fb__outfile_job jobs[FB__OUTFILE_MAX_SET];
    size_t n_jobs = fb__runner_jobs(o, jobs);
    int table_fd = o->sanity ? -1 : fb__runner_table_fd(jobs, n_jobs);
    char why[1024];
    if (fb__outfile_check_set(jobs, n_jobs, table_fd, why, sizeof why) != FB_OK)
        return fb__runner_error("%s", why);
    if (o->isolate && fb__isolate_check(why, sizeof why) != FB_OK) /* Windows: no fork */
        return fb__runner_error("%s: %s", o->timeout_s > 0 ? "-timeout" : "-isolate", why);
    if (o->valgrind) { /* -valgrind: what cannot work is refused before anything runs */
        const char *opt = o->valgrind == 2 ? "-valgrind=cache" : "-valgrind";
        if (o->sanity) return fb__runner_error("%s and -sanity_check do not go together", opt);
        if (o->min_time_ms >= 0)
            return fb__runner_error("-min_time: has no effect with %s (it counts, it does not "
                                    "time)",
                                    opt);
        if (fb__process_endless())
            return fb__runner_error("%s: FEMTOBENCH_ENDLESS is set (an endless run never ends "
                                    "under Valgrind either)",
                                    opt);
        if (fb__vg_runner_check(why, sizeof why) != FB_OK)
            return fb__runner_error("%s: %s", opt, why);
    }
    /* the baseline is read and fully checked before anything runs */
    if (!o->baseline && o->threshold_pct >= 0)
        return fb__runner_error("-threshold needs -baseline=<file>");
    if (!o->baseline && o->fail_on_slower)
        return fb__runner_error("-fail_on_slower needs -baseline=<file>");
    if (o->baseline) {
        for (size_t i = 0; i < n_jobs; ++i) /* never the file it compares with */
            if (fb__outfile_not_input(jobs[i].path, o->baseline, why, sizeof why) != FB_OK)
                return fb__runner_error("-%s=%s: %s", jobs[i].option, jobs[i].path, why);
        if (fb__baseline_load(o->baseline, &o->base, why, sizeof why))
            return fb__runner_error("-baseline=%s: %s", o->baseline, why);
    }
    /* each output pinned to where it was checked: a benchmark that calls
     * chdir() moves nothing (src/outfile.c) */
    const char **outs[4] = {&o->out_csv, &o->out_json, &o->out_gbench, &o->out_html};
    for (int i = 0; i < 4; ++i) {
        if (!*outs[i]) continue;
        if (fb__outfile_pin(*outs[i], &o->pinned[i], why, sizeof why) != FB_OK)
            return fb__runner_error("-%s=%s: %s", fb__runner_out_option[i], *outs[i], why);
        o->shown[i] = *outs[i];
        *outs[i] = o->pinned[i];
    }
    return 0;
}

/* What the options allocated (the -asymptote list, the pinned outputs). */
static void fb__runner_opts_free(fb__opts *o) {
    free(o->asymptote);
    o->asymptote = NULL;
    fb__context_clear(&o->context);
    for (int i = 0; i < 4; ++i) {
        free(o->pinned[i]);
        o->pinned[i] = NULL;
    }
}

int fb_main(int argc, char **argv) {
    fb__opts o = {0};
    o.min_time_ms = -1;
    o.threshold_pct = -1;
    o.gb_rows = o.gb_aggregates_only = -1; /* not given */
    o.min_epoch_time_s = -1;
    fb__instance **sel = NULL;
    int rc = fb__runner(argc, argv, &o, &sel);
    if (rc) {
        fb__instances_free(sel);
        fb__runner_opts_free(&o);
        fb__baseline_free(&o.base);
        return rc < 0 ? 0 : rc;
    }
    if (o.list) {
        for (size_t i = 0; sel[i]; ++i) printf("%s\n", sel[i]->name);
        fb__instances_free(sel);
        fb__runner_opts_free(&o);
        fb__baseline_free(&o.base);
        return 0;
    }
    if (o.valgrind) { /* the same options again, in a child under Callgrind */
        free(sel);
        fb__runner_opts_free(&o);
        return fb__vg_runner_exec(argc, argv, o.valgrind == 2);
    }
    if (o.quiet) fb__process_set_quiet(true);
    fb__outfile_job jobs[FB__OUTFILE_MAX_SET];
    size_t n_jobs = fb__runner_jobs(&o, jobs);
    bool to_stdout = fb__runner_table_fd(jobs, n_jobs) == 2;
    /* one live table for the whole suite */
    fb__table table;
    memset(&table, 0, sizeof table);
    table.out = o.sanity ? NULL : to_stdout ? stderr : stdout;
    /* a benchmark's fb_set_output changes the shared table's stream for that
     * benchmark alone: each benchmark starts from the suite's stream */
    FILE *const suite_out = table.out;
    FILE *tout = to_stdout ? stderr : stdout;
    fb__collector collector = {o.sanity, 0, 0};

    fb_bench *suite = fb_bench_new();
    if (!suite) return fb__runner_error("out of memory");
    /* -context: every file the suite writes records the pairs */
    for (size_t i = 0; i < o.context.n; ++i)
        if (fb_set_context(suite, o.context.key[i], o.context.value[i]) != FB_OK) {
            fb_bench_free(suite);
            return fb__runner_error("-context: out of memory");
        }
    int status = 0;
    size_t ran = 0;
    bool interrupted = false;
    /* -repetitions runs the selection in passes, each in a
     * fresh random order (src/passes.c); one pass keeps the registry order */
    size_t n_sel = 0;
    while (sel[n_sel]) ++n_sel;
    unsigned passes = o.repetitions ? o.repetitions : 1;
    size_t *order = malloc(n_sel * sizeof *order);
    if (!order) {
        fb_bench_free(suite);
        free(sel);
        fb__runner_opts_free(&o);
        return fb__runner_error("out of memory");
    }
    /* families within passes: where each instance's results start and end
     * in the suite, and the pass it last ran in, so that a family's fit is
     * written once all its instances ran in the pass, whatever the order */
    size_t *res_lo = malloc((n_sel + 1) * 3 * sizeof *res_lo);
    if (!res_lo) {
        free(order);
        fb_bench_free(suite);
        free(sel);
        fb__runner_opts_free(&o);
        return fb__runner_error("out of memory");
    }
    size_t *res_hi = res_lo + n_sel + 1, *ran_in = res_hi + n_sel + 1;
    /* the status line on a terminal (src/progress.c), erased before rows */
    fb__progress prog;
    fb__progress_init(&prog, stderr, n_sel * passes,
                      !o.quiet && !o.sanity && isatty(2) && !fb__process_endless());
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
                       !fb__process_callgrind()->on && !o.sanity;
    unsigned first_pass = pass_fd >= 0 ? my_pass : 0;
    unsigned order_passes = pass_fd >= 0 ? all_passes : passes;
    unsigned run_passes = pass_fd >= 0 ? 1 : exec_passes ? 0 : passes;
    if (exec_passes) {
        fb__runner_pass_ctx pc = {&collector};
        char pwhy[512];
        if (fb__passes_exec(argc, argv, passes, suite, fb__runner_pass_bench, &pc, tout,
                            &interrupted, pwhy, sizeof pwhy) != FB_OK) {
            fb__runner_error("%s", pwhy);
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
            status = fb__runner_error("out of memory");
            break;
        }
        table.out = suite_out;
        fb__bench_share_table(b, &table);
        /* one pass of a parent's -repetitions: every result goes back to it */
        if (pass_fd >= 0 && fb__bench_add_sink(b, fb__passes_exec_sink, &pass_fd) != FB_OK) {
            fb_bench_free(b);
            status = fb__runner_error("out of memory");
            break;
        }
        fb__runner_configure(b, &o);
        b->cfg.pass = pass;
        b->name = fb__strdup(sel[i]->name); /* FB_RUN(b, NULL) runs under it */
        /* the instance's argument (fb_arg), and where its family starts */
        if (sel[i]->has_arg) fb__bench_set_args(b, sel[i]->args, sel[i]->n_args);
        res_lo[i] = suite->n_results;
        fb__runner_job job = {&o, sel[i], false};
        if (o.isolate && !fb__process_endless()) { /* crash isolation */
            char iwhy[320];
            bool intr = false;
            if (fb__isolate_run(b, sel[i]->name, o.timeout_s, fb__runner_body, &job, &intr, iwhy,
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
                    fb__runner_error("%s: a run's name '%.40s' %s; nothing written", sel[i]->name,
                                     b->results[r]->name, fb__runner_bad_name(b->results[r]->name));
        for (size_t c = 0; c < b->n_comparisons && !status; ++c) /* ... and alternatives' */
            for (size_t a = 0; a < fb_comparison_size(b->comparisons[c]) && !status; ++a) {
                const char *an = fb_comparison_name(b->comparisons[c], a);
                if (fb__runner_bad_name(an))
                    status = fb__runner_error(
                        "%s: comparison '%.40s': an alternative's name '%.40s' %s; nothing "
                        "written",
                        sel[i]->name, fb_comparison_title(b->comparisons[c]), an ? an : "",
                        fb__runner_bad_name(an));
            }
        if (o.n_asymptote && !o.sanity && !interrupted &&
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
        if (sel[i]->has_arg && !o.sanity && !interrupted) {
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
                status = fb__runner_error("out of memory");
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
    free(order);
    free(res_lo);
    if (pass_fd >= 0) { /* a pass process: the parent reports and writes the files */
        if (!status || interrupted) fb__passes_exec_end(pass_fd, interrupted);
        fb_bench_free(suite);
        fb__instances_free(sel);
        fb__runner_opts_free(&o);
        fb__baseline_free(&o.base);
        return interrupted ? 130 : status ? status : collector.failed ? 1 : 0;
    }
    if (passes > 1 && !interrupted && !o.sanity && !status) {
        fprintf(tout,
                "\nOver %u passes (median of the passes' medians; between passes: half the "
                "passes lie within this %% of it):\n",
                passes);
        fb__write_passes(suite, tout);
    }
    if (interrupted) {
        fprintf(stderr, "femtobench: interrupted%s\n",
                o.out_csv || o.out_json || o.out_gbench || o.out_html || o.gb_stdout || o.out_bmf
                    ? "; no output file written"
                    : "");
        status = 130;
    } else if (!status) {
        if (o.sanity)
            fprintf(stderr, "femtobench: sanity check: %zu benchmark%s ran, %zu failed\n", ran,
                    ran == 1 ? "" : "s", collector.failed);
        /* the change table after the ordinary one (src/report_change.c) */
        size_t counts[FB__V_COUNT] = {0};
        int cerr = 0;
        if (o.baseline && !o.sanity) {
            fputc('\n', tout);
            double t = o.threshold_pct >= 0 ? o.threshold_pct : FB__CHANGE_DEFAULT_THRESHOLD_PCT;
            /* kept with the suite: the HTML report draws it */
            suite->change = calloc(1, sizeof *suite->change);
            cerr =
                !suite->change || fb__change_against(tout, &o.base, suite, t, counts, suite->change)
                    ? 1
                    : 0;
            if (cerr) fb__runner_error("out of memory");
        }
        /* a baseline that shares no benchmark with the run compared nothing:
         * said, and a -fail_on_slower gate fails on it */
        bool none = false;
        if (o.baseline && !o.sanity && !cerr) {
            size_t total = 0;
            for (int v = 0; v < FB__V_COUNT; ++v) total += counts[v];
            none = counts[FB__V_NEW] + counts[FB__V_GONE] == total;
            if (none)
                fprintf(stderr,
                        "femtobench: warning: no benchmark in common with the baseline: nothing "
                        "was compared%s\n",
                        o.fail_on_slower ? " (-fail_on_slower: exit status 3)" : "");
        }
        int werr = fb__runner_write(&o, jobs, n_jobs, suite); /* all together */
        status = werr || cerr ? 1 : collector.failed ? 1 : 0;
        if (collector.misused) /* bad input, given through the API (src/misuse.h) */
            status = fb__runner_error("%zu benchmark run%s refused a bad argument to the API (see "
                                      "the error rows)",
                                      collector.misused, collector.misused == 1 ? "" : "s");
        if (!status && o.fail_on_slower && (counts[FB__V_SLOWER] || none)) status = 3;
    }
    fb_bench_free(suite);
    fb__instances_free(sel);
    fb__runner_opts_free(&o);
    fb__baseline_free(&o.base);
    return status;
}
