/* What an output path is (src/outputs/outfile_path.c): its kind after
 * links, its directory, the descriptor it names, its temporary file, and
 * whether it can be written, checked before anything runs. The writing
 * itself is src/outputs/outfile.c's. */
#ifndef FB_OUTFILE_PATH_H
#define FB_OUTFILE_PATH_H

#include "base.h"

#include <stddef.h>
#include <sys/stat.h> /* fb__outfile_resolve */

/* Can path be written ("-" is stdout)? FB_OK, or FB_EINVAL/FB_EIO with the
 * reason (without the path) in err. */
FB__PRIVATE int fb__outfile_check(const char *path, char *err, size_t len);
/* Bytes a temporary name adds to the target's (".", ".tmp-", a pid). */
#define FB__OUTFILE_TMP_EXTRA 26

/* The descriptor a path names by itself: 1 for "-" and /dev/stdout, 2 for
 * /dev/stderr, N for /dev/fd/N and /proc/self/fd/N; else -1. */
FB__PRIVATE int fb__outfile_std_fd(const char *path);

/* Where path leads: the file a symlink names is the one replaced (so the
 * link survives); links are followed by hand with readlink (realpath is not
 * in plain POSIX.1-2008). */
typedef enum fb__of_kind {
    FB__OF_NEW,      /* nothing there yet: create it */
    FB__OF_REGULAR,  /* a regular file: replace it by rename */
    FB__OF_IN_PLACE, /* a device, FIFO, socket: write into it */
    FB__OF_DIRECTORY,
    FB__OF_DANGLING, /* a symlink to nothing */
    FB__OF_FD,       /* /dev/stdout, /dev/fd/N...: an open descriptor, in place */
    FB__OF_ERROR     /* errno value in *e */
} fb__of_kind;
/* What path is, into kind's terms: target receives the path a symlink
 * leads to, st its stat (e: the errno of FB__OF_ERROR). */
FB__PRIVATE fb__of_kind fb__outfile_resolve(const char *path, char *target, size_t len,
                                            struct stat *st, int *e);
/* The directory part of path ("." for a bare name) into dir. */
FB__PRIVATE void fb__outfile_dir(const char *path, char *dir, size_t len);
/* The reason into err (when given); returns code. */
FB__PRIVATE int fb__outfile_fail(char *err, size_t len, int code, const char *fmt, ...)
    FB__PRINTF(4, 5);
/* Creates the temporary file of target, "<dir>/.<base>.tmp-<pid>", with
 * mode, after removing the stale ones a killed run left. Returns the
 * descriptor (and its name in tmp) or -1 with errno set. */
FB__PRIVATE int fb__outfile_path_create(const char *target, char *tmp, size_t len, mode_t mode);

#endif
