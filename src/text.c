/* Text helpers shared by the writers and the parsers. */
#include "text.h"

#include "json.h"
#include "numfmt.h" /* locale-independent digits */

#include <stdio.h>
#include <stdlib.h>

#include <math.h>
#include <string.h>

void fb__fmt_grouped(char *buf, size_t len, double v, int decimals) {
    char raw[64];
    if (!isfinite(v)) {
        snprintf(buf, len, "%s", isnan(v) ? "-" : (v > 0 ? "inf" : "-inf"));
        return;
    }
    fb__fmt_fixed(raw, sizeof raw, fabs(v), decimals); /* '.' whatever the locale */
    if (strlen(raw) + 1 >= sizeof raw) {               /* too long to group */
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
    if (o >= len) o = len - 1; /* cut, like snprintf, without its warning */
    memcpy(buf, out, o);
    buf[o] = '\0';
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
