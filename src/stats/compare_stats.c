/* The immutable paired comparison: its statistics, release and accessors.
 *
 * Each round gives ln(t_baseline) - ln(t_i), each epoch less its fixed clock
 * cost; the ratio is the exp of their median, with a sign-test (binomial
 * order statistic) interval, Bonferroni-corrected over the K - 1
 * comparisons and never narrower than the clock resolves; the fastest alternative
 * is stated against the runner-up with that pair's own interval.
 * src/run/compare.c measures and calls these; docs/compare.md explains every
 * rule. Nothing here measures or prints. */
#include "compare_stats.h"

#include "marks.h"    /* FB__RESOLVED_MULTIPLE */
#include "settings.h" /* clock_resolution_multiple */
#include "stats.h"    /* fb__median */
#include "text.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ statistics */

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
    *median = fb__median(v, n); /* sorts v */
    /* k: the largest with P(Bin(n, 1/2) <= k - 1) <= alpha / 2, exactly */
    double half_alpha = (1.0 - confidence) / 2, cum = 0, dn = (double)n;
    /* ln C(n, j) kept from term to term (ln C(n, j + 1) = ln C(n, j) +
     * ln(n - j) - ln(j + 1)), not from lgamma: lgamma writes the global
     * signgam, a data race when threads compare at once, and lgamma_r is in
     * neither C11 nor POSIX */
    double log_c = 0, log_half_n = dn * log(2.0);
    size_t k = 0;
    for (size_t j = 0; j < n / 2 + 1; ++j) {
        double dj = (double)j;
        cum += exp(log_c - log_half_n);
        if (cum > half_alpha) break;
        k = j + 1;
        log_c += log(dn - dj) - log(dj + 1);
    }
    if (k == 0) return false;
    *low = v[k - 1];
    *high = v[n - k];
    return true;
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

size_t fb__cmp_balance_order(bool *skip, size_t rounds) {
    size_t kept[2] = {0, 0}, n = 0;
    for (size_t r = 0; r < rounds; ++r) kept[r % 2] += !skip[r];
    for (size_t r = rounds; r-- > 0;) {
        size_t k = r % 2;
        if (skip[r] || kept[k] <= kept[1 - k]) continue;
        skip[r] = true;
        kept[k]--;
        n++;
    }
    return n;
}

/* An alternative's time per iteration in round r, less the fixed cost every
 * epoch carries (about one clock read, clock_overhead_s: left in, it pulls
 * every ratio towards 1), and never below what the clock can show (its
 * resolution an epoch). 0 when the round measured nothing. */
static double fb__cmp_time(const fb_result *res, size_t r) {
    double n = (double)res->iterations[r];
    double epoch_s = res->values[FB_ELAPSED][r] * n;
    if (!(epoch_s > 0) || !(n > 0)) return 0;
    double t = epoch_s - res->clock_overhead_s;
    if (t < res->clock_resolution_s) t = res->clock_resolution_s;
    return t / n;
}

/* The paired log ratios ln t_a - ln t_b over the rounds of two results
 * with the same iteration count; dropped rounds (a side measured 0, or
 * skip[r]: preempted) are left out. Returns how many were kept; *tied:
 * rounds with equal times; *res_log: what the clock resolves of one round's
 * log ratio (a step of the clock in each side's median epoch). */
static size_t fb__cmp_pairs(const fb_result *a, const fb_result *bb, size_t rounds,
                            const bool *skip, double *out, size_t *tied, double *res_log) {
    size_t kept = 0;
    *tied = 0;
    for (size_t r = 0; r < rounds; ++r) {
        if (skip && skip[r]) continue;
        double ta = fb__cmp_time(a, r), tb = fb__cmp_time(bb, r);
        if (!(ta > 0) || !(tb > 0)) continue;
        if (a->values[FB_ELAPSED][r] == bb->values[FB_ELAPSED][r]) ++*tied;
        out[kept++] = log(ta) - log(tb);
    }
    /* the median epochs from the summaries (same iterations every round) */
    double ea = fb_result_median(a, FB_ELAPSED) * (double)(a->epochs ? a->iterations[0] : 0);
    double eb = fb_result_median(bb, FB_ELAPSED) * (double)(bb->epochs ? bb->iterations[0] : 0);
    *res_log = ea > 0 && eb > 0 ? a->clock_resolution_s / ea + bb->clock_resolution_s / eb : 0;
    return kept;
}

/* The interval of one pair: the sign-test interval of the median log ratio,
 * never narrower than what the clock resolves (rounds that tie at the
 * clock's step would otherwise give an interval of a few millionths). */
static void fb__cmp_pair_interval(double *v, size_t m, double confidence, double res_log,
                                  double *ratio, double *low, double *high) {
    double med, lo, hi;
    fb__cmp_interval(v, m, confidence, &med, &lo, &hi);
    if (lo > med - res_log) lo = med - res_log;
    if (hi < med + res_log) hi = med + res_log;
    *ratio = exp(med);
    *low = exp(lo);
    *high = exp(hi);
}

/* ------------------------------------------------------ the comparison */

fb_comparison *fb__comparison_alloc(const char *title, size_t k, size_t rounds) {
    fb_comparison *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->size = k;
    c->rounds = rounds;
    c->title = fb__strdup(title);
    c->results = calloc(k, sizeof *c->results);
    c->ratio = calloc(k, sizeof *c->ratio);
    c->low = calloc(k, sizeof *c->low);
    c->high = calloc(k, sizeof *c->high);
    c->tied = calloc(k, sizeof *c->tied);
    c->log_ratio = calloc(k * (rounds ? rounds : 1), sizeof *c->log_ratio);
    if (!c->title || !c->results || !c->ratio || !c->low || !c->high || !c->tied || !c->log_ratio) {
        fb__comparison_free(c);
        return NULL;
    }
    c->fastest = c->runner_up = 0;
    c->lead = c->lead_low = c->lead_high = NAN;
    for (size_t i = 0; i < k; ++i) {
        c->ratio[i] = c->low[i] = c->high[i] = i == 0 && rounds ? 1.0 : NAN;
        for (size_t r = 0; r < rounds; ++r) c->log_ratio[i * rounds + r] = i == 0 ? 0.0 : NAN;
    }
    return c;
}

/* An alternative whose epochs are shorter than the clock needs (its
 * resolution x clock_resolution_multiple, the least epoch fb_run plans and
 * the shared count aims for; never under FB__RESOLVED_MULTIPLE resolutions)
 * is marked not resolved. That happens when the ops differ so much that the
 * slowest, capped at max_epoch_time, leaves the fastest a few hundred
 * nanoseconds an epoch (a ratio of 10^7 leaves it nanoseconds): what each
 * epoch costs besides the op (the clock reads, caches refilled after the
 * other alternatives ran) is then a large part of its time, and no interval
 * built from the epochs accounts for it. The table says so in words. */
static void fb__cmp_mark_short(fb_comparison *c) {
    for (size_t i = 0; i < c->size; ++i) {
        fb_result *r = c->results[i];
        if (r->error || !r->epochs || !(r->clock_resolution_s > 0)) continue;
        double mult = r->config.num[FB__K_CLOCK_RESOLUTION_MULTIPLE];
        if (!(mult >= FB__RESOLVED_MULTIPLE)) mult = FB__RESOLVED_MULTIPLE;
        double epoch_s = fb_result_median(r, FB_ELAPSED) * (double)r->iterations[0];
        if (epoch_s < mult * r->clock_resolution_s) r->unresolved = true;
    }
}

int fb__comparison_analyze(fb_comparison *c, const bool *skip) {
    size_t k = c->size, rounds = c->rounds;
    if (!rounds || k < 2) return FB_OK;
    fb__cmp_mark_short(c);
    double *scratch = malloc(rounds * sizeof *scratch);
    if (!scratch) return FB_ENOMEM;
    for (size_t i = 1; i < k; ++i) {
        const fb_result *base = c->results[0], *alt = c->results[i];
        for (size_t r = 0; r < rounds; ++r) {
            double t0 = fb__cmp_time(base, r), ti = fb__cmp_time(alt, r);
            if (t0 > 0 && ti > 0 && !(skip && skip[r]))
                c->log_ratio[i * rounds + r] = log(t0) - log(ti);
        }
        double res_log;
        size_t m = fb__cmp_pairs(base, alt, rounds, skip, scratch, &c->tied[i], &res_log);
        fb__cmp_pair_interval(scratch, m, c->confidence, res_log, &c->ratio[i], &c->low[i],
                              &c->high[i]);
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
    double res_log;
    size_t m = fb__cmp_pairs(c->results[second], c->results[best], rounds, skip, scratch,
                             &tied_lead, &res_log);
    fb__cmp_pair_interval(scratch, m, c->confidence, res_log, &c->lead, &c->lead_low,
                          &c->lead_high);
    free(scratch);
    return FB_OK;
}

/* A counted alternative's instructions per unit (NAN: not counted). */
static double fb__cmp_ins(const fb_result *r) {
    double v = fb_result_valgrind(r, FB_VG_INSTRUCTIONS);
    return v / r->config.batch;
}

/* Its least and most instructions per unit over the counted pairs (both
 * the count when it is exact; NAN: not counted). */
static double fb__cmp_ins_edge(const fb_result *r, bool high) {
    double lo, hi;
    fb_result_valgrind_spread(r, &lo, &hi);
    return (high ? hi : lo) / r->config.batch;
}

int fb__comparison_counted(fb_comparison *c) {
    size_t k = c->size;
    c->counted = true;
    /* exact counts need no interval: the ratio of two counts is the
     * ratio, and the interval collapses onto it (equal counts give exactly
     * 1, so the pair is "not different", never "significant") */
    double base = k ? fb__cmp_ins(c->results[0]) : NAN;
    for (size_t i = 0; i < k; ++i) {
        double v = fb__cmp_ins(c->results[i]);
        double r = i == 0 ? (base > 0 ? 1.0 : NAN) : base > 0 && v > 0 ? base / v : NAN;
        c->ratio[i] = c->low[i] = c->high[i] = r;
        /* counts that moved between counted epochs: the interval runs from
         * one range to the other, so a difference within them is `same` */
        double blo = fb__cmp_ins_edge(c->results[0], false);
        double bhi = fb__cmp_ins_edge(c->results[0], true);
        double vlo = fb__cmp_ins_edge(c->results[i], false);
        double vhi = fb__cmp_ins_edge(c->results[i], true);
        if (i > 0 && r == r && (blo < bhi || vlo < vhi) && vlo > 0 && vhi > 0) {
            c->low[i] = blo / vhi;
            c->high[i] = bhi / vlo;
        }
    }
    size_t best = k, second = k;
    for (size_t i = 0; i < k; ++i) {
        double v = fb__cmp_ins(c->results[i]);
        if (!(v > 0)) continue;
        if (best == k || v < fb__cmp_ins(c->results[best])) {
            second = best;
            best = i;
        } else if (second == k || v < fb__cmp_ins(c->results[second])) {
            second = i;
        }
    }
    c->fastest = best < k ? best : 0;
    c->runner_up = second < k ? second : (c->fastest == 0 && k > 1 ? 1 : 0);
    c->lead = c->lead_low = c->lead_high =
        best < k && second < k ? fb__cmp_ins(c->results[second]) / fb__cmp_ins(c->results[best])
                               : NAN;
    return FB_OK;
}

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

/* ------------------------------------------------------------ accessors */

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
