/* The process state's view of the machine (src/process/process.c holds the
 * state; src/process/process_state.h its fields): the clock measured once,
 * the first run's machine check, build check and once-per-process
 * diagnostics, the machine facts, and the counters of the thread that
 * measures first, with the note on why some are missing. Each under the
 * state's lock. */
#include "process.h"
#include "process_state.h"

#include <pthread.h>
#include <string.h>

fb__clock_info fb__process_clock(void) {
    struct fb__process *st = fb__process_lock();
    /* paced by a host's epoch hook: only what its runs use; a later run
     * without the hook measures the whole */
    bool paced = st->epoch_hook != NULL;
    if (!st->clock_done || (st->clock_paced && !paced)) {
        if (paced)
            fb__clock_measure_paced(&st->clock);
        else
            fb__clock_measure(NULL, NULL, &st->clock);
        st->clock_done = true;
        st->clock_paced = paced;
    }
    fb__clock_info c = st->clock;
    fb__process_unlock();
    return c;
}

static void fb__process_sys_locked(struct fb__process *st) {
    if (st->sys_done) return;
    fb__sysinfo_read("/", &st->sys);
    if (st->moment_done) {
        memcpy(st->sys.date, st->moment.date, sizeof st->sys.date);
        memcpy(st->sys.load_avg, st->moment.load_avg, sizeof st->sys.load_avg);
        st->sys.n_load_avg = st->moment.n_load_avg;
    }
    st->sys.env = st->env_checked ? &st->env : NULL;
    st->sys_done = true;
}

/* At the first run: what sys says about that moment. */
static void fb__process_moment_locked(struct fb__process *st) {
    if (st->sys_done || st->moment_done) return;
    memset(&st->moment, 0, sizeof st->moment);
    fb__sysinfo_moment("/", &st->moment);
    st->moment_done = true;
}

void fb__process_first_run(FILE *diag, int callsite) {
    struct fb__process *st = fb__process_lock();
    if (!st->first_run_done && (st->vg.exact || st->epoch_hook)) {
        /* counted under Callgrind: the machine does not change the counts,
         * so no machine checks and no warnings (docs/valgrind.md). Paced
         * by a host's epoch hook (femtobench-ab): the host checks the
         * machine once and says it; each loaded copy would read the same
         * files again, and nothing here prints */
        st->first_run_done = true;
        if (!st->epoch_hook) fb__process_moment_locked(st);
        if (st->sys_done) st->sys.env = NULL; /* read before this run */
        st->env_printed = true;
        st->build_checked = true;
    }
    if (!st->first_run_done) {
        /* the build is checked below: the first run may not know it (a
         * comparison through fb_compare, a child's record) */
        fb__env_check("/", -1, &st->env);
        st->env_checked = true;
        st->first_run_done = true;
        fb__process_moment_locked(st);
        if (st->sys_done) st->sys.env = &st->env; /* read before this run */
    }
    /* The build of the benchmark code, from the first run compiled with
     * FB__CALLSITE: whatever order the benchmarks run in (in one process or
     * one per child), the same warning. Said when learnt if the block was
     * already printed. */
    if (!st->build_checked && callsite >= 0 && (callsite & 1)) {
        st->build_checked = true;
        fb__env_report added = {0};
        fb__env_check_build(callsite, &added);
        for (size_t i = 0; i < added.count && st->env.count < FB__ENV_MAX_WARNINGS; ++i)
            st->env.w[st->env.count++] = added.w[i];
        if (diag && st->env_printed && !st->suppress && !st->quiet) fb__env_print(diag, &added);
    }
    if (diag && !st->config_reported) {
        fputs(st->config_errors, diag);
        st->config_reported = true;
    }
    if (diag && !st->env_printed) {
        if (!st->suppress && !st->quiet) fb__env_print(diag, &st->env);
        st->env_printed = true;
    }
    fb__process_unlock();
}

const fb__env_report *fb__process_env_report(void) {
    struct fb__process *st = fb__process_lock();
    const fb__env_report *r = st->env_checked ? &st->env : NULL;
    fb__process_unlock();
    return r;
}

const fb__sysinfo *fb__process_sysinfo(void) {
    struct fb__process *st = fb__process_lock();
    fb__process_sys_locked(st);
    fb__process_unlock();
    return &st->sys;
}

void fb__process_note_perf(FILE *diag, const char *why) {
    if (!diag || !why || !why[0]) return;
    struct fb__process *st = fb__process_lock();
    bool first = !st->perf_noted;
    st->perf_noted = true;
    bool quiet = st->suppress || st->quiet;
    fb__process_unlock();
    if (first && !quiet) fprintf(diag, "femtobench: note: %s\n", why);
}

fb__perf *fb__process_perf(FILE *diag) {
    char why[512] = "";
    struct fb__process *st = fb__process_lock();
    if (!st->perf_tried) {
        st->perf_tried = true;
        st->perf_thread = pthread_self();
        st->perf = fb__perf_open(why, sizeof why);
    }
    fb__perf *p = pthread_equal(st->perf_thread, pthread_self()) ? st->perf : NULL;
    fb__process_unlock();
    if (why[0]) fb__process_note_perf(diag, why);
    return p;
}
