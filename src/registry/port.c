/* What a port of another framework's suites needs from the runner: a
 * benchmark registered at run time under any name, with a context (the
 * Google Benchmark and nanobench headers of include/compat/ register the
 * instances they expand themselves), and the CPU count. */
#include "base.h"
#include "config.h"
#include "process.h"
#include "registry.h"
#include "text.h"

#include <stdlib.h>
#include <string.h>

#if FB_HAVE_POSIX
#include <unistd.h>
#endif

int fb_register(const char *name, fb_bench_ctx_fn fn, void *ctx) {
    if (!name || !name[0] || !fn) return FB_EINVAL;
    /* kept for the life of the process, as a constructor's registration */
    fb__port_reg *r = calloc(1, sizeof *r);
    char *copy = fb__strdup(name);
    if (!r || !copy) {
        free(r);
        free(copy);
        return FB_ENOMEM;
    }
    r->reg.name = copy;
    r->reg.kind = FB__REG_ONE;
    r->fn = fn;
    r->ctx = ctx;
    fb__register(&r->reg);
    return FB_OK;
}

int fb_register_ordered(const char *name, const char *family, unsigned family_id, int model,
                        fb_bench_ctx_fn fn, void *ctx) {
    /* before main or from main's thread, one at a time, as fb__register */
    static size_t seq = 0;
    if (!name || !name[0] || !fn || model < FB_FIT_ASK_BEST || model > FB_FIT_ASK_N3 ||
        (family && !family[0]))
        return FB_EINVAL;
    fb__port_reg *r = calloc(1, sizeof *r);
    char *copy = fb__strdup(name), *fam = family ? fb__strdup(family) : NULL;
    if (!r || !copy || (family && !fam)) {
        free(r);
        free(copy);
        free(fam);
        return FB_ENOMEM;
    }
    r->reg.name = copy;
    r->reg.kind = FB__REG_ONE;
    r->fn = fn;
    r->ctx = ctx;
    r->seq = ++seq;
    r->family = fam;
    r->family_id = family_id;
    r->model = model;
    fb__register(&r->reg);
    return FB_OK;
}

int fb_register_later(void (*fn)(void)) { return fn ? fb__process_register_later(fn) : FB_EINVAL; }

size_t fb_cpu_count(void) {
#if FB_HAVE_POSIX && defined(_SC_NPROCESSORS_ONLN)
    long c = sysconf(_SC_NPROCESSORS_ONLN);
    return c > 0 ? (size_t)c : 1;
#else
    return 1;
#endif
}
