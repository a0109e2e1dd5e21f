/* A finished run becomes an immutable result (src/run/run.h): the epochs the
 * statistics use, the marks, each thread's median in a group, the exact
 * counts under Callgrind; the bench stores it and hands it to its sinks. */
#include "run.h"

#include "bench_state.h"
#include "disturb.h"
#include "stats.h"
#include "text.h"
#include "valgrind.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Closes the run's epoch context (the hook's run_end among it) and frees it. */
void fb__run_free(struct fb__run *r) {
    if (!r) return;
    fb__epoch_close(&r->ep);
    free(r->iterations);
    free(r->flags);
    free(r->thread_s);
    for (int m = 0; m < FB_MEASURE_COUNT; ++m) free(r->values[m]);
    free(r->error);
    free(r);
}

void fb__run_fail(struct fb__run *r, const char *msg) {
    if (!r->error) r->error = fb__strdup(msg);
}

/* The epochs the statistics use, the disturbed epochs, the probe
 * marks, why the run stopped; a note when explicit epochs were not all run. */
static void fb__run_finish_marks(fb_bench *b, struct fb__run *r, fb_result *res) {
    res->used = fb__disturb_select(r->flags, r->epochs);
    for (size_t i = 0; i < r->epochs; ++i) {
        if (r->flags[i] & FB__EPOCH_DISTURBED) res->disturbed++;
        if (r->flags[i] & FB__EPOCH_WAITED) res->waited++;
    }
    res->epoch_flags = r->flags;
    r->flags = NULL;
    fb__epoch_mark(&r->ep, res);
    res->stopped_by = r->rounds.stopped_by;
    res->rounds = r->rounds.rounds;
    const fb__rounds *s = &r->rounds;
    /* counted under Callgrind the schedule of counted epochs replaces the
     * epochs asked for: nothing is short */
    if (s->epochs_explicit && !s->fixed && s->clean < s->asked && !fb__vg_exact(r->ep.vg))
        fb__bench_diag(b, "'%s': %zu of the %zu epochs asked for (%zu disturbed): %s", res->name,
                       s->clean, s->asked, res->disturbed, fb__rounds_why_short(s, r->epochs));
}

/* Turns the finished run into an immutable result and publishes it: the
 * bench stores it, computes its statistics and hands it to the sinks (the
 * live table among them). The run's epoch context is closed first (the
 * hook's run_end), so the bench is free again when the sinks see the row. */
void fb__run_finish(fb_bench *b) {
    struct fb__run *r = b->run;
    b->run = NULL;
    if (b->interrupted && !r->error) {
        fb__run_free(r);
        return;
    }
    fb_result *res = calloc(1, sizeof *res);
    if (!res || !(res->name = fb__strdup(r->ep.name))) {
        free(res);
        fb__run_free(r);
        ++b->dropped; /* nothing silently dropped */
        return;
    }
    res->error = r->error;
    r->error = NULL;
    res->config = r->ep.config; /* moved (with the argument of a family) */
    memset(&r->ep.config, 0, sizeof r->ep.config);
    res->callsite = r->ep.callsite;
    res->clock_resolution_s = r->ep.clock_info.resolution_s;
    res->clock_overhead_s = r->ep.clock_info.overhead_s;
    /* per iteration: a batched loop's trip holds per_trip of them */
    res->empty_loop_s = r->ep.clock_info.empty_loop_s / (double)(r->per_trip ? r->per_trip : 1);
    res->epochs_asked = r->rounds.asked;
    res->epochs_explicit = r->rounds.epochs_explicit;
    if (r->threads && !res->error) { /* each thread's median, over the recorded epochs */
        res->threads = r->threads;
        res->thread_median_s = malloc(r->threads * sizeof *res->thread_median_s);
        double *v = malloc((r->epochs ? r->epochs : 1) * sizeof *v);
        for (size_t t = 0; res->thread_median_s && v && t < r->threads; ++t) {
            for (size_t i = 0; i < r->epochs; ++i) v[i] = r->thread_s[i * r->threads + t];
            res->thread_median_s[t] = r->epochs ? fb__median(v, r->epochs) : NAN;
        }
        if (!v) {
            free(res->thread_median_s);
            res->thread_median_s = NULL;
        }
        free(v);
    } else if (r->threads) {
        res->threads = r->threads;
    }
    if (!res->error) {
        res->epochs = r->epochs;
        res->iterations = r->iterations;
        r->iterations = NULL;
        fb__run_finish_marks(b, r, res);
        res->has = FB__BIT(FB_ELAPSED) | ((r->ep.perf_mask | r->ep.cpu_mask) & ~r->perf_lost);
        for (int m = 0; m < FB_MEASURE_COUNT; ++m) {
            res->values[m] = r->values[m];
            r->values[m] = NULL;
        }
    }
    fb__vg_finish(r->ep.vg, res); /* -valgrind: the exact counts replace the times */
    fb__run_free(r);
    size_t before = b->n_results;
    fb__bench_publish(b, res);
    if (b->n_results == before) ++b->dropped; /* not stored: out of memory */
}
