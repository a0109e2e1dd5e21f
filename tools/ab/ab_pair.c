/* femtobench-ab: the paired rounds: a block a layout (two passes with one or two), two threads
 * taking turns through the epoch hook; one benchmark's rows (docs/ab.md; tools/ab/ab.h). */
#define _GNU_SOURCE /* sched_setaffinity, CPU_SET, sched_getcpu, strsignal */

#include "ab.h"

#include <alloca.h>
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---------------------------------------------------------- paired rounds */

static size_t fba_slot(const fba_pair *p, int side, size_t k) {
    int first = (int)((k + p->parity) % 2);
    return 2 * k + (side == first ? 0 : 1);
}

static bool fba_pair_begin(void *ctx, const char *name, uint64_t *iters, size_t *epochs) {
    fba_hand *h = ctx;
    fba_pair *p = h->p;
    if (strcmp(name, p->run) != 0 || p->started[h->side]) return false;
    p->started[h->side] = true;
    *iters = p->iters;
    *epochs = p->rounds;
    return true;
}

/* FUTEX_WAIT and FUTEX_WAKE with FUTEX_PRIVATE_FLAG, the kernel's numbers
 * (<linux/futex.h> is not in every C library's toolchain: musl-gcc's) */
#define FBA_FUTEX_WAIT_PRIVATE 128
#define FBA_FUTEX_WAKE_PRIVATE 129

/* The turn between the two sides, both on one CPU: a side that waits
 * sleeps on p->turn (a futex) until its condition holds, and a side that
 * moves the slot or ends bumps it and wakes the other. A futex costs about
 * half a condition variable's hand-off here (a mutex taken on both sides
 * each time), and the sides hand over twice a round. */
static void fba_turn_wait(fba_pair *p, unsigned seen) {
    syscall(SYS_futex, &p->turn, FBA_FUTEX_WAIT_PRIVATE, seen, NULL, NULL, 0);
}

static void fba_turn_moved(fba_pair *p) {
    atomic_fetch_add(&p->turn, 1u);
    syscall(SYS_futex, &p->turn, FBA_FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
}

/* Waits until the slot reaches at least `slot` (exactly it when `exact`),
 * or the other side is done. */
static void fba_turn_until(fba_pair *p, int side, size_t slot, bool exact) {
    for (;;) {
        unsigned seen = atomic_load(&p->turn); /* before the test: a move after it wakes */
        size_t now = atomic_load(&p->slot);
        if ((exact ? now == slot : now >= slot) || atomic_load(&p->done[1 - side])) return;
        fba_turn_wait(p, seen);
    }
}

static void fba_pair_epoch_begin(void *ctx, size_t k) {
    fba_hand *h = ctx;
    fba_turn_until(h->p, h->side, fba_slot(h->p, h->side, k), true);
}

static void fba_pair_epoch_end(void *ctx, size_t k, uint64_t iters, double elapsed_s,
                               bool disturbed) {
    fba_hand *h = ctx;
    fba_pair *p = h->p;
    if (k < FBA_MAX_EPOCHS) {
        p->t[h->side][k] = iters ? elapsed_s / (double)iters : NAN;
        p->switches[h->side][k] = disturbed ? 1.0 : 0.0;
        p->got[h->side] = k + 1;
    }
    /* only the side whose slot it is moves it on */
    if (atomic_load(&p->slot) == fba_slot(p, h->side, k)) atomic_fetch_add(&p->slot, 1);
    fba_turn_moved(p);
    /* until this side's next slot; after the last epoch the other side has
     * run its last one by then too, or ends its run (done) */
    fba_turn_until(p, h->side, fba_slot(p, h->side, k + 1), false);
}

static void fba_pair_epoch_end_cpu(void *ctx, size_t k, uint64_t iters, double elapsed_s,
                                   double cpu_s, bool disturbed) {
    fba_hand *h = ctx;
    if (k < FBA_MAX_EPOCHS) h->p->cpu[h->side][k] = iters ? cpu_s / (double)iters : NAN;
    fba_pair_epoch_end(ctx, k, iters, elapsed_s, disturbed);
}

static void fba_pair_done(fba_pair *p, int side) {
    atomic_store(&p->done[side], true);
    fba_turn_moved(p);
}

static void fba_pair_end(void *ctx, const char *name) {
    fba_hand *h = ctx;
    if (strcmp(name, h->p->run) == 0) fba_pair_done(h->p, h->side);
}

static void fba_pair_result(void *ctx, const char *name, double n, const char *error, double med,
                            double ins) {
    fba_hand *h = ctx;
    (void)n;
    (void)med;
    (void)ins;
    if (error && strcmp(name, h->p->run) == 0)
        snprintf(h->p->error[h->side], FBA_ERROR_MAX, "%s", error);
}

static void fba_pair_row(void *ctx, const fb__plugin_row *row) {
    fba_pair_result(ctx, row->name, row->complexity_n, row->error, row->median_s,
                    row->instructions);
}

/* splitmix64's finaliser: a block's seed to its shifts */
static uint64_t fba_mix(uint64_t x) {
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

static void *fba_pair_thread(void *arg) {
    fba_hand *h = arg;
    if (fba_is_group(h->p->bench))
        fba_unpin();
    else
        fba_pin();
    /* where the benchmark's stack and its setup's heap data fall: moved in
     * each block and side by another amount (16-byte steps within 4 KiB),
     * so that what one process's addresses happen to do (a stack slot that
     * aliases a buffer 4 KiB away, two buffers in one cache set) varies
     * from layout to layout, as placement does, instead of holding for
     * every layout of one side: Stabilizer's idea, for the stack and the
     * heap. zlib's inflate of 16 KiB read +15% and -8% in two runs of
     * the same pair before (8 copies a side) */
    uint64_t r = fba_mix(h->p->shift_seed + (uint64_t)h->side);
    size_t stack_shift = (size_t)(r & 0xffu) * 16u, heap_shift = (size_t)((r >> 8) & 0xffu) * 16u;
    volatile char *stack_pad = alloca(stack_shift + 16u);
    stack_pad[0] = 0;
    void *heap_pad = malloc(heap_shift + 16u);
    fb__epoch_hook hook = {h,
                           fba_pair_begin,
                           fba_pair_epoch_begin,
                           fba_pair_epoch_end,
                           fba_pair_end,
                           fba_pair_epoch_end_cpu};
    const fb__plugin_api *api = h->p->side[h->side]->api;
    for (size_t k = 0; k < FBA_MAX_EPOCHS; ++k) h->p->cpu[h->side][k] = NAN;
    if (api->abi >= 4 && api->run_cpu) /* each epoch's CPU time too */
        api->run_cpu(h->p->bench, h->p->n, &hook, fba_pair_row, h);
    else
        api->run(h->p->bench, h->p->n, &hook, fba_pair_result, h);
    fba_pair_done(h->p, h->side); /* also when the run never came */
    free(heap_pad);
    stack_pad[0] = 1; /* the pad lives as long as the run */
    return NULL;
}

/* One block: `rounds` paired rounds of one run with one layout of each side
 * (two threads taking turns through the hook). Fills p->t, p->switches,
 * p->got and p->error; ok[s]: side s's thread started. */
static void fba_block(fba_pair *p, bool ok[2]) {
    atomic_init(&p->turn, 0u);
    atomic_init(&p->slot, 0);
    atomic_init(&p->done[0], false);
    atomic_init(&p->done[1], false);
    fba_hand hands[2] = {{p, 0}, {p, 1}};
    pthread_t th[2];
    /* the side that goes first in the block's first round starts first:
     * old in half the blocks, new in the other half, so that nothing that
     * follows from the order (whose setup runs first, which of the C
     * library's heap arenas each thread's allocations come from) is always
     * the same side's */
    for (int i = 0; i < 2; ++i) {
        int s = (int)((p->parity + (size_t)i) % 2);
        ok[s] = pthread_create(&th[s], NULL, fba_pair_thread, &hands[s]) == 0;
        if (!ok[s]) fba_pair_done(p, s);
    }
    for (int s = 0; s < 2; ++s)
        if (ok[s]) pthread_join(th[s], NULL);
}

/* Leaves out a layout's disturbed rounds (the paired comparison's rule,
 * fb__cmp_preempted: none when fewer than min_keep would remain; sw holds
 * old's flags, sw + stride new's), then the excess of old-first or
 * new-first rounds (the side that goes first follows its own epoch: its
 * caches are warm), the latest first, while min_keep remain.
 * fb__cmp_balance_order tells the kinds by the round's parity; here
 * first[r] says it, since blocks start on either side. Returns how many. */
static size_t fba_leave_out(const double *sw, size_t stride, const int *first, size_t n,
                            size_t min_keep, bool *skip) {
    size_t dropped = fb__cmp_preempted(sw, 2, stride, n, min_keep, skip);
    size_t kept[2] = {0, 0};
    for (size_t r = 0; r < n; ++r) kept[first[r]] += !skip[r];
    size_t excess = kept[0] > kept[1] ? kept[0] - kept[1] : kept[1] - kept[0];
    if (kept[0] + kept[1] - excess < min_keep) return dropped;
    for (size_t r = n; r-- > 0;) {
        int k = first[r];
        if (skip[r] || kept[k] <= kept[1 - k]) continue;
        skip[r] = true;
        kept[k]--;
        dropped++;
    }
    return dropped;
}

/* Measures one run of bench on both sides into row: every layout pair
 * (old layout i with new layout i) in each of the passes, a block of
 * rounds each, the passes one after the other in time. */
static void fba_measure_pair(const fba_side *sides, const fba_opts *o, const char *bench,
                             double per_iter_s, fba_row *row) {
    (void)sides;
    size_t k_lay = o->layouts ? o->layouts : 1;
    /* -min_time spread over the rounds; when one iteration is longer than
     * that, fewer rounds of one iteration each: down to one a layout (at
     * least FBA_LONG_ROUNDS_LAYOUTS) when placement is measured, whose
     * interval comes from the layouts; else down to FBA_LONG_ROUNDS, the
     * sign test's */
    double min_time_s = o->min_time_ms * 1e-3;
    size_t total = (size_t)o->rounds;
    if (per_iter_s * (double)total > min_time_s) {
        double fit = floor(min_time_s / per_iter_s);
        size_t floor_rounds = k_lay < FBA_MIN_RANDOM_LAYOUTS    ? FBA_LONG_ROUNDS
                              : k_lay > FBA_LONG_ROUNDS_LAYOUTS ? k_lay
                                                                : FBA_LONG_ROUNDS_LAYOUTS;
        if (floor_rounds > (size_t)o->rounds) floor_rounds = (size_t)o->rounds;
        total = fit > (double)floor_rounds ? (size_t)fit : floor_rounds;
    }
    /* with layouts, one pass over them, a block each: the halves in time
     * are the first and the second half of the layouts (each half's
     * interval is over its own layouts, placement included), and every
     * block's fixed costs (two threads, each side's call of the benchmark
     * function and its setup, the unused first round) come once a layout.
     * With one or two layouts, two passes: the halves in time */
    size_t passes = k_lay >= FBA_MIN_RANDOM_LAYOUTS ? 1 : 2;
    size_t blocks = k_lay * passes;
    /* the rounds spread over the blocks as evenly as they go (the first
     * blocks one more), at least one a block */
    size_t base = total / blocks, extra = total % blocks;
    if (!base) {
        base = 1;
        extra = 0;
    }
    if ((base + 1) * blocks > FBA_MAX_ROUNDS) {
        base = FBA_MAX_ROUNDS / blocks;
        extra = 0;
    }
    double epoch_s = min_time_s / (double)total;
    /* the unused first round of each block (below) is part of -min_time */
    if (base >= 2 && epoch_s < FBA_WARM_EPOCH_S) epoch_s = min_time_s / (double)(total + blocks);
    double n = per_iter_s > 0 ? ceil(epoch_s / per_iter_s) : 1;
    uint64_t iters = n < 1 ? 1 : n > 1e10 ? (uint64_t)1e10 : (uint64_t)n;
    row->iterations = iters;
    row->layouts = k_lay;
    row->passes = 2;                  /* the halves in time, as the judge sees them */
    size_t cap = (base + 1) * passes; /* the most rounds of one layout */
    double *t = malloc(6 * cap * k_lay * sizeof *t);
    int *first = malloc(2 * cap * k_lay * sizeof *first);
    fba_pair *p = calloc(1, sizeof *p);
    size_t got_l[FBA_MAX_LAYOUTS] = {0};
    if (!t || !first || !p) {
        free(t);
        free(first);
        free(p);
        row->kind = FBA_ERROR;
        snprintf(row->error, sizeof row->error, "out of memory");
        return;
    }
    /* per layout l: t_old, t_new, sw_old, sw_new, c_old, c_new (CPU),
     * first side and pass at [l * cap + j] */
    double *t_old = t, *t_new = t + cap * k_lay, *sw_old = t + 2 * cap * k_lay,
           *sw_new = t + 3 * cap * k_lay, *c_old = t + 4 * cap * k_lay,
           *c_new = t + 5 * cap * k_lay;
    int *pass_of = first + cap * k_lay;
    size_t measured = 0, planned = 0;
    for (size_t blk = 0; blk < blocks; ++blk) planned += base + (blk < extra);
    for (size_t pass = 0; pass < passes && row->kind == FBA_PAIRED; ++pass)
        for (size_t l = 0; l < k_lay && row->kind == FBA_PAIRED; ++l) {
            size_t per = base + (pass * k_lay + l < extra);
            memset(p, 0, sizeof *p);
            p->run = row->name;
            p->n = row->n;
            /* a block of two rounds or more starts with one more, not
             * used: both sides' setup ran just before it, in the order
             * their threads started, so its first epoch finds the caches
             * as the other side's setup left them (not for epochs of
             * FBA_WARM_EPOCH_S or more: there the caches' state is a small
             * part of the epoch, and one more would cost a long epoch) */
            size_t warm = per >= 2 && (double)iters * per_iter_s < FBA_WARM_EPOCH_S ? 1 : 0;
            p->rounds = per + warm;
            p->iters = iters;
            p->bench = bench;
            p->side[0] = &o->all[l];
            p->side[1] = &o->all[k_lay + l];
            /* which side goes first: alternating from round to round,
             * and from block to block (half the layouts start old-first) */
            p->parity = (pass + l + got_l[l]) % 2;
            /* a new seed each block: the clock's nanoseconds, mixed */
            p->shift_seed = fba_mix(fb__clock_now_ns() + 2 * l);
            bool ok[2];
            fba_block(p, ok);
            for (int s = 0; s < 2; ++s) {
                if (!p->error[s][0] && ok[s]) continue;
                row->kind = FBA_ERROR;
                snprintf(row->error, sizeof row->error, "%s: %.240s", fba_side_name[s],
                         ok[s] ? p->error[s] : "cannot start a thread");
            }
            /* the rounds are each side's last `per` epochs (a configured
             * warmup comes first, paced too) */
            if (row->kind == FBA_PAIRED && (p->got[0] < per || p->got[1] < per)) {
                row->kind = FBA_ERROR;
                snprintf(row->error, sizeof row->error,
                         "%zu of %zu rounds measured (old %zu, new %zu)",
                         measured + (p->got[0] < p->got[1] ? p->got[0] : p->got[1]), planned,
                         p->got[0], p->got[1]);
            }
            if (row->kind != FBA_PAIRED) break;
            for (size_t r = 0; r < per; ++r) {
                size_t at = l * cap + got_l[l]++;
                size_t e0 = p->got[0] - per + r, e1 = p->got[1] - per + r;
                t_old[at] = p->t[0][e0];
                t_new[at] = p->t[1][e1];
                sw_old[at] = p->switches[0][e0];
                sw_new[at] = p->switches[1][e1];
                c_old[at] = p->cpu[0][e0];
                c_new[at] = p->cpu[1][e1];
                first[at] = (int)((r + warm + p->parity) % 2);
                pass_of[at] = passes == 1 ? (int)(2 * l / k_lay) : (int)pass;
            }
            measured += per;
        }
    row->rounds = measured;
    if (row->kind == FBA_PAIRED) {
        bool skip[FBA_MAX_ROUNDS];
        size_t kept = 0;
        double cpu_lay[2][FBA_MAX_LAYOUTS];
        for (size_t l = 0; l < k_lay; ++l) {
            size_t at = l * cap, nl = got_l[l];
            /* with one layout, all its rounds as one sample: at least the
             * sign test's fewest kept; with layouts, at least half of each */
            size_t min_keep = k_lay >= FBA_MIN_RANDOM_LAYOUTS ? (nl + 1) / 2
                              : o->min_kept > FBA_MIN_ROUNDS  ? o->min_kept
                                                              : FBA_MIN_ROUNDS;
            if (!min_keep) min_keep = 1;
            row->dropped += fba_leave_out(sw_old + at, (size_t)(sw_new - sw_old), first + at, nl,
                                          min_keep, skip);
            double told[FBA_MAX_ROUNDS], tnew[FBA_MAX_ROUNDS];
            double cold[FBA_MAX_ROUNDS], cnew[FBA_MAX_ROUNDS];
            size_t lk = 0, ck = 0;
            for (size_t j = 0; j < nl; ++j) {
                double a = t_old[at + j] / row->batch[0], b = t_new[at + j] / row->batch[1];
                if (skip[j] || !(a > 0) || !(b > 0) || kept == FBA_MAX_ROUNDS) continue;
                told[lk] = a;
                tnew[lk] = b;
                lk++;
                double ca = c_old[at + j] / row->batch[0], cb = c_new[at + j] / row->batch[1];
                if (ca >= 0 && cb >= 0) { /* NAN when a side's CPU clock was not read */
                    cold[ck] = ca;
                    cnew[ck] = cb;
                    ck++;
                }
                row->lr[kept] = log(b) - log(a);
                row->lr_layout[kept] = (unsigned char)l;
                row->lr_pass[kept] = (unsigned char)pass_of[at + j];
                kept++;
            }
            row->lay_old[l] = lk ? fb__median(told, lk) : NAN;
            row->lay_new[l] = lk ? fb__median(tnew, lk) : NAN;
            /* CPU only when every kept round of the layout has it */
            cpu_lay[0][l] = lk && ck == lk ? fb__median(cold, ck) : NAN;
            cpu_lay[1][l] = lk && ck == lk ? fb__median(cnew, ck) : NAN;
        }
        for (int s = 0; s < 2; ++s) { /* combined as the times are: ab_judge.c */
            double sum = 0;
            size_t used = 0;
            bool all = true;
            for (size_t l = 0; l < k_lay; ++l) {
                double w = s ? row->lay_new[l] : row->lay_old[l];
                if (!(w > 0) || !isfinite(w)) continue; /* a layout that kept nothing */
                if (!(cpu_lay[s][l] > 0) || !isfinite(cpu_lay[s][l]))
                    all = false;
                else {
                    sum += log(cpu_lay[s][l]);
                    used++;
                }
            }
            double v = all && used ? exp(sum / (double)used) : NAN;
            if (s)
                row->cpu_new = v;
            else
                row->cpu_old = v;
        }
        row->n_lr = kept;
    }
    free(t);
    free(first);
    free(p);
}

static void fba_calib_free(fba_calib *c) {
    for (int s = 0; s < 2; ++s) {
        fba_names_free(&c[s].runs);
        free(c[s].run);
    }
    free(c);
}

/* A run's error that is fb_skip's row ("skipped: <why>", src/handle/misuse.c):
 * an empty error counts as skipped too, so that one side's skip with the
 * other side's measurement is still a failure only through the other's. */
static bool fba_is_skip(const char *e) { return !e[0] || strncmp(e, "skipped: ", 9) == 0; }

/* One benchmark (an instance, as listed) on both sides: its runs' rows. */
int fba_bench(const fba_side *sides, const fba_opts *o, const char *bench, double n, bool in_old,
              bool in_new, fba_rows *rows) {
    fba_calib *c = calloc(2, sizeof *c);
    if (!c) return FB_ENOMEM;
    if (in_old) fba_calibrate(&sides[0], bench, n, &c[0]);
    if (in_new) fba_calibrate(&sides[1], bench, n, &c[1]);
    for (int s = 0; s < 2; ++s)
        for (size_t i = 0; i < c[s].runs.n; ++i) {
            const char *run = c[s].runs.v[i];
            long j = fba_names_find(&c[1 - s].runs, run);
            if (s == 1 && j >= 0) continue; /* paired with old's */
            fba_kind kind = j < 0 ? (s == 0 ? FBA_GONE : FBA_NEW) : FBA_PAIRED;
            fba_row *row = fba_rows_add(rows, run, n, kind);
            if (!row) {
                fba_calib_free(c);
                return FB_ENOMEM;
            }
            size_t i0 = s == 0 ? i : (size_t)(j < 0 ? 0 : j);
            size_t i1 = s == 1 ? i : (size_t)(j < 0 ? 0 : j);
            const fba_calib_run none = {NAN, "", 1, ""};
            const fba_calib_run *k0 = i0 < c[0].runs.n ? &c[0].run[i0] : &none;
            const fba_calib_run *k1 = i1 < c[1].runs.n ? &c[1].run[i1] : &none;
            double t[2] = {k0->per_iter_s, k1->per_iter_s};
            /* the suite's own units: times per unit (fb_set_batch) */
            row->batch[0] = k0->batch > 0 ? k0->batch : 1;
            row->batch[1] = k1->batch > 0 ? k1->batch : 1;
            snprintf(row->unit, sizeof row->unit, "%s", kind == FBA_NEW ? k1->unit : k0->unit);
            /* a name the runner refuses: the runner's line, nothing measured */
            if (fba_name_refused(bench, run, row->error, sizeof row->error)) {
                row->kind = FBA_ERROR;
                row->bad_name = true;
                continue;
            }
            if (kind == FBA_GONE) row->t_old = t[0] / row->batch[0];
            if (kind == FBA_NEW) row->t_new = t[1] / row->batch[1];
            const char *err0 = k0->error;
            const char *err1 = k1->error;
            if (kind != FBA_PAIRED) {
                const char *e = kind == FBA_GONE ? err0 : err1;
                if (e[0]) {
                    row->kind = FBA_ERROR;
                    /* the side's error, cut to fit after "old: " */
                    snprintf(row->error, sizeof row->error, "%s: %.240s",
                             fba_side_name[kind == FBA_NEW], e);
                    row->skipped = fba_is_skip(e);
                }
                continue;
            }
            if (err0[0] || err1[0]) {
                row->kind = FBA_ERROR;
                /* the same error on both sides is said once */
                const char *who = !err0[0]                  ? "new"
                                  : strcmp(err0, err1) == 0 ? "old and new"
                                                            : "old";
                snprintf(row->error, sizeof row->error, "%s: %.240s", who, err0[0] ? err0 : err1);
                /* fb_skip on both sides (Google Benchmark's SkipWithError):
                 * a row that says why, no failure, as in the runner */
                row->skipped = fba_is_skip(err0) && fba_is_skip(err1);
                continue;
            }
            fba_measure_pair(sides, o, bench, t[0] > t[1] || !(t[1] > 0) ? t[0] : t[1], row);
        }
    fba_calib_free(c);
    return FB_OK;
}
