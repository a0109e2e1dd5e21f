/* What an output path is, before anything is written: its directory, the
 * descriptor it names, its kind after symbolic links (followed by hand, each
 * length checked: a path is refused, never truncated), the temporary file
 * of a target (".<name>.tmp-<pid>", the stale ones of killed runs removed),
 * and the check that it can be written (fb__outfile_check), which creates
 * and removes a probe file where the temporary will be. The hostile paths
 * refused are listed in src/outputs/outfile.c. */
#include "outfile_path.h"

#include "os.h" /* lstat, readlink, the signal window: POSIX or Windows */

#include <errno.h>
#include <dirent.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* The directory part of path ("." for a bare name) into dir. */
void fb__outfile_dir(const char *path, char *dir, size_t len) {
    const char *slash = fb__os_last_sep(path);
    if (!slash)
        snprintf(dir, len, ".");
    else if (slash == path)
        snprintf(dir, len, "/");
    else
        snprintf(dir, len, "%.*s", (int)(slash - path), path);
}

/* The descriptor a path names by itself ("-", /dev/stdout, /dev/stderr,
 * /dev/fd/N, /proc/self/fd/N), or -1. */
int fb__outfile_std_fd(const char *path) {
    static const char *const fb__of_fd_dirs[] = {"/dev/fd/", "/proc/self/fd/",
                                                 "/proc/thread-self/fd/"};
    if (!strcmp(path, "-") || !strcmp(path, "/dev/stdout")) return 1;
    if (!strcmp(path, "/dev/stderr")) return 2;
    if (!strcmp(path, "/dev/stdin")) return 0;
    for (size_t i = 0; i < sizeof fb__of_fd_dirs / sizeof *fb__of_fd_dirs; ++i) {
        size_t n = strlen(fb__of_fd_dirs[i]);
        if (strncmp(path, fb__of_fd_dirs[i], n) != 0) continue;
        const char *p = path + n;
        long fd = 0;
        if (!*p) return -1;
        for (; *p >= '0' && *p <= '9' && fd < 1000000; ++p) fd = fd * 10 + (*p - '0');
        return *p ? -1 : (int)fd;
    }
    return -1;
}

/* Refuses what the system cannot name: never truncated (ENAMETOOLONG). */
static int fb__outfile_length_ok(const char *path) {
    if (strlen(path) >= PATH_MAX) return 0;
    for (const char *p = path; *p;) {
        const char *slash = strchr(p, '/');
        size_t n = slash ? (size_t)(slash - p) : strlen(p);
        if (n > NAME_MAX) return 0;
        p += n;
        while (*p == '/') ++p;
    }
    return 1;
}

fb__of_kind fb__outfile_resolve(const char *path, char *target, size_t len, struct stat *st,
                                int *e) {
    if (!fb__outfile_length_ok(path) || strlen(path) >= len) {
        *e = ENAMETOOLONG;
        return FB__OF_ERROR;
    }
    snprintf(target, len, "%s", path);
    for (int hops = 0; hops < 32; ++hops) {
        int fd = fb__outfile_std_fd(target);
        if (fd >= 0) {
            if (fstat(fd, st) != 0) {
                *e = errno;
                return FB__OF_ERROR;
            }
            return FB__OF_FD;
        }
        if (fb__os_lstat(target, st) != 0) {
            *e = errno;
            if (*e != ENOENT) return FB__OF_ERROR;
            return hops ? FB__OF_DANGLING : FB__OF_NEW;
        }
        if (S_ISDIR(st->st_mode)) return FB__OF_DIRECTORY;
        if (S_ISREG(st->st_mode)) return FB__OF_REGULAR;
        if (!fb__os_is_link(st)) return FB__OF_IN_PLACE;
        char link[PATH_MAX], next[PATH_MAX], dir[PATH_MAX];
        long n = fb__os_readlink(target, link, sizeof link - 1);
        if (n < 0) {
            *e = errno;
            return FB__OF_ERROR;
        }
        link[n] = '\0';
        fb__outfile_dir(target, dir, sizeof dir);
        int w = link[0] == '/' ? snprintf(next, sizeof next, "%s", link)
                               : snprintf(next, sizeof next, "%s/%s", dir, link);
        if (w < 0 || (size_t)w >= sizeof next || (size_t)w >= len || !fb__outfile_length_ok(next)) {
            *e = ENAMETOOLONG;
            return FB__OF_ERROR;
        }
        snprintf(target, len, "%s", next);
    }
    *e = ELOOP;
    return FB__OF_ERROR;
}

/* Removes the temporaries of target that a killed run left: ".<base>.tmp-
 * <pid>" (or the older ".<base>.tmp-<pid>-<hex>") whose process is gone. */
static void fb__outfile_clean_stale(const char *dir, const char *base) {
    DIR *d = opendir(dir);
    if (!d) return;
    size_t blen = strlen(base);
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        const char *n = e->d_name;
        if (n[0] != '.' || strncmp(n + 1, base, blen) != 0 || strncmp(n + 1 + blen, ".tmp-", 5))
            continue;
        const char *p = n + 1 + blen + 5;
        long pid = 0;
        if (*p < '0' || *p > '9') continue;
        for (; *p >= '0' && *p <= '9' && pid < 100000000; ++p) pid = pid * 10 + (*p - '0');
        if (*p && *p != '-') continue;
        if (pid <= 0 || (pid_t)pid == getpid()) continue;
        if (fb__os_pid_alive(pid) != 0) continue; /* alive, or not ours to judge */
        char stale[PATH_MAX];
        int w = snprintf(stale, sizeof stale, "%s/%s", dir, n);
        if (w > 0 && (size_t)w < sizeof stale) unlink(stale);
    }
    closedir(d);
}

int fb__outfile_path_create(const char *target, char *tmp, size_t len, mode_t mode) {
    char dir[PATH_MAX];
    fb__outfile_dir(target, dir, sizeof dir);
    const char *slash = fb__os_last_sep(target);
    const char *base = slash ? slash + 1 : target;
    int w = snprintf(tmp, len, "%s/.%s.tmp-%ld", dir, base, (long)getpid());
    if (w < 0 || (size_t)w >= len || strlen(base) + 1 + 5 + 20 > NAME_MAX) {
        errno = ENAMETOOLONG;
        return -1;
    }
    fb__outfile_clean_stale(dir, base);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | FB__O_BINARY, mode);
    if (fd < 0 && errno == EEXIST) {
        /* our pid's name: left by an earlier process that had our pid */
        unlink(tmp);
        fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | FB__O_BINARY, mode);
    }
    return fd;
}

int fb__outfile_fail(char *err, size_t len, int code, const char *fmt, ...) {
    if (err && len) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, len, fmt, ap);
        va_end(ap);
    }
    return code;
}

int fb__outfile_check(const char *path, char *err, size_t len) {
    if (!path || !*path) return fb__outfile_fail(err, len, FB_EINVAL, "empty file name");
    if (strcmp(path, "-") == 0) return FB_OK;
    char target[PATH_MAX];
    struct stat st;
    int e = 0;
    switch (fb__outfile_resolve(path, target, sizeof target, &st, &e)) {
    case FB__OF_DIRECTORY:
        return fb__outfile_fail(err, len, FB_EINVAL, "is a directory");
    case FB__OF_DANGLING:
        return fb__outfile_fail(err, len, FB_EINVAL, "symbolic link to '%s', which does not exist",
                                target);
    case FB__OF_ERROR:
        if (e == ENAMETOOLONG)
            return fb__outfile_fail(err, len, FB_EINVAL,
                                    "path too long (at most %d bytes, %d per name)", PATH_MAX - 1,
                                    NAME_MAX);
        return fb__outfile_fail(err, len, FB_EIO, "%s", strerror(e));
    case FB__OF_FD: { /* an open descriptor: written in place, if it can be */
        int fd = fb__outfile_std_fd(target);
        if (fd == 0)
            return fb__outfile_fail(err, len, FB_EINVAL,
                                    "the standard input (an output needs a file or stdout)");
#if FB_HAVE_POSIX /* Windows: no fcntl; a bad descriptor fails when written */
        int fl = fcntl(fd, F_GETFL);
        if (fl < 0) return fb__outfile_fail(err, len, FB_EINVAL, "descriptor %d is not open", fd);
        if ((fl & O_ACCMODE) == O_RDONLY)
            return fb__outfile_fail(err, len, FB_EINVAL, "descriptor %d is open for reading only",
                                    fd);
#endif
        return FB_OK;
    }
    case FB__OF_IN_PLACE:
        if (access(target, W_OK) != 0)
            return fb__outfile_fail(err, len, FB_EIO, "not writable: %s", strerror(errno));
        return FB_OK;
    case FB__OF_REGULAR:
        if (access(target, W_OK) != 0)
            return fb__outfile_fail(err, len, FB_EIO, "file not writable: %s", strerror(errno));
        break;
    case FB__OF_NEW:
        break;
    }
    const char *slash = fb__os_last_sep(target);
    size_t base_len = strlen(slash ? slash + 1 : target);
    if (base_len + FB__OUTFILE_TMP_EXTRA > NAME_MAX)
        return fb__outfile_fail(err, len, FB_EINVAL,
                                "file name of %zu bytes: at most %d (its temporary name must fit "
                                "in %d)",
                                base_len, NAME_MAX - FB__OUTFILE_TMP_EXTRA, NAME_MAX);
    char dir[PATH_MAX];
    fb__outfile_dir(target, dir, sizeof dir);
    struct stat dst;
    if (stat(dir, &dst) != 0) {
        if (errno == ENOENT)
            return fb__outfile_fail(err, len, FB_EINVAL, "directory '%s' does not exist", dir);
        return fb__outfile_fail(err, len, FB_EIO, "directory '%s': %s", dir, strerror(errno));
    }
    if (!S_ISDIR(dst.st_mode))
        return fb__outfile_fail(err, len, FB_EINVAL, "'%s' is not a directory", dir);
    /* The definitive test: create (and remove) a file where the real one
     * will be created. It catches what access() misses (read-only mounts
     * for root, ACLs, no inodes left). */
    char tmp[PATH_MAX];
    fb__os_sigmask old;
    fb__os_block_signals(&old); /* a Ctrl-C must not leave the probe behind */
    int fd = fb__outfile_path_create(target, tmp, sizeof tmp, 0600);
    int ce = errno;
    if (fd >= 0) {
        close(fd);
        unlink(tmp);
    }
    fb__os_unblock_signals(&old);
    if (fd < 0)
        return fb__outfile_fail(err, len, FB_EIO, "cannot create a file in directory '%s': %s", dir,
                                strerror(ce));
    return FB_OK;
}
