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
