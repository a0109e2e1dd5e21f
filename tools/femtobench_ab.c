/* femtobench-ab: did my change make it slower? Old and new code in one
 * process, compared epoch by epoch (docs/ab.md).
 *
 *   femtobench-ab OLD.so NEW.so [options]
 *
 * OLD.so and NEW.so are the same FB_BENCHMARK suite built twice as plugins
 * (shared objects, each with its own whole copy of the library). Both are
 * loaded into this process (RTLD_LOCAL: separate code and globals; the same
 * file twice is copied first, so that it loads twice). Benchmarks are matched
 * by their run's full name. For each pair, one iteration count is chosen
 * from a short calibration of both sides, then the two sides run on two
 * threads pinned to one CPU and take turns at the epoch boundaries through
 * the library's epoch hook: one epoch of old and one of new per round, the
 * first side alternating. Rounds in which either epoch was disturbed are
 * left out. Each round gives ln(t_new / t_old); the change is their median
 * with a sign-test interval, Bonferroni-corrected over the suite (family-wise
 * 95%), judged against a practical threshold. -valgrind counts instructions
 * instead (each side in its own Callgrind child): any difference is a
 * verdict.
 *
 * This program is built from the library's internals (statistics, outputs,
 * filter, -valgrind) but exports none of them: a plugin must bind to its own
 * copy of the library, never to this one's. */
#define _GNU_SOURCE /* sched_setaffinity, CPU_SET, sched_getcpu */

#include "options.h" /* fb__opts_error: the runner's one error line */
#include "change.h"
#include "cli_check.h"
#include "clock.h"
#include "compare.h"
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

/* Defaults, chosen from the measurements in docs/ab.md. */
#define FBA_DEFAULT_ROUNDS 50
#define FBA_DEFAULT_MIN_TIME_MS 2.0 /* measured time per side and benchmark */
#define FBA_DEFAULT_THRESHOLD_PCT 3.0
#define FBA_MAX_ROUNDS 1000
/* the fewest rounds of a benchmark whose one iteration outlasts an epoch */
#define FBA_LONG_ROUNDS 16
/* the epochs of a paired run the host keeps: its rounds, and room for the
 * warmup epochs a suite may configure (paced as well, before the rounds) */
#define FBA_MAX_EPOCHS (FBA_MAX_ROUNDS + 64)
#define FBA_MIN_ROUNDS 6 /* the fewest that give a 95% sign-test interval */
#define FBA_FAMILY_CONFIDENCE 0.95
/* a run's name (the runner takes up to 1024 bytes) with " N=<n>" */
#define FBA_NAME_MAX 1100
#define FBA_MAX_ASYMPTOTE 64
#define FBA_ERROR_MAX 256

/* ------------------------------------------------------------- options */

typedef struct fba_opts {
    const char *files[2];
    const char *filter;
    double min_time_ms;
    long rounds;
    double threshold_pct;
    bool fail_on_slower, valgrind, isolate;
    double timeout_s; /* -timeout: a benchmark still running after it is killed; 0: none */
    const char *out_json, *out_md, *out_html;
    double asymptote[FBA_MAX_ASYMPTOTE]; /* -asymptote: each benchmark once per N */
    size_t n_asymptote;
    const char *asymptote_text;
    int side_only;         /* internal: the -valgrind child counts this side only */
    const char *counts_to; /* internal: where that child writes its counts */
    const char *only;      /* internal: that child counts this benchmark only (-isolate) */
    FILE *table;           /* stdout, or stderr when an output goes to stdout */
} fba_opts;

static void fba_usage(FILE *f) {
    fprintf(f,
            "usage: femtobench-ab OLD.so NEW.so [options]\n\n"
            "Loads two builds of one FB_BENCHMARK suite (plugins, docs/ab.md) into one\n"
            "process and compares them benchmark by benchmark in paired rounds: one epoch\n"
            "of old and one of new per round, on one CPU, taking turns.\n\n"
            "Options (one dash or two):\n"
            "  -filter=<regex>      only the benchmarks whose name (or family) matches\n"
            "  -min_time=<ms>       measured time per side and benchmark (default: %g)\n"
            "  -rounds=<n>          paired rounds per benchmark, %d..%d (default: %d)\n"
            "  -threshold=<pct>     changes within this %% are 'same' (default: %g)\n"
            "  -asymptote=<n1,...>  run each benchmark once per complexity N\n"
            "  -fail_on_slower      exit status 3 when a benchmark is slower, or none is in\n"
            "                       common (nothing was compared)\n"
            "  -valgrind            count instructions under Callgrind instead of timing\n"
            "  -isolate             each benchmark in its own child process\n"
            "  -timeout=<s>         a benchmark still running after <s> s is killed: an error row\n"
            "  -output_json=<file>  the comparison as JSON\n"
            "  -output_md=<file>    the comparison as a markdown pull-request comment\n"
            "  -output_html=<file>  the comparison as an HTML page with a forest plot\n"
            "  -help                print this help and exit\n\n"
            "Exit status: 0; 1 when a benchmark failed; 2 for bad input; 3 with\n"
            "-fail_on_slower when a benchmark is slower.\n",
            FBA_DEFAULT_MIN_TIME_MS, FBA_MIN_ROUNDS, FBA_MAX_ROUNDS, FBA_DEFAULT_ROUNDS,
            FBA_DEFAULT_THRESHOLD_PCT);
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

/* Returns 0 to go on, -1 after -help, 2 on bad input. */
static int fba_parse(int argc, char **argv, fba_opts *o) {
    int n_files = 0;
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
        } else if ((v = fba_value(a, "timeout"))) {
            char why[160];
            if (!fb__parse_decimal(v, &o->timeout_s) || !(o->timeout_s > 0))
                return fb__opts_error("-timeout=%s: not a number of seconds > 0", v);
            if (fb__cli_range(o->timeout_s, 0, FB__CLI_MAX_TIMEOUT_S, "s", why, sizeof why))
                return fb__opts_error("-timeout=%s: %s", v, why);
        } else if ((v = fba_value(a, "output_json"))) {
            o->out_json = v;
        } else if ((v = fba_value(a, "output_md"))) {
            o->out_md = v;
        } else if ((v = fba_value(a, "output_html"))) {
            o->out_html = v;
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
    if (o->valgrind && o->timeout_s > 0 && !o->counts_to)
        return fb__opts_error("-timeout: not with -valgrind (Callgrind's children are not timed)");
    if (o->valgrind && o->min_time_ms > 0)
        return fb__opts_error(
            "-min_time: has no effect with -valgrind (it counts, it does not time)");
    return 0;
}

/* ------------------------------------------------------------- plugins */

typedef struct fba_names {
    char **v;
    size_t n, cap;
    bool oom;
} fba_names;

static void fba_names_add(void *ctx, const char *name) {
    fba_names *s = ctx;
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 16;
        char **v = realloc(s->v, cap * sizeof *v);
        if (!v) {
            s->oom = true;
            return;
        }
        s->v = v;
        s->cap = cap;
    }
    char *c = fb__strdup(name);
    if (!c) {
        s->oom = true;
        return;
    }
    s->v[s->n++] = c;
}

static long fba_names_find(const fba_names *s, const char *name) {
    for (size_t i = 0; i < s->n; ++i)
        if (strcmp(s->v[i], name) == 0) return (long)i;
    return -1;
}

static void fba_names_free(fba_names *s) {
    for (size_t i = 0; i < s->n; ++i) free(s->v[i]);
    free(s->v);
    memset(s, 0, sizeof *s);
}

typedef struct fba_side {
    const char *path; /* as given */
    char copy[4096];  /* the temporary copy of the same file given twice, else "" */
    void *dl;         /* dlopen handle */
    const fb__plugin_api *api;
    fba_names benches; /* as listed */
} fba_side;

static const char *const fba_side_name[2] = {"old", "new"};

/* Copies src to a new temporary file (its name into out). */
static int fba_copy(const char *src, char *out, size_t len, char *why, size_t wlen) {
    const char *tmp = fb__process_tmpdir() ? fb__process_tmpdir() : "/tmp";
    snprintf(out, len, "%s/femtobench-ab.XXXXXX", tmp);
    int to = mkstemp(out);
    if (to < 0) {
        snprintf(why, wlen, "cannot copy it to %s (to load it twice): %s", tmp, strerror(errno));
        out[0] = '\0';
        return -1;
    }
    int from = open(src, O_RDONLY);
    char buf[65536];
    ssize_t n = from < 0 ? -1 : 0;
    while (from >= 0 && (n = read(from, buf, sizeof buf)) > 0)
        if (write(to, buf, (size_t)n) != n) {
            n = -1;
            break;
        }
    int e = errno;
    if (from >= 0) close(from);
    if (close(to) != 0 || n < 0) {
        snprintf(why, wlen, "cannot copy it to %.200s (to load it twice): %s", out, strerror(e));
        unlink(out);
        out[0] = '\0';
        return -1;
    }
    return 0;
}

/* Checks and loads one plugin; 0, or 2 after the error line. */
static int fba_load(fba_side *s, const char *load_path) {
    char head[20];
    int fd = open(s->path, O_RDONLY);
    if (fd < 0) return fb__opts_error("%s: cannot open: %s", s->path, strerror(errno));
    ssize_t got = read(fd, head, sizeof head);
    close(fd);
    if (got < (ssize_t)sizeof head || memcmp(head, "\177ELF", 4) != 0)
        return fb__opts_error(
            "%s: not a shared object (no ELF header); build the suite as a plugin "
            "(docs/ab.md)",
            s->path);
    unsigned type = (unsigned char)head[16] | (unsigned)(unsigned char)head[17] << 8;
    if (head[5] == 2) type = (unsigned char)head[17] | (unsigned)(unsigned char)head[16] << 8;
    if (type != 3) /* ET_DYN */
        return fb__opts_error("%s: not a shared object (an ELF %s); build the suite as a plugin "
                              "(docs/ab.md)",
                              s->path,
                              type == 2   ? "executable"
                              : type == 1 ? "object file"
                                          : "file");
    dlerror();
    s->dl = dlopen(load_path, RTLD_NOW | RTLD_LOCAL);
    if (!s->dl) {
        const char *e = dlerror();
        /* dlerror starts with the path it was given (maybe the copy's): the
         * user knows the file by its own name, given once */
        size_t lp = strlen(load_path);
        const char *colon = e && strncmp(e, load_path, lp) == 0 && e[lp] == ':' ? e + lp + 1 : e;
        while (colon && *colon == ' ') ++colon;
        return fb__opts_error("%s: cannot load: %s", s->path, colon ? colon : "unknown reason");
    }
    const fb__plugin_api *(*entry)(void);
    void *sym = dlsym(s->dl, FB__PLUGIN_ENTRY);
    if (!sym)
        return fb__opts_error(
            "%s: not a femtobench plugin (no %s): link the suite with the femtobench "
            "library as docs/ab.md shows",
            s->path, FB__PLUGIN_ENTRY);
    memcpy(&entry, &sym, sizeof entry); /* dlsym's object pointer as a function pointer */
    s->api = entry();
    unsigned host_major = FB_VERSION_MAJOR, host_minor = FB_VERSION_MINOR, major = 0, minor = 0;
    if (!s->api || !s->api->version || sscanf(s->api->version, "%u.%u", &major, &minor) != 2 ||
        s->api->abi < FB__PLUGIN_ABI_OLDEST || s->api->abi > FB__PLUGIN_ABI ||
        major != host_major || minor != host_minor)
        return fb__opts_error(
            "%s: built with femtobench %s (plugin interface %u); this "
            "femtobench-ab is %s (plugin interfaces %u to %u): rebuild the plugin with it",
            s->path, s->api && s->api->version ? s->api->version : "?", s->api ? s->api->abi : 0u,
            FB_VERSION_STRING, FB__PLUGIN_ABI_OLDEST, FB__PLUGIN_ABI);
    /* a plugin that claims this interface but lacks a function of it
     * would crash at the first call */
    if (!s->api->identity || !s->api->list || !s->api->run)
        return fb__opts_error("%s: its plugin interface (%u) lacks a function (identity, list or "
                              "run is NULL): rebuild the plugin with this femtobench",
                              s->path, s->api->abi);
    char why[512];
    int rc = s->api->list(fba_names_add, &s->benches, why, sizeof why);
    if (rc != FB_OK) return fb__opts_error("%s: %s", s->path, why);
    if (s->benches.oom) return fb__opts_error("out of memory");
    /* the names the runner refuses (an older plugin's copy of the library
     * may not check them) */
    for (size_t i = 0; i < s->benches.n; ++i)
        if (fb__select_bad_name(s->benches.v[i]))
            return fb__opts_error("%s: benchmark name '%.40s...' %s", s->path, s->benches.v[i],
                                  fb__select_bad_name(s->benches.v[i]));
    return 0;
}

static int fba_load_both(fba_side *sides) {
    struct stat st[2];
    for (int i = 0; i < 2; ++i)
        if (stat(sides[i].path, &st[i]) != 0)
            return fb__opts_error("%s: cannot open: %s", sides[i].path, strerror(errno));
    /* the same file twice (the A/A check): dlopen would return the first
     * handle again, with the same globals; a copy loads separately */
    const char *load[2] = {sides[0].path, sides[1].path};
    if (st[0].st_dev == st[1].st_dev && st[0].st_ino == st[1].st_ino) {
        char why[512];
        if (fba_copy(sides[1].path, sides[1].copy, sizeof sides[1].copy, why, sizeof why) != 0)
            return fb__opts_error("%s: %s", sides[1].path, why);
        load[1] = sides[1].copy;
    }
    /* dlopen needs a slash to take a path as a path, not a library name */
    char buf[2][4096];
    for (int i = 0; i < 2; ++i) {
        if (!strchr(load[i], '/')) {
            snprintf(buf[i], sizeof buf[i], "./%s", load[i]);
            load[i] = buf[i];
        }
        int rc = fba_load(&sides[i], load[i]);
        if (rc) return rc;
    }
    if (sides[0].api->identity() == sides[1].api->identity())
        return fb__opts_error("%s and %s share one copy of the femtobench library (linked with "
                              "libfemtobench.so?): link each plugin with the static library "
                              "(docs/ab.md)",
                              sides[0].path, sides[1].path);
    return 0;
}

/* ------------------------------------------------------------- the rows */

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
    double ins_old, ins_new;   /* -valgrind: instructions per unit */
    size_t n_lr;               /* kept log ratios */
    double lr[FBA_MAX_ROUNDS]; /* ln(t_new / t_old), kept rounds */
    fb__change change;         /* filled at the end (needs the family's size) */
    /* -valgrind: the least and most of each side's counted pairs (both the
     * count when it repeated exactly) */
    double ins_old_lo, ins_old_hi, ins_new_lo, ins_new_hi;
} fba_row;

typedef struct fba_rows {
    fba_row **v;
    size_t n, cap;
} fba_rows;

static fba_row *fba_rows_add(fba_rows *rs, const char *name, double n, fba_kind kind) {
    if (rs->n == rs->cap) {
        size_t cap = rs->cap ? 2 * rs->cap : 16;
        fba_row **v = realloc(rs->v, cap * sizeof *v);
        if (!v) return NULL;
        rs->v = v;
        rs->cap = cap;
    }
    fba_row *r = calloc(1, sizeof *r);
    if (!r) return NULL;
    snprintf(r->name, sizeof r->name, "%s", name);
    r->n = n;
    if (n > 0)
        snprintf(r->label, sizeof r->label, "%.1024s N=%.15g", name, n);
    else
        snprintf(r->label, sizeof r->label, "%s", name);
    r->kind = kind;
    r->t_old = r->t_new = r->ins_old = r->ins_new = NAN;
    r->ins_old_lo = r->ins_old_hi = r->ins_new_lo = r->ins_new_hi = NAN;
    rs->v[rs->n++] = r;
    return r;
}

static void fba_rows_free(fba_rows *rs) {
    for (size_t i = 0; i < rs->n; ++i) free(rs->v[i]);
    free(rs->v);
    memset(rs, 0, sizeof *rs);
}

/* ------------------------------------------------------- one CPU for all */

static int fba_cpu = -1;
static cpu_set_t fba_cpus; /* the CPUs femtobench-ab was started with */
static bool fba_have_cpus;

/* A thread group (FB_BENCHMARK_THREADS, listed as "fn/threads:<n>") runs
 * its threads on every CPU femtobench-ab may use, as the runner runs them:
 * pinned to one CPU they would measure no parallelism. Its two sides still
 * take turns (the baton), so their epochs never overlap. */
static bool fba_is_group(const char *bench) { return strstr(bench, "/threads:") != NULL; }

static void fba_unpin(void) {
    if (fba_have_cpus) sched_setaffinity(0, sizeof fba_cpus, &fba_cpus); /* best effort */
}

static void fba_pin(void) {
    if (fba_cpu < 0) return;
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET((size_t)fba_cpu, &set);
    sched_setaffinity(0, sizeof set, &set); /* this thread; best effort */
}

static void fba_choose_cpu(void) {
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) != 0) return;
    fba_cpus = set;
    fba_have_cpus = true;
    int now = sched_getcpu();
    if (now >= 0 && CPU_ISSET((size_t)now, &set)) {
        fba_cpu = now;
        return;
    }
    for (size_t c = 0; c < CPU_SETSIZE; ++c)
        if (CPU_ISSET(c, &set)) {
            fba_cpu = (int)c;
            return;
        }
}

/* ------------------------------------------------------------ calibration */

/* The runs one side's benchmark made, with each one's time per iteration
 * from its one measured epoch. */
typedef struct fba_calib_run {
    double per_iter_s;
    char error[FBA_ERROR_MAX];
} fba_calib_run;

typedef struct fba_calib {
    fba_names runs;
    fba_calib_run *run; /* one per name in runs (as many as the function makes) */
    size_t cap;
    double best;  /* the run's fastest time per iteration so far */
    long current; /* the run being calibrated (index in runs), -1 between runs */
} fba_calib;

static bool fba_calib_begin(void *ctx, const char *name, uint64_t *iters, size_t *epochs) {
    fba_calib *c = ctx;
    (void)iters;
    c->current = -1;
    if (fba_names_find(&c->runs, name) >= 0) return false; /* once each */
    if (c->runs.n == c->cap) {
        size_t cap = c->cap ? 2 * c->cap : 16;
        fba_calib_run *v = realloc(c->run, cap * sizeof *v);
        if (!v) return false; /* out of memory: the run is not compared (its row says so) */
        c->run = v;
        c->cap = cap;
    }
    size_t before = c->runs.n;
    fba_names_add(&c->runs, name);
    if (c->runs.n == before) return false;
    c->run[before].per_iter_s = NAN;
    c->run[before].error[0] = '\0';
    c->current = (long)c->runs.n - 1;
    c->best = INFINITY;
    *epochs = 1; /* the library finds the iterations for its epoch time, then one epoch */
    return true;
}
static void fba_calib_epoch_begin(void *ctx, size_t k) {
    (void)ctx;
    (void)k;
}
static void fba_calib_epoch_end(void *ctx, size_t k, uint64_t iters, double elapsed_s,
                                bool disturbed) {
    fba_calib *c = ctx;
    (void)k;
    (void)disturbed;
    /* the fastest epoch, upscaling ones included: a preempted or cold epoch
     * is only ever slower, and a short one's clock overhead, spread over
     * fewer iterations, makes it slower too (the largest count wins) */
    if (!iters || !(elapsed_s > 0)) return;
    double t = elapsed_s / (double)iters;
    if (t < c->best) c->best = t;
}
static void fba_calib_end(void *ctx, const char *name) {
    fba_calib *c = ctx;
    (void)name; /* every run_begin has its run_end, skipped runs too */
    if (c->current >= 0) c->run[c->current].per_iter_s = isfinite(c->best) ? c->best : NAN;
    c->current = -1;
}
static void fba_calib_result(void *ctx, const char *name, double n, const char *error, double med,
                             double ins) {
    fba_calib *c = ctx;
    (void)n;
    (void)med;
    (void)ins;
    long i = fba_names_find(&c->runs, name);
    if (i >= 0 && error) snprintf(c->run[i].error, FBA_ERROR_MAX, "%s", error);
}

static void fba_calibrate(const fba_side *s, const char *bench, double n, fba_calib *c) {
    memset(c, 0, sizeof *c);
    c->current = -1;
    fb__epoch_hook h = {c, fba_calib_begin, fba_calib_epoch_begin, fba_calib_epoch_end,
                        fba_calib_end};
    bool group = fba_is_group(bench);
    if (group) fba_unpin(); /* its threads on every CPU, as in its rounds */
    s->api->run(bench, n, &h, fba_calib_result, c);
    if (group) fba_pin();
}

/* ---------------------------------------------------------- paired rounds */

/* The baton: slots 2k and 2k + 1 are round k's two epochs, old first in
 * even rounds and new first in odd ones. A side runs epoch k when the slot
 * is its own; after the epoch it moves the slot on and waits until its next
 * slot comes (or, after its last epoch, until every epoch is done), so that
 * its own bookkeeping never overlaps the other side's timed epoch. A side
 * that is done (its run ended, or never started) no longer holds the other
 * up. */
typedef struct fba_pair {
    pthread_mutex_t lock;
    pthread_cond_t turn;
    const char *run; /* the run to measure; the benchmark's other runs are skipped */
    uint64_t iters;
    size_t rounds;
    size_t slot;
    bool done[2], started[2];
    size_t got[2];
    double t[2][FBA_MAX_EPOCHS];
    double switches[2][FBA_MAX_EPOCHS]; /* 1 when the epoch was disturbed */
    char error[2][FBA_ERROR_MAX];
    const fba_side *sides;
    const char *bench;
    double n; /* complexity N, 0 when unset */
} fba_pair;

typedef struct fba_hand {
    fba_pair *p;
    int side;
} fba_hand;

static size_t fba_slot(int side, size_t k) {
    int first = (int)(k % 2);
    return 2 * k + (side == first ? 0 : 1);
}

static bool fba_pair_begin(void *ctx, const char *name, uint64_t *iters, size_t *epochs) {
    fba_hand *h = ctx;
    fba_pair *p = h->p;
    if (strcmp(name, p->run) != 0 || p->started[h->side]) return false;
    p->started[h->side] = true;
    *iters = p->iters;
    *epochs = p->rounds;
    return true;
}

static void fba_pair_epoch_begin(void *ctx, size_t k) {
    fba_hand *h = ctx;
    fba_pair *p = h->p;
    pthread_mutex_lock(&p->lock);
    while (p->slot != fba_slot(h->side, k) && !p->done[1 - h->side])
        pthread_cond_wait(&p->turn, &p->lock);
    pthread_mutex_unlock(&p->lock);
}

static void fba_pair_epoch_end(void *ctx, size_t k, uint64_t iters, double elapsed_s,
                               bool disturbed) {
    fba_hand *h = ctx;
    fba_pair *p = h->p;
    if (k < FBA_MAX_EPOCHS) {
        p->t[h->side][k] = iters ? elapsed_s / (double)iters : NAN;
        p->switches[h->side][k] = disturbed ? 1.0 : 0.0;
        p->got[h->side] = k + 1;
    }
    pthread_mutex_lock(&p->lock);
    if (p->slot == fba_slot(h->side, k)) ++p->slot;
    pthread_cond_broadcast(&p->turn);
    /* until this side's next slot; after the last epoch the other side has
     * run its last one by then too, or ends its run (done) */
    size_t next = fba_slot(h->side, k + 1);
    while (p->slot < next && !p->done[1 - h->side]) pthread_cond_wait(&p->turn, &p->lock);
    pthread_mutex_unlock(&p->lock);
}

static void fba_pair_done(fba_pair *p, int side) {
    pthread_mutex_lock(&p->lock);
    p->done[side] = true;
    pthread_cond_broadcast(&p->turn);
    pthread_mutex_unlock(&p->lock);
}

static void fba_pair_end(void *ctx, const char *name) {
    fba_hand *h = ctx;
    if (strcmp(name, h->p->run) == 0) fba_pair_done(h->p, h->side);
}

static void fba_pair_result(void *ctx, const char *name, double n, const char *error, double med,
                            double ins) {
    fba_hand *h = ctx;
    (void)n;
    (void)med;
    (void)ins;
    if (error && strcmp(name, h->p->run) == 0)
        snprintf(h->p->error[h->side], FBA_ERROR_MAX, "%s", error);
}

static void *fba_pair_thread(void *arg) {
    fba_hand *h = arg;
    if (fba_is_group(h->p->bench))
        fba_unpin();
    else
        fba_pin();
    fb__epoch_hook hook = {h, fba_pair_begin, fba_pair_epoch_begin, fba_pair_epoch_end,
                           fba_pair_end};
    h->p->sides[h->side].api->run(h->p->bench, h->p->n, &hook, fba_pair_result, h);
    fba_pair_done(h->p, h->side); /* also when the run never came */
    return NULL;
}

/* Measures one run of bench on both sides into row. */
static void fba_measure_pair(const fba_side *sides, const fba_opts *o, const char *bench,
                             double per_iter_s, fba_row *row) {
    fba_pair *p = calloc(1, sizeof *p);
    if (!p) {
        row->kind = FBA_ERROR;
        snprintf(row->error, sizeof row->error, "out of memory");
        return;
    }
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->turn, NULL);
    p->run = row->name;
    p->n = row->n;
    /* -min_time spread over the rounds; when one iteration is longer than
     * that, fewer rounds (down to FBA_LONG_ROUNDS) of one iteration each */
    double min_time_s = o->min_time_ms * 1e-3;
    p->rounds = (size_t)o->rounds;
    if (per_iter_s * (double)p->rounds > min_time_s) {
        double fit = floor(min_time_s / per_iter_s);
        size_t floor_rounds = o->rounds < FBA_LONG_ROUNDS ? (size_t)o->rounds : FBA_LONG_ROUNDS;
        p->rounds = fit > (double)floor_rounds ? (size_t)fit : floor_rounds;
    }
    double epoch_s = min_time_s / (double)p->rounds;
    double n = per_iter_s > 0 ? ceil(epoch_s / per_iter_s) : 1;
    p->iters = n < 1 ? 1 : n > 1e10 ? (uint64_t)1e10 : (uint64_t)n;
    p->sides = sides;
    p->bench = bench;
    fba_hand hands[2] = {{p, 0}, {p, 1}};
    pthread_t th[2];
    bool ok[2] = {false, false};
    for (int s = 0; s < 2; ++s) {
        ok[s] = pthread_create(&th[s], NULL, fba_pair_thread, &hands[s]) == 0;
        if (!ok[s]) fba_pair_done(p, s);
    }
    for (int s = 0; s < 2; ++s)
        if (ok[s]) pthread_join(th[s], NULL);
    row->iterations = p->iters;
    /* the rounds are each side's last `rounds` epochs (a configured warmup
     * comes first, paced too); a side that ran fewer ran the rounds short */
    size_t got = p->got[0] < p->got[1] ? p->got[0] : p->got[1];
    size_t first[2] = {0, 0};
    row->rounds = got < p->rounds ? got : p->rounds;
    for (int s = 0; s < 2; ++s) first[s] = p->got[s] - row->rounds;
    for (int s = 0; s < 2; ++s) {
        if (!p->error[s][0] && ok[s]) continue;
        row->kind = FBA_ERROR;
        snprintf(row->error, sizeof row->error, "%s: %.240s", fba_side_name[s],
                 ok[s] ? p->error[s] : "cannot start a thread");
    }
    if (row->kind != FBA_ERROR && row->rounds < p->rounds) {
        row->kind = FBA_ERROR;
        snprintf(row->error, sizeof row->error, "%zu of %zu rounds measured (old %zu, new %zu)",
                 row->rounds, p->rounds, p->got[0], p->got[1]);
    }
    if (row->kind == FBA_PAIRED) {
        /* rounds with a disturbed epoch are left out, unless too few would
         * remain for any interval (then all are kept: fb__cmp_preempted) */
        bool skip[FBA_MAX_ROUNDS];
        double sw[2 * FBA_MAX_ROUNDS];
        memcpy(sw, p->switches[0] + first[0], row->rounds * sizeof *sw);
        memcpy(sw + row->rounds, p->switches[1] + first[1], row->rounds * sizeof *sw);
        row->dropped = fb__cmp_preempted(sw, 2, row->rounds, row->rounds, FBA_MIN_ROUNDS, skip);
        /* The side that goes first in a round follows its own epoch of the
         * round before (old new | new old | old new ...): its caches are
         * warm, the second side's are not. Alternation balances this only
         * while as many old-first as new-first rounds are kept, so the
         * excess of one kind is left out too (the latest first). */
        row->dropped += fb__cmp_balance_order(skip, row->rounds);
        double told[FBA_MAX_ROUNDS], tnew[FBA_MAX_ROUNDS];
        size_t kept = 0;
        for (size_t r = 0; r < row->rounds; ++r) {
            double a = p->t[0][first[0] + r], b = p->t[1][first[1] + r];
            if (skip[r] || !(a > 0) || !(b > 0)) continue;
            told[kept] = a;
            tnew[kept] = b;
            row->lr[kept++] = log(b) - log(a);
        }
        row->n_lr = kept;
        row->t_old = fb__median(told, kept);
        row->t_new = fb__median(tnew, kept);
    }
    pthread_cond_destroy(&p->turn);
    pthread_mutex_destroy(&p->lock);
    free(p);
}

static void fba_calib_free(fba_calib *c) {
    for (int s = 0; s < 2; ++s) {
        fba_names_free(&c[s].runs);
        free(c[s].run);
    }
    free(c);
}

/* One benchmark (an instance, as listed) on both sides: its runs' rows. */
static int fba_bench(const fba_side *sides, const fba_opts *o, const char *bench, double n,
                     bool in_old, bool in_new, fba_rows *rows) {
    fba_calib *c = calloc(2, sizeof *c);
    if (!c) return FB_ENOMEM;
    if (in_old) fba_calibrate(&sides[0], bench, n, &c[0]);
    if (in_new) fba_calibrate(&sides[1], bench, n, &c[1]);
    for (int s = 0; s < 2; ++s)
        for (size_t i = 0; i < c[s].runs.n; ++i) {
            const char *run = c[s].runs.v[i];
            long j = fba_names_find(&c[1 - s].runs, run);
            if (s == 1 && j >= 0) continue; /* paired with old's */
            fba_kind kind = j < 0 ? (s == 0 ? FBA_GONE : FBA_NEW) : FBA_PAIRED;
            fba_row *row = fba_rows_add(rows, run, n, kind);
            if (!row) {
                fba_calib_free(c);
                return FB_ENOMEM;
            }
            size_t i0 = s == 0 ? i : (size_t)(j < 0 ? 0 : j);
            size_t i1 = s == 1 ? i : (size_t)(j < 0 ? 0 : j);
            const fba_calib_run none = {NAN, ""};
            const fba_calib_run *k0 = i0 < c[0].runs.n ? &c[0].run[i0] : &none;
            const fba_calib_run *k1 = i1 < c[1].runs.n ? &c[1].run[i1] : &none;
            double t[2] = {k0->per_iter_s, k1->per_iter_s};
            if (kind == FBA_GONE) row->t_old = t[0];
            if (kind == FBA_NEW) row->t_new = t[1];
            const char *err0 = k0->error;
            const char *err1 = k1->error;
            if (kind != FBA_PAIRED) {
                const char *e = kind == FBA_GONE ? err0 : err1;
                if (e[0]) {
                    row->kind = FBA_ERROR;
                    /* the side's error, cut to fit after "old: " */
                    snprintf(row->error, sizeof row->error, "%s: %.240s",
                             fba_side_name[kind == FBA_NEW], e);
                }
                continue;
            }
            if (err0[0] || err1[0]) {
                row->kind = FBA_ERROR;
                snprintf(row->error, sizeof row->error, "%s: %.240s", err0[0] ? "old" : "new",
                         err0[0] ? err0 : err1);
                continue;
            }
            fba_measure_pair(sides, o, bench, t[0] > t[1] || !(t[1] > 0) ? t[0] : t[1], row);
        }
    fba_calib_free(c);
    return FB_OK;
}

/* --------------------------------------------------------- -valgrind */

typedef struct fba_counts {
    FILE *f;
} fba_counts;

/* A name or an error in a count line: a backslash, tab, newline or carriage
 * return escaped, so that a line holds the whole name whatever it contains
 * and the parent pairs the runs by their whole names. */
static void fba_put_escaped(FILE *f, const char *s) {
    for (; *s; ++s) {
        const char *e = *s == '\\'   ? "\\\\"
                        : *s == '\t' ? "\\t"
                        : *s == '\n' ? "\\n"
                        : *s == '\r' ? "\\r"
                                     : NULL;
        if (e)
            fputs(e, f);
        else
            fputc(*s, f);
    }
}

/* Undoes fba_put_escaped into out (len bytes, truncated to fit). */
static void fba_unescape(const char *s, char *out, size_t len) {
    size_t k = 0;
    for (; *s && k + 1 < len; ++s) {
        char ch = *s;
        if (ch == '\\' && s[1]) {
            ++s;
            ch = *s == 't' ? '\t' : *s == 'n' ? '\n' : *s == 'r' ? '\r' : *s;
        }
        out[k++] = ch;
    }
    out[k] = '\0';
}

static void fba_count_result(void *ctx, const char *name, double n, const char *error, double med,
                             double ins, double lo, double hi) {
    fba_counts *c = ctx;
    (void)med;
    /* one line per run, tab-separated: "count", the instructions per unit,
     * the least and most of its counted pairs, N and the name; or "error",
     * N, the name and the error */
    if (error) {
        fprintf(c->f, "error\t%.17g\t", n);
        fba_put_escaped(c->f, name);
        fputc('\t', c->f);
        fba_put_escaped(c->f, error);
    } else {
        fprintf(c->f, "count\t%.17g\t%.17g\t%.17g\t%.17g\t", ins, lo, hi, n);
        fba_put_escaped(c->f, name);
    }
    fputc('\n', c->f);
}

/* A plugin of interface 1 reports no spread: its counts are exact. */
static void fba_count_result_v1(void *ctx, const char *name, double n, const char *error,
                                double med, double ins) {
    fba_count_result(ctx, name, n, error, med, ins, ins, ins);
}

/* The -valgrind child: counts one side's selected benchmarks into a file. */
static int fba_count_side(const fba_side *s, const fba_opts *o, const fba_names *sel,
                          const char *path) {
    fba_counts c = {fopen(path, "w")};
    if (!c.f) return fb__opts_error("-valgrind: cannot write '%s': %s", path, strerror(errno));
    setvbuf(c.f, NULL, _IOLBF, 0); /* every line out before the next run: it may crash */
    bool spread = s->api->abi >= 2 && s->api->run_counted;
    size_t n_ns = o->n_asymptote ? o->n_asymptote : 1;
    for (size_t i = 0; i < sel->n; ++i) {
        if (fba_names_find(&s->benches, sel->v[i]) < 0) continue;
        if (o->only && strcmp(o->only, sel->v[i]) != 0) continue;
        for (size_t k = 0; k < n_ns; ++k) {
            fputs("begin\t", c.f); /* the benchmark about to run */
            fba_put_escaped(c.f, sel->v[i]);
            fputc('\n', c.f);
            double n = o->n_asymptote ? o->asymptote[k] : 0;
            if (spread)
                s->api->run_counted(sel->v[i], n, NULL, fba_count_result, &c);
            else
                s->api->run(sel->v[i], n, NULL, fba_count_result_v1, &c);
        }
    }
    /* the last line: a child that ends without it (a benchmark that called
     * exit(0)) did not finish, whatever its exit status */
    fputs("end\n", c.f);
    return fclose(c.f) == 0 ? 0 : 1;
}

typedef struct fba_count_line {
    char name[FBA_NAME_MAX];
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

/* Splits line at its tabs into at most max fields; returns how many. */
static size_t fba_fields(char *line, char **field, size_t max) {
    size_t k = 0;
    while (k < max) {
        field[k++] = line;
        char *tab = strchr(line, '\t');
        if (!tab) break;
        *tab = '\0';
        line = tab + 1;
    }
    return k;
}

/* Appends a child's counts file to c. */
static void fba_read_counts(const char *path, fba_counted *c) {
    c->last_begin[0] = '\0';
    c->ended = false;
    FILE *f = fopen(path, "r");
    if (!f) return;
    static char line[2 * (FBA_NAME_MAX + FBA_ERROR_MAX) + 160]; /* every byte escaped */
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        char *fl[6] = {NULL, NULL, NULL, NULL, NULL, NULL};
        size_t nf = fba_fields(line, fl, 6);
        if (strcmp(fl[0], "end") == 0) {
            c->ended = true;
            continue;
        }
        if (strcmp(fl[0], "begin") == 0 && nf == 2) {
            fba_unescape(fl[1], c->last_begin, sizeof c->last_begin);
            continue;
        }
        bool error = strcmp(fl[0], "error") == 0 && nf >= 3;
        if (!error && !(strcmp(fl[0], "count") == 0 && nf == 6)) continue;
        if (c->n == c->cap) {
            size_t cap = c->cap ? 2 * c->cap : 32;
            fba_count_line *v = realloc(c->v, cap * sizeof *v);
            if (!v) break;
            c->v = v;
            c->cap = cap;
        }
        fba_count_line *l = &c->v[c->n++];
        memset(l, 0, sizeof *l);
        if (error) {
            l->n = strtod(fl[1], NULL);
            fba_unescape(fl[2], l->name, sizeof l->name);
            if (nf > 3) fba_unescape(fl[3], l->error, sizeof l->error);
            if (!l->error[0]) snprintf(l->error, sizeof l->error, "failed");
            l->ins = l->ins_lo = l->ins_hi = NAN;
        } else {
            l->ins = strtod(fl[1], NULL);
            l->ins_lo = strtod(fl[2], NULL);
            l->ins_hi = strtod(fl[3], NULL);
            l->n = strtod(fl[4], NULL);
            fba_unescape(fl[5], l->name, sizeof l->name);
        }
    }
    fclose(f);
}

/* One Callgrind child: counts side s's benchmarks (or only `only`) into c.
 * Returns the child's exit status. */
static int fba_count_child(const fba_opts *o, int s, const char *only, fba_counted *c) {
    const char *tmp = fb__process_tmpdir() ? fb__process_tmpdir() : "/tmp";
    char path[4096];
    snprintf(path, sizeof path, "%s/femtobench-ab-counts.XXXXXX", tmp);
    int fd = mkstemp(path);
    if (fd < 0)
        return fb__opts_error("-valgrind: cannot create a file in %s: %s", tmp, strerror(errno));
    close(fd);
    char side_opt[32], out_opt[4200], filter_opt[4200], asym_opt[4200], only_opt[FBA_NAME_MAX + 8];
    snprintf(side_opt, sizeof side_opt, "-side_only=%s", fba_side_name[s]);
    snprintf(out_opt, sizeof out_opt, "-counts_to=%s", path);
    char *args[10];
    int k = 0;
    args[k++] = fb__str_unconst("femtobench-ab");
    args[k++] = fb__str_unconst(o->files[0]);
    args[k++] = fb__str_unconst(o->files[1]);
    args[k++] = side_opt;
    args[k++] = out_opt;
    if (o->filter) {
        snprintf(filter_opt, sizeof filter_opt, "-filter=%s", o->filter);
        args[k++] = filter_opt;
    }
    if (o->asymptote_text) {
        snprintf(asym_opt, sizeof asym_opt, "-asymptote=%s", o->asymptote_text);
        args[k++] = asym_opt;
    }
    if (only) {
        snprintf(only_opt, sizeof only_opt, "-only=%s", only);
        args[k++] = only_opt;
    }
    args[k] = NULL;
    int crc = fb__vg_runner_exec(k, args, false);
    fba_read_counts(path, c);
    unlink(path);
    return crc;
}

/* The error row already made for benchmark name, or NULL. */
static fba_row *fba_crash_row(const fba_rows *rows, const char *name) {
    for (size_t r = 0; r < rows->n; ++r)
        if (rows->v[r]->kind == FBA_ERROR && strcmp(rows->v[r]->name, name) == 0) return rows->v[r];
    return NULL;
}

/* -valgrind: each side counted in its own Callgrind child (Callgrind numbers
 * its dumps per process, and each copy of the library counts its own);
 * with -isolate one child per benchmark, so that a crash is that
 * benchmark's error row. */
static int fba_valgrind(const fba_opts *o, const fba_side *sides, const fba_names *sel,
                        fba_rows *rows) {
    fba_counted c[2];
    memset(c, 0, sizeof c);
    int rc = 0;
    for (int s = 0; s < 2 && !rc; ++s) {
        size_t units = o->isolate ? sel->n : 1;
        for (size_t u = 0; u < units && !rc; ++u) {
            const char *only = o->isolate ? sel->v[u] : NULL;
            if (only && fba_names_find(&sides[s].benches, only) < 0) continue;
            int crc = fba_count_child(o, s, only, &c[s]);
            if (crc == 0 && c[s].ended) continue;
            if (crc == 2 || !c[s].last_begin[0]) {
                rc = crc == 2 ? 2 : 1;
                if (crc != 2)
                    fprintf(stderr,
                            "femtobench: error: -valgrind: the %s side's Callgrind child failed "
                            "(exit status %d)\n",
                            fba_side_name[s], crc);
            } else if (!o->isolate) {
                fprintf(stderr,
                        "femtobench: error: -valgrind: %s: the %s side's Callgrind child died "
                        "(exit status %d); -isolate makes a crash that benchmark's error row\n",
                        c[s].last_begin, fba_side_name[s], crc);
                rc = 1;
            } else if (fba_crash_row(rows, c[s].last_begin)) { /* crashed on both sides */
                snprintf(fba_crash_row(rows, c[s].last_begin)->error, FBA_ERROR_MAX,
                         "old and new: %s under Callgrind (exit status %d)",
                         crc ? "crashed" : "exited before it finished", crc);
            } else {
                fba_row *row = fba_rows_add(rows, c[s].last_begin, 0, FBA_ERROR);
                if (!row) {
                    rc = fb__opts_error("out of memory");
                    break;
                }
                snprintf(row->error, sizeof row->error, "%s: %s under Callgrind (exit status %d)",
                         fba_side_name[s], crc ? "crashed" : "exited before it finished", crc);
            }
        }
    }
    fba_count_line *lines[2] = {c[0].v, c[1].v};
    size_t n[2] = {c[0].n, c[1].n};
    for (int s = 0; s < 2 && !rc; ++s)
        for (size_t i = 0; i < n[s]; ++i) {
            const fba_count_line *l = &lines[s][i];
            const fba_count_line *other = NULL;
            for (size_t j = 0; j < n[1 - s] && !other; ++j)
                if (strcmp(lines[1 - s][j].name, l->name) == 0 && lines[1 - s][j].n == l->n)
                    other = &lines[1 - s][j];
            if (s == 1 && other) continue;
            /* a run missing on a side whose child crashed is not `gone`/`new` */
            bool crashed = false;
            for (size_t r = 0; r < rows->n; ++r)
                crashed =
                    crashed || (rows->v[r]->kind == FBA_ERROR &&
                                strncmp(rows->v[r]->name, l->name, strlen(rows->v[r]->name)) == 0);
            if (!other && crashed) continue;
            fba_row *row = fba_rows_add(rows, l->name, l->n,
                                        other    ? FBA_PAIRED
                                        : s == 0 ? FBA_GONE
                                                 : FBA_NEW);
            if (!row) {
                rc = fb__opts_error("out of memory");
                break;
            }
            const fba_count_line *lo = s == 0 ? l : other, *ln = s == 0 ? other : l;
            if (lo) {
                row->ins_old = lo->ins;
                row->ins_old_lo = lo->ins_lo;
                row->ins_old_hi = lo->ins_hi;
            }
            if (ln) {
                row->ins_new = ln->ins;
                row->ins_new_lo = ln->ins_lo;
                row->ins_new_hi = ln->ins_hi;
            }
            const fba_count_line *bad = lo && lo->error[0] ? lo : ln && ln->error[0] ? ln : NULL;
            if (bad) {
                row->kind = FBA_ERROR;
                snprintf(row->error, sizeof row->error, "%s: %.240s", bad == lo ? "old" : "new",
                         bad->error);
            }
        }
    free(c[0].v);
    free(c[1].v);
    return rc;
}

/* ------------------------------------------------- the measuring child */

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

static volatile sig_atomic_t fba_child; /* the child's process group, 0 when none */
static const int fba_signals[4] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};

/* A signal that would end femtobench-ab ends the child's group first: a
 * hung benchmark must not outlive the program that started it. */
static void fba_on_signal(int sig) {
    pid_t g = (pid_t)fba_child;
    if (g > 0) kill(-g, SIGKILL);
    signal(sig, SIG_DFL);
    raise(sig);
}

static bool fba_send(int fd, const void *p, size_t n) {
    const char *c = p;
    while (n) {
        ssize_t w = write(fd, c, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return false;
        c += w;
        n -= (size_t)w;
    }
    return true;
}

/* The child: steps [first, last) (step = benchmark x complexity N). */
static void fba_child_run(const fba_side *sides, const fba_opts *o, const fba_names *sel,
                          size_t first, size_t last, int fd) {
    size_t n_ns = o->n_asymptote ? o->n_asymptote : 1;
    for (size_t step = first; step < last; ++step) {
        size_t i = step / n_ns;
        double n = o->n_asymptote ? o->asymptote[step % n_ns] : 0;
        bool in_old = fba_names_find(&sides[0].benches, sel->v[i]) >= 0;
        bool in_new = fba_names_find(&sides[1].benches, sel->v[i]) >= 0;
        fba_msg m = {'B', step};
        if (!fba_send(fd, &m, sizeof m)) _exit(120);
        fba_rows mine = {0};
        if (fba_bench(sides, o, sel->v[i], n, in_old, in_new, &mine) != FB_OK) _exit(121);
        for (size_t r = 0; r < mine.n; ++r) {
            fba_msg h = {'R', step};
            if (!fba_send(fd, &h, sizeof h) || !fba_send(fd, mine.v[r], sizeof *mine.v[r]))
                _exit(120);
        }
        fba_rows_free(&mine);
        m.type = 'E';
        if (!fba_send(fd, &m, sizeof m)) _exit(120);
    }
    fba_msg d = {'D', last};
    _exit(fba_send(fd, &d, sizeof d) ? 0 : 120);
}

/* Reads n bytes, waiting at most until deadline_s (0: no deadline) and
 * checking meanwhile that the child still runs. 1: read; 0: the pipe ended
 * or the child ended (*reaped, *status); -1: the deadline passed. */
static int fba_recv(int fd, void *p, size_t n, pid_t pid, double deadline_s, bool *reaped,
                    int *status) {
    char *c = p;
    while (n) {
        int wait_ms = 200; /* the child is checked at least this often */
        if (deadline_s > 0) {
            double left = deadline_s - (double)fb__clock_now_ns() * 1e-9;
            if (left <= 0) return -1;
            if (left * 1e3 < wait_ms) wait_ms = (int)(left * 1e3) + 1;
        }
        struct pollfd pf = {fd, POLLIN, 0};
        int pr = poll(&pf, 1, wait_ms);
        if (pr < 0 && errno != EINTR) return 0;
        if (pr <= 0) {
            /* a child that ended while a process it left keeps the pipe open */
            if (!*reaped && waitpid(pid, status, WNOHANG) == pid) *reaped = true;
            if (*reaped) {
                pf.revents = 0;
                if (poll(&pf, 1, 0) <= 0) return 0;
            } else {
                continue;
            }
        }
        ssize_t r = read(fd, c, n);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return 0;
        c += r;
        n -= (size_t)r;
    }
    return 1;
}

/* Why a child ended before it said "all done". */
static void fba_child_why(const fba_opts *o, bool timed_out, int status, char *buf, size_t len) {
    if (timed_out) {
        char t[32]; /* '.' whatever the locale */
        fb__fmt_double(t, sizeof t, o->timeout_s, 6);
        snprintf(buf, len, "timed out: still running after %s s (-timeout), killed", t);
    } else if (WIFSIGNALED(status)) {
        const char *what = strsignal(WTERMSIG(status));
        snprintf(buf, len, "crashed: killed by signal %d (%s)", WTERMSIG(status),
                 what ? what : "?");
    } else if (WIFEXITED(status) && WEXITSTATUS(status) == 121) {
        snprintf(buf, len, "out of memory");
    } else if (WIFEXITED(status) && WEXITSTATUS(status) == 120) {
        snprintf(buf, len,
                 "its result pipe was closed before it finished (does the benchmark close "
                 "descriptors it did not open?)");
    } else {
        snprintf(buf, len, "exited with status %d before it finished",
                 WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    }
}

/* Compares every selected benchmark (x each -asymptote N) into rows. */
static int fba_run_all(const fba_side *sides, const fba_opts *o, const fba_names *sel,
                       fba_rows *rows) {
    size_t n_ns = o->n_asymptote ? o->n_asymptote : 1;
    size_t total = sel->n * n_ns;
    struct sigaction sa, old[4];
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = fba_on_signal;
    sigemptyset(&sa.sa_mask);
    for (int k = 0; k < 4; ++k) sigaction(fba_signals[k], &sa, &old[k]);
    fba_row *buf = malloc(sizeof *buf);
    int rc = buf ? FB_OK : FB_ENOMEM;
    for (size_t step = 0; step < total && rc == FB_OK;) {
        size_t last = o->isolate ? step + 1 : total;
        int fds[2];
        if (pipe(fds) != 0) {
            rc = FB_EIO;
            break;
        }
        fflush(stdout);
        fflush(stderr);
        pid_t pid = fork();
        if (pid == 0) {
            close(fds[0]);
            setpgid(0, 0); /* its own group: killed whole, with what it starts */
            for (int k = 0; k < 4; ++k) sigaction(fba_signals[k], &old[k], NULL);
            fba_child_run(sides, o, sel, step, last, fds[1]);
        }
        close(fds[1]);
        if (pid < 0) {
            close(fds[0]);
            rc = FB_EIO;
            break;
        }
        setpgid(pid, pid); /* either side may get there first */
        fba_child = pid;
        long current = -1;  /* the step in progress */
        size_t next = step; /* the step after the last one that ended */
        bool done = false, reaped = false, timed_out = false;
        int status = 0;
        double deadline_s = 0;
        for (;;) {
            fba_msg m;
            int got = fba_recv(fds[0], &m, sizeof m, pid, deadline_s, &reaped, &status);
            if (got == 1 && m.type == 'R')
                got = fba_recv(fds[0], buf, sizeof *buf, pid, deadline_s, &reaped, &status);
            if (got < 0) timed_out = true;
            if (got != 1) break;
            if (m.type == 'B') {
                current = (long)m.step;
                if (o->timeout_s > 0) deadline_s = (double)fb__clock_now_ns() * 1e-9 + o->timeout_s;
            } else if (m.type == 'E') {
                current = -1;
                next = m.step + 1;
                deadline_s = 0;
            } else if (m.type == 'R') {
                buf->name[sizeof buf->name - 1] = buf->label[sizeof buf->label - 1] = '\0';
                buf->error[sizeof buf->error - 1] = '\0';
                if (buf->n_lr > FBA_MAX_ROUNDS) buf->n_lr = 0;
                fba_row *row = fba_rows_add(rows, buf->name, buf->n, buf->kind);
                if (row) *row = *buf;
            } else if (m.type == 'D') {
                done = true;
                break;
            }
        }
        close(fds[0]);
        kill(-pid, SIGKILL); /* whatever it left behind, and the child if it still runs */
        if (!reaped)
            while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
            }
        fba_child = 0;
        if (done) {
            step = last;
            continue;
        }
        /* the benchmark it died in (or the next one, when it died between
         * two) is an error row; the next child starts after it */
        size_t bad = current >= 0 ? (size_t)current : next;
        if (bad >= total) break;
        char why[FBA_ERROR_MAX];
        fba_child_why(o, timed_out, status, why, sizeof why);
        fba_row *row = fba_rows_add(rows, sel->v[bad / n_ns],
                                    o->n_asymptote ? o->asymptote[bad % n_ns] : 0, FBA_ERROR);
        if (!row) {
            rc = FB_ENOMEM;
            break;
        }
        snprintf(row->error, sizeof row->error, "%s", why);
        step = bad + 1;
    }
    free(buf);
    for (int k = 0; k < 4; ++k) sigaction(fba_signals[k], &old[k], NULL);
    return rc;
}

/* ------------------------------------------------------------- verdicts */

/* The fewest kept rounds whose sign-test interval exists at each row's
 * confidence when `family` runs are compared (1 - 0.05 / family): fewer
 * can only give `unsure`. Asked of fb__cmp_interval itself, so that the two
 * never disagree. */
static size_t fba_rounds_needed(size_t family) {
    double confidence = 1.0 - (1.0 - FBA_FAMILY_CONFIDENCE) / (double)(family ? family : 1);
    static double v[FBA_MAX_ROUNDS];
    for (size_t n = 1; n <= FBA_MAX_ROUNDS; ++n) {
        double m, lo, hi;
        memset(v, 0, n * sizeof *v);
        if (fb__cmp_interval(v, n, confidence, &m, &lo, &hi)) return n;
    }
    return FBA_MAX_ROUNDS + 1;
}

typedef struct fba_report {
    const fba_opts *o;
    fba_rows *rows;
    double confidence; /* of each row's interval */
    size_t paired;     /* the family: rows with an interval */
    size_t needed;     /* the fewest kept rounds that give one (fba_rounds_needed) */
    size_t counts[FB__V_COUNT];
    size_t errors;
    double wall_s;
} fba_report;

static void fba_judge(fba_report *rep) {
    fba_rows *rows = rep->rows;
    rep->paired = 0;
    for (size_t i = 0; i < rows->n; ++i) rep->paired += rows->v[i]->kind == FBA_PAIRED;
    rep->confidence = 1.0 - (1.0 - FBA_FAMILY_CONFIDENCE) / (double)(rep->paired ? rep->paired : 1);
    rep->needed = fba_rounds_needed(rep->paired);
    for (size_t i = 0; i < rows->n; ++i) {
        fba_row *r = rows->v[i];
        fb__change *c = &r->change;
        c->shift = c->lo = c->hi = c->mw_lo = c->mw_hi = NAN;
        c->change_pct = c->lo_pct = c->hi_pct = NAN;
        c->verdict = FB__V_UNSURE;
        if (r->kind == FBA_NEW) c->verdict = FB__V_NEW;
        if (r->kind == FBA_GONE) c->verdict = FB__V_GONE;
        if (r->kind == FBA_ERROR) {
            rep->errors++;
            continue;
        }
        if (r->kind == FBA_PAIRED) {
            if (rep->o->valgrind)
                fb__change_counted_spread(r->ins_old, r->ins_old_lo, r->ins_old_hi, r->ins_new,
                                          r->ins_new_lo, r->ins_new_hi, c);
            else
                fb__change_paired(r->lr, r->n_lr, rep->confidence, rep->o->threshold_pct, c);
        }
        rep->counts[c->verdict]++;
    }
}

static const char *fba_verdict(const fba_row *r) {
    return r->kind == FBA_ERROR ? "error" : fb__verdict_name(r->change.verdict);
}

/* The summary line: how many of each verdict. */
static void fba_summary(FILE *f, const fba_report *rep) {
    static const fb__verdict order[] = {FB__V_SLOWER, FB__V_FASTER, FB__V_UNSURE,
                                        FB__V_SAME,   FB__V_NEW,    FB__V_GONE};
    size_t total = rep->rows->n;
    fprintf(f, "%zu benchmark%s:", total, total == 1 ? "" : "s");
    bool first = true;
    for (size_t i = 0; i < sizeof order / sizeof order[0]; ++i) {
        if (!rep->counts[order[i]]) continue;
        fprintf(f, "%s %zu %s", first ? "" : ",", rep->counts[order[i]],
                fb__verdict_name(order[i]));
        first = false;
    }
    if (rep->errors) fprintf(f, "%s %zu failed", first ? "" : ",", rep->errors);
    if (!total) fputs(" none", f);
    if (rep->o->valgrind)
        fputs(" (instructions counted under Callgrind: exact counts compared exactly, counts that "
              "move by their spread)",
              f);
    else
        fprintf(f, " (threshold %g%%, family-wise 95%%, %ld rounds)", rep->o->threshold_pct,
                rep->o->rounds);
    fputc('\n', f);
}

static void fba_time(FILE *f, double s) {
    char buf[32];
    if (!(s > 0)) {
        fputs("-", f);
        return;
    }
    fb__svg_si(buf, sizeof buf, s, "s", 4);
    fputs(buf, f);
}

static void fba_num(FILE *f, double v, const char *suffix) {
    char buf[64];
    if (!isfinite(v)) {
        fputs("-", f);
        return;
    }
    fb__svg_fixed(buf, sizeof buf, v, fabs(v) < 10 ? 2 : 1, false);
    fprintf(f, "%s%s%s", v > 0 ? "+" : "", buf, suffix);
}

/* Markdown cells: '|' and newlines would break the table. */
static void fba_cell(FILE *f, const char *s) {
    for (; *s; ++s) {
        if (*s == '|')
            fputs("\\|", f);
        else if (*s == '\n' || *s == '\r')
            fputc(' ', f);
        else
            fputc(*s, f);
    }
}

/* The table (stdout and -output_md): one row per run. */
static void fba_table(FILE *f, const fba_report *rep) {
    bool vg = rep->o->valgrind;
    if (vg)
        fputs(
            "| benchmark | old (instructions) | new (instructions) | change | spread | verdict |\n"
            "|:--|--:|--:|--:|:--|:--|\n",
            f);
    else
        fprintf(f,
                "| benchmark | old | new | change | interval (%.4g%%) | rounds | verdict |\n"
                "|:--|--:|--:|--:|:--|--:|:--|\n",
                100 * rep->confidence);
    for (size_t i = 0; i < rep->rows->n; ++i) {
        const fba_row *r = rep->rows->v[i];
        const fb__change *c = &r->change;
        fputs("| ", f);
        fba_cell(f, r->label);
        fputs(" | ", f);
        if (vg) {
            if (isfinite(r->ins_old))
                fprintf(f, "%.10g", r->ins_old);
            else
                fputs("-", f);
            fputs(" | ", f);
            if (isfinite(r->ins_new))
                fprintf(f, "%.10g", r->ins_new);
            else
                fputs("-", f);
            fputs(" | ", f);
            fba_num(f, c->change_pct, "%");
            fputs(" | ", f);
            char note[80] = "-";
            if (r->kind == FBA_PAIRED && isfinite(c->change_pct))
                fb__change_counted_text(note, sizeof note, c);
            fputs(note, f);
        } else {
            fba_time(f, r->t_old);
            fputs(" | ", f);
            fba_time(f, r->t_new);
            fputs(" | ", f);
            fba_num(f, c->change_pct, "%");
            fputs(" | ", f);
            if (isfinite(c->lo_pct)) {
                fputc('[', f);
                fba_num(f, c->lo_pct, "");
                fputs(", ", f);
                fba_num(f, c->hi_pct, "");
                fputs("]%", f);
            } else if (r->kind == FBA_PAIRED && r->n_lr < rep->needed) {
                /* no interval can exist: say why the verdict is unsure */
                fprintf(f, "none: %zu rounds kept, %zu needed", r->n_lr, rep->needed);
            } else {
                fputs("-", f);
            }
            fputs(" | ", f);
            if (r->kind == FBA_PAIRED)
                fprintf(f, "%zu", r->n_lr);
            else
                fputs("-", f);
        }
        fputs(" | ", f);
        if (r->kind == FBA_ERROR) {
            fputs("error: ", f);
            fba_cell(f, r->error);
        } else {
            fputs(fba_verdict(r), f);
        }
        fputs(" |\n", f);
    }
}

static int fba_write_md(void *ctx, FILE *f) {
    const fba_report *rep = ctx;
    const fba_opts *o = rep->o;
    fputs("### femtobench-ab: ", f);
    size_t slower = rep->counts[FB__V_SLOWER];
    if (rep->errors)
        fprintf(f, "%zu benchmark%s failed\n\n", rep->errors, rep->errors == 1 ? "" : "s");
    else if (slower)
        fprintf(f, "%zu benchmark%s slower\n\n", slower, slower == 1 ? "" : "s");
    else
        fputs("no benchmark slower\n\n", f);
    fba_summary(f, rep);
    fputs("\n", f);
    fba_table(f, rep);
    fputs("\n<sub>old: `", f);
    fba_cell(f, o->files[0]);
    fputs("`, new: `", f);
    fba_cell(f, o->files[1]);
    fprintf(f, "`; both in one process, paired epoch by epoch (femtobench %s, docs/ab.md). ",
            FB_VERSION_STRING);
    fputs("One process cannot see changes to the femtobench library, link order, LTO or "
          "`main`.</sub>\n",
          f);
    return ferror(f) ? FB_EIO : FB_OK;
}

static void fba_json_kfinite(fb__json *j, const char *key, double v) {
    if (isfinite(v))
        fb__json_knum(j, key, v);
    else
        fb__json_knull(j, key);
}

static int fba_write_json(void *ctx, FILE *f) {
    const fba_report *rep = ctx;
    const fba_opts *o = rep->o;
    fb__json j;
    fb__json_init(&j, f);
    fb__json_obj(&j, NULL, false);
    fb__json_obj(&j, "context", false);
    fb__json_kstr(&j, "femtobench_version", FB_VERSION_STRING);
    fb__json_kstr(&j, "old", o->files[0]);
    fb__json_kstr(&j, "new", o->files[1]);
    fb__json_kstr(&j, "mode", o->valgrind ? "valgrind" : "timed");
    fb__json_knum(&j, "threshold_pct", o->threshold_pct);
    fb__json_kint(&j, "rounds", o->rounds);
    fb__json_knum(&j, "min_time_ms", o->min_time_ms);
    fb__json_knum(&j, "confidence", rep->confidence);
    fb__json_knum(&j, "family_confidence", FBA_FAMILY_CONFIDENCE);
    fb__json_knum(&j, "wall_s", rep->wall_s);
    fb__json_end_obj(&j);
    fb__json_obj(&j, "summary", true);
    for (int v = 0; v < FB__V_COUNT; ++v)
        fb__json_kint(&j, fb__verdict_name((fb__verdict)v), (long long)rep->counts[v]);
    fb__json_kint(&j, "error", (long long)rep->errors);
    fb__json_end_obj(&j);
    fb__json_arr(&j, "benchmarks", false);
    for (size_t i = 0; i < rep->rows->n; ++i) {
        const fba_row *r = rep->rows->v[i];
        fb__json_obj(&j, NULL, false);
        fb__json_kstr(&j, "name", r->label);
        fb__json_kstr(&j, "run", r->name);
        if (r->n > 0)
            fb__json_knum(&j, "n", r->n);
        else
            fb__json_knull(&j, "n");
        fb__json_kstr(&j, "verdict", fba_verdict(r));
        if (r->kind == FBA_ERROR)
            fb__json_kstr(&j, "error", r->error);
        else
            fb__json_knull(&j, "error");
        fba_json_kfinite(&j, "old_s", r->t_old);
        fba_json_kfinite(&j, "new_s", r->t_new);
        fba_json_kfinite(&j, "old_instructions", r->ins_old);
        fba_json_kfinite(&j, "new_instructions", r->ins_new);
        /* the least and most of each side's counted pairs (equal to the
         * count when exact), and whether the verdict took them into account */
        fba_json_kfinite(&j, "old_instructions_low", r->ins_old_lo);
        fba_json_kfinite(&j, "old_instructions_high", r->ins_old_hi);
        fba_json_kfinite(&j, "new_instructions_low", r->ins_new_lo);
        fba_json_kfinite(&j, "new_instructions_high", r->ins_new_hi);
        if (r->kind == FBA_PAIRED && o->valgrind && isfinite(r->change.change_pct))
            fb__json_kstr(&j, "spread",
                          r->change.spread == FB__SPREAD_NONE     ? "exact"
                          : r->change.spread == FB__SPREAD_WITHIN ? "within"
                                                                  : "beyond");
        else
            fb__json_knull(&j, "spread");
        fba_json_kfinite(&j, "change_pct", r->change.change_pct);
        fba_json_kfinite(&j, "low_pct", r->change.lo_pct);
        fba_json_kfinite(&j, "high_pct", r->change.hi_pct);
        fb__json_ku64(&j, "iterations", r->iterations);
        fb__json_ku64(&j, "rounds", r->rounds);
        fb__json_ku64(&j, "rounds_used", r->n_lr);
        fb__json_ku64(&j, "rounds_disturbed", r->dropped);
        fb__json_end_obj(&j);
    }
    fb__json_end_arr(&j);
    fb__json_end_obj(&j);
    fputc('\n', f);
    return fb__writer_finish(f);
}

static void fba_html_text(FILE *f, const char *s) { fb__svg_text(f, s); }

static int fba_html_verdict(const fba_row *r) {
    if (r->kind == FBA_ERROR) return FB__HTML_UNKNOWN;
    switch (r->change.verdict) {
    case FB__V_FASTER:
        return FB__HTML_FASTER;
    case FB__V_SLOWER:
        return FB__HTML_SLOWER;
    case FB__V_SAME:
        return FB__HTML_SAME;
    case FB__V_NEW:
        return FB__HTML_NEW;
    case FB__V_GONE:
        return FB__HTML_GONE;
    default:
        return FB__HTML_UNSURE;
    }
}

/* The page: the summary, a forest plot of new / old with each interval,
 * and the change chart and table (src/report_html_compare.c's), under the
 * report's style sheet and its policy (no script, no request). */
static int fba_write_html(void *ctx, FILE *f) {
    const fba_report *rep = ctx;
    size_t n = rep->rows->n;
    const char **names = calloc(n + 1, sizeof *names);
    double *v = calloc(8 * (n + 1), sizeof *v);
    int *verdict = calloc(n + 1, sizeof *verdict);
    if (!names || !v || !verdict) {
        free(names);
        free(v);
        free(verdict);
        return FB_ENOMEM;
    }
    double *ratio = v, *lo = v + n + 1, *hi = v + 2 * (n + 1), *t_old = v + 3 * (n + 1),
           *t_new = v + 4 * (n + 1), *pct = v + 5 * (n + 1), *lo_pct = v + 6 * (n + 1),
           *hi_pct = v + 7 * (n + 1);
    bool vg = rep->o->valgrind;
    for (size_t i = 0; i < n; ++i) {
        const fba_row *r = rep->rows->v[i];
        names[i] = r->label;
        const fb__change *c = &r->change;
        ratio[i] = isfinite(c->change_pct) ? 1 + c->change_pct / 100 : NAN;
        lo[i] = isfinite(c->lo_pct) ? 1 + c->lo_pct / 100 : NAN;
        hi[i] = isfinite(c->hi_pct) ? 1 + c->hi_pct / 100 : NAN;
        t_old[i] = vg ? r->ins_old : r->t_old;
        t_new[i] = vg ? r->ins_new : r->t_new;
        pct[i] = c->change_pct;
        lo_pct[i] = c->lo_pct;
        hi_pct[i] = c->hi_pct;
        verdict[i] = fba_html_verdict(r);
    }
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          "<meta http-equiv=\"Content-Security-Policy\" "
          "content=\"default-src 'none'; style-src 'unsafe-inline'\">\n"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
          "<title>femtobench-ab</title>\n<style>",
          f);
    fputs(fb__html_style(), f);
    fputs("</style>\n</head>\n<body>\n<header>\n<h1>femtobench-ab: old and new in one "
          "process</h1>\n<p class=\"sub\">",
          f);
    char buf[4096] = "";
    FILE *m = fmemopen(buf, sizeof buf - 1, "w");
    if (m) {
        fba_summary(m, rep);
        fclose(m);
        buf[strcspn(buf, "\n")] = '\0';
    }
    fba_html_text(f, buf);
    fputs("</p>\n<p class=\"sub\">old: <code>", f);
    fba_html_text(f, rep->o->files[0]);
    fputs("</code>, new: <code>", f);
    fba_html_text(f, rep->o->files[1]);
    fputs("</code></p>\n</header>\n<main>\n", f);
    fb__html_forest(f,
                    vg ? "new / old (instructions per unit; below 1 is fewer)"
                       : "new / old (time per unit; below 1 is faster)",
                    n, names, ratio, lo, hi);
    fb__html_change_bars(f, "Change of each benchmark (new against old)", n, names, t_old, t_new,
                         pct, lo_pct, hi_pct, verdict);
    if (vg) { /* the counts, and what each verdict made of their spreads */
        fputs("<section class=\"change\">\n<h2>Instructions counted under Callgrind</h2>\n"
              "<table class=\"change\">\n<thead><tr><th class=\"name\">benchmark</th>"
              "<th>old</th><th>new</th><th class=\"name\">spread</th>"
              "<th class=\"name\">verdict</th></tr></thead>\n<tbody>\n",
              f);
        for (size_t i = 0; i < n; ++i) {
            const fba_row *r = rep->rows->v[i];
            char note[80] = "-";
            if (r->kind == FBA_PAIRED && isfinite(r->change.change_pct))
                fb__change_counted_text(note, sizeof note, &r->change);
            fputs("<tr><td class=\"name\"><code>", f);
            fba_html_text(f, r->label);
            fputs("</code></td><td>", f);
            if (isfinite(r->ins_old)) fprintf(f, "%.10g", r->ins_old);
            fputs("</td><td>", f);
            if (isfinite(r->ins_new)) fprintf(f, "%.10g", r->ins_new);
            fputs("</td><td class=\"name\">", f);
            fba_html_text(f, note);
            fputs("</td><td class=\"name\">", f);
            fba_html_text(f, fba_verdict(r));
            fputs("</td></tr>\n", f);
        }
        fputs("</tbody></table>\n</section>\n", f);
    }
    fputs("</main>\n</body>\n</html>\n", f);
    free(names);
    free(v);
    free(verdict);
    return fb__writer_finish(f);
}

/* ------------------------------------------------------------- main */

static double fba_now_s(void) { return (double)fb__clock_now_ns() * 1e-9; }

/* Selects, measures and reports, once both plugins are loaded: what main
 * runs between loading and exit, with one path that frees. */
static int fba_measure_and_report(fba_opts *o, fba_side *sides, const char *const *outs,
                                  double t0) {
    /* the benchmarks: old's, then new's not in old; filtered */
    fba_names all = {0}, sel = {0};
    fba_rows rows = {0};
    int rc = 0;
    for (int s = 0; s < 2; ++s)
        for (size_t i = 0; i < sides[s].benches.n; ++i)
            if (fba_names_find(&all, sides[s].benches.v[i]) < 0)
                fba_names_add(&all, sides[s].benches.v[i]);
    if (all.oom) {
        rc = fb__opts_error("out of memory");
        goto done;
    }
    if (!all.n) {
        rc = fb__opts_error("%s, %s: no benchmark is registered", o->files[0], o->files[1]);
        goto done;
    }
    if (o->filter) {
        unsigned char *hit = calloc(all.n + 1, 1);
        char why[320];
        if (!hit) {
            rc = fb__opts_error("out of memory");
            goto done;
        }
        if (fb__filter_select(o->filter, (const char *const *)all.v, all.n, hit, why, sizeof why) !=
            0) {
            free(hit);
            rc = fb__opts_error("-filter=%s: %s", o->filter, why);
            goto done;
        }
        /* a family's instances are selected by the family's name too */
        for (size_t i = 0; i < all.n; ++i) {
            char fam[FBA_NAME_MAX];
            snprintf(fam, sizeof fam, "%s", all.v[i]);
            char *slash = strchr(fam, '/');
            unsigned char fh = 0;
            if (slash && !hit[i]) {
                *slash = '\0';
                const char *one[1] = {fam};
                if (fb__filter_select(o->filter, one, 1, &fh, why, sizeof why) != 0) fh = 0;
            }
            if (hit[i] || fh) fba_names_add(&sel, all.v[i]);
        }
        free(hit);
        if (!sel.n) {
            rc = fb__opts_error("-filter=%s selects no benchmark", o->filter);
            goto done;
        }
    } else {
        for (size_t i = 0; i < all.n; ++i) fba_names_add(&sel, all.v[i]);
    }
    if (sel.oom) {
        rc = fb__opts_error("out of memory");
        goto done;
    }

    if (!o->valgrind && !o->counts_to) {
        /* rounds too few for any verdict: with K runs compared each row's
         * interval is at 1 - 0.05 / K, and an odd count of rounds keeps one
         * less (as many old-first as new-first rounds are kept) */
        size_t family = 0;
        for (size_t i = 0; i < sel.n; ++i)
            family += fba_names_find(&sides[0].benches, sel.v[i]) >= 0 &&
                      fba_names_find(&sides[1].benches, sel.v[i]) >= 0;
        family *= o->n_asymptote ? o->n_asymptote : 1;
        size_t needed = fba_rounds_needed(family), kept = (size_t)o->rounds & ~(size_t)1;
        if (kept < needed) {
            rc = fb__opts_error("-rounds=%ld: too few to decide anything for %zu benchmarks: "
                                "family-wise 95%% needs %zu rounds kept, and an odd count keeps "
                                "one less; use -rounds=%zu or more",
                                o->rounds, family, needed, needed + (needed & 1));
            goto done;
        }
    }

    if (o->counts_to) { /* the -valgrind child: one side's counts */
        rc = fba_count_side(&sides[o->side_only == 1 ? 1 : 0], o, &sel, o->counts_to);
        goto done;
    }

    if (o->valgrind) {
        rc = fba_valgrind(o, sides, &sel, &rows);
        if (rc) goto done;
    } else {
        fba_choose_cpu();
        fba_pin();
        int brc = fba_run_all(sides, o, &sel, &rows);
        if (brc != FB_OK) {
            rc = fb__opts_error("%s", brc == FB_ENOMEM ? "out of memory"
                                                       : "cannot start a child process");
            goto done;
        }
    }

    fba_report rep = {o, &rows, 0, 0, 0, {0}, 0, 0};
    fba_judge(&rep);
    rep.wall_s = fba_now_s() - t0;
    fputc('\n', o->table);
    fba_table(o->table, &rep);
    fputc('\n', o->table);
    fba_summary(o->table, &rep);
    fflush(o->table);
    int status = 0;
    fb__outfile_fn writers[3] = {fba_write_json, fba_write_md, fba_write_html};
    for (int i = 0; i < 3; ++i) {
        if (!outs[i]) continue;
        char why[1024];
        if (fb__outfile_write_fn(outs[i], writers[i], &rep, why, sizeof why) != FB_OK) {
            fprintf(stderr, "femtobench: error: %s\n", why);
            status = 1;
        } else {
            fprintf(stderr, "femtobench: wrote '%s'\n", outs[i]);
        }
    }
    if (!status && rep.errors) status = 1;
    /* nothing in common: a gate that compared nothing must not pass (as
     * the runner's -baseline and femtobench-compare) */
    bool none = rep.paired == 0 && !rep.errors;
    if (none)
        fprintf(stderr,
                "femtobench: warning: no benchmark in common between OLD and NEW: nothing was "
                "compared%s\n",
                o->fail_on_slower ? " (-fail_on_slower: exit status 3)" : "");
    if (!status && o->fail_on_slower && (rep.counts[FB__V_SLOWER] || none)) status = 3;
    rc = status;
done:
    fba_rows_free(&rows);
    fba_names_free(&all);
    fba_names_free(&sel);
    return rc;
}

int main(int argc, char **argv) {
    fba_opts o = {0};
    o.min_time_ms = -1;
    o.rounds = FBA_DEFAULT_ROUNDS;
    o.threshold_pct = FBA_DEFAULT_THRESHOLD_PCT;
    o.side_only = -1;
    int rc = fba_parse(argc, argv, &o);
    if (rc) return rc < 0 ? 0 : rc;
    bool counting_child = o.counts_to != NULL;
    if (o.min_time_ms <= 0) o.min_time_ms = FBA_DEFAULT_MIN_TIME_MS;
    double t0 = fba_now_s();

    /* the outputs, with the runner's rules (src/outfile_set.c), before
     * anything runs: each writable, no two the same file under any spelling,
     * none the file the table goes to (stderr when an output is stdout), and
     * none a plugin under test */
    const char *outs[3] = {o.out_json, o.out_md, o.out_html};
    const char *out_names[3] = {"output_json", "output_md", "output_html"};
    fb__outfile_job jobs[3];
    size_t n_jobs = 0;
    int table_fd = 1;
    for (int i = 0; i < 3; ++i) {
        if (!outs[i]) continue;
        if (!*outs[i]) return fb__opts_error("-%s: empty file name", out_names[i]);
        jobs[n_jobs++] = (fb__outfile_job){out_names[i], outs[i], NULL, NULL, NULL};
        if (fb__outfile_fd_of(outs[i]) == 1) table_fd = 2;
    }
    o.table = table_fd == 2 ? stderr : stdout;
    char why_out[1024];
    if (fb__outfile_check_set(jobs, n_jobs, table_fd, why_out, sizeof why_out) != FB_OK)
        return fb__opts_error("%s", why_out);
    for (size_t i = 0; i < n_jobs; ++i)
        for (int f = 0; f < 2; ++f)
            if (fb__outfile_not_input(jobs[i].path, o.files[f], why_out, sizeof why_out) != FB_OK)
                return fb__opts_error("-%s=%s: %s", jobs[i].option, jobs[i].path, why_out);
    if (o.valgrind && !counting_child) {
        char why[512];
        if (fb__vg_runner_check(why, sizeof why) != FB_OK)
            return fb__opts_error("-valgrind: %s", why);
    }

    fba_side sides[2] = {{o.files[0], "", NULL, NULL, {0}}, {o.files[1], "", NULL, NULL, {0}}};
    rc = fba_load_both(sides);
    for (int s = 0; s < 2; ++s)
        if (sides[s].copy[0]) unlink(sides[s].copy); /* loaded (or not): not needed */
    if (!rc) rc = fba_measure_and_report(&o, sides, outs, t0);
    fba_names_free(&sides[0].benches);
    fba_names_free(&sides[1].benches);
    /* the plugins stay loaded until exit: their destructors may still run */
    return rc;
}
