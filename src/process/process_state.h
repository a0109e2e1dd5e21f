/* The process state's fields (its one object is src/process/process.c's),
 * seen only by the process layer's own files: process.c and
 * src/process/process_machine.c. Every other file goes through the
 * functions of process.h. */
#ifndef FB_PROCESS_STATE_H
#define FB_PROCESS_STATE_H

#include "process.h"

#include <pthread.h>

#define FB__CONFIG_ERRORS_MAX 2048

struct fb__process {
    pthread_mutex_t lock;
    /* read once from the environment (fb__process_read_env) */
    bool env_read;
    bool suppress;
    bool quiet; /* -quiet: set by the runner, survives a reload */
    char *endless;
    fb__layer config;
    int config_bad;
    char config_errors[FB__CONFIG_ERRORS_MAX]; /* the bad entries' lines */
    bool config_reported;
    /* FEMTOBENCH_PASS: this process runs one pass of a parent's
     * -repetitions (src/runner/passes_exec.c); pass_fd < 0 when not */
    unsigned pass, passes;
    int pass_fd;
    /* measured once */
    bool clock_done;
    bool clock_paced; /* measured for a hooked run only (fb__clock_measure_paced) */
    fb__clock_info clock;
    bool first_run_done;
    /* the machine checked (env below): not under Callgrind's exact counts,
     * nor in a run paced by a host's epoch hook */
    bool env_checked;
    bool build_checked; /* the unoptimized-build check, at the first run that knows it */
    fb__env_report env;
    bool sys_done;
    fb__sysinfo sys;
    /* the date and load average of the first run, for sys when it is read
     * later (only a writer needs the rest) */
    bool moment_done;
    fb__sysinfo moment;
    bool env_printed;
    /* counters */
    bool perf_tried;
    fb__perf *perf;
    pthread_t perf_thread;
    bool perf_noted;
    /* FB_BENCHMARK registrations */
    fb__registration *registry;
    /* functions that register when the registry is first read
     * (fb_register_later), and how many of them have run */
    void (*later[FB__PROCESS_LATER_MAX])(void);
    size_t n_later, later_done;
    /* under Valgrind (read with the environment), and the mirror of
     * Callgrind's dump counter: Callgrind numbers the dump files of a
     * process 1, 2, 3, ...; femtobench counts its own dumps under vg_lock to
     * know the file each one went to (src/run/valgrind.c checks the file's
     * trigger line to be sure) */
    fb__callgrind vg;
    pthread_mutex_t vg_lock;
    unsigned vg_dumps; /* under vg_lock */
    /* for the runner's -valgrind */
    char *path, *tmpdir;
    /* femtobench-ab's pacing of the epochs (src/platform/epoch_hook.h), or NULL */
    const fb__epoch_hook *epoch_hook;
};

/* Locks the process state, reading the environment at the first use of any
 * fact, and returns it; fb__process_unlock releases it. */
FB__PRIVATE struct fb__process *fb__process_lock(void);
FB__PRIVATE void fb__process_unlock(void);

#endif
