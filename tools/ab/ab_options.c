/* femtobench-ab: options: the command line, the usage text, each side's files (its layouts)
 * (docs/ab.md; tools/ab/ab.h). */
#define _GNU_SOURCE /* sched_setaffinity, CPU_SET, sched_getcpu, strsignal */

#include "ab.h"

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

/* ------------------------------------------------------------- options */

static void fba_usage(FILE *f) {
    fprintf(
        f,
        "usage: femtobench-ab OLD.so NEW.so [options]\n"
        "       femtobench-ab OLD.so,OLD.layout1.so,... NEW.so,NEW.layout1.so,... [options]\n\n"
        "Loads two builds of one FB_BENCHMARK suite (plugins, docs/ab.md) into one\n"
        "process and compares them benchmark by benchmark in paired rounds: one epoch\n"
        "of old and one of new per round, on one CPU, taking turns.\n"
        "Each side may be several builds of its code at different places (layout\n"
        "variants: femtobench_add_plugin builds them, as <name>.layout<k>.so beside\n"
        "<name>.so, found there); the verdict then holds over placements.\n\n"
        "Options (one dash or two):\n"
        "  -filter=<regex>      only the benchmarks whose name (or family) matches\n"
        "  -min_time=<ms>       measured time per side and benchmark (default: %g)\n"
        "  -rounds=<n>          paired rounds per benchmark, %d..%d (default: %d)\n"
        "  -instances=<k>       a side given as one file without layout variants is\n"
        "                       loaded k times, each copy at its own address with its\n"
        "                       own data, 1..%d (default: %d; 1: once)\n"
        "  -threshold=<pct>     changes within this %% are 'same' (default: %g)\n"
        "  -asymptote=<n1,...>  run each benchmark once per complexity N\n"
        "  -fail_on_slower      exit status 3 when a benchmark is slower, or none is in\n"
        "                       common (nothing was compared)\n"
        "  -valgrind            count instructions under Callgrind instead of timing\n"
        "  -isolate             each benchmark in its own child process\n"
        "  -timeout=<s>         a benchmark still running after <s> s is killed: an error row\n",
        FBA_DEFAULT_MIN_TIME_MS, FBA_MIN_ROUNDS, FBA_MAX_ROUNDS, FBA_DEFAULT_ROUNDS,
        FBA_MAX_LAYOUTS, FBA_DEFAULT_INSTANCES, FBA_DEFAULT_THRESHOLD_PCT);
    for (size_t i = 0; i < FBA_N_OUT; ++i) { /* the outputs' table */
        char left[64];
        snprintf(left, sizeof left, "-%s=<file>", fba_outputs[i].option);
        fprintf(f, "  %-20s %s\n", left, fba_outputs[i].help);
    }
    fputs("  -quiet               no machine warnings on stderr\n"
          "  -help                print this help and exit\n\n"
          "Exit status: 0; 1 when a benchmark failed; 2 for bad input; 3 with\n"
          "-fail_on_slower when a benchmark is slower, none is in common, or one kept\n"
          "too few rounds for a verdict.\n",
          f);
}

/* The value of -name=value, or NULL when arg is not that option. */
static const char *fba_value(const char *arg, const char *name) {
    const char *a = arg + 1 + (arg[1] == '-');
    size_t n = strlen(name);
    if (strncmp(a, name, n) != 0) return NULL;
    if (a[n] == '=') return a + n + 1;
    return NULL;
}

static bool fba_flag(const char *arg, const char *name) {
    const char *a = arg + 1 + (arg[1] == '-');
    return strcmp(a, name) == 0;
}

/* An option of the outputs' table (fba_outputs): true when arg is one,
 * with *rc 0 or the exit status of bad input. */
static bool fba_output(const char *arg, fba_opts *o, int *rc) {
    const char *a = arg + 1 + (arg[1] == '-'), *eq = strchr(a, '=');
    int row = fb__outputs_find(fba_outputs, FBA_N_OUT, a, eq ? (size_t)(eq - a) : strlen(a));
    char why[128];
    *rc = 0;
    if (row < 0) return false;
    if (!eq)
        *rc = fb__opts_error("-%s needs a value: -%s=<file>", fba_outputs[row].option,
                             fba_outputs[row].option);
    else if (fb__outputs_give(&o->outs, row, eq + 1, why, sizeof why) != FB_OK)
        *rc = fb__opts_error("%s", why);
    return true;
}

/* Returns 0 to go on, -1 after -help, 2 on bad input. */
int fba_parse(int argc, char **argv, fba_opts *o) {
    int n_files = 0, out_rc = 0;
    fb__outputs_init(&o->outs, fba_outputs, FBA_N_OUT);
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i], *v;
        if (a[0] != '-' || a[1] == '\0') {
            if (n_files == 2) return fb__opts_error("%s: only two plugins (OLD.so NEW.so)", a);
            o->files[n_files++] = a;
            continue;
        }
        if (fba_flag(a, "help") || fba_flag(a, "h")) {
            fba_usage(stdout);
            return -1;
        } else if ((v = fba_value(a, "filter"))) {
            if (!*v) return fb__opts_error("-filter: empty pattern");
            o->filter = v;
        } else if ((v = fba_value(a, "min_time"))) {
            char *end;
            errno = 0;
            double ms = strtod(v, &end);
            if (!*v || *end || errno || !(ms > 0) || ms > 3600e3)
                return fb__opts_error("-min_time=%s: not a number of milliseconds in (0, 3600000]",
                                      v);
            o->min_time_ms = ms;
        } else if ((v = fba_value(a, "rounds"))) {
            char *end;
            errno = 0;
            long r = strtol(v, &end, 10);
            if (!*v || *end || errno || r < FBA_MIN_ROUNDS || r > FBA_MAX_ROUNDS)
                return fb__opts_error("-rounds=%s: not a whole number from %d to %d", v,
                                      FBA_MIN_ROUNDS, FBA_MAX_ROUNDS);
            o->rounds = r;
        } else if ((v = fba_value(a, "instances"))) {
            char *end;
            errno = 0;
            long k = strtol(v, &end, 10);
            if (!*v || *end || errno || k < 1 || k > FBA_MAX_LAYOUTS)
                return fb__opts_error("-instances=%s: not a whole number from 1 to %d", v,
                                      FBA_MAX_LAYOUTS);
            o->instances = (size_t)k;
        } else if ((v = fba_value(a, "asymptote"))) {
            o->asymptote_text = v;
            o->n_asymptote = 0;
            const char *p = v;
            for (;;) {
                char *end;
                errno = 0;
                double n = strtod(p, &end);
                if (end == p || errno || !(n > 0) || n > 9007199254740992.0 ||
                    (*end && *end != ',') || o->n_asymptote == FBA_MAX_ASYMPTOTE)
                    return fb__opts_error("-asymptote=%s: not a list of up to %d numbers N > 0 "
                                          "(n1,n2,...)",
                                          v, FBA_MAX_ASYMPTOTE);
                o->asymptote[o->n_asymptote++] = n;
                if (!*end) break;
                p = end + 1;
            }
        } else if ((v = fba_value(a, "threshold"))) {
            if (fb__change_parse_threshold(v, &o->threshold_pct) != 0)
                return fb__opts_error("-threshold=%s: not a percentage from 0 to 1000", v);
        } else if (fba_flag(a, "fail_on_slower")) {
            o->fail_on_slower = true;
        } else if (fba_flag(a, "valgrind")) {
            o->valgrind = true;
        } else if (fba_flag(a, "isolate")) {
            o->isolate = true;
        } else if (fba_flag(a, "quiet")) {
            o->quiet = true;
        } else if ((v = fba_value(a, "timeout"))) {
            char why[160];
            if (!fb__parse_decimal(v, &o->timeout_s) || !(o->timeout_s > 0))
                return fb__opts_error("-timeout=%s: not a number of seconds > 0", v);
            if (fb__cli_range(o->timeout_s, 0, FB__CLI_MAX_TIMEOUT_S, "s", why, sizeof why))
                return fb__opts_error("-timeout=%s: %s", v, why);
        } else if (fba_output(a, o, &out_rc)) { /* the outputs' table */
            if (out_rc) return out_rc;
        } else if ((v = fba_value(a, "side_only"))) { /* internal: the -valgrind child */
            o->side_only = strcmp(v, "new") == 0 ? 1 : 0;
        } else if ((v = fba_value(a, "counts_to"))) {
            o->counts_to = v;
        } else if ((v = fba_value(a, "only"))) {
            o->only = v;
        } else {
            return fb__opts_error("%s: unknown option (see -help)", a);
        }
    }
    if (n_files < 2)
        return fb__opts_error("needs two plugins: femtobench-ab OLD.so NEW.so [options]");
    if (o->valgrind && o->min_time_ms > 0)
        return fb__opts_error(
            "-min_time: has no effect with -valgrind (it counts, it does not time)");
    return 0;
}

/* One side's files: a comma-separated list, or one file and the layout
 * variants built beside it (<stem>.layout<k>.so for k = 1, 2, ... while
 * they exist: femtobench_add_plugin's names). */
static int fba_side_files(fba_opts *o, int s, size_t *n, bool *found) {
    const char *arg = o->files[s];
    *n = 0;
    *found = false;
    if (strchr(arg, ',')) {
        for (const char *p = arg;;) {
            const char *c = strchr(p, ',');
            size_t len = c ? (size_t)(c - p) : strlen(p);
            if (!len) return fb__opts_error("%s: an empty file name in the list", arg);
            if (*n == FBA_MAX_LAYOUTS)
                return fb__opts_error("%s: more than %d layouts", arg, FBA_MAX_LAYOUTS);
            char *f = malloc(len + 1);
            if (!f) return fb__opts_error("out of memory");
            memcpy(f, p, len);
            f[len] = '\0';
            o->layout[s][(*n)++] = f;
            if (!c) break;
            p = c + 1;
        }
        return 0;
    }
    if (!(o->layout[s][(*n)++] = fb__strdup(arg))) return fb__opts_error("out of memory");
    size_t len = strlen(arg);
    struct stat base;
    if (len <= 3 || strcmp(arg + len - 3, ".so") != 0 || stat(arg, &base) != 0) return 0;
    for (size_t k = 1; k < FBA_MAX_LAYOUTS; ++k) {
        char buf[4200];
        struct stat st;
        snprintf(buf, sizeof buf, "%.*s.layout%zu.so", (int)(len - 3), arg, k);
        if (stat(buf, &st) != 0) break;
        /* a variant left from an earlier build is other code */
        if (st.st_mtime + 60 < base.st_mtime)
            return fb__opts_error("%s: older than %s (by %.0f s): the layout variants come "
                                  "from an earlier build; rebuild the plugin target (docs/ab.md)",
                                  buf, arg, difftime(base.st_mtime, st.st_mtime));
        if (!(o->layout[s][(*n)++] = fb__strdup(buf))) return fb__opts_error("out of memory");
        *found = true;
    }
    return 0;
}

/* Both sides' files, the same count on each. Counting (-valgrind) takes
 * each side's first: a count does not depend on where the code lies. */
int fba_resolve_layouts(fba_opts *o) {
    size_t n[2];
    bool found[2];
    for (int s = 0; s < 2; ++s) {
        int rc = fba_side_files(o, s, &n[s], &found[s]);
        if (rc) return rc;
    }
    /* both sides given as one file each, neither with variants */
    bool one_file = n[0] == 1 && n[1] == 1;
    if (o->valgrind || o->counts_to) n[0] = n[1] = 1;
    /* one file a side, no variants: that file's copies, each loaded at its
     * own address with its own data and heap (fba_load_all copies a file
     * given more than once), so that where a copy lands is measured as a
     * layout's placement is; the code's own layout is the same in each */
    if (one_file && !o->valgrind && !o->counts_to && o->instances > 1) {
        for (int s = 0; s < 2; ++s)
            for (size_t i = 1; i < o->instances; ++i)
                if (!(o->layout[s][i] = fb__strdup(o->layout[s][0])))
                    return fb__opts_error("out of memory");
        n[0] = n[1] = o->instances;
        o->copies = true;
    }
    if (n[0] != n[1]) {
        /* the fewer on both sides, said: a plugin built without variants
         * (LAYOUTS 1, an older femtobench) still compares */
        size_t k = n[0] < n[1] ? n[0] : n[1];
        o->found[0] = n[0]; /* said once both sides have loaded (fba_say_layouts) */
        o->found[1] = n[1];
        for (int s = 0; s < 2; ++s)
            for (size_t i = k; i < n[s]; ++i) {
                free(o->layout[s][i]);
                o->layout[s][i] = NULL;
            }
        n[0] = n[1] = k;
    }
    o->layouts = n[0];
    o->discovered = found[0] || found[1];
    return 0;
}

/* Says, once both sides loaded, that one side had more layouts than the
 * other and the fewer are compared. */
void fba_say_layouts(const fba_opts *o) {
    if (!o->found[0]) return;
    char line[1536];
    snprintf(line, sizeof line,
             "%s has %zu layout%s, %s has %zu: compared with %zu a side%s (docs/ab.md, \"Code "
             "layout\")",
             o->files[0], o->found[0], o->found[0] == 1 ? "" : "s", o->files[1], o->found[1],
             o->layouts, o->layouts < FBA_MIN_RANDOM_LAYOUTS ? ": placement not measured" : "");
    fputs("femtobench: note: ", stderr);
    fb__put_line(stderr, line); /* a file name with a line break stays one line */
    fputc('\n', stderr);
}

void fba_layouts_free(fba_opts *o) {
    for (int s = 0; s < 2; ++s)
        for (size_t k = 0; k < FBA_MAX_LAYOUTS; ++k) {
            free(o->layout[s][k]);
            o->layout[s][k] = NULL;
        }
}
