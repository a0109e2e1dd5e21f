/* The JSON emitter and the text encodings the writers share (src/outputs/json.c). */
#ifndef FB_JSON_H
#define FB_JSON_H

#include "base.h"
#include "numfmt.h"
#include "sysinfo.h"

#include <stdio.h>

/* A JSON string (valid UTF-8, escaped; NULL -> null); a number (non-finite
 * -> null). */
FB__PRIVATE void fb__json_str(FILE *f, const char *s);
FB__PRIVATE void fb__json_num(FILE *f, double v, int digits);

/* A pretty-printing JSON emitter (two-space indent). Containers opened with
 * one_line keep themselves and everything inside on one line. A NULL key is
 * for array elements. */
#define FB__JSON_MAX_DEPTH 16
typedef struct fb__json {
    FILE *f;
    int depth;
    int inline_from;               /* depth of the outermost one-line container, 0 none */
    int count[FB__JSON_MAX_DEPTH]; /* members written per open container */
    int digits;                    /* for numbers, as in fb__fmt_double */
} fb__json;
FB__PRIVATE void fb__json_init(fb__json *j, FILE *f);
FB__PRIVATE void fb__json_obj(fb__json *j, const char *key, bool one_line);
FB__PRIVATE void fb__json_arr(fb__json *j, const char *key, bool one_line);
FB__PRIVATE void fb__json_end_obj(fb__json *j);
FB__PRIVATE void fb__json_end_arr(fb__json *j);
FB__PRIVATE void fb__json_kstr(fb__json *j, const char *key, const char *s);
FB__PRIVATE void fb__json_kstr2(fb__json *j, const char *key, const char *a,
                                const char *b); /* a + b */
FB__PRIVATE void fb__json_knum(fb__json *j, const char *key, double v);
FB__PRIVATE void fb__json_ku64(fb__json *j, const char *key, uint64_t v);
FB__PRIVATE void fb__json_kint(fb__json *j, const char *key, long long v);
FB__PRIVATE void fb__json_kbool(fb__json *j, const char *key, bool v);
FB__PRIVATE void fb__json_knull(fb__json *j, const char *key);
/* fflush + ferror: FB_OK or FB_EIO. */
FB__PRIVATE int fb__writer_finish(FILE *f);
/* The caches as a JSON array (both JSON writers). */
FB__PRIVATE void fb__json_caches(fb__json *j, const fb__sysinfo *si);

#endif
