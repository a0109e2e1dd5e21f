/* The suite runner's command line (fb_main, src/runner/runner.c): the options
 * and their help grouped by purpose (src/runner/options_table.c), the parser
 * (src/runner/options.c) and the values' checks (src/runner/options_value.c).
 * Bad input is one line on stderr ("femtobench: error: ...") and exit status
 * 2, before anything runs. */
#ifndef FB_OPTIONS_H
#define FB_OPTIONS_H

#include "base.h"
#include "change.h"  /* fb__baseline: -baseline, read before anything runs */
#include "context.h" /* fb__context: -context */
#include "outfile.h" /* fb__outputs: the table of outputs */

#include <stdio.h>

/* The runner's outputs: the rows of fb__opts_outputs, the one table that
 * -help lists, the parser reads, src/runner/selection.c checks and pins and
 * src/runner/suite.c writes (src/outputs/outfile.h). */
enum {
    FB__OUT_CSV,
    FB__OUT_JSON,
    FB__OUT_GBENCH, /* -output_gbench, -benchmark_out */
    FB__OUT_HTML,
    FB__OUT_BMF,
    FB__OUT_GB_STDOUT, /* --benchmark_format=json: "-" (no option of its own) */
    FB__OPTS_N_OUT
};
/* The table, FB__OPTS_N_OUT rows. */
FB__PRIVATE const fb__output_spec *fb__opts_outputs(void);
/* What the Google Benchmark JSON rows of the table write: the suite, in
 * -gbench_rows' layout (FB_GBENCH_*). */
typedef struct fb__opts_gbench {
    const fb_bench *b;
    int rows;
} fb__opts_gbench;

typedef struct fb__opts {
    bool help, list, sanity, quiet;
    bool isolate;     /* -isolate, or implied by -timeout */
    double timeout_s; /* -timeout; 0 = none */
    const char *filter;
    unsigned shard_k, shard_n; /* -shard=k/n (src/runner/selection.c); 0/0: not given */
    double min_time_ms;        /* < 0: not given */
    unsigned repetitions;      /* passes of the suite; 0: not given = 1 */
    double *asymptote;
    size_t n_asymptote;
    /* -baseline: read and checked before anything runs; a comma-separated
     * list of files (-baseline given again adds to it: baseline_list) */
    const char *baseline;
    char *baseline_list;  /* owned: the list when -baseline was given more than once */
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
    double min_epoch_time_s;           /* --benchmark_min_time=<t>[s] (a total, as -min_time;
                                        * the name is the flag's); < 0: not given */
    double epoch_iterations;           /* --benchmark_min_time=<n>x; 0: not given */
    int valgrind;                      /* 0, 1 = -valgrind, 2 = -valgrind=cache */
    /* -context=key=value (src/handle/context.c; its pairs in every file),
     * and the notes on Google Benchmark flags that change
     * nothing here (printed once the options are read, unless -quiet) */
    fb__context context;
    const char *gb_notes[16];
    size_t n_gb_notes;
    /* every output file, by the rows of fb__opts_outputs: as given, and
     * pinned to an absolute path before anything runs (src/outputs/outfile_set.c) */
    fb__outputs outs;
} fb__opts;

/* The table of options (src/runner/options_table.c), *n rows: each option's
 * name, whether it takes a value, the value's name and the help line -help
 * shows, and its group there. takes_value: FB__V_NONE, FB__V_REQUIRED, or
 * FB__V_BOOL (Google Benchmark's boolean flags: bare, or
 * =true/false/1/0/yes/no); FB__V_OPTIONAL: a value may follow (-valgrind or
 * -valgrind=cache). */
enum { FB__V_NONE = 0, FB__V_REQUIRED = 1, FB__V_BOOL = 2, FB__V_OPTIONAL = 3 };
typedef struct fb__opt_spec {
    const char *name;
    int takes_value;
    const char *arg, *help;
    int group; /* -help's groups, in src/runner/options_table.c */
} fb__opt_spec;
FB__PRIVATE const fb__opt_spec *fb__opts_specs(size_t *n);

/* The values (src/runner/options_value.c). Each returns 0, or 2 after the
 * error line; fb__opts_gb_flag and fb__opts_feature_flag -1 when name is
 * not one of theirs. fb__opts_nonneg: a strict number (the whole text,
 * finite, >= 0, '.' whatever the locale, canonical); fb__opts_check_padded:
 * a numeric option's numbers without a leading zero; fb__opts_gb_bool: a
 * Google Benchmark boolean ("" is true); fb__opts_gb_flag: Google
 * Benchmark's other flags; fb__opts_feature_flag: -context,
 * --benchmark_context, --benchmark_dry_run and the flags accepted with a
 * note; fb__opts_shard: -shard=k/n; fb__opts_asymptote: -asymptote's list. */
FB__PRIVATE bool fb__opts_nonneg(const char *s, double *out);
FB__PRIVATE int fb__opts_check_padded(const char *name, const char *val);
FB__PRIVATE int fb__opts_gb_bool(const char *name, const char *val, bool *out);
FB__PRIVATE int fb__opts_gb_flag(const char *name, const char *val, fb__opts *o);
FB__PRIVATE int fb__opts_feature_flag(const char *name, const char *val, fb__opts *o);
FB__PRIVATE int fb__opts_shard(const char *val, fb__opts *o);
FB__PRIVATE int fb__opts_asymptote(const char *text, fb__opts *o);

/* The defaults: nothing given. */
FB__PRIVATE void fb__opts_init(fb__opts *o);
/* Reads argv into o: 0, or 2 after the error line. */
FB__PRIVATE int fb__opts_parse(int argc, char **argv, fb__opts *o);
/* -help's text. */
FB__PRIVATE void fb__opts_help(FILE *f, const char *prog);
/* An option's one-line help (the note for a Google Benchmark flag that
 * changes nothing here), or NULL. */
FB__PRIVATE const char *fb__opts_help_of(const char *name);
/* The error line "femtobench: error: ..." on stderr; returns 2. */
FB__PRIVATE int fb__opts_error(const char *fmt, ...) FB__PRINTF(1, 2);
/* What the options allocated (the -asymptote list, the pinned outputs,
 * the -context pairs, the baseline). */
FB__PRIVATE void fb__opts_free(fb__opts *o);

#endif
