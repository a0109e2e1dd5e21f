/* Crash isolation: the runner's -isolate runs each benchmark in a forked
 * child. The child publishes its results and comparisons to one sink each,
 * which writes each as a compact binary record to a pipe; the parent reads
 * the records as they come, rebuilds each and publishes it to its own
 * bench, so the table, the collector and every output file see exactly what
 * an in-process run would give them (the statistics are recomputed from the
 * same samples). After the last record the child writes an end record and
 * _exits; a child that dies first (a signal, exit() in the benchmark, the
 * -timeout deadline) becomes an error row that names what happened.
 *
 * The records' format is in src/runner/isolate_record.c.
 *
 * The child leads its own process group, so that the deadline and the end
 * of the run reach whatever it started (a grandchild that holds the pipe,
 * or outlives it); signals that end the parent are passed on to that group
 * first. */
#include "isolate.h"
#include "isolate_record.h" /* the records on the pipe */

#include "group.h" /* a group's size and medians */

#include "numfmt.h"
#include "compare_stats.h"
#include "disturb.h" /* FB__EPOCH_* */
#include "process.h"
#include "result.h"
#include "stats.h"
#include "text.h"
#include "ucounter.h" /* user counters travel with the result */
#include "valgrind.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if FB_HAVE_POSIX /* fork, pipe, poll, waitpid; Windows: refused below */
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#endif

/* The child's own exit statuses: its result pipe failed (the parent is
 * gone, or the benchmark closed the descriptor), or a record could not be
 * built. The parent names them in words, never as numbers. */
#define FB__ISO_EXIT_PIPE 121
#define FB__ISO_EXIT_NOMEM 122

/* --------------------------------------------------------------- child */

typedef struct fb__iso_child {
    int fd;
    unsigned char *buf;
    size_t len, cap;
    FILE *suite_out; /* the table's stream when the child started */
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
        /* the parent is gone, or the benchmark closed the pipe */
        if (w <= 0) _exit(FB__ISO_EXIT_PIPE);
        p += w;
        n -= (size_t)w;
    }
}

/* The child's one sink: every result goes to the pipe at once, so a later
 * crash loses nothing measured before it. */
/* The 'O' record: where the benchmark's fb_set_output sends its rows. */
static void fb__iso_put_output(fb__iso_child *c, const fb_bench *b) {
    FILE *out = fb__bench_output(b);
    unsigned char rec[2] = {'O', out == c->suite_out ? 0
                                 : !out              ? 1
                                 : out == stdout     ? 2
                                 : out == stderr     ? 3
                                                     : 0};
    fb__iso_write_all(c->fd, rec, sizeof rec);
}

static void fb__iso_sink(void *ctx, const fb_bench *b, const fb_result *r) {
    fb__iso_child *c = ctx;
    fb__iso_put_output(c, b);
    c->len = 0;
    if (fb__isolate_encode(r, &c->buf, &c->len, &c->cap) != FB_OK) _exit(FB__ISO_EXIT_NOMEM);
    fb__iso_write_all(c->fd, c->buf, c->len);
}

/* The result sent last, amended (counters given after its run). */
static void fb__iso_amend(void *ctx, const fb_bench *b, const fb_result *r) {
    fb__iso_child *c = ctx;
    (void)b;
    c->len = 0;
    if (fb__isolate_encode(r, &c->buf, &c->len, &c->cap) != FB_OK) _exit(FB__ISO_EXIT_NOMEM);
    unsigned char tag = 'U';
    fb__iso_write_all(c->fd, &tag, 1);
    fb__iso_write_all(c->fd, c->buf, c->len);
}

/* ... and every comparison, likewise. */
static void fb__iso_cmp_sink(void *ctx, const fb_bench *b, const fb_comparison *cmp) {
    fb__iso_child *c = ctx;
    fb__iso_put_output(c, b);
    c->len = 0;
    if (fb__isolate_encode_comparison(cmp, &c->buf, &c->len, &c->cap) != FB_OK)
        _exit(FB__ISO_EXIT_NOMEM);
    fb__iso_write_all(c->fd, c->buf, c->len);
}

static void fb__iso_child_main(int fd, fb_bench *b, fb__isolate_body body, void *ctx) {
    setpgid(0, 0); /* its own group: the deadline ends whatever it starts */
    fb__process_forked();
    /* default dispositions: a Ctrl-C at the terminal ends the child too */
    signal(SIGPIPE, SIG_DFL);
    fb__iso_child c = {fd, NULL, 0, 0, fb__bench_output(b)};
    fb__bench_drop_sinks(b); /* the parent publishes: no table, no collector here */
    fb__bench_drop_comparison_sinks(b);
    fb__bench_add_sink(b, fb__iso_sink, &c);
    fb__bench_sink_amend(b, fb__iso_sink, fb__iso_amend);
    fb__bench_add_comparison_sink(b, fb__iso_cmp_sink, &c);
    body(b, ctx);
    unsigned char end[2] = {'D', (unsigned char)(fb__bench_interrupted(b) ? 1 : 0)};
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

/* The child's process group while a child runs, for the handler below:
 * a signal that ends the parent (Ctrl-C, a CI job cancelled) is passed on
 * to the child's group first, which no longer shares the terminal's. */
static volatile sig_atomic_t fb__iso_group;
static volatile sig_atomic_t fb__iso_signal;

static void fb__iso_on_signal(int sig) {
    pid_t g = (pid_t)fb__iso_group;
    if (g > 0) kill(-g, sig);
    fb__iso_signal = sig;
}

static const int fb__iso_signals[4] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};

/* Publishes every complete record of in (up to an end record); returns
 * false when the bytes are not our protocol. */
static bool fb__iso_publish(fb_bench *b, fb__iso_buf *in, bool *done, bool *interrupted,
                            FILE *suite_out) {
    size_t used = 0;
    bool ok = true;
    while (used < in->len && !*done) {
        fb__iso_rec rec;
        fb__iso_next(in->p + used, in->len - used, &rec);
        if (!rec.kind) break; /* incomplete */
        if (rec.kind == FB__ISO_BAD) {
            ok = false; /* not our protocol: stop reading */
            break;
        }
        used += rec.used;
        if (rec.kind == 'O') { /* the stream of the next record's rows */
            unsigned char o = rec.byte;
            fb_set_output(b, o == 1 ? NULL : o == 2 ? stdout : o == 3 ? stderr : suite_out);
        } else if (rec.kind == 'D') {
            *interrupted = rec.byte != 0;
            *done = true;
        } else if (rec.kind == 'R') {
            /* the child's build, checked here once (src/process/process.c) */
            fb__process_first_run(fb__bench_output(b) ? fb__bench_diagnostics(b) : NULL,
                                  rec.result->callsite);
            size_t before = fb_result_count(b);
            fb__bench_publish(b, rec.result);
            if (fb_result_count(b) == before) fb__bench_count_dropped(b);
        } else if (rec.kind == 'U') { /* late counters: the child said so */
            (void)fb__bench_amend_last(b, rec.result);
        } else if (fb__bench_publish_comparison(b, rec.comparison) != FB_OK) {
            fb__bench_count_dropped(b);
        }
    }
    if (used) memmove(in->p, in->p + used, in->len - used); /* in->p is NULL while empty */
    in->len -= used;
    return ok;
}

/* Reads what the pipe holds now (non-blocking): false at EOF or on error. */
static bool fb__iso_read(int fd, fb__iso_buf *in) {
    for (;;) {
        unsigned char chunk[65536];
        ssize_t n = read(fd, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return true;
        if (n <= 0) return false; /* EOF: every writer closed it */
        fb__iso_put(in, chunk, (size_t)n);
        if (in->oom) return false;
    }
}

int fb__isolate_run(fb_bench *b, const char *name, double timeout_s, fb__isolate_body body,
                    void *ctx, bool *interrupted, char *why, size_t len) {
    *interrupted = false;
    /* the stream the rows go to unless the child's benchmark chose another */
    FILE *const suite_out = fb__bench_output(b);
    /* the process facts (machine report, warnings, counters note) once, in
     * the parent, so that no child prints them again */
    fb__bench_prepare(b, -1);
    int fds[2];
    if (pipe(fds) != 0) {
        snprintf(why, len, "%s: cannot isolate: %s", name, strerror(errno));
        return FB_EIO;
    }
    /* the parent's end never blocks: a grandchild may hold the other end
     * open after the child has gone */
    fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK);
    fcntl(fds[0], F_SETFD, FD_CLOEXEC);
    fflush(NULL); /* nothing buffered is written twice */
    struct sigaction old[4];
    bool caught[4] = {false, false, false, false};
    fb__iso_signal = 0;
    for (int i = 0; i < 4; ++i) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = fb__iso_on_signal;
        sigemptyset(&sa.sa_mask);
        if (sigaction(fb__iso_signals[i], NULL, &old[i]) == 0 && old[i].sa_handler != SIG_IGN)
            caught[i] = sigaction(fb__iso_signals[i], &sa, NULL) == 0;
    }
    pid_t pid = fork();
    if (pid < 0) {
        int e = errno;
        close(fds[0]);
        close(fds[1]);
        for (int i = 0; i < 4; ++i)
            if (caught[i]) sigaction(fb__iso_signals[i], &old[i], NULL);
        snprintf(why, len, "%s: cannot isolate: %s", name, strerror(e));
        return FB_EIO;
    }
    if (pid == 0) {
        close(fds[0]);
        for (int i = 0; i < 4; ++i)
            if (caught[i]) sigaction(fb__iso_signals[i], &old[i], NULL);
        fb__iso_child_main(fds[1], b, body, ctx);
    }
    setpgid(pid, pid); /* as the child does: whichever runs first */
    fb__iso_group = pid;
    close(fds[1]);

    fb__iso_buf in = {NULL, 0, 0, false};
    bool done = false, timed_out = false, lost = false, open_pipe = true, reaped = false;
    double deadline = timeout_s > 0 ? fb__iso_now_s() + timeout_s : 0;
    int status = 0, nap_ms = 1;
    /* Until the child is reaped: read its records while the pipe is open
     * and the end record has not come, then wait for it to exit. The
     * deadline holds throughout; the child's exit is checked at least every
     * 200 ms, so a grandchild that keeps the pipe open stalls nothing. */
    while (!reaped) {
        pid_t w = waitpid(pid, &status, WNOHANG);
        if (w == pid || (w < 0 && errno == ECHILD)) {
            reaped = true;
            break;
        }
        double left = deadline > 0 ? deadline - fb__iso_now_s() : 3600;
        if (left <= 0) {
            timed_out = true;
            break;
        }
        if (open_pipe && !done) {
            int wait_ms = left < 0.2 ? (int)(left * 1000) + 1 : 200;
            struct pollfd pfd = {fds[0], POLLIN, 0};
            int pr = poll(&pfd, 1, wait_ms);
            if (pr < 0 && errno != EINTR) open_pipe = false;
            if (pr > 0) {
                open_pipe = fb__iso_read(fds[0], &in);
                if (in.oom || !fb__iso_publish(b, &in, &done, interrupted, suite_out)) {
                    lost = true;
                    break;
                }
            }
            continue;
        }
        if (deadline <= 0 && fb__iso_signal == 0) { /* no deadline: just wait */
            while ((w = waitpid(pid, &status, 0)) < 0 && errno == EINTR && !fb__iso_signal) {
            }
            if (w == pid) reaped = true;
            continue;
        }
        /* the records are in: the child is exiting; a short, growing nap */
        int ms = left * 1000 < nap_ms ? (int)(left * 1000) + 1 : nap_ms;
        struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
        nanosleep(&ts, NULL);
        if (nap_ms < 50) nap_ms *= 2;
    }
    /* what arrived before the child ended */
    if (reaped && !lost && open_pipe && !done) {
        fb__iso_read(fds[0], &in);
        if (in.oom || !fb__iso_publish(b, &in, &done, interrupted, suite_out)) lost = true;
    }
    close(fds[0]);
    free(in.p);
    /* the whole group: the child if it still runs (timed out, unreadable),
     * and whatever it left behind */
    kill(-pid, SIGKILL);
    if (!reaped) {
        kill(pid, SIGKILL);
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
    }
    fb__iso_group = 0;
    for (int i = 0; i < 4; ++i)
        if (caught[i]) sigaction(fb__iso_signals[i], &old[i], NULL);
    if (fb__iso_signal) raise(fb__iso_signal); /* as if the parent had had it */
    char msg[200];
    msg[0] = '\0';
    if (timed_out) {
        char t[32]; /* '.' whatever the locale */
        fb__fmt_double(t, sizeof t, timeout_s, 6);
        /* under -valgrind the deadline is wall time under Callgrind (no scaling) */
        snprintf(msg, sizeof msg, "timed out: still running after %s s%s (-timeout), killed", t,
                 fb__process_callgrind()->exact ? " under Callgrind" : "");
    } else if (WIFSIGNALED(status)) {
        int sig = WTERMSIG(status);
        const char *what = strsignal(sig);
        snprintf(msg, sizeof msg, "crashed: killed by signal %d (%s)", sig, what ? what : "?");
    } else if (lost) {
        snprintf(msg, sizeof msg,
                 "its results could not be read back (out of memory or "
                 "corrupted)");
    } else if (!done && WIFEXITED(status) && WEXITSTATUS(status) == FB__ISO_EXIT_PIPE) {
        snprintf(msg, sizeof msg,
                 "its result pipe was closed before it finished (does the benchmark close "
                 "descriptors it did not open?)");
    } else if (!done && WIFEXITED(status) && WEXITSTATUS(status) == FB__ISO_EXIT_NOMEM) {
        snprintf(msg, sizeof msg, "out of memory for its results");
    } else if (!done) {
        snprintf(msg, sizeof msg, "exited with status %d before it finished",
                 WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    } else if (WIFEXITED(status) && WEXITSTATUS(status) != 0) {
        snprintf(msg, sizeof msg, "exited with status %d after it finished", WEXITSTATUS(status));
    }
    int rc = FB_OK;
    /* how the child ended is the runner's report, not one of the
     * benchmark's rows: it goes to the suite's table even when the
     * benchmark silenced its own (fb_set_output(b, NULL)) */
    if (msg[0]) fb_set_output(b, suite_out);
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
