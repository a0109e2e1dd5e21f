/* femtobench-ab: -valgrind: each side counted under Callgrind in a child, the counts read back
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

/* --------------------------------------------------------- -valgrind */

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
int fba_count_side(const fba_side *s, const fba_opts *o, const fba_names *sel, const char *path) {
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
        snprintf(l->bench, sizeof l->bench, "%s", c->last_begin);
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

typedef struct fba_vg_job {
    int argc;
    char **argv;
} fba_vg_job;

static int fba_vg_exec(void *ctx) {
    fba_vg_job *j = ctx;
    return fb__vg_runner_exec(j->argc, j->argv, false);
}

/* -timeout under -valgrind: the benchmark in progress in a counts file
 * being written, as the number of its "begin" lines; -1 before the first
 * and once the "end" line is there. Read again only when the file grew. */
typedef struct fba_count_watch {
    const char *path;
    off_t size;
    long step;
} fba_count_watch;

static long fba_count_step(void *ctx) {
    fba_count_watch *cw = ctx;
    struct stat st;
    if (stat(cw->path, &st) != 0 || st.st_size == cw->size) return cw->step;
    cw->size = st.st_size;
    FILE *f = fopen(cw->path, "r");
    if (!f) return cw->step;
    long begins = 0;
    bool ended = false;
    char buf[4096], head[6]; /* a line's first bytes: "begin\t", "end\n" */
    size_t got, col = 0;     /* the position in the line being read */
    while ((got = fread(buf, 1, sizeof buf, f)) > 0)
        for (size_t i = 0; i < got; ++i) {
            if (col < sizeof head) head[col] = buf[i];
            ++col;
            if (col == 6 && memcmp(head, "begin\t", 6) == 0) ++begins;
            if (col == 4 && memcmp(head, "end\n", 4) == 0) ended = true;
            if (buf[i] == '\n') col = 0;
        }
    fclose(f);
    cw->step = ended || !begins ? -1 : begins;
    return cw->step;
}

/* One Callgrind child: counts side s's benchmarks (or only `only`) into c.
 * Returns the child's exit status; *timed_out: a benchmark outlasted
 * -timeout (wall time under Callgrind) and the child's group was killed. */
static int fba_count_child(const fba_opts *o, int s, const char *only, fba_counted *c,
                           bool *timed_out) {
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
    /* Callgrind in a child that leads its own process group: a signal that
     * ends femtobench-ab ends it too (a hung benchmark does not outlive it) */
    fba_vg_job job = {k, args};
    fba_count_watch cw = {path, 0, -1};
    fba_watch w = {o->timeout_s, fba_count_step, &cw, false};
    int crc = fba_run_grouped(fba_vg_exec, &job, &w);
    *timed_out = w.timed_out;
    if (crc < 0) crc = fb__opts_error("-valgrind: cannot start a child process");
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
int fba_valgrind(const fba_opts *o, const fba_side *sides, const fba_names *sel, fba_rows *rows) {
    fba_counted c[2];
    memset(c, 0, sizeof c);
    int rc = 0;
    for (int s = 0; s < 2 && !rc; ++s) {
        /* one child for the side (or one a benchmark with -isolate); after
         * a child that died, one a benchmark for the rest */
        bool one_each = o->isolate;
        for (size_t u = 0; u < sel->n && !rc;) {
            const char *only = one_each ? sel->v[u] : NULL;
            if (only && fba_names_find(&sides[s].benches, only) < 0) {
                ++u;
                continue;
            }
            bool timed_out = false;
            int crc = fba_count_child(o, s, only, &c[s], &timed_out);
            if (crc == 0 && c[s].ended) {
                u = only ? u + 1 : sel->n;
                continue;
            }
            long at = c[s].last_begin[0] ? fba_names_find(sel, c[s].last_begin) : -1;
            if ((crc == 2 && !timed_out) || at < 0) {
                rc = crc == 2 ? 2 : 1;
                if (crc != 2)
                    fprintf(stderr,
                            "femtobench: error: -valgrind: the %s side's Callgrind child failed "
                            "(exit status %d)\n",
                            fba_side_name[s], crc);
                break;
            }
            /* the benchmark it died in (or was killed in) is an error row;
             * the rest is counted */
            char how[128];
            if (timed_out) {
                char t[32]; /* '.' whatever the locale */
                fb__fmt_double(t, sizeof t, o->timeout_s, 6);
                snprintf(how, sizeof how,
                         "timed out: still running after %s s under Callgrind (-timeout), killed",
                         t);
            } else {
                snprintf(how, sizeof how, "%s under Callgrind (exit status %d)",
                         crc ? "crashed" : "exited before it finished", crc);
            }
            fba_row *row = fba_crash_row(rows, c[s].last_begin);
            if (row) { /* on both sides */
                snprintf(row->error, FBA_ERROR_MAX, "old and new: %s", how);
            } else {
                row = fba_rows_add(rows, c[s].last_begin, 0, FBA_ERROR);
                if (!row) {
                    rc = fb__opts_error("out of memory");
                    break;
                }
                snprintf(row->error, sizeof row->error, "%s: %s", fba_side_name[s], how);
            }
            u = (size_t)at + 1;
            one_each = true;
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
            /* a name the runner refuses: its line, nothing written */
            char why[FBA_ERROR_MAX];
            if (fba_name_refused(l->bench, l->name, why, sizeof why)) {
                rc = fb__opts_error("%s", why);
                break;
            }
            /* a run missing on a side whose child died in its benchmark is
             * not `gone`/`new`: that benchmark's error row says it */
            if (!other && fba_crash_row(rows, l->bench)) continue;
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
                /* the same error on both sides is said once */
                bool both = lo && ln && strcmp(lo->error, ln->error) == 0;
                snprintf(row->error, sizeof row->error, "%s: %.240s",
                         both        ? "old and new"
                         : bad == lo ? "old"
                                     : "new",
                         bad->error);
            }
        }
    free(c[0].v);
    free(c[1].v);
    return rc;
}
