/* Families over several arguments: the flat encoding FB_BENCHMARK_PRODUCT
 * builds (per dimension FB__DIM_LIST, count, values... or FB__DIM_RANGE,
 * lo, hi, mult), read back into dimensions. */
#include "product.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* The arguments of a range (FB_BENCHMARK_RANGE, FB_RANGE): here, with the
 * other dimensions, so that src/registry/registry.c calls this file and not the
 * reverse. */
size_t fb__range_args(int64_t lo, int64_t hi, int64_t mult, int64_t *out, size_t cap) {
    size_t n = 0;
    int64_t v = lo;
    if (v == 0) { /* 0, then the powers of mult from 1 */
        if (out && n < cap) out[n] = 0;
        n++;
        if (hi == 0) return n;
        v = 1;
    }
    for (;;) {
        if (out && n < cap) out[n] = v;
        n++;
        if (v >= hi) break;
        if (v > hi / mult) { /* the next step passes hi: hi closes the range */
            if (out && n < cap) out[n] = hi;
            n++;
            break;
        }
        v *= mult; /* <= hi: cannot overflow */
    }
    return n;
}

typedef struct fb__dim {
    const int64_t *vals; /* a list: its values */
    size_t n;            /* how many values the dimension has */
    bool range;
    int64_t lo, hi, mult;
} fb__dim;

/* The dimensions of r; FB_EINVAL with err filled when malformed. */
static int fb__product_dims(const fb__registration *r, fb__dim *d, size_t *nd, char *err,
                            size_t len) {
    size_t i = 0, k = 0;
    const int64_t *a = r->args;
    *nd = 0;
    if (!a || r->n_args == 0) {
        snprintf(err, len, "benchmark '%s' (FB_BENCHMARK_PRODUCT): no dimensions", r->name);
        return FB_EINVAL;
    }
    while (i < r->n_args) {
        if (k == FB_MAX_ARGS) {
            snprintf(err, len, "benchmark '%s' (FB_BENCHMARK_PRODUCT): more than %d dimensions",
                     r->name, FB_MAX_ARGS);
            return FB_EINVAL;
        }
        memset(&d[k], 0, sizeof d[k]);
        if (a[i] == FB__DIM_LIST && i + 1 < r->n_args) {
            int64_t n = a[i + 1];
            if (n < 1 || (uint64_t)n > r->n_args - i - 2) {
                snprintf(err, len,
                         "benchmark '%s' (FB_BENCHMARK_PRODUCT): dimension %zu: FB_LIST needs 1 "
                         "to 64 values",
                         r->name, k + 1);
                return FB_EINVAL;
            }
            d[k].vals = a + i + 2;
            d[k].n = (size_t)n;
            for (size_t p = 1; p < d[k].n; ++p)
                for (size_t q = 0; q < p; ++q)
                    if (d[k].vals[p] == d[k].vals[q]) {
                        snprintf(err, len,
                                 "benchmark '%s' (FB_BENCHMARK_PRODUCT): dimension %zu: argument "
                                 "%" PRId64 " is given twice (instance names must be unique)",
                                 r->name, k + 1, d[k].vals[p]);
                        return FB_EINVAL;
                    }
            i += 2 + d[k].n;
        } else if (a[i] == FB__DIM_RANGE && i + 3 < r->n_args) {
            d[k].range = true;
            d[k].lo = a[i + 1];
            d[k].hi = a[i + 2];
            d[k].mult = a[i + 3];
            const char *why = d[k].mult < 2       ? "mult must be at least 2"
                              : d[k].lo < 0       ? "lo must not be negative"
                              : d[k].lo > d[k].hi ? "lo is greater than hi"
                                                  : NULL;
            if (why) {
                snprintf(err, len,
                         "benchmark '%s' (FB_BENCHMARK_PRODUCT): dimension %zu: FB_RANGE(%" PRId64
                         ", %" PRId64 ", %" PRId64 "): %s",
                         r->name, k + 1, d[k].lo, d[k].hi, d[k].mult, why);
                return FB_EINVAL;
            }
            d[k].n = fb__range_args(d[k].lo, d[k].hi, d[k].mult, NULL, 0);
            i += 4;
        } else {
            snprintf(err, len,
                     "benchmark '%s' (FB_BENCHMARK_PRODUCT): dimension %zu is not an FB_LIST(...) "
                     "or FB_RANGE(lo, hi, mult)",
                     r->name, k + 1);
            return FB_EINVAL;
        }
        ++k;
    }
    *nd = k;
    return FB_OK;
}

int fb__product_check(const fb__registration *r, char *err, size_t len) {
    fb__dim d[FB_MAX_ARGS];
    size_t nd;
    if (fb__product_dims(r, d, &nd, err, len) != FB_OK) return FB_EINVAL;
    size_t total = 1;
    for (size_t k = 0; k < nd; ++k) {
        if (d[k].n > FB__PRODUCT_MAX_INSTANCES / total) {
            snprintf(err, len, "benchmark '%s' (FB_BENCHMARK_PRODUCT): more than %d instances",
                     r->name, FB__PRODUCT_MAX_INSTANCES);
            return FB_EINVAL;
        }
        total *= d[k].n;
    }
    return FB_OK;
}

size_t fb__product_count(const fb__registration *r) {
    fb__dim d[FB_MAX_ARGS];
    size_t nd, total = 1;
    char err[8];
    if (fb__product_dims(r, d, &nd, err, sizeof err) != FB_OK) return 0;
    for (size_t k = 0; k < nd; ++k) total *= d[k].n;
    return total;
}

size_t fb__product_args(const fb__registration *r, size_t k, int64_t *args) {
    fb__dim d[FB_MAX_ARGS];
    size_t nd;
    char err[8];
    if (fb__product_dims(r, d, &nd, err, sizeof err) != FB_OK) return 0;
    for (size_t p = nd; p-- > 0;) { /* the last dimension varies fastest */
        size_t at = k % d[p].n;
        k /= d[p].n;
        if (d[p].range) {
            int64_t *v = malloc(d[p].n * sizeof *v);
            if (!v) return 0;
            fb__range_args(d[p].lo, d[p].hi, d[p].mult, v, d[p].n);
            args[p] = v[at];
            free(v);
        } else {
            args[p] = d[p].vals[at];
        }
    }
    return nd;
}
