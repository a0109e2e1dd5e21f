/* Output files that are never torn. The runner checks every output path
 * before the first benchmark runs (fb__outfile_check), and writes each file
 * at the end (fb__outfile_write) to a new temporary file in the target's
 * directory, flushed and fsync'ed, then rename()d over the target: rename is
 * atomic within a file system, so readers see the old file or the complete
 * new one. SIGINT, SIGTERM, SIGHUP and SIGQUIT stay blocked in the calling
 * thread from the creation of the temporary file to the rename (and around
 * the check's probe file): a Ctrl-C in that window takes effect right after
 * the rename, and none can leave a temporary file behind (SIGKILL and power
 * loss still can).
 *
 * The temporary file is created with open(O_CREAT | O_EXCL, 0666) under a
 * name of our own rather than mkstemp: mkstemp makes the file 0600, and the
 * result should have the permissions of any other new file (the umask) or,
 * when it replaces one, that file's. O_EXCL gives mkstemp's safety: an
 * existing name, or a symlink planted under it, is never opened. */
#include "outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* The directory part of path ("." for a bare name) into dir. */
static void fb__outfile_dir(const char *path, char *dir, size_t len) {
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(dir, len, ".");
    else if (slash == path)
        snprintf(dir, len, "/");
    else
        snprintf(dir, len, "%.*s", (int)(slash - path), path);
}

/* Where path leads: the file a symlink names is the one replaced (so the
 * link survives); links are followed by hand with readlink (realpath is not
 * in plain POSIX.1-2008). */
typedef enum {
    FB__OF_NEW,      /* nothing there yet: create it */
    FB__OF_REGULAR,  /* a regular file: replace it by rename */
    FB__OF_IN_PLACE, /* a device, FIFO, socket: write into it */
    FB__OF_DIRECTORY,
    FB__OF_DANGLING, /* a symlink to nothing */
    FB__OF_ERROR     /* errno value in *e */
} fb__of_kind;

static fb__of_kind fb__outfile_resolve(const char *path, char *target, size_t len, struct stat *st,
                                       int *e) {
    snprintf(target, len, "%s", path);
    for (int hops = 0; hops < 32; ++hops) {
        if (lstat(target, st) != 0) {
            *e = errno;
            if (*e != ENOENT) return FB__OF_ERROR;
            return hops ? FB__OF_DANGLING : FB__OF_NEW;
        }
        if (S_ISDIR(st->st_mode)) return FB__OF_DIRECTORY;
        if (S_ISREG(st->st_mode)) return FB__OF_REGULAR;
        if (!S_ISLNK(st->st_mode)) return FB__OF_IN_PLACE;
        char link[PATH_MAX], next[PATH_MAX], dir[PATH_MAX];
        ssize_t n = readlink(target, link, sizeof link - 1);
        if (n < 0) {
            *e = errno;
            return FB__OF_ERROR;
        }
        link[n] = '\0';
        fb__outfile_dir(target, dir, sizeof dir);
        int w = link[0] == '/' ? snprintf(next, sizeof next, "%s", link)
                               : snprintf(next, sizeof next, "%s/%s", dir, link);
        if (w < 0 || (size_t)w >= sizeof next || (size_t)w >= len) {
            *e = ENAMETOOLONG;
            return FB__OF_ERROR;
        }
        snprintf(target, len, "%s", next);
    }
    *e = ELOOP;
    return FB__OF_ERROR;
}

/* Creates a new temporary file next to target, "<dir>/.<base>.tmp-<pid>-<n>".
 * Returns the descriptor (and its name in tmp) or -1 with errno set. */
static int fb__outfile_create(const char *target, char *tmp, size_t len, mode_t mode) {
    char dir[PATH_MAX];
    fb__outfile_dir(target, dir, sizeof dir);
    const char *slash = strrchr(target, '/');
    const char *base = slash ? slash + 1 : target;
    uint64_t seed = (uint64_t)getpid() ^ ((uint64_t)time(NULL) << 16) ^ (uint64_t)(uintptr_t)tmp;
    for (unsigned n = 0; n < 100; ++n) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        int w = snprintf(tmp, len, "%s/.%s.tmp-%ld-%06lx", dir, base, (long)getpid(),
                         (unsigned long)((seed >> 20) & 0xffffffu));
        if (w < 0 || (size_t)w >= len) {
            errno = ENAMETOOLONG;
            return -1;
        }
        int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL, mode);
        if (fd >= 0 || errno != EEXIST) return fd;
    }
    return -1;
}

static int fb__outfile_fail(char *err, size_t len, int code, const char *fmt, ...) FB__PRINTF(4, 5);
static int fb__outfile_fail(char *err, size_t len, int code, const char *fmt, ...) {
    if (err && len) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, len, fmt, ap);
        va_end(ap);
    }
    return code;
}

/* Blocks the signals that end a process by default from a terminal or a
 * job control system, in the calling thread; *old gets the previous mask. */
static void fb__outfile_block(sigset_t *old) {
    sigset_t block;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGTERM);
    sigaddset(&block, SIGHUP);
    sigaddset(&block, SIGQUIT);
    pthread_sigmask(SIG_BLOCK, &block, old);
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
        return fb__outfile_fail(err, len, FB_EIO, "%s", strerror(e));
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
    sigset_t old;
    fb__outfile_block(&old); /* a Ctrl-C must not leave the probe behind */
    int fd = fb__outfile_create(target, tmp, sizeof tmp, 0600);
    int ce = errno;
    if (fd >= 0) {
        close(fd);
        unlink(tmp);
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (fd < 0)
        return fb__outfile_fail(err, len, FB_EIO, "cannot create a file in directory '%s': %s", dir,
                                strerror(ce));
    return FB_OK;
}

/* Writes in place (stdout, /dev/null, a FIFO): nothing to rename. */
static int fb__outfile_direct(FILE *f, const char *path, fb__outfile_fn writer, void *b, char *err,
                              size_t len) {
    int rc = writer(b, f);
    if (rc == FB_OK && fflush(f) != 0) rc = FB_EIO;
    if (rc != FB_OK)
        fb__outfile_fail(err, len, rc, "cannot write '%s': %s", path,
                         rc == FB_EIO ? strerror(errno) : fb_strerror(rc));
    return rc;
}

/* fb__outfile_write for any writer: fn(ctx, f) (the change table of
 * femtobench-compare's -output_md uses it; src/baseline.h). */
int fb__outfile_write_fn(const char *path, fb__outfile_fn writer, void *b, char *err, size_t len) {
    if (!path || !*path || !writer) return fb__outfile_fail(err, len, FB_EINVAL, "empty file name");
    if (strcmp(path, "-") == 0) return fb__outfile_direct(stdout, "-", writer, b, err, len);

    char target[PATH_MAX];
    struct stat st;
    int e = 0;
    fb__of_kind kind = fb__outfile_resolve(path, target, sizeof target, &st, &e);
    switch (kind) {
    case FB__OF_DIRECTORY:
        return fb__outfile_fail(err, len, FB_EINVAL, "cannot write '%s': is a directory", path);
    case FB__OF_DANGLING:
        return fb__outfile_fail(err, len, FB_EINVAL,
                                "cannot write '%s': symbolic link to '%s', which does not exist",
                                path, target);
    case FB__OF_ERROR:
        return fb__outfile_fail(err, len, FB_EIO, "cannot write '%s': %s", path, strerror(e));
    case FB__OF_IN_PLACE: {
        FILE *f = fopen(target, "w");
        if (!f)
            return fb__outfile_fail(err, len, FB_EIO, "cannot write '%s': %s", path,
                                    strerror(errno));
        int rc = fb__outfile_direct(f, path, writer, b, err, len);
        if (fclose(f) != 0 && rc == FB_OK)
            rc = fb__outfile_fail(err, len, FB_EIO, "cannot write '%s': %s", path, strerror(errno));
        return rc;
    }
    case FB__OF_NEW:
    case FB__OF_REGULAR:
        break;
    }
    bool exists = kind == FB__OF_REGULAR;

    sigset_t old;
    fb__outfile_block(&old);

    int rc = FB_OK;
    const char *why = NULL;
    int saved = 0;
    char tmp[PATH_MAX];
    int fd = fb__outfile_create(target, tmp, sizeof tmp, 0666);
    if (fd < 0) {
        saved = errno;
        rc = FB_EIO;
    } else {
        /* replacing a file: keep its permissions (a new one has the umask's) */
        if (exists) (void)fchmod(fd, st.st_mode & 07777);
        FILE *f = fdopen(fd, "w");
        if (!f) {
            saved = errno;
            close(fd);
            rc = FB_EIO;
        } else {
            rc = writer(b, f);
            if (rc == FB_OK && fflush(f) != 0) rc = FB_EIO;
            if (rc == FB_EIO) saved = errno;
            if (rc == FB_OK && fsync(fileno(f)) != 0 && errno != EINVAL) {
                saved = errno;
                rc = FB_EIO;
            }
            if (fclose(f) != 0 && rc == FB_OK) {
                saved = errno;
                rc = FB_EIO;
            }
            if (rc != FB_OK && rc != FB_EIO) why = fb_strerror(rc);
        }
        if (rc == FB_OK && rename(tmp, target) != 0) {
            saved = errno;
            rc = FB_EIO;
        }
        if (rc != FB_OK) {
            unlink(tmp);
        } else {
            /* make the rename itself durable; best effort */
            char dir[PATH_MAX];
            fb__outfile_dir(target, dir, sizeof dir);
            int dfd = open(dir, O_RDONLY);
            if (dfd >= 0) {
                (void)fsync(dfd);
                close(dfd);
            }
        }
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (rc != FB_OK)
        fb__outfile_fail(err, len, rc, "cannot write '%s': %s", path,
                         why ? why : strerror(saved ? saved : EIO));
    return rc;
}

/* The bench writers through fb__outfile_write_fn. */
typedef struct fb__outfile_bench {
    fb__writer_fn writer;
    const fb_bench *b;
} fb__outfile_bench;

static int fb__outfile_bench_write(void *ctx, FILE *f) {
    const fb__outfile_bench *w = ctx;
    return w->writer(w->b, f);
}

int fb__outfile_write(const char *path, fb__writer_fn writer, const fb_bench *b, char *err,
                      size_t len) {
    if (!writer) return fb__outfile_fail(err, len, FB_EINVAL, "empty file name");
    fb__outfile_bench w = {writer, b};
    return fb__outfile_write_fn(path, fb__outfile_bench_write, &w, err, len);
}
