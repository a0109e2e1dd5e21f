/* The epoch hook: an outside scheduler that paces every epoch of every run in
 * this copy of the library.
 *
 * femtobench-ab loads two builds of a suite (two plugins, each linked with
 * its own copy of the library) into one process and installs one hook in
 * each copy. The two sides run on two threads pinned to one CPU and take
 * turns at the epoch boundaries, so that old and new code are measured epoch
 * by epoch under the same conditions. With no hook installed (every normal
 * run) nothing here is called.
 *
 * The contract, kept by the one epoch routine:
 *   - run_begin is called once when a run starts (an FB_RUN / fb_run
 *     instance: name is the row's full name, family argument included). It
 *     may fix the iterations per epoch and the number of epochs (0 leaves
 *     the library's own choice) and returns false to skip the run.
 *   - epoch_begin is called before each epoch's setup; it returns when this
 *     side may run. epoch_end is called after the epoch's teardown, with the
 *     epoch's iterations, its elapsed time (as the result stores it: the
 *     difference of the two clock reads around the loop; like every time
 *     femtobench reports, the reads' overhead is not subtracted) and whether
 *     it was disturbed; it returns when the turn comes back. Neither is
 *     inside the timed region. The epoch index counts every epoch of the
 *     run from 0 (a warmup or calibration epoch too: all are paced).
 *   - A comparison (FB_COMPARE / fb_compare) is one run named by its title:
 *     the fixed iterations are its shared count, the fixed epochs its rounds
 *     (each round one epoch of every alternative, each paced).
 *   - While a hook is installed and fixed the epochs, the routine neither
 *     replaces disturbed epochs nor runs the core probe: it runs exactly the
 *     epochs asked for and reports each one's flag, so that the scheduler
 *     can leave out a round in which either side was disturbed. (No hooked
 *     run probes the core: the host judges its epochs itself.)
 *   - run_end is called once when the run is over (also after an error, and
 *     after a run_begin that skipped the run: every run_begin has one).
 *   - epoch_end_cpu (appended with plugin interface 4, src/runner/plugin.h),
 *     when set, is called instead of epoch_end, with the thread's CPU time
 *     over the same loop too (seconds, its read's cost taken off; NAN when
 *     the CPU clock was not read: manual timing, excluded regions, a custom
 *     clock). A host of an older interface never passes this field: the
 *     plugin entry copies the host's hook into a whole one and sets it only
 *     for a host that passed it (fb__plugin_api.run_cpu). */
#ifndef FB_EPOCH_HOOK_H
#define FB_EPOCH_HOOK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct fb__epoch_hook {
    void *ctx;
    bool (*run_begin)(void *ctx, const char *name, uint64_t *iters_per_epoch, size_t *epochs);
    void (*epoch_begin)(void *ctx, size_t epoch);
    void (*epoch_end)(void *ctx, size_t epoch, uint64_t iters, double elapsed_s, bool disturbed);
    void (*run_end)(void *ctx, const char *name);
    void (*epoch_end_cpu)(void *ctx, size_t epoch, uint64_t iters, double elapsed_s, double cpu_s,
                          bool disturbed);
} fb__epoch_hook;

#endif
