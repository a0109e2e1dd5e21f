/* The POSIX calls the C tests use, on Windows (mingw-w64, run under wine):
 * setenv/unsetenv, mkdtemp, and open_memstream. open_memstream is a
 * temporary file whose contents are copied into the caller's buffer at each
 * fflush and fclose (the points where POSIX updates them), so tests that
 * read what the library wrote into a FILE run unchanged. Included by
 * check.h; nothing here on POSIX systems. */
#ifndef FB_TEST_PORTABLE_H
#define FB_TEST_PORTABLE_H

#if defined(_WIN32)
#include <direct.h>
#include <io.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <windows.h>

static inline int fbt_setenv(const char *name, const char *value, int overwrite) {
    if (!overwrite && getenv(name)) return 0;
    return _putenv_s(name, value) == 0 ? 0 : -1;
}
static inline int fbt_unsetenv(const char *name) { return _putenv_s(name, "") == 0 ? 0 : -1; }
#define setenv fbt_setenv
#define unsetenv fbt_unsetenv

static inline char *fbt_mkdtemp(char *tmpl) {
    if (!_mktemp(tmpl) || _mkdir(tmpl) != 0) return NULL;
    return tmpl;
}
#define mkdtemp fbt_mkdtemp

#define FBT_MEMSTREAMS 64
typedef struct fbt_memstream {
    FILE *f;
    char **buf;
    size_t *len;
} fbt_memstream;
static fbt_memstream fbt_ms[FBT_MEMSTREAMS];

static inline FILE *fbt_open_memstream(char **buf, size_t *len) {
    char dir[MAX_PATH + 1], name[MAX_PATH + 1];
    DWORD n = GetTempPathA(sizeof dir, dir);
    if (n == 0 || n > MAX_PATH || !GetTempFileNameA(dir, "fbt", 0, name)) return NULL;
    FILE *f = fopen(name, "w+bD");
    if (!f) return NULL;
    for (int i = 0; i < FBT_MEMSTREAMS; ++i) {
        if (fbt_ms[i].f) continue;
        fbt_ms[i].f = f;
        fbt_ms[i].buf = buf;
        fbt_ms[i].len = len;
        *buf = calloc(1, 1);
        *len = 0;
        return f;
    }
    fclose(f);
    return NULL;
}
#define open_memstream fbt_open_memstream

/* Copies a memstream's file into its buffer (POSIX: at fflush and fclose). */
static inline void fbt_sync(fbt_memstream *m) {
    fflush(m->f);
    long end = ftell(m->f);
    if (end < 0) return;
    char *p = realloc(*m->buf, (size_t)end + 1);
    if (!p) return;
    rewind(m->f);
    size_t got = fread(p, 1, (size_t)end, m->f);
    p[got] = '\0';
    *m->buf = p;
    *m->len = got;
    fseek(m->f, end, SEEK_SET);
}

static inline int fbt_fflush(FILE *f) {
    int rc = fflush(f);
    for (int i = 0; i < FBT_MEMSTREAMS; ++i)
        if (fbt_ms[i].f && (!f || fbt_ms[i].f == f)) fbt_sync(&fbt_ms[i]);
    return rc;
}
static inline int fbt_fclose(FILE *f) {
    for (int i = 0; i < FBT_MEMSTREAMS; ++i) {
        if (fbt_ms[i].f != f) continue;
        fbt_sync(&fbt_ms[i]);
        fbt_ms[i].f = NULL;
    }
    return fclose(f);
}
#define fflush fbt_fflush
#define fclose fbt_fclose
#endif

#endif
