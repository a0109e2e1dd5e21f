/* Families of benchmarks (FB_BENCHMARK_ARGS, FB_BENCHMARK_RANGE; issue 15):
 * the runner expands every registration into instances before it filters,
 * so -list, -filter, -sanity_check and the outputs see ordinary benchmarks
 * named "fn/arg"; and the results of a family are grouped for complexity
 * fits (docs/complexity.md, "Families"). */
#ifndef FB_REGISTRY_H
#define FB_REGISTRY_H

#include "internal.h"

#include <regex.h>

/* One benchmark to run: a plain registration, or one argument of a family. */
typedef struct fb__instance {
    const fb__registration *reg; /* shared by the instances of a family */
    bool has_arg;
    int64_t arg;
    char name[]; /* reg->name, or "reg->name/arg" */
} fb__instance;

/* Expands the registrations listed from head into instances, sorted by
 * registration name, a family's instances in the order of its arguments:
 * a NULL-terminated array in *out (free it with fb__instances_free). A bad
 * registration (a family without arguments or with an argument twice, a
 * range with mult < 2, lo < 0 or lo > hi, a name registered twice, a family
 * name taken by another benchmark) gives FB_EINVAL and one line in err that
 * names the benchmark; FB_ENOMEM when out of memory. *out is NULL then. */
int fb__registry_expand(const fb__registration *head, fb__instance ***out, char *err, size_t len);
void fb__instance_free(fb__instance *in);
void fb__instances_free(fb__instance **v); /* each instance, then the array */
/* -filter: the instance's whole name matches re, or its family's name does
 * (so -filter=Copy selects every Copy/arg). */
bool fb__instance_selected(const fb__instance *in, const regex_t *re);
/* The arguments of a range: lo, lo*mult, ... up to and including hi (hi
 * added when the steps miss it; lo = 0 gives 0, 1, mult, ...). Writes up to
 * cap of them to out (NULL to count) and returns how many there are. Needs
 * mult >= 2 and 0 <= lo <= hi; never overflows. */
size_t fb__range_args(int64_t lo, int64_t hi, int64_t mult, int64_t *out, size_t cap);

/* Complexity fits over families. A result is fitted with its *group*: the
 * results of the same name, except for an instance of a family whose name
 * has one distinct N (its body set N, typically from fb_arg): those are
 * fitted with the whole *series*, the results whose names differ only in
 * their "/<arg>". fb__fit_group_first: the index of the first result of
 * result i's group (i itself when it comes first), or (size_t)-1 when
 * result i has no N. fb__fit_group: fits as fb_complexity_fit does. */
size_t fb__fit_group_first(const fb_bench *b, size_t i);
bool fb__fit_family_wide(const fb_bench *b, size_t i);
size_t fb__fit_group(const fb_bench *b, size_t i, fb_fit *fits, size_t cap);
/* Whether some result of b with an N is fitted alone by its name (the
 * runner's -asymptote fits), not with a family. */
bool fb__fit_alone(const fb_bench *b);
/* The length of r's name without the "/<arg>" of a family's instance: the
 * series' name is that prefix. */
size_t fb__result_series_len(const fb_result *r);
/* The runner, after the last instance of a family: prints to f the fit of
 * every family-wide group among results [first, count) of b that has at
 * least two distinct N, each after a blank line. Returns how many. */
size_t fb__family_write_fits(const fb_bench *b, size_t first, FILE *f);

#endif
