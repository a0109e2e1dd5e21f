/* The paired, interleaved comparison: scheduling and statistics.
 *
 * All alternatives run the same iteration count per epoch. A round is one
 * epoch of each; each block of K rounds (K alternatives) follows a cyclic
 * Latin square of a fresh random permutation, so every alternative takes
 * every position once per block and a drift that is linear over the block
 * cancels. Each round gives ln(t_baseline) - ln(t_i); the ratio is the exp
 * of their median, with a sign-test (binomial order statistic) interval,
 * Bonferroni-corrected over the K - 1 comparisons. This file measures and
 * builds the immutable fb_comparison; src/report_compare.c formats it.
 * docs/compare.md explains every rule and default. */
#include "compare.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { FB__CMP_DISCOVER, FB__CMP_WARMUP, FB__CMP_CALIBRATE, FB__CMP_MEASURE, FB__CMP_DONE };

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
    fb_bench *b;
    char *title;
    int callsite;
    int shape;
    /* alternatives, from the first pass */
    size_t k, cap;
    char **names;
    bool bad;      /* bad input: nothing is measured or recorded */
    size_t failed; /* the alternative that could not be measured, or k */
    char *fail_msg;
    /* configuration */
    double cfg[FB__K_COUNT];
    fb_clock_fn clock;
    void *clock_ctx;
    fb__clock_info clock_info;
    fb__perf *perf;
    fb__mask perf_mask, perf_lost;
    double target_s, budget_s, confidence;
    uint64_t min_iters, exact_iters, warmup;
    fb_rng rng;
    /* schedule */
    int phase;
    bool started;
    size_t pass_pos; /* FB_ALTERNATIVEs met in this pass */
    bool ran;        /* an epoch ran in this pass */
    bool timing;     /* inside an epoch */
    size_t cur;      /* alternative of the coming epoch */
    uint64_t n;      /* its iterations */
    uint64_t t0;
    double *per_iter; /* calibration: seconds per iteration of each */
    bool confirming;  /* calibration: the epoch repeats a close-enough one */
    double first_s;   /* that one's time */
    uint64_t shared;
    size_t rounds_max, rounds_min, round, pos;
    size_t *perm;
    double spent_s;
    /* per alternative and round: [alt * rounds_max + round] */
    uint64_t *ticks_ns;
    double *counts[FB_MEASURE_COUNT];
};

static uint64_t fb__cmp_default_clock(void *ctx) {
    (void)ctx;
    return fb__clock_now_ns();
}

/* ------------------------------------------------------------ statistics */

static int fb__cmp_dbl_order(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y ? 1 : 0;
}

size_t fb__cmp_min_rounds(double confidence) {
    double half_alpha = (1.0 - confidence) / 2;
    size_t n = 1;
    while (ldexp(1.0, -(int)n) > half_alpha && n < 64) ++n;
    return n;
}

bool fb__cmp_interval(double *v, size_t n, double confidence, double *median, double *low,
                      double *high) {
    *median = *low = *high = NAN;
    if (!n) return false;
    qsort(v, n, sizeof *v, fb__cmp_dbl_order);
    *median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    /* k: the largest with P(Bin(n, 1/2) <= k - 1) <= alpha / 2, exactly */
    double half_alpha = (1.0 - confidence) / 2, cum = 0, dn = (double)n;
    size_t k = 0;
    for (size_t j = 0; j < n / 2 + 1; ++j) {
        double dj = (double)j;
        cum += exp(lgamma(dn + 1) - lgamma(dj + 1) - lgamma(dn - dj + 1) - dn * log(2.0));
        if (cum > half_alpha) break;
        k = j + 1;
    }
    if (k == 0) return false;
    *low = v[k - 1];
    *high = v[n - k];
    return true;
}

/* ------------------------------------------------------------- schedule */

static void fb__cmp_state_free(struct fb__cmp_state *s) {
    if (!s) return;
    free(s->title);
    for (size_t i = 0; i < s->k; ++i) free(s->names[i]);
    free(s->names);
    free(s->fail_msg);
    free(s->per_iter);
    free(s->perm);
    free(s->ticks_ns);
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

static void fb__cmp_bad(struct fb__cmp_state *s, const char *what, const char *name) {
    if (s->b->out) {
        fprintf(s->b->out, "femtobench: error: comparison '%s': %s", s->title, what);
        if (name) {
            fputs(" `", s->b->out);
            fb__md_text(s->b->out, name);
            fputc('`', s->b->out);
        }
        fputc('\n', s->b->out);
    }
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
            s->clock_info.resolution_s * s->cfg[FB__K_CLOCK_RESOLUTION_MULTIPLE] / fast;
        if (n < ceil(resolvable)) n = ceil(resolvable);
        if (n * slow > s->cfg[FB__K_MAX_EPOCH_TIME]) n = floor(s->cfg[FB__K_MAX_EPOCH_TIME] / slow);
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
            budget +=
                per_alt > s->cfg[FB__K_MAX_TOTAL_TIME] ? per_alt : s->cfg[FB__K_MAX_TOTAL_TIME];
        }
        s->budget_s = slow_op ? budget : INFINITY;
    }
    s->phase = FB__CMP_MEASURE;
    s->round = s->pos = 0;
    fb__cmp_new_block(s);
    s->cur = fb__cmp_order(s, 0, 0);
    s->n = s->shared;
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
    fb_bench *b = s->b;
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
    s->confidence = 1.0 - FB__CMP_ALPHA / (double)(s->k - 1);
    double target = s->clock_info.resolution_s * s->cfg[FB__K_CLOCK_RESOLUTION_MULTIPLE];
    if (target > s->cfg[FB__K_MAX_EPOCH_TIME]) target = s->cfg[FB__K_MAX_EPOCH_TIME];
    if (target < s->cfg[FB__K_MIN_EPOCH_TIME]) target = s->cfg[FB__K_MIN_EPOCH_TIME];
    s->target_s = target;
    bool epochs_set = false;
    for (int layer = 0; layer < FB__LAYERS; ++layer)
        if (b->cfg_set[layer] & (1u << FB__K_EPOCHS)) epochs_set = true;
    size_t rounds = epochs_set && s->cfg[FB__K_EPOCHS] >= 1 ? (size_t)s->cfg[FB__K_EPOCHS]
                                                            : FB__CMP_DEFAULT_ROUNDS;
    /* whole blocks, and enough of them for an interval */
    size_t min = fb__cmp_min_rounds(s->confidence);
    s->rounds_min = (min + s->k - 1) / s->k * s->k;
    if (rounds < s->rounds_min) rounds = s->rounds_min;
    s->rounds_max = (rounds + s->k - 1) / s->k * s->k;
    /* no time budget with an exact iteration count (the user sized the
     * epochs); fb__cmp_start_measure sets it after calibration */
    s->budget_s = INFINITY;
    s->exact_iters = (uint64_t)s->cfg[FB__K_EPOCH_ITERATIONS];
    s->min_iters =
        s->cfg[FB__K_MIN_EPOCH_ITERATIONS] >= 1 ? (uint64_t)s->cfg[FB__K_MIN_EPOCH_ITERATIONS] : 1;
    s->warmup = (uint64_t)s->cfg[FB__K_WARMUP];
    fb_rng_seed(&s->rng, 123);

    size_t cells = s->k * s->rounds_max;
    s->per_iter = calloc(s->k, sizeof *s->per_iter);
    s->perm = calloc(s->k, sizeof *s->perm);
    s->ticks_ns = calloc(cells, sizeof *s->ticks_ns);
    if (!s->per_iter || !s->perm || !s->ticks_ns) {
        fb__cmp_fail(s, s->k, "out of memory");
        return;
    }
    if (b->out) fb__env_warn_once(stderr, s->callsite);
    s->perf = fb__bench_perf(b);
    s->perf_mask = s->perf ? fb__perf_available(s->perf) & ~FB__BIT(FB_ELAPSED) : 0;
    for (int m = 1; m < FB_MEASURE_COUNT; ++m)
        if (s->perf_mask & FB__BIT(m)) {
            s->counts[m] = calloc(cells, sizeof(double));
            if (!s->counts[m]) s->perf_mask &= ~FB__BIT(m);
        }
    if (s->warmup) {
        s->phase = FB__CMP_WARMUP;
        s->cur = 0;
        s->n = s->warmup;
    } else {
        fb__cmp_start_calibration(s);
    }
}

/* One epoch of alternative s->cur ended: record it, pick the next one. */
static void fb__cmp_advance(struct fb__cmp_state *s, uint64_t ticks, const double *counts) {
    double e = (double)ticks * 1e-9;
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
        s->ticks_ns[cell] = ticks;
        for (int m = 1; m < FB_MEASURE_COUNT; ++m)
            if (s->perf_mask & FB__BIT(m)) s->counts[m][cell] = counts[m];
        if (++s->pos == s->k) {
            s->pos = 0;
            if (++s->round % s->k == 0) {
                if (s->round >= s->rounds_max ||
                    (s->spent_s >= s->budget_s && s->round >= s->rounds_min)) {
                    s->phase = FB__CMP_DONE;
                    return;
                }
                fb__cmp_new_block(s);
            }
        }
        s->cur = fb__cmp_order(s, s->round, s->pos);
        break;
    }
    default:
        break;
    }
}

/* ------------------------------------------------------ the comparison */

void fb__comparison_free(fb_comparison *c) {
    if (!c) return;
    for (size_t i = 0; c->results && i < c->size; ++i) fb__result_free(c->results[i]);
    free(c->results);
    free(c->title);
    free(c->ratio);
    free(c->low);
    free(c->high);
    free(c->tied);
    free(c->log_ratio);
    free(c->error);
    free(c);
}

static int fb__bench_add_comparison(fb_bench *b, fb_comparison *c) {
    if (b->n_comparisons == b->cap_comparisons) {
        size_t cap = b->cap_comparisons ? 2 * b->cap_comparisons : 4;
        fb_comparison **p = realloc(b->comparisons, cap * sizeof *p);
        if (!p) return FB_ENOMEM;
        b->comparisons = p;
        b->cap_comparisons = cap;
    }
    b->comparisons[b->n_comparisons++] = c;
    return FB_OK;
}

void fb__bench_free_comparisons(fb_bench *b) {
    for (size_t i = 0; i < b->n_comparisons; ++i) fb__comparison_free(b->comparisons[i]);
    free(b->comparisons);
    b->comparisons = NULL;
    b->n_comparisons = b->cap_comparisons = 0;
    fb__cmp_state_free(b->cmp); /* a block left with break/return/goto */
    b->cmp = NULL;
}

int fb__bench_take_comparisons(fb_bench *dst, fb_bench *src) {
    size_t i = 0;
    if (!src->n_comparisons) return FB_OK; /* (comparisons may be NULL) */
    for (; i < src->n_comparisons; ++i)
        if (fb__bench_add_comparison(dst, src->comparisons[i]) != FB_OK) break;
    memmove(src->comparisons, src->comparisons + i,
            (src->n_comparisons - i) * sizeof *src->comparisons);
    src->n_comparisons -= i;
    return src->n_comparisons ? FB_ENOMEM : FB_OK;
}

/* The paired log ratios ln t_a - ln t_b over the rounds of two results
 * with the same iteration count; dropped rounds (a side measured 0, or
 * skip[r]: preempted) are left out. Returns how many were kept; *tied: rounds with equal times. */
static size_t fb__cmp_pairs(const fb_result *a, const fb_result *bb, size_t rounds,
                            const bool *skip, double *out, size_t *tied) {
    size_t kept = 0;
    *tied = 0;
    for (size_t r = 0; r < rounds; ++r) {
        if (skip[r]) continue;
        double ta = a->values[FB_ELAPSED][r], tb = bb->values[FB_ELAPSED][r];
        if (!(ta > 0) || !(tb > 0)) continue;
        if (ta == tb) ++*tied;
        out[kept++] = log(ta) - log(tb);
    }
    return kept;
}

size_t fb__cmp_preempted(const double *switches, size_t k, size_t stride, size_t rounds,
                         size_t min_rounds, bool *skip) {
    size_t n = 0;
    for (size_t r = 0; r < rounds; ++r) {
        skip[r] = false;
        for (size_t i = 0; i < k && !skip[r]; ++i)
            if (switches[i * stride + r] >= 0.5) skip[r] = true;
        n += skip[r];
    }
    if (rounds - n >= min_rounds) return n;
    memset(skip, 0, rounds * sizeof *skip);
    return 0;
}

/* The measured alternative i as a result: one epoch per round. */
static fb_result *fb__cmp_result(struct fb__cmp_state *s, size_t i, size_t rounds,
                                 const char *failed_name) {
    fb_result *res = fb__result_new(s->b, s->callsite, s->cfg, &s->clock_info);
    if (!res) return NULL;
    free(res->title);
    res->title = fb__strdup(s->title);
    res->name = s->names[i];
    s->names[i] = NULL;
    res->relative = false;
    if (!res->title || !res->name) {
        fb__result_free(res);
        return NULL;
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
    res->has = FB__BIT(FB_ELAPSED) | (s->perf_mask & ~s->perf_lost);
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
    double n = (double)s->shared;
    for (size_t r = 0; r < rounds; ++r) {
        size_t cell = i * s->rounds_max + r;
        res->iterations[r] = s->shared;
        res->values[FB_ELAPSED][r] = (double)s->ticks_ns[cell] * 1e-9 / n;
        for (int m = 1; m < FB_MEASURE_COUNT; ++m)
            if (res->has & FB__BIT(m)) res->values[m][r] = s->counts[m][cell] / n;
    }
    fb__stats_compute(res);
    return res;
}

static fb_comparison *fb__cmp_build(struct fb__cmp_state *s) {
    fb_comparison *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    size_t k = s->k, rounds = s->fail_msg ? 0 : s->round;
    c->size = k;
    c->rounds = rounds;
    c->iterations = s->fail_msg ? 0 : s->shared;
    c->confidence = s->confidence;
    c->title = fb__strdup(s->title);
    c->results = calloc(k, sizeof *c->results);
    c->ratio = calloc(k, sizeof *c->ratio);
    c->low = calloc(k, sizeof *c->low);
    c->high = calloc(k, sizeof *c->high);
    c->tied = calloc(k, sizeof *c->tied);
    c->log_ratio = calloc(k * (rounds ? rounds : 1), sizeof *c->log_ratio);
    double *scratch = malloc((rounds ? rounds : 1) * sizeof *scratch);
    bool ok = c->title && c->results && c->ratio && c->low && c->high && c->tied && c->log_ratio &&
              scratch;
    if (ok && s->fail_msg) {
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
        free(scratch);
        fb__comparison_free(c);
        return NULL;
    }
    c->fastest = c->runner_up = 0;
    c->lead = c->lead_low = c->lead_high = NAN;
    for (size_t i = 0; i < k; ++i) {
        c->ratio[i] = c->low[i] = c->high[i] = i == 0 && rounds ? 1.0 : NAN;
        for (size_t r = 0; r < rounds; ++r) c->log_ratio[i * rounds + r] = i == 0 ? 0.0 : NAN;
    }
    if (!rounds) {
        free(scratch);
        return c;
    }
    /* Rounds where an epoch was preempted (the context-switch counter, where
     * it works) are left out, as long as the rounds an interval needs
     * remain: a preempted epoch measures the machine, and preemption need
     * not hit all alternatives alike (it is more likely in the longer
     * epochs, and it can alias with the schedule). */
    bool *skip = calloc(rounds, sizeof *skip);
    if (!skip) {
        free(scratch);
        fb__comparison_free(c);
        return NULL;
    }
    if ((s->perf_mask & ~s->perf_lost) & FB__BIT(FB_CONTEXTSWITCHES))
        c->preempted = fb__cmp_preempted(s->counts[FB_CONTEXTSWITCHES], k, s->rounds_max, rounds,
                                         s->rounds_min, skip);
    for (size_t i = 1; i < k; ++i) {
        const fb_result *base = c->results[0], *alt = c->results[i];
        for (size_t r = 0; r < rounds; ++r) {
            double t0 = base->values[FB_ELAPSED][r], ti = alt->values[FB_ELAPSED][r];
            if (t0 > 0 && ti > 0 && !skip[r]) c->log_ratio[i * rounds + r] = log(t0) - log(ti);
        }
        size_t m = fb__cmp_pairs(base, alt, rounds, skip, scratch, &c->tied[i]);
        double med, lo, hi;
        fb__cmp_interval(scratch, m, c->confidence, &med, &lo, &hi);
        c->ratio[i] = exp(med);
        c->low[i] = exp(lo);
        c->high[i] = exp(hi);
    }
    /* the fastest (lowest median time) against the runner-up, paired */
    size_t best = 0;
    for (size_t i = 1; i < k; ++i)
        if (fb_result_median(c->results[i], FB_ELAPSED) <
            fb_result_median(c->results[best], FB_ELAPSED))
            best = i;
    size_t second = best == 0 ? 1 : 0;
    for (size_t i = 0; i < k; ++i)
        if (i != best && fb_result_median(c->results[i], FB_ELAPSED) <
                             fb_result_median(c->results[second], FB_ELAPSED))
            second = i;
    c->fastest = best;
    c->runner_up = second;
    size_t tied_lead;
    size_t m =
        fb__cmp_pairs(c->results[second], c->results[best], rounds, skip, scratch, &tied_lead);
    double med, lo, hi;
    fb__cmp_interval(scratch, m, c->confidence, &med, &lo, &hi);
    c->lead = exp(med);
    c->lead_low = exp(lo);
    c->lead_high = exp(hi);
    free(skip);
    free(scratch);
    return c;
}

/* The block ended: build the comparison, store it on b, print it. */
static void fb__cmp_finish(fb__cmp *cmp) {
    struct fb__cmp_state *s = cmp->s;
    fb_bench *b = s->b;
    cmp->s = NULL;
    b->cmp = NULL;
    if (!s->bad) {
        fb_comparison *c = fb__cmp_build(s);
        if (c && fb__bench_add_comparison(b, c) != FB_OK) {
            fb__comparison_free(c);
            c = NULL;
        }
        if (c) fb__report_comparison(b, c);
    }
    fb__cmp_state_free(s);
}

/* ------------------------------------------------- the loop protocol */

fb__cmp fb__cmp_begin(fb_bench *b, const char *title, int callsite) {
    fb__cmp c = {NULL, 1};
    if (!title) title = b->name ? b->name : b->title;
    if (b->run || b->cmp) { /* nested: refuse, keep the outer one */
        if (b->out)
            fprintf(b->out,
                    "femtobench: comparison '%s' not run: another run of this bench is in "
                    "progress\n",
                    title);
        return c;
    }
    struct fb__cmp_state *s = calloc(1, sizeof *s);
    if (!s) return c;
    s->b = b;
    s->title = fb__strdup(title);
    if (!s->title) {
        free(s);
        return c;
    }
    s->callsite = callsite;
    s->shape = FB__SHAPE_INLINE;
    for (int k = 0; k < FB__K_COUNT; ++k) s->cfg[k] = fb__cfg(b, (fb__key)k);
    if (b->clock) {
        s->clock = b->clock;
        s->clock_ctx = b->clock_ctx;
        s->clock_info.resolution_s = b->clock_resolution_s;
        s->clock_info.overhead_s = 0;
    } else {
        s->clock = fb__cmp_default_clock;
        s->clock_info = *fb__clock_process_info();
    }
    s->phase = FB__CMP_DISCOVER;
    b->cmp = s;
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
    if (s->perf_mask) fb__perf_begin(s->perf);
    s->t0 = s->clock(s->clock_ctx); /* last thing before the loop */
    return s->n;
}

void fb__cmp_alt_done(fb__cmp *c, uint64_t left) {
    struct fb__cmp_state *s = c->s;
    uint64_t t1 = s->clock(s->clock_ctx); /* first thing after the loop */
    double counts[FB_MEASURE_COUNT] = {0};
    if (s->perf_mask) {
        fb__perf_end(s->perf, s->n, s->shape, counts);
        if (s->phase == FB__CMP_MEASURE)
            s->perf_lost |= s->perf_mask & ~fb__perf_last_known(s->perf);
    }
    uint64_t ticks = t1 >= s->t0 ? t1 - s->t0 : 0;
    s->timing = false;
    s->spent_s += (double)ticks * 1e-9;
    if (s->phase == FB__CMP_DONE) return; /* failed inside the epoch */
    if (left) {
        fb__cmp_fail(s, s->cur,
                     "`break` inside FB_ALTERNATIVE's body is not supported: use a flag, or "
                     "fb_compare()");
        return;
    }
    fb__cmp_advance(s, ticks, counts);
}

/* The function-pointer form drives the same protocol as FB_COMPARE, so
 * both get the same schedule. */
FB__NOINLINE const fb_comparison *
fb__compare_at(fb_bench *b, const char *title, const fb_alternative *alts, size_t n, int callsite) {
    if (!b) return NULL;
    const char *t = title ? title : b->name ? b->name : b->title;
    for (size_t i = 0; alts && i < n; ++i)
        if (!alts[i].op) {
            if (b->out)
                fprintf(b->out, "femtobench: error: comparison '%s': alternative %zu has no op\n",
                        t, i);
            return NULL;
        }
    if (!alts) n = 0;
    size_t before = b->n_comparisons;
    fb__cmp c = fb__cmp_begin(b, title, callsite);
    if (c.s) c.s->shape = FB__SHAPE_CALL;
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
    return b->n_comparisons > before ? b->comparisons[b->n_comparisons - 1] : NULL;
}

const fb_comparison *(fb_compare)(fb_bench *b, const char *title, const fb_alternative *alts,
                                  size_t n) {
    return fb__compare_at(b, title, alts, n, -1);
}

/* ------------------------------------------------------------ accessors */

const fb_comparison *fb_last_comparison(const fb_bench *b) {
    return b && b->n_comparisons ? b->comparisons[b->n_comparisons - 1] : NULL;
}
size_t fb_comparison_count(const fb_bench *b) { return b ? b->n_comparisons : 0; }
const fb_comparison *fb_comparison_at(const fb_bench *b, size_t i) {
    return b && i < b->n_comparisons ? b->comparisons[i] : NULL;
}
const char *fb_comparison_title(const fb_comparison *c) { return c ? c->title : NULL; }
size_t fb_comparison_size(const fb_comparison *c) { return c ? c->size : 0; }
const char *fb_comparison_name(const fb_comparison *c, size_t i) {
    return c && i < c->size ? c->results[i]->name : NULL;
}
double fb_comparison_ratio(const fb_comparison *c, size_t i) {
    return c && i < c->size ? c->ratio[i] : NAN;
}
double fb_comparison_low(const fb_comparison *c, size_t i) {
    return c && i < c->size ? c->low[i] : NAN;
}
double fb_comparison_high(const fb_comparison *c, size_t i) {
    return c && i < c->size ? c->high[i] : NAN;
}
double fb_comparison_confidence(const fb_comparison *c) { return c ? c->confidence : NAN; }
bool fb_comparison_significant(const fb_comparison *c, size_t i) {
    return c && i > 0 && i < c->size && (c->low[i] > 1.0 || c->high[i] < 1.0);
}
size_t fb_comparison_rounds(const fb_comparison *c) { return c ? c->rounds : 0; }
size_t fb_comparison_preempted(const fb_comparison *c) { return c ? c->preempted : 0; }
size_t fb_comparison_tied(const fb_comparison *c, size_t i) {
    return c && i < c->size ? c->tied[i] : 0;
}
uint64_t fb_comparison_iterations(const fb_comparison *c) { return c ? c->iterations : 0; }
double fb_comparison_log_ratio(const fb_comparison *c, size_t i, size_t round) {
    return c && i < c->size && round < c->rounds ? c->log_ratio[i * c->rounds + round] : NAN;
}
const fb_result *fb_comparison_result(const fb_comparison *c, size_t i) {
    return c && i < c->size ? c->results[i] : NULL;
}
size_t fb_comparison_fastest(const fb_comparison *c) { return c ? c->fastest : 0; }
