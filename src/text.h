/* Small text helpers shared by the writers and the parsers (src/text.c). */
#ifndef FB_TEXT_H
#define FB_TEXT_H

#include "base.h"

/* Formats v with thousands separators and `decimals` decimals. */
FB__PRIVATE void fb__fmt_grouped(char *buf, size_t len, double v, int decimals);
/* A copy of s ("" for NULL), or NULL when out of memory. */
FB__PRIVATE char *fb__strdup(const char *s);
/* s without its const, for APIs that take char * but do not write (execve's
 * argv and envp); no cast, so -Wcast-qual stays quiet in user builds. */
FB__PRIVATE char *fb__str_unconst(const char *s);
/* Levenshtein distance for "did you mean" hints ((size_t)-1 when too long). */
FB__PRIVATE size_t fb__edit_distance(const char *a, const char *b);

#endif
