/* Families over several arguments (FB_BENCHMARK_PRODUCT): the dimensions
 * of a registration (lists and ranges), their checks, and the instances of
 * their product, named "fn/a/b" (src/registry.c names and sorts them). */
#ifndef FB_PRODUCT_H
#define FB_PRODUCT_H

#include "base.h"

/* The most instances one product may have: each is a benchmark. */
#define FB__PRODUCT_MAX_INSTANCES 100000

/* FB_EINVAL with the reason in err when r's dimensions are malformed (a
 * list without values or with one twice, a bad range, more than
 * FB_MAX_ARGS dimensions, too many instances); FB_OK otherwise. */
FB__PRIVATE int fb__product_check(const fb__registration *r, char *err, size_t len);
/* The number of instances of a checked product. */
FB__PRIVATE size_t fb__product_count(const fb__registration *r);
/* The arguments of instance k (the first dimension varies slowest, as
 * Google Benchmark's ArgsProduct): into args, returns how many (the
 * dimensions). */
FB__PRIVATE size_t fb__product_args(const fb__registration *r, size_t k, int64_t *args);

#endif
