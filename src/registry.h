/* Families of benchmarks (FB_BENCHMARK_ARGS, FB_BENCHMARK_RANGE):
 * the runner expands every registration into instances before it filters,
 * so -list, -filter, -sanity_check and the outputs see ordinary benchmarks
 * named "fn/arg"; and the results of a family are grouped for complexity
 * fits (docs/complexity.md, "Families"). */
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
    size_t n_args;             /* several for FB_BENCHMARK_PRODUCT (src/product.c) */
    int64_t args[FB_MAX_ARGS]; /* args[0] == arg */
    size_t threads;            /* FB_BENCHMARK_THREADS: the group's size, else 0 */
    char name[];               /* reg->name, or "reg->name/arg", "reg->name/a/b" */
} fb__instance;

/* Expands the registrations listed from head into instances, sorted by
 * registration name, a family's instances in the order of its arguments:
 * a NULL-terminated array in *out (free it with fb__instances_free). A bad
 * registration (a family without arguments or with an argument twice, a
 * range with mult < 2, lo < 0 or lo > hi, a name registered twice, a family
 * name taken by another benchmark) gives FB_EINVAL and one line in err that
 * names the benchmark; FB_ENOMEM when out of memory. *out is NULL then. */
FB__PRIVATE int fb__registry_expand(const fb__registration *head, fb__instance ***out, char *err,
                                    size_t len);
FB__PRIVATE void fb__instance_free(fb__instance *in);
FB__PRIVATE void fb__instances_free(fb__instance **v); /* each instance, then the array */
/* -filter: the instance's whole name matches re, or its family's name does
 * (so -filter=Copy selects every Copy/arg). */
#if FB_HAVE_POSIX_REGEX
FB__PRIVATE bool fb__instance_selected(const fb__instance *in, const regex_t *re);
#endif

/* Complexity fits over families, on results rs[0..n). A result is fitted
 * with its *group*: the results of the same name, except for an instance of
 * a family whose name has one distinct N (its body set N, typically from
 * fb_arg): those are fitted with the whole *series*, the results whose names
 * differ only in their "/<arg>". fb__fit_group_first: the index of the first
 * result of result i's group (i itself when it comes first), or (size_t)-1
 * when result i has no N. fb__fit_group: the group's fit into out (FB_OK, or
 * FB_ENOMEM). fb__fit_family_wide: whether result i is fitted with its
 * series. fb__fit_alone: whether some result with an N is fitted by its name
 * alone (the runner's -asymptote fits), not with a family. */
FB__PRIVATE size_t fb__fit_group_first(const fb_result *const *rs, size_t n, size_t i);
FB__PRIVATE bool fb__fit_family_wide(const fb_result *const *rs, size_t n, size_t i);
FB__PRIVATE int fb__fit_group(const fb_result *const *rs, size_t n, size_t i, fb__fit_set *out);
FB__PRIVATE bool fb__fit_alone(const fb_result *const *rs, size_t n);
/* The length of r's name without the "/<arg>" of a family's instance, or
 * the "/threads:<n>" of a group's run without an argument: the series'
 * name is that prefix. */
FB__PRIVATE size_t fb__result_series_len(const fb_result *r);
/* The runner, after the last instance of a family (rs: the family's
 * results): prints to f the fit of every family-wide group with at least
 * two distinct N, each after a blank line and a title. Returns how many. */
FB__PRIVATE size_t fb__family_write_fits(const fb_result *const *rs, size_t n, FILE *f);

#endif
