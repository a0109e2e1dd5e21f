/* femtobench-ab: the measuring child: the benchmarks compared in a child process, rows back through
 * a pipe, crashes, exits and -timeout (docs/ab.md; tools/ab/ab.h). */
#define _GNU_SOURCE /* sched_setaffinity, CPU_SET, sched_getcpu, strsignal */

#include "ab.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* ------------------------------------------------- the measuring child */

static volatile sig_atomic_t fba_child; /* the child's process group, 0 when none */
static const int fba_signals[4] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};

/* A signal that would end femtobench-ab ends the child's group first: a
 * hung benchmark must not outlive the program that started it. */
static void fba_on_signal(int sig) {
    pid_t g = (pid_t)fba_child;
    if (g > 0) kill(-g, SIGKILL);
    signal(sig, SIG_DFL);
    raise(sig);
}

static bool fba_send(int fd, const void *p, size_t n) {
    const char *c = p;
    while (n) {
        ssize_t w = write(fd, c, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return false;
        c += w;
        n -= (size_t)w;
    }
    return true;
}

/* The child: steps [first, last) (step = benchmark x complexity N). */
static void fba_child_run(const fba_side *sides, const fba_opts *o, const fba_names *sel,
                          size_t first, size_t last, int fd) {
    size_t n_ns = o->n_asymptote ? o->n_asymptote : 1;
    for (size_t step = first; step < last; ++step) {
        size_t i = step / n_ns;
        double n = o->n_asymptote ? o->asymptote[step % n_ns] : 0;
        bool in_old = fba_names_find(&sides[0].benches, sel->v[i]) >= 0;
        bool in_new = fba_names_find(&sides[1].benches, sel->v[i]) >= 0;
        fba_msg m = {'B', step};
        if (!fba_send(fd, &m, sizeof m)) _exit(120);
        fba_rows mine = {0};
        if (fba_bench(sides, o, sel->v[i], n, in_old, in_new, &mine) != FB_OK) _exit(121);
        for (size_t r = 0; r < mine.n; ++r) {
            fba_msg h = {'R', step};
            if (!fba_send(fd, &h, sizeof h) || !fba_send(fd, mine.v[r], sizeof *mine.v[r]))
                _exit(120);
        }
        fba_rows_free(&mine);
        m.type = 'E';
        if (!fba_send(fd, &m, sizeof m)) _exit(120);
    }
    fba_msg d = {'D', last};
    _exit(fba_send(fd, &d, sizeof d) ? 0 : 120);
}

/* Reads n bytes, waiting at most until deadline_s (0: no deadline) and
 * checking meanwhile that the child still runs. 1: read; 0: the pipe ended
 * or the child ended (*reaped, *status); -1: the deadline passed. */
static int fba_recv(int fd, void *p, size_t n, pid_t pid, double deadline_s, bool *reaped,
                    int *status) {
    char *c = p;
    while (n) {
        int wait_ms = 200; /* the child is checked at least this often */
        if (deadline_s > 0) {
            double left = deadline_s - (double)fb__clock_now_ns() * 1e-9;
            if (left <= 0) return -1;
            if (left * 1e3 < wait_ms) wait_ms = (int)(left * 1e3) + 1;
        }
        struct pollfd pf = {fd, POLLIN, 0};
        int pr = poll(&pf, 1, wait_ms);
        if (pr < 0 && errno != EINTR) return 0;
        if (pr <= 0) {
            /* a child that ended while a process it left keeps the pipe open */
            if (!*reaped && waitpid(pid, status, WNOHANG) == pid) *reaped = true;
            if (*reaped) {
                pf.revents = 0;
                if (poll(&pf, 1, 0) <= 0) return 0;
            } else {
                continue;
            }
        }
        ssize_t r = read(fd, c, n);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return 0;
        c += r;
        n -= (size_t)r;
    }
    return 1;
}

/* Why a child ended before it said "all done". */
static void fba_child_why(const fba_opts *o, bool timed_out, int status, char *buf, size_t len) {
    if (timed_out) {
        char t[32]; /* '.' whatever the locale */
        fb__fmt_double(t, sizeof t, o->timeout_s, 6);
        snprintf(buf, len, "timed out: still running after %s s (-timeout), killed", t);
    } else if (WIFSIGNALED(status)) {
        const char *what = strsignal(WTERMSIG(status));
        snprintf(buf, len, "crashed: killed by signal %d (%s)", WTERMSIG(status),
                 what ? what : "?");
    } else if (WIFEXITED(status) && WEXITSTATUS(status) == 121) {
        snprintf(buf, len, "out of memory");
    } else if (WIFEXITED(status) && WEXITSTATUS(status) == 120) {
        snprintf(buf, len,
                 "its result pipe was closed before it finished (does the benchmark close "
                 "descriptors it did not open?)");
    } else {
        snprintf(buf, len, "exited with status %d before it finished",
                 WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    }
}

/* Compares every selected benchmark (x each -asymptote N) into rows. */
int fba_run_all(const fba_side *sides, const fba_opts *o, const fba_names *sel, fba_rows *rows) {
    size_t n_ns = o->n_asymptote ? o->n_asymptote : 1;
    size_t total = sel->n * n_ns;
    struct sigaction sa, old[4];
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = fba_on_signal;
    sigemptyset(&sa.sa_mask);
    for (int k = 0; k < 4; ++k) sigaction(fba_signals[k], &sa, &old[k]);
    fba_row *buf = malloc(sizeof *buf);
    int rc = buf ? FB_OK : FB_ENOMEM;
    for (size_t step = 0; step < total && rc == FB_OK;) {
        size_t last = o->isolate ? step + 1 : total;
        int fds[2];
        if (pipe(fds) != 0) {
            rc = FB_EIO;
            break;
        }
        fflush(stdout);
        fflush(stderr);
        pid_t pid = fork();
        if (pid == 0) {
            close(fds[0]);
            setpgid(0, 0); /* its own group: killed whole, with what it starts */
            for (int k = 0; k < 4; ++k) sigaction(fba_signals[k], &old[k], NULL);
            /* the measuring CPU is the child's alone: this process, which
             * wakes to watch it, stays off it */
            fba_pin();
            fba_child_run(sides, o, sel, step, last, fds[1]);
        }
        close(fds[1]);
        if (pid < 0) {
            close(fds[0]);
            rc = FB_EIO;
            break;
        }
        setpgid(pid, pid); /* either side may get there first */
        fba_child = pid;
        long current = -1;  /* the step in progress */
        size_t next = step; /* the step after the last one that ended */
        bool done = false, reaped = false, timed_out = false, stop = false;
        int status = 0;
        double deadline_s = 0;
        for (;;) {
            fba_msg m;
            int got = fba_recv(fds[0], &m, sizeof m, pid, deadline_s, &reaped, &status);
            if (got == 1 && m.type == 'R')
                got = fba_recv(fds[0], buf, sizeof *buf, pid, deadline_s, &reaped, &status);
            if (got < 0) timed_out = true;
            if (got != 1) break;
            if (m.type == 'B') {
                current = (long)m.step;
                if (o->timeout_s > 0) deadline_s = (double)fb__clock_now_ns() * 1e-9 + o->timeout_s;
            } else if (m.type == 'E') {
                current = -1;
                next = m.step + 1;
                deadline_s = 0;
            } else if (m.type == 'R') {
                buf->name[sizeof buf->name - 1] = buf->label[sizeof buf->label - 1] = '\0';
                buf->error[sizeof buf->error - 1] = '\0';
                if (buf->n_lr > FBA_MAX_ROUNDS || buf->layouts > FBA_MAX_LAYOUTS ||
                    buf->passes > 255)
                    buf->n_lr = buf->layouts = buf->passes = 0;
                for (size_t q = 0; q < buf->n_lr; ++q)
                    if (buf->lr_layout[q] >= buf->layouts || buf->lr_pass[q] >= buf->passes)
                        buf->n_lr = 0;
                fba_row *row = fba_rows_add(rows, buf->name, buf->n, buf->kind);
                if (row) *row = *buf;
                /* a run's name the runner refuses: nothing more is run (the
                 * caller says the runner's line and writes nothing) */
                if (row && row->bad_name) {
                    stop = true;
                    break;
                }
            } else if (m.type == 'D') {
                done = true;
                break;
            }
        }
        close(fds[0]);
        kill(-pid, SIGKILL); /* whatever it left behind, and the child if it still runs */
        if (!reaped)
            while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
            }
        fba_child = 0;
        if (stop) break;
        if (done) {
            step = last;
            continue;
        }
        /* the benchmark it died in (or the next one, when it died between
         * two) is an error row; the next child starts after it */
        size_t bad = current >= 0 ? (size_t)current : next;
        if (bad >= total) break;
        char why[FBA_ERROR_MAX];
        fba_child_why(o, timed_out, status, why, sizeof why);
        fba_row *row = fba_rows_add(rows, sel->v[bad / n_ns],
                                    o->n_asymptote ? o->asymptote[bad % n_ns] : 0, FBA_ERROR);
        if (!row) {
            rc = FB_ENOMEM;
            break;
        }
        snprintf(row->error, sizeof row->error, "%s", why);
        step = bad + 1;
    }
    free(buf);
    for (int k = 0; k < 4; ++k) sigaction(fba_signals[k], &old[k], NULL);
    return rc;
}

/* Waits for the child pid; with a watch, its steps are looked at every
 * 50 ms and a step that outlasts the timeout kills the child's group. */
static void fba_wait_watched(pid_t pid, int *status, fba_watch *w) {
    if (!w || !(w->timeout_s > 0)) {
        while (waitpid(pid, status, 0) < 0 && errno == EINTR) {
        }
        return;
    }
    long step = -1;
    double deadline_s = 0;
    for (;;) {
        pid_t r = waitpid(pid, status, WNOHANG);
        if (r == pid || (r < 0 && errno != EINTR)) return;
        double now_s = (double)fb__clock_now_ns() * 1e-9;
        long now_step = w->step(w->ctx);
        if (now_step != step) { /* the next benchmark began (or the last ended) */
            step = now_step;
            deadline_s = step >= 0 ? now_s + w->timeout_s : 0;
        }
        if (deadline_s > 0 && now_s >= deadline_s) {
            w->timed_out = true;
            kill(-pid, SIGKILL); /* Callgrind and whatever the benchmark started */
            while (waitpid(pid, status, 0) < 0 && errno == EINTR) {
            }
            return;
        }
        poll(NULL, 0, 50);
    }
}

/* Runs fn(ctx) in a child process that leads its own process group, with
 * what fn starts (a Callgrind child) in that group too: a signal that ends
 * femtobench-ab ends the group first, as it ends the measuring child's, and
 * so does w's timeout (w may be NULL). Returns the child's exit status, 128
 * + the signal that killed it, or -1 when it could not start. */
int fba_run_grouped(int (*fn)(void *ctx), void *ctx, fba_watch *w) {
    struct sigaction sa, old[4];
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = fba_on_signal;
    sigemptyset(&sa.sa_mask);
    fflush(stdout);
    fflush(stderr);
    for (int k = 0; k < 4; ++k) sigaction(fba_signals[k], &sa, &old[k]);
    pid_t pid = fork();
    if (pid == 0) {
        setpgid(0, 0);
        for (int k = 0; k < 4; ++k) sigaction(fba_signals[k], &old[k], NULL);
        int rc = fn(ctx);
        fflush(stdout);
        fflush(stderr);
        _exit(rc < 0 ? 1 : rc > 255 ? 255 : rc);
    }
    int rc = -1;
    if (pid > 0) {
        setpgid(pid, pid); /* either side may get there first */
        fba_child = pid;
        int status = 0;
        fba_wait_watched(pid, &status, w);
        fba_child = 0;
        rc = WIFEXITED(status) ? WEXITSTATUS(status)
                               : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    }
    for (int k = 0; k < 4; ++k) sigaction(fba_signals[k], &old[k], NULL);
    return rc;
}
