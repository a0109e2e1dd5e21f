/* The runner's -filter (src/runner/filter.c): a POSIX extended regular expression
 * that must match a benchmark's whole name, compiled and matched where it
 * cannot take the process down. */
#ifndef FB_FILTER_H
#define FB_FILTER_H

#include "base.h"

/* Bounds on a -filter pattern (docs/reliability.md, "Regular expressions"). */
#define FB__FILTER_MAX_LEN 1024     /* bytes */
#define FB__FILTER_MAX_DEPTH 32     /* nested groups */
#define FB__FILTER_MAX_MEM_MB 256   /* address space the compiling child may add */
#define FB__FILTER_MAX_CPU_S 2      /* CPU seconds it may use */
#define FB__FILTER_MAX_WALL_MS 5000 /* wall time before it is killed */

/* Sets sel[i] to 1 when pattern matches the whole of names[i], else 0.
 * The pattern is bounded (length, nesting), then compiled and matched in a
 * child process with limits on its memory and CPU time, so a pattern that
 * exhausts regcomp's stack or memory ends the child, not us. The whole-name
 * anchoring checks the match's offsets (0 to the name's length): nothing in
 * the pattern can escape it, and back-references keep their numbers.
 * Returns 0, or -1 with the reason (one line, without the pattern) in why. */
FB__PRIVATE int fb__filter_select(const char *pattern, const char *const *names, size_t n,
                                  unsigned char *sel, char *why, size_t len);

/* The same; anywhere: a match anywhere in the name selects it (Google
 * Benchmark's --benchmark_filter) instead of the whole name. */
FB__PRIVATE int fb__filter_select_mode(const char *pattern, const char *const *names, size_t n,
                                       unsigned char *sel, bool anywhere, char *why, size_t len);

/* The bounds alone (length, nesting): 0, or -1 with the reason in why. */
FB__PRIVATE int fb__filter_check(const char *pattern, char *why, size_t len);

#endif
