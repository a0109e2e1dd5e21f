/* The paired, interleaved comparison: the scheduler.
 *
 * All alternatives run the same iteration count per epoch. A round is one
 * epoch of each; each block of K rounds (K alternatives) follows a cyclic
 * Latin square of a fresh random permutation, so every alternative takes
 * every position once per block and a drift that is linear over the block
 * cancels. This file measures, builds the immutable fb_comparison (its
 * statistics: src/compare_stats.c) and publishes it to the bench's
 * comparison sinks (the live table's: src/report_compare.c); it never
 * formats or prints itself. docs/compare.md explains every rule and
 * default. */
#include "compare.h"

#include "bench_state.h"
#include "epoch.h"
#include "clock.h"
#include "disturb.h"
#include "perf.h"
#include "process.h"
#include "settings.h"
#include "manual.h" /* manual timing, excluded regions */
#include "setup.h"
#include "stats.h"
#include "text.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum {
    FB__CMP_DISCOVER,
    FB__CMP_WARMUP,
    FB__CMP_CALIBRATE,
    FB__CMP_MEASURE,
    FB__CMP_COUNT, /* under Callgrind (FEMTOBENCH_VALGRIND): counted, not timed */
    FB__CMP_DONE
};

/* Rounds when `epochs` is not configured: about 7.5 ms of epochs per
 * alternative at the default 250 us epochs, half of nanobench's compare()
 * time with a far narrower interval (docs/compare.md); a multiple of 2, 3,
 * 5 and 6 (rounded up to whole blocks for other counts). */
#define FB__CMP_DEFAULT_ROUNDS 30
/* The error rate of the whole table. */
#define FB__CMP_ALPHA 0.05
/* As in src/run.c: an epoch reaching 2/3 of the target is close enough;
 * 100,000 iterations under 10 ps each is an op optimized away. */
#define FB__CMP_CLOSE_ENOUGH (2.0 / 3.0)
#define FB__CMP_MAX_ITERS 1e10
#define FB__CMP_AWAY_ITERS 100000
#define FB__CMP_AWAY_S 1e-11
/* The time budget counts an alternative's epoch at most this many targets. */
#define FB__CMP_SLOW_EPOCHS 8.0

struct fb__cmp_state {
    fb__epoch ep; /* everything around an epoch (src/epoch.c); ep.name: the title */
    /* alternatives, from the first pass */
    size_t k, cap;
    char **names;
    bool bad;      /* bad input: nothing is measured or recorded */
    size_t failed; /* the alternative that could not be measured, or k */
    char *fail_msg;
    fb__mask perf_lost; /* counters unknown in some measured epoch */
    double target_s, budget_s, confidence;
    uint64_t min_iters, exact_iters, warmup;
    fb_rng rng;
    /* schedule */
    int phase;
    bool started;
    size_t pass_pos;  /* FB_ALTERNATIVEs met in this pass */
    bool ran;         /* an epoch ran in this pass */
    bool timing;      /* inside an epoch */
    size_t cur;       /* alternative of the coming epoch */
    uint64_t n;       /* its iterations */
    double *per_iter; /* calibration: seconds per iteration of each */
    bool confirming;  /* calibration: the epoch repeats a close-enough one */
    double first_s;   /* that one's time */
    uint64_t shared;
    size_t rounds_max, rounds_min, round, pos;
    bool whole_blocks; /* rounds in whole blocks of k (a complete Latin square) */
    size_t *perm;
    double spent_s;
    /* per alternative and round: [alt * rounds_max + round] */
    uint64_t *ticks_ns;
    double *counts[FB_MEASURE_COUNT];
    unsigned char *disturbed; /* the epoch routine's disturbance flag */
    /* counted under Callgrind: each alternative's counted schedule in turn
     * (src/valgrind.c), its counts (or error) kept in counted[i] */
    bool counted;
    fb_result **counted_res;
};

/* ------------------------------------------------------------- schedule */

/* Closes the comparison's epoch context (the hook's run_end among it) and
 * frees it. */
static void fb__cmp_state_free(struct fb__cmp_state *s) {
    if (!s) return;
    fb__epoch_close(&s->ep);
    for (size_t i = 0; i < s->k; ++i) free(s->names[i]);
    free(s->names);
    free(s->fail_msg);
    free(s->per_iter);
    free(s->perm);
    free(s->ticks_ns);
    free(s->disturbed);
    for (size_t i = 0; s->counted_res && i < s->k; ++i) fb__result_free(s->counted_res[i]);
    free(s->counted_res);
    for (int m = 0; m < FB_MEASURE_COUNT; ++m) free(s->counts[m]);
    free(s);
}

/* Stops the comparison: alternative `alt` (k: none in particular) failed. */
static void fb__cmp_fail(struct fb__cmp_state *s, size_t alt, const char *msg) {
    if (!s->fail_msg) {
        s->failed = alt;
        s->fail_msg = fb__strdup(msg);
    }
    s->phase = FB__CMP_DONE;
}

/* Bad input: one error line on the diagnostics stream, nothing recorded. */
static void fb__cmp_bad(struct fb__cmp_state *s, const char *what, const char *name) {
    if (name)
        fb__bench_diag(s->ep.b, "error: comparison '%s': %s `%s`", s->ep.name, what, name);
    else
        fb__bench_diag(s->ep.b, "error: comparison '%s': %s", s->ep.name, what);
    s->bad = true;
    s->phase = FB__CMP_DONE;
}

static void fb__cmp_new_block(struct fb__cmp_state *s) {
    for (size_t i = 0; i < s->k; ++i) s->perm[i] = i;
    for (size_t i = s->k - 1; i > 0; --i) { /* Fisher-Yates */
        size_t j = fb_rng_bounded(&s->rng, (uint32_t)(i + 1));
        size_t t = s->perm[i];
        s->perm[i] = s->perm[j];
        s->perm[j] = t;
    }
}

/* Round r of a block runs the permutation rotated by r: a cyclic Latin square. */
static size_t fb__cmp_order(const struct fb__cmp_state *s, size_t round, size_t pos) {
    return s->perm[(round % s->k + pos) % s->k];
}

static void fb__cmp_start_measure(struct fb__cmp_state *s) {
    const double *cfg = s->ep.config.num;
    if (s->exact_iters) {
        s->shared = s->exact_iters;
    } else {
        /* the shared count gives the slowest its target epoch, raised where
         * the fastest's epoch would fall under the clock's resolution x
         * clock_resolution_multiple, capped so the slowest stays within
         * max_epoch_time (nanobench's rule): no epoch much longer than the
         * target, so no side gets more exposure to preemption */
        double fast = s->per_iter[0], slow = s->per_iter[0];
        for (size_t i = 1; i < s->k; ++i) {
            if (s->per_iter[i] < fast) fast = s->per_iter[i];
            if (s->per_iter[i] > slow) slow = s->per_iter[i];
        }
        double n = ceil(s->target_s / slow);
        double resolvable =
            s->ep.clock_info.resolution_s * cfg[FB__K_CLOCK_RESOLUTION_MULTIPLE] / fast;
        if (n < ceil(resolvable)) n = ceil(resolvable);
        if (n * slow > cfg[FB__K_MAX_EPOCH_TIME]) n = floor(cfg[FB__K_MAX_EPOCH_TIME] / slow);
        if (n > FB__CMP_MAX_ITERS) n = FB__CMP_MAX_ITERS;
        s->shared = n < (double)s->min_iters ? s->min_iters : (uint64_t)n;
        /* The time budget only bites for slow ops, as in fb_run: when an
         * alternative's epoch is expected to outlast FB__CMP_SLOW_EPOCHS x
         * the target (single calls slower than that). Then each alternative
         * gets max(max_total_time, 1.5 x rounds x its epoch, capped there).
         * Otherwise all rounds run: the time is bounded by the rounds, and
         * cutting them on time would let a preempted epoch (time the machine
         * took away) decide how wide the interval is. */
        bool slow_op = false;
        double budget = 0;
        for (size_t i = 0; i < s->k; ++i) {
            double epoch = (double)s->shared * s->per_iter[i];
            if (epoch > FB__CMP_SLOW_EPOCHS * s->target_s) {
                slow_op = true;
                epoch = FB__CMP_SLOW_EPOCHS * s->target_s;
            }
            double per_alt = 1.5 * (double)s->rounds_max * epoch;
            budget += per_alt > cfg[FB__K_MAX_TOTAL_TIME] ? per_alt : cfg[FB__K_MAX_TOTAL_TIME];
        }
        /* no budget when the epoch hook fixed the rounds */
        s->budget_s = slow_op && !s->ep.hook_epochs ? budget : INFINITY;
    }
    s->phase = FB__CMP_MEASURE;
    s->round = s->pos = 0;
    fb__cmp_new_block(s);
    s->cur = fb__cmp_order(s, 0, 0);
    s->n = s->shared;
}

/* Under Callgrind: alternative s->cur's counted schedule starts (the
 * Callgrind hooks of the epoch routine named title/alternative). */
static void fb__cmp_start_count(struct fb__cmp_state *s) {
    char name[256]; /* the dump's trigger names it (cut: only a label) */
    snprintf(name, sizeof name, "%s/%s", s->ep.name, s->names[s->cur]);
    fb__epoch_set_vg(&s->ep, name, s->exact_iters, s->min_iters);
    if (!fb__vg_exact(s->ep.vg)) {
        fb__cmp_fail(s, s->k, "out of memory");
        return;
    }
    s->phase = FB__CMP_COUNT;
    s->n = fb__vg_first(s->ep.vg);
}

static void fb__cmp_start_calibration(struct fb__cmp_state *s) {
    if (s->exact_iters) {
        fb__cmp_start_measure(s);
        return;
    }
    s->phase = FB__CMP_CALIBRATE;
    s->cur = 0;
    s->n = s->min_iters;
}

/* After the first pass: checks the alternatives and prepares everything,
 * so that no epoch allocates. */
static void fb__cmp_setup(struct fb__cmp_state *s) {
    fb_bench *b = s->ep.b;
    fb__epoch *e = &s->ep;
    double *cfg = e->config.num;
    char msg[96];
    if (s->k < 2) {
        snprintf(msg, sizeof msg, "needs at least two alternatives, got %zu", s->k);
        fb__cmp_bad(s, msg, NULL);
        return;
    }
    for (size_t i = 0; i < s->k; ++i) {
        if (!s->names[i]) {
            snprintf(msg, sizeof msg, "alternative %zu has no name", i);
            fb__cmp_bad(s, msg, NULL);
            return;
        }
        for (size_t j = 0; j < i; ++j)
            if (s->names[j] && strcmp(s->names[i], s->names[j]) == 0) {
                fb__cmp_bad(s, "two alternatives are named", s->names[i]);
                return;
            }
    }
    s->failed = s->k;
    if (!fb__epoch_hook_begin(e)) { /* the epoch hook skips this comparison */
        s->bad = true;
        s->phase = FB__CMP_DONE;
        return;
    }
    /* what the epoch hook fixed replaces the configuration */
    if (e->hook_iters) cfg[FB__K_EPOCH_ITERATIONS] = (double)e->hook_iters;
    s->confidence = 1.0 - FB__CMP_ALPHA / (double)(s->k - 1);
    bool epochs_set = false;
    for (int layer = 0; layer < FB__LAYERS; ++layer)
        if (b->layers[layer].set & (1u << FB__K_EPOCHS)) epochs_set = true;
    size_t rounds =
        epochs_set && cfg[FB__K_EPOCHS] >= 1 ? (size_t)cfg[FB__K_EPOCHS] : FB__CMP_DEFAULT_ROUNDS;
    /* enough rounds for an interval; whole blocks (a complete Latin
     * square) when a block of K rounds fits in the rounds asked for, else
     * the rounds asked for: each still one epoch of every alternative in a
     * rotated random order, but not every alternative in every position (an
     * incomplete square). So a comparison runs K x rounds epochs, never K x K
     * when K outgrows the rounds. */
    size_t min = fb__cmp_min_rounds(s->confidence);
    if (rounds < min) rounds = min;
    s->whole_blocks = s->k <= rounds;
    s->rounds_min = s->whole_blocks ? (min + s->k - 1) / s->k * s->k : min;
    s->rounds_max = s->whole_blocks ? (rounds + s->k - 1) / s->k * s->k : rounds;
    if (e->hook_epochs) { /* the epoch hook fixed the rounds: exactly those */
        s->rounds_max = e->hook_epochs;
        s->whole_blocks = false;
        if (s->rounds_min > s->rounds_max) s->rounds_min = s->rounds_max;
    }
    /* the runner's -min_time: spread over the epochs each alternative really
     * has (its rounds), as src/run.c spreads it over a run's epochs */
    if (s->ep.config.min_time_s > 0 &&
        cfg[FB__K_MIN_EPOCH_TIME] < s->ep.config.min_time_s / (double)s->rounds_max)
        s->ep.config.num[FB__K_MIN_EPOCH_TIME] = s->ep.config.min_time_s / (double)s->rounds_max;
    double target = s->ep.clock_info.resolution_s * cfg[FB__K_CLOCK_RESOLUTION_MULTIPLE];
    if (target > cfg[FB__K_MAX_EPOCH_TIME]) target = cfg[FB__K_MAX_EPOCH_TIME];
    if (target < cfg[FB__K_MIN_EPOCH_TIME]) target = cfg[FB__K_MIN_EPOCH_TIME];
    s->target_s = target;
    /* no time budget with an exact iteration count (the user sized the
     * epochs); fb__cmp_start_measure sets it after calibration */
    s->budget_s = INFINITY;
    s->exact_iters = (uint64_t)cfg[FB__K_EPOCH_ITERATIONS];
    s->min_iters =
        cfg[FB__K_MIN_EPOCH_ITERATIONS] >= 1 ? (uint64_t)cfg[FB__K_MIN_EPOCH_ITERATIONS] : 1;
    s->warmup = (uint64_t)cfg[FB__K_WARMUP];
    fb_rng_seed(&s->rng, 123);

    size_t cells = s->k * s->rounds_max;
    s->per_iter = calloc(s->k, sizeof *s->per_iter);
    s->perm = calloc(s->k, sizeof *s->perm);
    s->ticks_ns = calloc(cells, sizeof *s->ticks_ns);
    if (!s->per_iter || !s->perm || !s->ticks_ns) {
        fb__cmp_fail(s, s->k, "out of memory");
        return;
    }
    s->disturbed = calloc(cells, 1);
    if (!s->disturbed) {
        fb__cmp_fail(s, s->k, "out of memory");
        return;
    }
    for (int m = 1; m < FB_MEASURE_COUNT; ++m)
        if (s->ep.perf_mask & FB__BIT(m)) {
            s->counts[m] = calloc(cells, sizeof(double));
            if (!s->counts[m]) s->ep.perf_mask &= ~FB__BIT(m);
        }
    if (fb__process_callgrind()->exact) {
        /* -valgrind: each alternative counted exactly, one after the other
         * (a count does not drift with the machine, so nothing needs
         * interleaving); the ratio is the ratio of the counts */
        s->counted = true;
        s->ep.probe = NULL; /* counted: the machine's state does not matter */
        s->counted_res = calloc(s->k, sizeof *s->counted_res);
        for (size_t i = 0; s->counted_res && i < s->k; ++i)
            if (!(s->counted_res[i] = calloc(1, sizeof(fb_result)))) break;
        if (!s->counted_res || !s->counted_res[s->k - 1]) {
            fb__cmp_fail(s, s->k, "out of memory");
            return;
        }
        s->cur = 0;
        fb__cmp_start_count(s);
    } else if (s->warmup) {
        s->phase = FB__CMP_WARMUP;
        s->cur = 0;
        s->n = s->warmup;
    } else {
        fb__cmp_start_calibration(s);
    }
}

/* One epoch of alternative s->cur ended: record it, pick the next one. */
static void fb__cmp_advance(struct fb__cmp_state *s, const fb__epoch_out *o) {
    double e = o->elapsed_s;
    uint64_t n = s->n;
    switch (s->phase) {
    case FB__CMP_WARMUP:
        if (++s->cur == s->k) fb__cmp_start_calibration(s);
        break;
    case FB__CMP_CALIBRATE:
        if (e >= FB__CMP_CLOSE_ENOUGH * s->target_s) {
            /* close enough: once more at the same count, and the faster of
             * the two counts (as nanobench: two consecutive attempts), so
             * one preempted epoch cannot shrink the shared count */
            if (!s->confirming) {
                s->confirming = true;
                s->first_s = e;
                break;
            }
            s->confirming = false;
            s->per_iter[s->cur] = (e < s->first_s ? e : s->first_s) / (double)n;
            s->n = s->min_iters;
            if (++s->cur == s->k) fb__cmp_start_measure(s);
        } else if (s->confirming) {
            /* the second attempt came out shorter: the first was slowed */
            s->confirming = false;
            s->per_iter[s->cur] = e / (double)n;
            s->n = s->min_iters;
            if (++s->cur == s->k) fb__cmp_start_measure(s);
        } else if (e * 10 < s->target_s) {
            if ((n >= FB__CMP_AWAY_ITERS && e < (double)n * FB__CMP_AWAY_S) ||
                (double)n * 10 > FB__CMP_MAX_ITERS) {
                fb__cmp_fail(s, s->cur,
                             "time does not grow with iterations: was the op optimized "
                             "away? Keep its result alive with fb_do_not_optimize()");
                return;
            }
            s->n = n * 10;
        } else {
            double next = ceil((double)n * s->target_s / e);
            s->n = next > FB__CMP_MAX_ITERS ? (uint64_t)FB__CMP_MAX_ITERS : (uint64_t)next;
        }
        break;
    case FB__CMP_MEASURE: {
        size_t cell = s->cur * s->rounds_max + s->round;
        s->ticks_ns[cell] = o->ticks_ns;
        s->disturbed[cell] = o->disturbed;
        for (int m = 1; m < FB_MEASURE_COUNT; ++m)
            if (s->ep.perf_mask & FB__BIT(m)) s->counts[m][cell] = o->counts[m];
        if (++s->pos == s->k) {
            s->pos = 0;
            bool block_end = ++s->round % s->k == 0;
            /* the time budget ends a comparison between whole blocks, or
             * between rounds of an incomplete square */
            if (s->round >= s->rounds_max ||
                ((block_end || !s->whole_blocks) && s->spent_s >= s->budget_s &&
                 s->round >= s->rounds_min)) {
                s->phase = FB__CMP_DONE;
                return;
            }
            if (block_end) fb__cmp_new_block(s);
        }
        s->cur = fb__cmp_order(s, s->round, s->pos);
        break;
    }
    case FB__CMP_COUNT: {
        /* the next epoch of this alternative's counted schedule; when it is
         * complete, its counts (or error) and the next alternative's */
        uint64_t next = fb__vg_next(s->ep.vg);
        if (next) {
            s->n = next;
            break;
        }
        fb__vg_finish(s->ep.vg, s->counted_res[s->cur]);
        if (!s->counted_res[s->cur]->vg && !s->counted_res[s->cur]->error) {
            fb__cmp_fail(s, s->k, "out of memory");
            return;
        }
        if (++s->cur == s->k)
            s->phase = FB__CMP_DONE;
        else
            fb__cmp_start_count(s);
        break;
    }
    default:
        break;
    }
}

/* ------------------------------------------------------ the comparison */

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
    res->has = FB__BIT(FB_ELAPSED) | (s->ep.perf_mask & ~s->perf_lost);
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
        /* the ratios of the exact counts (src/compare_stats.c) */
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
static void fb__cmp_finish(fb__cmp *cmp) {
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

/* ------------------------------------------------- the loop protocol */

fb__cmp fb__cmp_begin(fb_bench *b, const char *title, int callsite) {
    fb__cmp c = {NULL, 1};
    if (!title) title = b->name ? b->name : b->cfg.title;
    /* nested in a run or a comparison of this bench: refused, keeping the
     * outer one; said once and counted (src/epoch.c) */
    if (fb__epoch_refuse(b, "comparison", title)) return c;
    struct fb__cmp_state *s = calloc(1, sizeof *s);
    if (!s || fb__epoch_open(&s->ep, b, fb__strdup(title), callsite) != FB_OK) {
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
    fb__manual_epoch_begin(s->ep.b); /* src/manual.c: manual time, excluded regions */
    fb__epoch_start(&s->ep);         /* its last act reads the clock */
    return s->n;
}

void fb__cmp_alt_done(fb__cmp *c, uint64_t left) {
    struct fb__cmp_state *s = c->s;
    fb__epoch_out o;
    fb__epoch_stop(&s->ep, s->n, &o);
    /* the time the body gave (fb_set_iteration_time), or the clock's less
     * the excluded regions, as a run's epoch (src/manual.c) */
    if (s->ep.b->manual.on || s->ep.b->manual.excluded_ns) {
        o.elapsed_s = fb__manual_epoch_time(s->ep.b, o.elapsed_s);
        o.ticks_ns = (uint64_t)(o.elapsed_s * 1e9 + 0.5); /* what the rounds keep */
    }
    if (s->phase == FB__CMP_MEASURE) s->perf_lost |= s->ep.perf_mask & ~o.known;
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
