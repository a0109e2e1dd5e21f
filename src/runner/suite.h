/* The runner's suite as a value (src/runner/suite.c): opened once the
 * options are read and the benchmarks selected (src/runner/selection.c),
 * then one benchmark run at a time, each in a fresh bench, in each pass;
 * after a family's last instance in a pass, the family's fit; closed with
 * the tables after the suite's and the outputs written as one set. fb_main's
 * loop (src/runner/runner.c):
 *
 *     fb__suite_open(&s, argc, argv, o, sel);
 *     for (size_t step = 0; fb__suite_more(&s, step); ++step) {
 *         size_t i = fb__suite_run_one(&s, step);
 *         if (fb__suite_family_ended(&s, i)) fb__suite_family_done(&s, i);
 *     }
 *     return fb__suite_close(&s);
 */
#ifndef FB_SUITE_H
#define FB_SUITE_H

#include "bench.h"
#include "options.h"   /* the command line */
#include "progress.h"  /* the status line on a terminal */
#include "registry.h"  /* families expanded into instances */
#include "report.h"    /* the live table */
#include "suite_job.h" /* one benchmark, the collector */

#include <stdio.h>

typedef struct fb__suite {
    fb__opts *o;
    fb__instance **sel; /* the selection, NULL-terminated */
    size_t n_sel;
    fb_bench *all;   /* every result and comparison, the files' source */
    fb__table table; /* one live table for the whole suite */
    FILE *suite_out; /* the table's stream: each benchmark starts from it */
    FILE *tout;      /* the tables after the suite's (fits, passes, change) */
    fb__collector collector;
    fb__progress prog;
    /* each pass's order; families within passes: where each instance's
     * results start and end in the suite, and the pass it last ran in, so
     * that a family's fit is written once all its instances ran in the
     * pass, whatever the order */
    size_t *order, *res_lo, *res_hi, *ran_in;
    size_t ran; /* benchmarks run (instances x passes) */
    unsigned passes, first_pass, order_passes, run_passes;
    int pass_fd; /* >= 0: this process runs one pass of its parent's */
    int status;  /* the exit status so far */
    bool interrupted;
    bool open; /* false: opening failed, close only frees */
} fb__suite;

/* Everything before the first benchmark runs (and, for -repetitions in
 * fresh processes, every pass, src/runner/passes_exec.c). On failure,
 * status is set and said, and nothing runs. */
FB__PRIVATE void fb__suite_open(fb__suite *s, int argc, char **argv, fb__opts *o,
                                fb__instance **sel);
/* Whether step (0, 1, ...: each selected benchmark in each pass) runs. */
FB__PRIVATE bool fb__suite_more(const fb__suite *s, size_t step);
/* Runs the benchmark of step in a fresh bench; its index in the selection. */
FB__PRIVATE size_t fb__suite_run_one(fb__suite *s, size_t step);
/* Whether instance i was the last of its family to run in this pass (and
 * the family's fit is due: not under -sanity_check, nothing failed). */
FB__PRIVATE bool fb__suite_family_ended(const fb__suite *s, size_t i);
/* The fit over i's family, stored with the suite's results and printed. */
FB__PRIVATE void fb__suite_family_done(fb__suite *s, size_t i);
/* The tables after the suite's, the outputs written, everything freed: the
 * exit status. */
FB__PRIVATE int fb__suite_close(fb__suite *s);

#endif
