/* The finished comparison (src/run/compare_state.h): the measured rounds become
 * the immutable fb_comparison (its statistics: src/stats/compare_stats.c), which
 * the bench stores and hands to its comparison sinks (the live table's:
 * src/outputs/report_compare.c). Nothing here formats or prints. */
#include "compare_state.h"

#include "bench_state.h"
#include "clock.h"
#include "disturb.h"
#include "epoch.h"
#include "perf.h"
#include "process.h"
#include "settings.h"
#include "setup.h"
#include "stats.h"
#include "text.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The measured alternative i as a result: one epoch per round, the
 * comparison's configuration by value under its title, never relative. */
static fb_result *fb__cmp_result(struct fb__cmp_state *s, size_t i, size_t rounds,
                                 const char *failed_name) {
    fb_result *res = calloc(1, sizeof *res);
    if (!res) return NULL;
    if (fb__config_copy(&res->config, &s->ep.config) != FB_OK) {
        free(res);
        return NULL;
    }
    free(res->config.title);
    res->config.title = fb__strdup(s->ep.name);
    res->config.relative = false;
    res->callsite = s->ep.callsite;
    res->clock_resolution_s = s->ep.clock_info.resolution_s;
    res->clock_overhead_s = s->ep.clock_info.overhead_s;
    res->empty_loop_s = s->ep.clock_info.empty_loop_s;
    res->name = s->names[i];
    s->names[i] = NULL;
    if (!res->config.title || !res->name) {
        fb__result_free(res);
        return NULL;
    }
    if (s->counted && !s->fail_msg) {
        /* the counts of its counted schedule: two epochs (n, 2n), no time */
        fb_result *t = s->counted_res[i];
        res->vg = t->vg;
        res->error = t->error;
        res->iterations = t->iterations;
        res->epochs = t->epochs;
        t->vg = NULL;
        t->error = NULL;
        t->iterations = NULL;
        t->epochs = 0;
        fb__stats_compute(res);
        return res;
    }
    if (s->fail_msg) {
        char msg[512];
        if (i == s->failed || s->failed == s->k)
            snprintf(msg, sizeof msg, "%s", s->fail_msg);
        else
            snprintf(msg, sizeof msg, "not compared: `%s` could not be measured",
                     failed_name ? failed_name : "?");
        res->error = fb__strdup(msg);
        if (!res->error) {
            fb__result_free(res);
            return NULL;
        }
        return res;
    }
    res->epochs = rounds;
    res->iterations = malloc(rounds * sizeof *res->iterations);
    res->has = FB__BIT(FB_ELAPSED) | ((s->ep.perf_mask | s->ep.cpu_mask) & ~s->perf_lost);
    for (int m = 0; m < FB_MEASURE_COUNT; ++m) {
        if (!(res->has & FB__BIT(m))) continue;
        res->values[m] = malloc(rounds * sizeof(double));
        if (!res->values[m]) {
            fb__result_free(res);
            return NULL;
        }
    }
    if (!res->iterations) {
        fb__result_free(res);
        return NULL;
    }
    res->epoch_flags = calloc(rounds ? rounds : 1, 1);
    if (!res->epoch_flags) {
        fb__result_free(res);
        return NULL;
    }
    fb__epoch_mark(&s->ep, res);
    double n = (double)s->shared;
    for (size_t r = 0; r < rounds; ++r) {
        size_t cell = i * s->rounds_max + r;
        if (s->disturbed[cell]) {
            res->epoch_flags[r] = FB__EPOCH_DISTURBED; /* flagged; the pairing drops it */
            res->disturbed++;
        }
        res->iterations[r] = s->shared;
        res->values[FB_ELAPSED][r] = (double)s->ticks_ns[cell] * 1e-9 / n;
        for (int m = 1; m < FB_MEASURE_COUNT; ++m)
            if (res->has & FB__BIT(m)) res->values[m][r] = s->counts[m][cell] / n;
    }
    fb__stats_compute(res);
    return res;
}

/* The immutable comparison of what was measured (NULL: out of memory). */
static fb_comparison *fb__cmp_build(struct fb__cmp_state *s) {
    size_t k = s->k, rounds = s->fail_msg || s->counted ? 0 : s->round;
    fb__epoch_probe_end(&s->ep); /* the probe after the last epoch: marks the results */
    fb_comparison *c = fb__comparison_alloc(s->ep.name, k, rounds);
    if (!c) return NULL;
    c->iterations = s->fail_msg ? 0 : s->shared;
    c->confidence = s->confidence;
    bool ok = true;
    if (s->fail_msg) {
        char msg[600];
        if (s->failed < k)
            snprintf(msg, sizeof msg, "`%s`: %s", s->names[s->failed] ? s->names[s->failed] : "?",
                     s->fail_msg);
        else
            snprintf(msg, sizeof msg, "%s", s->fail_msg);
        ok = (c->error = fb__strdup(msg)) != NULL;
    }
    /* the others' errors quote the failed one's name, which moves to its result */
    char *failed_name = s->fail_msg && s->failed < k ? fb__strdup(s->names[s->failed]) : NULL;
    for (size_t i = 0; ok && i < k; ++i)
        ok = (c->results[i] = fb__cmp_result(s, i, rounds, failed_name)) != NULL;
    free(failed_name);
    if (!ok) {
        fb__comparison_free(c);
        return NULL;
    }
    if (s->counted && !s->fail_msg) {
        /* the ratios of the exact counts (src/stats/compare_stats.c) */
        if (fb__comparison_counted(c) != FB_OK) {
            fb__comparison_free(c);
            return NULL;
        }
        return c;
    }
    if (!rounds) return c;
    /* Rounds where an epoch was preempted (the context-switch counter, where
     * it works) are left out, as long as the rounds an interval needs
     * remain: a preempted epoch measures the machine, and preemption need
     * not hit all alternatives alike (it is more likely in the longer
     * epochs, and it can alias with the schedule). */
    bool *skip = calloc(rounds, sizeof *skip);
    if (!skip) {
        fb__comparison_free(c);
        return NULL;
    }
    /* an epoch was preempted when the epoch routine's disturbance source
     * says so, or the context-switch counter counted one */
    double *hit = calloc(k * s->rounds_max, sizeof *hit);
    if (!hit) {
        free(skip);
        fb__comparison_free(c);
        return NULL;
    }
    bool cs = (s->ep.perf_mask & ~s->perf_lost) & FB__BIT(FB_CONTEXTSWITCHES);
    for (size_t i = 0; i < k * s->rounds_max; ++i)
        hit[i] = s->disturbed[i] || (cs && s->counts[FB_CONTEXTSWITCHES][i] >= 0.5) ? 1 : 0;
    c->preempted = fb__cmp_preempted(hit, k, s->rounds_max, rounds, s->rounds_min, skip);
    free(hit);
    int rc = fb__comparison_analyze(c, skip);
    free(skip);
    if (rc != FB_OK) {
        fb__comparison_free(c);
        return NULL;
    }
    return c;
}

/* The block ended: build the comparison and publish it (the bench stores
 * it and hands it to its comparison sinks, the live table among them). */
void fb__cmp_finish(fb__cmp *cmp) {
    struct fb__cmp_state *s = cmp->s;
    fb_bench *b = s->ep.b;
    cmp->s = NULL;
    b->cmp = NULL;
    b->cmp_free = NULL;
    fb_comparison *c = s->bad ? NULL : fb__cmp_build(s);
    /* the bench is free again (and the hook told) before the sinks see it */
    fb__cmp_state_free(s);
    if (c) fb__bench_publish_comparison(b, c);
}
