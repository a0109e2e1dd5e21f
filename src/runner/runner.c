/* The suite runner: fb_main, and the suite it runs once src/runner/selection.c
 * has read the options and selected the benchmarks (src/runner/suite.c: one
 * fresh fb_bench per benchmark in each pass, the tables between them, the
 * outputs written as one set). It measures nothing itself and touches no
 * field of a bench (src/handle/bench.h's functions). */
#include "options.h"   /* the command line */
#include "registry.h"  /* families expanded into instances */
#include "selection.h" /* what runs, checked before anything runs */
#include "suite.h"     /* the suite: open, one benchmark at a time, close */
#include "suite_job.h" /* the exit guard */
#include "text.h"
#include "valgrind.h" /* -valgrind */

#include <stdio.h>
#include <stdlib.h>

/* Runs the selected benchmarks (each pass, each instance in a fresh bench)
 * and writes the tables and files: fb_main's work once the options are
 * read. After a family's last instance in a pass, the fit over the family. */
static int fb__runner_suite(int argc, char **argv, fb__opts *o, fb__instance **sel) {
    fb__suite s;
    fb__suite_open(&s, argc, argv, o, sel);
    for (size_t step = 0; fb__suite_more(&s, step); ++step) {
        size_t i = fb__suite_run_one(&s, step);
        if (fb__suite_family_ended(&s, i)) fb__suite_family_done(&s, i);
    }
    return fb__suite_close(&s);
}

int fb_main(int argc, char **argv) {
    fb__opts o;
    fb__opts_init(&o);
    fb__instance **sel = NULL;
    int rc = fb__select(argc, argv, &o, &sel);
    if (rc < 0) { /* -help, -version: done */
        rc = 0;
    } else if (rc) { /* bad input: said */
    } else if (o.list) {
        for (size_t i = 0; sel[i]; ++i) { /* a name with a line break stays one line */
            fb__put_line(stdout, sel[i]->name);
            putchar('\n');
        }
    } else if (o.valgrind) { /* the same options again, in a child under Callgrind */
        rc = fb__vg_runner_exec(argc, argv, o.valgrind == 2);
    } else {
        static bool at_exit_set;
        if (!at_exit_set) at_exit_set = atexit(fb__job_at_exit) == 0; /* else unguarded */
        rc = fb__runner_suite(argc, argv, &o, sel);
    }
    fb__instances_free(sel);
    fb__opts_free(&o);
    return rc;
}
