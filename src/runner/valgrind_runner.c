/* The runner's -valgrind[=cache] (docs/valgrind.md): runs this program again,
 * with the same options but -valgrind, under
 *
 *   valgrind --tool=callgrind -q --collect-atstart=no --instr-atstart=no
 *            --callgrind-out-file=<temporary directory>/callgrind.out
 *            [--cache-sim=yes --branch-sim=yes --I1=.. --D1=.. --LL=..]
 *
 * with FEMTOBENCH_VALGRIND=1 and FEMTOBENCH_CALLGRIND_OUT naming that file,
 * so that each run counts its epochs exactly (src/run/valgrind.c), prints the
 * table and writes the output files itself. This process waits, removes the
 * temporary directory and returns the child's exit status. */
#include "valgrind.h"

#include "text.h"

#include "process.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#if FB_HAVE_POSIX /* Valgrind runs on Linux and macOS only: on Windows, refused */
#include <dirent.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#endif

#if FB_HAVE_VALGRIND
#include <valgrind/valgrind.h>
#endif

/* The simulated caches are fixed, not read from this machine's CPUID, so
 * that the miss counts are the same on every machine (docs/valgrind.md). */
#define FB__VG_I1 "--I1=32768,8,64"
#define FB__VG_D1 "--D1=32768,8,64"
#define FB__VG_LL "--LL=8388608,16,64"

#if !FB_HAVE_POSIX
int fb__vg_runner_check(char *err, size_t len) {
    snprintf(err, len,
             "not available on Windows: Valgrind runs on Linux and macOS only (count under "
             "Linux, or use the times)");
    return FB_ENOTSUP;
}

int fb__vg_runner_exec(int argc, char **argv, bool cache) {
    (void)argc;
    (void)argv;
    (void)cache;
    char why[256];
    fb__vg_runner_check(why, sizeof why);
    fprintf(stderr, "femtobench: error: -valgrind: %s\n", why);
    return 2;
}
#else
/* The executable `prog` in PATH (the process state's): true with its path
 * in full, else false. */
static bool fb__vg_in_path(const char *prog, char *full, size_t len) {
    const char *path = fb__process_path();
    if (!path) return false;
    while (*path) {
        const char *colon = strchr(path, ':');
        size_t dir_len = colon ? (size_t)(colon - path) : strlen(path);
        snprintf(full, len, "%.*s/%s", (int)dir_len, dir_len ? path : ".", prog);
        struct stat st;
        if (stat(full, &st) == 0 && S_ISREG(st.st_mode) && access(full, X_OK) == 0) return true;
        if (!colon) break;
        path = colon + 1;
    }
    return false;
}

int fb__vg_runner_check(char *err, size_t len) {
#if !FB_HAVE_VALGRIND
    snprintf(err, len,
             "this program was built without <valgrind/callgrind.h>: install Valgrind "
             "(Debian/Ubuntu: apt-get install valgrind; Fedora: valgrind-devel) and rebuild");
    return FB_ENOTSUP;
#else
    if (RUNNING_ON_VALGRIND) {
        snprintf(err, len,
                 "already running under Valgrind: drop -valgrind, or run the program "
                 "directly (FEMTOBENCH_VALGRIND=1 counts under a hand-started Callgrind)");
        return FB_ENOTSUP;
    }
    char full[4096];
    if (!fb__vg_in_path("valgrind", full, sizeof full)) {
        snprintf(err, len,
                 "no 'valgrind' program in PATH: install Valgrind (Debian/Ubuntu: apt-get "
                 "install valgrind; Fedora: dnf install valgrind)");
        return FB_ENOTSUP;
    }
    return FB_OK;
#endif
}

static void fb__vg_rmdir(const char *dir) {
    DIR *d = opendir(dir);
    if (d) {
        struct dirent *e;
        while ((e = readdir(d))) {
            if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
            char p[4096];
            snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
            unlink(p);
        }
        closedir(d);
    }
    rmdir(dir);
}

/* Valgrind's own messages went to a log file: pass them on to stderr, all
 * but its notes that the host's cache differs from the simulated one
 * (femtobench fixes the simulated caches on purpose). */
static void fb__vg_show_log(const char *path) {
    FILE *f = fopen(path, "r");
    if (!f) return;
    char line[1024];
    while (fgets(line, sizeof line, f))
        if (!strstr(line, "cache found, using its data") && !strstr(line, "specified LL cache") &&
            !strstr(line, "simulated LL cache"))
            fputs(line, stderr);
    fclose(f);
}

/* -valgrind, --valgrind=cache, ...: the options this process handles */
static bool fb__vg_is_option(const char *arg) {
    if (arg[0] != '-') return false;
    const char *name = arg + 1 + (arg[1] == '-');
    return strncmp(name, "valgrind", 8) == 0 && (name[8] == '\0' || name[8] == '=');
}

int fb__vg_runner_exec(int argc, char **argv, bool cache) {
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) {
        fprintf(stderr,
                "femtobench: error: -valgrind: cannot find this program (/proc/self/exe)\n");
        return 2;
    }
    exe[n] = '\0';
    char valgrind[4096];
    if (!fb__vg_in_path("valgrind", valgrind, sizeof valgrind)) {
        fprintf(stderr, "femtobench: error: -valgrind: no 'valgrind' program in PATH\n");
        return 2;
    }
    const char *tmpdir = fb__process_tmpdir() ? fb__process_tmpdir() : "/tmp";
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/femtobench-callgrind.XXXXXX", tmpdir);
    if (!mkdtemp(dir)) {
        char line[4400]; /* TMPDIR as one line, whatever it holds */
        snprintf(line, sizeof line, "-valgrind: cannot create a directory in %s: %s", tmpdir,
                 strerror(errno));
        fputs("femtobench: error: ", stderr);
        fb__put_line(stderr, line);
        fputc('\n', stderr);
        return 2;
    }
    char out[4200], opt_out[4300], log[4200], opt_log[4300], env_out[4300];
    snprintf(out, sizeof out, "%s/callgrind.out", dir);
    snprintf(opt_out, sizeof opt_out, "--callgrind-out-file=%s", out);
    snprintf(log, sizeof log, "%s/valgrind.log", dir);
    snprintf(opt_log, sizeof opt_log, "--log-file=%s", log);
    /* the child's environment: this one's, plus the exact mode and the
     * dump files' name (passed to execve: this process's stays as it is) */
    snprintf(env_out, sizeof env_out, "FEMTOBENCH_CALLGRIND_OUT=%s", out);
    const char *const child_set[] = {"FEMTOBENCH_VALGRIND=1", env_out};

    const char *fixed[] = {"valgrind", "--tool=callgrind",     "-q",
                           opt_log,    "--collect-atstart=no", "--instr-atstart=no",
                           opt_out};
    const char *sim[] = {"--cache-sim=yes", "--branch-sim=yes", FB__VG_I1, FB__VG_D1, FB__VG_LL};
    size_t n_fixed = sizeof fixed / sizeof fixed[0], n_sim = cache ? sizeof sim / sizeof sim[0] : 0;
    char **args = calloc(n_fixed + n_sim + (size_t)argc + 2, sizeof *args);
    char **envp = fb__process_child_env(child_set, sizeof child_set / sizeof child_set[0]);
    if (!args || !envp) {
        free(args);
        free(envp);
        fb__vg_rmdir(dir);
        fprintf(stderr, "femtobench: error: out of memory\n");
        return 2;
    }
    size_t k = 0;
    for (size_t i = 0; i < n_fixed; ++i) args[k++] = fb__str_unconst(fixed[i]);
    for (size_t i = 0; i < n_sim; ++i) args[k++] = fb__str_unconst(sim[i]);
    args[k++] = exe;
    for (int i = 1; i < argc; ++i)
        if (!fb__vg_is_option(argv[i])) args[k++] = argv[i];
    args[k] = NULL;

    fflush(stdout);
    fflush(stderr);
    /* as system(3): the child takes Ctrl-C, this process waits for it */
    struct sigaction ign, old_int, old_quit;
    memset(&ign, 0, sizeof ign);
    ign.sa_handler = SIG_IGN;
    sigemptyset(&ign.sa_mask);
    sigaction(SIGINT, &ign, &old_int);
    sigaction(SIGQUIT, &ign, &old_quit);
    pid_t pid = fork();
    if (pid == 0) {
        sigaction(SIGINT, &old_int, NULL);
        sigaction(SIGQUIT, &old_quit, NULL);
        execve(valgrind, args, envp);
        fprintf(stderr, "femtobench: error: -valgrind: cannot run valgrind: %s\n", strerror(errno));
        _exit(2);
    }
    int status = 0, rc;
    if (pid < 0) {
        fprintf(stderr, "femtobench: error: -valgrind: fork: %s\n", strerror(errno));
        rc = 2;
    } else {
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
        if (WIFEXITED(status)) {
            rc = WEXITSTATUS(status);
        } else {
            rc = 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
            if (WIFSIGNALED(status) && WTERMSIG(status) == SIGINT)
                fprintf(stderr, "femtobench: interrupted\n");
        }
    }
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGQUIT, &old_quit, NULL);
    fb__vg_show_log(log);
    free(args);
    free(envp);
    fb__vg_rmdir(dir);
    return rc;
}
#endif /* FB_HAVE_POSIX */
