/* The small text files of /proc and /sys, and the kernel's CPU-list format:
 * one reader for the machine checks (src/machine/machine_linux.c) and the machine
 * facts (src/machine/sysinfo.c). A file that is missing, unreadable or not in the
 * expected shape means "unknown" to both. */
#include "sysfile.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

int fb__sysfile_path(char *buf, size_t len, const char *root, const char *rel) {
    size_t n = strlen(root);
    while (n > 0 && root[n - 1] == '/') --n; /* "/" + "/proc/.." */
    while (*rel == '/') ++rel;
    int w = snprintf(buf, len, "%.*s/%s", (int)n, root, rel);
    return (w < 0 || (size_t)w >= len) ? -1 : 0;
}

/* Reads a small file into buf (NUL-terminated, trailing whitespace removed).
 * Returns the length, or -1 when it cannot be read. */
int fb__sysfile_read(const char *root, const char *rel, char *buf, size_t len) {
    char path[4096];
    if (len < 2 || fb__sysfile_path(path, sizeof path, root, rel)) return -1;
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    size_t n = fread(buf, 1, len - 1, f);
    int bad = ferror(f);
    fclose(f);
    if (bad) return -1;
    while (n && isspace((unsigned char)buf[n - 1])) --n;
    buf[n] = '\0';
    return (int)n;
}

/* Parses a whole string as an integer (optional '-'); 0 on success. */
int fb__sysfile_parse_long(const char *s, long long *v) {
    int neg = (*s == '-');
    if (neg) ++s;
    if (!isdigit((unsigned char)*s)) return -1;
    long long x = 0;
    for (; isdigit((unsigned char)*s); ++s) {
        if (x > (INT64_MAX - 9) / 10) return -1;
        x = 10 * x + (*s - '0');
    }
    if (*s) return -1;
    *v = neg ? -x : x;
    return 0;
}

void fb__cpuset_add(fb__cpuset *s, long long cpu) {
    if (cpu >= 0 && cpu < FB__MAX_CPUS) s->bits[cpu / 64] |= (uint64_t)1 << (cpu % 64);
}

int fb__cpuset_has(const fb__cpuset *s, long cpu) {
    return (int)((s->bits[cpu / 64] >> (cpu % 64)) & 1);
}

long fb__cpuset_count(const fb__cpuset *s) {
    long n = 0;
    for (size_t w = 0; w < FB__MAX_CPUS / 64; ++w)
        for (uint64_t b = s->bits[w]; b; b &= b - 1) ++n;
    return n;
}

long fb__cpuset_next(const fb__cpuset *s, long from) {
    if (from < 0) from = 0;
    for (long w = from / 64; w < FB__MAX_CPUS / 64; ++w) {
        uint64_t b = s->bits[w];
        if (w == from / 64) b &= ~(uint64_t)0 << (from % 64);
        if (!b) continue;
        long c = w * 64;
        while (!(b & 1)) {
            b >>= 1;
            ++c;
        }
        return c;
    }
    return -1;
}

/* Parses the kernel's CPU list format ("0-3,8,10-11", "" = empty);
 * 0 on success, -1 when malformed. */
int fb__cpuset_parse(fb__cpuset *s, const char *text) {
    memset(s, 0, sizeof *s);
    const char *p = text;
    while (*p) {
        long long a = 0, b;
        if (!isdigit((unsigned char)*p)) return -1;
        for (; isdigit((unsigned char)*p); ++p) {
            a = 10 * a + (*p - '0');
            if (a > 1000000) return -1;
        }
        b = a;
        if (*p == '-') {
            ++p;
            if (!isdigit((unsigned char)*p)) return -1;
            for (b = 0; isdigit((unsigned char)*p); ++p) {
                b = 10 * b + (*p - '0');
                if (b > 1000000) return -1;
            }
            if (b < a) return -1;
        }
        for (long long c = a; c <= b; ++c) fb__cpuset_add(s, c);
        if (*p == ',') {
            ++p;
            if (!*p) return -1;
        } else if (*p) {
            return -1;
        }
    }
    return 0;
}

/* "CPU 3" or "CPUs 0-3,6"; ends with "..." when buf is too short. */
void fb__cpuset_format(const fb__cpuset *s, char *buf, size_t len) {
    size_t used = (size_t)snprintf(buf, len, "%s", fb__cpuset_count(s) == 1 ? "CPU " : "CPUs ");
    int first = 1;
    if (used >= len) return;
    for (long c = fb__cpuset_next(s, 0); c >= 0; c = fb__cpuset_next(s, c + 1)) {
        long e = c;
        while (e + 1 < FB__MAX_CPUS && fb__cpuset_has(s, e + 1)) ++e;
        char item[48];
        if (e == c)
            snprintf(item, sizeof item, "%s%ld", first ? "" : ",", c);
        else
            snprintf(item, sizeof item, "%s%ld-%ld", first ? "" : ",", c, e);
        size_t n = strlen(item);
        if (used + n + 4 > len) { /* keep room for "..." */
            if (used + 4 <= len) memcpy(buf + used, "...", 4);
            return;
        }
        memcpy(buf + used, item, n + 1);
        used += n;
        first = 0;
        c = e;
    }
}

/* A non-negative decimal such as "2400.000" or "0.52", parsed by hand: the
 * kernel always writes '.', strtod would follow the user's locale. */
double fb__sysfile_decimal(const char *s, const char **end) {
    /* digits as one integer, divided once: "4.19" -> 419 / 100, the double
     * nearest to 4.19 (adding 0.1-steps would drift) */
    uint64_t mant = 0;
    double scale = 1;
    bool digits = false;
    for (; *s >= '0' && *s <= '9'; ++s, digits = true)
        if (mant < UINT64_MAX / 10 - 9)
            mant = mant * 10 + (uint64_t)(*s - '0');
        else
            scale /= 10; /* too many digits: keep the magnitude */
    if (*s == '.')
        for (++s; *s >= '0' && *s <= '9'; ++s, digits = true)
            if (mant < UINT64_MAX / 10 - 9) mant = mant * 10 + (uint64_t)(*s - '0'), scale *= 10;
    if (end) *end = s;
    return digits ? (double)mant / scale : -1;
}
