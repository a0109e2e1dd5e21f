/* The paired, interleaved comparison's schedule (src/run/compare_state.h).
 *
 * All alternatives run the same iteration count per epoch. A round is one
 * epoch of each; each block of K rounds (K alternatives) follows a cyclic
 * Latin square of a fresh random permutation, so every alternative takes
 * every position once per block and a drift that is linear over the block
 * cancels. docs/compare.md explains every rule and default. */
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

/* Rounds when `epochs` is not configured: about 7.5 ms of epochs per
 * alternative at the default 250 us epochs, half of nanobench's compare()
 * time with a far narrower interval (docs/compare.md); a multiple of 2, 3,
 * 5 and 6 (rounded up to whole blocks for other counts). */
#define FB__CMP_DEFAULT_ROUNDS 30
/* The error rate of the whole table. */
#define FB__CMP_ALPHA 0.05
/* As in src/run/run.c: an epoch reaching 2/3 of the target is close enough;
 * 100,000 iterations under 10 ps each is an op optimized away. */
#define FB__CMP_CLOSE_ENOUGH (2.0 / 3.0)
#define FB__CMP_MAX_ITERS 1e10
#define FB__CMP_AWAY_ITERS 100000
#define FB__CMP_AWAY_S 1e-11
/* At most this many alternatives in one comparison: every alternative runs
 * every round (about 40 epochs each with calibration, 10 ms at the default
 * 250 us epochs; much more when the alternatives' costs differ, as the
 * shared count follows the slowest and the fastest). Beyond it the run is
 * refused before any epoch, with a line that says why. */
#define FB__CMP_MAX_ALTERNATIVES 100
/* The time budget counts an alternative's epoch at most this many targets. */
#define FB__CMP_SLOW_EPOCHS 8.0
/* min_time's epochs at most, over all alternatives (34 MB of per-round
 * arrays; 2 alternatives: 4 minutes each of 250 us epochs) */
#define FB__CMP_MAX_MIN_TIME_CELLS 2e6

/* Closes the comparison's epoch context (the hook's run_end among it) and
 * frees it. */
void fb__cmp_state_free(struct fb__cmp_state *s) {
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
void fb__cmp_fail(struct fb__cmp_state *s, size_t alt, const char *msg) {
    if (!s->fail_msg) {
        s->failed = alt;
        s->fail_msg = fb__strdup(msg);
    }
    s->phase = FB__CMP_DONE;
}

/* Bad input: one error line on the diagnostics stream, nothing recorded
 * (counted: the runner's row for the benchmark says it recorded nothing). */
void fb__cmp_bad(struct fb__cmp_state *s, const char *what, const char *name) {
    if (name)
        fb__bench_diag(s->ep.b, "error: comparison '%s': %s `%s`", s->ep.name, what, name);
    else
        fb__bench_diag(s->ep.b, "error: comparison '%s': %s", s->ep.name, what);
    ++s->ep.b->dropped;
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

/* min_time (the runner's -min_time, fb_set_min_time): more rounds of the
 * usual epochs, never longer epochs, as a run records more epochs
 * (src/run/rounds.c), so that a preemption stays one short epoch. Each
 * alternative holds the time asked for: the rounds come from the fastest
 * one's epoch, at the shared count. Up to FB__CMP_MAX_MIN_TIME_CELLS. Not
 * when the epoch hook fixed the rounds. Nothing is recorded yet, so the
 * per-round arrays are allocated again at the new size. */
static void fb__cmp_min_time_rounds(struct fb__cmp_state *s) {
    double min_time_s = s->ep.config.num[FB__K_MIN_TIME];
    if (!(min_time_s > 0) || s->ep.hook_epochs) return;
    double fast = s->per_iter[0];
    for (size_t i = 1; i < s->k; ++i)
        if (s->per_iter[i] < fast) fast = s->per_iter[i];
    double epoch = (double)s->shared * fast;
    if (!(epoch > 0)) return;
    double need = ceil(min_time_s / epoch);
    if (need > FB__CMP_MAX_MIN_TIME_CELLS / (double)s->k)
        need = floor(FB__CMP_MAX_MIN_TIME_CELLS / (double)s->k);
    size_t want = (size_t)need;
    if (s->whole_blocks) want = (want + s->k - 1) / s->k * s->k;
    if (want <= s->rounds_max) return;
    size_t cells = s->k * want;
    free(s->ticks_ns);
    free(s->disturbed);
    s->ticks_ns = calloc(cells, sizeof *s->ticks_ns);
    s->disturbed = calloc(cells, 1);
    bool ok = s->ticks_ns && s->disturbed;
    for (int m = 1; m < FB_MEASURE_COUNT; ++m)
        if (s->counts[m]) {
            free(s->counts[m]);
            s->counts[m] = calloc(cells, sizeof(double));
            ok = ok && s->counts[m];
        }
    s->rounds_max = want;
    if (!ok) fb__cmp_fail(s, s->k, "out of memory");
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
        fb__cmp_min_time_rounds(s);           /* before the budget, which counts the rounds */
        if (s->phase == FB__CMP_DONE) return; /* out of memory */
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
void fb__cmp_setup(struct fb__cmp_state *s) {
    fb__epoch *e = &s->ep;
    double *cfg = e->config.num;
    char msg[256];
    if (s->k < 2) {
        snprintf(msg, sizeof msg, "needs at least two alternatives, got %zu", s->k);
        fb__cmp_bad(s, msg, NULL);
        return;
    }
    if (s->k > FB__CMP_MAX_ALTERNATIVES) {
        snprintf(msg, sizeof msg,
                 "%zu alternatives: at most %d in one comparison (each runs every round, so "
                 "the time grows with their number); split them into several comparisons "
                 "that share a baseline, or make them a family (FB_BENCHMARK_ARGS)",
                 s->k, FB__CMP_MAX_ALTERNATIVES);
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
    bool epochs_set = fb__config_set_by_user(&e->config, FB__K_EPOCHS);
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
    s->target_s = fb__config_epoch_target(&s->ep.config, s->ep.clock_info.resolution_s);
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
        if ((s->ep.perf_mask | s->ep.cpu_mask) & FB__BIT(m)) {
            s->counts[m] = calloc(cells, sizeof(double));
            if (!s->counts[m]) {
                s->ep.perf_mask &= ~FB__BIT(m);
                s->ep.cpu_mask &= ~FB__BIT(m);
            }
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
void fb__cmp_advance(struct fb__cmp_state *s, const fb__epoch_out *o) {
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
                /* the op is blamed only when the time came from a clock that moved */
                const char *why = fb__epoch_no_time_why(&s->ep);
                fb__cmp_fail(s, s->cur,
                             why ? why
                                 : "time does not grow with iterations: was the op optimized "
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
        for (int m = 1; m < FB_MEASURE_COUNT; ++m) /* the counters, the CPU time */
            if ((s->ep.perf_mask | s->ep.cpu_mask) & FB__BIT(m)) s->counts[m][cell] = o->counts[m];
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
