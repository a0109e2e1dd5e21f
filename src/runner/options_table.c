/* The runner's options as tables: each option's name, value, help line and
 * purpose (grouped by purpose for -help), the runner's table of outputs
 * (fb__opts_outputs), and -help's text from both. The parser
 * (src/runner/options.c) and the values' checks (src/runner/options_value.c)
 * read them. */
#include "options.h"

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

const fb__opt_spec *fb__opts_specs(size_t *n) {
    *n = FB__N_OPTS;
    return fb__opt_specs;
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
const char *fb__opts_help_of(const char *name) {
    for (size_t k = 0; k < FB__N_OPTS; ++k)
        if (!strcmp(fb__opt_specs[k].name, name)) return fb__opt_specs[k].help;
    return NULL;
}
