/* The plugin entry point: a suite built as a shared object (docs/ab.md)
 * answers femtobench-ab through this one exported function. It lists the
 * suite's benchmarks and runs one of them as the runner would, with the
 * host's epoch hook installed in this copy of the library, handing each
 * finished run back through a callback (no table, no files). */
#include "plugin.h"

#include "bench.h"
#include "process.h"
#include "registry.h"
#include "setup.h"
#include "text.h"

#include <math.h>
#include <string.h>

/* Its address tells one copy of the library from another. */
static const char fb__plugin_self = 0;
static const void *fb__plugin_identity(void) { return &fb__plugin_self; }

static int fb__plugin_list(void (*each)(void *ctx, const char *name), void *ctx, char *err,
                           size_t len) {
    fb__instance **all = NULL;
    int rc = fb__registry_expand(fb__process_registry(), &all, err, len);
    if (rc != FB_OK) return rc;
    for (size_t i = 0; all[i]; ++i) each(ctx, all[i]->name);
    fb__instances_free(all);
    return FB_OK;
}

typedef struct fb__plugin_sink {
    fb__plugin_result_fn fn;        /* run's callback, or NULL */
    fb__plugin_count_fn counted_fn; /* run_counted's, or NULL */
    fb__plugin_row_fn row_fn;       /* run_described's, or NULL */
    void *ctx;
} fb__plugin_sink;

static void fb__plugin_on_result(void *ctx, const fb_bench *b, const fb_result *r) {
    (void)b;
    const fb__plugin_sink *s = ctx;
    const char *error = fb_result_error(r);
    double median = error ? NAN : fb_result_median(r, FB_ELAPSED);
    double ins = error ? NAN : fb_result_valgrind(r, FB_VG_INSTRUCTIONS);
    if (s->fn) {
        s->fn(s->ctx, fb_result_name(r), fb_result_complexity_n(r), error, median, ins);
        return;
    }
    double lo = NAN, hi = NAN;
    if (!error) fb_result_valgrind_spread(r, &lo, &hi);
    if (s->counted_fn) {
        s->counted_fn(s->ctx, fb_result_name(r), fb_result_complexity_n(r), error, median, ins, lo,
                      hi);
        return;
    }
    const char *unit = fb_result_unit(r);
    fb__plugin_row row = {
        sizeof row, fb_result_name(r),  fb_result_complexity_n(r), error, median, ins, lo,
        hi,         fb_result_batch(r), unit ? unit : ""};
    s->row_fn(s->ctx, &row);
}

static void fb__plugin_group_body(fb_bench *b, void *ctx) {
    fb__registration_call(((const fb__instance *)ctx)->reg, b);
}

/* hook_cpu: the host passed a hook of interface 4 (epoch_end_cpu read); an
 * older host's hook ends at run_end, so only its first fields are copied */
static int fb__plugin_run_sink(const char *name, double n, const fb__epoch_hook *host_hook,
                               bool hook_cpu, fb__plugin_sink sink) {
    fb__epoch_hook whole = {0}, *hook = NULL;
    if (host_hook) {
        whole.ctx = host_hook->ctx;
        whole.run_begin = host_hook->run_begin;
        whole.epoch_begin = host_hook->epoch_begin;
        whole.epoch_end = host_hook->epoch_end;
        whole.run_end = host_hook->run_end;
        if (hook_cpu) whole.epoch_end_cpu = host_hook->epoch_end_cpu;
        hook = &whole;
    }
    fb__instance **all = NULL;
    char err[256];
    int rc = fb__registry_expand(fb__process_registry(), &all, err, sizeof err);
    if (rc != FB_OK) return rc;
    const fb__instance *in = NULL;
    for (size_t i = 0; all[i] && !in; ++i)
        if (strcmp(all[i]->name, name) == 0) in = all[i];
    if (!in) {
        fb__instances_free(all);
        return FB_EINVAL;
    }
    fb_bench *b = fb_bench_new();
    if (!b || fb__bench_add_sink(b, fb__plugin_on_result, &sink) != FB_OK ||
        fb__bench_set_name(b, in->name) != FB_OK) {
        fb_bench_free(b);
        fb__instances_free(all);
        return FB_ENOMEM;
    }
    fb_set_output(b, NULL); /* no live table: the host reports */
    /* paced by the host: no counters (system calls around every epoch of
     * its rounds, and the host times); a run whose iterations the host does
     * not fix (its calibration) upscales to the clock's resolution multiple
     * alone, not the 250 us a runner's epoch takes at least: the host plans
     * epochs of tens of microseconds from it */
    if (hook) {
        fb_set_performance_counters(b, false);
        fb_set_min_epoch_time(b, 0);
    }
    if (in->has_arg) fb__bench_set_arg(b, in->arg);
    if (n > 0) fb_set_complexity_n(b, n);
    fb__process_set_epoch_hook(hook);
    int grc = FB_OK;
    if (in->threads) /* FB_BENCHMARK_THREADS: the group, as the runner runs it */
        grc = fb_run_threads(b, in->threads, fb__plugin_group_body, (void *)(uintptr_t)in);
    else
        fb__registration_call(in->reg, b);
    fb__process_set_epoch_hook(NULL);
    /* as in the runner, nothing silently dropped: runs that recorded
     * nothing (a group whose leader left by pthread_exit, perhaps before
     * its first run; a group that could not start) make an error result
     * named after the benchmark, so that the host never reports a
     * benchmark that measured nothing as no benchmark at all */
    size_t dropped = fb__bench_dropped(b);
    if (grc != FB_OK || dropped) {
        char msg[160];
        if (dropped)
            snprintf(msg, sizeof msg, "%zu run%s recorded nothing (see the diagnostics above)",
                     dropped, dropped == 1 ? "" : "s");
        else
            snprintf(msg, sizeof msg, "not run: %s", fb_strerror(grc));
        (void)fb__bench_error_row(b, in->name, msg); /* out of memory: nothing more to do */
    }
    fb_bench_free(b);
    fb__instances_free(all);
    return FB_OK;
}

static int fb__plugin_run(const char *name, double n, const fb__epoch_hook *hook,
                          fb__plugin_result_fn result, void *ctx) {
    fb__plugin_sink sink = {result, NULL, NULL, ctx};
    return fb__plugin_run_sink(name, n, hook, false, sink);
}

static int fb__plugin_run_counted(const char *name, double n, const fb__epoch_hook *hook,
                                  fb__plugin_count_fn result, void *ctx) {
    fb__plugin_sink sink = {NULL, result, NULL, ctx};
    return fb__plugin_run_sink(name, n, hook, false, sink);
}

static int fb__plugin_run_described(const char *name, double n, const fb__epoch_hook *hook,
                                    fb__plugin_row_fn result, void *ctx) {
    fb__plugin_sink sink = {NULL, NULL, result, ctx};
    return fb__plugin_run_sink(name, n, hook, false, sink);
}

static int fb__plugin_run_cpu(const char *name, double n, const fb__epoch_hook *hook,
                              fb__plugin_row_fn result, void *ctx) {
    fb__plugin_sink sink = {NULL, NULL, result, ctx};
    return fb__plugin_run_sink(name, n, hook, true, sink);
}

static const fb__plugin_api fb__plugin_api_now = {
    FB__PLUGIN_ABI, FB_VERSION_STRING,      fb__plugin_identity,      fb__plugin_list,
    fb__plugin_run, fb__plugin_run_counted, fb__plugin_run_described, fb__plugin_run_cpu,
};

const fb__plugin_api *fb__plugin_entry(void) { return &fb__plugin_api_now; }
