/* When a run stops (src/run/rounds.c): the epochs it was asked for,
 * disturbed epochs replaced, explicit epochs honoured (their budget grows
 * with them), and an unstable automatic run lengthened by a new round of
 * longer epochs. docs/design.md: "Time budget", "Disturbed epochs", "An
 * unstable run measures longer". */
#ifndef FB_ROUNDS_H
#define FB_ROUNDS_H

#include "base.h"
#include "settings.h"

#include <stddef.h>
#include <stdint.h>

typedef struct fb__rounds {
    size_t asked; /* the `epochs` setting */
    bool epochs_explicit, budget_explicit, may_lengthen;
    bool fixed;         /* exactly `asked` epochs, none replaced (fb__rounds_fix) */
    double budget_s;    /* stop after this much time in epochs */
    double max_total_s; /* max_total_time */
    double max_epoch_s; /* max_epoch_time */
    uint64_t min_iters;
    /* min_time (the key or the runner's -min_time): the round records
     * epochs until its undisturbed ones hold this much time, `asked`
     * growing with it from asked0 (at most FB__MIN_TIME_MAX_EPOCHS) */
    double min_time_s;
    size_t asked0;
    size_t start, clean; /* the current round: its first epoch, its undisturbed epochs */
    unsigned rounds;     /* rounds of longer epochs added */
    int stopped_by;      /* FB__STOP_* (src/result/result.h) */
} fb__rounds;

/* What the rounds read of the run after each recorded epoch. */
typedef struct fb__rounds_progress {
    size_t epochs;
    double spent_s;        /* in all epochs, recorded or not */
    uint64_t plan_iters;   /* the recorded epochs that were not disturbed: */
    double plan_elapsed_s; /* their iterations and time */
    const double *values;  /* seconds per iteration of each recorded epoch */
    unsigned char *flags;  /* FB__EPOCH_* of each recorded epoch */
} fb__rounds_progress;

/* At the start of a run: `layers` say which keys were set explicitly,
 * `budget_s` is the default budget, `automatic` whether the run chooses its
 * epochs itself (no epoch_iterations, no -min_time). */
FB__PRIVATE void fb__rounds_begin(fb__rounds *s, const fb__config *c, double budget_s,
                                  bool automatic);
/* A longer run is more epochs, not longer ones: at least min_time_s of
 * undisturbed epochs of the usual length, the budget raised to 1.5 x that
 * (src/run/run_plan.c calls it when min_time is set). */
#define FB__MIN_TIME_MAX_EPOCHS 100000
FB__PRIVATE void fb__rounds_min_time(fb__rounds *s, double min_time_s);
/* Fixes the run at exactly `epochs` recorded epochs: disturbed ones are
 * flagged, not replaced; no budget, no lengthening (an outside scheduler,
 * src/platform/epoch_hook.h, fixed them). */
FB__PRIVATE void fb__rounds_fix(fb__rounds *s, size_t epochs);
/* One more recorded epoch. */
FB__PRIVATE void fb__rounds_epoch(fb__rounds *s, bool disturbed);
/* After each recorded epoch: true when the run is done (stopped_by says
 * why). May start a new round of longer epochs instead: then *target_s
 * grows, the earlier epochs are flagged superseded and *new_round is set. */
FB__PRIVATE bool fb__rounds_done(fb__rounds *s, const fb__rounds_progress *p, double *target_s,
                                 bool *new_round);
/* Why the current round has fewer undisturbed epochs than asked for. */
FB__PRIVATE const char *fb__rounds_why_short(const fb__rounds *s, size_t epochs);

#endif
