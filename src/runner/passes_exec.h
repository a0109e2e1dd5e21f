/* The runner's -repetitions in fresh processes (src/runner/passes_exec.c): each
 * pass is this program run again with the same options, so that every pass
 * gets its own address layout, heap, page placement and start-up, the
 * things that make one process differ from the next. */
#ifndef FB_PASSES_EXEC_H
#define FB_PASSES_EXEC_H

#include "bench.h"
#include "isolate_record.h" /* results as records on a pipe */

/* Parent: runs pass 0..passes-1, one process each, in order. Each process
 * prints its own table; its results and comparisons come back over a pipe
 * (the records of src/runner/isolate_record.c) and are published to a fresh bench per pass made by
 * `make` (the runner's sinks), then moved to suite. A pass process that
 * ends before its end record (a crash, exit() in a benchmark) adds an error
 * row named "pass <k> of <n>". *interrupted when a pass was interrupted
 * (the rest are not run). FB_OK, or FB_EIO / FB_ENOMEM with why. */
typedef fb_bench *(*fb__passes_make_fn)(void *ctx, unsigned pass);
FB__PRIVATE int fb__passes_exec(int argc, char **argv, unsigned passes, fb_bench *suite,
                                fb__passes_make_fn make, void *ctx, FILE *tout, bool *interrupted,
                                char *why, size_t len);

/* Child: the sinks that send each result and each comparison to the parent
 * (ctx: the descriptor, as an int *); and the end record, with the
 * interrupted flag. */
FB__PRIVATE void fb__passes_exec_sink(void *ctx, const fb_bench *b, const fb_result *r);
/* ... the result sent last again, amended (the sink's amend: src/handle/bench.h) */
FB__PRIVATE void fb__passes_exec_amend(void *ctx, const fb_bench *b, const fb_result *r);
FB__PRIVATE void fb__passes_exec_cmp_sink(void *ctx, const fb_bench *b, const fb_comparison *c);
FB__PRIVATE void fb__passes_exec_end(int fd, bool interrupted);

#endif
