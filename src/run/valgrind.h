/* Exact counts under Valgrind's Callgrind (docs/valgrind.md): the client
 * side (src/run/valgrind.c: collection switched on around the measured
 * loops, the fixed schedule of counted epochs, reading Callgrind's dumps
 * back with src/run/valgrind_dump.c) and the runner side
 * (src/runner/valgrind_runner.c: -valgrind re-runs the program under
 * valgrind --tool=callgrind). Without <valgrind/callgrind.h> at build time
 * (FB_HAVE_VALGRIND 0) every hook is a no-op. */
#ifndef FB_VALGRIND_H
#define FB_VALGRIND_H

#include "base.h"
#include "counted.h"

#include <stdio.h>

/* Counted pairs of a count that moves between epochs of the same iterations,
 * and the spread (hi - lo over the median) above which it is marked: the
 * op then does different work each time, not a little more or less. */
#define FB__VG_PAIRS FB__VG_PAIRS_MAX
#define FB__VG_WILD_FRACTION 0.10

/* ------------------------------------------------------------ client side */

/* The state of one run under Valgrind; NULL when this process does not run
 * under Valgrind (the run then has no hooks at all). */
typedef struct fb__vg_run fb__vg_run;
/* Called once per run. epoch_iterations (0 = choose) and min_iterations
 * are the run's configuration. */
FB__PRIVATE fb__vg_run *fb__vg_run_new(const char *name, uint64_t epoch_iterations,
                                       uint64_t min_iterations);
FB__PRIVATE void fb__vg_run_free(fb__vg_run *v);
/* FEMTOBENCH_VALGRIND is set: the run follows the fixed schedule of counted
 * epochs (fb__vg_first / fb__vg_next) instead of the time-based one. */
FB__PRIVATE bool fb__vg_exact(const fb__vg_run *v);
FB__PRIVATE uint64_t fb__vg_first(fb__vg_run *v);
/* Right after the clock read that starts the epoch / right before the one
 * that ends it: switch Callgrind's collection on / off (and, for a counted
 * epoch, zero the counts before and dump them after). */
FB__PRIVATE void fb__vg_loop_start(fb__vg_run *v);
FB__PRIVATE void fb__vg_loop_stop(fb__vg_run *v);
/* After an epoch of the schedule: reads its dump; returns the iterations of
 * the next epoch, or 0 when the run is complete (or failed). */
FB__PRIVATE uint64_t fb__vg_next(fb__vg_run *v);
/* Moves the counts (or the error) of an exact run into res: res then has
 * two epochs (n1, n2), no time, and res->vg set. */
FB__PRIVATE void fb__vg_finish(fb__vg_run *v, fb_result *res);

/* ------------------------------------------------------------ runner side */

/* -valgrind[=cache]: checks that it can run (Valgrind's headers at build
 * time, a valgrind program in PATH, not already under Valgrind). FB_OK, or
 * FB_ENOTSUP with the reason and what to install in err. */
FB__PRIVATE int fb__vg_runner_check(char *err, size_t len);
/* Runs this program again under valgrind --tool=callgrind with argv minus
 * the -valgrind options, in the exact mode, and waits for it. Returns the
 * exit status to use (the child's; 2 when it cannot start). */
FB__PRIVATE int fb__vg_runner_exec(int argc, char **argv, bool cache);

#endif
