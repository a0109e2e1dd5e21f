/* femtobench-ab (docs/ab.md): what its files share. The program is built from
 * the library's internals (statistics, outputs, filter, -valgrind) but exports
 * none of them: a plugin must bind to its own copy of the library, never to
 * this one's. Its rooms: ab_options.c (the command line), ab_load.c (the
 * plugins), ab_calib.c (calibration), ab_pair.c (paired rounds), ab_judge.c
 * (one run's verdict), ab_count.c (-valgrind), ab_child.c (the measuring
 * child), ab_report.c (the table, markdown), ab_write.c (JSON, HTML), ab_main.c. */
#ifndef FBA_AB_H
#define FBA_AB_H

#include "options.h" /* fb__opts_error: the runner's one error line */
#include "change.h"
#include "cli_check.h"
#include "clock.h"
#include "compare_stats.h"
#include "filter.h"
#include "json.h"
#include "numfmt.h"
#include "outfile.h"
#include "plugin.h"
#include "process.h"
#include "selection.h" /* fb__select_bad_name: the runner's rule for names */
#include "stats.h"     /* fb__median */
#include "report_html.h"
#include "svg.h"
#include "text.h"
#include "ab_judge.h" /* tools/ab/ab_judge.h */
#include "machine.h"
#include "marks.h" /* fb__marks_cpu_differs: the runner's rule */
#include "valgrind.h"
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Defaults, chosen from the measurements in docs/ab.md. */
#define FBA_DEFAULT_ROUNDS 64
/* the most layout variants a side may have (docs/ab.md, "Code layout") */
#define FBA_MAX_LAYOUTS 16
/* the fewest layouts a side needs for placement to be measured: the
 * change's interval then comes from the spread between layouts */
#define FBA_MIN_RANDOM_LAYOUTS 3
/* -instances' default: a side given as one file, without layout variants,
 * is loaded this many times (each copy at its own address, with its own
 * data and heap), as many as femtobench_add_plugin's layouts */
#define FBA_DEFAULT_INSTANCES 8
#define FBA_DEFAULT_MIN_TIME_MS 1.5 /* measured time per side and benchmark */
#define FBA_DEFAULT_THRESHOLD_PCT 3.0
#define FBA_MAX_ROUNDS 1000
/* the fewest rounds of a benchmark whose one iteration outlasts an epoch:
 * with one or two layouts (the sign test decides), and with layouts (the
 * layouts decide: one round a layout, at least this many in all) */
#define FBA_LONG_ROUNDS 16
#define FBA_LONG_ROUNDS_LAYOUTS 8
/* the epochs below which a block starts with a round not used (ab_pair.c) */
#define FBA_WARM_EPOCH_S 100e-6
/* the epochs of a paired run the host keeps: its rounds, and room for the
 * warmup epochs a suite may configure (paced as well, before the rounds) */
#define FBA_MAX_EPOCHS (FBA_MAX_ROUNDS + 64)
#define FBA_MIN_ROUNDS 6 /* the fewest that give a 95% sign-test interval */
#define FBA_FAMILY_CONFIDENCE 0.95
/* a run's name (the runner takes up to 1024 bytes) with " N=<n>" */
#define FBA_NAME_MAX 1100
#define FBA_MAX_ASYMPTOTE 64
#define FBA_ERROR_MAX 256

typedef struct fba_opts {
    const char *files[2];
    const char *filter;
    double min_time_ms;
    long rounds;
    /* the fewest rounds a paired run keeps when disturbed ones are left out:
     * the fewest that decide anything for the benchmarks in common */
    size_t min_kept;
    double threshold_pct;
    bool fail_on_slower, valgrind, isolate, quiet;
    double timeout_s; /* -timeout: a benchmark still running after it is killed; 0: none */
    fb__outputs outs; /* -output_json, -output_md, -output_html: fba_outputs' rows */
    double asymptote[FBA_MAX_ASYMPTOTE]; /* -asymptote: each benchmark once per N */
    size_t n_asymptote;
    const char *asymptote_text;
    int side_only;         /* internal: the -valgrind child counts this side only */
    const char *counts_to; /* internal: where that child writes its counts */
    const char *only;      /* internal: that child counts this benchmark only (-isolate) */
    FILE *table;           /* stdout, or stderr when an output goes to stdout */
    /* each side's files: its layout variants (one when none were built) */
    char *layout[2][FBA_MAX_LAYOUTS];
    size_t layouts;     /* per side, the same on both */
    bool discovered;    /* the variants were found beside the files given */
    size_t instances;   /* -instances: copies of a one-file side (1: none) */
    bool copies;        /* each side's layouts are copies of its one file */
    size_t found[2];    /* each side's count when they differed (the fewer are used), else 0 */
    double load[2];     /* the 1-minute load average before and after; NAN: unknown */
    fb__env_report env; /* the machine's warnings, as the runner prints them */
    const struct fba_side *all; /* every loaded file: old's layouts, then new's */
} fba_opts;

typedef struct fba_names {
    char **v;
    size_t n, cap;
    bool oom;
} fba_names;

typedef struct fba_side {
    const char *path; /* one file: as given, or one of a side's layouts */
    char copy[4096];  /* the temporary copy of the same file given twice, else "" */
    void *dl;         /* dlopen handle */
    const fb__plugin_api *api;
    fba_names benches; /* as listed */
} fba_side;

typedef enum { FBA_PAIRED, FBA_NEW, FBA_GONE, FBA_ERROR } fba_kind;

/* One compared run. Fixed size, so that -isolate's child can send it whole
 * through a pipe. */
typedef struct fba_row {
    char name[FBA_NAME_MAX];  /* the run's name, as the hook sees it */
    char label[FBA_NAME_MAX]; /* name, with " N=<n>" under -asymptote */
    double n;                 /* the complexity N it ran with, 0 when unset */
    char error[FBA_ERROR_MAX];
    fba_kind kind;
    uint64_t iterations;       /* per epoch, both sides */
    size_t rounds, dropped;    /* measured; left out (disturbed) */
    double t_old, t_new;       /* median seconds per unit over the kept rounds */
    double batch[2];           /* each side's units per op (fb_set_batch) */
    char unit[32];             /* the unit (fb_set_unit, old side's), "" for an op */
    double ins_old, ins_new;   /* -valgrind: instructions per unit */
    size_t n_lr;               /* kept log ratios */
    double lr[FBA_MAX_ROUNDS]; /* ln(t_new / t_old), kept rounds */
    /* each kept round's layout and pass (its block in time) */
    unsigned char lr_layout[FBA_MAX_ROUNDS], lr_pass[FBA_MAX_ROUNDS];
    size_t layouts, passes;
    /* each layout's median time per unit over its kept rounds, each side */
    double lay_old[FBA_MAX_LAYOUTS], lay_new[FBA_MAX_LAYOUTS];
    /* each side's CPU time per unit over the same kept rounds, combined
     * over the layouts as the times are (the geometric mean of each
     * layout's median); NAN when its CPU clock was not read */
    double cpu_old, cpu_new;
    bool skipped;      /* an error row that is fb_skip's (both sides skipped): no failure */
    bool bad_name;     /* a run's name the runner refuses (error holds the runner's line) */
    fb__change change; /* filled at the end (needs the family's size) */
    fba_judged judged; /* the same, with the layouts and the halves */
    /* -valgrind: the least and most of each side's counted pairs (both the
     * count when it repeated exactly) */
    double ins_old_lo, ins_old_hi, ins_new_lo, ins_new_hi;
} fba_row;

typedef struct fba_rows {
    fba_row **v;
    size_t n, cap;
} fba_rows;

/* The runs one side's benchmark made, with each one's time per iteration
 * from its one measured epoch. */
typedef struct fba_calib_run {
    double per_iter_s;
    char error[FBA_ERROR_MAX];
    double batch;  /* fb_set_batch (plugin interface 3; 1 before) */
    char unit[32]; /* fb_set_unit, "" for an op */
} fba_calib_run;

typedef struct fba_calib {
    fba_names runs;
    fba_calib_run *run; /* one per name in runs (as many as the function makes) */
    size_t cap;
    double best;  /* the run's fastest time per iteration so far */
    long current; /* the run being calibrated (index in runs), -1 between runs */
} fba_calib;

/* The baton: slots 2k and 2k + 1 are round k's two epochs, old first in
 * even rounds and new first in odd ones. A side runs epoch k when the slot
 * is its own; after the epoch it moves the slot on and waits until its next
 * slot comes (or, after its last epoch, until every epoch is done), so that
 * its own bookkeeping never overlaps the other side's timed epoch. A side
 * that is done (its run ended, or never started) no longer holds the other
 * up. */
typedef struct fba_pair {
    /* bumped on every move of the slot and every side's end; a side waits
     * on it (a futex) until its condition holds (tools/ab/ab_pair.c) */
    _Atomic unsigned turn;
    _Atomic size_t slot;
    _Atomic bool done[2];
    const char *run; /* the run to measure; the benchmark's other runs are skipped */
    uint64_t iters;
    size_t rounds;
    bool started[2];
    size_t got[2];
    double t[2][FBA_MAX_EPOCHS];
    double switches[2][FBA_MAX_EPOCHS]; /* 1 when the epoch was disturbed */
    /* each epoch's CPU time per iteration (the thread's CPU clock over the
     * same loop; NAN when not read, or the plugin predates interface 4) */
    double cpu[2][FBA_MAX_EPOCHS];
    char error[2][FBA_ERROR_MAX];
    const fba_side *side[2]; /* the old and the new layout this block pairs */
    size_t parity;           /* round k's first side: old when (k + parity) is even */
    uint64_t shift_seed;     /* this block's stack and heap shifts (ab_pair.c) */
    const char *bench;
    double n; /* complexity N, 0 when unset */
} fba_pair;

typedef struct fba_hand {
    fba_pair *p;
    int side;
} fba_hand;

typedef struct fba_counts {
    FILE *f;
} fba_counts;

typedef struct fba_count_line {
    char name[FBA_NAME_MAX];
    char bench[FBA_NAME_MAX]; /* the benchmark (as listed) the run was made by */
    double n;
    char error[FBA_ERROR_MAX];
    double ins, ins_lo, ins_hi; /* the count, and the least and most of its pairs */
} fba_count_line;

/* One side's counts, read from its children's files. */
typedef struct fba_counted {
    fba_count_line *v;
    size_t n, cap;
    char last_begin[FBA_NAME_MAX]; /* the last benchmark a child began */
    bool ended;                    /* the last child wrote its end line */
} fba_counted;

/* Every timed comparison runs in a child process, so that a benchmark that
 * crashes, calls exit() or hangs cannot take the rows already compared with
 * it: without -isolate one child runs the benchmarks in turn (one fork for
 * the whole suite), and when it dies the next child starts after the
 * benchmark it died in; with -isolate each benchmark gets its own child. The
 * child sends each benchmark's begin, each finished row, each benchmark's end
 * and, last, "all done" through a pipe; the parent keeps what arrived, makes
 * the benchmark in progress an error row saying how the child ended, and
 * enforces -timeout per benchmark. */
typedef struct fba_msg {
    size_t type; /* 'B' begin step, 'R' a row follows, 'E' end step, 'D' all done (no
                    padding: every byte written is set) */
    size_t step;
} fba_msg;

typedef struct fba_report {
    const fba_opts *o;
    fba_rows *rows;
    double confidence;          /* of each row's interval */
    size_t paired;              /* the family: rows with an interval */
    size_t needed;              /* the fewest kept rounds that give one (fba_rounds_needed) */
    size_t counts[FB__V_COUNT]; /* a layout-sensitive row is counted apart from unsure */
    size_t errors;
    size_t layout_sensitive, moment_split, skipped;
    size_t undecided;        /* paired rows too few rounds or layouts were kept for to decide */
    size_t undecided_rounds; /* of those, the rows with too few rounds (one or two layouts) */
    double wall_s;
} fba_report;

extern const char *const fba_side_name[2];

int fba_parse(int argc, char **argv, fba_opts *o);
int fba_resolve_layouts(fba_opts *o);
void fba_say_layouts(const fba_opts *o);
void fba_layouts_free(fba_opts *o);
void fba_names_add(void *ctx, const char *name);
long fba_names_find(const fba_names *s, const char *name);
void fba_names_free(fba_names *s);
int fba_load_all(fba_side *v, size_t k);
fba_row *fba_rows_add(fba_rows *rs, const char *name, double n, fba_kind kind);
void fba_rows_free(fba_rows *rs);
bool fba_is_group(const char *bench);

void fba_unpin(void);
void fba_pin(void);
void fba_choose_cpu(void);
void fba_calibrate(const fba_side *s, const char *bench, double n, fba_calib *c);
int fba_bench(const fba_side *sides, const fba_opts *o, const char *bench, double n, bool in_old,
              bool in_new, fba_rows *rows);
int fba_count_side(const fba_side *s, const fba_opts *o, const fba_names *sel, const char *path);
int fba_valgrind(const fba_opts *o, const fba_side *sides, const fba_names *sel, fba_rows *rows);
int fba_run_all(const fba_side *sides, const fba_opts *o, const fba_names *sel, fba_rows *rows);
/* -timeout for fba_run_grouped's child: step(ctx) names the benchmark in
 * progress by a number that changes when the next one begins (-1: none,
 * before the first and after the last); a step still in progress after
 * timeout_s seconds of wall time kills the child's group (timed_out). */
typedef struct fba_watch {
    double timeout_s; /* 0: no deadline */
    long (*step)(void *ctx);
    void *ctx;
    bool timed_out;
} fba_watch;
int fba_run_grouped(int (*fn)(void *ctx), void *ctx, fba_watch *w);
bool fba_name_refused(const char *bench, const char *run, char *why, size_t len);
size_t fba_rounds_needed(size_t family);
void fba_judge(fba_report *rep);
const char *fba_verdict(const fba_row *r);
void fba_summary(FILE *f, const fba_report *rep);
bool fba_moment_text(const fba_row *r, char *buf, size_t len);
void fba_table(FILE *f, const fba_report *rep);
int fba_write_md(void *ctx, FILE *f);
int fba_write_json(void *ctx, FILE *f);
int fba_write_html(void *ctx, FILE *f);
/* femtobench-ab's outputs: its table (src/outputs/outfile.h; tools/ab/ab_write.c),
 * checked, pinned and written by the runner's rules. Each writer's ctx is
 * the fba_report. */
#define FBA_N_OUT 3
extern const fb__output_spec fba_outputs[FBA_N_OUT];

#endif
