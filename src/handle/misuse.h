/* A bad argument to the API inside a benchmark (an empty or duplicated
 * counter name, a NaN, ...): the call returns FB_EINVAL, one line goes to
 * the diagnostics stream, and the next result published on the bench
 * becomes an error row that says why, so that nothing is silently dropped.
 * The runner's collector recognises such a row by its prefix and makes the
 * exit status 2 (bad input), in-process and under -isolate alike. */
#ifndef FB_MISUSE_H
#define FB_MISUSE_H

#include "base.h"

#define FB__MISUSE_PREFIX "bad input: "

/* Records the misuse on b (the first one until a result takes it), prints
 * it; returns FB_EINVAL. */
FB__PRIVATE int fb__bench_misuse(fb_bench *b, const char *fmt, ...) FB__PRINTF(2, 3);
/* A result published on b takes the recorded misuse as its error. */
/* Says how many times the last misuse line came again unsaid, and forgets
 * it (at each published result, and when the bench is freed). */
FB__PRIVATE void fb__misuse_flush(fb_bench *b);
FB__PRIVATE void fb__misuse_attach(fb_bench *b, fb_result *r);
/* Whether r's error is a misuse. */
FB__PRIVATE bool fb__result_misuse(const fb_result *r);

#endif
