/* Reading the small text files of /proc and /sys (src/platform/sysfile.c), shared by
 * the machine checks and the machine facts. Every path is root + rel, so
 * tests can pass a fake tree. */
#ifndef FB_SYSFILE_H
#define FB_SYSFILE_H

#include "base.h"

/* root + "/" + rel (one slash between them); 0, or -1 when it does not fit. */
FB__PRIVATE int fb__sysfile_path(char *buf, size_t len, const char *root, const char *rel);
/* Reads the file into buf (NUL-terminated, trailing whitespace removed).
 * Returns the length, or -1 when it cannot be read. */
FB__PRIVATE int fb__sysfile_read(const char *root, const char *rel, char *buf, size_t len);
/* A whole string as an integer (optional '-'); 0, or -1 when malformed. */
FB__PRIVATE int fb__sysfile_parse_long(const char *s, long long *v);
/* A non-negative decimal such as "2400.000" (the kernel always writes '.');
 * -1 when there is no digit. *end (may be NULL) is where parsing stopped. */
FB__PRIVATE double fb__sysfile_decimal(const char *s, const char **end);

/* A set of CPUs, for the kernel's CPU-list format ("0-3,8,10-11"). */
#define FB__MAX_CPUS 8192
typedef struct fb__cpuset {
    uint64_t bits[FB__MAX_CPUS / 64];
} fb__cpuset;

FB__PRIVATE void fb__cpuset_add(fb__cpuset *s, long long cpu);
FB__PRIVATE int fb__cpuset_has(const fb__cpuset *s, long cpu);
FB__PRIVATE long fb__cpuset_count(const fb__cpuset *s);
/* The first CPU of the set at or after `from`, or -1: a walk over the set
 * skips its empty words instead of testing 8192 bits one by one. */
FB__PRIVATE long fb__cpuset_next(const fb__cpuset *s, long from);
/* Parses a CPU list ("" = empty); 0, or -1 when malformed. */
FB__PRIVATE int fb__cpuset_parse(fb__cpuset *s, const char *text);
/* "CPU 3" or "CPUs 0-3,6"; ends with "..." when buf is too short. */
FB__PRIVATE void fb__cpuset_format(const fb__cpuset *s, char *buf, size_t len);

#endif
