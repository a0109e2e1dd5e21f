/* Text and number emitters shared by the file writers (report_json.c,
 * report_gbench.c, report_csv.c): UTF-8 sanitizing, JSON string escaping,
 * locale-independent shortest round-trip numbers, and a small pretty-printing
 * JSON emitter. Nothing here measures or allocates. */
#include "json.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Decodes one UTF-8 sequence at s (not at the terminating NUL). Returns the
 * bytes consumed; *cp gets the code point, or U+FFFD for a byte that does not
 * start a well-formed sequence (overlong forms, surrogates, > U+10FFFF and
 * truncated sequences are ill-formed), which then consumes one byte. */
size_t fb__utf8_next(const unsigned char *s, uint32_t *cp) {
    unsigned c = s[0];
    size_t len;
    uint32_t v, min;
    if (c < 0x80) {
        *cp = c;
        return 1;
    } else if (c >= 0xc2 && c <= 0xdf) {
        len = 2, v = c & 0x1f, min = 0x80;
    } else if (c >= 0xe0 && c <= 0xef) {
        len = 3, v = c & 0x0f, min = 0x800;
    } else if (c >= 0xf0 && c <= 0xf4) {
        len = 4, v = c & 0x07, min = 0x10000;
    } else {
        *cp = 0xfffd;
        return 1;
    }
    for (size_t i = 1; i < len; ++i) {
        if ((s[i] & 0xc0) != 0x80) { /* also stops at the NUL */
            *cp = 0xfffd;
            return 1;
        }
        v = (v << 6) | (s[i] & 0x3fu);
    }
    if (v < min || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff)) {
        *cp = 0xfffd;
        return 1;
    }
    *cp = v;
    return len;
}

/* Writes code point cp as UTF-8. */
void fb__utf8_put(FILE *f, uint32_t cp) {
    if (cp < 0x80) {
        fputc((int)cp, f);
    } else if (cp < 0x800) {
        fputc((int)(0xc0 | (cp >> 6)), f);
        fputc((int)(0x80 | (cp & 0x3f)), f);
    } else if (cp < 0x10000) {
        fputc((int)(0xe0 | (cp >> 12)), f);
        fputc((int)(0x80 | ((cp >> 6) & 0x3f)), f);
        fputc((int)(0x80 | (cp & 0x3f)), f);
    } else {
        fputc((int)(0xf0 | (cp >> 18)), f);
        fputc((int)(0x80 | ((cp >> 12) & 0x3f)), f);
        fputc((int)(0x80 | ((cp >> 6) & 0x3f)), f);
        fputc((int)(0x80 | (cp & 0x3f)), f);
    }
}

/* ------------------------------------------------------------ JSON values */

/* The escaped text of s, without the quotes. */
static void fb__json_body(FILE *f, const char *s) {
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        uint32_t cp;
        p += fb__utf8_next(p, &cp);
        switch (cp) {
        case '"':
            fputs("\\\"", f);
            break;
        case '\\':
            fputs("\\\\", f);
            break;
        case '\b':
            fputs("\\b", f);
            break;
        case '\f':
            fputs("\\f", f);
            break;
        case '\n':
            fputs("\\n", f);
            break;
        case '\r':
            fputs("\\r", f);
            break;
        case '\t':
            fputs("\\t", f);
            break;
        default:
            /* control characters must be escaped; DEL and the line/paragraph
             * separators are escaped too so the text survives JavaScript and
             * terminals unchanged */
            if (cp < 0x20 || cp == 0x7f || cp == 0x2028 || cp == 0x2029)
                fprintf(f, "\\u%04x", (unsigned)cp);
            else
                fb__utf8_put(f, cp);
        }
    }
}

void fb__json_str(FILE *f, const char *s) {
    if (!s) {
        fputs("null", f);
        return;
    }
    fputc('"', f);
    fb__json_body(f, s);
    fputc('"', f);
}

void fb__json_num(FILE *f, double v, int digits) {
    if (!isfinite(v)) {
        fputs("null", f);
        return;
    }
    char buf[64];
    fb__fmt_double(buf, sizeof buf, v, digits);
    fputs(buf, f);
}

/* ----------------------------------------------------------- JSON emitter */

/* Before a value: the comma and line break that separate it from its
 * predecessor, the indentation, and the key inside objects. */
static void fb__json_sep(fb__json *j, const char *key) {
    if (j->depth > 0) {
        int d = j->depth - 1;
        if (j->count[d]++) fputc(',', j->f);
        if (j->inline_from && j->depth >= j->inline_from) {
            if (j->count[d] > 1) fputc(' ', j->f);
        } else {
            fputc('\n', j->f);
            for (int i = 0; i < j->depth; ++i) fputs("  ", j->f);
        }
    }
    if (key) {
        fb__json_str(j->f, key);
        fputs(": ", j->f);
    }
}

void fb__json_init(fb__json *j, FILE *f) {
    memset(j, 0, sizeof *j);
    j->f = f;
}

static void fb__json_open(fb__json *j, const char *key, char c, bool one_line) {
    fb__json_sep(j, key);
    fputc(c, j->f);
    if (j->depth < FB__JSON_MAX_DEPTH) {
        j->count[j->depth] = 0;
        ++j->depth;
        if (one_line && !j->inline_from) j->inline_from = j->depth;
    }
}

static void fb__json_close(fb__json *j, char c) {
    if (j->depth == 0) return;
    bool was_inline = j->inline_from && j->depth >= j->inline_from;
    int n = j->count[j->depth - 1];
    if (j->inline_from == j->depth) j->inline_from = 0;
    --j->depth;
    if (!was_inline && n) {
        fputc('\n', j->f);
        for (int i = 0; i < j->depth; ++i) fputs("  ", j->f);
    }
    fputc(c, j->f);
    if (j->depth == 0) fputc('\n', j->f);
}

void fb__json_obj(fb__json *j, const char *key, bool one_line) {
    fb__json_open(j, key, '{', one_line);
}
void fb__json_arr(fb__json *j, const char *key, bool one_line) {
    fb__json_open(j, key, '[', one_line);
}
void fb__json_end_obj(fb__json *j) { fb__json_close(j, '}'); }
void fb__json_end_arr(fb__json *j) { fb__json_close(j, ']'); }

void fb__json_kstr(fb__json *j, const char *key, const char *s) {
    fb__json_sep(j, key);
    fb__json_str(j->f, s);
}

void fb__json_kstr2(fb__json *j, const char *key, const char *a, const char *b) {
    fb__json_sep(j, key);
    fputc('"', j->f);
    fb__json_body(j->f, a ? a : "");
    fb__json_body(j->f, b ? b : "");
    fputc('"', j->f);
}

void fb__json_knum(fb__json *j, const char *key, double v) {
    fb__json_sep(j, key);
    fb__json_num(j->f, v, j->digits);
}

void fb__json_ku64(fb__json *j, const char *key, uint64_t v) {
    fb__json_sep(j, key);
    fprintf(j->f, "%" PRIu64, v);
}

void fb__json_kint(fb__json *j, const char *key, long long v) {
    fb__json_sep(j, key);
    fprintf(j->f, "%lld", v);
}

void fb__json_kbool(fb__json *j, const char *key, bool v) {
    fb__json_sep(j, key);
    fputs(v ? "true" : "false", j->f);
}

void fb__json_knull(fb__json *j, const char *key) {
    fb__json_sep(j, key);
    fputs("null", j->f);
}

/* ------------------------------------------------------------ finishing */

int fb__writer_finish(FILE *f) {
    if (fflush(f) != 0 || ferror(f)) return FB_EIO;
    return FB_OK;
}

/* The machine's caches, as both JSON writers list them: always an array. */
void fb__json_caches(fb__json *j, const fb__sysinfo *si) {
    fb__json_arr(j, "caches", false);
    for (size_t i = 0; i < si->n_caches; ++i) {
        const fb__cache_info *c = &si->caches[i];
        fb__json_obj(j, NULL, true);
        fb__json_kstr(j, "type", c->type);
        fb__json_kint(j, "level", c->level);
        fb__json_kint(j, "size", c->size);
        fb__json_kint(j, "num_sharing", c->num_sharing);
        fb__json_end_obj(j);
    }
    fb__json_end_arr(j);
}
