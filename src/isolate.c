/* Crash isolation (issue 17): the runner's -isolate runs each benchmark in a
 * forked child. The child publishes its results to one sink only, which
 * writes each as a compact binary record to a pipe; the parent reads the
 * records as they come, rebuilds each result and publishes it to its own
 * bench, so the table, the collector and every output file see exactly what
 * an in-process run would give them (the statistics are recomputed from the
 * same samples). After the last record the child writes an end record and
 * _exits; a child that dies first (a signal, exit() in the benchmark, the
 * -timeout deadline) becomes an error row that names what happened.
 *
 * The record: 'R', a u32 payload length, then the payload: name and error
 * (u32 length + bytes; 0xffffffff = NULL error), the config (title, unit,
 * batch, time unit and label, relative, complexity N, counters, min_time,
 * every numeric key), callsite, clock resolution and overhead, epochs (u64),
 * the measure mask (u32), iterations per epoch (u64 each) and one double per
 * epoch for each measure in the mask; then issue 19's facts: the pass (u32),
 * epochs asked (u64), a flag byte (1 explicit epochs, 2 disturbance known,
 * 4 slow core), stopped_by, rounds, remeasured (u32 each), the two probe
 * values (f64) and, without an error, one FB__EPOCH_* byte per epoch.
 * Native byte order: both ends are the
 * same program on the same machine. The end record is 'D' and one byte,
 * 1 when the run was interrupted. */
#include "isolate.h"

#include "disturb.h" /* issue 19: FB__EPOCH_* */
#include "process.h"
#include "result.h"
#include "text.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if FB_HAVE_POSIX /* fork, pipe, poll, waitpid; Windows: refused below */
#include <poll.h>
#include <signal.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#endif

#define FB__ISO_NULL 0xffffffffu
/* A record larger than this is malformed (epochs are at most 10^6). */
#define FB__ISO_MAX_RECORD (64u << 20)

/* ------------------------------------------------------------ encoding */

typedef struct fb__iso_buf {
    unsigned char *p;
    size_t len, cap;
    bool oom;
} fb__iso_buf;

static void fb__iso_put(fb__iso_buf *b, const void *v, size_t n) {
    if (b->oom) return;
    if (b->len + n > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->len + n) cap *= 2;
        unsigned char *p = realloc(b->p, cap);
        if (!p) {
            b->oom = true;
            return;
        }
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->len, v, n);
    b->len += n;
}

static void fb__iso_put_u32(fb__iso_buf *b, uint32_t v) { fb__iso_put(b, &v, sizeof v); }
static void fb__iso_put_u64(fb__iso_buf *b, uint64_t v) { fb__iso_put(b, &v, sizeof v); }
static void fb__iso_put_f64(fb__iso_buf *b, double v) { fb__iso_put(b, &v, sizeof v); }
static void fb__iso_put_str(fb__iso_buf *b, const char *s) {
    if (!s) {
        fb__iso_put_u32(b, FB__ISO_NULL);
        return;
    }
    size_t n = strlen(s);
    fb__iso_put_u32(b, (uint32_t)n);
    fb__iso_put(b, s, n);
}

int fb__isolate_encode(const fb_result *r, unsigned char **buf, size_t *len, size_t *cap) {
    fb__iso_buf b = {*buf, *len, *cap, false};
    size_t start = b.len;
    fb__iso_put(&b, "R", 1);
    fb__iso_put_u32(&b, 0); /* payload length, filled below */
    fb__iso_put_str(&b, r->name);
    fb__iso_put_str(&b, r->error);
    const fb__config *c = &r->config;
    fb__iso_put_str(&b, c->title);
    fb__iso_put_str(&b, c->unit);
    fb__iso_put_f64(&b, c->batch);
    fb__iso_put_f64(&b, c->time_unit_s);
    fb__iso_put(&b, c->time_unit_label, sizeof c->time_unit_label);
    unsigned char flags = (unsigned char)((c->relative ? 1 : 0) | (c->counters ? 2 : 0));
    fb__iso_put(&b, &flags, 1);
    fb__iso_put_f64(&b, c->complexity_n);
    fb__iso_put_f64(&b, c->min_time_s);
    for (int k = 0; k < FB__K_COUNT; ++k) fb__iso_put_f64(&b, c->num[k]);
    fb__iso_put_u32(&b, (uint32_t)r->callsite);
    fb__iso_put_f64(&b, r->clock_resolution_s);
    fb__iso_put_f64(&b, r->clock_overhead_s);
    fb__iso_put_u64(&b, r->error ? 0 : (uint64_t)r->epochs);
    fb__iso_put_u32(&b, r->error ? 0 : r->has);
    if (!r->error) {
        for (size_t i = 0; i < r->epochs; ++i) fb__iso_put_u64(&b, r->iterations[i]);
        for (int m = 0; m < FB_MEASURE_COUNT; ++m)
            if (r->has & FB__BIT(m))
                for (size_t i = 0; i < r->epochs; ++i) fb__iso_put_f64(&b, r->values[m][i]);
    }
    /* issue 19: the pass, why the run stopped, the probe, disturbed epochs */
    fb__iso_put_u32(&b, c->pass);
    fb__iso_put_u64(&b, (uint64_t)r->epochs_asked);
    unsigned char f19 = (unsigned char)((r->epochs_explicit ? 1 : 0) | (r->disturb_known ? 2 : 0) |
                                        (r->slow_core ? 4 : 0));
    fb__iso_put(&b, &f19, 1);
    fb__iso_put_u32(&b, (uint32_t)r->stopped_by);
    fb__iso_put_u32(&b, r->rounds);
    fb__iso_put_u32(&b, r->remeasured);
    fb__iso_put_f64(&b, r->probe[0]);
    fb__iso_put_f64(&b, r->probe[1]);
    if (!r->error)
        for (size_t i = 0; i < r->epochs; ++i) {
            unsigned char e = r->epoch_flags ? r->epoch_flags[i] : 0;
            fb__iso_put(&b, &e, 1);
        }
    *buf = b.p;
    *cap = b.cap;
    if (b.oom) return FB_ENOMEM;
    uint32_t payload = (uint32_t)(b.len - start - 5);
    memcpy(b.p + start + 1, &payload, sizeof payload);
    *len = b.len;
    return FB_OK;
}

typedef struct fb__iso_rd {
    const unsigned char *p, *end;
    bool bad;
} fb__iso_rd;

static void fb__iso_get(fb__iso_rd *r, void *v, size_t n) {
    if (r->bad || (size_t)(r->end - r->p) < n) {
        r->bad = true;
        memset(v, 0, n);
        return;
    }
    memcpy(v, r->p, n);
    r->p += n;
}

static uint32_t fb__iso_get_u32(fb__iso_rd *r) {
    uint32_t v;
    fb__iso_get(r, &v, sizeof v);
    return v;
}
static uint64_t fb__iso_get_u64(fb__iso_rd *r) {
    uint64_t v;
    fb__iso_get(r, &v, sizeof v);
    return v;
}
static double fb__iso_get_f64(fb__iso_rd *r) {
    double v;
    fb__iso_get(r, &v, sizeof v);
    return v;
}
/* A new string; *is_null for the NULL marker. NULL on error. */
static char *fb__iso_get_str(fb__iso_rd *r, bool *is_null) {
    uint32_t n = fb__iso_get_u32(r);
    *is_null = false;
    if (r->bad) return NULL;
    if (n == FB__ISO_NULL) {
        *is_null = true;
        return NULL;
    }
    if ((size_t)(r->end - r->p) < n || memchr(r->p, 0, n)) { /* short, or a NUL inside */
        r->bad = true;
        return NULL;
    }
    char *s = malloc((size_t)n + 1);
    if (!s) {
        r->bad = true;
        return NULL;
    }
    memcpy(s, r->p, n);
    s[n] = '\0';
    r->p += n;
    return s;
}

size_t fb__isolate_decode(const unsigned char *buf, size_t len, fb_result **out) {
    *out = NULL;
    if (len < 5 || buf[0] != 'R') return 0;
    uint32_t payload;
    memcpy(&payload, buf + 1, sizeof payload);
    if (payload > FB__ISO_MAX_RECORD || len - 5 < payload) return 0;
    fb__iso_rd rd = {buf + 5, buf + 5 + payload, false};
    fb_result *r = calloc(1, sizeof *r);
    if (!r) return 0;
    bool null_name, null_error, null_title, null_unit;
    r->name = fb__iso_get_str(&rd, &null_name);
    r->error = fb__iso_get_str(&rd, &null_error);
    r->config.title = fb__iso_get_str(&rd, &null_title);
    r->config.unit = fb__iso_get_str(&rd, &null_unit);
    r->config.batch = fb__iso_get_f64(&rd);
    r->config.time_unit_s = fb__iso_get_f64(&rd);
    fb__iso_get(&rd, r->config.time_unit_label, sizeof r->config.time_unit_label);
    if (r->config.time_unit_label[sizeof r->config.time_unit_label - 1] != '\0') rd.bad = true;
    unsigned char flags = 0;
    fb__iso_get(&rd, &flags, 1);
    if (flags > 3) rd.bad = true;
    r->config.relative = flags & 1;
    r->config.counters = (flags & 2) != 0;
    r->config.complexity_n = fb__iso_get_f64(&rd);
    r->config.min_time_s = fb__iso_get_f64(&rd);
    for (int k = 0; k < FB__K_COUNT; ++k) r->config.num[k] = fb__iso_get_f64(&rd);
    r->callsite = (int)fb__iso_get_u32(&rd);
    r->clock_resolution_s = fb__iso_get_f64(&rd);
    r->clock_overhead_s = fb__iso_get_f64(&rd);
    uint64_t epochs = fb__iso_get_u64(&rd);
    r->has = fb__iso_get_u32(&rd);
    if (null_name || null_title || null_unit || (!r->error && !null_error) ||
        (r->error && (epochs || r->has)) || (r->has & ~((1u << FB_MEASURE_COUNT) - 1)) ||
        epochs > (uint64_t)(rd.end - rd.p) / sizeof(uint64_t))
        rd.bad = true;
    if (!rd.bad && !r->error) {
        r->epochs = (size_t)epochs;
        r->iterations = malloc((r->epochs ? r->epochs : 1) * sizeof *r->iterations);
        if (!r->iterations) rd.bad = true;
        for (size_t i = 0; i < r->epochs && !rd.bad; ++i) r->iterations[i] = fb__iso_get_u64(&rd);
        for (int m = 0; m < FB_MEASURE_COUNT && !rd.bad; ++m) {
            if (!(r->has & FB__BIT(m))) continue;
            r->values[m] = malloc((r->epochs ? r->epochs : 1) * sizeof(double));
            if (!r->values[m]) rd.bad = true;
            for (size_t i = 0; i < r->epochs && !rd.bad; ++i)
                r->values[m][i] = fb__iso_get_f64(&rd);
        }
    }
    /* issue 19 (the statistics recomputed by the parent use the flags) */
    r->config.pass = fb__iso_get_u32(&rd);
    uint64_t asked = fb__iso_get_u64(&rd);
    unsigned char f19 = 0;
    fb__iso_get(&rd, &f19, 1);
    uint32_t stopped_by = fb__iso_get_u32(&rd);
    r->rounds = fb__iso_get_u32(&rd);
    r->remeasured = fb__iso_get_u32(&rd);
    r->probe[0] = fb__iso_get_f64(&rd);
    r->probe[1] = fb__iso_get_f64(&rd);
    if (f19 > 7 || stopped_by > FB__STOP_CAP || asked > FB__ISO_MAX_RECORD) rd.bad = true;
    r->epochs_asked = (size_t)asked;
    r->epochs_explicit = f19 & 1;
    r->disturb_known = (f19 & 2) != 0;
    r->slow_core = (f19 & 4) != 0;
    r->stopped_by = (int)stopped_by;
    if (!rd.bad && !r->error) {
        r->epoch_flags = calloc(r->epochs ? r->epochs : 1, 1);
        if (!r->epoch_flags) rd.bad = true;
        for (size_t i = 0; i < r->epochs && !rd.bad; ++i) {
            fb__iso_get(&rd, &r->epoch_flags[i], 1);
            if (r->epoch_flags[i] > 7) rd.bad = true;
            if (r->epoch_flags[i] & FB__EPOCH_DISTURBED) r->disturbed++;
        }
    }
    if (rd.bad || rd.p != rd.end) {
        fb__result_free(r);
        return 0;
    }
    *out = r;
    return 5 + (size_t)payload;
}

/* --------------------------------------------------------------- child */

typedef struct fb__iso_child {
    int fd;
    unsigned char *buf;
    size_t len, cap;
} fb__iso_child;

#if FB_HAVE_POSIX
int fb__isolate_check(char *why, size_t len) {
    (void)why;
    (void)len;
    return FB_OK;
}

static void fb__iso_write_all(int fd, const unsigned char *p, size_t n) {
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) _exit(121); /* the parent is gone */
        p += w;
        n -= (size_t)w;
    }
}

/* The child's one sink: every result goes to the pipe at once, so a later
 * crash loses nothing measured before it. */
static void fb__iso_sink(void *ctx, const fb_bench *b, const fb_result *r) {
    fb__iso_child *c = ctx;
    (void)b;
    c->len = 0;
    if (fb__isolate_encode(r, &c->buf, &c->len, &c->cap) != FB_OK) _exit(122);
    fb__iso_write_all(c->fd, c->buf, c->len);
}

static void fb__iso_child_main(int fd, fb_bench *b, fb__isolate_body body, void *ctx) {
    fb__process_forked();
    /* default dispositions: a Ctrl-C at the terminal ends the child too */
    signal(SIGPIPE, SIG_DFL);
    fb__iso_child c = {fd, NULL, 0, 0};
    b->n_sinks = 0; /* the parent publishes: no table, no collector here */
    fb__bench_add_sink(b, fb__iso_sink, &c);
    body(b, ctx);
    unsigned char end[2] = {'D', (unsigned char)(b->interrupted ? 1 : 0)};
    fb__iso_write_all(fd, end, sizeof end);
    fflush(stdout);
    fflush(stderr);
    _exit(0);
}

/* -------------------------------------------------------------- parent */

static double fb__iso_now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int fb__isolate_run(fb_bench *b, const char *name, double timeout_s, fb__isolate_body body,
                    void *ctx, bool *interrupted, char *why, size_t len) {
    *interrupted = false;
    /* the process facts (machine report, warnings, counters note) once, in
     * the parent, so that no child prints them again */
    fb__bench_prepare(b, -1);
    int fds[2];
    if (pipe(fds) != 0) {
        snprintf(why, len, "%s: cannot isolate: %s", name, strerror(errno));
        return FB_EIO;
    }
    fflush(NULL); /* nothing buffered is written twice */
    pid_t pid = fork();
    if (pid < 0) {
        int e = errno;
        close(fds[0]);
        close(fds[1]);
        snprintf(why, len, "%s: cannot isolate: %s", name, strerror(e));
        return FB_EIO;
    }
    if (pid == 0) {
        close(fds[0]);
        fb__iso_child_main(fds[1], b, body, ctx);
    }
    close(fds[1]);

    fb__iso_buf in = {NULL, 0, 0, false};
    bool done = false, timed_out = false, lost = false;
    double deadline = timeout_s > 0 ? fb__iso_now_s() + timeout_s : 0;
    int rc = FB_OK;
    for (;;) {
        int wait_ms = -1;
        if (deadline > 0) {
            double left = deadline - fb__iso_now_s();
            if (left <= 0) {
                timed_out = true;
                break;
            }
            wait_ms = left > 3600 ? 3600000 : (int)(left * 1000) + 1;
        }
        struct pollfd pfd = {fds[0], POLLIN, 0};
        int pr = poll(&pfd, 1, wait_ms);
        if (pr < 0 && errno == EINTR) continue;
        if (pr < 0) break;
        if (pr == 0) continue; /* the deadline is checked above */
        unsigned char chunk[65536];
        ssize_t n = read(fds[0], chunk, sizeof chunk);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break; /* EOF: the child has ended (or closed the pipe) */
        fb__iso_put(&in, chunk, (size_t)n);
        if (in.oom) {
            lost = true;
            break;
        }
        /* publish every complete record */
        size_t used = 0;
        while (used < in.len && !done) {
            if (in.p[used] == 'D') {
                if (in.len - used < 2) break;
                *interrupted = in.p[used + 1] != 0;
                done = true;
                used += 2;
                break;
            }
            if (in.len - used < 5) break;
            uint32_t payload;
            memcpy(&payload, in.p + used + 1, sizeof payload);
            if (in.p[used] != 'R' || payload > FB__ISO_MAX_RECORD) {
                lost = true; /* not our protocol: stop reading */
                break;
            }
            if (in.len - used - 5 < payload) break; /* incomplete */
            fb_result *r = NULL;
            size_t k = fb__isolate_decode(in.p + used, in.len - used, &r);
            if (!k) {
                lost = true;
                break;
            }
            used += k;
            size_t before = b->n_results;
            fb__bench_publish(b, r);
            if (b->n_results == before) ++b->dropped;
        }
        memmove(in.p, in.p + used, in.len - used);
        in.len -= used;
        if (lost) break;
    }
    close(fds[0]);
    free(in.p);
    if (timed_out || lost) kill(pid, SIGKILL);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    char msg[200];
    msg[0] = '\0';
    if (timed_out) {
        snprintf(msg, sizeof msg, "timed out: still running after %g s (-timeout), killed",
                 timeout_s);
    } else if (WIFSIGNALED(status)) {
        int sig = WTERMSIG(status);
        const char *what = strsignal(sig);
        snprintf(msg, sizeof msg, "crashed: killed by signal %d (%s)", sig, what ? what : "?");
    } else if (lost) {
        snprintf(msg, sizeof msg,
                 "its results could not be read back (out of memory or "
                 "corrupted)");
    } else if (!done) {
        snprintf(msg, sizeof msg, "exited with status %d before it finished",
                 WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    } else if (WIFEXITED(status) && WEXITSTATUS(status) != 0) {
        snprintf(msg, sizeof msg, "exited with status %d after it finished", WEXITSTATUS(status));
    }
    if (msg[0] && fb__bench_error_row(b, name, msg) != FB_OK) {
        snprintf(why, len, "%s: %s (and out of memory for its error row)", name, msg);
        rc = FB_ENOMEM;
    }
    return rc;
}
#else
/* Windows: -isolate is refused. The child must be this process with the
 * bench already set up, which fork gives for free; CreateProcess starts a
 * new program, so the runner would have to re-run itself for one benchmark
 * (its command line narrowed to that name) and read the results back from
 * a pipe: a protocol of its own, not written yet. docs/platforms.md. */
int fb__isolate_check(char *why, size_t len) {
    snprintf(why, len,
             "not available on Windows: it runs each benchmark in a forked child, and "
             "Windows has no fork (run the benchmarks one at a time with -filter instead)");
    return FB_ENOTSUP;
}

int fb__isolate_run(fb_bench *b, const char *name, double timeout_s, fb__isolate_body body,
                    void *ctx, bool *interrupted, char *why, size_t len) {
    (void)b;
    (void)timeout_s;
    (void)body;
    (void)ctx;
    *interrupted = false;
    char what[256];
    fb__isolate_check(what, sizeof what);
    snprintf(why, len, "%s: -isolate %s", name, what);
    return FB_ENOTSUP;
}
#endif /* FB_HAVE_POSIX */
