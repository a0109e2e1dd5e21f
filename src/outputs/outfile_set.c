/* A program's outputs as one set (src/outputs/outfile.c writes them): what file
 * each output path is (an open descriptor; an existing file's device and
 * inode; a new name in a directory), so that two spellings of one file,
 * two outputs on one descriptor, or an output that is the table's file are
 * refused before anything runs; an output that is a file the run reads is
 * refused too (fb__outfile_not_input), and every path is pinned to the
 * starting directory (fb__outfile_pin) so that a benchmark's chdir() does
 * not move it (docs/reliability.md). The table of outputs (fb__outputs_*)
 * puts these together for the runner, femtobench-compare and femtobench-ab:
 * one table of rows per program, one set of rules for all of them
 * (docs/design.md, "Outputs"). */
#include "outfile.h"

#include "os.h" /* lstat, file ids: POSIX or Windows */
#include "outfile_path.h"
#include "text.h" /* fb__put_line */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* What a path is, to compare two of them: an open descriptor (fd >= 0),
 * an existing file (dev, ino), or a new name in a directory (dev, ino of the
 * directory, and the name). */
typedef struct fb__of_id {
    int fd;
    bool exists;
    unsigned long long dev, ino; /* fb__os_file_id */
    mode_t mode;
    char name[NAME_MAX + 1];
} fb__of_id;

static int fb__outfile_id(const char *path, fb__of_id *id) {
    char target[PATH_MAX];
    struct stat st;
    int e = 0;
    memset(id, 0, sizeof *id);
    id->fd = -1;
    fb__of_kind kind = fb__outfile_resolve(path, target, sizeof target, &st, &e);
    if (kind == FB__OF_FD) id->fd = fb__outfile_std_fd(strcmp(path, "-") ? target : "-");
    if (kind == FB__OF_FD || kind == FB__OF_REGULAR || kind == FB__OF_IN_PLACE) {
        id->exists = true;
        fb__os_file_id(target, id->fd, &st, &id->dev, &id->ino);
        id->mode = st.st_mode;
        return 0;
    }
    if (kind != FB__OF_NEW) return -1;
    char dir[PATH_MAX];
    fb__outfile_dir(target, dir, sizeof dir);
    if (stat(dir, &st) != 0) return -1;
    const char *slash = fb__os_last_sep(target);
    const char *base = slash ? slash + 1 : target;
    size_t blen = strlen(base);
    if (blen >= sizeof id->name) return -1;
    memcpy(id->name, base, blen + 1);
    fb__os_file_id(dir, -1, &st, &id->dev, &id->ino);
    return 0;
}

/* Can a and b be written by two outputs without one spoiling the other?
 * Terminals and devices such as /dev/null can be shared; the same
 * descriptor, the same file, pipe or socket cannot. */
static bool fb__outfile_same(const fb__of_id *a, const fb__of_id *b) {
    if (a->fd >= 0 && a->fd == b->fd) return true;
    if (a->exists != b->exists || a->dev != b->dev || a->ino != b->ino) return false;
    if (!a->exists) return strcmp(a->name, b->name) == 0;
    return !S_ISCHR(a->mode);
}

/* path for a message: a long one is cut, visibly ("..."). */
static void fb__outfile_show(const char *path, char *buf, size_t len) {
    size_t n = strlen(path);
    if (n < len) {
        memcpy(buf, path, n + 1);
        return;
    }
    memcpy(buf, path, len - 4);
    memcpy(buf + len - 4, "...", 4);
}

int fb__outfile_fd_of(const char *path) {
    fb__of_id id;
    return path && fb__outfile_id(path, &id) == 0 ? id.fd : -1;
}

int fb__outfile_check_set(const fb__outfile_job *jobs, size_t n, int table_fd, char *err,
                          size_t len) {
    fb__of_id ids[FB__OUTFILE_MAX_SET], table;
    char shown[FB__OUTFILE_MAX_SET][200]; /* the paths as messages show them */
    bool have_table = false;
    if (n > FB__OUTFILE_MAX_SET) return fb__outfile_fail(err, len, FB_EINVAL, "too many outputs");
    if (table_fd >= 0) {
        struct stat st;
        if (fstat(table_fd, &st) == 0) {
            memset(&table, 0, sizeof table);
            table.fd = table_fd;
            table.exists = true;
            fb__os_file_id(NULL, table_fd, &st, &table.dev, &table.ino);
            table.mode = st.st_mode;
            have_table = true;
        }
    }
    for (size_t i = 0; i < n; ++i) {
        char why[400];
        const char *p = jobs[i].path;
        fb__outfile_show(p, shown[i], sizeof shown[i]);
        if (fb__outfile_check(p, why, sizeof why) != FB_OK)
            return fb__outfile_fail(err, len, FB_EINVAL, "-%s=%s: %s", jobs[i].option, shown[i],
                                    why);
        if (fb__outfile_id(p, &ids[i]) != 0)
            return fb__outfile_fail(err, len, FB_EIO, "-%s=%s: cannot tell what file it is",
                                    jobs[i].option, shown[i]);
        for (size_t k = 0; k < i; ++k)
            if (ids[i].fd >= 0 && ids[k].fd == ids[i].fd)
                return fb__outfile_fail(err, len, FB_EINVAL,
                                        "-%s=%s: only one output can go to %s (-%s=%s does)",
                                        jobs[i].option, shown[i],
                                        ids[i].fd == 1   ? "stdout"
                                        : ids[i].fd == 2 ? "stderr"
                                                         : "one descriptor",
                                        jobs[k].option, shown[k]);
            else if (fb__outfile_same(&ids[k], &ids[i]))
                return fb__outfile_fail(err, len, FB_EINVAL,
                                        "-%s=%s: the same file as -%s=%s (each output needs its "
                                        "own file)",
                                        jobs[i].option, shown[i], jobs[k].option, shown[k]);
        if (have_table && fb__outfile_same(&table, &ids[i]))
            return fb__outfile_fail(err, len, FB_EINVAL,
                                    "-%s=%s: the file the table goes to (%s)%s", jobs[i].option,
                                    shown[i], table_fd == 1 ? "stdout" : "stderr",
                                    table_fd == 1 ? ""
                                                  : "; the table goes to stderr when an "
                                                    "output is stdout");
    }
    return FB_OK;
}

int fb__outfile_pin(const char *path, char **out, char *err, size_t len) {
    *out = NULL;
    size_t n = strlen(path);
    if (path[0] == '/' || fb__outfile_std_fd(path) >= 0) {
        *out = malloc(n + 1);
        if (!*out) return fb__outfile_fail(err, len, FB_ENOMEM, "out of memory");
        memcpy(*out, path, n + 1);
        return FB_OK;
    }
    char cwd[PATH_MAX];
    if (!getcwd(cwd, sizeof cwd))
        return fb__outfile_fail(err, len, FB_EIO, "cannot tell the current directory: %s",
                                strerror(errno));
    size_t c = strlen(cwd);
    if (c + 1 + n >= PATH_MAX)
        return fb__outfile_fail(err, len, FB_EINVAL,
                                "path too long once the current directory is put in front (at "
                                "most %d bytes)",
                                PATH_MAX - 1);
    *out = malloc(c + 1 + n + 1);
    if (!*out) return fb__outfile_fail(err, len, FB_ENOMEM, "out of memory");
    memcpy(*out, cwd, c);
    (*out)[c] = '/';
    memcpy(*out + c + 1, path, n + 1);
    return FB_OK;
}

int fb__outfile_not_input(const char *out_path, const char *in_path, char *err, size_t len) {
    struct stat in;
    fb__of_id id;
    if (!out_path || !in_path || stat(in_path, &in) != 0) return FB_OK; /* read as it may */
    if (fb__outfile_id(out_path, &id) != 0 || !id.exists) return FB_OK;
    if (id.dev != in.st_dev || id.ino != in.st_ino || S_ISCHR(in.st_mode)) return FB_OK;
    char shown[200];
    fb__outfile_show(in_path, shown, sizeof shown);
    return fb__outfile_fail(err, len, FB_EINVAL,
                            "the file '%s' this run reads (it would be replaced, even by a run "
                            "that fails; write elsewhere, and copy the file once the run passes)",
                            shown);
}

/* ------------------------------------------- a program's table of outputs */

void fb__outputs_init(fb__outputs *s, const fb__output_spec *spec, size_t n) {
    memset(s, 0, sizeof *s);
    s->spec = spec;
    s->n = n < FB__OUTFILE_MAX_SET ? n : FB__OUTFILE_MAX_SET;
    s->table_fd = 1;
}

int fb__outputs_find(const fb__output_spec *spec, size_t n, const char *name, size_t len) {
    for (size_t i = 0; i < n; ++i)
        if (strlen(spec[i].option) == len && strncmp(spec[i].option, name, len) == 0) return (int)i;
    return -1;
}

int fb__outputs_give(fb__outputs *s, int row, const char *path, char *err, size_t len) {
    if (row < 0 || (size_t)row >= s->n) return fb__outfile_fail(err, len, FB_EINVAL, "no output");
    if (!path || !*path)
        return fb__outfile_fail(err, len, FB_EINVAL, "-%s: empty file name", s->spec[row].option);
    s->given[row] = path;
    return FB_OK;
}

bool fb__outputs_any(const fb__outputs *s) {
    for (size_t i = 0; i < s->n; ++i)
        if (s->given[i]) return true;
    return false;
}

/* The set's jobs, in the table's order; their number. */
static size_t fb__outputs_jobs(const fb__outputs *s, void *ctx, fb__outfile_job *jobs) {
    size_t k = 0;
    for (size_t i = 0; i < s->n; ++i) {
        if (!s->given[i]) continue;
        const fb__output_spec *r = &s->spec[i];
        jobs[k++] = (fb__outfile_job){r->option, s->pinned[i] ? s->pinned[i] : s->given[i],
                                      r->writer, r->writer ? NULL : r->fn, ctx};
    }
    return k;
}

int fb__outputs_prepare(fb__outputs *s, bool table, const char *const *inputs, size_t n_inputs,
                        char *err, size_t len) {
    fb__outfile_job jobs[FB__OUTFILE_MAX_SET];
    size_t n = fb__outputs_jobs(s, NULL, jobs);
    /* the table goes to stdout, or to stderr when an output is stdout ("-",
     * /dev/stdout, /proc/self/fd/1, a link to one of them) */
    s->table_fd = 1;
    for (size_t i = 0; i < n; ++i)
        if (fb__outfile_fd_of(jobs[i].path) == 1) s->table_fd = 2;
    int rc = fb__outfile_check_set(jobs, n, table ? s->table_fd : -1, err, len);
    if (rc != FB_OK) return rc;
    char why[1024], shown[200];
    for (size_t i = 0; i < n; ++i) {
        fb__outfile_show(jobs[i].path, shown, sizeof shown);
        for (size_t k = 0; k < n_inputs; ++k)
            if (inputs[k] &&
                fb__outfile_not_input(jobs[i].path, inputs[k], why, sizeof why) != FB_OK)
                return fb__outfile_fail(err, len, FB_EINVAL, "-%s=%s: %s", jobs[i].option, shown,
                                        why);
    }
    /* each pinned to where it was checked: a chdir() moves none */
    for (size_t i = 0; i < s->n; ++i) {
        if (!s->given[i] || s->pinned[i]) continue;
        rc = fb__outfile_pin(s->given[i], &s->pinned[i], why, sizeof why);
        if (rc != FB_OK) {
            fb__outfile_show(s->given[i], shown, sizeof shown);
            return fb__outfile_fail(err, len, rc, "-%s=%s: %s", s->spec[i].option, shown, why);
        }
    }
    return FB_OK;
}

int fb__outputs_write(const fb__outputs *s, const fb_bench *b, void *ctx, FILE *say, char *err,
                      size_t len) {
    fb__outfile_job jobs[FB__OUTFILE_MAX_SET];
    size_t n = fb__outputs_jobs(s, ctx, jobs);
    if (!n) return FB_OK;
    int rc = fb__outfile_write_set(jobs, n, b, err, len);
    if (rc != FB_OK || !say) return rc;
    for (size_t i = 0; i < s->n; ++i) /* the path as given, not as pinned */
        if (s->given[i] && fb__outfile_fd_of(s->pinned[i] ? s->pinned[i] : s->given[i]) < 0) {
            fputs("femtobench: wrote '", say);
            fb__put_line(say, s->given[i]); /* a name with a line break stays one line */
            fputs("'\n", say);
        }
    return FB_OK;
}

void fb__outputs_free(fb__outputs *s) {
    for (size_t i = 0; i < FB__OUTFILE_MAX_SET; ++i) {
        free(s->pinned[i]);
        s->pinned[i] = NULL;
    }
}
