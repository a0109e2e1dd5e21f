/* Machine and build facts for the context of the JSON files: CPU model and
 * count, frequency, caches, load, host name, compiler. Read from /proc and
 * /sys under a root directory so tests can pass a fake tree; every fact has
 * a fallback ("unknown", 0, -1) and nothing here fails. */
#include "sysinfo.h"

#include "sysfile.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if FB_HAVE_POSIX
#include <unistd.h>
#endif

#if defined(__clang__)
#define FB__COMPILER "clang " __clang_version__
#elif defined(__GNUC__)
#define FB__COMPILER "gcc " __VERSION__
#else
#define FB__COMPILER "unknown"
#endif

#ifdef FB_BUILD_FLAGS
#define FB__BUILD_FLAGS FB_BUILD_FLAGS
#else
#define FB__BUILD_FLAGS "unknown"
#endif

/* A value read from /proc or /sys as a count: 0 (unknown) when it is
 * negative, not finite or too large to convert (a huge number in
 * a file must not be undefined behaviour). */
static long long fb__sys_ll(double v, double max) { return v >= 0 && v <= max ? (long long)v : 0; }

#if FB_HAVE_SYSFS /* the facts in /proc and /sys (Linux) */
/* The value after "key<spaces/tabs>:" on a line of /proc/cpuinfo, or NULL. */
static const char *fb__sys_cpuinfo_value(const char *line, const char *key) {
    size_t kl = strlen(key);
    if (strncmp(line, key, kl) != 0) return NULL;
    line += kl;
    while (*line == ' ' || *line == '\t') ++line;
    if (*line != ':') return NULL;
    ++line;
    while (*line == ' ' || *line == '\t') ++line;
    return line;
}

static void fb__sys_cpuinfo(const char *root, fb__sysinfo *out, double *mhz) {
    /* /proc/cpuinfo is a few kB per CPU; a large buffer on the heap */
    size_t cap = 1u << 20;
    char *buf = malloc(cap);
    if (!buf) return;
    if (fb__sysfile_read(root, "/proc/cpuinfo", buf, cap) >= 0) {
        int cpus = 0;
        for (char *line = buf; line && *line;) {
            char *nl = strchr(line, '\n');
            if (nl) *nl = '\0';
            const char *v;
            if (fb__sys_cpuinfo_value(line, "processor")) {
                ++cpus;
            } else if (!out->cpu_model[0] && (v = fb__sys_cpuinfo_value(line, "model name")) &&
                       *v) {
                snprintf(out->cpu_model, sizeof out->cpu_model, "%s", v);
            } else if (*mhz <= 0 && (v = fb__sys_cpuinfo_value(line, "cpu MHz"))) {
                *mhz = fb__sysfile_decimal(v, NULL);
            }
            line = nl ? nl + 1 : NULL;
        }
        out->num_cpus = cpus;
    }
    free(buf);
}

/* "0-3,8,10-11" -> 7; 0 when malformed */
static int fb__sys_count_cpu_list(const char *s) {
    fb__cpuset set;
    return fb__cpuset_parse(&set, s) == 0 ? (int)fb__cpuset_count(&set) : 0;
}

/* "32K" / "1024K" / "32M" / "12345" -> bytes */
static long long fb__sys_size(const char *s) {
    const char *e;
    double v = fb__sysfile_decimal(s, &e);
    if (v < 0) return 0;
    if (*e == 'K')
        v *= 1024;
    else if (*e == 'M')
        v *= 1024 * 1024;
    else if (*e == 'G')
        v *= 1024.0 * 1024 * 1024;
    return fb__sys_ll(v, 1e18);
}

static void fb__sys_caches(const char *root, fb__sysinfo *out) {
    for (int i = 0; i < 16 && out->n_caches < FB__SYS_MAX_CACHES; ++i) {
        char rel[128], val[256];
        fb__cache_info c;
        memset(&c, 0, sizeof c);
        snprintf(rel, sizeof rel, "/sys/devices/system/cpu/cpu0/cache/index%d/type", i);
        if (fb__sysfile_read(root, rel, c.type, sizeof c.type) < 0) break;
        snprintf(rel, sizeof rel, "/sys/devices/system/cpu/cpu0/cache/index%d/level", i);
        if (fb__sysfile_read(root, rel, val, sizeof val) >= 0)
            c.level = (int)fb__sys_ll(fb__sysfile_decimal(val, NULL), 1000);
        snprintf(rel, sizeof rel, "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
        if (fb__sysfile_read(root, rel, val, sizeof val) >= 0) c.size = fb__sys_size(val);
        snprintf(rel, sizeof rel, "/sys/devices/system/cpu/cpu0/cache/index%d/shared_cpu_list", i);
        if (fb__sysfile_read(root, rel, val, sizeof val) >= 0)
            c.num_sharing = fb__sys_count_cpu_list(val);
        out->caches[out->n_caches++] = c;
    }
}

/* Like Google Benchmark: enabled when any CPU's governor is not
 * "performance"; unknown when no CPU has cpufreq. */
static int fb__sys_scaling(const char *root, int cpus) {
    int seen = 0;
    for (int i = 0; i < cpus && i < 4096; ++i) {
        char rel[128], gov[64];
        snprintf(rel, sizeof rel, "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_governor", i);
        if (fb__sysfile_read(root, rel, gov, sizeof gov) < 0) continue;
        ++seen;
        if (strcmp(gov, "performance") != 0) return 1;
    }
    return seen ? 0 : -1;
}
#endif /* FB_HAVE_SYSFS */

void fb__sysinfo_moment(const char *root, fb__sysinfo *out) {
    if (!root || !*root) root = "/";
    time_t now = time(NULL);
    struct tm tm;
#if FB_HAVE_WINDOWS
    if (gmtime_s(&tm, &now) == 0)
#else
    if (gmtime_r(&now, &tm))
#endif
        strftime(out->date, sizeof out->date, "%Y-%m-%dT%H:%M:%S+00:00", &tm);
#if FB_HAVE_SYSFS
    char load[256];
    if (fb__sysfile_read(root, "/proc/loadavg", load, sizeof load) >= 0) {
        const char *p = load;
        int k = 0;
        for (; k < 3; ++k) {
            while (*p == ' ') ++p;
            double v = fb__sysfile_decimal(p, &p);
            if (v < 0) break;
            out->load_avg[k] = v;
        }
        out->n_load_avg = k == 3 ? 3 : 0;
    }
#endif
}

void fb__sysinfo_read(const char *root, fb__sysinfo *out) {
    memset(out, 0, sizeof *out);
    if (!root || !*root) root = "/";
    fb__sysinfo_moment(root, out);

#if FB_HAVE_WINDOWS
    fb__sysinfo_platform(out); /* src/machine/machine_win.c */
#else
    if (gethostname(out->host_name, sizeof out->host_name - 1) != 0) out->host_name[0] = '\0';
    out->host_name[sizeof out->host_name - 1] = '\0';
#endif
#if FB_HAVE_LINUX
    ssize_t n = readlink("/proc/self/exe", out->executable, sizeof out->executable - 1);
    out->executable[n > 0 ? (size_t)n : 0] = '\0';
#endif

    double mhz = 0;
#if FB_HAVE_SYSFS
    fb__sys_cpuinfo(root, out, &mhz);
    char val[64];
    if (fb__sysfile_read(root, "/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq", val,
                         sizeof val) >= 0) {
        double khz = fb__sysfile_decimal(val, NULL);
        if (khz > 0) mhz = khz / 1000;
    }
    fb__sys_caches(root, out);
#endif
#if FB_HAVE_POSIX
    if (out->num_cpus <= 0) {
        long c = sysconf(_SC_NPROCESSORS_ONLN);
        out->num_cpus = c > 0 ? (int)c : 0;
    }
#endif
#if FB_HAVE_SYSFS
    out->cpu_scaling = fb__sys_scaling(root, out->num_cpus);
#elif FB_HAVE_WINDOWS
    out->cpu_scaling = -1;
#else
    out->cpu_scaling = -1;
#endif
    if (mhz > 0) out->mhz_per_cpu = fb__sys_ll(mhz + 0.5, 1e12); /* else the platform's, or 0 */
    if (!out->cpu_model[0]) snprintf(out->cpu_model, sizeof out->cpu_model, "unknown");

    out->os = FB_OS_NAME; /* src/platform/config.h: what the program was built for */
    out->arch = FB_ARCH_NAME;
    out->version = fb_version();
    out->compiler = FB__COMPILER;
    out->build_flags = FB__BUILD_FLAGS;
    out->library_build = FB__CALLSITE;
    out->env = NULL; /* attached by the process state */
}
