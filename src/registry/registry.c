/* Families of benchmarks (FB_BENCHMARK_ARGS, FB_BENCHMARK_RANGE): their
 * expansion into instances named "fn/arg", the checks of their
 * registrations (the grouping of their results for complexity fits is
 * src/stats/complexity_group.c's). */
#include "registry.h"

#include "group.h"   /* FB_BENCHMARK_THREADS */
#include "product.h" /* FB_BENCHMARK_PRODUCT */
#include "report.h"
#include "stats.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ expansion */

/* "FB_BENCHMARK_RANGE(name, lo, hi, mult)" or "FB_BENCHMARK_ARGS(name, ...)". */
static void fb__reg_describe(const fb__registration *r, char *buf, size_t len) {
    if (r->kind == FB__REG_RANGE)
        snprintf(buf, len, "FB_BENCHMARK_RANGE(%s, %" PRId64 ", %" PRId64 ", %" PRId64 ")", r->name,
                 r->lo, r->hi, r->mult);
    else if (r->kind == FB__REG_PRODUCT)
        snprintf(buf, len, "FB_BENCHMARK_PRODUCT(%s, ...)", r->name);
    else if (r->kind == FB__REG_THREADS)
        snprintf(buf, len, "FB_BENCHMARK_THREADS(%s, ...)", r->name);
    else if (r->kind == FB__REG_ARGS) {
        /* the arguments as written, "..." for those that do not fit */
        size_t k = (size_t)snprintf(buf, len, "FB_BENCHMARK_ARGS(%s,", r->name);
        size_t i = 0;
        for (; r->args && i < r->n_args && k + 48 < len; ++i)
            k += (size_t)snprintf(buf + k, len - k, " %" PRId64 "%s", r->args[i],
                                  i + 1 < r->n_args ? "," : "");
        if (k + 8 < len) snprintf(buf + k, len - k, "%s)", r->args && i < r->n_args ? " ..." : "");
    } else
        snprintf(buf, len, "FB_BENCHMARK(%s)", r->name);
}

static int fb__cmp_i64(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Checks one registration; FB_OK, or FB_EINVAL (FB_ENOMEM) with the reason
 * in err. */
static int fb__reg_check(const fb__registration *r, char *err, size_t len) {
    char what[200];
    fb__reg_describe(r, what, sizeof what);
    if (r->kind == FB__REG_ARGS || r->kind == FB__REG_THREADS) {
        bool threads = r->kind == FB__REG_THREADS;
        if (r->n_args == 0 || !r->args) {
            snprintf(err, len, "benchmark '%s' (%s): no %s (give at least one)", r->name, what,
                     threads ? "thread counts" : "arguments");
            return FB_EINVAL;
        }
        for (size_t i = 0; threads && i < r->n_args; ++i)
            if (r->args[i] < 1 || r->args[i] > FB__MAX_THREADS) {
                snprintf(err, len, "benchmark '%s' (%s): %" PRId64 " threads: give 1 to %d threads",
                         r->name, what, r->args[i], FB__MAX_THREADS);
                return FB_EINVAL;
            }
        /* a repeated argument, found in a sorted copy: n log n (10^6
         * arguments take a fraction of a second, not minutes) */
        int64_t *sorted = malloc(r->n_args * sizeof *sorted);
        if (!sorted) {
            snprintf(err, len, "benchmark '%s': out of memory", r->name);
            return FB_ENOMEM;
        }
        memcpy(sorted, r->args, r->n_args * sizeof *sorted);
        qsort(sorted, r->n_args, sizeof *sorted, fb__cmp_i64);
        for (size_t i = 1; i < r->n_args; ++i)
            if (sorted[i] == sorted[i - 1]) {
                snprintf(err, len,
                         "benchmark '%s' (%s): %s %" PRId64
                         " is given twice (instance names must be unique)",
                         r->name, what, threads ? "thread count" : "argument", sorted[i]);
                free(sorted);
                return FB_EINVAL;
            }
        free(sorted);
    } else if (r->kind == FB__REG_RANGE) {
        const char *why = r->mult < 2     ? "mult must be at least 2"
                          : r->lo < 0     ? "lo must not be negative"
                          : r->lo > r->hi ? "lo is greater than hi"
                                          : NULL;
        if (why) {
            snprintf(err, len, "benchmark '%s' (%s): %s", r->name, what, why);
            return FB_EINVAL;
        }
    } else if (r->kind == FB__REG_PRODUCT) { /* src/registry/product.c */
        return fb__product_check(r, err, len);
    } else if (r->kind != FB__REG_ONE) {
        snprintf(err, len, "benchmark '%s': unknown registration kind %d", r->name, r->kind);
        return FB_EINVAL;
    }
    return FB_OK;
}

/* An instance with n_args arguments (0: a plain benchmark). */
static fb__instance *fb__instance_new_args(const fb__registration *r, const int64_t *args,
                                           size_t n_args) {
    char suffix[24 * FB_MAX_ARGS] = "";
    size_t k = 0;
    for (size_t i = 0; i < n_args && i < FB_MAX_ARGS; ++i)
        k += (size_t)snprintf(suffix + k, sizeof suffix - k, "/%" PRId64, args[i]);
    size_t n = strlen(r->name);
    fb__instance *in = malloc(sizeof *in + n + k + 1);
    if (!in) return NULL;
    in->reg = r;
    in->has_arg = n_args > 0;
    in->arg = n_args ? args[0] : 0;
    in->n_args = n_args < FB_MAX_ARGS ? n_args : FB_MAX_ARGS;
    for (size_t i = 0; i < in->n_args; ++i) in->args[i] = args[i];
    in->threads = 0;
    memcpy(in->name, r->name, n);
    memcpy(in->name + n, suffix, k + 1);
    return in;
}

static fb__instance *fb__instance_new(const fb__registration *r, bool has_arg, int64_t arg) {
    return fb__instance_new_args(r, &arg, has_arg ? 1 : 0);
}

/* An instance of FB_BENCHMARK_THREADS: "name/threads:<n>", as Google
 * Benchmark names a benchmark run on n threads. */
static fb__instance *fb__instance_new_threads(const fb__registration *r, int64_t threads) {
    char suffix[32];
    int k = snprintf(suffix, sizeof suffix, "/threads:%" PRId64, threads);
    size_t n = strlen(r->name);
    fb__instance *in = calloc(1, sizeof *in + n + (size_t)k + 1);
    if (!in) return NULL;
    in->reg = r;
    in->threads = (size_t)threads;
    memcpy(in->name, r->name, n);
    memcpy(in->name + n, suffix, (size_t)k + 1);
    return in;
}

void fb__instance_free(fb__instance *in) { free(in); }

void fb__instances_free(fb__instance **v) {
    for (size_t i = 0; v && v[i]; ++i) fb__instance_free(v[i]);
    free(v);
}

/* fb_register_ordered's place, 0 for the others. */
static size_t fb__reg_seq(const fb__registration *r) {
    const fb__port_reg *p = fb__port_of(r);
    return p ? p->seq : 0;
}

/* By name (a port's ordered ones among them by their place): the order the
 * checks of duplicates read. */
static int fb__cmp_reg_name(const void *a, const void *b) {
    const fb__registration *x = *(const fb__registration *const *)a,
                           *y = *(const fb__registration *const *)b;
    int c = strcmp(x->name, y->name);
    if (c) return c;
    size_t sx = fb__reg_seq(x), sy = fb__reg_seq(y);
    return (sx > sy) - (sx < sy);
}

/* The order they run in: by name, then those of fb_register_ordered in the
 * order registered (Google Benchmark's order, docs/migrating.md). */
static int fb__cmp_reg_run(const void *a, const void *b) {
    const fb__registration *x = *(const fb__registration *const *)a,
                           *y = *(const fb__registration *const *)b;
    size_t sx = fb__reg_seq(x), sy = fb__reg_seq(y);
    if (sx || sy) return !sx ? -1 : !sy ? 1 : (sx > sy) - (sx < sy);
    return strcmp(x->name, y->name);
}

bool fb__instance_same_family(const fb__instance *a, const fb__instance *b) {
    if (!b) return false;
    if (a->has_arg) return b->has_arg && a->reg == b->reg;
    const fb__port_reg *p = fb__instance_port_family(a), *q = fb__instance_port_family(b);
    return p && q && p->family_id == q->family_id && strcmp(p->family, q->family) == 0;
}

static int fb__cmp_instance_name(const void *a, const void *b) {
    return strcmp((*(const fb__instance *const *)a)->name, (*(const fb__instance *const *)b)->name);
}

/* The instances of registrations regs[0..n), in that order, into *out. */
static int fb__expand_sorted(const fb__registration *const *regs, size_t n, fb__instance ***out) {
    size_t total = 0;
    for (size_t i = 0; i < n; ++i) {
        const fb__registration *r = regs[i];
        total += r->kind == FB__REG_ARGS || r->kind == FB__REG_THREADS ? r->n_args
                 : r->kind == FB__REG_RANGE   ? fb__range_args(r->lo, r->hi, r->mult, NULL, 0)
                 : r->kind == FB__REG_PRODUCT ? fb__product_count(r)
                                              : 1;
    }
    fb__instance **v = calloc(total + 1, sizeof *v);
    if (!v) return FB_ENOMEM;
    size_t k = 0;
    for (size_t i = 0; i < n; ++i) {
        const fb__registration *r = regs[i];
        if (r->kind == FB__REG_ONE) {
            v[k++] = fb__instance_new(r, false, 0);
        } else if (r->kind == FB__REG_PRODUCT) { /* src/registry/product.c */
            for (size_t a = 0, m = fb__product_count(r); a < m; ++a) {
                int64_t args[FB_MAX_ARGS];
                size_t na = fb__product_args(r, a, args);
                v[k++] = na ? fb__instance_new_args(r, args, na) : NULL;
            }
        } else if (r->kind == FB__REG_ARGS) {
            for (size_t a = 0; a < r->n_args; ++a) v[k++] = fb__instance_new(r, true, r->args[a]);
        } else if (r->kind == FB__REG_THREADS) { /* src/run/group.c */
            for (size_t a = 0; a < r->n_args; ++a) v[k++] = fb__instance_new_threads(r, r->args[a]);
        } else {
            size_t m = fb__range_args(r->lo, r->hi, r->mult, NULL, 0);
            int64_t *args = malloc(m * sizeof *args);
            if (!args) break;
            fb__range_args(r->lo, r->hi, r->mult, args, m);
            for (size_t a = 0; a < m; ++a) v[k++] = fb__instance_new(r, true, args[a]);
            free(args);
        }
    }
    bool ok = k == total;
    for (size_t i = 0; i < k; ++i) ok = ok && v[i];
    if (!ok) {
        for (size_t i = 0; i < k; ++i) fb__instance_free(v[i]);
        free(v);
        return FB_ENOMEM;
    }
    *out = v;
    return FB_OK;
}

int fb__registry_expand(const fb__registration *head, fb__instance ***out, char *err, size_t len) {
    *out = NULL;
    size_t n = 0;
    for (const fb__registration *r = head; r; r = r->next) ++n;
    const fb__registration **regs = calloc(n ? n : 1, sizeof *regs);
    if (!regs) {
        snprintf(err, len, "out of memory");
        return FB_ENOMEM;
    }
    n = 0;
    for (const fb__registration *r = head; r; r = r->next) regs[n++] = r;
    qsort(regs, n, sizeof *regs, fb__cmp_reg_name);
    int rc = FB_OK;
    for (size_t i = 0; i < n && rc == FB_OK; ++i) rc = fb__reg_check(regs[i], err, len);
    for (size_t i = 1; i < n && rc == FB_OK; ++i) {
        const fb__registration *a = regs[i - 1], *b = regs[i];
        if (strcmp(a->name, b->name) != 0) continue;
        if (fb__reg_seq(a) && fb__reg_seq(b)) continue; /* a port's: a name may repeat */
        if (a->kind == FB__REG_ONE && b->kind == FB__REG_ONE) {
            snprintf(err, len, "benchmark name '%s' is registered twice", a->name);
        } else {
            char wa[200], wb[200];
            fb__reg_describe(a, wa, sizeof wa);
            fb__reg_describe(b, wb, sizeof wb);
            snprintf(err, len,
                     "benchmark family '%s' collides with another benchmark of that name (%s and "
                     "%s): rename one",
                     a->name, wa, wb);
        }
        rc = FB_EINVAL;
    }
    fb__instance **v = NULL;
    if (rc == FB_OK) qsort(regs, n, sizeof *regs, fb__cmp_reg_run);
    if (rc == FB_OK && (rc = fb__expand_sorted(regs, n, &v)) != FB_OK)
        snprintf(err, len, "out of memory");
    free(regs);
    if (rc != FB_OK) return rc;

    /* an instance named like another benchmark ("Copy/8" registered by
     * hand beside the family Copy): found among the sorted names */
    size_t total = 0;
    while (v[total]) ++total;
    fb__instance **sorted = malloc((total ? total : 1) * sizeof *sorted);
    if (!sorted) {
        fb__instances_free(v);
        snprintf(err, len, "out of memory");
        return FB_ENOMEM;
    }
    memcpy(sorted, v, total * sizeof *sorted);
    qsort(sorted, total, sizeof *sorted, fb__cmp_instance_name);
    for (size_t i = 1; i < total && rc == FB_OK; ++i) {
        if (strcmp(sorted[i - 1]->name, sorted[i]->name) != 0) continue;
        if (fb__reg_seq(sorted[i - 1]->reg) && fb__reg_seq(sorted[i]->reg)) continue;
        const fb__instance *fam = sorted[i]->has_arg ? sorted[i] : sorted[i - 1];
        char what[200];
        fb__reg_describe(fam->reg, what, sizeof what);
        snprintf(err, len,
                 "benchmark name '%s' is registered twice (an instance of %s and another "
                 "benchmark)",
                 sorted[i]->name, what);
        rc = FB_EINVAL;
    }
    free(sorted);
    if (rc != FB_OK) {
        fb__instances_free(v);
        return rc;
    }
    *out = v;
    return FB_OK;
}

#if FB_HAVE_POSIX_REGEX
bool fb__instance_selected(const fb__instance *in, const regex_t *re) {
    if (regexec(re, in->name, 0, NULL, 0) == 0) return true;
    return (in->has_arg || in->threads) && regexec(re, in->reg->name, 0, NULL, 0) == 0;
}
#endif
