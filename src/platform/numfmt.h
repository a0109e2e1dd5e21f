/* Locale-independent number text (src/platform/numfmt.c): femtobench reads and writes
 * '.' as the decimal point and no grouping from the C library, whatever
 * setlocale() the program made. */
#ifndef FB_NUMFMT_H
#define FB_NUMFMT_H

#include "base.h"

/* "%.<decimals>f" with '.' as the decimal point; "nan", "inf", "-inf" for
 * non-finite values. */
FB__PRIVATE void fb__fmt_fixed(char *buf, size_t len, double v, int decimals);
/* Parses the whole of s as a finite decimal number with '.' as the decimal
 * point (digits, an optional fraction and exponent; no sign, no blanks, no
 * hex, no "inf"/"nan"). Returns false when s is anything else. */
FB__PRIVATE bool fb__parse_decimal(const char *s, double *out);

/* "%g"-style text of v with '.' whatever the locale: digits 0 = the shortest
 * that reads back as v, else that many significant digits; "nan", "inf",
 * "-inf" for non-finite values (callers map those). */
FB__PRIVATE void fb__fmt_double(char *buf, size_t len, double v, int digits);

#endif
