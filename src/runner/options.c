/* The suite runner's command line: the table of options (grouped by
 * purpose for -help), Google Benchmark's flag names, and the parser. */
#include "options.h"
#include "cli_check.h"
#include "numfmt.h"   /* locale-independent numbers */
#include "settings.h" /* bounds of the values */
#include "text.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* The Google Benchmark JSON in the row layout asked for (-gbench_rows). */
static int fb__opts_write_gbench(void *ctx, FILE *f) {
    const fb__opts_gbench *g = ctx;
    return fb_write_gbench_json_rows(g->b, f, g->rows);
}

/* The runner's outputs: the one table (src/outputs/outfile.h). -help lists its rows
 * under "What is written:", the parser takes each as -option=<file>, and
 * every path is checked, pinned and written by the same functions. A new
 * output is one more row here (and its FB__OUT_* name). */
static const fb__output_spec fb__opts_output_rows[FB__OPTS_N_OUT] = {
    {"output_csv", "write all results as CSV ('-' = stdout)", fb_write_csv, NULL},
    {"output_json", "write all results as femtobench JSON ('-' = stdout)", fb_write_json, NULL},
    {"output_gbench", "write all results as Google Benchmark JSON ('-' = stdout)", NULL,
     fb__opts_write_gbench},
    {"output_html", "write a self-contained HTML report with charts ('-' = stdout)", fb_write_html,
     NULL},
    {"output_bmf", "write all results in Bencher Metric Format JSON for bencher.dev ('-' = stdout)",
     fb_write_bmf, NULL},
    /* --benchmark_format=json: the Google Benchmark JSON on stdout */
    {"benchmark_format=json", NULL, NULL, fb__opts_write_gbench},
};

const fb__output_spec *fb__opts_outputs(void) { return fb__opts_output_rows; }

/* takes_value: FB__V_NONE, FB__V_REQUIRED, or FB__V_BOOL (Google Benchmark's
 * boolean flags: bare, or =true/false/1/0/yes/no). */
/* FB__V_OPTIONAL: a value may follow (-valgrind or -valgrind=cache). */
enum { FB__V_NONE = 0, FB__V_REQUIRED = 1, FB__V_BOOL = 2, FB__V_OPTIONAL = 3 };

/* -help lists the options by purpose, in this order. */
enum {
    FB__G_SELECT,   /* what runs */
    FB__G_MEASURE,  /* how it is measured */
    FB__G_OUTPUT,   /* what is written */
    FB__G_BASELINE, /* against an earlier run */
    FB__G_GB,       /* Google Benchmark's names for the same */
    FB__G_GB_NOTE,  /* Google Benchmark's flags that change nothing here */
    FB__G_COUNT
};
static const char *const fb__opt_group_title[FB__G_COUNT] = {
    "What runs:",
    "How it is measured:",
    "What is written:",
    "Against an earlier run:",
    "Google Benchmark's flag names, for compare.py and scripts written for it:",
    "Google Benchmark flags accepted with a note (they change nothing here):",
};

typedef struct fb__opt_spec {
    const char *name;
    int takes_value;
    const char *arg, *help;
    int group; /* FB__G_* */
} fb__opt_spec;

static const fb__opt_spec fb__opt_specs[] = {
    {"help", false, "", "print this help and exit", FB__G_SELECT},
    {"list", false, "", "list the selected benchmarks, one a line, without running them",
     FB__G_SELECT},
    {"filter", true, "<regex>",
     "run the benchmarks whose whole name (or family's name) matches this POSIX extended regex "
     "(default: .*)",
     FB__G_SELECT},
    {"shard", true, "<k>/<n>",
     "run shard k of n (1 <= k <= n <= 1000): the selected benchmarks split into n parts, a "
     "family's instances together, the same split on every machine (one CI job each)",
     FB__G_SELECT},
    {"min_time", true, "<ms>",
     "minimum measured time per benchmark in milliseconds: more epochs of the usual length, "
     "never longer ones, so that a preemption stays one epoch the median leaves out",
     FB__G_MEASURE},
    {"sanity_check", false, "",
     "run each selected benchmark once (one epoch of one iteration), print no table", FB__G_SELECT},
    {"asymptote", true, "<n1,n2,...>",
     "run each selected benchmark once per N and fit its complexity", FB__G_MEASURE},
    {"repetitions", true, "<n>",
     "run the selected suite n times (default 1), each pass in a fresh process and a fresh "
     "random order; per benchmark the median over passes and the spread between them",
     FB__G_MEASURE},
    {"quiet", false, "",
     "no environment warnings or unstable markers (as FEMTOBENCH_SUPPRESS_WARNINGS=1)",
     FB__G_OUTPUT},
    {"baseline", true, "<file>",
     "compare with a femtobench JSON written earlier by -output_json: print a change table; "
     "several files (a,b or -baseline given again) are the shards of one run, merged",
     FB__G_BASELINE},
    {"threshold", true, "<pct>",
     "with -baseline: changes within this % are 'same' (default: 10; docs/baselines.md)",
     FB__G_BASELINE},
    {"fail_on_slower", false, "",
     "with -baseline: exit status 3 when a benchmark is slower, or none is in common",
     FB__G_BASELINE},
    {"gbench_rows", true, "<layout>",
     "Google Benchmark JSON rows: median (one per benchmark, the default), repetitions (one per "
     "epoch + _mean/_median/_stddev) or aggregates (the three aggregates only)",
     FB__G_OUTPUT},
    {"version", false, "", "print the femtobench version and exit", FB__G_SELECT},
    {"context", true, "<key>=<value>",
     "record key=value (the commit, the branch, ...) in every output file; repeatable",
     FB__G_OUTPUT},
    /* Google Benchmark's names (README.md, "Google Benchmark's flags") */
    {"benchmark_filter", true, "<regex>",
     "as GB: run the benchmarks whose name contains a match of this POSIX extended regex; a "
     "leading '-' runs those without one",
     FB__G_GB},
    {"benchmark_out", true, "<file>", "as -output_gbench=<file>", FB__G_GB},
    {"benchmark_out_format", true, "json", "the format of -benchmark_out: json only", FB__G_GB},
    {"benchmark_format", true, "console|json",
     "json: Google Benchmark JSON on stdout, the table on stderr; console: the table (default)",
     FB__G_GB},
    {"benchmark_list_tests", FB__V_BOOL, "[=true]", "as -list", FB__G_GB},
    {"benchmark_min_time", true, "<t>[s]|<n>x",
     "measured time per benchmark in seconds (times --benchmark_repetitions), as -min_time: "
     "more epochs, not longer ones; <n>x: n iterations in all, split over the epochs (with "
     "--benchmark_repetitions: n per epoch, GB's per repetition)",
     FB__G_GB},
    {"benchmark_repetitions", true, "<n>",
     "n epochs, and -gbench_rows=repetitions (GB: n runs, each a row, then aggregates)", FB__G_GB},
    {"benchmark_report_aggregates_only", FB__V_BOOL, "[=true]",
     "true: -gbench_rows=aggregates; false: -gbench_rows=repetitions", FB__G_GB},
    {"valgrind", FB__V_OPTIONAL, "[=cache]",
     "exact instruction counts per op under Valgrind's Callgrind instead of times; "
     "=cache adds simulated cache and branch misses (docs/valgrind.md)",
     FB__G_MEASURE},
    {"isolate", false, "",
     "run each benchmark in a child process: a crash or exit() becomes an error row",
     FB__G_MEASURE},
    {"timeout", true, "<seconds>",
     "kill a benchmark that runs longer than this (an error row); implies -isolate", FB__G_MEASURE},
    /* Google Benchmark flags that change nothing here: accepted with a note */
    {"benchmark_context", true, "<k>=<v>,...", "as -context=<k>=<v> for each pair", FB__G_GB},
    {"benchmark_dry_run", FB__V_BOOL, "[=true]", "as -sanity_check", FB__G_GB},
    {"benchmark_color", FB__V_OPTIONAL, "[=<v>]", "accepted: the table has no colours",
     FB__G_GB_NOTE},
    {"benchmark_counters_tabular", FB__V_OPTIONAL, "[=<v>]",
     "accepted: counters are always columns", FB__G_GB_NOTE},
    {"benchmark_display_aggregates_only", FB__V_OPTIONAL, "[=<v>]",
     "accepted: the table shows one row per benchmark", FB__G_GB_NOTE},
    {"benchmark_enable_random_interleaving", FB__V_OPTIONAL, "[=<v>]",
     "accepted: -repetitions=<n> runs passes in random order", FB__G_GB_NOTE},
    {"benchmark_min_warmup_time", FB__V_OPTIONAL, "[=<t>]",
     "accepted: femtobench scales up before it measures", FB__G_GB_NOTE},
    {"benchmark_time_unit", FB__V_OPTIONAL, "[=<unit>]",
     "accepted: each row picks its unit (fb_set_time_unit)", FB__G_GB_NOTE},
    {"benchmark_perf_counters", FB__V_OPTIONAL, "[=<list>]",
     "accepted: the hardware counters are read when available", FB__G_GB_NOTE},
    {"v", FB__V_OPTIONAL, "[=<n>]", "accepted: verbosity has no levels here", FB__G_GB_NOTE},
};
#define FB__N_OPTS (sizeof fb__opt_specs / sizeof fb__opt_specs[0])

int fb__opts_error(const char *fmt, ...) {
    /* one line, whatever the values quoted in it hold: control
     * characters are shown as \xNN (src/runner/cli_check.c) */
    char line[1536];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    fputs("femtobench: error: ", stderr);
    fb__put_line(stderr, line);
    fputc('\n', stderr);
    return 2;
}

static void fb__opts_help_line(FILE *f, const char *name, const char *eq, const char *arg,
                               const char *help) {
    char left[80];
    snprintf(left, sizeof left, "-%s%s%s", name, eq, arg);
    if (strlen(left) > 26) /* a long GB name: the help on its own line */
        fprintf(f, "  %s\n  %-26s %s\n", left, "", help);
    else
        fprintf(f, "  %-26s %s\n", left, help);
}

void fb__opts_help(FILE *f, const char *prog) {
    fprintf(f, "usage: %s [options]\n\nOptions (one dash or two):\n", prog);
    for (int g = 0; g < FB__G_COUNT; ++g) {
        fprintf(f, "\n%s\n", fb__opt_group_title[g]);
        for (size_t i = 0; g == FB__G_OUTPUT && i < FB__OPTS_N_OUT; ++i) /* the outputs' table */
            if (fb__opts_output_rows[i].help)
                fb__opts_help_line(f, fb__opts_output_rows[i].option, "=", "<file>",
                                   fb__opts_output_rows[i].help);
        for (size_t i = 0; i < FB__N_OPTS; ++i) {
            if (fb__opt_specs[i].group != g) continue;
            fb__opts_help_line(f, fb__opt_specs[i].name,
                               fb__opt_specs[i].takes_value == FB__V_REQUIRED ? "=" : "",
                               fb__opt_specs[i].arg, fb__opt_specs[i].help);
        }
    }
    fputs("\nEnvironment: FEMTOBENCH_CONFIG=\"epochs=21,min_epoch_time=5ms\", "
          "FEMTOBENCH_ENDLESS=<name>,\nFEMTOBENCH_SUPPRESS_WARNINGS=1. See README.md.\n",
          f);
}

/* Strict number: the whole text, finite, >= 0, '.' as the decimal point
 * whatever the locale (src/platform/numfmt.c), in its canonical form (no leading
 * zero before another digit: src/process/settings.c). */
static bool fb__parse_nonneg(const char *s, double *out) {
    return !fb__number_padded(s) && fb__parse_decimal(s, out) && *out >= 0;
}

/* The options whose values are numbers (or lists of them: -asymptote's
 * n1,n2, -shard's k/n): each number in the canonical form, so that `05` is
 * refused by every one of them alike, with the same line. */
static const char *const fb__opts_numeric[] = {
    "min_time", "asymptote", "repetitions",        "timeout",
    "shard",    "threshold", "benchmark_min_time", "benchmark_repetitions"};

static int fb__opts_check_padded(const char *name, const char *val) {
    bool numeric = false;
    for (size_t i = 0; i < sizeof fb__opts_numeric / sizeof *fb__opts_numeric; ++i)
        numeric = numeric || !strcmp(name, fb__opts_numeric[i]);
    if (!numeric) return 0;
    for (const char *p = val; *p; ++p)
        if ((p == val || p[-1] == ',' || p[-1] == '/') && fb__number_padded(p))
            return fb__opts_error("-%s=%s: a number with a leading zero (write 5, not 05)", name,
                                  val);
    return 0;
}

/* A Google Benchmark boolean flag's value: "" (bare flag) is true. */
static int fb__parse_gb_bool(const char *name, const char *val, bool *out) {
    static const char *const t[] = {"", "true", "1", "yes", "on"};
    static const char *const f[] = {"false", "0", "no", "off"};
    for (size_t i = 0; i < sizeof t / sizeof *t; ++i)
        if (!strcmp(val, t[i])) return *out = true, 0;
    for (size_t i = 0; i < sizeof f / sizeof *f; ++i)
        if (!strcmp(val, f[i])) return *out = false, 0;
    return fb__opts_error("-%s=%s: expected true or false", name, val);
}

/* The Google Benchmark flags other than the boolean ones. */
static int fb__parse_gb_flag(const char *name, const char *val, fb__opts *o) {
    if (!strcmp(name, "benchmark_filter")) {
        o->filter_negate = val[0] == '-';
        o->filter = val + o->filter_negate;
        o->filter_search = true;
        if (!*o->filter) return fb__opts_error("-%s=%s: empty regular expression", name, val);
    } else if (!strcmp(name, "benchmark_out")) {
        if (!*val) return fb__opts_error("-%s: empty file name", name);
        o->outs.given[FB__OUT_GBENCH] = val;
    } else if (!strcmp(name, "benchmark_out_format")) {
        if (strcmp(val, "json") != 0)
            return fb__opts_error("-%s=%s: femtobench writes Google Benchmark's json format "
                                  "only (its own CSV: -output_csv=<file>)",
                                  name, val);
        o->gb_out_format = val;
    } else if (!strcmp(name, "benchmark_format")) {
        if (!strcmp(val, "json"))
            o->gb_stdout = true;
        else if (!strcmp(val, "console"))
            o->gb_stdout = false;
        else
            return fb__opts_error("-%s=%s: expected console or json (femtobench's CSV: "
                                  "-output_csv=-)",
                                  name, val);
    } else if (!strcmp(name, "benchmark_min_time")) {
        char num[64];
        size_t len = strlen(val);
        char last = len ? val[len - 1] : '\0';
        double v;
        if (len == 0 || len >= sizeof num)
            return fb__opts_error("-%s=%s: expected seconds (0.5 or 0.5s) or iterations (100x)",
                                  name, val);
        snprintf(num, sizeof num, "%.*s", (int)(len - (last == 's' || last == 'x')), val);
        if (last == 'x') {
            if (!fb__parse_nonneg(num, &v) || v < 1 || v != floor(v) || v > 9007199254740992.0)
                return fb__opts_error("-%s=%s: the iterations must be a whole number >= 1", name,
                                      val);
            o->epoch_iterations = v;
            o->min_epoch_time_s = -1;
        } else {
            if (!fb__parse_nonneg(num, &v))
                return fb__opts_error("-%s=%s: not a non-negative number of seconds", name, val);
            o->min_epoch_time_s = v;
            o->epoch_iterations = 0;
        }
    } else if (!strcmp(name, "benchmark_repetitions")) {
        double v;
        if (!fb__parse_nonneg(val, &v) || v < 1 || v != floor(v) || v > 1e6)
            return fb__opts_error("-%s=%s: expected a whole number from 1 to 1000000", name, val);
        o->epochs = v;
    } else if (!strcmp(name, "gbench_rows")) {
        static const char *const rows[] = {"median", "repetitions", "aggregates"};
        o->gb_rows = -1;
        for (int i = 0; i < 3; ++i)
            if (!strcmp(val, rows[i])) o->gb_rows = i; /* FB_GBENCH_* in that order */
        if (o->gb_rows < 0)
            return fb__opts_error("-%s=%s: expected median, repetitions or aggregates", name, val);
    } else {
        return -1; /* not one of these */
    }
    return 0;
}

/* -context=key=value: checked as fb_set_context checks it (src/handle/context.c). */
static int fb__parse_context(const char *opt, const char *val, fb__opts *o) {
    const char *eq = strchr(val, '=');
    if (!eq) return fb__opts_error("-%s=%s: expected key=value", opt, val);
    char key[FB__CONTEXT_KEY_MAX + 2];
    size_t klen = (size_t)(eq - val);
    snprintf(key, sizeof key, "%.*s", (int)(klen < sizeof key - 1 ? klen : sizeof key - 1), val);
    if (klen >= sizeof key - 1) key[sizeof key - 2] = 'x'; /* too long: refused below */
    const char *why = fb__context_bad_in(&o->context, key, eq + 1);
    if (why) return fb__opts_error("-%s=%s: %s", opt, val, why);
    if (fb__context_add(&o->context, key, eq + 1) != FB_OK)
        return fb__opts_error("-%s: out of memory", opt);
    return 0;
}

/* The options added for dashboards and Google Benchmark users: -context,
 * --benchmark_context, --benchmark_dry_run and the GB flags
 * that change nothing. -1: not one of these; else 0 or the exit status. */
static int fb__parse_feature_flag(const char *name, const char *val, fb__opts *o) {
    if (!strcmp(name, "context")) return fb__parse_context(name, val, o);
    if (!strcmp(name, "benchmark_context")) { /* GB: k1=v1,k2=v2 */
        char pair[FB__CONTEXT_KEY_MAX + FB__CONTEXT_VALUE_MAX + 4];
        for (const char *p = val;;) {
            const char *comma = strchr(p, ',');
            size_t len = comma ? (size_t)(comma - p) : strlen(p);
            if (len >= sizeof pair)
                return fb__opts_error("-%s: an entry is longer than %zu bytes", name,
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

/* -shard=k/n: two whole numbers (digits only: no sign, blank or exponent),
 * 1 <= k <= n <= FB__CLI_MAX_SHARDS. */
static int fb__parse_shard(const char *val, fb__opts *o) {
    unsigned part[2] = {0, 0};
    const char *p = val;
    for (int i = 0; i < 2; ++i) {
        const char *start = p;
        while (*p >= '0' && *p <= '9' && p - start < 5)
            part[i] = part[i] * 10 + (unsigned)(*p++ - '0');
        if (p == start || (*p >= '0' && *p <= '9') || *p != (i == 0 ? '/' : '\0'))
            return fb__opts_error("-shard=%s: expected k/n, two whole numbers with 1 <= k <= n "
                                  "<= %d (e.g. -shard=2/4)",
                                  val, FB__CLI_MAX_SHARDS);
        ++p;
    }
    if (part[1] < 1 || part[1] > FB__CLI_MAX_SHARDS)
        return fb__opts_error("-shard=%s: the number of shards must be from 1 to %d", val,
                              FB__CLI_MAX_SHARDS);
    if (part[0] < 1 || part[0] > part[1])
        return fb__opts_error("-shard=%s: the shard must be from 1 to %u", val, part[1]);
    o->shard_k = part[0];
    o->shard_n = part[1];
    return 0;
}

static int fb__parse_asymptote(const char *text, fb__opts *o) {
    size_t cap = 1;
    for (const char *p = text; *p; ++p) cap += *p == ',';
    if (cap > FB__CLI_MAX_ASYMPTOTE) /* each N is a run */
        return fb__opts_error("-asymptote: %zu entries (at most %d)", cap, FB__CLI_MAX_ASYMPTOTE);
    o->asymptote = calloc(cap, sizeof *o->asymptote);
    if (!o->asymptote) return fb__opts_error("-asymptote: out of memory");
    const char *p = text;
    for (;;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        char item[64];
        if (len == 0)
            return fb__opts_error(
                "-asymptote=%s: empty entry (expected n1,n2,... with every N > 0)", text);
        if (len >= sizeof item)
            return fb__opts_error("-asymptote=%s: entry '%.*s' is too long", text, (int)len, p);
        memcpy(item, p, len);
        item[len] = '\0';
        double v;
        if (!fb__parse_nonneg(item, &v) || v <= 0)
            return fb__opts_error("-asymptote=%s: '%s' is not a number > 0", text, item);
        if (v > FB__MAX_COMPLEXITY_N)
            return fb__opts_error("-asymptote=%s: '%s' is out of range (at most 2^53)", text, item);
        o->asymptote[o->n_asymptote++] = v;
        if (!comma) break;
        p = comma + 1;
    }
    for (size_t i = 1; i < o->n_asymptote; ++i)
        if (o->asymptote[i] != o->asymptote[0]) return 0;
    return fb__opts_error("-asymptote=%s: needs at least two distinct N", text);
}

int fb__opts_parse(int argc, char **argv, fb__opts *o) {
    for (int i = 1; i < argc; ++i) {
        const char *arg = argv[i];
        if (arg[0] != '-' || arg[1] == '\0')
            return fb__opts_error("unexpected argument '%s' (options start with '-'; see -help)",
                                  arg);
        const char *name = arg + 1 + (arg[1] == '-');
        const char *eq = strchr(name, '=');
        size_t len = eq ? (size_t)(eq - name) : strlen(name);
        const fb__opt_spec *spec = NULL;
        for (size_t k = 0; k < FB__N_OPTS; ++k)
            if (strlen(fb__opt_specs[k].name) == len &&
                strncmp(fb__opt_specs[k].name, name, len) == 0)
                spec = &fb__opt_specs[k];
        /* an output (the outputs' table): -option=<file> */
        int out = spec ? -1 : fb__outputs_find(fb__opts_output_rows, FB__OPTS_N_OUT, name, len);
        if (out >= 0 && fb__opts_output_rows[out].help) {
            const char *option = fb__opts_output_rows[out].option;
            char why[128];
            if (!eq) return fb__opts_error("-%s needs a value: -%s=<file>", option, option);
            if (fb__outputs_give(&o->outs, out, eq + 1, why, sizeof why) != FB_OK)
                return fb__opts_error("%s", why);
            continue;
        }
        if (!spec) {
            char given[64];
            snprintf(given, sizeof given, "%.*s", (int)len, name);
            const char *best = NULL;
            size_t best_d = 3;
            for (size_t k = 0; k < FB__N_OPTS; ++k) {
                size_t d = fb__edit_distance(given, fb__opt_specs[k].name);
                if (d < best_d) best_d = d, best = fb__opt_specs[k].name;
            }
            for (size_t k = 0; k < FB__OPTS_N_OUT; ++k) {
                if (!fb__opts_output_rows[k].help) continue;
                size_t d = fb__edit_distance(given, fb__opts_output_rows[k].option);
                if (d < best_d) best_d = d, best = fb__opts_output_rows[k].option;
            }
            if (best) return fb__opts_error("unknown option '%s' (did you mean -%s?)", arg, best);
            return fb__opts_error("unknown option '%s' (see -help)", arg);
        }
        if (spec->takes_value == FB__V_REQUIRED && !eq)
            return fb__opts_error("-%s needs a value: -%s=%s", spec->name, spec->name, spec->arg);
        if (spec->takes_value == FB__V_NONE && eq)
            return fb__opts_error("-%s takes no value, got '%s'", spec->name, arg);
        const char *val = eq ? eq + 1 : "";
        int gb = fb__opts_check_padded(spec->name, val);
        if (gb) return gb;
        gb = fb__parse_gb_flag(spec->name, val, o);
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
                return fb__opts_error("-timeout=%s: not a number of seconds > 0", val);
            if (fb__cli_range(o->timeout_s, 0, FB__CLI_MAX_TIMEOUT_S, "s", why, sizeof why))
                return fb__opts_error("-timeout=%s: %s", val, why);
            o->isolate = true;
        } else if (!strcmp(spec->name, "fail_on_slower"))
            o->fail_on_slower = true;
        else if (!strcmp(spec->name, "threshold")) {
            if (fb__change_parse_threshold(val, &o->threshold_pct))
                return fb__opts_error("-threshold=%s: not a percentage >= 0 and < 1000", val);
        } else if (!strcmp(spec->name, "baseline")) {
            if (!*val) return fb__opts_error("-baseline: empty file name");
            if (o->baseline) { /* given again: one more file of the baseline */
                size_t a = strlen(o->baseline), n = strlen(val);
                char *list = malloc(a + n + 2);
                if (!list) return fb__opts_error("out of memory");
                memcpy(list, o->baseline, a);
                list[a] = ',';
                memcpy(list + a + 1, val, n + 1);
                free(o->baseline_list);
                o->baseline_list = list;
                val = list;
            }
            o->baseline = val;
        } else if (!strcmp(spec->name, "filter")) {
            o->filter = val;
            o->filter_search = o->filter_negate = false;
        } else if (!strcmp(spec->name, "shard")) { /* src/runner/selection.c */
            int rc = fb__parse_shard(val, o);
            if (rc) return rc;
        } else if (!strcmp(spec->name, "valgrind")) { /* src/runner/valgrind_runner.c */
            if (eq && strcmp(val, "cache") != 0)
                return fb__opts_error("-valgrind=%s: unknown value (use -valgrind or "
                                      "-valgrind=cache)",
                                      val);
            o->valgrind = eq ? 2 : 1;
        } else if (!strcmp(spec->name, "min_time")) {
            char why[96];
            if (!fb__parse_nonneg(val, &o->min_time_ms))
                return fb__opts_error("-min_time=%s: not a non-negative number of milliseconds",
                                      val);
            if (fb__cli_range(o->min_time_ms, 0, FB__CLI_MAX_MIN_TIME_MS, "ms", why, sizeof why))
                return fb__opts_error("-min_time=%s: %s", val, why);
        } else if (!strcmp(spec->name, "repetitions")) { /* src/outputs/passes.c */
            /* the grammar of every other number (no blank, no sign) */
            double n;
            if (!fb__parse_nonneg(val, &n) || n != floor(n) || n < 1 || n > 1000 ||
                strpbrk(val, ".eE"))
                return fb__opts_error("-repetitions=%s: not a whole number from 1 to 1000", val);
            o->repetitions = (unsigned)n;
        } else if (!strcmp(spec->name, "asymptote")) {
            free(o->asymptote);
            o->asymptote = NULL;
            o->n_asymptote = 0;
            int rc = fb__parse_asymptote(val, o);
            if (rc) return rc;
        }
    }
    return 0;
}

void fb__opts_init(fb__opts *o) {
    memset(o, 0, sizeof *o);
    o->min_time_ms = -1;
    o->threshold_pct = -1;
    o->gb_rows = o->gb_aggregates_only = -1; /* not given */
    o->min_epoch_time_s = -1;
    fb__outputs_init(&o->outs, fb__opts_output_rows, FB__OPTS_N_OUT);
}

const char *fb__opts_help_of(const char *name) {
    for (size_t k = 0; k < FB__N_OPTS; ++k)
        if (!strcmp(fb__opt_specs[k].name, name)) return fb__opt_specs[k].help;
    return NULL;
}

void fb__opts_free(fb__opts *o) {
    free(o->asymptote);
    o->asymptote = NULL;
    fb__context_clear(&o->context);
    fb__outputs_free(&o->outs);
    fb__baseline_free(&o->base);
    free(o->baseline_list);
    o->baseline_list = NULL;
}
