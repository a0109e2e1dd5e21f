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
#define FB_VERSION_MINOR 1
#define FB_VERSION_PATCH 0
#define FB_VERSION_STRING "0.1.0"

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
 * runner's command-line options win over both. */
void fb_set_title(fb_bench *b, const char *title);         /* "benchmark" */
void fb_set_unit(fb_bench *b, const char *unit);           /* "op" */
void fb_set_batch(fb_bench *b, double batch);              /* 1: units per call */
void fb_set_epochs(fb_bench *b, size_t epochs);            /* 11 */
void fb_set_epoch_iterations(fb_bench *b, uint64_t n);     /* 0 = automatic */
void fb_set_min_epoch_iterations(fb_bench *b, uint64_t n); /* 1 */
void fb_set_min_epoch_time(fb_bench *b, double seconds);
void fb_set_max_epoch_time(fb_bench *b, double seconds);
void fb_set_max_total_time(fb_bench *b, double seconds); /* budget per run */
void fb_set_warmup(fb_bench *b, uint64_t iterations);    /* 0 */
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
        for (uint64_t fb__i_ = fb__loop_.n, fb__once_ = 1; fb__once_;                              \
             fb__once_ = 0, fb__loop_done(&fb__loop_, fb__i_))                                     \
            for (; fb__i_; --fb__i_)

#define fb_run(b, name, op, ctx) fb__run_at((b), (name), (op), (ctx), FB__CALLSITE)

/* -------------------------------------------------------------- results */

size_t fb_result_count(const fb_bench *b);
const fb_result *fb_result_at(const fb_bench *b, size_t i);

const char *fb_result_name(const fb_result *r);
const char *fb_result_title(const fb_result *r);
const char *fb_result_unit(const fb_result *r);
const char *fb_result_error(const fb_result *r); /* NULL when measured */
double fb_result_batch(const fb_result *r);
double fb_result_complexity_n(const fb_result *r); /* 0 when unset */
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

/* -------------------------------------------------------------- writers */
/* Writers only read results. Each returns 0 or a negative FB_E* code. */

int fb_write_markdown(const fb_bench *b, FILE *f);
int fb_write_csv(const fb_bench *b, FILE *f);
int fb_write_json(const fb_bench *b, FILE *f);
int fb_write_gbench_json(const fb_bench *b, FILE *f);

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
    return (uint32_t)(((fb_rng_u64(r) >> 32) * (uint64_t)range) >> 32);
}
/* Uniform double in [0, 1). */
static inline double fb_rng_uniform01(fb_rng *r) {
    return (double)(fb_rng_u64(r) >> 11) * (1.0 / 9007199254740992.0);
}

/* --------------------------------------------------- optimizer barriers */

#if defined(__GNUC__) || defined(__clang__)
/* Makes the compiler assume x is read and modified here, and memory too. */
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
#define fb_do_not_optimize(x) fb__escape((const volatile void *)&(x))
#define fb_clobber_memory() fb__escape(NULL)
#endif

/* --------------------------------------------------------------- runner */

typedef void (*fb_bench_fn)(fb_bench *b);

typedef struct fb__registration {
    const char *name;
    fb_bench_fn fn;
    struct fb__registration *next;
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
    static fb__registration fb__reg_##fn = {#fn, fn, NULL};                                        \
    FB__CONSTRUCTOR(fb__register_##fn) { fb__register(&fb__reg_##fn); }                            \
    static void fn(fb_bench *b)

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

typedef struct fb__loop {
    fb_bench *bench;
    uint64_t n;     /* iterations of the coming epoch */
    uint64_t t0_ns; /* clock at the start of the epoch */
    int state;
} fb__loop;

fb__loop fb__loop_begin(fb_bench *b, const char *name, int callsite);
int fb__loop_next(fb__loop *l);
void fb__loop_done(fb__loop *l, uint64_t left);
const fb_result *fb__run_at(fb_bench *b, const char *name, fb_op op, void *ctx, int callsite);

#ifdef __cplusplus
}
#endif

#endif /* FEMTOBENCH_H */
