/* The runner's -filter: which benchmarks a pattern selects.
 *
 * glibc's regcomp recurses on nesting and can allocate gigabytes for nested
 * bounded repetitions ("((a{1000}){1000}){1000}"); its regexec can take
 * exponential time with back-references. So the pattern is first bounded
 * (length, nesting), then compiled and matched against every name in a
 * forked child under RLIMIT_AS, RLIMIT_CPU and a wall-clock deadline. The
 * child sends one byte per name back over a pipe ('1' selected, '0' not)
 * and a final 'K', or 'E' and regerror's message. Whatever happens to it,
 * the parent only reads bytes and a wait status.
 *
 * Anchoring: POSIX matching is leftmost-longest, so a whole-name match
 * exists exactly when the match found starts at 0 and ends at the name's
 * length. Checking those offsets (instead of wrapping the pattern in
 * "^(...)$", which "Fa)|(.*b" escapes and which renumbers back-references)
 * keeps the pattern as the user wrote it. */
#include "filter.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if FB_HAVE_POSIX_REGEX /* else src/runner/filter_basic.c matches */
#include <poll.h>
#include <regex.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#endif

int fb__filter_check(const char *pattern, char *why, size_t len) {
    size_t n = strlen(pattern);
    if (n > FB__FILTER_MAX_LEN) {
        snprintf(why, len, "pattern of %zu bytes (at most %d)", n, FB__FILTER_MAX_LEN);
        return -1;
    }
    int depth = 0, deepest = 0;
    for (const char *p = pattern; *p; ++p) {
        if (*p == '\\') {
            if (!p[1]) break;
            ++p;
        } else if (*p == '[') {
            /* a bracket expression: a ']' right after '[' or '[^' is literal */
            ++p;
            if (*p == '^') ++p;
            if (*p == ']') ++p;
            while (*p && *p != ']') {
                if (*p == '[' && (p[1] == ':' || p[1] == '.' || p[1] == '=')) {
                    char close = p[1];
                    p += 2;
                    while (*p && !(p[0] == close && p[1] == ']')) ++p;
                    if (*p) ++p;
                }
                if (*p) ++p;
            }
            if (!*p) break;
        } else if (*p == '(') {
            if (++depth > deepest) deepest = depth;
        } else if (*p == ')' && depth > 0) {
            --depth;
        }
    }
    if (deepest > FB__FILTER_MAX_DEPTH) {
        snprintf(why, len, "groups nested %d deep (at most %d)", deepest, FB__FILTER_MAX_DEPTH);
        return -1;
    }
    return 0;
}

#if FB_HAVE_POSIX_REGEX
/* The child's address space now, in bytes (0 when unknown). */
static unsigned long long fb__filter_vm_bytes(void) {
    unsigned long long pages = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (!f) return 0;
    if (fscanf(f, "%llu", &pages) != 1) pages = 0;
    fclose(f);
    long page = sysconf(_SC_PAGESIZE);
    return pages * (unsigned long long)(page > 0 ? page : 4096);
}

static void fb__filter_put(int fd, const char *s, size_t n) {
    while (n) {
        ssize_t w = write(fd, s, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) _exit(3);
        s += w;
        n -= (size_t)w;
    }
}

/* The child: limits, compile, match, report, _exit. */
static void fb__filter_child(int fd, const char *pattern, const char *const *names, size_t n,
                             bool anywhere, char *parents_buffer) {
    /* nothing of the parent's is leaked: a leak checker that follows the
     * fork (valgrind --leak-check=full --error-exitcode) would change the
     * child's exit status */
    free(parents_buffer);
    struct rlimit rl;
    rl.rlim_cur = rl.rlim_max = 0;
    setrlimit(RLIMIT_CORE, &rl);
    rl.rlim_cur = rl.rlim_max = FB__FILTER_MAX_CPU_S;
    setrlimit(RLIMIT_CPU, &rl);
    unsigned long long vm = fb__filter_vm_bytes();
    if (vm) {
        rl.rlim_cur = rl.rlim_max =
            (rlim_t)(vm + (unsigned long long)FB__FILTER_MAX_MEM_MB * 1048576u);
        setrlimit(RLIMIT_AS, &rl);
    }
    regex_t re;
    int err = regcomp(&re, pattern, REG_EXTENDED);
    if (err == REG_ESPACE) { /* hit RLIMIT_AS: too big, not wrong */
        fb__filter_put(fd, "M", 1);
        _exit(0);
    }
    if (err) {
        char msg[256];
        regerror(err, &re, msg, sizeof msg);
        fb__filter_put(fd, "E", 1);
        fb__filter_put(fd, msg, strlen(msg));
        regfree(&re);
        _exit(0);
    }
    char buf[256];
    size_t used = 0;
    for (size_t i = 0; i < n; ++i) {
        regmatch_t m[1];
        size_t len = strlen(names[i]);
        int hit = regexec(&re, names[i], 1, m, 0) == 0 &&
                  (anywhere || (m[0].rm_so == 0 && (size_t)m[0].rm_eo == len));
        buf[used++] = hit ? '1' : '0';
        if (used == sizeof buf) {
            fb__filter_put(fd, buf, used);
            used = 0;
        }
    }
    buf[used++] = 'K';
    fb__filter_put(fd, buf, used);
    regfree(&re);
    _exit(0);
}

static long long fb__filter_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

int fb__filter_select(const char *pattern, const char *const *names, size_t n, unsigned char *sel,
                      char *why, size_t len) {
    return fb__filter_select_mode(pattern, names, n, sel, false, why, len);
}

int fb__filter_select_mode(const char *pattern, const char *const *names, size_t n,
                           unsigned char *sel, bool anywhere, char *why, size_t len) {
    if (fb__filter_check(pattern, why, len)) return -1;
    size_t cap = n + 300; /* the answers, or 'E' and a message */
    char *got = malloc(cap);
    int fds[2];
    if (!got || pipe(fds) != 0) {
        free(got);
        snprintf(why, len, "cannot start the matcher: %s", strerror(errno));
        return -1;
    }
    fflush(NULL); /* the child never flushes, but keep buffers from doubling anyway */
    pid_t pid = fork();
    if (pid < 0) {
        int e = errno;
        close(fds[0]);
        close(fds[1]);
        free(got);
        snprintf(why, len, "cannot start the matcher: %s", strerror(e));
        return -1;
    }
    if (pid == 0) {
        close(fds[0]);
        fb__filter_child(fds[1], pattern, names, n, anywhere, got);
    }
    close(fds[1]);
    size_t have = 0;
    bool timed_out = false;
    long long deadline = fb__filter_ms() + FB__FILTER_MAX_WALL_MS;
    for (;;) {
        long long left = deadline - fb__filter_ms();
        if (left <= 0) {
            timed_out = true;
            break;
        }
        struct pollfd pfd = {fds[0], POLLIN, 0};
        int pr = poll(&pfd, 1, (int)left);
        if (pr < 0 && errno == EINTR) continue;
        if (pr <= 0) {
            timed_out = pr == 0;
            break;
        }
        ssize_t r = read(fds[0], got + have, cap - have);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) break;
        have += (size_t)r;
        if (have == cap) break;
    }
    close(fds[0]);
    if (timed_out) kill(pid, SIGKILL);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    int rc = 0;
    if (have >= 1 && got[0] == 'E') {
        snprintf(why, len, "invalid regular expression: %.*s", (int)(have - 1), got + 1);
        rc = -1;
    } else if (have >= 1 && got[0] == 'M') {
        snprintf(why, len, "too complex: compiling it needs more than %d MiB of memory",
                 FB__FILTER_MAX_MEM_MB);
        rc = -1;
    } else if (have == n + 1 && got[n] == 'K') {
        /* every answer arrived: the child's exit status no longer matters
         * (a checker such as valgrind --error-exitcode may have set it) */
        for (size_t i = 0; i < n; ++i) sel[i] = got[i] == '1';
    } else if (!timed_out && WIFEXITED(status) && WEXITSTATUS(status) != 0) {
        snprintf(why, len, "the matcher exited with status %d before it answered",
                 WEXITSTATUS(status));
        rc = -1;
    } else {
        char how[64];
        if (timed_out)
            snprintf(how, sizeof how, "ran past %d ms", FB__FILTER_MAX_WALL_MS);
        else if (WIFSIGNALED(status))
            snprintf(how, sizeof how, "was killed by signal %d", WTERMSIG(status));
        else
            snprintf(how, sizeof how, "failed");
        snprintf(why, len, "too complex: matching it %s (limits: %d MiB of memory, %d s of CPU)",
                 how, FB__FILTER_MAX_MEM_MB, FB__FILTER_MAX_CPU_S);
        rc = -1;
    }
    free(got);
    return rc;
}
#endif /* FB_HAVE_POSIX_REGEX */
