/* femtobench: a micro-benchmarking library and suite runner for C (and C++).
 *
 * Minimal use:
 *
 *     #include <femtobench.h>
 *     int main(void) {
 *         fb_bench *b = fb_bench_new();
 *         uint64_t x = 1;
 *         FB_RUN(b, "x += x") { x += x; fb_do_not_optimize(x); }
 *         fb_bench_free(b);
 *     }
 *
 * A suite:
 *
 *     FB_BENCHMARK(Sum) { ... FB_RUN(b, "Sum") { ... } }   // b is the fb_bench *
 *     FB_MAIN()
 *
 * Every public name starts with fb_ / FB_; names with fb__ / FB__ are internal.
 * Configuration macros (define before including this header):
 *   FEMTOBENCH_IMPLEMENTATION   single-header build only: compile the implementation here.
 * Environment variables read at run time: FEMTOBENCH_CONFIG, FEMTOBENCH_ENDLESS,
 * FEMTOBENCH_SUPPRESS_WARNINGS (see README.md).
 */
#ifndef FEMTOBENCH_H
#define FEMTOBENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define FB_VERSION_MAJOR 0
#define FB_VERSION_MINOR 2
#define FB_VERSION_PATCH 0
#define FB_VERSION_STRING "0.2.0"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- basics */

typedef struct fb_bench fb_bench;
typedef struct fb_result fb_result;

/* Measures kept per epoch. Names (fb_measure_name) are nanobench's. */
typedef enum fb_measure {
    FB_ELAPSED = 0,        /* "elapsed": seconds per iteration */
    FB_INSTRUCTIONS,       /* "instructions" */
    FB_CPUCYCLES,          /* "cpucycles" (core cycles) */
    FB_BRANCHINSTRUCTIONS, /* "branchinstructions" */
    FB_BRANCHMISSES,       /* "branchmisses" */
    FB_PAGEFAULTS,         /* "pagefaults" */
    FB_CONTEXTSWITCHES,    /* "contextswitches" */
    /* "cputime": seconds of the measuring thread's CPU time per iteration
     * (CLOCK_THREAD_CPUTIME_ID; Windows: the thread's cycle time), read
     * outside the timed region like the clock; a group of threads: the sum
     * of the threads' CPU time over all their iterations. Time spent
     * descheduled is wall time, not CPU time (docs/design.md, "CPU time") */
    FB_CPUTIME,
    FB_MEASURE_COUNT
} fb_measure;

/* Error codes: 0 is success, failures are negative. One list (libuv's
 * pattern): FB_ERRNO_MAP(X) expands X(name, code, message) per error, and
 * both this enum and fb_strerror() are generated from it. */
#define FB_ERRNO_MAP(X)                                                                            \
    X(OK, 0, "success")                                                                            \
    X(EINVAL, -1, "invalid argument")                                                              \
    X(ENOMEM, -2, "out of memory")                                                                 \
    X(EIO, -3, "input/output error")                                                               \
    X(ENOTSUP, -4, "not supported on this system")                                                 \
    X(ENOENT, -5, "no such benchmark")

#define FB__ERRNO_ENUM(name, code, msg) FB_##name = code,
enum { FB_ERRNO_MAP(FB__ERRNO_ENUM) };
#undef FB__ERRNO_ENUM

const char *fb_strerror(int err);
const char *fb_version(void);              /* "MAJOR.MINOR.PATCH" */
const char *fb_measure_name(fb_measure m); /* NULL for an invalid m */

/* --------------------------------------------------------------- handle */

fb_bench *fb_bench_new(void);
void fb_bench_free(fb_bench *b);

/* Configuration. Settings made in code win over FEMTOBENCH_CONFIG; the
 * runner's command-line options win over both. Counts and times have a
 * documented range (docs/reliability.md): a value outside it is clamped to
 * it, a NaN or an invalid batch, time unit or complexity N is refused; both
 * with a line on the diagnostics stream. */
void fb_set_title(fb_bench *b, const char *title);         /* "benchmark" */
void fb_set_unit(fb_bench *b, const char *unit);           /* "op" */
void fb_set_batch(fb_bench *b, double batch);              /* 1: units per call */
void fb_set_epochs(fb_bench *b, size_t epochs);            /* 11 */
void fb_set_epoch_iterations(fb_bench *b, uint64_t n);     /* 0 = automatic */
void fb_set_min_epoch_iterations(fb_bench *b, uint64_t n); /* 1 */
void fb_set_min_epoch_time(fb_bench *b, double seconds);
void fb_set_max_epoch_time(fb_bench *b, double seconds);
void fb_set_max_total_time(fb_bench *b, double seconds); /* budget per run */
/* At least this much measured time per run (0, at most 60 s): more epochs
 * of the usual length, never longer ones, so that a preemption stays one
 * epoch the median leaves out (docs/design.md, "A longer run"). */
void fb_set_min_time(fb_bench *b, double seconds);
void fb_set_warmup(fb_bench *b, uint64_t iterations); /* 0 */
void fb_set_relative(fb_bench *b, bool relative);
void fb_set_time_unit(fb_bench *b, double seconds, const char *label); /* 1e-9 "ns" */
void fb_set_output(fb_bench *b, FILE *out);                            /* stdout; NULL = silent */
/* Where messages that are not results go (warnings about the machine, notes
 * about the counters, a refused nested run): stderr by default, NULL = none. */
void fb_set_diagnostics(fb_bench *b, FILE *diag);
void fb_set_complexity_n(fb_bench *b, double n);        /* 0 = unset */
void fb_set_performance_counters(fb_bench *b, bool on); /* true */

/* A custom clock returning nanoseconds (e.g. a fake clock in tests, or a
 * GPU timer). resolution_s is its tick, which sets the epoch target. */
typedef uint64_t (*fb_clock_fn)(void *ctx);
void fb_set_clock(fb_bench *b, fb_clock_fn now_ns, void *ctx, double resolution_s);

/* Context for dashboards: a key/value pair every file of b records (the
 * commit, the branch; the runner's -context=key=value). Keys: letters,
 * digits, '_', '-', '.', at most 64 bytes, not one the files use
 * themselves; values at most 1024 bytes without control characters. Returns
 * 0, or FB_EINVAL (a bad or duplicated key, a bad value: a line on the
 * diagnostics stream), or FB_ENOMEM. */
int fb_set_context(fb_bench *b, const char *key, const char *value);

double fb_complexity_n(const fb_bench *b);
double fb_batch(const fb_bench *b);
const char *fb_unit(const fb_bench *b);
const char *fb_title(const fb_bench *b);

/* ------------------------------------------------------------------ run */

typedef void (*fb_op)(void *ctx);

/* Runs op(ctx) repeatedly, records a result and prints its table row. A NULL
 * name means the benchmark's registered name (FB_BENCHMARK), else "noname".
 * Returns the result (an error result if the op could not be measured), or
 * NULL when nothing was recorded (out of memory, endless mode interrupted). */
const fb_result *fb_run(fb_bench *b, const char *name, fb_op op, void *ctx);

/* The result of the last run on b, or NULL. */
const fb_result *fb_last_result(const fb_bench *b);

/* FB_RUN(b, "name") { body }: the body is inlined into the timed loop, no
 * call per iteration. `continue` ends one iteration early (it still counts);
 * `break` is not allowed: it is detected and the row becomes an error. The
 * body must not `return` or `goto` out (the epoch would never be closed). */
#define FB_RUN(b, name)                                                                            \
    for (fb__loop fb__loop_ = fb__loop_begin((b), (name), FB__CALLSITE);                           \
         fb__loop_next(&fb__loop_);)                                                               \
        for (uint64_t fb__i_ = fb__loop_.n, fb__once_ = 1u + fb__align_here(); fb__once_;          \
             fb__once_ = 0, fb__loop_done(&fb__loop_, fb__i_))                                     \
            for (; fb__i_; --fb__i_)

#define fb_run(b, name, op, ctx) fb__run_at((b), (name), (op), (ctx), FB__CALLSITE)

/* Untimed setup and teardown (docs/design.md, "Setup and teardown"):
 * setup(ctx) runs before every epoch of the following runs on b (warmup,
 * upscaling and measuring epochs alike), teardown(ctx) after every epoch,
 * both outside the clock reads and the performance counters. Per epoch, not
 * per iteration: with fb_set_epoch_iterations(b, 1) an epoch is one call.
 * NULL removes it. */
/* Neither may free b: fb_bench_free called from a setup, a teardown or an
 * op that the library calls for b is refused with a diagnostic (the bench
 * stays valid). After an FB_RUN body left with return or goto, it frees the
 * bench and ends the run. */
void fb_set_setup(fb_bench *b, fb_op setup, void *ctx);
void fb_set_teardown(fb_bench *b, fb_op teardown, void *ctx);

/* Manual timing (Google Benchmark's UseManualTime / SetIterationTime): with
 * fb_set_manual_time(b, true) the following runs on b record, for each
 * epoch, the sum of the seconds the body gave with fb_set_iteration_time
 * during it instead of the clock (GPU work timed by events, I/O timed by
 * the device, a region inside a larger body). Give the time of every
 * iteration (or of the whole epoch, once). fb_set_iteration_time returns
 * FB_EINVAL for a NaN, negative or infinite time, or with manual timing off;
 * an epoch without any call is bad input too: the next run becomes an error
 * row saying why (the runner exits with status 2).
 *
 * fb_exclude_begin(b) ... fb_exclude_end(b) inside the body takes the time
 * between them out of the epoch's time (setup of the next input, a check):
 * two clock reads, no syscall, no counter stopped; about one clock read
 * (~20-40 ns) of each pair stays in the measurement (README.md, "Manual
 * timing"). The hardware counters still count the region. */
void fb_set_manual_time(fb_bench *b, bool on);
int fb_set_iteration_time(fb_bench *b, double seconds);
void fb_exclude_begin(fb_bench *b);
void fb_exclude_end(fb_bench *b);

/* ------------------------------------------------------------- threads */
/* A group of threads (docs/threads.md; Google Benchmark's ->Threads(n)):
 * fb_run_threads(b, n, body, ctx) calls body(handle, ctx) on n threads at
 * once, each with its own fb_bench handle: b on thread 0 (the leader), a
 * handle made for the group on each other thread; every one of the n is a
 * thread the call starts (the calling thread waits: a thread that leaves by
 * pthread_exit, the leader's included, breaks the group, never the
 * caller). Every
 * FB_RUN / fb_run in the body is one run of the whole group, recorded on b
 * as "name/threads:n": the leader's schedule picks each epoch's iterations
 * (the same for every thread), all threads start each epoch together at a
 * barrier, the epoch's time is the longest thread's, and the time per
 * iteration is that time / (iterations per thread * n), as Google
 * Benchmark's real time: a group that scales perfectly shows 1/n of one
 * thread's time. Each thread's counters are opened on that thread and
 * summed. Every thread must make the same runs in the same order.
 * Returns 0, FB_EINVAL (n = 0 or over 256, a NULL body, b busy: a line on
 * the diagnostics stream), FB_ENOTSUP (n > 1 in a build without threads) or
 * FB_ENOMEM. FB_BENCHMARK_THREADS(fn, 1, 2, 4) registers fn as a family
 * over thread counts for the runner. */
typedef void (*fb_group_fn)(fb_bench *b, void *ctx);
int fb_run_threads(fb_bench *b, size_t threads, fb_group_fn body, void *ctx);
size_t fb_thread_index(const fb_bench *b); /* 0 .. n-1 in a group, 0 outside */
size_t fb_threads(const fb_bench *b);      /* n in a group, 1 outside */
/* The threads of a result (1 outside a group), and thread i's median
 * seconds per iteration of its own (its epoch time / its iterations; NAN
 * past the end or outside a group): the spread of the threads. */
size_t fb_result_threads(const fb_result *r);
double fb_result_thread_median(const fb_result *r, size_t i);

/* ----------------------------------------------------------- comparison */
/* A paired, interleaved comparison (docs/compare.md): every alternative runs
 * the same iteration count, one epoch of each per round, in a cyclic Latin
 * square order, so drift of the machine hits all of them alike; the ratio is
 * the median of the per-round ratios, with a sign-test interval. */

typedef struct fb_alternative {
    const char *name;
    fb_op op;
    void *ctx;
} fb_alternative;
typedef struct fb_comparison fb_comparison;

/* Runs the alternatives paired and interleaved; alts[0] is the baseline.
 * Prints the table and the summary to the bench's output; returns the
 * comparison (owned by b), or NULL on bad input (n < 2, a NULL op or name,
 * duplicate names: one line "femtobench: error: comparison '<title>': ..." to the
 * bench's diagnostics stream, fb_set_diagnostics, stderr by default; none
 * into the results on its output). A NULL title
 * means the benchmark's registered name, else the bench's title. */
const fb_comparison *fb_compare(fb_bench *b, const char *title, const fb_alternative *alts,
                                size_t n);
#define fb_compare(b, title, alts, n) fb__compare_at((b), (title), (alts), (n), FB__CALLSITE)

/* FB_COMPARE(b, "title") { FB_ALTERNATIVE("a") { body } FB_ALTERNATIVE("b") { body } }
 * The same with the bodies inlined into the timed loops, as FB_RUN does, and
 * the same schedule. The block runs once per epoch (code outside the
 * alternatives is untimed setup); it must name the same alternatives in the
 * same order every time and must not `break`, `return` or `goto` out. An
 * FB_ALTERNATIVE outside an FB_COMPARE does not compile (the error names
 * fb__FB_ALTERNATIVE_must_be_inside_FB_COMPARE). */
#define FB_COMPARE(b, title)                                                                       \
    for (fb__cmp fb__FB_ALTERNATIVE_must_be_inside_FB_COMPARE =                                    \
             fb__cmp_begin((b), (title), FB__CALLSITE);                                            \
         fb__cmp_next(&fb__FB_ALTERNATIVE_must_be_inside_FB_COMPARE);)                             \
        for (int fb__cmp_once_ = 1; fb__cmp_once_;                                                 \
             fb__cmp_once_ = 0, fb__FB_ALTERNATIVE_must_be_inside_FB_COMPARE.pass_ok = 1)
#define FB_ALTERNATIVE(name)                                                                       \
    for (uint64_t fb__alt_i_ = fb__cmp_alt(&fb__FB_ALTERNATIVE_must_be_inside_FB_COMPARE, (name)), \
                  fb__alt_once_ = fb__align_here() + (fb__alt_i_ ? 1u : 0u);                       \
         fb__alt_once_; fb__alt_once_ = 0,                                                         \
                  fb__cmp_alt_done(&fb__FB_ALTERNATIVE_must_be_inside_FB_COMPARE, fb__alt_i_))     \
        for (; fb__alt_i_; --fb__alt_i_)

/* The last comparison made on b, or NULL; all of them in order. */
const fb_comparison *fb_last_comparison(const fb_bench *b);
size_t fb_comparison_count(const fb_bench *b);
const fb_comparison *fb_comparison_at(const fb_bench *b, size_t i);

const char *fb_comparison_title(const fb_comparison *c);
size_t fb_comparison_size(const fb_comparison *c); /* alternatives, baseline included */
const char *fb_comparison_name(const fb_comparison *c, size_t i);
/* t_baseline / t_i: 1.25 = 25% faster; 1 for i = 0; NAN when not measured. */
double fb_comparison_ratio(const fb_comparison *c, size_t i);
/* The interval on the ratio (95% for the whole table: each row's level is
 * Bonferroni-corrected, 1 - 0.05 / (size - 1), see fb_comparison_confidence). */
double fb_comparison_low(const fb_comparison *c, size_t i);
double fb_comparison_high(const fb_comparison *c, size_t i);
double fb_comparison_confidence(const fb_comparison *c);
bool fb_comparison_significant(const fb_comparison *c, size_t i); /* excludes 1; false for 0 */
size_t fb_comparison_rounds(const fb_comparison *c);
/* Rounds left out because an epoch was preempted (a context switch counted
 * in it; only where that counter works, and only while the rounds an
 * interval needs remain); their log ratios read NAN. */
size_t fb_comparison_preempted(const fb_comparison *c);
size_t fb_comparison_tied(const fb_comparison *c, size_t i); /* rounds tied at the clock's tick */
uint64_t fb_comparison_iterations(const fb_comparison *c);   /* per epoch, shared by all */
/* ln(t_baseline) - ln(t_i) in that round; NAN for a round dropped (a side
 * measured 0, or preempted) or out of range. */
double fb_comparison_log_ratio(const fb_comparison *c, size_t i, size_t round);
/* That alternative's epochs (one per round), as an ordinary result. */
const fb_result *fb_comparison_result(const fb_comparison *c, size_t i);
/* The alternative with the lowest median time (0 when none was measured). */
size_t fb_comparison_fastest(const fb_comparison *c);

/* -------------------------------------------------------------- results */

size_t fb_result_count(const fb_bench *b);
const fb_result *fb_result_at(const fb_bench *b, size_t i);

const char *fb_result_name(const fb_result *r);
const char *fb_result_title(const fb_result *r);
const char *fb_result_unit(const fb_result *r);
const char *fb_result_error(const fb_result *r); /* NULL when measured */
double fb_result_batch(const fb_result *r);
double fb_result_complexity_n(const fb_result *r); /* 0 when unset */
bool fb_result_has_arg(const fb_result *r);        /* ran as an instance of a family */
int64_t fb_result_arg(const fb_result *r);         /* its argument, 0 without one */
size_t fb_result_epochs(const fb_result *r);       /* recorded epochs */
/* Of the recorded epochs: those the thread was descheduled in, and those the
 * statistics use (docs/design.md, "Disturbed epochs"). */
size_t fb_result_disturbed_epochs(const fb_result *r);
size_t fb_result_used_epochs(const fb_result *r);
bool fb_result_has(const fb_result *r, fb_measure m);
/* Per iteration (one op call, not divided by batch); elapsed in seconds. */
double fb_result_median(const fb_result *r, fb_measure m);
double fb_result_err_pct(const fb_result *r, fb_measure m); /* MdAPE, in % */
double fb_result_min(const fb_result *r, fb_measure m);
double fb_result_max(const fb_result *r, fb_measure m);
double fb_result_mean(const fb_result *r, fb_measure m);   /* sum / iterations */
double fb_result_stddev(const fb_result *r, fb_measure m); /* of epochs, n - 1 */
double fb_result_value(const fb_result *r, fb_measure m, size_t epoch);
uint64_t fb_result_iterations(const fb_result *r, size_t epoch);
uint64_t fb_result_total_iterations(const fb_result *r);
double fb_result_total_s(const fb_result *r); /* time in recorded epochs */
bool fb_result_unstable(const fb_result *r);  /* err% >= 5 */
/* The median CPU time per unit (seconds; fb_result_median(r, FB_CPUTIME)
 * divided by the batch), over the same epochs as the wall-clock median;
 * NAN when the thread's CPU time could not be read (a custom clock). */
double fb_result_cpu_median(const fb_result *r);
/* Too few undisturbed epochs remained (fewer than 3), so the statistics
 * use descheduled ones: the value holds time the thread spent off the CPU. */
bool fb_result_descheduled(const fb_result *r);
/* The median per iteration is under a quarter of a loop holding only
 * fb_do_not_optimize: the loop did not run the op once an iteration, the
 * compiler deleted it (a body deleted entirely ends the run with an error
 * row instead: its time does not grow with iterations). */
bool fb_result_optimized_away(const fb_result *r);
/* The median per iteration is within 2x of a loop holding only
 * fb_do_not_optimize: at the loop's resolution, where one add and a body the
 * compiler reduced to the barrier cost the same (docs/design.md). */
bool fb_result_at_loop_resolution(const fb_result *r);
/* The epochs are under 100 clock resolutions: the clock's step is > 1%. */
bool fb_result_unresolved(const fb_result *r);

/* Exact counts from Valgrind's Callgrind (the runner's -valgrind, or
 * FEMTOBENCH_VALGRIND=1 under valgrind --tool=callgrind; docs/valgrind.md),
 * per iteration like the measures above: (count at n2 - count at n1) / (n2 - n1). */
typedef enum fb_vg_measure {
    FB_VG_INSTRUCTIONS = 0, /* "instructions": Ir */
    FB_VG_L1_MISSES,        /* "l1_misses": I1mr + D1mr + D1mw (-valgrind=cache) */
    FB_VG_LL_MISSES,        /* "ll_misses": ILmr + DLmr + DLmw (-valgrind=cache) */
    FB_VG_BRANCHES,         /* "branches": Bc + Bi (-valgrind=cache) */
    FB_VG_BRANCH_MISSES,    /* "branch_misses": Bcm + Bim (-valgrind=cache) */
    FB_VG_MEASURE_COUNT
} fb_vg_measure;
const char *fb_vg_measure_name(fb_vg_measure m);                /* NULL for an invalid m */
bool fb_result_counted(const fb_result *r);                     /* counted under Callgrind */
double fb_result_valgrind(const fb_result *r, fb_vg_measure m); /* NAN when not counted */
/* The counted pairs behind FB_VG_INSTRUCTIONS: 1 when the count repeated
 * exactly, else the pairs whose median it is; *lo, *hi (either may be NULL)
 * the least and most instructions per iteration of them (both the count
 * when exact). 0 and NAN when not counted. */
unsigned fb_result_valgrind_spread(const fb_result *r, double *lo, double *hi);

/* -------------------------------------------------------- user counters */
/* fb_counter(b, "name", value, flags) attaches a counter to the next run on
 * b (declare it before FB_RUN / fb_run, like fb_set_batch; the run after
 * that starts without counters; under the runner counters given after a
 * benchmark's last run, Google Benchmark's habit, are attached to that run
 * in every file, and a line on the diagnostics says so; one with no run to
 * describe makes an error row). flags:
 *   0                         the value as given ("size", "hit_ratio");
 *   FB_COUNTER_PER_ITERATION  an amount per iteration (one op call), shown
 *                             per unit of the row (divided by the batch);
 *   FB_COUNTER_RATE           an amount per iteration, shown per second:
 *                             value / the seconds one call took (bytes/s).
 * Each shows as a column of the table and in every file (README.md, "User
 * counters").
 * Returns 0, or FB_EINVAL for an empty, duplicated (within one run),
 * reserved or too long name, a value that is not finite, unknown or both
 * flags: the next run on b then becomes an error row saying why. */
enum { FB_COUNTER_RATE = 1, FB_COUNTER_PER_ITERATION = 2 };
int fb_counter(fb_bench *b, const char *name, double value, unsigned flags);
size_t fb_result_counter_count(const fb_result *r);
const char *fb_result_counter_name(const fb_result *r, size_t i); /* NULL past the end */
unsigned fb_result_counter_flags(const fb_result *r, size_t i);
/* The value as shown: rates per second at the median time (NAN when not
 * measured or past the end). */
double fb_result_counter(const fb_result *r, size_t i);

/* -------------------------------------------------------------- writers */
/* Writers only read results. Each returns 0 or a negative FB_E* code. */

int fb_write_markdown(const fb_bench *b, FILE *f);
int fb_write_csv(const fb_bench *b, FILE *f);
int fb_write_json(const fb_bench *b, FILE *f);
int fb_write_gbench_json(const fb_bench *b, FILE *f); /* FB_GBENCH_MEDIAN rows */
/* Google Benchmark JSON row layouts (docs/formats.md). */
enum {
    FB_GBENCH_MEDIAN = 0,      /* one row per result, the median: for dashboards */
    FB_GBENCH_REPETITIONS = 1, /* a row per epoch, then _mean/_median/_stddev: compare.py */
    FB_GBENCH_AGGREGATES = 2   /* _mean/_median/_stddev only */
};
int fb_write_gbench_json_rows(const fb_bench *b, FILE *f, int rows);
/* A self-contained HTML page: charts (inline SVG) and tables of every result,
 * no script or network needed to view it (docs/html.md). */
int fb_write_html(const fb_bench *b, FILE *f);
/* Bencher Metric Format JSON (bencher.dev's json adapter; docs/formats.md):
 * per benchmark its latency (ns per unit, median and a ~95% interval),
 * throughput, exact counts under Callgrind and user counters; several
 * results of one name (passes) as their median, bounded by min and max. */
int fb_write_bmf(const fb_bench *b, FILE *f);

/* ----------------------------------------------------------- complexity */

typedef struct fb_fit {
    const char *name;   /* "O(1)", "O(n)", "O(log n)", "O(n log n)", "O(n^2)", "O(n^3)" */
    double coefficient; /* seconds per f(n) */
    double constant;    /* seconds, the fitted fixed cost */
    double err_pct;     /* normalized RMS error, in % (docs/complexity.md) */
} fb_fit;

#define FB_FIT_MODELS 6

/* Fits the results of b that carry a complexity N (only those named `name`
 * when name is not NULL). Fills up to cap fits, best first; returns how many
 * models were fitted (0 when fewer than two distinct N). */
size_t fb_complexity_fit(const fb_bench *b, const char *name, fb_fit *fits, size_t cap);
/* Prints the fit table (coefficient, err%, complexity). */
int fb_write_complexity(const fb_bench *b, const char *name, FILE *f);

/* C casts in C, static_cast in C++ (clean under -Wold-style-cast). */
#ifdef __cplusplus
#define FB__CAST(T, x) static_cast<T>(x)
#else
#define FB__CAST(T, x) ((T)(x))
#endif

/* ------------------------------------------------------------------ rng */
/* A small fast generator for benchmark inputs (sfc64). Not cryptographic. */
typedef struct fb_rng {
    uint64_t a, b, c, counter;
} fb_rng;

void fb_rng_seed(fb_rng *r, uint64_t seed);

static inline uint64_t fb_rng_u64(fb_rng *r) {
    uint64_t out = r->a + r->b + r->counter++;
    r->a = r->b ^ (r->b >> 11);
    r->b = r->c + (r->c << 3);
    r->c = ((r->c << 24) | (r->c >> 40)) + out;
    return out;
}
/* Uniform in [0, range) for range <= 2^32 (multiply-shift, tiny bias). */
static inline uint32_t fb_rng_bounded(fb_rng *r, uint32_t range) {
    return FB__CAST(uint32_t, ((fb_rng_u64(r) >> 32) * FB__CAST(uint64_t, range)) >> 32);
}
/* Uniform double in [0, 1). */
static inline double fb_rng_uniform01(fb_rng *r) {
    return FB__CAST(double, fb_rng_u64(r) >> 11) * (1.0 / 9007199254740992.0);
}

/* --------------------------------------------------- optimizer barriers */

#if (defined(__GNUC__) || defined(__clang__)) && defined(__cplusplus)
/* C++: any expression, as Google Benchmark's DoNotOptimize. A modifiable
 * lvalue: the compiler assumes it is read and modified here; anything else (a
 * function's result, v.data(), a const object): assumed read. Memory too. */
#define fb_do_not_optimize(x) fb__do_not_optimize(x)
#define fb_clobber_memory() __asm__ __volatile__("" : : : "memory")
#elif defined(__GNUC__) || defined(__clang__)
/* C: x must be an lvalue (a variable, an array, *p, a[i]): the compiler
 * assumes it is read and modified here, and memory too. For a value, store
 * it in a variable first. */
#if defined(__clang__)
#define fb_do_not_optimize(x) __asm__ __volatile__("" : "+r,m"(x) : : "memory")
#else
#define fb_do_not_optimize(x) __asm__ __volatile__("" : "+m,r"(x) : : "memory")
#endif
#define fb_clobber_memory() __asm__ __volatile__("" : : : "memory")
#else
/* Fallback: hand the address to an out-of-line function the compiler cannot
 * see through. Weaker (forces x to memory) and slower (a call). */
void fb__escape(const volatile void *p);
#ifdef __cplusplus
#define fb_do_not_optimize(x) fb__escape(static_cast<const volatile void *>(&(x)))
#else
#define fb_do_not_optimize(x) fb__escape((const volatile void *)&(x))
#endif
#define fb_clobber_memory() fb__escape(NULL)
#endif

/* --------------------------------------------------------------- runner */

typedef void (*fb_bench_fn)(fb_bench *b);

/* A registration: one benchmark, or a family of instances over arguments
 * (FB_BENCHMARK_ARGS / FB_BENCHMARK_RANGE; the runner expands it, see
 * src/registry/registry.c). */
enum {
    FB__REG_ONE = 0,
    FB__REG_ARGS = 1,
    FB__REG_RANGE = 2,
    FB__REG_PRODUCT = 3,
    FB__REG_THREADS = 4
};
typedef struct fb__registration {
    const char *name;
    fb_bench_fn fn;
    struct fb__registration *next;
    int kind;            /* FB__REG_* */
    const int64_t *args; /* FB__REG_ARGS: the arguments, n_args of them */
    size_t n_args;
    int64_t lo, hi, mult; /* FB__REG_RANGE */
} fb__registration;

void fb__register(fb__registration *reg);

/* FB_BENCHMARK(fn) { body using b } registers fn under the name "fn". */
#ifdef __cplusplus
#define FB__CONSTRUCTOR(f)                                                                         \
    static void f(void);                                                                           \
    namespace {                                                                                    \
    struct f##_t_ {                                                                                \
        f##_t_() { f(); }                                                                          \
    } f##_v_;                                                                                      \
    }                                                                                              \
    static void f(void)
#else
#define FB__CONSTRUCTOR(f)                                                                         \
    static void f(void) __attribute__((constructor));                                              \
    static void f(void)
#endif

#define FB_BENCHMARK(fn)                                                                           \
    static void fn(fb_bench *b);                                                                   \
    static fb__registration fb__reg_##fn = {#fn, fn, NULL, FB__REG_ONE, NULL, 0, 0, 0, 0};         \
    FB__CONSTRUCTOR(fb__register_##fn) { fb__register(&fb__reg_##fn); }                            \
    static void fn(fb_bench *b)

/* FB_BENCHMARK_ARGS(fn, a1, a2, ...) { body } registers fn once per
 * integer argument, as the benchmarks "fn/a1", "fn/a2", ... (in that order).
 * The body reads its argument with fb_arg(b); its runs are named "name/a1"
 * (FB_RUN(b, NULL): "fn/a1") and their results carry it (fb_result_arg).
 * FB_BENCHMARK_RANGE(fn, lo, hi, mult) does the same for lo, lo*mult,
 * lo*mult^2, ... up to and including hi (hi is added when the steps miss it;
 * lo = 0 gives 0, 1, mult, ...). Bad arguments (none, mult < 2, lo < 0,
 * lo > hi, an argument twice, a name taken) make the runner exit with status
 * 2 before anything runs. The leading 0 of the array is not an argument: it
 * lets an empty list, FB_BENCHMARK_ARGS(fn, ), compile, so that the runner
 * can say what is wrong. */
#define FB__NARGS(a) (sizeof(a) / sizeof((a)[0]) - 1)
#define FB_BENCHMARK_ARGS(fn, ...)                                                                 \
    static void fn(fb_bench *b);                                                                   \
    static const int64_t fb__args_##fn[] = {0, __VA_ARGS__};                                       \
    static fb__registration fb__reg_##fn = {                                                       \
        #fn, fn, NULL, FB__REG_ARGS, fb__args_##fn + 1, FB__NARGS(fb__args_##fn), 0, 0, 0};        \
    FB__CONSTRUCTOR(fb__register_##fn) { fb__register(&fb__reg_##fn); }                            \
    static void fn(fb_bench *b)

#define FB_BENCHMARK_RANGE(fn, lo, hi, mult)                                                       \
    static void fn(fb_bench *b);                                                                   \
    static fb__registration fb__reg_##fn = {                                                       \
        #fn, fn, NULL, FB__REG_RANGE, NULL, 0, (int64_t)(lo), (int64_t)(hi), (int64_t)(mult)};     \
    FB__CONSTRUCTOR(fb__register_##fn) { fb__register(&fb__reg_##fn); }                            \
    static void fn(fb_bench *b)

/* FB_BENCHMARK_THREADS(fn, 1, 2, 4) { body } registers fn once per thread
 * count, as the benchmarks "fn/threads:1", "fn/threads:2", ... (Google
 * Benchmark's names): the runner runs each through fb_run_threads. The body
 * runs on every thread of the group with its own b (fb_thread_index(b)).
 * Counts of 0 or over 256, none, or one twice make the runner exit with
 * status 2 before anything runs. */
#define FB_BENCHMARK_THREADS(fn, ...)                                                              \
    static void fn(fb_bench *b);                                                                   \
    static const int64_t fb__threads_##fn[] = {0, __VA_ARGS__};                                    \
    static fb__registration fb__reg_##fn =                                                         \
        {#fn, fn, NULL, FB__REG_THREADS, fb__threads_##fn + 1, FB__NARGS(fb__threads_##fn),        \
         0,   0,  0};                                                                              \
    FB__CONSTRUCTOR(fb__register_##fn) { fb__register(&fb__reg_##fn); }                            \
    static void fn(fb_bench *b)

/* The argument of the running instance of a family (FB_BENCHMARK_ARGS /
 * FB_BENCHMARK_RANGE); 0 in a benchmark without one. */
int64_t fb_arg(const fb_bench *b);

/* FB_BENCHMARK_PRODUCT(fn, dim1, dim2, ...) { body } registers fn once per
 * combination of its dimensions' arguments (their product, as Google
 * Benchmark's ArgsProduct and Ranges), the first dimension varying slowest:
 * the benchmarks "fn/a/b", ... Each dimension is FB_LIST(v1, v2, ...) (1 to
 * 64 values) or FB_RANGE(lo, hi, mult) (lo, lo*mult, ... hi, as
 * FB_BENCHMARK_RANGE). At most FB_MAX_ARGS dimensions. The body reads its
 * arguments with fb_arg_at(b, i); fb_arg(b) is fb_arg_at(b, 0). Runs are
 * named "name/a/b" and their results carry the arguments
 * (fb_result_arg_at). -filter=fn selects the whole family. Malformed
 * dimensions make the runner exit with status 2 before anything runs.
 *
 *     FB_BENCHMARK_PRODUCT(Copy, FB_LIST(1, 8, 64), FB_RANGE(1024, 65536, 8)) {
 *         size_t stride = (size_t)fb_arg_at(b, 0), bytes = (size_t)fb_arg_at(b, 1);
 *         ...
 *     }
 */
#define FB_MAX_ARGS 4
#define FB__DIM_LIST (-INT64_C(0x46425f4c49535400))
#define FB__DIM_RANGE (-INT64_C(0x46425f52414e4700))
#define FB__NARG_N(_1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, _13, _14, _15, _16, _17,     \
                   _18, _19, _20, _21, _22, _23, _24, _25, _26, _27, _28, _29, _30, _31, _32, _33, \
                   _34, _35, _36, _37, _38, _39, _40, _41, _42, _43, _44, _45, _46, _47, _48, _49, \
                   _50, _51, _52, _53, _54, _55, _56, _57, _58, _59, _60, _61, _62, _63, _64, N,   \
                   ...)                                                                            \
    N
#define FB__NARG_I(...) FB__NARG_N(__VA_ARGS__)
#define FB__NARG(...)                                                                              \
    FB__NARG_I(__VA_ARGS__, 64, 63, 62, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48,    \
               47, 46, 45, 44, 43, 42, 41, 40, 39, 38, 37, 36, 35, 34, 33, 32, 31, 30, 29, 28, 27, \
               26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5,  \
               4, 3, 2, 1, 0)
#define FB_LIST(...) FB__DIM_LIST, FB__NARG(__VA_ARGS__), __VA_ARGS__
#define FB_RANGE(lo, hi, mult) FB__DIM_RANGE, (int64_t)(lo), (int64_t)(hi), (int64_t)(mult)
#define FB_BENCHMARK_PRODUCT(fn, ...)                                                              \
    static void fn(fb_bench *b);                                                                   \
    static const int64_t fb__dims_##fn[] = {0, __VA_ARGS__};                                       \
    static fb__registration fb__reg_##fn = {                                                       \
        #fn, fn, NULL, FB__REG_PRODUCT, fb__dims_##fn + 1, FB__NARGS(fb__dims_##fn), 0, 0, 0};     \
    FB__CONSTRUCTOR(fb__register_##fn) { fb__register(&fb__reg_##fn); }                            \
    static void fn(fb_bench *b)

/* Argument i of the running instance (0 past its arguments), and how many
 * it has (1 for FB_BENCHMARK_ARGS / _RANGE, 0 outside a family). */
int64_t fb_arg_at(const fb_bench *b, size_t i);
size_t fb_arg_count(const fb_bench *b);
/* The same for a result. */
size_t fb_result_arg_count(const fb_result *r);
int64_t fb_result_arg_at(const fb_result *r, size_t i);

/* ------------------------------------------------------------- porting */
/* What a port of another framework's suites needs (the Google Benchmark and
 * nanobench headers of include/compat/; docs/migrating.md).
 *
 * fb_register(name, fn, ctx) registers a benchmark at run time, before
 * fb_main: any string is its name (copied), fn(b, ctx) its body. Returns 0,
 * FB_EINVAL (a NULL or empty name, a NULL fn) or FB_ENOMEM. The runner's
 * checks (a name taken twice) are those of FB_BENCHMARK. */
typedef void (*fb_bench_ctx_fn)(fb_bench *b, void *ctx);
int fb_register(const char *name, fb_bench_ctx_fn fn, void *ctx);
/* fb_register_ordered(name, family, family_id, model, fn, ctx): as
 * fb_register, for a port whose framework runs its benchmarks in the order
 * registered (Google Benchmark): these run, and -list prints them, in the
 * order of these calls, after the benchmarks registered otherwise (which go
 * by name), and two of them may share a name. family: NULL, or the family
 * the benchmark is an instance of: the benchmarks registered one after
 * another with the same family and family_id are one family, whose results
 * that carry an N are fitted together after its last instance, as
 * FB_BENCHMARK_RANGE's (docs/complexity.md), under the name `family`.
 * model: 0, or the model the framework asked for, 1 + its index in
 * O(1), O(n), O(log n), O(n log n), O(n^2), O(n^3) (FB_FIT_ASK_*): the
 * fit's row for it is the one the Google Benchmark JSON reports. Returns
 * as fb_register (FB_EINVAL also for a model out of range). */
enum {
    FB_FIT_ASK_BEST = 0,
    FB_FIT_ASK_1,
    FB_FIT_ASK_N,
    FB_FIT_ASK_LOG_N,
    FB_FIT_ASK_N_LOG_N,
    FB_FIT_ASK_N2,
    FB_FIT_ASK_N3
};
int fb_register_ordered(const char *name, const char *family, unsigned family_id, int model,
                        fb_bench_ctx_fn fn, void *ctx);
/* fb_skip(b, why): the run in progress on b (or the next one) becomes a
 * row that says "skipped: <why>" instead of a measurement, in the table and
 * in every file; a skipped row is no failure (the runner's exit status stays
 * 0). Returns 0, or FB_EINVAL for a NULL b. */
int fb_skip(fb_bench *b, const char *why);
bool fb_result_skipped(const fb_result *r);
/* fb_set_label(b, label): a label for the run in progress on b (or the next
 * one), Google Benchmark's SetLabel: a note about the row (its input, a
 * variant) that the table shows after the name and every file records
 * ("label"). The last one given before the run ends is kept; NULL or ""
 * gives none. Returns 0, FB_ENOMEM, or FB_EINVAL for a NULL b, or a label
 * over 1024 bytes or with a control character: the run then becomes an
 * error row saying why (as fb_counter's bad input). */
int fb_set_label(fb_bench *b, const char *label);
const char *fb_result_label(const fb_result *r); /* NULL without one */
/* fb_counter, or where a counter of that name is already given for the
 * coming run, its value and flags replaced: for a value learnt while the
 * run goes on (the last one given before the run ends is kept). */
int fb_counter_set(fb_bench *b, const char *name, double value, unsigned flags);
/* The CPUs online (at least 1): Google Benchmark's ThreadPerCpu. */
size_t fb_cpu_count(void);
/* fb_register_later(fn): fn registers benchmarks (fb_register) when the
 * registered benchmarks are first read: by fb_main before it lists or
 * selects, and by femtobench-ab through a suite built as a plugin, which
 * never runs its main. Each function is called once (the same one given
 * twice, once). Returns 0, FB_EINVAL for NULL, FB_ENOMEM past 16 functions. */
int fb_register_later(void (*fn)(void));

/* Runs the registered suite with the runner's options (-help lists them).
 * Returns the process exit status: 0, 1 on a failed benchmark, 2 on bad input. */
int fb_main(int argc, char **argv);

#define FB_MAIN()                                                                                  \
    int main(int argc, char **argv) { return fb_main(argc, argv); }

/* ------------------------------------------------------------- internal */
/* Used by the macros above; not part of the API. */

/* Build of the call site: bit 0 = known, bit 1 = optimized, bit 2 = NDEBUG. */
#if defined(__OPTIMIZE__)
#define FB__CS_OPT 3
#elif defined(__GNUC__) || defined(__clang__)
#define FB__CS_OPT 1
#else
#define FB__CS_OPT 0
#endif
#if defined(NDEBUG)
#define FB__CS_NDEBUG 4
#else
#define FB__CS_NDEBUG 0
#endif
#define FB__CALLSITE (FB__CS_OPT | FB__CS_NDEBUG)

/* The timed loop of FB_RUN and FB_ALTERNATIVE starts at a fixed offset from
 * a 64-byte boundary: where the linker puts the code around it (another
 * benchmark added or removed, a change elsewhere) no longer decides whether
 * a small loop crosses a cache line, which on some cores halves its speed
 * (docs/design.md, "Where the loop lies"). The padding (a few no-ops) runs
 * once per epoch, before the loop: the function is inlined into the macro's
 * loop header, so the directive lands there. */
#if defined(__GNUC__) /* GCC and Clang: every GNU-style assembler knows .p2align */
static inline __attribute__((always_inline)) uint64_t fb__align_here(void) {
    __asm__ volatile(".p2align 6");
    return 0;
}
#else
static inline uint64_t fb__align_here(void) { return 0; }
#endif
#define FB__ALIGN_HERE() ((void)fb__align_here())

typedef struct fb__loop {
    fb_bench *bench;
    uint64_t n; /* iterations of the coming epoch */
    int state;
} fb__loop;

fb__loop fb__loop_begin(fb_bench *b, const char *name, int callsite);
int fb__loop_next(fb__loop *l);
void fb__loop_done(fb__loop *l, uint64_t left);
/* Before fb__loop_done: the run's complexity N is n (the Google Benchmark
 * header's SetComplexityN, known only once the body ran). */
void fb__loop_complexity_n(fb__loop *l, double n);
/* Before fb__loop_done: the epoch ran n iterations, not l->n, in trips of
 * per_trip iterations each (the Google Benchmark header's KeepRunningBatch
 * runs whole batches); the epoch records and plans with n. */
void fb__loop_ran(fb__loop *l, uint64_t n, uint64_t per_trip);
const fb_result *fb__run_at(fb_bench *b, const char *name, fb_op op, void *ctx, int callsite);

/* The state of an FB_COMPARE block (src/run/compare.c). */
typedef struct fb__cmp {
    struct fb__cmp_state *s;
    int pass_ok; /* the last pass of the block ran to its end (no `break`) */
} fb__cmp;
fb__cmp fb__cmp_begin(fb_bench *b, const char *title, int callsite);
int fb__cmp_next(fb__cmp *c);
uint64_t fb__cmp_alt(fb__cmp *c, const char *name);
void fb__cmp_alt_done(fb__cmp *c, uint64_t left);
const fb_comparison *fb__compare_at(fb_bench *b, const char *title, const fb_alternative *alts,
                                    size_t n, int callsite);

#ifdef __cplusplus
}

#if defined(__GNUC__) || defined(__clang__)
/* fb_do_not_optimize in C++ (overloads as Google Benchmark's). */
extern "C++" {
template <class T> inline void fb__do_not_optimize(T &x) {
#if defined(__clang__)
    __asm__ __volatile__("" : "+r,m"(x) : : "memory");
#else
    __asm__ __volatile__("" : "+m,r"(x) : : "memory");
#endif
}
template <class T> inline void fb__do_not_optimize(const T &x) {
    __asm__ __volatile__("" : : "r,m"(x) : "memory");
}
}
#endif
#endif

#endif /* FEMTOBENCH_H */
