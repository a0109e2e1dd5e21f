/* femtobench-compare: the runner's -baseline comparison, offline, for CI
 * pipelines that keep results as artifacts (docs/baselines.md).
 *
 *   femtobench-compare OLD.json NEW.json [-threshold=<pct>] [-fail_on_slower]
 *                      [-output_md=<file>]
 *
 * Both files are femtobench JSON (-output_json). The change table goes to
 * stdout, and with -output_md to a file as well (written whole or not at
 * all). Exit status: 0; 1 when NEW records a failed benchmark; 2 for bad
 * input (one line on stderr, nothing written); 3 with -fail_on_slower when a
 * benchmark is slower. It uses the library's own reader and table
 * (src/baseline.c, src/report_change.c): the same table as -baseline. */
#include "change.h"
#include "json.h"
#include "outfile.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

typedef struct fbc_opts {
    const char *files[2];
    double threshold_pct;
    bool fail_on_slower;
    const char *output_md;
} fbc_opts;

typedef struct fbc_md {
    const fb__baseline *old, *now;
    double threshold_pct;
} fbc_md;

static int fbc_error(const char *fmt, ...) FB__PRINTF(1, 2);
static int fbc_error(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fputs("femtobench: error: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return 2;
}

static void fbc_usage(FILE *f) {
    fputs("usage: femtobench-compare OLD.json NEW.json [options]\n\n"
          "Compares two femtobench JSON files (written by -output_json) benchmark by\n"
          "benchmark and prints the change table (docs/baselines.md).\n\n"
          "Options (one dash or two):\n"
          "  -threshold=<pct>     changes within this % are 'same' (default: 10)\n"
          "  -fail_on_slower      exit status 3 when a benchmark is slower\n"
          "  -output_md=<file>    also write the change table as markdown to <file>\n"
          "  -help                print this help and exit\n\n"
          "Exit status: 0; 1 when NEW.json records a failed benchmark; 2 for bad\n"
          "input; 3 with -fail_on_slower when a benchmark is slower.\n",
          f);
}

/* Returns 0 to go on, -1 after -help, 2 on bad input. */
static int fbc_parse(int argc, char **argv, fbc_opts *o) {
    int n_files = 0;
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        if (a[0] != '-' || a[1] == '\0') {
            if (n_files == 2)
                return fbc_error("unexpected argument '%s' (give exactly OLD.json and NEW.json)",
                                 a);
            o->files[n_files++] = a;
            continue;
        }
        const char *name = a + 1 + (a[1] == '-');
        const char *eq = strchr(name, '=');
        size_t len = eq ? (size_t)(eq - name) : strlen(name);
        const char *val = eq ? eq + 1 : NULL;
#define FBC_IS(s) (len == strlen(s) && strncmp(name, s, len) == 0)
        if (FBC_IS("help")) {
            fbc_usage(stdout);
            return -1;
        } else if (FBC_IS("fail_on_slower")) {
            if (val) return fbc_error("-fail_on_slower takes no value, got '%s'", a);
            o->fail_on_slower = true;
        } else if (FBC_IS("threshold")) {
            if (!val) return fbc_error("-threshold needs a value: -threshold=<pct>");
            if (fb__change_parse_threshold(val, &o->threshold_pct))
                return fbc_error("-threshold=%s: not a percentage >= 0 and < 1000", val);
        } else if (FBC_IS("output_md")) {
            if (!val) return fbc_error("-output_md needs a value: -output_md=<file>");
            if (!*val) return fbc_error("-output_md: empty file name");
            o->output_md = val;
        } else {
            return fbc_error("unknown option '%s' (see -help)", a);
        }
#undef FBC_IS
    }
    if (n_files < 2)
        return fbc_error("needs two files: femtobench-compare OLD.json NEW.json (see -help)");
    return 0;
}

static int fbc_write_md(void *ctx, FILE *f) {
    const fbc_md *m = ctx;
    size_t counts[FB__V_COUNT];
    int rc = fb__change_table(f, m->old, m->now, m->threshold_pct, counts);
    return rc ? rc : fb__writer_finish(f);
}

int main(int argc, char **argv) {
    fbc_opts o = {{NULL, NULL}, FB__CHANGE_DEFAULT_THRESHOLD_PCT, false, NULL};
    int rc = fbc_parse(argc, argv, &o);
    if (rc) return rc < 0 ? 0 : rc;
    char why[512];
    if (o.output_md && strcmp(o.output_md, "-") != 0 &&
        fb__outfile_check(o.output_md, why, sizeof why) != FB_OK)
        return fbc_error("-output_md=%s: %s", o.output_md, why);
    for (int i = 0; i < 2 && o.output_md; ++i) /* never one of the files it reads */
        if (fb__outfile_not_input(o.output_md, o.files[i], why, sizeof why) != FB_OK)
            return fbc_error("-output_md=%s: %s", o.output_md, why);
    fb__baseline b[2];
    memset(b, 0, sizeof b);
    for (int i = 0; i < 2; ++i)
        if (fb__baseline_load(o.files[i], &b[i], why, sizeof why)) {
            fb__baseline_free(&b[0]);
            return fbc_error("%s: %s", o.files[i], why);
        }
    size_t counts[FB__V_COUNT];
    int status = 0;
    if (fb__change_table(stdout, &b[0], &b[1], o.threshold_pct, counts) != 0)
        status = fbc_error("out of memory");
    if (fflush(stdout) != 0) status = 1;
    if (!status && o.output_md) {
        fbc_md m = {&b[0], &b[1], o.threshold_pct};
        if (fb__outfile_write_fn(o.output_md, fbc_write_md, &m, why, sizeof why) != FB_OK) {
            fprintf(stderr, "femtobench: error: %s\n", why);
            status = 1;
        } else if (strcmp(o.output_md, "-") != 0) {
            fprintf(stderr, "femtobench: wrote '%s'\n", o.output_md);
        }
    }
    if (!status)
        for (size_t i = 0; i < b[1].n; ++i)
            if (b[1].rec[i].error) status = 1;
    if (!status && o.fail_on_slower && counts[FB__V_SLOWER]) status = 3;
    fb__baseline_free(&b[0]);
    fb__baseline_free(&b[1]);
    return status;
}
