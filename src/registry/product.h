/* Families over several arguments (FB_BENCHMARK_PRODUCT): the dimensions
 * of a registration (lists and ranges), their checks, and the instances of
 * their product, named "fn/a/b" (src/registry/registry.c names and sorts them). */
#ifndef FB_PRODUCT_H
#define FB_PRODUCT_H

#include "base.h"

/* The most instances one product may have: each is a benchmark. */
#define FB__PRODUCT_MAX_INSTANCES 100000

/* The arguments of a range: lo, lo*mult, ... up to and including hi (hi
 * added when the steps miss it; lo = 0 gives 0, 1, mult, ...). Writes up to
 * cap of them to out (NULL to count) and returns how many there are. Needs
 * mult >= 2 and 0 <= lo <= hi; never overflows. */
FB__PRIVATE size_t fb__range_args(int64_t lo, int64_t hi, int64_t mult, int64_t *out, size_t cap);

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
