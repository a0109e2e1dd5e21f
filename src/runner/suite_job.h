/* One benchmark of the runner's suite (src/runner/suite_job.c): the command
 * line applied to its fresh bench, its body, the collector sink that counts
 * the suite's failures, and the guard against a benchmark that calls exit().
 * src/runner/suite.c runs one job per benchmark in each pass. */
#ifndef FB_SUITE_JOB_H
#define FB_SUITE_JOB_H

#include "bench.h"
#include "options.h"  /* the command line */
#include "registry.h" /* families expanded into instances */

/* The runner's collector, a sink: counts the failed results and, in a
 * sanity check (no table), names each failure on stderr. */
typedef struct fb__collector {
    bool sanity;
    size_t failed;
    size_t misused; /* error rows made by a bad API argument (src/handle/misuse.h) */
} fb__collector;

/* The collector's sinks (ctx: the fb__collector): a result's, and a
 * comparison's, whose error rows fail the benchmark like a run's
 * (src/run/compare.c). */
FB__PRIVATE void fb__collector_sink(void *ctx, const fb_bench *b, const fb_result *r);
FB__PRIVATE void fb__collector_cmp_sink(void *ctx, const fb_bench *b, const fb_comparison *cmp);

/* A pass of -repetitions run in its own process: the bench its results
 * and comparisons are published to in this process. The pass process
 * prints the table and names failures itself, so here only the collector
 * counts them. */
typedef struct fb__job_pass_ctx {
    fb__collector *collector;
} fb__job_pass_ctx;

/* src/runner/passes_exec.h's fb__passes_make_fn (ctx: the fb__job_pass_ctx). */
FB__PRIVATE fb_bench *fb__job_pass_bench(void *ctx, unsigned pass);

/* One benchmark: its rounds, then nothing silently dropped: a
 * run that recorded nothing, or under -sanity_check a body that never
 * reached FB_RUN / fb_run / FB_COMPARE / fb_compare, is an error row (a
 * comparison counts as a measurement: the bench stores it). Runs in-process or in
 * -isolate's child (src/runner/isolate.c). */
typedef struct fb__job {
    const fb__opts *o;
    const fb__instance *inst; /* a benchmark, or one instance of a family */
    bool unreported;          /* an error row could not be made (out of memory) */
} fb__job;

/* Applies the command line to a fresh bench: it wins over code and env. */
FB__PRIVATE void fb__job_configure(fb_bench *b, const fb__opts *o);
/* The job's body (ctx: the fb__job), as -isolate's child runs it. */
FB__PRIVATE void fb__job_body(fb_bench *b, void *ctx);
/* The body in this process, under the exit guard below. */
FB__PRIVATE void fb__job_run_here(fb_bench *b, fb__job *job);
/* The exit guard, an atexit handler (fb_main installs it once): a benchmark
 * that called exit() while it ran in this process is named on stderr and the
 * status becomes 1. */
FB__PRIVATE void fb__job_at_exit(void);

/* "femtobench: [error: ]a[/b]: msg" on stderr with control characters as
 * \xNN: a name or a message with a line break never makes a second line. */
FB__PRIVATE void fb__job_say(const char *head, const char *a, const char *b, const char *msg);
/* head, then text as one line (control characters as \xNN), then tail. */
FB__PRIVATE void fb__job_line(const char *head, const char *text, const char *tail);

#endif
