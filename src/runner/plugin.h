/* The plugin entry point (src/runner/plugin.c): what femtobench-ab finds with
 * dlsym in a suite built as a shared object, each plugin with its own whole
 * copy of the library (docs/ab.md).
 *
 * The host calls fb__plugin_entry() and checks the first two fields before
 * it touches any other: abi (the layout of this struct and the meaning of
 * its functions) and version (the library's, FB_VERSION_STRING). Both stay
 * first in every future layout; a change to the rest raises FB__PLUGIN_ABI.
 * A layout that only appends functions keeps every earlier one valid: the
 * host accepts FB__PLUGIN_ABI_OLDEST..FB__PLUGIN_ABI and calls an appended
 * function only when the plugin's abi has it.
 * Everything else is the plugin's own copy of the library: its registry,
 * its process state (where the epoch hook is installed), its clock. */
#ifndef FB_PLUGIN_H
#define FB_PLUGIN_H

#include "base.h"
#include "epoch_hook.h"

#include <stddef.h>
#include <stdint.h>

/* 1: identity, list, run. 2: run_counted appended (the count's spread).
 * 3: run_described appended (each result as a struct, with its batch and
 * unit: femtobench-ab reports in the suite's own units). 4: run_cpu
 * appended (a hook whose epoch_end_cpu is read: each epoch's CPU time). */
#define FB__PLUGIN_ABI 4u
#define FB__PLUGIN_ABI_OLDEST 1u
/* The exported symbol's name, for dlsym. */
#define FB__PLUGIN_ENTRY "fb__plugin_entry"

/* One finished run of fb__plugin_api.run: its full name, the complexity N
 * it ran with (0 when unset), its error (NULL when measured), the median time
 * per unit in seconds, and the instructions per unit counted under Callgrind
 * (NAN when timed). */
typedef void (*fb__plugin_result_fn)(void *ctx, const char *name, double complexity_n,
                                     const char *error, double median_s, double instructions);

/* The same for fb__plugin_api.run_counted, with the least and most
 * instructions per unit of the counted pairs behind `instructions` (both
 * equal to it when the count repeated exactly; NAN when timed or failed):
 * fb_result_valgrind_spread, docs/valgrind.md "Counts that move". */
typedef void (*fb__plugin_count_fn)(void *ctx, const char *name, double complexity_n,
                                    const char *error, double median_s, double instructions,
                                    double instructions_lo, double instructions_hi);

/* One finished run of fb__plugin_api.run_described: size is
 * sizeof(fb__plugin_row) of the library that built the plugin (a later one
 * appends fields: read only those within size). */
typedef struct fb__plugin_row {
    size_t size;
    const char *name;
    double complexity_n;
    const char *error;                                     /* NULL when measured */
    double median_s;                                       /* per unit */
    double instructions, instructions_lo, instructions_hi; /* NAN when timed */
    double batch;     /* fb_set_batch: units per op (1 when unset) */
    const char *unit; /* fb_set_unit: "byte", ...; "" when unset (an op) */
} fb__plugin_row;
typedef void (*fb__plugin_row_fn)(void *ctx, const fb__plugin_row *row);

typedef struct fb__plugin_api {
    unsigned abi;        /* FB__PLUGIN_ABI of the library that built the plugin */
    const char *version; /* FB_VERSION_STRING of that library */
    /* This copy's process state: two plugins that return the same address
     * share one copy of the library (linked with a shared libfemtobench). */
    const void *(*identity)(void);
    /* Calls each(ctx, name) for every registered benchmark, families
     * expanded ("fn/arg"), sorted as the runner lists them. FB_OK, or a
     * negative FB_E* with the reason in err (a bad registration). */
    int (*list)(void (*each)(void *ctx, const char *name), void *ctx, char *err, size_t len);
    /* Runs the benchmark `name` (as listed) once, with hook installed in
     * this copy for the duration (NULL: none) and complexity N n (0: unset),
     * as the runner runs it, without a table: each finished run goes to
     * result(ctx, ...). FB_OK, or FB_EINVAL when no benchmark has that
     * name. */
    int (*run)(const char *name, double n, const fb__epoch_hook *hook, fb__plugin_result_fn result,
               void *ctx);
    /* abi >= 2: run, with each result's count spread too (a plugin of abi
     * 1 has no such field: its counts are taken as exact). */
    int (*run_counted)(const char *name, double n, const fb__epoch_hook *hook,
                       fb__plugin_count_fn result, void *ctx);
    /* abi >= 3: run, each result as an fb__plugin_row. */
    int (*run_described)(const char *name, double n, const fb__epoch_hook *hook,
                         fb__plugin_row_fn result, void *ctx);
    /* abi >= 4: run_described, with a hook of this layout: its
     * epoch_end_cpu, when set, is called instead of epoch_end (the other
     * entries take a hook of the layout before it, whose last field is
     * run_end, and never read that field) */
    int (*run_cpu)(const char *name, double n, const fb__epoch_hook *hook, fb__plugin_row_fn result,
                   void *ctx);
} fb__plugin_api;

/* Exported from every copy of the library (not FB__PRIVATE): the one
 * symbol the host looks up. */
const fb__plugin_api *fb__plugin_entry(void);

#endif
