/* Output files that are never torn. The runner checks every output path
 * before the first benchmark runs (fb__outfile_check,
 * src/outputs/outfile_path.c), and writes each file at the end
 * (fb__outfile_write) to a new temporary file in the target's directory,
 * flushed and fsync'ed, then rename()d over the target: rename is atomic
 * within a file system, so readers see the old file or the complete new one.
 * SIGINT, SIGTERM, SIGHUP and SIGQUIT stay blocked in the calling thread
 * from the creation of the temporary file to the rename (and around the
 * check's probe file): a Ctrl-C in that window takes effect right after the
 * rename, and none can leave a temporary file behind (SIGKILL and power loss
 * still can).
 *
 * The temporary file is created with open(O_CREAT | O_EXCL, 0666) under a
 * name of our own rather than mkstemp: mkstemp makes the file 0600, and the
 * result should have the permissions of any other new file (the umask) or,
 * when it replaces one, that file's. O_EXCL gives mkstemp's safety: an
 * existing name, or a symlink planted under it, is never opened.
 *
 * Hostile paths (docs/reliability.md):
 *   - a path of PATH_MAX bytes or more, or with a component over NAME_MAX,
 *     is refused, never truncated (so is one whose temporary name would be);
 *   - /dev/stdout, /dev/stderr, /dev/fd/N and /proc/self/fd/N (or a link to
 *     them) are written in place into that descriptor, whatever it is (a
 *     terminal, a pipe, a file): a file behind it is never replaced;
 *   - the runner's outputs form a set (fb__outfile_check_set): two outputs
 *     that are the same file under different spellings (same st_dev and
 *     st_ino, or for a new file the same directory and name), or an output
 *     that is the file the table goes to, are refused before anything runs;
 *   - the set is committed together (fb__outfile_write_set): every
 *     temporary is written and synced first, then all are renamed with the
 *     signals blocked, so after a Ctrl-C all files are new or all are old;
 *   - an output is never a file the same run reads (fb__outfile_not_input:
 *     the runner's -baseline, femtobench-compare's two files): replacing it
 *     would turn a failed comparison into the next reference;
 *   - every output path of a program's table of outputs is pinned before
 *     anything runs (fb__outfile_pin, fb__outputs_prepare): a benchmark
 *     that calls chdir() does not move them;
 *   - the standard input, or a descriptor not open for writing, is refused
 *     as an output before anything runs;
 *   - a temporary is named after its target and the writing process,
 *     ".<name>.tmp-<pid>": one left by a killed run (its pid is gone) is
 *     removed by the next run that writes the same target. */
#include "outfile.h"

#include "os.h" /* the signal window, rename over a file, fsync: POSIX or Windows */
#include "outfile_path.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Writes in place (stdout, /dev/null, a FIFO): nothing to rename. */
/* Runs the job's writer on f. */
static int fb__outfile_run(const fb__outfile_job *job, const fb_bench *b, FILE *f) {
    return job->writer ? job->writer(b, f) : job->fn(job->ctx, f);
}

static int fb__outfile_direct(FILE *f, const char *path, const fb__outfile_job *job,
                              const fb_bench *b, char *err, size_t len) {
    int rc = fb__outfile_run(job, b, f);
    if (rc == FB_OK && fflush(f) != 0) rc = FB_EIO;
    if (rc != FB_OK)
        fb__outfile_fail(err, len, rc, "cannot write '%s': %s", path,
                         rc == FB_EIO ? strerror(errno) : fb_strerror(rc));
    return rc;
}

/* Writes one output in place: a descriptor, or a device / FIFO by name. */
static int fb__outfile_in_place(const char *path, fb__of_kind kind, const char *target,
                                const fb__outfile_job *job, const fb_bench *b, char *err,
                                size_t len) {
    if (kind == FB__OF_FD) {
        int fd = fb__outfile_std_fd(strcmp(path, "-") ? target : "-");
        if (fd == 1) return fb__outfile_direct(stdout, path, job, b, err, len);
        if (fd == 2) return fb__outfile_direct(stderr, path, job, b, err, len);
        int dfd = dup(fd);
        FILE *f = dfd >= 0 ? fdopen(dfd, "wb") : NULL;
        if (!f) {
            int e = errno;
            if (dfd >= 0) close(dfd);
            return fb__outfile_fail(err, len, FB_EIO, "cannot write '%s': %s", path, strerror(e));
        }
        int rc = fb__outfile_direct(f, path, job, b, err, len);
        if (fclose(f) != 0 && rc == FB_OK)
            rc = fb__outfile_fail(err, len, FB_EIO, "cannot write '%s': %s", path, strerror(errno));
        return rc;
    }
    FILE *f = fopen(target, "wb");
    if (!f)
        return fb__outfile_fail(err, len, FB_EIO, "cannot write '%s': %s", path, strerror(errno));
    int rc = fb__outfile_direct(f, path, job, b, err, len);
    if (fclose(f) != 0 && rc == FB_OK)
        rc = fb__outfile_fail(err, len, FB_EIO, "cannot write '%s': %s", path, strerror(errno));
    return rc;
}

/* Writes the temporary of one file to be renamed; FB_OK, or an error
 * (the temporary removed, the reason in err). */
static int fb__outfile_temp(const char *path, const char *target, bool exists, mode_t mode,
                            const fb__outfile_job *job, const fb_bench *b, char *tmp,
                            size_t tmp_len, char *err, size_t len) {
    int rc = FB_OK, saved = 0;
    const char *why = NULL;
    int fd = fb__outfile_path_create(target, tmp, tmp_len, 0666);
    if (fd < 0)
        return fb__outfile_fail(err, len, FB_EIO, "cannot write '%s': %s", path, strerror(errno));
    /* replacing a file: keep its permissions (a new one has the umask's) */
    if (exists) (void)fb__os_fchmod(fd, mode & 07777);
    FILE *f = fdopen(fd, "wb");
    if (!f) {
        saved = errno;
        close(fd);
        rc = FB_EIO;
    } else {
        rc = fb__outfile_run(job, b, f);
        if (rc == FB_OK && fflush(f) != 0) rc = FB_EIO;
        if (rc == FB_EIO) saved = errno;
        if (rc == FB_OK && fb__os_fsync(fileno(f)) != 0 && errno != EINVAL) {
            saved = errno;
            rc = FB_EIO;
        }
        if (fclose(f) != 0 && rc == FB_OK) {
            saved = errno;
            rc = FB_EIO;
        }
        if (rc != FB_OK && rc != FB_EIO) why = fb_strerror(rc);
    }
    if (rc != FB_OK) {
        unlink(tmp);
        fb__outfile_fail(err, len, rc, "cannot write '%s': %s", path,
                         why ? why : strerror(saved ? saved : EIO));
    }
    return rc;
}

int fb__outfile_write_set(const fb__outfile_job *jobs, size_t n, const fb_bench *b, char *err,
                          size_t len) {
    if (n > FB__OUTFILE_MAX_SET) return fb__outfile_fail(err, len, FB_EINVAL, "too many outputs");
    char target[FB__OUTFILE_MAX_SET][PATH_MAX], tmp[FB__OUTFILE_MAX_SET][PATH_MAX];
    fb__of_kind kind[FB__OUTFILE_MAX_SET];
    struct stat st[FB__OUTFILE_MAX_SET];
    bool temp_made[FB__OUTFILE_MAX_SET] = {false};
    for (size_t i = 0; i < n; ++i) {
        const char *path = jobs[i].path;
        int e = 0;
        if (!path || !*path || (!jobs[i].writer && !jobs[i].fn))
            return fb__outfile_fail(err, len, FB_EINVAL, "empty file name");
        if (!strcmp(path, "-")) {
            kind[i] = FB__OF_FD;
            snprintf(target[i], sizeof target[i], "-");
            continue;
        }
        kind[i] = fb__outfile_resolve(path, target[i], sizeof target[i], &st[i], &e);
        switch (kind[i]) {
        case FB__OF_DIRECTORY:
            return fb__outfile_fail(err, len, FB_EINVAL, "cannot write '%s': is a directory", path);
        case FB__OF_DANGLING:
            return fb__outfile_fail(
                err, len, FB_EINVAL,
                "cannot write '%s': symbolic link to '%s', which does not exist", path, target[i]);
        case FB__OF_ERROR:
            return fb__outfile_fail(err, len, e == ENAMETOOLONG ? FB_EINVAL : FB_EIO,
                                    "cannot write '%s': %s", path, strerror(e));
        default:
            break;
        }
    }

    /* 1. every file to be replaced: its complete temporary, with the
     * signals blocked until the last rename */
    fb__os_sigmask old;
    fb__os_block_signals(&old);
    int rc = FB_OK;
    for (size_t i = 0; i < n && rc == FB_OK; ++i) {
        if (kind[i] != FB__OF_NEW && kind[i] != FB__OF_REGULAR) continue;
        rc = fb__outfile_temp(jobs[i].path, target[i], kind[i] == FB__OF_REGULAR, st[i].st_mode,
                              &jobs[i], b, tmp[i], sizeof tmp[i], err, len);
        temp_made[i] = rc == FB_OK;
    }
    /* 2. all renamed, or none */
    for (size_t i = 0; i < n; ++i) {
        if (!temp_made[i]) continue;
        if (rc != FB_OK) {
            unlink(tmp[i]);
            continue;
        }
        if (fb__os_replace(tmp[i], target[i]) != 0) {
            rc = fb__outfile_fail(err, len, FB_EIO, "cannot write '%s': %s", jobs[i].path,
                                  strerror(errno));
            unlink(tmp[i]);
            continue;
        }
        /* make the rename itself durable; best effort */
        char dir[PATH_MAX];
        fb__outfile_dir(target[i], dir, sizeof dir);
        int dfd = open(dir, O_RDONLY);
        if (dfd >= 0) {
            (void)fb__os_fsync(dfd);
            close(dfd);
        }
    }
    fb__os_unblock_signals(&old);
    /* 3. the outputs written in place (streams: nothing to commit) */
    for (size_t i = 0; i < n && rc == FB_OK; ++i)
        if (kind[i] == FB__OF_FD || kind[i] == FB__OF_IN_PLACE)
            rc = fb__outfile_in_place(jobs[i].path, kind[i], target[i], &jobs[i], b, err, len);
    return rc;
}

int fb__outfile_write(const char *path, fb__writer_fn writer, const fb_bench *b, char *err,
                      size_t len) {
    fb__outfile_job job = {"output", path, writer, NULL, NULL};
    return fb__outfile_write_set(&job, 1, b, err, len);
}

int fb__outfile_write_fn(const char *path, fb__outfile_fn fn, void *ctx, char *err, size_t len) {
    if (!fn) return fb__outfile_fail(err, len, FB_EINVAL, "no writer");
    fb__outfile_job job = {"output", path, NULL, fn, ctx};
    return fb__outfile_write_set(&job, 1, NULL, err, len);
}
