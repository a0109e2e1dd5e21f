/* The paired, interleaved comparison: the loop protocol that FB_COMPARE
 * and fb_compare drive. Each pass of the block reaches every alternative;
 * the one whose turn it is runs one epoch through the epoch routine
 * (src/run/epoch.c). Its schedule: src/run/compare_schedule.c; the comparison it
 * builds and publishes: src/run/compare_publish.c (src/run/compare_state.h). It
 * never formats or prints itself. docs/compare.md explains every rule and
 * default. */
#include "compare_state.h"

#include "bench_state.h"
#include "epoch.h"
#include "setup.h" /* a family's "/<arg>" in the title */
#include "text.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------- the loop protocol */

fb__cmp fb__cmp_begin(fb_bench *b, const char *title, int callsite) {
    fb__cmp c = {NULL, 1};
    if (!title) title = b->name ? b->name : b->cfg.title;
    /* nested in a run or a comparison of this bench: refused, keeping the
     * outer one; said once and counted (src/run/epoch.c) */
    if (fb__epoch_refuse(b, "comparison", title)) return c;
    struct fb__cmp_state *s = calloc(1, sizeof *s);
    /* in a family the title carries the instance's "/<arg>", as a run's name
     * does: the alternatives of Fam/1 and Fam/2 are other rows everywhere
     * (the change table matches a baseline's rows by title and name) */
    char *name = b->cfg.has_arg ? fb__run_name(b, title) : fb__strdup(title);
    if (!s || fb__epoch_open(&s->ep, b, name, callsite) != FB_OK) {
        if (!s) free(name); /* fb__epoch_open frees it on failure */
        free(s);
        ++b->dropped; /* nothing silently dropped */
        fb__bench_diag(b, "comparison '%s' not run: out of memory", title);
        return c;
    }
    s->phase = FB__CMP_DISCOVER;
    b->cmp = s;
    b->cmp_free = fb__cmp_state_free; /* fb_bench_free releases a block left early */
    c.s = s;
    return c;
}

int fb__cmp_next(fb__cmp *c) {
    struct fb__cmp_state *s = c->s;
    if (!s) return 0;
    if (!s->started) {
        s->started = true;
    } else if (!c->pass_ok) {
        if (s->phase == FB__CMP_DISCOVER)
            fb__cmp_bad(s, "`break` inside FB_COMPARE's block is not supported", NULL);
        else
            fb__cmp_fail(s, s->k, "`break` inside FB_COMPARE's block is not supported");
    } else if (s->phase == FB__CMP_DISCOVER) {
        fb__cmp_setup(s);
    } else if (s->phase != FB__CMP_DONE && (!s->ran || s->pass_pos != s->k)) {
        fb__cmp_fail(s, s->k, "FB_COMPARE's block must reach the same alternatives on every pass");
    }
    if (s->phase == FB__CMP_DONE) {
        fb__cmp_finish(c);
        return 0;
    }
    s->pass_pos = 0;
    s->ran = false;
    c->pass_ok = 0;
    return 1;
}

uint64_t fb__cmp_alt(fb__cmp *c, const char *name) {
    struct fb__cmp_state *s = c->s;
    if (!s) return 0;
    if (s->timing) {
        fb__cmp_fail(s, s->cur, "FB_ALTERNATIVE inside another FB_ALTERNATIVE");
        return 0;
    }
    size_t i = s->pass_pos++;
    if (s->phase == FB__CMP_DISCOVER) {
        if (s->k == s->cap) {
            size_t cap = s->cap ? 2 * s->cap : 4;
            char **p = realloc(s->names, cap * sizeof *p);
            if (!p) {
                fb__cmp_bad(s, "out of memory", NULL);
                return 0;
            }
            s->names = p;
            s->cap = cap;
        }
        s->names[s->k++] = name ? fb__strdup(name) : NULL;
        if (name && !s->names[s->k - 1]) fb__cmp_bad(s, "out of memory", NULL);
        return 0;
    }
    if (s->phase == FB__CMP_DONE) return 0;
    if (i >= s->k || !name || strcmp(name, s->names[i]) != 0) {
        fb__cmp_fail(s, s->k,
                     "FB_COMPARE's block must name the same alternatives in the same "
                     "order on every pass");
        return 0;
    }
    if (i != s->cur || s->ran) return 0; /* one epoch per pass */
    s->timing = true;
    s->ran = true;
    fb__epoch_start(&s->ep); /* its last act reads the clock */
    return s->n;
}

void fb__cmp_alt_done(fb__cmp *c, uint64_t left) {
    struct fb__cmp_state *s = c->s;
    fb__epoch_out o;
    fb__epoch_stop(&s->ep, s->n, &o); /* manual time and excluded regions applied */
    if (s->phase == FB__CMP_MEASURE) s->perf_lost |= (s->ep.perf_mask | s->ep.cpu_mask) & ~o.known;
    s->timing = false;
    s->spent_s += o.elapsed_s;
    if (s->phase == FB__CMP_DONE) return; /* failed inside the epoch */
    if (left) {
        fb__cmp_fail(s, s->cur,
                     "`break` inside FB_ALTERNATIVE's body is not supported: use a flag, or "
                     "fb_compare()");
        return;
    }
    fb__cmp_advance(s, &o);
}

/* The function-pointer form drives the same protocol as FB_COMPARE, so
 * both get the same schedule. */
FB__NOINLINE const fb_comparison *
fb__compare_at(fb_bench *b, const char *title, const fb_alternative *alts, size_t n, int callsite) {
    if (!b) return NULL;
    const char *t = title ? title : b->name ? b->name : b->cfg.title;
    for (size_t i = 0; alts && i < n; ++i)
        if (!alts[i].op) {
            fb__bench_diag(b, "error: comparison '%s': alternative %zu has no op", t, i);
            return NULL;
        }
    if (!alts) n = 0;
    size_t before = b->n_comparisons;
    fb__cmp c = fb__cmp_begin(b, title, callsite);
    if (c.s) c.s->ep.shape = FB__SHAPE_CALL;
    ++b->in_call; /* fb_bench_free from an op is refused */
    while (fb__cmp_next(&c)) {
        for (size_t i = 0; i < n; ++i) {
            uint64_t it = fb__cmp_alt(&c, alts[i].name);
            if (!it) continue;
            fb_op op = alts[i].op;
            void *ctx = alts[i].ctx;
            FB__ALIGN_HERE(); /* the loop's place in its cache lines is fixed (femtobench.h) */
            for (; it; --it) op(ctx);
            fb__cmp_alt_done(&c, it);
        }
        c.pass_ok = 1;
    }
    --b->in_call;
    return b->n_comparisons > before ? b->comparisons[b->n_comparisons - 1] : NULL;
}

const fb_comparison *(fb_compare)(fb_bench *b, const char *title, const fb_alternative *alts,
                                  size_t n) {
    return fb__compare_at(b, title, alts, n, -1);
}
