/* The runner's status line on a terminal: on a run longer than about 2 s,
 * one line on stderr, rewritten before each benchmark, says which benchmark
 * runs, k of n, and about how long is left; it is erased before each table
 * row and at the end. Nothing when stderr is not a terminal or under
 * -quiet. */
#ifndef FB_PROGRESS_H
#define FB_PROGRESS_H

#include "base.h"

#include <stdio.h>

/* The line appears only once the run has lasted this long. */
#define FB__PROGRESS_AFTER_S 2.0

typedef struct fb__progress {
    FILE *f;           /* the terminal; NULL: off */
    uint64_t start_ns; /* when the run started */
    size_t total;      /* benchmarks to run (instances x passes) */
    bool showing;      /* a line is on the screen */
} fb__progress;

/* Starts the clock; on: whether the line may show (a terminal, not -quiet). */
FB__PRIVATE void fb__progress_init(fb__progress *p, FILE *f, size_t total, bool on);
/* Before benchmark `done` + 1 of total (named name) runs. */
FB__PRIVATE void fb__progress_step(fb__progress *p, size_t done, const char *name);
/* Erases the line if it shows (a table row follows, or the run ended). A
 * fb__table's before_row hook: ctx is the fb__progress. */
FB__PRIVATE void fb__progress_clear(void *ctx);

#endif
