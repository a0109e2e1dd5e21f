/* src/platform/os.h on POSIX systems (Linux, macOS). */
#include "os.h"

#if FB_HAVE_POSIX

#include <errno.h>
#include <string.h>

void fb__os_sig_catch(int sig, void (*handler)(int), fb__os_sig_saved *saved) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = handler;
    sigemptyset(&sa.sa_mask);
    saved->caught = false;
    if (sigaction(sig, NULL, &saved->old) == 0 && saved->old.sa_handler == SIG_IGN) return;
    saved->caught = sigaction(sig, &sa, &saved->old) == 0;
}

void fb__os_sig_restore(int sig, const fb__os_sig_saved *saved) {
    if (saved->caught) sigaction(sig, &saved->old, NULL);
}

void fb__os_block_signals(fb__os_sigmask *saved) {
    sigset_t block;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGTERM);
    sigaddset(&block, SIGHUP);
    sigaddset(&block, SIGQUIT);
    pthread_sigmask(SIG_BLOCK, &block, &saved->old);
}

void fb__os_unblock_signals(const fb__os_sigmask *saved) {
    pthread_sigmask(SIG_SETMASK, &saved->old, NULL);
}

FILE *fb__os_memfile_open(char *buf, size_t cap) { return fmemopen(buf, cap, "w"); }

long fb__os_memfile_close(FILE *f, char *buf, size_t cap) {
    (void)buf;
    (void)cap;
    long n = ftell(f);
    fclose(f);
    return n;
}

int fb__os_lstat(const char *path, struct stat *st) { return lstat(path, st); }
long fb__os_readlink(const char *path, char *buf, size_t len) {
    return (long)readlink(path, buf, len);
}
bool fb__os_is_link(const struct stat *st) { return S_ISLNK(st->st_mode); }
int fb__os_pid_alive(long pid) {
    if (kill((pid_t)pid, 0) == 0) return 1;
    return errno == ESRCH ? 0 : -1;
}
int fb__os_fsync(int fd) { return fsync(fd); }
int fb__os_fchmod(int fd, unsigned mode) { return fchmod(fd, (mode_t)mode); }
int fb__os_replace(const char *from, const char *to) { return rename(from, to); }
const char *fb__os_last_sep(const char *path) { return strrchr(path, '/'); }
void fb__os_file_id(const char *path, int fd, const struct stat *st, unsigned long long *dev,
                    unsigned long long *ino) {
    (void)path;
    (void)fd;
    *dev = (unsigned long long)st->st_dev;
    *ino = (unsigned long long)st->st_ino;
}

#endif /* FB_HAVE_POSIX */
