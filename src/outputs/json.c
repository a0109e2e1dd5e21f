/* Text and number emitters shared by the file writers (report_json.c,
 * report_gbench.c, report_csv.c): JSON string escaping (UTF-8 from src/platform/text.c),
 * locale-independent shortest round-trip numbers, and a small pretty-printing
 * JSON emitter. Nothing here measures or allocates. */
#include "json.h"
#include "text.h" /* UTF-8 */

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

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
