/* femtobench-compare: the runner's -baseline comparison, offline, for CI
 * pipelines that keep results as artifacts, and the alternating comparison
 * of two builds that cannot share a process (docs/baselines.md).
 *
 *   femtobench-compare OLD.json NEW.json [-threshold=<pct>] [-fail_on_slower]
 *                      [-output_md=<file>]
 *   femtobench-compare OLD1.json,OLD2.json NEW1.json,NEW2.json [the same options]
 *   femtobench-compare -run OLD_EXE NEW_EXE [-pairs=K] [the same options]
 *                      [runner options for both programs]
 *
 * Files are femtobench JSON (-output_json). A side may be several files
 * separated by commas, the shards of one run (a suite split across jobs by
 * -filter): they are merged into one set of results (src/outputs/baseline_read.c;
 * a benchmark in two of them is bad input). With -run, both programs are run
 * K times each (default 10), the two runs of a pair in a random order, each
 * writing its JSON to a temporary directory; run k of OLD is paired with
 * run k of NEW and each benchmark gets an interval from the per-pair log
 * ratios (src/outputs/change_between.c). The change table goes to stdout, and with
 * -output_md to a file as well (written whole or not at all). Exit status:
 * 0; 1 when NEW records a failed benchmark (or a run could not be made); 2
 * for bad input (one line on stderr, nothing written); 3 with
 * -fail_on_slower when a benchmark is slower or no benchmark is in common;
 * 130 interrupted. It uses the library's own reader and table
 * (src/outputs/baseline.c, src/outputs/report_change.c): the same table as -baseline. */
#include "options.h" /* fb__opts_error: the runner's one error line */
#include "change.h"
#include "report_change.h"
#include "json.h"
#include "outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

typedef struct fbc_opts {
    const char *files[2]; /* the two JSON files, or with -run the two programs */
    double threshold_pct;
    bool fail_on_slower;
    fb__outputs outs; /* -output_md: fbc_outputs' rows */
    bool run;
    unsigned pairs;
    const char **runner_args; /* with -run: the options passed to both programs */
    size_t n_runner_args;
} fbc_opts;

typedef struct fbc_md {
    const fb__baseline *old, *now;
    double threshold_pct;
    bool paired;
} fbc_md;

static int fbc_write_md(void *ctx, FILE *f);

/* femtobench-compare's outputs: its table (src/outputs/outfile.h), checked, pinned
 * and written by the runner's rules. */
static const fb__output_spec fbc_outputs[] = {
    {"output_md", "also write the change table as markdown to <file>", NULL, fbc_write_md},
};
#define FBC_N_OUT (sizeof fbc_outputs / sizeof fbc_outputs[0])

/* The runner's options that -run sets itself or that make no comparison;
 * and every output of the runner's table (fb__opts_outputs): each program
 * would write it in turn, over the other's. */
static const char *const fbc_refused[] = {
    "benchmark_out", "benchmark_out_format", "benchmark_format", "baseline", "repetitions",
    "list",          "benchmark_list_tests", "sanity_check",     "help",     "version"};

static void fbc_usage(FILE *f) {
    fputs("usage: femtobench-compare OLD.json NEW.json [options]\n"
          "       femtobench-compare -run OLD_EXE NEW_EXE [-pairs=K] [options] [runner options]\n\n"
          "Compares two femtobench JSON files (written by -output_json) benchmark by\n"
          "benchmark and prints the change table (docs/baselines.md). A side may be\n"
          "several files separated by commas (OLD1.json,OLD2.json), the shards of one\n"
          "run: merged into one set of results; a benchmark in two of them is refused.\n"
          "With -run, runs\n"
          "the two benchmark programs K times each, alternating in a random order\n"
          "inside each pair, and compares the pairs; any other option is passed to\n"
          "both programs.\n\n"
          "Options (one dash or two):\n"
          "  -threshold=<pct>     changes within this % are 'same' (default: 10)\n"
          "  -fail_on_slower      exit status 3 when a benchmark is slower, or when no\n"
          "                       benchmark is in common (nothing was compared)\n",
          f);
    for (size_t i = 0; i < FBC_N_OUT; ++i) { /* the outputs' table */
        char left[64];
        snprintf(left, sizeof left, "-%s=<file>", fbc_outputs[i].option);
        fprintf(f, "  %-20s %s\n", left, fbc_outputs[i].help);
    }
    fputs("  -run                 OLD and NEW are programs to run, not files\n"
          "  -pairs=<K>           with -run: runs of each program, 2 to 1000 (default: 10)\n"
          "  -help                print this help and exit\n\n"
          "Exit status: 0; 1 when NEW records a failed benchmark; 2 for bad input;\n"
          "3 with -fail_on_slower (above); 130 interrupted.\n",
          f);
}

/* Returns 0 to go on, -1 after -help, 2 on bad input. */
static int fbc_parse(int argc, char **argv, fbc_opts *o) {
    int n_files = 0, row;
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        if (a[0] != '-' || a[1] == '\0') {
            if (n_files == 2)
                return fb__opts_error(
                    "unexpected argument '%s' (give exactly two files or programs)", a);
            o->files[n_files++] = a;
            continue;
        }
        const char *name = a + 1 + (a[1] == '-');
        const char *eq = strchr(name, '=');
        size_t len = eq ? (size_t)(eq - name) : strlen(name);
        const char *val = eq ? eq + 1 : NULL;
#define FBC_IS(s) (len == strlen(s) && strncmp(name, s, len) == 0)
        if (FBC_IS("run")) {
            if (val) return fb__opts_error("-run takes no value, got '%s'", a);
            o->run = true;
        } else if (FBC_IS("pairs")) {
            /* digits only: strtoul alone would take "+5", " 5" or "-5" */
            bool digits = val && *val >= '1' && *val <= '9';
            char *end = NULL;
            errno = 0;
            unsigned long k = digits ? strtoul(val, &end, 10) : 0;
            if (!digits || errno || !end || *end || k < 2 || k > 1000)
                return fb__opts_error("-pairs=%s: not a whole number from 2 to 1000",
                                      val ? val : "");
            o->pairs = (unsigned)k;
        } else if (FBC_IS("help")) {
            fbc_usage(stdout);
            return -1;
        } else if (FBC_IS("fail_on_slower")) {
            if (val) return fb__opts_error("-fail_on_slower takes no value, got '%s'", a);
            o->fail_on_slower = true;
        } else if (FBC_IS("threshold")) {
            if (!val) return fb__opts_error("-threshold needs a value: -threshold=<pct>");
            if (fb__change_parse_threshold(val, &o->threshold_pct))
                return fb__opts_error("-threshold=%s: not a percentage >= 0 and < 1000", val);
        } else if ((row = fb__outputs_find(fbc_outputs, FBC_N_OUT, name, len)) >= 0) {
            char why[128];
            if (!val)
                return fb__opts_error("-%s needs a value: -%s=<file>", fbc_outputs[row].option,
                                      fbc_outputs[row].option);
            if (fb__outputs_give(&o->outs, row, val, why, sizeof why) != FB_OK)
                return fb__opts_error("%s", why);
        } else {
            /* a runner option: passed on with -run (checked once -run is
             * known: it may come later) */
            const char *refused = NULL;
            for (size_t k = 0; k < sizeof fbc_refused / sizeof fbc_refused[0]; ++k)
                if (FBC_IS(fbc_refused[k])) refused = fbc_refused[k];
            for (size_t k = 0; k < FB__OPTS_N_OUT; ++k) /* the runner's outputs */
                if (fb__opts_outputs()[k].help && FBC_IS(fb__opts_outputs()[k].option))
                    refused = fb__opts_outputs()[k].option;
            if (refused)
                return fb__opts_error("-%s: not with -run (femtobench-compare runs and reads the "
                                      "programs itself)",
                                      refused);
            o->runner_args[o->n_runner_args++] = a;
        }
#undef FBC_IS
    }
    if (o->n_runner_args && !o->run)
        return fb__opts_error("unknown option '%s' (see -help)", o->runner_args[0]);
    if (o->pairs && !o->run) return fb__opts_error("-pairs needs -run");
    if (!o->pairs) o->pairs = 10;
    if (n_files < 2)
        return fb__opts_error(o->run ? "-run needs two programs: femtobench-compare -run OLD_EXE "
                                       "NEW_EXE (see -help)"
                                     : "needs two files: femtobench-compare OLD.json NEW.json (see "
                                       "-help)");
    return 0;
}

static int fbc_write_md(void *ctx, FILE *f) {
    const fbc_md *m = ctx;
    size_t counts[FB__V_COUNT];
    int rc = m->paired ? fb__change_table_paired(f, m->old, m->now, m->threshold_pct, counts)
                       : fb__change_table(f, m->old, m->now, m->threshold_pct, counts);
    return rc ? rc : fb__writer_finish(f);
}

/* ------------------------------------------------------------- -run */

static void fbc_rmdir(const char *dir, unsigned pairs) {
    char p[4200];
    for (unsigned k = 0; k < pairs; ++k)
        for (int side = 0; side < 2; ++side) {
            snprintf(p, sizeof p, "%s/%s%u.json", dir, side ? "new" : "old", k);
            unlink(p);
        }
    snprintf(p, sizeof p, "%s/log.txt", dir);
    unlink(p);
    rmdir(dir);
}

/* Prints the log of a run that went wrong (its stderr and stdout). */
static void fbc_show_log(const char *dir) {
    char p[4200];
    snprintf(p, sizeof p, "%s/log.txt", dir);
    FILE *f = fopen(p, "r");
    if (!f) return;
    char line[1024];
    while (fgets(line, sizeof line, f)) fputs(line, stderr);
    fclose(f);
}

/* Runs exe with the runner options and -output_json=json, its output in
 * the directory's log. Returns its exit status, 128 + a signal, or -1 when
 * it could not be started (with a message printed). */
static int fbc_run_one(const fbc_opts *o, const char *exe, const char *json, const char *dir) {
    char opt_json[4300], log[4200];
    snprintf(opt_json, sizeof opt_json, "-output_json=%s", json);
    snprintf(log, sizeof log, "%s/log.txt", dir);
    char **args = calloc(o->n_runner_args + 3, sizeof *args);
    if (!args) return -1;
    size_t k = 0;
    union {
        const char *c;
        char *m;
    } u; /* execvp's argv is char *const[]: the strings are not written */
    u.c = exe;
    args[k++] = u.m;
    for (size_t i = 0; i < o->n_runner_args; ++i) {
        u.c = o->runner_args[i];
        args[k++] = u.m;
    }
    args[k++] = opt_json;
    args[k] = NULL;
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        signal(SIGINT, SIG_DFL);
        int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
            close(fd);
        }
        execvp(exe, args);
        fprintf(stderr, "femtobench: error: -run: cannot run '%s': %s\n", exe, strerror(errno));
        _exit(127);
    }
    free(args);
    if (pid < 0) {
        fb__opts_error("-run: fork: %s", strerror(errno));
        return -1;
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* The K pairs: b[0] gets OLD's runs, b[1] NEW's, run k with pass k.
 * Returns 0, or the exit status to end with. */
static int fbc_run_pairs(const fbc_opts *o, fb__baseline b[2]) {
    const char *tmpdir = getenv("TMPDIR");
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/femtobench-compare.XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
    if (!mkdtemp(dir))
        return fb__opts_error("-run: cannot create a directory: %s", strerror(errno));
    fb_rng rng;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    fb_rng_seed(&rng, (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 20) ^ (uint64_t)getpid());
    /* as system(3): a Ctrl-C ends the program being run; this one then
     * stops and cleans up */
    struct sigaction ign, old_int;
    memset(&ign, 0, sizeof ign);
    ign.sa_handler = SIG_IGN;
    sigemptyset(&ign.sa_mask);
    sigaction(SIGINT, &ign, &old_int);
    int status = 0;
    for (unsigned k = 0; k < o->pairs && !status; ++k) {
        int first = (int)(fb_rng_u64(&rng) >> 63); /* which program runs first in this pair */
        fprintf(stderr, "femtobench-compare: pair %u of %u: %s first\n", k + 1, o->pairs,
                first ? "NEW" : "OLD");
        for (int step = 0; step < 2 && !status; ++step) {
            int side = step ? !first : first;
            char json[4200], why[512];
            snprintf(json, sizeof json, "%s/%s%u.json", dir, side ? "new" : "old", k);
            int rc = fbc_run_one(o, o->files[side], json, dir);
            if (rc == 130 || rc == 128 + SIGINT) {
                fprintf(stderr, "femtobench: interrupted\n");
                status = 130;
            } else if (rc == 2 || rc < 0 || rc == 127) {
                fbc_show_log(dir);
                status = rc == 2 ? 2 : 1;
                if (rc != 2 && rc >= 0)
                    fb__opts_error("-run: '%s' exited with status %d", o->files[side], rc);
            } else if (rc != 0 && rc != 1) {
                fbc_show_log(dir);
                fb__opts_error("-run: '%s' %s %d", o->files[side],
                               rc > 128 ? "was killed by signal" : "exited with status",
                               rc > 128 ? rc - 128 : rc);
                status = 1;
            } else {
                fb__baseline one;
                if (fb__baseline_load_file(json, &one, why, sizeof why)) {
                    fbc_show_log(dir);
                    fb__opts_error("-run: '%s' wrote no usable results: %s", o->files[side], why);
                    status = 1;
                } else if (fb__baseline_append(&b[side], &one, k) != FB_OK) {
                    fb__baseline_free(&one);
                    fb__opts_error("out of memory");
                    status = 1;
                }
            }
        }
    }
    sigaction(SIGINT, &old_int, NULL);
    fbc_rmdir(dir, o->pairs);
    return status;
}

/* The outputs by the runner's rules (src/outputs/outfile_set.c), before anything is
 * read or run: each writable, no two the same file, none the file the
 * table goes to (stdout, or stderr when an output is stdout), none a file it
 * reads (each file of a list; with -run, the programs), each pinned. 0, or
 * the exit status of bad input after its line. */
static int fbc_check_outputs(fbc_opts *o) {
    size_t cap = 2, blen = 2;
    for (int i = 0; i < 2; ++i) {
        blen += strlen(o->files[i]);
        for (const char *p = o->files[i]; *p; ++p) cap += *p == ',';
    }
    const char **inputs = calloc(cap, sizeof *inputs);
    char *buf = malloc(blen + cap), why[1024];
    size_t n = 0, off = 0;
    int rc = 0;
    if (!inputs || !buf) rc = fb__opts_error("out of memory");
    for (int i = 0; i < 2 && !rc; ++i) {
        const char *p = o->files[i];
        if (o->run) { /* a program */
            inputs[n++] = p;
            continue;
        }
        while (n < cap && fb__baseline_list_next(&p, buf + off, blen + cap - off) > 0) {
            inputs[n++] = buf + off;
            off += strlen(buf + off) + 1;
        }
    }
    if (!rc && fb__outputs_prepare(&o->outs, true, inputs, n, why, sizeof why) != FB_OK)
        rc = fb__opts_error("%s", why);
    free((void *)inputs);
    free(buf);
    return rc;
}

/* Reads or runs, prints the table and writes the outputs: main's work once
 * the options are read. */
static int fbc_main(fbc_opts *o_) {
    fbc_opts o = *o_;
    const char **runner_args = o.runner_args;
    char why[512];
    /* the table goes where no output does (the runner's rule) */
    FILE *tout = o.outs.table_fd == 2 ? stderr : stdout;
    fb__baseline b[2];
    memset(b, 0, sizeof b);
    if (o.run) {
        int st = fbc_run_pairs(&o, b);
        free(runner_args);
        if (st) {
            fb__baseline_free(&b[0]);
            fb__baseline_free(&b[1]);
            return st;
        }
    } else {
        free(runner_args);
        for (int i = 0; i < 2; ++i)
            if (fb__baseline_load(o.files[i], &b[i], why, sizeof why)) {
                fb__baseline_free(&b[0]);
                if (strchr(o.files[i], ',')) /* a list: the side, the list, the file */
                    return fb__opts_error("%s=%s: %s", i ? "NEW" : "OLD", o.files[i], why);
                return fb__opts_error("%s: %s", o.files[i], why);
            }
        for (int i = 0; i < 2; ++i) /* shards that disagree: said once, and in the table */
            if (b[i].ctx.files_differ[0])
                fprintf(stderr,
                        "femtobench: warning: the %s files disagree about the machine: %s\n",
                        i ? "NEW" : "OLD", b[i].ctx.files_differ);
    }
    size_t counts[FB__V_COUNT];
    int status = 0;
    int trc = o.run ? fb__change_table_paired(tout, &b[0], &b[1], o.threshold_pct, counts)
                    : fb__change_table(tout, &b[0], &b[1], o.threshold_pct, counts);
    if (trc != 0) status = fb__opts_error("out of memory");
    if (fflush(tout) != 0) status = 1;
    if (!status) { /* every output of the table, as one set */
        fbc_md m = {&b[0], &b[1], o.threshold_pct, o.run};
        if (fb__outputs_write(&o.outs, NULL, &m, stderr, why, sizeof why) != FB_OK) {
            fprintf(stderr, "femtobench: error: %s\n", why);
            status = 1;
        }
    }
    if (!status)
        for (size_t i = 0; i < b[1].n; ++i)
            if (b[1].rec[i].error) status = 1;
    /* nothing in common: a gate that compared nothing must not pass */
    bool none = counts[FB__V_NEW] + counts[FB__V_GONE] ==
                counts[FB__V_FASTER] + counts[FB__V_SLOWER] + counts[FB__V_SAME] +
                    counts[FB__V_UNSURE] + counts[FB__V_NEW] + counts[FB__V_GONE];
    if (none && !trc)
        fprintf(stderr,
                "femtobench: warning: no benchmark in common with the baseline: nothing "
                "was compared%s\n",
                o.fail_on_slower ? " (-fail_on_slower: exit status 3)" : "");
    if (!status && o.fail_on_slower && (counts[FB__V_SLOWER] || none)) status = 3;
    fb__baseline_free(&b[0]);
    fb__baseline_free(&b[1]);
    return status;
}

int main(int argc, char **argv) {
    const char **runner_args = calloc((size_t)(argc > 0 ? argc : 1), sizeof *runner_args);
    if (!runner_args) return fb__opts_error("out of memory");
    fbc_opts o;
    memset(&o, 0, sizeof o);
    o.threshold_pct = FB__CHANGE_DEFAULT_THRESHOLD_PCT;
    o.runner_args = runner_args;
    fb__outputs_init(&o.outs, fbc_outputs, FBC_N_OUT);
    int rc = fbc_parse(argc, argv, &o);
    if (!rc) rc = fbc_check_outputs(&o);
    if (rc) {
        free(runner_args);
        fb__outputs_free(&o.outs);
        return rc < 0 ? 0 : rc;
    }
    rc = fbc_main(&o); /* frees runner_args */
    fb__outputs_free(&o.outs);
    return rc;
}
