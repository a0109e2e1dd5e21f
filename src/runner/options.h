/* The suite runner's command line (fb_main, src/runner/runner.c): the options,
 * their help grouped by purpose, and the parser. Bad input is one line on
 * stderr ("femtobench: error: ...") and exit status 2, before anything runs. */
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
