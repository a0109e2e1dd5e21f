/* femtobench-ab: one CPU for all, and the calibration: each side's time per iteration, batch and
 * unit (docs/ab.md; tools/ab/ab.h). */
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

/* ------------------------------------------------------- one CPU for all */

static int fba_cpu = -1;
static cpu_set_t fba_cpus; /* the CPUs femtobench-ab was started with */
static bool fba_have_cpus;

/* A thread group (FB_BENCHMARK_THREADS, listed as "fn/threads:<n>") runs
 * its threads on every CPU femtobench-ab may use, as the runner runs them:
 * pinned to one CPU they would measure no parallelism. Its two sides still
 * take turns (the baton), so their epochs never overlap. */
bool fba_is_group(const char *bench) { return strstr(bench, "/threads:") != NULL; }

void fba_unpin(void) {
    if (fba_have_cpus) sched_setaffinity(0, sizeof fba_cpus, &fba_cpus); /* best effort */
}

void fba_pin(void) {
    if (fba_cpu < 0) return;
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET((size_t)fba_cpu, &set);
    sched_setaffinity(0, sizeof set, &set); /* this thread; best effort */
}

void fba_choose_cpu(void) {
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
    c->run[before].batch = 1;
    c->run[before].unit[0] = '\0';
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
    /* an error with no run before it: the library's row for a benchmark
     * that recorded nothing (a thread group whose leader left before its
     * first run), a run of its own, so that it is an error row */
    if (i < 0 && error) {
        uint64_t iters = 0;
        size_t epochs = 0;
        if (fba_calib_begin(c, name, &iters, &epochs)) i = c->current;
        c->current = -1;
    }
    if (i >= 0 && error) snprintf(c->run[i].error, FBA_ERROR_MAX, "%s", error);
}

/* The same from plugin interface 3, with the run's batch and unit. */
static void fba_calib_row(void *ctx, const fb__plugin_row *row) {
    fba_calib *c = ctx;
    fba_calib_result(ctx, row->name, row->complexity_n, row->error, row->median_s,
                     row->instructions);
    long i = fba_names_find(&c->runs, row->name);
    if (i < 0 || row->size < sizeof *row) return;
    if (row->batch > 0 && isfinite(row->batch)) c->run[i].batch = row->batch;
    /* "op", the default unit, is shown as the runner's per-op times are */
    const char *u = row->unit && strcmp(row->unit, "op") != 0 ? row->unit : "";
    snprintf(c->run[i].unit, sizeof c->run[i].unit, "%s", u);
}

void fba_calibrate(const fba_side *s, const char *bench, double n, fba_calib *c) {
    memset(c, 0, sizeof *c);
    c->current = -1;
    fb__epoch_hook h = {
        c, fba_calib_begin, fba_calib_epoch_begin, fba_calib_epoch_end, fba_calib_end, NULL};
    bool group = fba_is_group(bench);
    if (group) fba_unpin(); /* its threads on every CPU, as in its rounds */
    if (s->api->abi >= 3 && s->api->run_described)
        s->api->run_described(bench, n, &h, fba_calib_row, c);
    else
        s->api->run(bench, n, &h, fba_calib_result, c);
    if (group) fba_pin();
}
