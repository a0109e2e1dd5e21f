/* Small text helpers shared by the writers and the parsers (src/platform/text.c). */
#ifndef FB_TEXT_H
#define FB_TEXT_H

#include "base.h"

#include <stdint.h>
#include <stdio.h>

/* Formats v with thousands separators and `decimals` decimals; from 10^15
 * on (and wherever the text would not fit len) in exponent form with six
 * significant digits ("1e+57"): never cut. */
FB__PRIVATE void fb__fmt_grouped(char *buf, size_t len, double v, int decimals);
/* The fewest decimals (0 to 17) whose "%.*f" text reads back as v exactly,
 * or -1 when none does (v then needs exponent form). */
FB__PRIVATE int fb__exact_decimals(double v);
/* A complexity N (or any value given by the user) as given: 100.25, not
 * 100; grouped with ',' when asked (1,000.5); in exponent form where no
 * fixed text of 17 decimals holds it or from 10^15 on (the shortest that
 * reads back). */
FB__PRIVATE void fb__fmt_n(char *buf, size_t len, double v, bool grouped);
/* Writes s to f with control characters as \xNN: a name or a message with
 * a line break in it stays one line of a diagnostic. */
FB__PRIVATE void fb__put_line(FILE *f, const char *s);
/* A copy of s ("" for NULL), or NULL when out of memory. */
FB__PRIVATE char *fb__strdup(const char *s);
/* s without its const, for APIs that take char * but do not write (execve's
 * argv and envp); no cast, so -Wcast-qual stays quiet in user builds. */
FB__PRIVATE char *fb__str_unconst(const char *s);
/* Numbers the repeats of names[0..n) (each malloc'd, none NULL): the k-th
 * name (k >= 2, in index order) equal to an earlier one becomes "name#k",
 * so that a file's keys are unique; the first keeps its name. O(n log n).
 * FB_OK, or FB_ENOMEM (the names not renamed yet stay as they were). */
FB__PRIVATE int fb__number_repeats(char **names, size_t n);
/* Levenshtein distance for "did you mean" hints ((size_t)-1 when too long). */
FB__PRIVATE size_t fb__edit_distance(const char *a, const char *b);

/* UTF-8 (RFC 3629: no overlong forms, no surrogates, nothing above
 * U+10FFFF), the one copy every writer and parser uses. */
/* Length of the well-formed sequence at p, reading at most avail bytes and
 * never past the first byte that does not fit (so a NUL ends it): 0 when
 * ill-formed or cut off. */
FB__PRIVATE size_t fb__utf8_len(const unsigned char *p, size_t avail);
/* Decodes one sequence at s (not at the terminating NUL): the bytes
 * consumed, *cp the code point, or U+FFFD and 1 for an ill-formed byte. */
FB__PRIVATE size_t fb__utf8_next(const unsigned char *s, uint32_t *cp);
/* Encodes cp (at most U+10FFFF) into out[0..4): the bytes written. */
FB__PRIVATE size_t fb__utf8_encode(uint32_t cp, char *out);
/* Writes cp as UTF-8 to f. */
FB__PRIVATE void fb__utf8_put(FILE *f, uint32_t cp);

#endif
