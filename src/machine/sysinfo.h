/* Machine and build facts: the context of the JSON files (src/machine/sysinfo.c).
 * Read once per process by the process state; writers only read them. */
#ifndef FB_SYSINFO_H
#define FB_SYSINFO_H

#include "base.h"
#include "machine.h"

#define FB__SYS_MAX_CACHES 8
typedef struct fb__cache_info {
    char type[16]; /* "Data", "Instruction", "Unified" */
    int level;
    long long size;  /* bytes */
    int num_sharing; /* logical CPUs sharing it */
} fb__cache_info;

typedef struct fb__sysinfo {
    char date[32]; /* UTC, ISO 8601: 2025-01-31T12:00:00+00:00 */
    char host_name[256];
    char executable[1024]; /* "" when unknown */
    char cpu_model[256];   /* "unknown" when unknown */
    int num_cpus;
    long long mhz_per_cpu; /* 0 when unknown */
    int cpu_scaling;       /* 1 enabled, 0 disabled, -1 unknown */
    int n_load_avg;        /* 0 or 3 */
    double load_avg[3];
    size_t n_caches;
    fb__cache_info caches[FB__SYS_MAX_CACHES];
    const char *os;            /* FB_OS_NAME: "linux", "windows", "macos", ... */
    const char *arch;          /* FB_ARCH_NAME: "x86_64", "aarch64", ... */
    const char *version;       /* fb_version() */
    const char *compiler;      /* of the library, e.g. "gcc 12.2.0" */
    const char *build_flags;   /* FB_BUILD_FLAGS, or "unknown" */
    int library_build;         /* FB__CALLSITE bits of the library itself */
    const fb__env_report *env; /* warnings; NULL when the checks did not run */
} fb__sysinfo;

/* Reads the facts of this machine (root: "/" normally, a fake tree in tests;
 * host name, executable and date always come from the running system).
 * out->env is left NULL: the process state attaches its report. */
FB__PRIVATE void fb__sysinfo_read(const char *root, fb__sysinfo *out);
/* Only the facts of the moment, date and load average (the rest of out is
 * left alone): the process state takes them at the first run and reads the
 * rest when a writer asks, since /proc/cpuinfo and the cache files cost
 * about 0.4 ms, a tenth of a process that runs one benchmark. */
FB__PRIVATE void fb__sysinfo_moment(const char *root, fb__sysinfo *out);
#if FB_HAVE_WINDOWS
/* The Windows facts (src/machine/machine_win.c): host, executable, CPU name, rated
 * MHz and core count. */
FB__PRIVATE void fb__sysinfo_platform(fb__sysinfo *out);
#endif

#endif
