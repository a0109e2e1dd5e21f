/* The machine checks that read Linux's /sys and /proc (docs/environment.md).
 * Every check reads small text files under a root directory: "/" in a real
 * run, a fake tree in the tests. A file that is missing, unreadable or not in
 * the expected shape means "unknown", which is never a warning. Even the
 * process's CPU affinity and capabilities come from files
 * (/proc/thread-self/status), so the tests can fake them too. */
#include "machine.h"

#include "numfmt.h"
#include "sysfile.h"

#if FB_HAVE_SYSFS

#include <ctype.h>
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fb__env_read_long(const char *root, const char *rel, long long *v) {
    char buf[64];
    if (fb__sysfile_read(root, rel, buf, sizeof buf) <= 0) return -1;
    return fb__sysfile_parse_long(buf, v);
}

/* The cpuN directories under sys/devices/system/cpu; -1 when unknown. */
static int fb__env_list_cpus(const char *root, fb__cpuset *s) {
    char path[4096];
    memset(s, 0, sizeof *s);
    if (fb__sysfile_path(path, sizeof path, root, "sys/devices/system/cpu")) return -1;
    DIR *d = opendir(path);
    if (!d) return -1;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        long long n;
        if (strncmp(e->d_name, "cpu", 3) == 0 && e->d_name[3] != '-' &&
            fb__sysfile_parse_long(e->d_name + 3, &n) == 0)
            fb__cpuset_add(s, n);
    }
    closedir(d);
    return 0;
}

/* ---------------------------------------------------------- checks */

#define FB__ENV_GOVS 4

/* Frequency range and governor of every CPU, and per-CPU boost. */
static void fb__env_check_cpufreq(const char *root, const fb__cpuset *cpus, fb__cpuset *boost_on,
                                  fb__env_report *out) {
    fb__cpuset scaling;
    fb__cpuset gov_cpus[FB__ENV_GOVS];
    char gov_name[FB__ENV_GOVS][32];
    int n_gov = 0, gov_more = 0, any_scaling = 0;
    long long lo = 0, hi = 0;
    memset(&scaling, 0, sizeof scaling);
    memset(boost_on, 0, sizeof *boost_on);
    for (long c = fb__cpuset_next(cpus, 0); c >= 0; c = fb__cpuset_next(cpus, c + 1)) {
        char rel[128], buf[64];
        long long mn, mx, bo;
        snprintf(rel, sizeof rel, "sys/devices/system/cpu/cpu%ld/cpufreq/scaling_min_freq", c);
        int ok = fb__env_read_long(root, rel, &mn) == 0;
        snprintf(rel, sizeof rel, "sys/devices/system/cpu/cpu%ld/cpufreq/scaling_max_freq", c);
        if (ok && fb__env_read_long(root, rel, &mx) == 0 && mn != mx) {
            if (!any_scaling || mn < lo) lo = mn;
            if (!any_scaling || mx > hi) hi = mx;
            any_scaling = 1;
            fb__cpuset_add(&scaling, c);
        }
        snprintf(rel, sizeof rel, "sys/devices/system/cpu/cpu%ld/cpufreq/scaling_governor", c);
        if (fb__sysfile_read(root, rel, buf, sizeof buf) > 0 && strcmp(buf, "performance") != 0) {
            int g = 0;
            while (g < n_gov && strcmp(gov_name[g], buf) != 0) ++g;
            if (g == n_gov) {
                if (n_gov < FB__ENV_GOVS) {
                    memset(&gov_cpus[g], 0, sizeof gov_cpus[g]);
                    snprintf(gov_name[g], sizeof gov_name[g], "%.31s", buf);
                    ++n_gov;
                } else {
                    g = FB__ENV_GOVS - 1;
                    gov_more = 1;
                }
            }
            fb__cpuset_add(&gov_cpus[g], c);
        }
        snprintf(rel, sizeof rel, "sys/devices/system/cpu/cpu%ld/cpufreq/boost", c);
        if (fb__env_read_long(root, rel, &bo) == 0 && bo == 1) fb__cpuset_add(boost_on, c);
    }
    if (any_scaling) {
        char list[96], fix[200];
        fb__cpuset_format(&scaling, list, sizeof list);
        snprintf(fix, sizeof fix,
                 "raise the minimum to the maximum: sudo cpupower frequency-set -d %lldMHz "
                 "(or: pyperf system tune)",
                 hi / 1000);
        fb__env_add(out, fix, "CPU frequency scaling: %s between %lld and %lld MHz", list,
                    lo / 1000, hi / 1000);
    }
    if (n_gov) {
        char what[200];
        size_t used = 0;
        for (int g = 0; g < n_gov; ++g) {
            /* share the line between the governors: each list gets its part */
            char list[128];
            size_t room = 150 / (size_t)n_gov, name_len = strlen(gov_name[g]) + 16;
            room = room > name_len + 12 ? room - name_len : 12;
            fb__cpuset_format(&gov_cpus[g], list, room < sizeof list ? room : sizeof list);
            int w = snprintf(what + used, sizeof what - used, "%s'%s'%s on %s", g ? ", " : "",
                             gov_name[g], (gov_more && g == n_gov - 1) ? " and others" : "", list);
            if (w < 0 || (size_t)w >= sizeof what - used) break;
            used += (size_t)w;
        }
        fb__env_add(out, "sudo cpupower frequency-set -g performance",
                    "CPU governor %s (want 'performance')", what);
    }
}

/* Turbo / boost: Intel pstate, AMD pstate, the generic cpufreq switch and the
 * per-CPU (per-policy) switch of newer kernels. One warning, every source. */
static void fb__env_check_boost(const char *root, const fb__cpuset *boost_on, fb__env_report *out) {
    char srcs[160] = "", buf[64], status[32] = "";
    const char *fix = NULL;
    long long v;
    size_t used = 0;
#define FB__ENV_SRC(...)                                                                           \
    do {                                                                                           \
        int w_ = snprintf(srcs + used, sizeof srcs - used, __VA_ARGS__);                           \
        if (w_ > 0 && (size_t)w_ < sizeof srcs - used) used += (size_t)w_;                         \
    } while (0)
    if (fb__env_read_long(root, "sys/devices/system/cpu/intel_pstate/no_turbo", &v) == 0 &&
        v == 0) {
        FB__ENV_SRC("%sintel_pstate/no_turbo = 0", used ? ", " : "");
        fix = "echo 1 | sudo tee /sys/devices/system/cpu/intel_pstate/no_turbo";
    }
    if (fb__sysfile_read(root, "sys/devices/system/cpu/amd_pstate/cpb_boost", buf, sizeof buf) >
            0 &&
        (strcmp(buf, "1") == 0 || strcmp(buf, "enabled") == 0)) {
        FB__ENV_SRC("%samd_pstate/cpb_boost = %s", used ? ", " : "", buf);
        if (!fix) fix = "echo 0 | sudo tee /sys/devices/system/cpu/amd_pstate/cpb_boost";
    }
    if (fb__env_read_long(root, "sys/devices/system/cpu/cpufreq/boost", &v) == 0 && v == 1) {
        FB__ENV_SRC("%scpufreq/boost = 1", used ? ", " : "");
        if (!fix) fix = "echo 0 | sudo tee /sys/devices/system/cpu/cpufreq/boost";
    }
    if (fb__cpuset_count(boost_on)) {
        char list[80];
        fb__cpuset_format(boost_on, list, sizeof list);
        FB__ENV_SRC("%sper-CPU boost = 1 on %s", used ? ", " : "", list);
        if (!fix) fix = "echo 0 | sudo tee /sys/devices/system/cpu/cpu*/cpufreq/boost";
    }
#undef FB__ENV_SRC
    if (!fix) return;
    if (fb__sysfile_read(root, "sys/devices/system/cpu/amd_pstate/status", status, sizeof status) >
            0 &&
        strcmp(status, "disable") != 0)
        fb__env_add(out, fix, "turbo/boost enabled: %s (amd-pstate %s)", srcs, status);
    else
        fb__env_add(out, fix, "turbo/boost enabled: %s", srcs);
}

/* The "hypervisor" CPU flag (x86), or Xen's /sys/hypervisor/type. */
static void fb__env_check_hypervisor(const char *root, fb__env_report *out) {
    char path[4096], buf[64];
    int vm = 0;
    if (fb__sysfile_path(path, sizeof path, root, "proc/cpuinfo") == 0) {
        FILE *f = fopen(path, "r");
        if (f) {
            char *line = NULL;
            size_t cap = 0;
            while (getline(&line, &cap, f) > 0) {
                if (strncmp(line, "flags", 5) != 0) continue;
                char *p = strchr(line, ':');
                for (p = p ? p + 1 : line + 5; *p;) {
                    while (*p && isspace((unsigned char)*p)) ++p;
                    size_t n = 0;
                    while (p[n] && !isspace((unsigned char)p[n])) ++n;
                    if (n == 10 && strncmp(p, "hypervisor", 10) == 0) vm = 1;
                    p += n;
                }
                break; /* the first CPU's flags are enough */
            }
            free(line);
            fclose(f);
        }
    }
    if (!vm && fb__sysfile_read(root, "sys/hypervisor/type", buf, sizeof buf) > 0) vm = 1;
    if (vm)
        fb__env_add(
            out, "expect noise from the host and other guests; measure final numbers on bare metal",
            "running in a virtual machine (hypervisor detected)");
}

#if FB_HAVE_PERF_EVENTS
/* PMUs that exist on machines without core hardware counters. A machine is
 * only called counter-less when every PMU it lists is one of these, so an
 * unknown name (another architecture's core PMU) never causes a warning. */
static int fb__env_pmu_is_not_core(const char *name) {
    static const char *const fb__env_non_core[] = {
        "software",    "tracepoint", "breakpoint", "uprobe",    "kprobe",    "msr",   "power",
        "cstate_core", "cstate_pkg", "intel_pt",   "intel_bts", "ibs_fetch", "ibs_op"};
    for (size_t i = 0; i < sizeof fb__env_non_core / sizeof *fb__env_non_core; ++i)
        if (strcmp(name, fb__env_non_core[i]) == 0) return 1;
    return strncmp(name, "uncore", 6) == 0 || strncmp(name, "amd_", 4) == 0;
}

/* CAP_SYS_ADMIN (21) or CAP_PERFMON (38) in a "CapEff:" hex mask. */
static int fb__env_caps_allow_perf(const char *hex) {
    uint64_t caps = 0;
    for (; *hex; ++hex) {
        int d = isdigit((unsigned char)*hex)   ? *hex - '0'
                : (*hex >= 'a' && *hex <= 'f') ? *hex - 'a' + 10
                : (*hex >= 'A' && *hex <= 'F') ? *hex - 'A' + 10
                                               : -1;
        if (d < 0) return 0;
        caps = (caps << 4) | (uint64_t)d;
    }
    return (int)(((caps >> 21) | (caps >> 38)) & 1);
}
#endif

/* Looks up "Key:" in proc/thread-self/status (the calling thread, which is
 * what sched_getaffinity sees), falling back to proc/self/status. */
static int fb__env_status_field(const char *root, const char *key, char *val, size_t len) {
    static const char *const fb__env_status_files[] = {"proc/thread-self/status",
                                                       "proc/self/status"};
    size_t klen = strlen(key);
    for (size_t i = 0; i < 2; ++i) {
        char path[4096];
        if (fb__sysfile_path(path, sizeof path, root, fb__env_status_files[i])) continue;
        FILE *f = fopen(path, "r");
        if (!f) continue;
        char line[4096];
        int found = -1;
        while (found < 0 && fgets(line, sizeof line, f)) {
            if (strncmp(line, key, klen) != 0 || line[klen] != ':') continue;
            char *p = line + klen + 1;
            size_t n = strlen(p);
            int whole = n && p[n - 1] == '\n';
            while (*p == ' ' || *p == '\t') ++p;
            n = strlen(p);
            while (n && isspace((unsigned char)p[n - 1])) --n;
            p[n] = '\0';
            /* a cut value (longer than a buffer) would be wrong, not short */
            found = (whole || feof(f)) && n < len ? 0 : -2;
            if (found == 0) memcpy(val, p, n + 1);
        }
        fclose(f);
        return found == 0 ? 0 : -1;
    }
    return -1;
}

static void fb__env_check_counters(const char *root, fb__env_report *out) {
#if FB_HAVE_PERF_EVENTS
    char path[4096];
    long long paranoid;
    if (fb__sysfile_path(path, sizeof path, root, "sys/bus/event_source/devices") == 0) {
        DIR *d = opendir(path);
        if (d) {
            int listed = 0, core = 0;
            struct dirent *e;
            while ((e = readdir(d)) != NULL) {
                if (e->d_name[0] == '.') continue;
                ++listed;
                if (!fb__env_pmu_is_not_core(e->d_name)) core = 1;
            }
            closedir(d);
            if (listed && !core)
                fb__env_add(
                    out,
                    "instructions and cycles cannot be counted; in a VM enable the virtual PMU "
                    "(e.g. KVM -cpu host), or use bare metal",
                    "no hardware counters: no CPU PMU in /sys/bus/event_source/devices");
        }
    }
    if (fb__env_read_long(root, "proc/sys/kernel/perf_event_paranoid", &paranoid) == 0 &&
        paranoid > 2) {
        char caps[64];
        if (fb__env_status_field(root, "CapEff", caps, sizeof caps) == 0 &&
            fb__env_caps_allow_perf(caps))
            return;
        fb__env_add(out,
                    "sudo sysctl kernel.perf_event_paranoid=2 (lets users count their own code)",
                    "hardware counters blocked: kernel.perf_event_paranoid = %lld", paranoid);
    }
#else
    (void)root;
    (void)out;
#endif
}

/* 1-minute load average above the number of online CPUs. */
static void fb__env_check_load(const char *root, const fb__cpuset *cpus, fb__env_report *out) {
    char buf[128];
    fb__cpuset online;
    long ncpu;
    if (fb__sysfile_read(root, "sys/devices/system/cpu/online", buf, sizeof buf) > 0 &&
        fb__cpuset_parse(&online, buf) == 0)
        ncpu = fb__cpuset_count(&online);
    else
        ncpu = fb__cpuset_count(cpus);
    if (ncpu <= 0 || fb__sysfile_read(root, "proc/loadavg", buf, sizeof buf) <= 0) return;
    /* "12.34 ..." parsed by hand: strtod would follow the locale's decimal point */
    const char *p = buf;
    double load = 0, scale = 0.1;
    if (!isdigit((unsigned char)*p)) return;
    for (; isdigit((unsigned char)*p); ++p) load = 10 * load + (*p - '0');
    if (*p == '.')
        for (++p; isdigit((unsigned char)*p); ++p, scale /= 10) load += scale * (*p - '0');
    if (*p && !isspace((unsigned char)*p)) return;
    if (load > (double)ncpu) {
        char load_s[64]; /* '.' whatever the locale */
        fb__fmt_fixed(load_s, sizeof load_s, load, 2);
        fb__env_add(out, "wait for other jobs to finish (see top), or use an idle machine",
                    "high system load: %s over the last minute on %ld CPU%s", load_s, ncpu,
                    ncpu == 1 ? "" : "s");
    }
}

/* Isolated CPUs exist but this thread may run outside them. */
static void fb__env_check_isolated(const char *root, fb__env_report *out) {
    char buf[1024], allowed_s[1024];
    fb__cpuset iso, allowed;
    if (fb__sysfile_read(root, "sys/devices/system/cpu/isolated", buf, sizeof buf) <= 0 ||
        fb__cpuset_parse(&iso, buf) != 0 || fb__cpuset_count(&iso) == 0)
        return;
    if (fb__env_status_field(root, "Cpus_allowed_list", allowed_s, sizeof allowed_s) != 0 ||
        fb__cpuset_parse(&allowed, allowed_s) != 0 || fb__cpuset_count(&allowed) == 0)
        return;
    long first_iso = -1;
    int outside = 0;
    first_iso = fb__cpuset_next(&iso, 0);
    for (long c = fb__cpuset_next(&allowed, 0); c >= 0; c = fb__cpuset_next(&allowed, c + 1))
        if (!fb__cpuset_has(&iso, c)) outside = 1;
    if (!outside) return;
    char iso_l[80], all_l[80], fix[200];
    fb__cpuset_format(&iso, iso_l, sizeof iso_l);
    fb__cpuset_format(&allowed, all_l, sizeof all_l);
    snprintf(fix, sizeof fix,
             "pin the benchmark to an isolated CPU, e.g. taskset -c %ld <benchmark>", first_iso);
    fb__env_add(out, fix, "not pinned: isolated %s exist, but this thread may run on %s", iso_l,
                all_l);
}

/* A laptop on battery runs with lower power limits. */
static void fb__env_check_battery(const char *root, fb__env_report *out) {
    char path[4096];
    if (fb__sysfile_path(path, sizeof path, root, "sys/class/power_supply")) return;
    DIR *d = opendir(path);
    if (!d) return;
    struct dirent *e;
    char name[64] = "";
    while ((e = readdir(d)) != NULL) {
        char rel[512], buf[32];
        if (e->d_name[0] == '.') continue;
        snprintf(rel, sizeof rel, "sys/class/power_supply/%s/type", e->d_name);
        if (fb__sysfile_read(root, rel, buf, sizeof buf) <= 0 || strcmp(buf, "Battery") != 0)
            continue;
        snprintf(rel, sizeof rel, "sys/class/power_supply/%s/status", e->d_name);
        if (fb__sysfile_read(root, rel, buf, sizeof buf) > 0 && strcmp(buf, "Discharging") == 0) {
            snprintf(name, sizeof name, "%.63s", e->d_name);
            break;
        }
    }
    closedir(d);
    if (name[0])
        fb__env_add(out,
                    "plug in the power supply: on battery the CPU runs with lower power limits",
                    "running on battery (%s discharging)", name);
}

void fb__env_check(const char *root, int callsite, fb__env_report *out) {
    memset(out, 0, sizeof *out);
    fb__env_check_build(callsite, out);
    if (!root || !*root) root = "/";
    fb__cpuset cpus, boost_on;
    if (fb__env_list_cpus(root, &cpus) != 0) memset(&cpus, 0, sizeof cpus);
    fb__env_check_cpufreq(root, &cpus, &boost_on, out);
    fb__env_check_boost(root, &boost_on, out);
    fb__env_check_hypervisor(root, out);
    fb__env_check_counters(root, out);
    fb__env_check_load(root, &cpus, out);
    fb__env_check_isolated(root, out);
    fb__env_check_battery(root, out);
}

#endif /* FB_HAVE_SYSFS */
