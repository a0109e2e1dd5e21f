/* Families of benchmarks (FB_BENCHMARK_ARGS, FB_BENCHMARK_RANGE):
 * the runner expands every registration into instances before it filters,
 * so -list, -filter, -sanity_check and the outputs see ordinary benchmarks
 * named "fn/arg" (src/stats/complexity_group.c groups their results for
 * complexity fits, docs/complexity.md, "Families"). */
#ifndef FB_REGISTRY_H
#define FB_REGISTRY_H

#include "result.h"
#include "stats.h"

#if FB_HAVE_POSIX_REGEX
#include <regex.h>
#endif

/* One benchmark to run: a plain registration, or one argument of a family. */
typedef struct fb__instance {
    const fb__registration *reg; /* shared by the instances of a family */
    bool has_arg;
    int64_t arg;
    size_t n_args;             /* several for FB_BENCHMARK_PRODUCT (src/registry/product.c) */
    int64_t args[FB_MAX_ARGS]; /* args[0] == arg */
    size_t threads;            /* FB_BENCHMARK_THREADS: the group's size, else 0 */
    char name[];               /* reg->name, or "reg->name/arg", "reg->name/a/b" */
} fb__instance;

/* Expands the registrations listed from head into instances, sorted by
 * registration name, a family's instances in the order of its arguments,
 * then those of fb_register_ordered in the order registered (src/registry/port.c):
 * a NULL-terminated array in *out (free it with fb__instances_free). A bad
 * registration (a family without arguments or with an argument twice, a
 * range with mult < 2, lo < 0 or lo > hi, a name registered twice, a family
 * name taken by another benchmark) gives FB_EINVAL and one line in err that
 * names the benchmark; FB_ENOMEM when out of memory. *out is NULL then. */
FB__PRIVATE int fb__registry_expand(const fb__registration *head, fb__instance ***out, char *err,
                                    size_t len);
FB__PRIVATE void fb__instance_free(fb__instance *in);
/* A registration made at run time (fb_register, src/registry/port.c): the
 * registration first, so that a pointer to it is one to the whole; its fn is
 * NULL (every FB_BENCHMARK has one). */
typedef struct fb__port_reg {
    fb__registration reg;
    fb_bench_ctx_fn fn;
    void *ctx;
    /* fb_register_ordered: its place (1, 2, ... in the order of the calls;
     * 0 for fb_register), its family (NULL for none), id and model */
    size_t seq;
    char *family;
    unsigned family_id;
    int model;
} fb__port_reg;
/* The port registration of r, or NULL for FB_BENCHMARK's. */
static inline const fb__port_reg *fb__port_of(const fb__registration *r) {
    return r->fn ? NULL : (const fb__port_reg *)(const void *)r;
}
/* The family a port registered the instance in (fb_register_ordered), or
 * NULL. */
static inline const fb__port_reg *fb__instance_port_family(const fb__instance *in) {
    const fb__port_reg *p = fb__port_of(in->reg);
    return p && p->family ? p : NULL;
}
/* In a family: FB_BENCHMARK_ARGS' and the like, or a port's. */
static inline bool fb__instance_in_family(const fb__instance *in) {
    return in->has_arg || fb__instance_port_family(in);
}
/* Whether a and b are instances of one family (b may be NULL). */
FB__PRIVATE bool fb__instance_same_family(const fb__instance *a, const fb__instance *b);
/* Runs a registration's body on b: fn(b), or fb_register's fn(b, ctx). */
static inline void fb__registration_call(const fb__registration *r, fb_bench *b) {
    if (r->fn) {
        r->fn(b);
    } else {
        const fb__port_reg *p = (const fb__port_reg *)(const void *)r;
        p->fn(b, p->ctx);
    }
}
FB__PRIVATE void fb__instances_free(fb__instance **v); /* each instance, then the array */
/* -filter: the instance's whole name matches re, or its family's name does
 * (so -filter=Copy selects every Copy/arg). */
#if FB_HAVE_POSIX_REGEX
FB__PRIVATE bool fb__instance_selected(const fb__instance *in, const regex_t *re);
#endif

#endif
