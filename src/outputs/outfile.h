/* Output files that are never torn (src/outputs/outfile.c), and the outputs
 * as one set (src/outputs/outfile_set.c). */
#ifndef FB_OUTFILE_H
#define FB_OUTFILE_H

#include "base.h"

/* Safe output files for the runner (src/outputs/outfile.c). path "-" is stdout.
 * Each path is checked before any benchmark runs (fb__outfile_check,
 * src/outputs/outfile_path.h).
 * fb__outfile_write: runs writer(b, tmp) on a new file in path's directory,
 * flushes and fsyncs it and renames it over path, with SIGINT, SIGTERM,
 * SIGHUP and SIGQUIT blocked in the calling thread meanwhile: path ends up
 * either untouched or complete, and no temporary file is left. Paths that
 * exist and are not regular files (/dev/null, a FIFO) are written directly.
 * FB_OK, or a negative FB_E* with "cannot write 'path': reason" in err. */
typedef int (*fb__writer_fn)(const fb_bench *b, FILE *f);
typedef int (*fb__outfile_fn)(void *ctx, FILE *f);
FB__PRIVATE int fb__outfile_write(const char *path, fb__writer_fn writer, const fb_bench *b,
                                  char *err, size_t len);
/* The same for any writer fn(ctx, f) (baselines: femtobench-compare's -output_md). */
FB__PRIVATE int fb__outfile_write_fn(const char *path, fb__outfile_fn fn, void *ctx, char *err,
                                     size_t len);

/* The runner's outputs as one set. option names the option in
 * messages ("output_csv"). */
typedef struct fb__outfile_job {
    const char *option;
    const char *path;
    fb__writer_fn writer; /* writer(b, f); or, when NULL: */
    fb__outfile_fn fn;    /* fn(ctx, f) */
    void *ctx;
} fb__outfile_job;
#define FB__OUTFILE_MAX_SET 8

/* Before any benchmark runs: each path can be written (fb__outfile_check),
 * no two are the same file under different spellings, and none is the file
 * the table goes to (table_fd: 1 or 2, -1 when there is no table).
 * FB_OK, or an error with "-option=path: reason" in err. */
FB__PRIVATE int fb__outfile_check_set(const fb__outfile_job *jobs, size_t n, int table_fd,
                                      char *err, size_t len);
/* Writes every temporary, then renames them all with the signals blocked
 * (all new or all old), then writes the outputs that go into a stream or
 * device. FB_OK, or an error with the reason in err (nothing renamed when a
 * temporary failed). */
FB__PRIVATE int fb__outfile_write_set(const fb__outfile_job *jobs, size_t n, const fb_bench *b,
                                      char *err, size_t len);
/* A program's outputs as one table: a row per option that names an output
 * file, with its writer. The runner's (src/runner/options.c), femtobench-compare's
 * and femtobench-ab's are such tables, and every path given for a row goes
 * through the same functions below (src/outputs/outfile_set.c): checked as one set
 * before anything runs, never a file the program reads, pinned to an
 * absolute path (a chdir() moves none), written as one set through
 * temporaries, and "wrote" said for each file. */
typedef struct fb__output_spec {
    const char *option;   /* without the dash: "output_json" */
    const char *help;     /* -help's line; NULL: a row another option sets */
    fb__writer_fn writer; /* writer(b, f), or when NULL: */
    fb__outfile_fn fn;    /* fn(ctx, f) */
} fb__output_spec;

/* The paths given for the rows of one table. */
typedef struct fb__outputs {
    const fb__output_spec *spec;
    size_t n;                               /* rows, at most FB__OUTFILE_MAX_SET */
    const char *given[FB__OUTFILE_MAX_SET]; /* as given (messages); NULL: not asked for */
    char *pinned[FB__OUTFILE_MAX_SET];      /* as written (fb__outputs_prepare) */
    int table_fd; /* the program's table: 1 (stdout), or 2 when an output is stdout */
} fb__outputs;

/* An empty set of the table's n rows (n <= FB__OUTFILE_MAX_SET). */
FB__PRIVATE void fb__outputs_init(fb__outputs *s, const fb__output_spec *spec, size_t n);
/* The row of the option named by name's first len bytes, or -1. */
FB__PRIVATE int fb__outputs_find(const fb__output_spec *spec, size_t n, const char *name,
                                 size_t len);
/* Row row given path (the last one given wins): FB_OK, or FB_EINVAL with
 * "-option: empty file name" in err. */
FB__PRIVATE int fb__outputs_give(fb__outputs *s, int row, const char *path, char *err, size_t len);
/* Is any output asked for? */
FB__PRIVATE bool fb__outputs_any(const fb__outputs *s);
/* Before anything runs: the outputs as one set (fb__outfile_check_set; the
 * table's descriptor, stdout or stderr when an output is stdout, is refused
 * as an output unless table is false), none of them one of the n_inputs
 * files the program reads (fb__outfile_not_input), then each pinned
 * (fb__outfile_pin). Sets s->table_fd. FB_OK, or an error with
 * "-option=path: reason" in err. */
FB__PRIVATE int fb__outputs_prepare(fb__outputs *s, bool table, const char *const *inputs,
                                    size_t n_inputs, char *err, size_t len);
/* Writes every output asked for as one set (fb__outfile_write_set: writer
 * rows get b, fn rows ctx), then says "femtobench: wrote 'path'" on say
 * for each one that is a file (the path as given). FB_OK, or an error with
 * the reason in err (nothing said). */
FB__PRIVATE int fb__outputs_write(const fb__outputs *s, const fb_bench *b, void *ctx, FILE *say,
                                  char *err, size_t len);
/* What fb__outputs_prepare pinned. */
FB__PRIVATE void fb__outputs_free(fb__outputs *s);

/* The same after following symbolic links: the descriptor path writes
 * into, or -1 for a file. */
FB__PRIVATE int fb__outfile_fd_of(const char *path);

/* Before anything runs: path as it will be written whatever the working
 * directory is later (a benchmark may call chdir): "-", descriptor names
 * and absolute paths unchanged, a relative path with the current directory
 * in front. FB_OK with a new string in *out, or an error with the reason in
 * err (the path would pass PATH_MAX, no current directory, no memory). */
FB__PRIVATE int fb__outfile_pin(const char *path, char **out, char *err, size_t len);
/* An output must not be a file the same run reads: FB_EINVAL with the
 * reason in err when out_path is the file in_path names (after links,
 * under any spelling: the same st_dev and st_ino); FB_OK otherwise,
 * including when in_path cannot be read (its reader says why). Devices
 * such as /dev/null are never the same input. Used by the runner
 * (-baseline) and by tools/femtobench_compare.c (its two files). */
FB__PRIVATE int fb__outfile_not_input(const char *out_path, const char *in_path, char *err,
                                      size_t len);

#endif
