/* fb_selfbench_rss FILE PROGRAM [ARGS...]: runs PROGRAM, then writes its
 * exit status and peak resident set size (KiB) to FILE as "status maxrss".
 *
 * Why not measure from the Python driver: Linux counts a child's peak RSS
 * from the memory image it was forked from, so every child of a Python
 * process reports at least Python's RSS (~16 MiB). This launcher is a small
 * C process; its children start from its image (~1 MiB), below any real
 * program's. tools/selfbench.py uses it for the RSS figures. */
#include <stdio.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: %s FILE PROGRAM [ARGS...]\n", argv[0]);
        return 2;
    }
    pid_t pid = fork();
    if (pid < 0) {
        perror("fork");
        return 2;
    }
    if (pid == 0) {
        execvp(argv[2], argv + 2);
        perror(argv[2]);
        _exit(127);
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0) {
    }
    struct rusage ru;
    if (getrusage(RUSAGE_CHILDREN, &ru) != 0) {
        perror("getrusage");
        return 2;
    }
    FILE *f = fopen(argv[1], "w");
    if (!f) {
        perror(argv[1]);
        return 2;
    }
    int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    fprintf(f, "%d %ld\n", code, (long)ru.ru_maxrss);
    fclose(f);
    return code;
}
