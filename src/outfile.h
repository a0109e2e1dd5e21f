/* Output files that are never torn (src/outfile.c). */
#ifndef FB_OUTFILE_H
#define FB_OUTFILE_H

#include "base.h"

/* Safe output files for the runner (src/outfile.c). path "-" is stdout.
 * fb__outfile_check: can path be written (checked before any benchmark runs)?
 * FB_OK, or FB_EINVAL/FB_EIO with the reason (without the path) in err.
 * fb__outfile_write: runs writer(b, tmp) on a new file in path's directory,
 * flushes and fsyncs it and renames it over path, with SIGINT, SIGTERM,
 * SIGHUP and SIGQUIT blocked in the calling thread meanwhile: path ends up
 * either untouched or complete, and no temporary file is left. Paths that
 * exist and are not regular files (/dev/null, a FIFO) are written directly.
 * FB_OK, or a negative FB_E* with "cannot write 'path': reason" in err. */
typedef int (*fb__writer_fn)(const fb_bench *b, FILE *f);
FB__PRIVATE int fb__outfile_check(const char *path, char *err, size_t len);
FB__PRIVATE int fb__outfile_write(const char *path, fb__writer_fn writer, const fb_bench *b,
                                  char *err, size_t len);
/* The same for any writer fn(ctx, f) (baselines: femtobench-compare's -output_md). */
typedef int (*fb__outfile_fn)(void *ctx, FILE *f);
FB__PRIVATE int fb__outfile_write_fn(const char *path, fb__outfile_fn fn, void *ctx, char *err,
                                     size_t len);

#endif
