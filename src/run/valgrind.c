/* Exact counts under Valgrind's Callgrind, the client side (docs/valgrind.md).
 *
 * Under Valgrind every run switches Callgrind's collection on right after the
 * clock read that starts an epoch and off right before the one that ends it,
 * so with --collect-atstart=no Callgrind sees the measured loops and nothing
 * else. With FEMTOBENCH_VALGRIND set (the runner's -valgrind sets it in its
 * child) a run follows a fixed schedule instead of the time-based one:
 *
 *   warmup 1, count 1, count 2            the probe: instructions per call p
 *   warmup n, count n, count 2n           n: the power of two with n * p >= 10^6
 *
 * (the second line only when n > 1; with epoch_iterations = E set: warmup E,
 * count E, count 2E). Each counted epoch is zeroed before and dumped after
 * (CALLGRIND_DUMP_STATS_AT), its dump file read back, and the result is
 * (count(2n) - count(n)) / n: whatever each epoch costs besides its
 * iterations (the toggles, the calls around the loop) is the same in both
 * epochs and cancels exactly. The warmup epochs are not counted: they resolve
 * lazily bound symbols and fill the simulated caches. */
#include "valgrind.h"

#include "process.h"
#include "result.h"
#include "text.h"
#include "valgrind_dump.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#if FB_HAVE_VALGRIND
#include <valgrind/callgrind.h>
#endif

/* Instructions a counted epoch should cover at least, so that a cost paid
 * every k calls (a buffer refill) is averaged over many calls. */
#define FB__VG_TARGET_INSTRUCTIONS 1000000.0
#define FB__VG_MAX_ITERATIONS ((uint64_t)1 << 24)

/* ---------------------------------------------------------------- runs */

/* The schedule: warm up, count 1 and 2 iterations (the probe), warm up at n,
 * count n and 2n (the pair), then count the pair's first epoch again
 * (FB__VG_AGAIN). When both epochs of n iterations counted the same
 * instructions the pair is exact. When they differ (input shuffled anew for
 * each epoch, an allocator that has not settled), one count would be one
 * draw: the run counts FB__VG_PAIRS more pairs (the epoch counted again is
 * the second pair's first epoch) and reports their median pair with the
 * least and most instructions per iteration of them, its spread. */
enum {
    FB__VG_WARM1,
    FB__VG_A,
    FB__VG_B,
    FB__VG_WARMN,
    FB__VG_C,
    FB__VG_D,
    FB__VG_AGAIN,
    FB__VG_END
};

struct fb__vg_run {
    const fb__callgrind *proc; /* the process state's facts */
    char name[96];             /* for the dump's trigger: printable, no blanks */
    int phase;
    bool toggled;    /* collection switched on by fb__vg_loop_start */
    uint64_t n;      /* iterations of the current epoch */
    uint64_t pair_n; /* n of the counted pairs (count n, count 2n) */
    uint64_t min_n;
    fb__vg_dump a, b; /* the probe */
    /* the counted pairs: pc[k] n iterations, pd[k] 2n; pair 0 is the
     * first, left out when the count moved (below) */
    fb__vg_dump pc[FB__VG_PAIRS + 1], pd[FB__VG_PAIRS + 1];
    unsigned k; /* the pair being counted */
    void *shim; /* held across an epoch to move the heap (fb__vg_shift) */
    char *error;
    struct fb__vg_result *res;
};

static bool fb__vg_counted(const fb__vg_run *v) {
    return v->phase == FB__VG_A || v->phase == FB__VG_B || v->phase == FB__VG_C ||
           v->phase == FB__VG_D || v->phase == FB__VG_AGAIN;
}

fb__vg_run *fb__vg_run_new(const char *name, uint64_t epoch_iterations, uint64_t min_iterations) {
    const fb__callgrind *proc = fb__process_callgrind();
    if (!proc->on) return NULL;
    fb__vg_run *v = calloc(1, sizeof *v);
    if (!v) return NULL;
    v->proc = proc;
    size_t o = 0;
    for (const unsigned char *p = (const unsigned char *)name; *p && o + 1 < sizeof v->name; ++p)
        v->name[o++] = *p > ' ' && *p < 0x7f ? (char)*p : '_';
    v->name[o] = '\0';
    v->min_n = min_iterations ? min_iterations : 1;
    if (epoch_iterations) {
        v->phase = FB__VG_WARMN;
        v->n = v->pair_n = epoch_iterations;
    } else {
        v->phase = FB__VG_WARM1;
        v->n = 1;
    }
#if FB_HAVE_VALGRIND
    /* the runner starts Callgrind with --instr-atstart=no: instrument from
     * here (a no-op when it already is) */
    if (proc->exact) CALLGRIND_START_INSTRUMENTATION;
#endif
    return v;
}

void fb__vg_run_free(fb__vg_run *v) {
    if (!v) return;
    free(v->shim);
    free(v->error);
    free(v->res);
    free(v);
}

bool fb__vg_exact(const fb__vg_run *v) { return v && v->proc->exact; }

uint64_t fb__vg_first(fb__vg_run *v) { return v->n; }

void fb__vg_loop_start(fb__vg_run *v) {
#if FB_HAVE_VALGRIND
    if (!v->proc->exact || fb__vg_counted(v)) {
        if (v->proc->exact) CALLGRIND_ZERO_STATS;
        CALLGRIND_TOGGLE_COLLECT;
        v->toggled = true;
    }
#else
    (void)v;
#endif
}

void fb__vg_loop_stop(fb__vg_run *v) {
#if FB_HAVE_VALGRIND
    if (v->toggled) CALLGRIND_TOGGLE_COLLECT;
#endif
    v->toggled = false;
}

static void fb__vg_fail(fb__vg_run *v, const char *fmt, ...) FB__PRINTF(2, 3);
static void fb__vg_fail(fb__vg_run *v, const char *fmt, ...) {
    if (v->error) return;
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    v->error = fb__strdup(buf);
}

/* Dumps the counts of the epoch just ended and reads them back. */
static int fb__vg_dump_read(fb__vg_run *v, fb__vg_dump *d) {
    char tag[160], path[sizeof v->proc->base + 16], why[128];
    /* the process state numbers the dump as Callgrind does */
    unsigned k = fb__process_callgrind_dump(v->n, v->name, tag, sizeof tag);
    snprintf(path, sizeof path, "%s.%u", v->proc->base, k);
    FILE *f = fopen(path, "r");
    if (!f) {
        fb__vg_fail(v,
                    "no Callgrind output '%s' (%s): run under valgrind --tool=callgrind "
                    "--collect-atstart=no, and with --callgrind-out-file=F set "
                    "FEMTOBENCH_CALLGRIND_OUT=F",
                    path, strerror(errno));
        return -1;
    }
    int rc = fb__vg_parse_dump(f, d, why, sizeof why);
    fclose(f);
    if (rc) {
        fb__vg_fail(v, "Callgrind output '%s': %s", path, why);
        return -1;
    }
    if (strncmp(d->trigger, "Client Request: ", 16) != 0 || strcmp(d->trigger + 16, tag) != 0) {
        fb__vg_fail(v,
                    "Callgrind output '%s' is another dump than femtobench's '%s' (does the "
                    "program dump Callgrind's counts itself?)",
                    path, tag);
        return -1;
    }
    if (!(d->have & (1u << FB__VG_IR))) {
        fb__vg_fail(v, "Callgrind output '%s' has no Ir event", path);
        return -1;
    }
    return 0;
}

/* Instructions per iteration of one counted pair, as fb__vg_derive computes
 * them (signed: a pair of a moving count may even be negative). */
static double fb__vg_pair_ins(const fb__vg_dump *c, const fb__vg_dump *d, uint64_t n1,
                              uint64_t n2) {
    return (double)(int64_t)(d->totals[FB__VG_IR] - c->totals[FB__VG_IR]) / (double)(n2 - n1);
}

/* The pairs are complete: keep the median pair (or fail when the counts
 * show that collection was not limited to the loop). pairs is 1 for an
 * exact count. */
static void fb__vg_take(fb__vg_run *v, const fb__vg_dump *c, const fb__vg_dump *d, unsigned pairs,
                        uint64_t n1, uint64_t n2) {
    if (d[0].totals[FB__VG_IR] < c[0].totals[FB__VG_IR] + (n2 - n1)) {
        /* every iteration executes at least one instruction (the loop's
         * own branch): fewer means the toggles were inverted */
        fb__vg_fail(v, "Callgrind counted no instruction inside the loop: start valgrind with "
                       "--collect-atstart=no");
        return;
    }
    struct fb__vg_result *r = calloc(1, sizeof *r);
    if (!r) {
        fb__vg_fail(v, "out of memory");
        return;
    }
    /* the median pair by instructions (pairs is odd), found by counting
     * ranks: no more than FB__VG_PAIRS of them */
    unsigned med = 0;
    double lo = INFINITY, hi = -INFINITY;
    for (unsigned i = 0; i < pairs; ++i) {
        double x = fb__vg_pair_ins(&c[i], &d[i], n1, n2);
        unsigned below = 0, equal = 0;
        for (unsigned j = 0; j < pairs; ++j) {
            double y = fb__vg_pair_ins(&c[j], &d[j], n1, n2);
            below += y < x;
            equal += y == x;
        }
        if (below <= pairs / 2 && below + equal > pairs / 2) med = i;
        if (x < lo) lo = x;
        if (x > hi) hi = x;
        r->pair_ins[i] = x;
    }
    r->n1 = n1;
    r->n2 = n2;
    r->have = c[med].have & d[med].have;
    memcpy(r->c1, c[med].totals, sizeof r->c1);
    memcpy(r->c2, d[med].totals, sizeof r->c2);
    r->cache = (r->have & (1u << FB__VG_D1MR)) != 0;
    fb__vg_derive(r);
    r->pairs = pairs;
    r->ins_lo = lo;
    r->ins_hi = hi;
    double mid = r->per_iter[FB_VG_INSTRUCTIONS];
    r->wild = hi - lo > FB__VG_WILD_FRACTION * fabs(mid);
    free(v->res);
    v->res = r;
}

/* Moves where the op's next allocations land: a block of a size of its own
 * for each k, held until the next call. The count of code whose path
 * depends on addresses (memcpy's alignment, a hash of pointers) differs
 * from one process to another, as what a process allocated before the op
 * moves the heap; counting the second epoch of n iterations and each later
 * pair with the heap moved shows that difference as a spread within one
 * run, not as a change between two runs of the same code. The sizes are
 * past the allocators' small caches (glibc's tcache ends at 1 KiB) and step
 * by 16 bytes, the usual alignment. */
static void fb__vg_shift(fb__vg_run *v, unsigned k) {
    free(v->shim);
    v->shim = k ? malloc(2048 + 16 * (size_t)k) : NULL;
    if (v->shim) memset(v->shim, 0, 16); /* used: not optimized away */
}

uint64_t fb__vg_next(fb__vg_run *v) {
    if (fb__vg_counted(v)) {
        fb__vg_dump *d = v->phase == FB__VG_A       ? &v->a
                         : v->phase == FB__VG_B     ? &v->b
                         : v->phase == FB__VG_C     ? &v->pc[v->k]
                         : v->phase == FB__VG_AGAIN ? &v->pc[1]
                                                    : &v->pd[v->k];
        if (fb__vg_dump_read(v, d) != 0) v->phase = FB__VG_END;
    }
    switch (v->phase) {
    case FB__VG_WARM1:
        v->phase = FB__VG_A;
        v->n = 1;
        break;
    case FB__VG_A:
        v->phase = FB__VG_B;
        v->n = 2;
        break;
    case FB__VG_B: {
        fb__vg_take(v, &v->a, &v->b, 1, 1, 2);
        if (v->error) {
            v->phase = FB__VG_END;
            break;
        }
        /* n: the power of two with n * p >= the target, at least min_n */
        double p = v->res->per_iter[FB_VG_INSTRUCTIONS];
        uint64_t n = 1;
        while (n < FB__VG_MAX_ITERATIONS && (double)n * p < FB__VG_TARGET_INSTRUCTIONS) n *= 2;
        if (n < v->min_n) n = v->min_n;
        if (n == 1) {
            /* the probe is the first pair: check it */
            v->pc[0] = v->a;
            v->pd[0] = v->b;
            v->phase = FB__VG_AGAIN;
            v->n = v->pair_n = 1;
            fb__vg_shift(v, 1);
        } else {
            v->phase = FB__VG_WARMN;
            v->n = v->pair_n = n;
        }
        break;
    }
    case FB__VG_WARMN:
        v->phase = FB__VG_C;
        v->n = v->pair_n;
        break;
    case FB__VG_C:
        v->phase = FB__VG_D;
        v->n = 2 * v->pair_n;
        break;
    case FB__VG_D:
        if (v->k == 0) {
            /* the same n iterations must count the same instructions, with
             * the heap moved too */
            v->phase = FB__VG_AGAIN;
            v->n = v->pair_n;
            fb__vg_shift(v, 1);
        } else if (v->k < FB__VG_PAIRS) {
            ++v->k;
            v->phase = FB__VG_C;
            v->n = v->pair_n;
            fb__vg_shift(v, v->k);
        } else {
            /* pairs 1 to FB__VG_PAIRS: the first pair is left out, it is
             * often the allocator still settling (an op that allocates
             * counts more in its first pair, then the same in every later
             * one), and one draw fewer of a shuffled input costs nothing */
            fb__vg_take(v, v->pc + 1, v->pd + 1, FB__VG_PAIRS, v->pair_n, 2 * v->pair_n);
            v->phase = FB__VG_END;
        }
        break;
    case FB__VG_AGAIN:
        if (v->pc[1].totals[FB__VG_IR] == v->pc[0].totals[FB__VG_IR]) {
            fb__vg_take(v, v->pc, v->pd, 1, v->pair_n, 2 * v->pair_n);
            v->phase = FB__VG_END;
        } else {
            /* a moving count: the epoch just counted opens the second pair */
            v->k = 1;
            v->phase = FB__VG_D;
            v->n = 2 * v->pair_n;
        }
        break;
    default:
        v->phase = FB__VG_END;
        break;
    }
    if (v->phase == FB__VG_END) {
        fb__vg_shift(v, 0);
#if FB_HAVE_VALGRIND
        CALLGRIND_STOP_INSTRUMENTATION;
#endif
        return 0;
    }
    return v->n;
}

void fb__vg_finish(fb__vg_run *v, fb_result *res) {
    if (!v || !v->proc->exact) return;
    if (!res->error && v->error) {
        res->error = v->error;
        v->error = NULL;
    }
    if (!res->error && !v->res) res->error = fb__strdup("the counted epochs did not complete");
    struct fb__vg_result *g = v->res;
    v->res = NULL;
    if (!g) g = calloc(1, sizeof *g);
    if (!g) return;
    if (res->error) {
        for (int m = 0; m < FB_VG_MEASURE_COUNT; ++m) g->per_iter[m] = NAN;
        res->vg = g;
        return;
    }
    /* the result is the counts: no time, two epochs (the counted pair) */
    uint64_t *it = malloc(2 * sizeof *it);
    if (!it) {
        free(g);
        res->error = fb__strdup("out of memory");
        return;
    }
    it[0] = g->n1;
    it[1] = g->n2;
    free(res->iterations);
    res->iterations = it;
    res->epochs = 2;
    res->has = 0;
    for (int m = 0; m < FB_MEASURE_COUNT; ++m) {
        free(res->values[m]);
        res->values[m] = NULL;
    }
    res->vg = g;
}
