/* -repetitions in fresh processes. A process's median differs from the
 * next process's by more than its epochs spread (docs/baselines.md,
 * "Between processes"): the address layout, the heap, which physical pages
 * back the data, the state the host leaves the core in. Passes inside one
 * process share all of that, so their spread understates what the next run
 * gives. Here every pass is a new process: this program again (exec, not
 * fork: a forked child inherits the parent's layout and warmed state), with
 * the same arguments and FEMTOBENCH_PASS=<pass>/<passes>:<fd> in its
 * environment. It runs the suite once in the pass's order, prints its table
 * and sends each result and comparison over the pipe fd as the compact
 * records of src/runner/isolate_record.c, then an end record ('D', interrupted). It writes no
 * output file and no change table: the parent does, over all passes. */
#include "passes_exec.h"

#include "process.h"
#include "result.h"
#include "text.h"

#include <stdlib.h>
#include <string.h>

#if FB_HAVE_POSIX /* exec, pipes, waitpid; Windows keeps its passes in one process */
#include <errno.h>
#include <signal.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/* ------------------------------------------------------------- child */

static void fb__pe_write_all(int fd, const unsigned char *p, size_t n) {
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) _exit(121); /* the parent is gone */
        p += w;
        n -= (size_t)w;
    }
}

/* Sends one encoded record (rc: the encoder's) and frees it; a record that
 * could not be built ends the pass process. */
static void fb__pe_send(int fd, int rc, unsigned char *buf, size_t len) {
    if (rc != FB_OK) _exit(122);
    fb__pe_write_all(fd, buf, len);
    free(buf);
}

void fb__passes_exec_sink(void *ctx, const fb_bench *b, const fb_result *r) {
    unsigned char *buf = NULL;
    size_t len = 0, cap = 0;
    (void)b;
    int rc = fb__isolate_encode(r, &buf, &len, &cap);
    fb__pe_send(*(const int *)ctx, rc, buf, len);
}

/* The result sent last, amended (counters given after its run). */
void fb__passes_exec_amend(void *ctx, const fb_bench *b, const fb_result *r) {
    unsigned char *buf = NULL;
    size_t len = 0, cap = 0;
    (void)b;
    unsigned char tag = 'U';
    int rc = fb__isolate_encode(r, &buf, &len, &cap);
    if (rc == FB_OK) fb__pe_write_all(*(const int *)ctx, &tag, 1);
    fb__pe_send(*(const int *)ctx, rc, buf, len);
}

/* ... and each comparison, likewise (its alternatives' results inside) */
void fb__passes_exec_cmp_sink(void *ctx, const fb_bench *b, const fb_comparison *c) {
    unsigned char *buf = NULL;
    size_t len = 0, cap = 0;
    (void)b;
    int rc = fb__isolate_encode_comparison(c, &buf, &len, &cap);
    fb__pe_send(*(const int *)ctx, rc, buf, len);
}

void fb__passes_exec_end(int fd, bool interrupted) {
    unsigned char end[2] = {'D', (unsigned char)(interrupted ? 1 : 0)};
    fb__pe_write_all(fd, end, sizeof end);
    close(fd);
}

/* ------------------------------------------------------------ parent */

/* Reads the pass's records until EOF (the records of
 * src/runner/isolate_record.c), publishing each result and comparison to b. *done
 * when the end record came; false when the stream was not ours or memory
 * ran out. */
static bool fb__pe_read(int fd, fb_bench *b, bool *done, bool *interrupted) {
    fb__iso_buf in = {NULL, 0, 0, false};
    bool ok = true;
    for (;;) {
        unsigned char chunk[65536];
        ssize_t n = read(fd, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        fb__iso_put(&in, chunk, (size_t)n);
        if (in.oom) {
            ok = false;
            break;
        }
        size_t used = 0;
        while (used < in.len && !*done) {
            fb__iso_rec rec;
            fb__iso_next(in.p + used, in.len - used, &rec);
            if (!rec.kind) break; /* incomplete: read more */
            if (rec.kind == FB__ISO_BAD) {
                ok = false;
                break;
            }
            used += rec.used;
            if (rec.kind == 'D') {
                *interrupted = rec.byte != 0;
                *done = true;
            } else if (rec.kind == 'R') {
                /* this process measures nothing itself: the machine's checks
                 * and the pass's build are taken here once, as -isolate's
                 * parent does (src/process/process.c), so that the files it writes
                 * carry the warnings; the pass process printed them (no
                 * diagnostics stream here) */
                fb__process_first_run(NULL, rec.result->callsite);
                size_t before = fb_result_count(b);
                fb__bench_publish(b, rec.result);
                if (fb_result_count(b) == before) fb__bench_count_dropped(b);
            } else if (rec.kind == 'U') { /* late counters: the pass said so */
                (void)fb__bench_amend_last(b, rec.result);
            } else if (rec.kind == 'C') {
                const fb_result *first = fb_comparison_result(rec.comparison, 0);
                fb__process_first_run(NULL, first ? first->callsite : -1);
                if (fb__bench_publish_comparison(b, rec.comparison) != FB_OK)
                    fb__bench_count_dropped(b);
            } /* 'O': a pass process prints its own rows */
        }
        memmove(in.p, in.p + used, in.len - used);
        in.len -= used;
        if (!ok) break;
    }
    free(in.p);
    return ok;
}

int fb__passes_exec(int argc, char **argv, unsigned passes, fb_bench *suite,
                    fb__passes_make_fn make, void *ctx, FILE *tout, bool *interrupted, char *why,
                    size_t len) {
    *interrupted = false;
    /* /proc/self/exe, not the path it names: the kernel resolves it to this
     * program's own file even when a rebuild has replaced or deleted the
     * file at that path since it started */
    const char *exe = "/proc/self/exe";
    if (access(exe, X_OK) != 0) {
        snprintf(why, len, "-repetitions: cannot run this program again (%s): %s", exe,
                 strerror(errno));
        return FB_EIO;
    }
    /* as system(3): a Ctrl-C ends the pass process, which says so in its
     * end record; this one then stops */
    struct sigaction ign, old_int, old_quit;
    memset(&ign, 0, sizeof ign);
    ign.sa_handler = SIG_IGN;
    sigemptyset(&ign.sa_mask);
    sigaction(SIGINT, &ign, &old_int);
    sigaction(SIGQUIT, &ign, &old_quit);
    int rc = FB_OK;
    for (unsigned pass = 0; pass < passes && !*interrupted && rc == FB_OK; ++pass) {
        fb_bench *b = make(ctx, pass);
        int fds[2];
        if (!b) {
            snprintf(why, len, "out of memory");
            rc = FB_ENOMEM;
            break;
        }
        if (pipe(fds) != 0) {
            snprintf(why, len, "-repetitions: pass %u: %s", pass + 1, strerror(errno));
            fb_bench_free(b);
            rc = FB_EIO;
            break;
        }
        char env_pass[64];
        snprintf(env_pass, sizeof env_pass, "FEMTOBENCH_PASS=%u/%u:%d", pass, passes, fds[1]);
        const char *const set[] = {env_pass};
        char **envp = fb__process_child_env(set, 1);
        if (!envp) {
            close(fds[0]);
            close(fds[1]);
            fb_bench_free(b);
            snprintf(why, len, "out of memory");
            rc = FB_ENOMEM;
            break;
        }
        fprintf(tout, "%spass %u of %u (a fresh process):\n", pass ? "\n" : "", pass + 1, passes);
        fflush(NULL);
        pid_t pid = fork();
        if (pid == 0) {
            sigaction(SIGINT, &old_int, NULL);
            sigaction(SIGQUIT, &old_quit, NULL);
            close(fds[0]);
            execve(exe, argv, envp);
            fprintf(stderr, "femtobench: error: -repetitions: cannot run '%s': %s\n", exe,
                    strerror(errno));
            _exit(127);
        }
        free(envp);
        close(fds[1]);
        if (pid < 0) {
            close(fds[0]);
            fb_bench_free(b);
            snprintf(why, len, "-repetitions: fork: %s", strerror(errno));
            rc = FB_EIO;
            break;
        }
        bool done = false, intr = false;
        bool ok = fb__pe_read(fds[0], b, &done, &intr);
        close(fds[0]);
        if (!ok) kill(pid, SIGKILL);
        int status = 0;
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
        char msg[200] = "";
        if (WIFSIGNALED(status) && WTERMSIG(status) == SIGINT) {
            intr = true;
        } else if (!ok) {
            snprintf(msg, sizeof msg,
                     "its results could not be read back (out of memory or "
                     "corrupted)");
        } else if (WIFSIGNALED(status)) {
            int sig = WTERMSIG(status);
            const char *what = strsignal(sig);
            snprintf(msg, sizeof msg, "the pass's process crashed: killed by signal %d (%s)", sig,
                     what ? what : "?");
        } else if (!done) {
            snprintf(msg, sizeof msg, "the pass's process exited with status %d before it finished",
                     WIFEXITED(status) ? WEXITSTATUS(status) : -1);
        }
        *interrupted = intr;
        if (msg[0]) {
            char name[64];
            snprintf(name, sizeof name, "pass %u of %u", pass + 1, passes);
            if (fb__bench_error_row(b, name, msg) != FB_OK) {
                snprintf(why, len, "%s: %s (and out of memory for its error row)", name, msg);
                rc = FB_ENOMEM;
            }
        }
        if ((fb__bench_take_results(suite, b) != FB_OK ||
             fb__bench_take_comparisons(suite, b) != FB_OK) &&
            rc == FB_OK) {
            snprintf(why, len, "out of memory");
            rc = FB_ENOMEM;
        }
        fb_bench_free(b);
        (void)argc;
    }
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGQUIT, &old_quit, NULL);
    return rc;
}

#else /* no fresh processes on Windows: the runner runs the passes in its own */

void fb__passes_exec_sink(void *ctx, const fb_bench *b, const fb_result *r) {
    (void)ctx;
    (void)b;
    (void)r;
}

void fb__passes_exec_amend(void *ctx, const fb_bench *b, const fb_result *r) {
    (void)ctx;
    (void)b;
    (void)r;
}

void fb__passes_exec_cmp_sink(void *ctx, const fb_bench *b, const fb_comparison *c) {
    (void)ctx;
    (void)b;
    (void)c;
}

void fb__passes_exec_end(int fd, bool interrupted) {
    (void)fd;
    (void)interrupted;
}

int fb__passes_exec(int argc, char **argv, unsigned passes, fb_bench *suite,
                    fb__passes_make_fn make, void *ctx, FILE *tout, bool *interrupted, char *why,
                    size_t len) {
    (void)argc, (void)argv, (void)passes, (void)suite, (void)make, (void)ctx, (void)tout;
    (void)interrupted;
    snprintf(why, len, "-repetitions: passes in fresh processes need POSIX");
    return FB_EIO;
}

#endif
