/* src/platform/os.h on Windows (mingw-w64). */
#include "os.h"

#if FB_HAVE_WINDOWS

#include <errno.h>
#include <string.h>
#include <windows.h>

/* Windows has no sigaction; signal() installs the handler once (the CRT
 * resets it to the default when it fires, which is all endless mode needs:
 * the first Ctrl-C stops the run). */
void fb__os_sig_catch(int sig, void (*handler)(int), fb__os_sig_saved *saved) {
    saved->caught = false;
    saved->old = signal(sig, handler);
    if (saved->old == SIG_IGN) {
        signal(sig, SIG_IGN);
        return;
    }
    saved->caught = saved->old != SIG_ERR;
}

void fb__os_sig_restore(int sig, const fb__os_sig_saved *saved) {
    if (saved->caught) signal(sig, saved->old);
}

void fb__os_block_signals(fb__os_sigmask *saved) { saved->unused = 0; }
void fb__os_unblock_signals(const fb__os_sigmask *saved) { (void)saved; }

/* A temporary file in the user's temporary directory, deleted on close
 * ("D"): the CRT's tmpfile() writes to the root of the drive, which an
 * ordinary user may not. */
FILE *fb__os_memfile_open(char *buf, size_t cap) {
    char dir[MAX_PATH + 1], name[MAX_PATH + 1];
    if (cap) buf[0] = '\0';
    DWORD n = GetTempPathA(sizeof dir, dir);
    if (n == 0 || n > MAX_PATH || !GetTempFileNameA(dir, "fb", 0, name)) return NULL;
    return fopen(name, "w+bD");
}

long fb__os_memfile_close(FILE *f, char *buf, size_t cap) {
    long n = ftell(f);
    if (n >= 0 && cap) {
        rewind(f);
        size_t want = (size_t)n < cap ? (size_t)n : cap - 1;
        size_t got = fread(buf, 1, want, f);
        buf[got] = '\0';
    }
    fclose(f);
    return n;
}

int fb__os_lstat(const char *path, struct stat *st) { return stat(path, st); }
long fb__os_readlink(const char *path, char *buf, size_t len) {
    (void)path;
    (void)buf;
    (void)len;
    errno = EINVAL;
    return -1;
}
bool fb__os_is_link(const struct stat *st) {
    (void)st;
    return false;
}
int fb__os_pid_alive(long pid) {
    HANDLE h = OpenProcess(SYNCHRONIZE, FALSE, (DWORD)pid);
    if (!h) return GetLastError() == ERROR_INVALID_PARAMETER ? 0 : -1;
    DWORD w = WaitForSingleObject(h, 0);
    CloseHandle(h);
    return w == WAIT_TIMEOUT ? 1 : 0;
}
int fb__os_fsync(int fd) { return _commit(fd); }
int fb__os_fchmod(int fd, unsigned mode) {
    (void)fd;
    (void)mode;
    return 0;
}
int fb__os_replace(const char *from, const char *to) {
    if (MoveFileExA(from, to, MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH)) return 0;
    DWORD e = GetLastError();
    errno = e == ERROR_ACCESS_DENIED || e == ERROR_SHARING_VIOLATION ? EACCES
            : e == ERROR_PATH_NOT_FOUND || e == ERROR_FILE_NOT_FOUND ? ENOENT
                                                                     : EIO;
    return -1;
}
const char *fb__os_last_sep(const char *path) {
    const char *a = strrchr(path, '/'), *b = strrchr(path, '\\');
    return !a ? b : !b ? a : a > b ? a : b;
}

void fb__os_file_id(const char *path, int fd, const struct stat *st, unsigned long long *dev,
                    unsigned long long *ino) {
    (void)st;
    HANDLE h = INVALID_HANDLE_VALUE, opened = INVALID_HANDLE_VALUE;
    if (fd >= 0)
        h = (HANDLE)_get_osfhandle(fd);
    else
        h = opened = CreateFileA(path, 0, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                                 NULL, OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS, NULL);
    BY_HANDLE_FILE_INFORMATION fi;
    if (h != INVALID_HANDLE_VALUE && GetFileInformationByHandle(h, &fi)) {
        *dev = fi.dwVolumeSerialNumber;
        *ino = (unsigned long long)fi.nFileIndexHigh << 32 | fi.nFileIndexLow;
    } else {
        /* a console or a pipe: known by its handle (never equal to a file's) */
        *dev = ~0ull;
        *ino = (unsigned long long)(uintptr_t)h;
    }
    if (opened != INVALID_HANDLE_VALUE) CloseHandle(opened);
}

#endif /* FB_HAVE_WINDOWS */
