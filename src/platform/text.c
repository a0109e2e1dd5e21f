/* Text helpers shared by the writers and the parsers. */
#include "text.h"

#include "numfmt.h" /* locale-independent digits */

#include <stdio.h>
#include <stdlib.h>

#include <math.h>
#include <string.h>

/* From this magnitude on a number is written in exponent form: its digits
 * past the 17th are noise, and a column of 58 digits helps nobody. */
#define FB__TEXT_EXP_FROM 1e15

void fb__fmt_grouped(char *buf, size_t len, double v, int decimals) {
    char raw[64];
    if (!isfinite(v)) {
        snprintf(buf, len, "%s", isnan(v) ? "-" : (v > 0 ? "inf" : "-inf"));
        return;
    }
    fb__fmt_fixed(raw, sizeof raw, fabs(v), decimals); /* '.' whatever the locale */
    if (fabs(v) >= FB__TEXT_EXP_FROM || strlen(raw) + 1 >= sizeof raw) { /* too long to group */
        fb__fmt_double(buf, len, v, 6);
        return;
    }
    const char *dot = strchr(raw, '.');
    size_t int_len = dot ? (size_t)(dot - raw) : strlen(raw);
    char out[96];
    size_t o = 0;
    if (v < 0 && strspn(raw, "0.") != strlen(raw)) out[o++] = '-';
    for (size_t i = 0; i < int_len; ++i) {
        out[o++] = raw[i];
        size_t left = int_len - i - 1;
        if (left && left % 3 == 0) out[o++] = ',';
    }
    if (dot) {
        size_t rest = strlen(dot);
        memcpy(out + o, dot, rest);
        o += rest;
    }
    out[o] = '\0';
    if (!len) return;
    if (o >= len) { /* never cut: the exponent form fits where the digits do not */
        fb__fmt_double(buf, len, v, 6);
        return;
    }
    memcpy(buf, out, o);
    buf[o] = '\0';
}

int fb__exact_decimals(double v) {
    if (!isfinite(v) || fabs(v) >= FB__TEXT_EXP_FROM) return -1;
    char raw[64];
    for (int d = 0; d <= 17; ++d) {
        /* the C library's text read back by the C library, both under the
         * same locale: only the round trip matters here */
        snprintf(raw, sizeof raw, "%.*f", d, v);
        if (strtod(raw, NULL) == v) return d;
    }
    return -1;
}

void fb__fmt_n(char *buf, size_t len, double v, bool grouped) {
    int d = fb__exact_decimals(v);
    if (d < 0)
        fb__fmt_double(buf, len, v, 0);
    else if (grouped)
        fb__fmt_grouped(buf, len, v, d);
    else
        fb__fmt_fixed(buf, len, v, d);
}

/* Levenshtein distance, for "did you mean" hints; SIZE_MAX for strings
 * of 64 bytes or more (no hint for those). */
size_t fb__edit_distance(const char *a, const char *b) {
    size_t la = strlen(a), lb = strlen(b);
    size_t row[64];
    if (la >= 64 || lb >= 64) return (size_t)-1;
    for (size_t j = 0; j <= lb; ++j) row[j] = j;
    for (size_t i = 1; i <= la; ++i) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= lb; ++j) {
            size_t up = row[j];
            size_t best = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < best) best = up + 1;
            if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[lb];
}

void fb__put_line(FILE *f, const char *s) {
    for (const unsigned char *p = (const unsigned char *)s; *p; ++p)
        if (*p < 0x20 || *p == 0x7f)
            fprintf(f, "\\x%02x", *p);
        else
            fputc(*p, f);
}

char *fb__strdup(const char *s) {
    size_t n = strlen(s ? s : "") + 1;
    char *p = malloc(n);
    if (p) memcpy(p, s ? s : "", n);
    return p;
}

char *fb__str_unconst(const char *s) {
    union {
        const char *c;
        char *m;
    } u;
    u.c = s;
    return u.m;
}

/* ------------------------------------------------------------- UTF-8 */

size_t fb__utf8_len(const unsigned char *p, size_t avail) {
    unsigned char c = p[0];
    size_t n;
    unsigned lo = 0x80, hi = 0xbf; /* the second byte's range */
    if (c < 0x80) return 1;
    if (c >= 0xc2 && c <= 0xdf) {
        n = 2;
    } else if (c >= 0xe0 && c <= 0xef) {
        n = 3;
        if (c == 0xe0) lo = 0xa0; /* overlong below U+0800 */
        if (c == 0xed) hi = 0x9f; /* surrogates */
    } else if (c >= 0xf0 && c <= 0xf4) {
        n = 4;
        if (c == 0xf0) lo = 0x90; /* overlong below U+10000 */
        if (c == 0xf4) hi = 0x8f; /* above U+10FFFF */
    } else {
        return 0;
    }
    if (avail < n) return 0;
    if (p[1] < lo || p[1] > hi) return 0;
    for (size_t i = 2; i < n; ++i)
        if (p[i] < 0x80 || p[i] > 0xbf) return 0;
    return n;
}

size_t fb__utf8_next(const unsigned char *s, uint32_t *cp) {
    size_t n = fb__utf8_len(s, 4);
    if (!n) {
        *cp = 0xfffd;
        return 1;
    }
    static const unsigned char lead_mask[5] = {0, 0x7f, 0x1f, 0x0f, 0x07};
    uint32_t v = s[0] & lead_mask[n];
    for (size_t i = 1; i < n; ++i) v = (v << 6) | (s[i] & 0x3fu);
    *cp = v;
    return n;
}

size_t fb__utf8_encode(uint32_t cp, char *out) {
    if (cp < 0x80) {
        out[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (char)(0xc0 | (cp >> 6));
        out[1] = (char)(0x80 | (cp & 0x3f));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (char)(0xe0 | (cp >> 12));
        out[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
        out[2] = (char)(0x80 | (cp & 0x3f));
        return 3;
    }
    out[0] = (char)(0xf0 | (cp >> 18));
    out[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
    out[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
    out[3] = (char)(0x80 | (cp & 0x3f));
    return 4;
}

void fb__utf8_put(FILE *f, uint32_t cp) {
    char b[4];
    fwrite(b, 1, fb__utf8_encode(cp, b), f);
}

/* ------------------------------------------------------ repeated names */

typedef struct fb__named {
    const char *name;
    size_t i;
} fb__named;

static int fb__named_cmp(const void *pa, const void *pb) {
    const fb__named *a = pa, *b = pb;
    int c = strcmp(a->name, b->name);
    return c ? c : (a->i > b->i) - (a->i < b->i);
}

int fb__number_repeats(char **names, size_t n) {
    fb__named *v = malloc((n ? n : 1) * sizeof *v);
    if (!v) return FB_ENOMEM;
    for (size_t i = 0; i < n; ++i) v[i] = (fb__named){names[i], i};
    qsort(v, n, sizeof *v, fb__named_cmp);
    int rc = FB_OK;
    const char *first = NULL; /* the group's first name: never renamed */
    for (size_t i = 0, k = 1; i < n; ++i) {
        k = first && strcmp(v[i].name, first) == 0 ? k + 1 : 1;
        if (k == 1) {
            first = v[i].name;
            continue;
        }
        size_t len = strlen(v[i].name) + 24;
        char *nk = malloc(len);
        if (!nk) {
            rc = FB_ENOMEM;
            break;
        }
        snprintf(nk, len, "%s#%zu", v[i].name, k);
        free(names[v[i].i]);
        names[v[i].i] = nk;
    }
    free(v);
    return rc;
}
