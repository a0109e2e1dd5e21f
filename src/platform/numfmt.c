/* Locale-independent number formatting and parsing. printf's %f/%g and
 * strtod follow LC_NUMERIC: under de_DE.UTF-8 they write and expect ','.
 * femtobench's tables, files and options always use '.', so text is
 * produced by the C library and its decimal point rewritten (formatting),
 * or rewritten into the locale's decimal point before strtod (parsing):
 * the numbers stay exactly those the C library would give in the C locale. */
#include "numfmt.h"

#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Copies raw to buf, with any run of characters that are not digits, signs
 * or exponent letters (the locale's decimal point, possibly multibyte)
 * replaced by one '.'. */
static void fb__numfmt_dot(char *buf, size_t len, const char *raw) {
    size_t o = 0;
    bool in_point = false;
    if (!len) return;
    for (const char *p = raw; *p && o + 1 < len; ++p) {
        char c = *p;
        bool plain = (c >= '0' && c <= '9') || c == '-' || c == '+' || c == 'e' || c == 'E';
        if (plain) {
            buf[o++] = c;
            in_point = false;
        } else if (!in_point) {
            buf[o++] = '.';
            in_point = true;
        }
    }
    buf[o] = '\0';
}

void fb__fmt_double(char *buf, size_t len, double v, int digits) {
    char raw[64];
    if (!isfinite(v)) {
        snprintf(buf, len, "%s", isnan(v) ? "nan" : (v > 0 ? "inf" : "-inf"));
        return;
    }
    if (digits > 0) {
        snprintf(raw, sizeof raw, "%.*g", digits > 17 ? 17 : digits, v);
    } else {
        for (int prec = 15; prec <= 17; ++prec) {
            snprintf(raw, sizeof raw, "%.*g", prec, v);
            if (strtod(raw, NULL) == v) break;
        }
    }
    fb__numfmt_dot(buf, len, raw);
}

void fb__fmt_fixed(char *buf, size_t len, double v, int decimals) {
    char raw[512]; /* %f of a large double has up to 309 digits */
    if (!isfinite(v)) {
        snprintf(buf, len, "%s", isnan(v) ? "nan" : (v > 0 ? "inf" : "-inf"));
        return;
    }
    if (decimals < 0) decimals = 0;
    if (decimals > 30) decimals = 30;
    int n = snprintf(raw, sizeof raw, "%.*f", decimals, v);
    if (n < 0 || (size_t)n >= sizeof raw || (size_t)n >= len) {
        /* never cut: the exponent form, as many digits as fit (a decimal
         * point of the locale is one character here, as '.') */
        int digits = len >= 25 ? 17 : len >= 14 ? 6 : 1;
        fb__fmt_double(buf, len, v, digits);
        return;
    }
    fb__numfmt_dot(buf, len, raw);
}

bool fb__parse_decimal(const char *s, double *out) {
    /* the grammar first, so that strtod's extras (hex, inf, nan, blanks,
     * signs, the locale's own decimal point) are refused */
    const char *p = s;
    size_t digits = 0;
    while (*p >= '0' && *p <= '9') ++p, ++digits;
    size_t point = (size_t)(p - s);
    bool has_point = *p == '.';
    if (has_point)
        for (++p; *p >= '0' && *p <= '9'; ++p) ++digits;
    if (!digits) return false;
    if (*p == 'e' || *p == 'E') {
        ++p;
        if (*p == '+' || *p == '-') ++p;
        if (!(*p >= '0' && *p <= '9')) return false;
        while (*p >= '0' && *p <= '9') ++p;
    }
    if (*p) return false;
    /* s with '.' replaced by the locale's decimal point */
    const char *dp = localeconv()->decimal_point;
    size_t dl = dp && *dp ? strlen(dp) : 1;
    size_t n = strlen(s);
    char small[128], *text = n + dl + 1 <= sizeof small ? small : malloc(n + dl + 1);
    if (!text) return false;
    memcpy(text, s, point);
    size_t o = point;
    if (has_point) {
        memcpy(text + o, dp && *dp ? dp : ".", dl);
        o += dl;
        ++point;
    }
    memcpy(text + o, s + point, n - point + 1);
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    bool ok = *end == '\0' && isfinite(v) && errno != ERANGE;
    if (text != small) free(text);
    if (ok) *out = v;
    return ok;
}
