/* The runner's bounds on its own options. */
#include "cli_check.h"

#include "numfmt.h"

const char *fb__cli_range(double v, double lo, double hi, const char *unit, char *why, size_t len) {
    if (v >= lo && v <= hi) return NULL;
    char a[32], b[32]; /* '.' whatever the locale */
    fb__fmt_double(a, sizeof a, lo, 6);
    fb__fmt_double(b, sizeof b, hi, 6);
    snprintf(why, len, "out of range (%s to %s%s%s)", a, b, *unit ? " " : "", unit);
    return why;
}

void fb__cli_put_line(FILE *f, const char *s) {
    for (const unsigned char *p = (const unsigned char *)s; *p; ++p)
        if (*p < 0x20 || *p == 0x7f)
            fprintf(f, "\\x%02x", *p);
        else
            fputc(*p, f);
}
