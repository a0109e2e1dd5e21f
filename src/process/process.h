/* The process state (src/process/process.c; the clock, machine and counters
 * src/process/process_machine.c): the one owner of what is true for the
 * whole process, each fact resolved once and read-only afterwards:
 *   - read once from the environment: FEMTOBENCH_SUPPRESS_WARNINGS (or the
 *     runner's -quiet), FEMTOBENCH_ENDLESS, FEMTOBENCH_CONFIG (parsed into
 *     the env layer of the settings, its bad entries kept for one report);
 *   - measured once: the clock's resolution and overhead, the machine's
 *     stability report and facts (at the first run);
 *   - the counters, opened once by the first thread that measures;
 *   - which once-per-process diagnostics were printed;
 *   - the registry of FB_BENCHMARK functions;
 *   - under Valgrind (docs/valgrind.md): RUNNING_ON_VALGRIND,
 *     FEMTOBENCH_VALGRIND and FEMTOBENCH_CALLGRIND_OUT, read once, and the
 *     number of Callgrind dumps made so far, under a lock;
 *   - for the runner's -valgrind: PATH and TMPDIR, read once, and the
 *     environment a child process gets;
 *   - FEMTOBENCH_PASS, set by the runner for the processes of -repetitions.
 * Nothing else in femtobench reads the environment or keeps process-wide
 * mutable state (except run.c's signal flag, which the OS forces). */
#ifndef FB_PROCESS_H
#define FB_PROCESS_H

#include "base.h"
#include "clock.h"
#include "epoch_hook.h"
#include "machine.h"
#include "perf.h"
#include "settings.h"
#include "sysinfo.h"

#include <stdio.h>

/* Settings read from the environment, once. */
FB__PRIVATE bool fb__process_suppressed(void);
FB__PRIVATE void fb__process_set_quiet(bool quiet); /* the runner's -quiet */
/* FEMTOBENCH_ENDLESS, or NULL. */
FB__PRIVATE const char *fb__process_endless(void);
/* FEMTOBENCH_CONFIG as a settings layer, and its number of bad entries. */
FB__PRIVATE const fb__layer *fb__process_config_layer(void);
FB__PRIVATE int fb__process_config_errors(void);
/* Writes the bad FEMTOBENCH_CONFIG entries to f, one line each. */
FB__PRIVATE void fb__process_config_report(FILE *f);

/* Measured once: the process clock. */
FB__PRIVATE fb__clock_info fb__process_clock(void);

/* At the first run of the process: checks the machine (callsite: the
 * benchmark's build), reads its facts, and prints the once-per-process
 * diagnostics (bad FEMTOBENCH_CONFIG entries, the warning block unless
 * suppressed) to diag (NULL: printed by a later call that has a stream). */
FB__PRIVATE void fb__process_first_run(FILE *diag, int callsite);
/* The machine report and facts, or NULL before the first run. */
FB__PRIVATE const fb__env_report *fb__process_env_report(void);
/* The machine facts (read now if no run has happened yet). */
FB__PRIVATE const fb__sysinfo *fb__process_sysinfo(void);

/* The counters of the calling thread when it is the thread that opened the
 * process's counters (the first to ask), else NULL: the caller then opens
 * its own. The reason some counters are missing is noted once on diag. */
FB__PRIVATE fb__perf *fb__process_perf(FILE *diag);
/* Notes why counters are missing, once per process. */
FB__PRIVATE void fb__process_note_perf(FILE *diag, const char *why);

/* The registered benchmarks (FB_BENCHMARK), linked by constructors before
 * main runs, then only read. */
/* The registry; the functions fb_register_later gave run first, once. */
FB__PRIVATE fb__registration *fb__process_registry(void);
/* fb_register_later's store (at most FB__PROCESS_LATER_MAX functions). */
#define FB__PROCESS_LATER_MAX 16
FB__PRIVATE int fb__process_register_later(void (*fn)(void));

/* Under Valgrind's Callgrind (src/run/valgrind.c, docs/valgrind.md), read once. */
typedef struct fb__callgrind {
    bool on;         /* RUNNING_ON_VALGRIND */
    bool exact;      /* and FEMTOBENCH_VALGRIND set (not "" or "0"): counted runs */
    char base[4096]; /* the dump files' absolute name, without Callgrind's ".<k>" */
} fb__callgrind;
FB__PRIVATE const fb__callgrind *fb__process_callgrind(void);
/* Makes the process's next Callgrind dump (CALLGRIND_DUMP_STATS_AT) under a
 * lock, with the trigger "femtobench:<k>:<n>:<name>" written to tag; returns
 * k, the number Callgrind gives that dump's file (base.<k>). */
FB__PRIVATE unsigned fb__process_callgrind_dump(uint64_t n, const char *name, char *tag,
                                                size_t len);
/* Expands Valgrind's file-name escapes in pattern (%p = pid, %q{VAR} = the
 * environment variable VAR, %% = %) into out. */
FB__PRIVATE void fb__process_callgrind_expand(const char *pattern, long pid, char *out, size_t len);

/* For the runner's -valgrind: PATH and TMPDIR, read once (NULL when unset
 * or empty). */
FB__PRIVATE const char *fb__process_path(void);
FB__PRIVATE const char *fb__process_tmpdir(void);
/* FEMTOBENCH_PASS=<pass>/<passes>:<fd>, read once: this process is one pass
 * of a parent runner's -repetitions and sends its results to fd
 * (src/runner/passes_exec.c). The fd, with *pass and *passes, or -1 when not. */
FB__PRIVATE int fb__process_pass_child(unsigned *pass, unsigned *passes);
/* The environment for a child process: this process's, with each "NAME=value"
 * of set[0..n) replacing NAME's entry or added. A malloc'd NULL-terminated
 * array (free the array only: its strings are borrowed), or NULL when out of
 * memory. */
FB__PRIVATE char **fb__process_child_env(const char *const *set, size_t n);

/* The epoch hook of this copy of the library (src/platform/epoch_hook.h), or NULL
 * (every normal run). Set by femtobench-ab's plugin entry before it runs the
 * suite; the hook object must outlive the runs. */
FB__PRIVATE void fb__process_set_epoch_hook(const fb__epoch_hook *hook);
FB__PRIVATE const fb__epoch_hook *fb__process_epoch_hook(void);

/* In a child forked by -isolate: forget the parent's counters. */
FB__PRIVATE void fb__process_forked(void);

/* Tests only: forget everything and read the environment again. */
FB__PRIVATE void fb__process_reload(void);

#endif
