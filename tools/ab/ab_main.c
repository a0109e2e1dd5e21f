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
 * left out. Each round gives ln(t_new / t_old); the change and its
 * interval, Bonferroni-corrected over the suite (family-wise 95%), are judged
 * against a practical threshold. -valgrind counts instructions
 * instead (each side in its own Callgrind child): any difference is a
 * verdict.
 *
 * Each side may be several layouts of its code (docs/ab.md, "Code layout"):
 * the rounds then run in blocks, one a layout, and the change
 * is judged over the layouts (tools/ab/ab_judge.c). This file: main. Its
 * rooms are listed in tools/ab/ab.h. */
#define _GNU_SOURCE /* sched_setaffinity, CPU_SET, sched_getcpu, strsignal */

#include "ab.h"
#include "sysinfo.h"

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

/* ------------------------------------------------------------- main */

static double fba_now_s(void) { return (double)fb__clock_now_ns() * 1e-9; }

/* The 1-minute load average (/proc/loadavg), NAN when unknown. */
static double fba_load_average(void) {
    fb__sysinfo now;
    memset(&now, 0, sizeof now);
    fb__sysinfo_moment("/", &now); /* the files' context reads it the same way */
    return now.n_load_avg ? now.load_avg[0] : NAN;
}

/* Selects, measures and reports, once both plugins are loaded: what main
 * runs between loading and exit, with one path that frees. */
static int fba_measure_and_report(fba_opts *o, fba_side *sides, double t0) {
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

    if (!o->valgrind && !o->counts_to && o->layouts < FBA_MIN_RANDOM_LAYOUTS) {
        /* rounds too few for any verdict: with K runs compared each row's
         * interval is at 1 - 0.05 / K, and an odd count of rounds keeps one
         * less (as many old-first as new-first rounds are kept) */
        size_t family = 0;
        for (size_t i = 0; i < sel.n; ++i)
            family += fba_names_find(&sides[0].benches, sel.v[i]) >= 0 &&
                      fba_names_find(&sides[1].benches, sel.v[i]) >= 0;
        family *= o->n_asymptote ? o->n_asymptote : 1;
        size_t needed = fba_rounds_needed(family), kept = (size_t)o->rounds & ~(size_t)1;
        o->min_kept = needed; /* disturbed rounds are left out only while this many remain */
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

    /* everything checked: what the machine is like, as the runner says it */
    fba_say_layouts(o);
    if (!o->valgrind) {
        fb__env_check("/", -1, &o->env);
        if (!o->quiet && !fb__process_suppressed()) fb__env_print(stderr, &o->env);
    }
    o->load[0] = fba_load_average();
    if (o->valgrind) {
        rc = fba_valgrind(o, sides, &sel, &rows);
        if (rc) goto done;
    } else {
        fba_choose_cpu(); /* the measuring child pins itself to it; this process stays free */
        int brc = fba_run_all(sides, o, &sel, &rows);
        if (brc != FB_OK) {
            rc = fb__opts_error("%s", brc == FB_ENOMEM ? "out of memory"
                                                       : "cannot start a child process");
            goto done;
        }
    }

    /* a run's name the runner refuses: its line, and nothing written */
    for (size_t i = 0; i < rows.n; ++i)
        if (rows.v[i]->bad_name) {
            rc = fb__opts_error("%s", rows.v[i]->error);
            goto done;
        }
    o->load[1] = fba_load_average();
    fba_report rep = {.o = o, .rows = &rows};
    fba_judge(&rep);
    rep.wall_s = fba_now_s() - t0;
    fputc('\n', o->table);
    fba_table(o->table, &rep);
    fputc('\n', o->table);
    fba_summary(o->table, &rep);
    fflush(o->table);
    int status = 0;
    char why[1024]; /* the outputs' table, as one set, as the runner writes its own */
    if (fb__outputs_write(&o->outs, NULL, &rep, stderr, why, sizeof why) != FB_OK) {
        fputs("femtobench: error: ", stderr);
        fb__put_line(stderr, why); /* a file name with a line break stays one line */
        fputc('\n', stderr);
        status = 1;
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
    /* rows that kept too few rounds (or layouts) for any interval cannot be
     * slower whatever they measured: a gate does not pass on them */
    if (rep.undecided) {
        char use[64] = "";
        if (rep.undecided_rounds)
            snprintf(use, sizeof use, "; -rounds=%zu or more decides them",
                     rep.needed + (rep.needed & 1));
        fprintf(stderr,
                "femtobench: warning: %zu benchmark%s kept too few rounds or layouts for any "
                "verdict (the interval cell says how many)%s%s\n",
                rep.undecided, rep.undecided == 1 ? "" : "s", use,
                o->fail_on_slower ? " (-fail_on_slower: exit status 3)" : "");
    }
    if (!status && o->fail_on_slower && (rep.counts[FB__V_SLOWER] || none || rep.undecided))
        status = 3;
    rc = status;
done:
    fba_rows_free(&rows);
    fba_names_free(&all);
    fba_names_free(&sel);
    return rc;
}

/* The outputs' table (fba_outputs) by the runner's rules
 * (src/outputs/outfile_set.c), before anything is loaded or runs: each writable, no
 * two the same file under any spelling, none the file the table goes to
 * (stderr when an output is stdout), none a plugin under test (every layout
 * of each side, those found beside the file given included), each pinned
 * to an absolute path. 0, or the exit status of bad input after its line. */
static int fba_check_outputs(fba_opts *o) {
    const char *inputs[2 * FBA_MAX_LAYOUTS];
    size_t n = 0;
    for (int s = 0; s < 2; ++s)
        for (size_t k = 0; k < FBA_MAX_LAYOUTS; ++k)
            if (o->layout[s][k]) inputs[n++] = o->layout[s][k];
    char why[1024];
    if (fb__outputs_prepare(&o->outs, true, inputs, n, why, sizeof why) != FB_OK)
        return fb__opts_error("%s", why);
    o->table = o->outs.table_fd == 2 ? stderr : stdout;
    return 0;
}

int main(int argc, char **argv) {
    fba_opts o = {0};
    o.min_time_ms = -1;
    o.rounds = FBA_DEFAULT_ROUNDS;
    o.instances = FBA_DEFAULT_INSTANCES;
    o.threshold_pct = FBA_DEFAULT_THRESHOLD_PCT;
    o.side_only = -1;
    int rc = fba_parse(argc, argv, &o);
    if (rc) return rc < 0 ? 0 : rc;
    bool counting_child = o.counts_to != NULL;
    if (o.min_time_ms <= 0) o.min_time_ms = FBA_DEFAULT_MIN_TIME_MS;
    double t0 = fba_now_s();

    if (o.valgrind && !counting_child) {
        char why[512];
        if (fb__vg_runner_check(why, sizeof why) != FB_OK)
            return fb__opts_error("-valgrind: %s", why);
    }

    rc = fba_resolve_layouts(&o);
    if (!rc) rc = fba_check_outputs(&o);
    if (rc) {
        fba_layouts_free(&o);
        fb__outputs_free(&o.outs);
        return rc;
    }
    size_t k = o.layouts;
    fba_side *all = calloc(2 * k, sizeof *all);
    if (!all) {
        fba_layouts_free(&o);
        return fb__opts_error("out of memory");
    }
    for (size_t i = 0; i < 2 * k; ++i) all[i].path = o.layout[i / k][i % k];
    o.all = all;
    rc = fba_load_all(all, k);
    if (!rc) {
        fba_side sides[2] = {all[0], all[k]}; /* each side's first layout */
        rc = fba_measure_and_report(&o, sides, t0);
    }
    for (size_t i = 0; i < 2 * k; ++i) fba_names_free(&all[i].benches);
    free(all);
    fba_layouts_free(&o);
    fb__outputs_free(&o.outs);
    /* the plugins stay loaded until exit: their destructors may still run */
    return rc;
}
