/* The few operating-system calls whose POSIX and Windows forms differ, for
 * the files that are otherwise portable (run.c's endless mode, outfile*.c,
 * the in-memory FILEs of process.c and report_markdown.c). POSIX:
 * src/platform/os_posix.c; Windows: src/platform/os_win.c. Everything else that needs POSIX
 * processes (-isolate, -valgrind, -filter's child) has its own sibling
 * file for Windows. */
#ifndef FB_OS_H
#define FB_OS_H

#include "base.h"

#include <stdio.h>
#include <sys/stat.h>
#include <sys/types.h>

#if FB_HAVE_POSIX
#include <signal.h>
#include <unistd.h>
#else
#include <io.h>
#include <process.h>
#include <signal.h>
#endif

#include <fcntl.h>
#include <limits.h>

/* Windows: NTFS and FAT name components of up to 255 characters, paths of
 * up to MAX_PATH (260) without the \\?\ prefix. */
#if FB_HAVE_WINDOWS
#ifndef NAME_MAX
#define NAME_MAX 255
#endif
#ifndef PATH_MAX
#define PATH_MAX 260
#endif
/* open(): bytes as written, never "\n" turned into "\r\n" */
#define FB__O_BINARY O_BINARY
#else
#define FB__O_BINARY 0
#endif

/* A signal's handler before fb__os_sig_catch, to put back. */
typedef struct fb__os_sig_saved {
#if FB_HAVE_POSIX
    struct sigaction old;
#else
    void (*old)(int);
#endif
    bool caught; /* false: it was ignored, and stays so */
} fb__os_sig_saved;

/* Installs handler for sig unless sig is ignored (nohup, a background job);
 * fb__os_sig_restore puts the old handler back. */
FB__PRIVATE void fb__os_sig_catch(int sig, void (*handler)(int), fb__os_sig_saved *saved);
FB__PRIVATE void fb__os_sig_restore(int sig, const fb__os_sig_saved *saved);

/* The signals held back while output files are committed (SIGINT, SIGTERM,
 * SIGHUP, SIGQUIT; Windows: none, Ctrl-C arrives on its own thread and the
 * commit is a sequence of MoveFileEx calls). */
typedef struct fb__os_sigmask {
#if FB_HAVE_POSIX
    sigset_t old;
#else
    int unused;
#endif
} fb__os_sigmask;
FB__PRIVATE void fb__os_block_signals(fb__os_sigmask *saved);
FB__PRIVATE void fb__os_unblock_signals(const fb__os_sigmask *saved);

/* A FILE that writes into buf[cap] (fmemopen; Windows: a temporary file
 * deleted on close). fb__os_memfile_close closes it and returns the length
 * written (buf NUL-terminated when it fits), or -1. */
FB__PRIVATE FILE *fb__os_memfile_open(char *buf, size_t cap);
FB__PRIVATE long fb__os_memfile_close(FILE *f, char *buf, size_t cap);

/* Files. fb__os_lstat: lstat (Windows: stat; there are no symlinks to
 * follow by hand). fb__os_readlink: readlink (Windows: -1, EINVAL).
 * fb__os_is_link: S_ISLNK. fb__os_pid_alive: 1 a process with this id
 * runs, 0 none, -1 cannot tell. fb__os_fsync: to the disk (Windows:
 * _commit). fb__os_fchmod: the permission bits (Windows: no-op).
 * fb__os_replace: rename over an existing file (Windows: MoveFileEx with
 * MOVEFILE_REPLACE_EXISTING; plain rename fails there when the target
 * exists). fb__os_last_sep: the last path separator ('/', and '\\' on
 * Windows), or NULL. */
FB__PRIVATE int fb__os_lstat(const char *path, struct stat *st);
FB__PRIVATE long fb__os_readlink(const char *path, char *buf, size_t len);
FB__PRIVATE bool fb__os_is_link(const struct stat *st);
FB__PRIVATE int fb__os_pid_alive(long pid);
FB__PRIVATE int fb__os_fsync(int fd);
FB__PRIVATE int fb__os_fchmod(int fd, unsigned mode);
FB__PRIVATE int fb__os_replace(const char *from, const char *to);
FB__PRIVATE const char *fb__os_last_sep(const char *path);
/* Which file path (or, when fd >= 0, the descriptor fd) is, as two numbers
 * that are equal for the same file only: st_dev and st_ino from st on
 * POSIX; on Windows (where st_ino is always 0) the volume's serial number
 * and the file index of GetFileInformationByHandle. */
FB__PRIVATE void fb__os_file_id(const char *path, int fd, const struct stat *st,
                                unsigned long long *dev, unsigned long long *ino);

#endif
