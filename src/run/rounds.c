/* When a run stops: the rules of docs/design.md ("Time budget", "Disturbed
 * epochs", "An unstable run measures longer"), apart from the epoch loop. */
#include "rounds.h"

#include "disturb.h"
#include "result.h"
#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Runs stopped by the time budget still record this many epochs. */
#define FB__MIN_EPOCHS_UNDER_BUDGET 3
/* A round records at most this many times `epochs` epochs, replacing the
 * disturbed ones while at least half of its epochs are clean. */
#define FB__ROUND_EPOCHS_CAP 2
/* An automatic run whose err% reaches the table's unstable mark
 * (fb_result_unstable) lengthens its epochs by FB__ROUND_LONGER, at most
 * FB__MAX_ROUNDS times, only when the new round fits in the budget. */
#define FB__UNSTABLE_PCT 5.0
#define FB__ROUND_LONGER 4.0
#define FB__MAX_ROUNDS 2
/* Explicit epochs raise the budget to what they need, up to this cap. */
#define FB__EXPLICIT_BUDGET_CAP_S 60.0

void fb__rounds_begin(fb__rounds *s, const fb__config *c, double budget_s, bool automatic) {
    memset(s, 0, sizeof *s);
    s->asked = c->num[FB__K_EPOCHS] >= 1 ? (size_t)c->num[FB__K_EPOCHS] : 1;
    s->epochs_explicit = fb__config_set_by_user(c, FB__K_EPOCHS);
    s->budget_explicit = fb__config_set_by_user(c, FB__K_MAX_TOTAL_TIME);
    s->budget_s = budget_s;
    /* explicit epochs are run: the budget grows with them (fb__rounds_rebudget) */
    if (s->epochs_explicit && !s->budget_explicit && s->budget_s < FB__EXPLICIT_BUDGET_CAP_S)
        s->budget_s = FB__EXPLICIT_BUDGET_CAP_S;
    s->may_lengthen = automatic && !s->epochs_explicit;
    s->max_total_s = c->num[FB__K_MAX_TOTAL_TIME];
    s->max_epoch_s = c->num[FB__K_MAX_EPOCH_TIME];
    s->min_iters =
        c->num[FB__K_MIN_EPOCH_ITERATIONS] >= 1 ? (uint64_t)c->num[FB__K_MIN_EPOCH_ITERATIONS] : 1;
    s->stopped_by = FB__STOP_EPOCHS;
}

void fb__rounds_min_time(fb__rounds *s, double min_time_s) {
    if (!(min_time_s > 0)) return;
    s->min_time_s = min_time_s;
    s->asked0 = s->asked;
    s->may_lengthen = false; /* more epochs, never longer ones */
    if (s->budget_s < 1.5 * min_time_s) s->budget_s = 1.5 * min_time_s;
    if (s->max_total_s < 1.5 * min_time_s) s->max_total_s = 1.5 * min_time_s;
}

/* min_time: the epochs the round needs, from the mean undisturbed epoch so
 * far (plan_elapsed_s over the clean epochs), never fewer than asked0. */
static void fb__rounds_grow(fb__rounds *s, const fb__rounds_progress *p) {
    if (!(s->min_time_s > 0) || s->clean == 0 || !(p->plan_elapsed_s > 0)) return;
    double mean = p->plan_elapsed_s / (double)s->clean;
    double need = ceil(s->min_time_s / mean);
    if (need > FB__MIN_TIME_MAX_EPOCHS) need = FB__MIN_TIME_MAX_EPOCHS;
    s->asked = need > (double)s->asked0 ? (size_t)need : s->asked0;
}

void fb__rounds_fix(fb__rounds *s, size_t epochs) {
    s->asked = epochs;
    s->epochs_explicit = true;
    s->fixed = true;
    s->may_lengthen = false;
}

void fb__rounds_epoch(fb__rounds *s, bool disturbed) {
    if (!disturbed) s->clean++;
}

/* err% (MdAPE) of the current round's undisturbed epochs; 0 when it
 * cannot be computed. */
static double fb__rounds_err(const fb__rounds *s, const fb__rounds_progress *p) {
    size_t n = 0, count = p->epochs - s->start;
    double *v = malloc(2 * (count ? count : 1) * sizeof *v);
    if (!v) return 0;
    for (size_t i = s->start; i < p->epochs; ++i)
        if (!(p->flags[i] & FB__EPOCH_DISTURBED)) v[n++] = p->values[i];
    double err = 0;
    if (n > 1) {
        double *sorted = v + n;
        memcpy(sorted, v, n * sizeof *v);
        double med = fb__median(sorted, n);
        err = fb__mdape_pct(v, n, med, sorted);
    }
    free(v);
    return isfinite(err) ? err : 0;
}

/* An automatic run that is unstable while its budget is not spent starts a
 * new round of longer epochs when that round fits in the budget. */
static bool fb__rounds_lengthen(fb__rounds *s, const fb__rounds_progress *p, double *target_s) {
    if (!s->may_lengthen || s->rounds >= FB__MAX_ROUNDS) return false;
    double longer = *target_s * FB__ROUND_LONGER;
    if (longer > s->max_epoch_s) longer = s->max_epoch_s;
    if (!(longer > *target_s)) return false;
    /* an epoch of the new round lasts the longer target, or min_iters calls */
    double per_iter = p->plan_iters ? p->plan_elapsed_s / (double)p->plan_iters : 0;
    double epoch_s =
        (double)s->min_iters * per_iter > longer ? (double)s->min_iters * per_iter : longer;
    if (p->spent_s + 1.2 * (double)s->asked * epoch_s > s->budget_s) return false;
    if (fb__rounds_err(s, p) < FB__UNSTABLE_PCT) return false;
    for (size_t i = 0; i < p->epochs; ++i) p->flags[i] |= FB__EPOCH_SUPERSEDED;
    *target_s = longer;
    s->rounds++;
    s->start = p->epochs;
    s->clean = 0;
    return true;
}

/* Explicit epochs: the budget is what they need (1.5 x the epochs asked x
 * the mean epoch so far), at least max_total_time, at most the cap. */
static void fb__rounds_rebudget(fb__rounds *s, const fb__rounds_progress *p) {
    if (!s->epochs_explicit || s->budget_explicit || p->epochs == 0) return;
    double need = 1.5 * (double)s->asked * (p->spent_s / (double)p->epochs);
    s->budget_s = need > s->max_total_s ? need : s->max_total_s;
    if (s->budget_s > FB__EXPLICIT_BUDGET_CAP_S) s->budget_s = FB__EXPLICIT_BUDGET_CAP_S;
}

bool fb__rounds_done(fb__rounds *s, const fb__rounds_progress *p, double *target_s,
                     bool *new_round) {
    *new_round = false;
    if (s->stopped_by != FB__STOP_EPOCHS) return true; /* out of memory */
    if (s->fixed) return p->epochs - s->start >= s->asked;
    fb__rounds_grow(s, p);
    fb__rounds_rebudget(s, p);
    /* the round has its epochs (disturbed ones do not count) */
    if (s->clean >= s->asked) return !(*new_round = fb__rounds_lengthen(s, p, target_s));
    size_t floor = s->asked < FB__MIN_EPOCHS_UNDER_BUDGET ? s->asked : FB__MIN_EPOCHS_UNDER_BUDGET;
    if (p->spent_s >= s->budget_s && p->epochs >= floor) {
        s->stopped_by = FB__STOP_BUDGET;
        return true;
    }
    /* disturbed epochs are replaced, up to a cap per round, and only while
     * most epochs are clean: on a machine so busy that most epochs are
     * descheduled, replacing them only makes the run longer */
    size_t in_round = p->epochs - s->start;
    if (in_round >= FB__ROUND_EPOCHS_CAP * s->asked ||
        (in_round >= s->asked && 2 * s->clean < in_round)) {
        s->stopped_by = FB__STOP_CAP;
        return true;
    }
    return false;
}

const char *fb__rounds_why_short(const fb__rounds *s, size_t epochs) {
    /* only the cap on replacements stops a run because most epochs were
     * disturbed; a run short for another reason must not claim it (a
     * counted run's schedule once printed "0 of the 21 epochs asked for (0
     * disturbed): most epochs were disturbed") */
    if (s->stopped_by == FB__STOP_CAP)
        return "most epochs were disturbed (the thread was descheduled: a busy machine)";
    if (s->stopped_by != FB__STOP_BUDGET)
        return "the run ended before its epochs (an error, or a schedule of its own)";
    if (s->budget_explicit) return "max_total_time was spent; raise it";
    if (s->budget_s >= FB__EXPLICIT_BUDGET_CAP_S)
        return "the 60 s cap on the time of explicit epochs was reached";
    if (s->clean < epochs - s->start)
        return "their budget (1.5 x epochs x the mean epoch) went on replacing disturbed epochs";
    return "the epochs became slower than the first ones";
}
