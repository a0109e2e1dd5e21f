/* Untimed setup and teardown around each epoch, and the argument of a
 * family's instance. The epoch loop (src/run/run.c) and a paired
 * comparison call these hooks; nothing here reads the clock. */
#ifndef FB_SETUP_H
#define FB_SETUP_H

#include "bench.h"

/* Calls b's setup, if any. Call it before an epoch's performance counters
 * start and before its first clock read. */
FB__PRIVATE void fb__setup_before_epoch(fb_bench *b);
/* Calls b's teardown, if any. Call it after the epoch's last clock read and
 * after its counters were read. */
FB__PRIVATE void fb__teardown_after_epoch(fb_bench *b);

/* Gives b an argument: fb_arg(b) returns it, and the results of b's runs
 * carry it, with "/<arg>" appended to their names (src/registry/registry.c). */
FB__PRIVATE void fb__bench_set_arg(fb_bench *b, int64_t arg);
/* The same with the n arguments of a product's instance (n <= FB_MAX_ARGS):
 * "/a/b" appended. */
FB__PRIVATE void fb__bench_set_args(fb_bench *b, const int64_t *args, size_t n);
/* A port's family of the instance (fb_register_ordered): its results carry
 * it (fb__config's family). FB_OK or FB_ENOMEM. */
FB__PRIVATE int fb__bench_set_family(fb_bench *b, const char *family, unsigned id, int model);
/* The name a run on b records: name, or b's registered name, or "noname";
 * when b has an argument and the name does not end in "/<arg>" already, with
 * "/<arg>" appended. Allocated; NULL when out of memory. */
FB__PRIVATE char *fb__run_name(const fb_bench *b, const char *name);

#endif
