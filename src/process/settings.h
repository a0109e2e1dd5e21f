/* The configuration: the numeric keys and their layers, the one value a
 * run takes and its result embeds, and the FEMTOBENCH_CONFIG parser
 * (src/process/settings.c). Layers, highest first: the runner's command line, code
 * (fb_set_*), FEMTOBENCH_CONFIG, the defaults. */
#ifndef FB_SETTINGS_H
#define FB_SETTINGS_H

#include "base.h"

#include <stdio.h>

typedef enum fb__key {
    FB__K_EPOCHS = 0,
    FB__K_EPOCH_ITERATIONS,
    FB__K_MIN_EPOCH_ITERATIONS,
    FB__K_MIN_EPOCH_TIME, /* seconds */
    FB__K_MAX_EPOCH_TIME, /* seconds */
    FB__K_MAX_TOTAL_TIME, /* seconds */
    FB__K_WARMUP,
    FB__K_CLOCK_RESOLUTION_MULTIPLE,
    FB__K_MIN_TIME, /* seconds of measured time per run, as more epochs; 0 = none */
    FB__K_COUNT
} fb__key;

enum { FB__LAYER_ENV = 0, FB__LAYER_CODE = 1, FB__LAYER_CLI = 2, FB__LAYERS = 3 };

typedef struct fb__key_info {
    const char *name; /* as in FEMTOBENCH_CONFIG, e.g. "min_epoch_time" */
    int is_duration;  /* takes ns/us/ms/s */
    double def;       /* default */
    double min, max;  /* the documented range (docs/reliability.md): FEMTOBENCH_CONFIG
                       * refuses a value outside it, the fb_set_* setters clamp to it */
} fb__key_info;

/* The key table (NULL for an invalid k). */
FB__PRIVATE const fb__key_info *fb__key_info_of(fb__key k);

/* Clamps *v into key k's range (NaN: left as is, and refused). Returns 0
 * when *v was in range, 1 when it was clamped, -1 for NaN. */
FB__PRIVATE int fb__key_clamp(fb__key k, double *v);

/* The largest complexity N (fb_set_complexity_n, -asymptote): 2^53, the
 * largest integer a double holds exactly; N^3 still fits a double. */
#define FB__MAX_COMPLEXITY_N 9007199254740992.0

/* v as FEMTOBENCH_CONFIG writes it for key info: "1000000", "250us", "1s". */
FB__PRIVATE void fb__key_format(const fb__key_info *info, double v, char *buf, size_t len);

/* One layer of numeric settings: a value and a bit per key. */
typedef struct fb__layer {
    double v[FB__K_COUNT];
    unsigned set;
} fb__layer;

FB__PRIVATE void fb__layer_set(fb__layer *l, fb__key k, double v);
/* The value of k through layers[FB__LAYERS] (highest set layer wins), else
 * the default. */
FB__PRIVATE double fb__layers_get(const fb__layer *layers, fb__key k);

/* Whether the number text s starts with a zero that another digit follows
 * ("05", "007.5"): not the canonical form, refused by every numeric option
 * and FEMTOBENCH_CONFIG value alike, as a blank or a sign is ("0" and
 * "0.5" are canonical). */
FB__PRIVATE bool fb__number_padded(const char *s);

/* Parses a FEMTOBENCH_CONFIG text into `into` (NULL: only checks); writes
 * one line per bad entry to err (may be NULL). Returns the number of bad
 * entries. */
FB__PRIVATE int fb__config_parse(const char *text, fb__layer *into, FILE *err);

/* Everything one run is configured with, by value: the bench's settings at
 * the start of the run, with the numeric keys resolved. Every result embeds
 * the config of its run. */
typedef struct fb__config {
    char *title; /* owned */
    char *unit;  /* owned */
    double batch;
    double time_unit_s;
    char time_unit_label[16];
    bool relative;
    double complexity_n; /* 0 = unset */
    bool has_arg;        /* an instance of a family (src/registry/registry.c) */
    int64_t arg;         /* its argument (fb_arg), 0 without one */
    bool counters;
    /* the runner's --benchmark_min_time=<n>x: n iterations in all, split
     * over the epochs; 0 = none */
    double total_iterations;
    double num[FB__K_COUNT]; /* resolved numeric keys */
    /* bit k (1u << k): num[k] was set by the user (the code, the command
     * line or FEMTOBENCH_CONFIG), not a default; what explicit epochs and
     * an explicit time budget are told by */
    unsigned set;
    unsigned pass; /* the runner's -repetitions pass (0-based) */
    /* all arguments of a family's instance (args[0] == arg), FB_MAX_ARGS
     * at most: several for FB_BENCHMARK_PRODUCT (src/registry/product.c) */
    size_t n_args;
    int64_t args[FB_MAX_ARGS];
    /* a family registered by a port (fb_register_ordered): its name (owned;
     * NULL for none), its id (families may share a name) and the model its
     * framework asked for (an index into the fit models + 1; 0 = the best):
     * its results with an N are fitted together (src/stats/complexity_group.c) */
    char *family;
    unsigned family_id;
    int family_model;
} fb__config;

/* Whether key k of c was set by the user (fb__config.set). */
FB__PRIVATE bool fb__config_set_by_user(const fb__config *c, fb__key k);

/* The one home of an epoch's target length: clock_resolution_multiple
 * resolutions of the clock (resolution_s), within min_epoch_time and
 * max_epoch_time. A run and a comparison plan with it. */
FB__PRIVATE double fb__config_epoch_target(const fb__config *c, double resolution_s);

/* Deep copy (FB_OK or FB_ENOMEM, dst untouched on failure) and release. */
FB__PRIVATE int fb__config_copy(fb__config *dst, const fb__config *src);
FB__PRIVATE void fb__config_free(fb__config *c);

#endif
