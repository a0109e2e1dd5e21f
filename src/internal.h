/* Declarations shared inside src/ only. Data flows one way:
 * config -> run (clock, counters) -> result -> stats -> reporters. */
#ifndef FB_INTERNAL_H
#define FB_INTERNAL_H

#include "config.h"
#include "femtobench.h"

#include <pthread.h>
#include <stdarg.h>

/* ------------------------------------------------------------ config */

/* Numeric settings, resolved through three layers (highest wins):
 * the runner's command line, then code (fb_set_*), then FEMTOBENCH_CONFIG. */
typedef enum fb__key {
    FB__K_EPOCHS = 0,
    FB__K_EPOCH_ITERATIONS,
    FB__K_MIN_EPOCH_ITERATIONS,
    FB__K_MIN_EPOCH_TIME, /* seconds */
    FB__K_MAX_EPOCH_TIME, /* seconds */
    FB__K_MAX_TOTAL_TIME, /* seconds */
    FB__K_WARMUP,
    FB__K_CLOCK_RESOLUTION_MULTIPLE,
    FB__K_COUNT
} fb__key;

enum { FB__LAYER_ENV = 0, FB__LAYER_CODE = 1, FB__LAYER_CLI = 2, FB__LAYERS = 3 };

typedef struct fb__key_info {
    const char *name; /* as in FEMTOBENCH_CONFIG, e.g. "min_epoch_time" */
    int is_duration;  /* takes ns/us/ms/s */
    double def;       /* default */
} fb__key_info;

extern const fb__key_info fb__keys[FB__K_COUNT];

/* ------------------------------------------------------------- clock */

typedef struct fb__clock_info {
    double resolution_s; /* smallest observable step of the clock */
    double overhead_s;   /* cost of one clock read */
} fb__clock_info;

uint64_t fb__clock_now_ns(void);
/* Measured once per process (thread-safe, immutable afterwards). */
const fb__clock_info *fb__clock_process_info(void);
/* Measures a clock: used for the process clock and in tests. */
void fb__clock_measure(fb_clock_fn now_ns, void *ctx, fb__clock_info *out);

/* ------------------------------------------------------------ counters */

/* Bit mask of measures (1u << fb_measure). */
typedef unsigned fb__mask;
#define FB__BIT(m) (1u << (unsigned)(m))

/* Loop shapes the counters are calibrated for. */
enum { FB__SHAPE_INLINE = 0, FB__SHAPE_CALL = 1, FB__SHAPES = 2 };

typedef struct fb__perf fb__perf;

/* Opens the counter group for the calling thread. Never fails hard: returns
 * a handle (possibly with no counters) or NULL only when out of memory.
 * `why` receives a one-line reason when some counters are missing. */
fb__perf *fb__perf_open(char *why, size_t why_len);
void fb__perf_close(fb__perf *p);
fb__mask fb__perf_available(const fb__perf *p);
/* Around one epoch, outside the clock reads. */
void fb__perf_begin(fb__perf *p);
/* Reads the epoch's counts, scaled for multiplexing, with the calibrated
 * measuring and loop overheads (for `iterations` iterations of `shape`)
 * subtracted, saturated at 0. counts[m] is set for each available m. */
void fb__perf_end(fb__perf *p, uint64_t iterations, int shape, double counts[FB_MEASURE_COUNT]);
/* Prints "femtobench: note: <why>" to err, only the first time per process. */
void fb__perf_note_once(FILE *err, const char *why);
/* fb__perf_open with flags: FB__PERF_SW_ONLY opens the software events only
 * (page faults, context switches); used by tests on machines without a PMU. */
enum { FB__PERF_SW_ONLY = 1u };
fb__perf *fb__perf_open_flags(char *why, size_t why_len, unsigned flags);
/* Measures counted in the last fb__perf_end (0 after an error, or when the
 * group was never scheduled in that epoch: those counts are set to NAN). */
fb__mask fb__perf_last_known(const fb__perf *p);
/* The calibration of p (docs/counters.md): measuring overhead per epoch and
 * loop overhead per iteration of each shape; returns its duration in s. */
double fb__perf_calibration(const fb__perf *p, double measuring[FB_MEASURE_COUNT],
                            double loop_per_iter[FB__SHAPES][FB_MEASURE_COUNT]);
/* Pure helpers (Linux build), exposed for tests. A slot maps a kernel event
 * id to the measure it counts. fb__perf_parse_group reads one group read()
 * (nr, time_enabled, time_running, then nr {value, id}); it sets every slot's
 * count (NAN when unknown), scales by the deltas of the times against
 * prev_times[2] (enabled, running; updated) and stores the measures it knows
 * in *known. Returns 0, or -1 for a malformed buffer. */
typedef struct fb__perf_slot {
    uint64_t id;
    int measure;
} fb__perf_slot;
int fb__perf_parse_group(const uint64_t *buf, size_t words, const fb__perf_slot *slots,
                         size_t n_slots, uint64_t prev_times[2], double counts[FB_MEASURE_COUNT],
                         fb__mask *known);
/* counts[m] -= measuring[m] + loop_per_iter[m] * iterations, saturated at 0,
 * for each m in `which` (NAN stays NAN). */
void fb__perf_subtract(double counts[FB_MEASURE_COUNT], fb__mask which,
                       const double measuring[FB_MEASURE_COUNT],
                       const double loop_per_iter[FB_MEASURE_COUNT], uint64_t iterations);

/* ----------------------------------------------------------- results */

struct fb_result {
    char *name;
    char *title;
    char *unit;
    char *error; /* NULL when measured */
    char time_unit_label[16];
    double time_unit_s;
    double batch;
    double complexity_n;
    bool relative;
    int callsite; /* FB__CALLSITE of the run */
    /* the effective configuration of the run */
    double config[FB__K_COUNT];
    double clock_resolution_s;
    double clock_overhead_s;
    /* per epoch */
    size_t epochs;
    uint64_t *iterations;
    double *values[FB_MEASURE_COUNT]; /* per iteration; NULL if not measured */
    fb__mask has;
    /* derived by fb__stats_compute */
    struct fb__summary {
        double median, err_pct, min, max, mean, stddev;
    } summary[FB_MEASURE_COUNT];
    uint64_t total_iterations;
    double total_s;
};

/* ------------------------------------------------------------- bench */

/* State a runner shares between the benches it creates: the counters
 * (opened once, on the running thread) and the table's last header. */
typedef struct fb__session {
    fb__perf *perf;
    int perf_tried;
    pthread_t perf_thread; /* thread that opened perf */
    char last_header[512]; /* signature of the last printed header */
    FILE *last_out;
} fb__session;

struct fb_bench {
    /* configuration */
    double cfg[FB__LAYERS][FB__K_COUNT];
    unsigned cfg_set[FB__LAYERS]; /* bit per key */
    char *title;
    char *unit;
    double batch;
    double complexity_n;
    bool relative;
    double time_unit_s;
    char time_unit_label[16];
    FILE *out;
    bool counters_on;
    fb_clock_fn clock;
    void *clock_ctx;
    double clock_resolution_s; /* of the custom clock */
    char *endless_name;        /* FEMTOBENCH_ENDLESS, or NULL */
    char *name;                /* registered name (runner), or NULL */
    bool interrupted;          /* endless mode ended by a signal */
    struct fb__run *run;       /* the run in progress, or NULL */
    /* results */
    fb_result **results;
    size_t n_results, cap_results;
    /* comparisons (src/compare.c): the finished ones, and the one in progress */
    struct fb_comparison **comparisons;
    size_t n_comparisons, cap_comparisons;
    struct fb__cmp_state *cmp;
    /* sharing */
    fb__session *session;
    fb__session own_session;
};

double fb__cfg(const fb_bench *b, fb__key k);
void fb__cfg_set(fb_bench *b, int layer, fb__key k, double v);
/* A bench that shares the session of the runner (counters, table state). */
fb_bench *fb__bench_new_in(fb__session *s);
void fb__session_close(fb__session *s);
/* Moves all results of src to the end of dst (the runner's suite record). */
int fb__bench_take_results(fb_bench *dst, fb_bench *src);
int fb__bench_add_result(fb_bench *b, fb_result *r);
void fb__result_free(fb_result *r);
fb__perf *fb__bench_perf(fb_bench *b);

/* ------------------------------------------------------------ report */

/* Prints r's table row to b's output (and the header when the columns,
 * title or unit changed since the last header on that stream). */
void fb__report_row(fb_bench *b, const fb_result *r);

/* ------------------------------------------------------------- stats */

double fb__median(double *v, size_t n); /* sorts v in place */
double fb__mdape_pct(const double *v, size_t n, double median, double *scratch);
/* Fills r->summary, r->total_* from the per-epoch data. */
void fb__stats_compute(fb_result *r);

/* --------------------------------------------------------- environment */

/* Warnings about the machine, checked once per process. */
#define FB__ENV_MAX_WARNINGS 16
typedef struct fb__env_warning {
    char what[200]; /* e.g. "CPU frequency scaling: cpu0 between 800 and 4200 MHz" */
    char fix[200];  /* what to do about it */
} fb__env_warning;

typedef struct fb__env_report {
    size_t count;
    fb__env_warning w[FB__ENV_MAX_WARNINGS];
} fb__env_report;

/* Runs every check against a root directory ("/" normally; tests pass a
 * fake tree). callsite: FB__CALLSITE of the benchmark's code, -1 unknown. */
void fb__env_check(const char *root, int callsite, fb__env_report *out);
/* Once per process, before the first result: checks and prints the block to
 * `err` unless warnings are suppressed. Returns the process's report. */
const fb__env_report *fb__env_warn_once(FILE *err, int callsite);
/* The report of this process, or NULL when not checked yet. */
const fb__env_report *fb__env_process_report(void);
/* FEMTOBENCH_SUPPRESS_WARNINGS set to anything but "", "0". */
bool fb__env_suppressed(void);
/* Applies FEMTOBENCH_CONFIG to b's environment layer; malformed entries are
 * reported once per process on stderr. */
void fb__env_apply_config(fb_bench *b);
/* Parses a FEMTOBENCH_CONFIG string into b's env layer (b NULL: only checks);
 * reports each bad entry to err (may be NULL). Returns the number of bad entries. */
int fb__env_parse_config(fb_bench *b, const char *text, FILE *err);

/* --------------------------------------------------------------- text */

/* Formats v with thousands separators and `decimals` decimals. */
void fb__fmt_grouped(char *buf, size_t len, double v, int decimals);
char *fb__strdup(const char *s);
/* Levenshtein distance for "did you mean" hints ((size_t)-1 when too long). */
size_t fb__edit_distance(const char *a, const char *b);

/* --------------------------------------------------------------- runner */

/* The registered benchmarks (linked by constructors before main). */
const fb__registration *fb__registry(void);

/* -------------------------------------------------------------- writers */
/* src/json.c, src/sysinfo.c, src/outfile.c, src/report_{csv,json,gbench}.c */

/* One UTF-8 sequence at s: returns the bytes consumed (>= 1), *cp the code
 * point or U+FFFD for an ill-formed byte. fb__utf8_put writes cp. */
size_t fb__utf8_next(const unsigned char *s, uint32_t *cp);
void fb__utf8_put(FILE *f, uint32_t cp);
/* "%g"-style text of v with '.' whatever the locale: digits 0 = the shortest
 * that reads back as v, else that many significant digits; "nan", "inf",
 * "-inf" for non-finite values (callers map those). */
void fb__fmt_double(char *buf, size_t len, double v, int digits);
/* A JSON string (valid UTF-8, escaped; NULL -> null); a number (non-finite
 * -> null). */
void fb__json_str(FILE *f, const char *s);
void fb__json_num(FILE *f, double v, int digits);

/* A pretty-printing JSON emitter (two-space indent). Containers opened with
 * one_line keep themselves and everything inside on one line. A NULL key is
 * for array elements. */
#define FB__JSON_MAX_DEPTH 16
typedef struct fb__json {
    FILE *f;
    int depth;
    int inline_from;               /* depth of the outermost one-line container, 0 none */
    int count[FB__JSON_MAX_DEPTH]; /* members written per open container */
    int digits;                    /* for numbers, as in fb__fmt_double */
} fb__json;
void fb__json_init(fb__json *j, FILE *f);
void fb__json_obj(fb__json *j, const char *key, bool one_line);
void fb__json_arr(fb__json *j, const char *key, bool one_line);
void fb__json_end_obj(fb__json *j);
void fb__json_end_arr(fb__json *j);
void fb__json_kstr(fb__json *j, const char *key, const char *s);
void fb__json_kstr2(fb__json *j, const char *key, const char *a, const char *b); /* a + b */
void fb__json_knum(fb__json *j, const char *key, double v);
void fb__json_ku64(fb__json *j, const char *key, uint64_t v);
void fb__json_kint(fb__json *j, const char *key, long long v);
void fb__json_kbool(fb__json *j, const char *key, bool v);
void fb__json_knull(fb__json *j, const char *key);
/* fflush + ferror: FB_OK or FB_EIO. */
int fb__writer_finish(FILE *f);

/* Machine and build facts for the JSON writers' context (src/sysinfo.c). */
#define FB__SYS_MAX_CACHES 8
typedef struct fb__cache_info {
    char type[16]; /* "Data", "Instruction", "Unified" */
    int level;
    long long size;  /* bytes */
    int num_sharing; /* logical CPUs sharing it */
} fb__cache_info;

typedef struct fb__sysinfo {
    char date[32]; /* UTC, ISO 8601: 2025-01-31T12:00:00+00:00 */
    char host_name[256];
    char executable[1024]; /* "" when unknown */
    char cpu_model[256];   /* "unknown" when unknown */
    int num_cpus;
    long long mhz_per_cpu; /* 0 when unknown */
    int cpu_scaling;       /* 1 enabled, 0 disabled, -1 unknown */
    int n_load_avg;        /* 0 or 3 */
    double load_avg[3];
    size_t n_caches;
    fb__cache_info caches[FB__SYS_MAX_CACHES];
    const char *version;       /* fb_version() */
    const char *compiler;      /* of the library, e.g. "gcc 12.2.0" */
    const char *build_flags;   /* FB_BUILD_FLAGS, or "unknown" */
    int library_build;         /* FB__CALLSITE bits of the library itself */
    const fb__env_report *env; /* warnings; NULL when the checks did not run */
} fb__sysinfo;
/* The caches as a JSON array (both JSON writers; src/json.c). */
void fb__json_caches(fb__json *j, const fb__sysinfo *si);

/* Reads the facts of this machine (root: "/" normally, a fake tree in tests;
 * host name, executable and date always come from the running system). */
void fb__sysinfo_read(const char *root, fb__sysinfo *out);

/* The JSON writers with a given context (tests pass a fixed one). */
int fb__write_json_with(const fb_bench *b, FILE *f, const fb__sysinfo *si);
int fb__write_gbench_json_with(const fb_bench *b, FILE *f, const fb__sysinfo *si);

/* Safe output files for the runner (src/outfile.c). path "-" is stdout.
 * fb__outfile_check: can path be written (checked before any benchmark runs)?
 * FB_OK, or FB_EINVAL/FB_EIO with the reason (without the path) in err.
 * fb__outfile_write: runs writer(b, tmp) on a new file in path's directory,
 * flushes and fsyncs it and renames it over path, with SIGINT, SIGTERM,
 * SIGHUP and SIGQUIT blocked in the calling thread meanwhile: path ends up
 * either untouched or complete, and no temporary file is left. Paths that
 * exist and are not regular files (/dev/null, a FIFO) are written directly.
 * FB_OK, or a negative FB_E* with "cannot write 'path': reason" in err. */
typedef int (*fb__writer_fn)(const fb_bench *b, FILE *f);
int fb__outfile_check(const char *path, char *err, size_t len);
int fb__outfile_write(const char *path, fb__writer_fn writer, const fb_bench *b, char *err,
                      size_t len);

#endif
