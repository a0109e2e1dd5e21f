/* Groups of threads (src/run/group.h): the barrier, the leader's plan, the
 * combination of the threads' epochs, and fb_run_threads, which starts the
 * threads. The schedule itself stays in src/run/run.c. */
#include "group.h"

#include "bench.h"
#include "bench_state.h"
#include "disturb.h"
#include "process.h"
#include "text.h"

#include <stdlib.h>
#include <string.h>
#if FB_HAVE_POSIX
#include <unistd.h>
#endif

#if FB_HAVE_THREADS
#include <pthread.h>
#endif

struct fb__group {
    size_t n;
    /* more threads than online CPUs: some always wait for a core, so a
     * thread's wall time above its CPU time is the group's own doing */
    bool oversubscribed;
    /* the cores the threads can run on at once: the online CPUs, at most
     * n; 0 when unknown (then no epoch's time is its CPU span) */
    size_t cores;
#if FB_HAVE_THREADS
    pthread_mutex_t mu;
    pthread_cond_t cv;
#endif
    size_t arrived;
    uint64_t generation; /* barriers passed */
    bool broken;
    bool go;        /* the leader's plan: one more epoch */
    uint64_t iters; /* its iterations per thread */
    /* the plan as it was when the last barrier released the threads: the
     * leader may write its next plan before a follower has read this one,
     * never before the follower reached the next barrier */
    bool released_go;
    uint64_t released_iters;
    size_t lost;      /* runs of followers ended by a broken group */
    size_t exited;    /* threads that left by pthread_exit (the leader among them) */
    bool lead_exited; /* the leader (thread 0) did */
    fb__group_slot *slots;
};

void fb__group_combine(const fb__group_slot *slots, size_t n, size_t cores, fb__group_epoch *out) {
    memset(out, 0, sizeof *out);
    out->known = n ? ~(fb__mask)0 : 0;
    uint64_t first = UINT64_MAX, last = 0;
    double cpu_max = 0;
    bool blocked = false;
    for (size_t i = 0; i < n; ++i) {
        const fb__group_slot *s = &slots[i];
        if (s->t0_ns < first) first = s->t0_ns;
        if (s->t1_ns > last) last = s->t1_ns;
        for (int m = 0; m < FB_MEASURE_COUNT; ++m) out->counts[m] += s->counts[m];
        out->known &= s->known;
        out->disturbed = out->disturbed || s->disturbed;
        out->broke = out->broke || s->broke;
        blocked = blocked || s->blocked;
        if ((s->known & FB__BIT(FB_CPUTIME)) && s->counts[FB_CPUTIME] > cpu_max)
            cpu_max = s->counts[FB_CPUTIME];
    }
    out->ticks_ns = n && last > first ? last - first : 0;
    /* the span on the CPU, when every thread read its CPU time */
    if (n < 2 || cores == 0 || blocked || !(out->known & FB__BIT(FB_CPUTIME)) || !(cpu_max > 0))
        return;
    if (cores > n) cores = n;
    double shared = out->counts[FB_CPUTIME] / (double)cores;
    double span_s = shared > cpu_max ? shared : cpu_max;
    double wall_s = (double)out->ticks_ns * 1e-9;
    if (!fb__disturb_off_cpu(wall_s, span_s)) return;
    out->ticks_ns = (uint64_t)(span_s * 1e9 + 0.5);
    out->waited = true;
    out->disturbed = false;
}

size_t fb__group_size(const fb__group *g) { return g ? g->n : 1; }
bool fb__group_oversubscribed(const fb__group *g) { return g && g->oversubscribed; }
size_t fb__group_cores(const fb__group *g) { return g ? g->cores : 0; }

fb__group_slot *fb__group_slot_at(fb__group *g, size_t i) { return &g->slots[i]; }

#if FB_HAVE_THREADS
bool fb__group_wait(fb__group *g) {
    pthread_mutex_lock(&g->mu);
    bool ok = !g->broken;
    if (ok && ++g->arrived == g->n) {
        g->arrived = 0;
        g->generation++;
        g->released_go = g->go;
        g->released_iters = g->iters;
        pthread_cond_broadcast(&g->cv);
    } else if (ok) {
        uint64_t gen = g->generation;
        while (gen == g->generation && !g->broken) pthread_cond_wait(&g->cv, &g->mu);
        ok = gen != g->generation; /* released by the last arrival, not by a break */
    }
    pthread_mutex_unlock(&g->mu);
    return ok;
}

void fb__group_break(fb__group *g) {
    pthread_mutex_lock(&g->mu);
    g->broken = true;
    pthread_cond_broadcast(&g->cv);
    pthread_mutex_unlock(&g->mu);
}
#else
/* Without threads a group has one thread: every barrier passes at once. */
bool fb__group_wait(fb__group *g) {
    g->released_go = g->go;
    g->released_iters = g->iters;
    return !g->broken;
}
void fb__group_break(fb__group *g) { g->broken = true; }
#endif

bool fb__group_plan(fb__group *g, bool go, uint64_t iters) {
    g->go = go; /* written before the barrier, read by the followers after it */
    g->iters = iters;
    return fb__group_wait(g);
}

int fb__group_follow(fb__group *g, uint64_t *iters) {
    if (!fb__group_wait(g)) return -1;
    if (!g->released_go) return 0;
    *iters = g->released_iters;
    return 1;
}

/* ------------------------------------------------------------ the API */

size_t fb_thread_index(const fb_bench *b) { return b ? b->thread_index : 0; }
size_t fb_threads(const fb_bench *b) { return b ? fb__group_size(b->group) : 1; }

typedef struct fb__group_thread {
    fb_bench *b; /* the follower's own handle */
    fb_group_fn body;
    void *ctx;
    fb__group *g;
} fb__group_thread;

/* A follower's handle: the leader's clock, counters switch, diagnostics
 * and the family's arguments; no output (the leader's row is the group's). */
static fb_bench *fb__group_follower(const fb_bench *lead, fb__group *g, size_t i) {
    fb_bench *w = fb_bench_new();
    if (!w) return NULL;
    w->own_table.out = NULL;
    w->diag = lead->diag;
    w->clock = lead->clock;
    w->clock_ctx = lead->clock_ctx;
    w->clock_resolution_s = lead->clock_resolution_s;
    w->cfg.counters = lead->cfg.counters;
    w->cfg.has_arg = lead->cfg.has_arg;
    w->cfg.arg = lead->cfg.arg;
    w->cfg.n_args = lead->cfg.n_args;
    memcpy(w->cfg.args, lead->cfg.args, sizeof w->cfg.args);
    w->group = g;
    w->thread_index = i;
    return w;
}

#if FB_HAVE_THREADS
/* A thread that left by pthread_exit (or was cancelled) never reaches the
 * end of fb__group_main: without this handler the others would wait for it
 * at the next barrier forever. The leader runs on a thread of its own too
 * (the caller's thread only waits for the group), so its exit is caught
 * the same way and the caller goes on. */
static void fb__group_exited(void *arg) {
    fb__group_thread *t = arg;
    pthread_mutex_lock(&t->g->mu);
    t->g->exited++;
    if (t->b->thread_index == 0) t->g->lead_exited = true;
    pthread_mutex_unlock(&t->g->mu);
    fb__group_break(t->g);
}

static void *fb__group_main(void *arg) {
    fb__group_thread *t = arg;
    pthread_cleanup_push(fb__group_exited, t);
    t->body(t->b, t->ctx);
    pthread_cleanup_pop(0);
    /* a follower: a run left in progress (the body returned from inside
     * FB_RUN) or a run the leader still plans: the group cannot go on; the
     * leader: followers with runs the leader never had stop */
    fb__group_break(t->g);
    return NULL;
}
#endif

static void fb__group_free(fb__group *g) {
    if (!g) return;
#if FB_HAVE_THREADS
    pthread_mutex_destroy(&g->mu);
    pthread_cond_destroy(&g->cv);
#endif
    free(g->slots);
    free(g);
}

static fb__group *fb__group_new(size_t n) {
    fb__group *g = calloc(1, sizeof *g);
    if (!g) return NULL;
    g->n = n;
#if FB_HAVE_POSIX && defined(_SC_NPROCESSORS_ONLN)
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    g->oversubscribed = cpus > 0 && n > (size_t)cpus;
    g->cores = cpus <= 0 ? 0 : n > (size_t)cpus ? (size_t)cpus : n;
#endif
    g->slots = calloc(n, sizeof *g->slots);
    if (!g->slots) {
        free(g);
        return NULL;
    }
#if FB_HAVE_THREADS
    if (pthread_mutex_init(&g->mu, NULL) != 0) {
        free(g->slots);
        free(g);
        return NULL;
    }
    if (pthread_cond_init(&g->cv, NULL) != 0) {
        pthread_mutex_destroy(&g->mu);
        free(g->slots);
        free(g);
        return NULL;
    }
#endif
    return g;
}

void fb__group_lost(fb__group *g) {
#if FB_HAVE_THREADS
    pthread_mutex_lock(&g->mu);
    g->lost++;
    pthread_mutex_unlock(&g->mu);
#else
    g->lost++;
#endif
}

int fb_run_threads(fb_bench *b, size_t threads, fb_group_fn body, void *ctx) {
    if (!b || !body) return FB_EINVAL;
    if (threads == 0 || threads > FB__MAX_THREADS) {
        fb__bench_diag(b, "fb_run_threads: %zu threads: give 1 to %d", threads, FB__MAX_THREADS);
        return FB_EINVAL;
    }
    if (b->group || b->epoch) {
        fb__bench_diag(b, "fb_run_threads: %s",
                       b->group ? "already in a group of threads"
                                : "a run of this bench is in progress");
        return FB_EINVAL;
    }
#if !FB_HAVE_THREADS
    if (threads > 1) {
        fb__bench_diag(b, "fb_run_threads: %zu threads: this build has no threads", threads);
        return FB_ENOTSUP;
    }
#endif
    fb__group *g = fb__group_new(threads);
    fb__group_thread *t = g ? calloc(threads, sizeof *t) : NULL;
    if (!t) {
        fb__group_free(g);
        return FB_ENOMEM;
    }
    int rc = FB_OK;
    size_t made = 1;
    /* the handles are made here, on the leader's thread: fb_bench_new reads
     * the process state, which is not made for concurrent first use */
    for (; made < threads; ++made) {
        t[made] = (fb__group_thread){fb__group_follower(b, g, made), body, ctx, g};
        if (!t[made].b) break;
    }
    if (made < threads) rc = FB_ENOMEM;
#if FB_HAVE_THREADS
    pthread_t *tid = rc == FB_OK ? calloc(threads, sizeof *tid) : NULL;
    size_t started = 0;
    if (rc == FB_OK && !tid) rc = FB_ENOMEM;
    /* the process's counters and first-run checks on the caller's thread,
     * before any thread starts (they belong to the thread that first asks);
     * the leader's thread opens counters of its own for the group (they
     * count the thread that opened them), kept aside from the bench's */
    if (rc == FB_OK) (void)fb__bench_prepare(b, -1);
    fb__perf *own_perf = b->own_perf;
    bool own_perf_tried = b->own_perf_tried;
    b->own_perf = NULL;
    b->own_perf_tried = false;
    t[0] = (fb__group_thread){b, body, ctx, g};
    b->group = g;
    b->thread_index = 0;
    for (; rc == FB_OK && started < threads; ++started)
        if (pthread_create(&tid[started], NULL, fb__group_main, &t[started]) != 0) {
            fb__bench_diag(b, "fb_run_threads: could not start thread %zu of %zu", started,
                           threads);
            rc = FB_ENOMEM;
            fb__group_break(g); /* the threads already started stop */
            break;
        }
    for (size_t i = 0; i < started; ++i) pthread_join(tid[i], NULL);
    free(tid);
    b->group = NULL;
    if (b->own_perf) fb__perf_close(b->own_perf);
    b->own_perf = own_perf;
    b->own_perf_tried = own_perf_tried;
    /* the leader left by pthread_exit: the run it was in, half done, is
     * released (the bench is free again), and it and the runs the leader
     * never made are counted: nothing silently dropped, the runner's row
     * for the benchmark is an error row, the line below says why */
    if (g->lead_exited) {
        if (b->run && b->run_free) b->run_free(b->run);
        b->run = NULL;
        b->dropped++;
    }
#else
    if (rc == FB_OK) {
        b->group = g;
        body(b, ctx);
        b->group = NULL;
    }
#endif
    /* the leader's run that the exit broke is already an error row (run.c:
     * "a thread of the group stopped"); this line says why */
    if (g->exited)
        fb__bench_diag(b,
                       "%zu thread%s of the group called pthread_exit: a thread body must "
                       "return, runs left unmeasured are error rows",
                       g->exited, g->exited == 1 ? "" : "s");
    if (g->lost) { /* nothing silently dropped */
        b->dropped += g->lost;
        fb__bench_diag(b,
                       "%zu run%s of the other threads ended unmeasured: every thread must "
                       "run the same FB_RUN / fb_run calls",
                       g->lost, g->lost == 1 ? "" : "s");
    }
    for (size_t i = 1; i < made; ++i) fb_bench_free(t[i].b);
    free(t);
    fb__group_free(g);
    return rc;
}
