/* Environment checks against fake /sys and /proc trees, the once-per-process
 * warning block, FEMTOBENCH_SUPPRESS_WARNINGS and FEMTOBENCH_CONFIG. */
#include "check.h"
#include "fake_sysfs.h"
#include "internal.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/* ------------------------------------------------------------ fake trees */

/* FEMTOBENCH_CONFIG text into b's env layer (b NULL: only checked). */
static int parse_into(fb_bench *b, const char *text, FILE *err) {
    return fb__config_parse(text, b ? &b->layers[FB__LAYER_ENV] : NULL, err);
}

/* The process state reads the environment once: tests that change it ask
 * for a fresh read. */
static bool suppressed_now(void) {
    fb__process_reload();
    return fb__process_suppressed();
}

/* The first run's step of the process state: check, record, print once. */
static const fb__env_report *warn_once(FILE *f, int callsite) {
    fb__process_first_run(f, callsite);
    return fb__process_env_report();
}

static char root_[64];

static void new_root(void) {
    snprintf(root_, sizeof root_, "/tmp/fb_test_env_XXXXXX");
    if (!mkdtemp(root_)) {
        perror("mkdtemp");
        exit(1);
    }
}

static void mkdirs(const char *rel) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s/.keep", root_, rel);
    fake_sysfs_put(root_, path + strlen(root_) + 1, "");
    unlink(path);
}

static void cpu_file(int cpu, const char *name, const char *content) {
    char rel[256];
    snprintf(rel, sizeof rel, "sys/devices/system/cpu/cpu%d/cpufreq/%s", cpu, name);
    fake_sysfs_put(root_, rel, content);
}

static fb__env_report rep_;

static fb__env_report *check(int callsite) {
    fb__env_check(root_, callsite, &rep_);
    return &rep_;
}

/* The warning whose text contains s, or NULL. */
static const fb__env_warning *find(const fb__env_report *r, const char *s) {
    for (size_t i = 0; i < r->count; ++i)
        if (strstr(r->w[i].what, s)) return &r->w[i];
    return NULL;
}

static void check_all_have_fixes(const fb__env_report *r) {
    for (size_t i = 0; i < r->count; ++i) {
        CHECK(r->w[i].what[0] != '\0');
        CHECK(r->w[i].fix[0] != '\0');
    }
}

/* --------------------------------------------------------------- checks */

static void test_empty_and_missing_roots(void) {
    new_root();
    CHECK(check(-1)->count == 0);
    CHECK(check(0)->count == 0);     /* call site unknown */
    CHECK(check(3 | 4)->count == 0); /* optimized, NDEBUG */
    fb__env_check("/nonexistent/fb_root", -1, &rep_);
    CHECK(rep_.count == 0);
    /* directories without the files, and empty files: still unknown */
    mkdirs("sys/devices/system/cpu/cpu0/cpufreq");
    mkdirs("sys/bus/event_source/devices");
    mkdirs("sys/class/power_supply/BAT0");
    fake_sysfs_put(root_, "proc/cpuinfo", "");
    fake_sysfs_put(root_, "proc/loadavg", "");
    fake_sysfs_put(root_, "proc/sys/kernel/perf_event_paranoid", "");
    fake_sysfs_put(root_, "sys/devices/system/cpu/isolated", "\n");
    fake_sysfs_put(root_, "sys/devices/system/cpu/intel_pstate/no_turbo", "");
    fake_sysfs_put(root_, "sys/devices/system/cpu/cpufreq/boost", "");
    cpu_file(0, "scaling_governor", "\n");
    cpu_file(0, "scaling_min_freq", "");
    cpu_file(0, "scaling_max_freq", "");
    CHECK(check(-1)->count == 0);
    fake_sysfs_remove(root_);
}

static void test_build(void) {
    new_root();
    const fb__env_warning *w;
    CHECK(check(1)->count == 1);
    CHECK((w = find(&rep_, "unoptimized build")) != NULL);
    CHECK(w && strstr(w->what, "NDEBUG") != NULL);
    CHECK(w && strstr(w->fix, "-O2") != NULL);
    CHECK(check(1 | 4)->count == 1); /* -O0 with NDEBUG: no word on asserts */
    CHECK(find(&rep_, "unoptimized build") && !find(&rep_, "NDEBUG"));
    check_all_have_fixes(&rep_);
    CHECK(check(1 | 2)->count == 0); /* optimized without NDEBUG: not a warning */
    CHECK(check(7)->count == 0);
    CHECK(check(-1)->count == 0);
    CHECK(check(4)->count == 0); /* bit 0 clear: unknown */
#if defined(__OPTIMIZE__)
    CHECK(check(FB__CALLSITE)->count == 0);
#else
    CHECK(check(FB__CALLSITE)->count == 1);
#endif
    fake_sysfs_remove(root_);
}

#if FB_HAVE_SYSFS /* the machine checks; elsewhere only the build check exists */
static void test_frequency_scaling(void) {
    new_root();
    for (int c = 0; c < 12; ++c) {
        cpu_file(c, "scaling_min_freq", c == 1 || c == 2 || c == 10 ? "800000\n" : "3000000\n");
        cpu_file(c, "scaling_max_freq", c == 2 ? "4200000\n" : "3000000\n");
    }
    CHECK(check(-1)->count == 1);
    const fb__env_warning *w = find(&rep_, "CPU frequency scaling");
    CHECK(w != NULL);
    if (w) CHECK_STR(w->what, "CPU frequency scaling: CPUs 1-2,10 between 800 and 4200 MHz");
    if (w) CHECK(strstr(w->fix, "frequency-set -d 4200MHz") != NULL);
    check_all_have_fixes(&rep_);
    /* absent when min == max everywhere */
    for (int c = 0; c < 12; ++c) cpu_file(c, "scaling_min_freq", "3000000\n");
    cpu_file(2, "scaling_max_freq", "3000000\n");
    CHECK(check(-1)->count == 0);
    /* one CPU: singular; an unreadable partner file or garbage: unknown */
    cpu_file(5, "scaling_min_freq", "1000000");
    CHECK(check(-1)->count == 1 && find(&rep_, "scaling: CPU 5 between 1000 and 3000 MHz"));
    cpu_file(5, "scaling_max_freq", "fast");
    CHECK(check(-1)->count == 0);
    fake_sysfs_remove(root_);
}

static void test_governor(void) {
    new_root();
    const char *gov[] = {"performance", "powersave", "powersave", "schedutil", "performance"};
    for (int c = 0; c < 5; ++c) cpu_file(c, "scaling_governor", gov[c]);
    CHECK(check(-1)->count == 1);
    const fb__env_warning *w = find(&rep_, "CPU governor");
    if (w)
        CHECK_STR(
            w->what,
            "CPU governor 'powersave' on CPUs 1-2, 'schedutil' on CPU 3 (want 'performance')");
    else
        CHECK(w != NULL);
    check_all_have_fixes(&rep_);
    for (int c = 0; c < 5; ++c) cpu_file(c, "scaling_governor", "performance\n");
    CHECK(check(-1)->count == 0);
    /* an empty governor is unknown, not "''" (nanobench issue #53) */
    cpu_file(1, "scaling_governor", "");
    CHECK(check(-1)->count == 0);
    fake_sysfs_remove(root_);

    /* many CPUs and governors: compact, truncated, never overflowing */
    new_root();
    const char *many[] = {"a", "b", "c", "d", "e", "f"};
    for (int c = 0; c < 300; ++c) cpu_file(c, "scaling_governor", many[c % 6]);
    CHECK(check(-1)->count == 1);
    CHECK(find(&rep_, "'d' and others on") != NULL);
    CHECK(strlen(rep_.w[0].what) < sizeof rep_.w[0].what);
    fake_sysfs_remove(root_);

    new_root();
    for (int c = 0; c < 64; ++c) cpu_file(c, "scaling_governor", "ondemand");
    CHECK(check(-1)->count == 1 && find(&rep_, "'ondemand' on CPUs 0-63 (want"));
    fake_sysfs_remove(root_);
}

static void test_boost(void) {
    new_root();
    fake_sysfs_put(root_, "sys/devices/system/cpu/intel_pstate/no_turbo", "0\n");
    CHECK(check(-1)->count == 1);
    const fb__env_warning *w = find(&rep_, "turbo/boost enabled: intel_pstate/no_turbo = 0");
    CHECK(w != NULL);
    CHECK(w && strstr(w->fix, "intel_pstate/no_turbo") != NULL);
    fake_sysfs_put(root_, "sys/devices/system/cpu/intel_pstate/no_turbo", "1\n");
    CHECK(check(-1)->count == 0);
    fake_sysfs_remove(root_);

    new_root();
    fake_sysfs_put(root_, "sys/devices/system/cpu/cpufreq/boost", "1\n");
    CHECK(check(-1)->count == 1 && find(&rep_, "turbo/boost enabled: cpufreq/boost = 1"));
    CHECK(strstr(rep_.w[0].fix, "/sys/devices/system/cpu/cpufreq/boost") != NULL);
    fake_sysfs_put(root_, "sys/devices/system/cpu/cpufreq/boost", "0\n");
    CHECK(check(-1)->count == 0);
    fake_sysfs_remove(root_);

    /* AMD: the cpb_boost file of some kernels, the per-policy boost of newer
     * ones, and the pstate mode for context */
    new_root();
    fake_sysfs_put(root_, "sys/devices/system/cpu/amd_pstate/status", "active\n");
    CHECK(check(-1)->count == 0); /* the mode alone says nothing */
    fake_sysfs_put(root_, "sys/devices/system/cpu/amd_pstate/cpb_boost", "enabled\n");
    CHECK(check(-1)->count == 1 &&
          find(&rep_, "turbo/boost enabled: amd_pstate/cpb_boost = enabled (amd-pstate active)"));
    fake_sysfs_put(root_, "sys/devices/system/cpu/amd_pstate/cpb_boost", "disabled\n");
    CHECK(check(-1)->count == 0);
    fake_sysfs_put(root_, "sys/devices/system/cpu/amd_pstate/cpb_boost", "1\n");
    CHECK(check(-1)->count == 1);
    fake_sysfs_put(root_, "sys/devices/system/cpu/amd_pstate/cpb_boost", "0\n");
    for (int c = 0; c < 4; ++c) cpu_file(c, "boost", c < 2 ? "1\n" : "0\n");
    CHECK(check(-1)->count == 1);
    CHECK(find(&rep_, "turbo/boost enabled: per-CPU boost = 1 on CPUs 0-1 (amd-pstate active)") !=
          NULL);
    fake_sysfs_put(root_, "sys/devices/system/cpu/cpufreq/boost", "1\n");
    CHECK(check(-1)->count == 1); /* still one warning, both sources named */
    CHECK(find(&rep_, "cpufreq/boost = 1, per-CPU boost = 1 on CPUs 0-1") != NULL);
    fake_sysfs_put(root_, "sys/devices/system/cpu/amd_pstate/status", "disable\n");
    fake_sysfs_put(root_, "sys/devices/system/cpu/cpufreq/boost", "0\n");
    cpu_file(0, "boost", "0");
    cpu_file(1, "boost", "0");
    CHECK(check(-1)->count == 0);
    fake_sysfs_remove(root_);
}

static void test_hypervisor(void) {
    new_root();
    fake_sysfs_put(root_, "proc/cpuinfo",
                   "processor\t: 0\nvendor_id\t: GenuineIntel\n"
                   "flags\t\t: fpu vme de pse tsc msr hypervisor lahf_lm\n\n"
                   "processor\t: 1\nflags\t\t: fpu\n");
    CHECK(check(-1)->count == 1 && find(&rep_, "virtual machine"));
    check_all_have_fixes(&rep_);
    fake_sysfs_put(root_, "proc/cpuinfo",
                   "processor\t: 0\nflags\t\t: fpu vme hypervisorx xhypervisor\n");
    CHECK(check(-1)->count == 0);
    fake_sysfs_put(root_, "proc/cpuinfo",
                   "processor\t: 0\nFeatures\t: fp asimd evtstrm\n"); /* arm64 */
    CHECK(check(-1)->count == 0);
    fake_sysfs_put(root_, "sys/hypervisor/type", "xen\n");
    CHECK(check(-1)->count == 1 && find(&rep_, "virtual machine"));
    fake_sysfs_remove(root_);
}

static void test_counters(void) {
#if FB_HAVE_PERF_EVENTS
    new_root();
    mkdirs("sys/bus/event_source/devices/software");
    mkdirs("sys/bus/event_source/devices/tracepoint");
    mkdirs("sys/bus/event_source/devices/breakpoint");
    mkdirs("sys/bus/event_source/devices/uprobe");
    mkdirs("sys/bus/event_source/devices/msr");
    CHECK(check(-1)->count == 1 && find(&rep_, "no hardware counters"));
    check_all_have_fixes(&rep_);
    mkdirs("sys/bus/event_source/devices/cpu");
    CHECK(check(-1)->count == 0);
    fake_sysfs_remove(root_);

    /* another architecture's (or hybrid Intel's) core PMU name counts too */
    new_root();
    mkdirs("sys/bus/event_source/devices/software");
    mkdirs("sys/bus/event_source/devices/armv8_pmuv3_0");
    CHECK(check(-1)->count == 0);
    fake_sysfs_remove(root_);
    new_root();
    mkdirs("sys/bus/event_source/devices/cpu_core");
    mkdirs("sys/bus/event_source/devices/cpu_atom");
    mkdirs("sys/bus/event_source/devices/uncore_imc_0");
    CHECK(check(-1)->count == 0);
    fake_sysfs_remove(root_);

    new_root();
    fake_sysfs_put(root_, "proc/sys/kernel/perf_event_paranoid", "3\n");
    CHECK(check(-1)->count == 1 && find(&rep_, "perf_event_paranoid = 3"));
    check_all_have_fixes(&rep_);
    fake_sysfs_put(root_, "proc/thread-self/status", "Name:\tx\nCapEff:\t0000000000000000\n");
    CHECK(check(-1)->count == 1);
    fake_sysfs_put(root_, "proc/thread-self/status",
                   "Name:\tx\nCapEff:\t0000004000000000\n"); /* CAP_PERFMON */
    CHECK(check(-1)->count == 0);
    fake_sysfs_put(root_, "proc/thread-self/status",
                   "Name:\tx\nCapEff:\t0000000000200000\n"); /* CAP_SYS_ADMIN */
    CHECK(check(-1)->count == 0);
    fake_sysfs_put(root_, "proc/sys/kernel/perf_event_paranoid", "2\n");
    fake_sysfs_put(root_, "proc/thread-self/status", "CapEff:\t0000000000000000\n");
    CHECK(check(-1)->count == 0);
    fake_sysfs_put(root_, "proc/sys/kernel/perf_event_paranoid", "-1\n");
    CHECK(check(-1)->count == 0);
    fake_sysfs_remove(root_);
#endif
}

static void test_load(void) {
    new_root();
    fake_sysfs_put(root_, "sys/devices/system/cpu/online", "0-3\n");
    fake_sysfs_put(root_, "proc/loadavg", "4.50 3.00 2.00 5/300 1234\n");
    CHECK(check(-1)->count == 1);
    const fb__env_warning *w = find(&rep_, "high system load");
    if (w)
        CHECK_STR(w->what, "high system load: 4.50 over the last minute on 4 CPUs");
    else
        CHECK(w != NULL);
    check_all_have_fixes(&rep_);
    fake_sysfs_put(root_, "proc/loadavg", "4.00 9.00 9.00 1/300 1234\n"); /* equal is fine */
    CHECK(check(-1)->count == 0);
    fake_sysfs_put(root_, "proc/loadavg", "0.25 0.10 0.05 1/300 1234\n");
    CHECK(check(-1)->count == 0);
    fake_sysfs_put(root_, "proc/loadavg", "lots\n");
    CHECK(check(-1)->count == 0);
    /* without the online list: the cpuN directories */
    fake_sysfs_put(root_, "proc/loadavg", "2.5 0 0 1/1 1\n");
    fake_sysfs_put(root_, "sys/devices/system/cpu/online", "garbage");
    mkdirs("sys/devices/system/cpu/cpu0");
    mkdirs("sys/devices/system/cpu/cpu1");
    mkdirs("sys/devices/system/cpu/cpufreq"); /* not a CPU */
    CHECK(check(-1)->count == 1 && find(&rep_, "2.50 over the last minute on 2 CPUs"));
    mkdirs("sys/devices/system/cpu/cpu2");
    CHECK(check(-1)->count == 0);
    fake_sysfs_remove(root_);
    /* no CPU count at all: unknown */
    new_root();
    fake_sysfs_put(root_, "proc/loadavg", "99.0 0 0 1/1 1\n");
    CHECK(check(-1)->count == 0);
    fake_sysfs_remove(root_);
}

static void test_isolated(void) {
    new_root();
    fake_sysfs_put(root_, "sys/devices/system/cpu/isolated", "2-3\n");
    CHECK(check(-1)->count == 0); /* affinity unknown */
    fake_sysfs_put(root_, "proc/thread-self/status",
                   "Name:\tx\nCpus_allowed:\tf\nCpus_allowed_list:\t0-3\n");
    CHECK(check(-1)->count == 1);
    const fb__env_warning *w = find(&rep_, "not pinned");
    if (w) {
        CHECK_STR(w->what,
                  "not pinned: isolated CPUs 2-3 exist, but this thread may run on CPUs 0-3");
        CHECK(strstr(w->fix, "taskset -c 2 ") != NULL);
    } else {
        CHECK(w != NULL);
    }
    fake_sysfs_put(root_, "proc/thread-self/status", "Cpus_allowed_list:\t3\n");
    CHECK(check(-1)->count == 0);
    fake_sysfs_put(root_, "proc/thread-self/status", "Cpus_allowed_list:\t2-3\n");
    CHECK(check(-1)->count == 0);
    fake_sysfs_put(root_, "proc/thread-self/status",
                   "Cpus_allowed_list:\t0-1\n"); /* outside the isolated set */
    CHECK(check(-1)->count == 1);
    { /* a list too long to read whole is unknown, not cut short */
        static char status[6000];
        size_t n = (size_t)snprintf(status, sizeof status, "Cpus_allowed_list:\t0");
        while (n < 5000) n += (size_t)snprintf(status + n, sizeof status - n, ",%zu", n);
        snprintf(status + n, sizeof status - n, "\nCapEff:\t0\n");
        fake_sysfs_put(root_, "proc/thread-self/status", status);
        CHECK(check(-1)->count == 0);
        fake_sysfs_put(root_, "proc/thread-self/status",
                       "Cpus_allowed_list:\t0-1"); /* no newline at the end */
        CHECK(check(-1)->count == 1);
    }
    /* sets across 64-CPU words, up to the last CPU a set holds */
    fake_sysfs_put(root_, "sys/devices/system/cpu/isolated", "63-64,8191\n");
    fake_sysfs_put(root_, "proc/thread-self/status", "Cpus_allowed_list:\t0,127-129,8191\n");
    CHECK(check(-1)->count == 1);
    w = find(&rep_, "not pinned");
    if (w) {
        CHECK_STR(w->what, "not pinned: isolated CPUs 63-64,8191 exist, but this thread may run "
                           "on CPUs 0,127-129,8191");
        CHECK(strstr(w->fix, "taskset -c 63 ") != NULL);
    } else {
        CHECK(w != NULL);
    }
    fake_sysfs_put(root_, "proc/thread-self/status",
                   "Cpus_allowed_list:\t64,8191\n"); /* inside the set */
    CHECK(check(-1)->count == 0);
    fake_sysfs_put(root_, "sys/devices/system/cpu/isolated", "\n");
    CHECK(check(-1)->count == 0);
    fake_sysfs_put(root_, "sys/devices/system/cpu/isolated", "2-x\n");
    CHECK(check(-1)->count == 0);
    fake_sysfs_remove(root_);
    /* older kernels: no thread-self, the process's status */
    new_root();
    fake_sysfs_put(root_, "sys/devices/system/cpu/isolated", "1\n");
    fake_sysfs_put(root_, "proc/self/status", "Cpus_allowed_list:\t0-1\n");
    CHECK(check(-1)->count == 1 && find(&rep_, "isolated CPU 1 exist"));
    fake_sysfs_remove(root_);
}

static void test_battery(void) {
    new_root();
    fake_sysfs_put(root_, "sys/class/power_supply/AC/type", "Mains\n");
    fake_sysfs_put(root_, "sys/class/power_supply/AC/online", "0\n");
    fake_sysfs_put(root_, "sys/class/power_supply/BAT0/type", "Battery\n");
    fake_sysfs_put(root_, "sys/class/power_supply/BAT0/status", "Discharging\n");
    CHECK(check(-1)->count == 1 && find(&rep_, "on battery (BAT0 discharging)"));
    check_all_have_fixes(&rep_);
    fake_sysfs_put(root_, "sys/class/power_supply/BAT0/status", "Charging\n");
    CHECK(check(-1)->count == 0);
    fake_sysfs_put(root_, "sys/class/power_supply/BAT0/status", "Full\n");
    CHECK(check(-1)->count == 0);
    fake_sysfs_remove(root_);
}

static void test_everything_at_once(void) {
    new_root();
    for (int c = 0; c < 2; ++c) {
        cpu_file(c, "scaling_min_freq", "800000");
        cpu_file(c, "scaling_max_freq", "4200000");
        cpu_file(c, "scaling_governor", "powersave");
    }
    fake_sysfs_put(root_, "sys/devices/system/cpu/online", "0-1");
    fake_sysfs_put(root_, "sys/devices/system/cpu/intel_pstate/no_turbo", "0");
    fake_sysfs_put(root_, "proc/cpuinfo", "flags\t: hypervisor\n");
    fake_sysfs_put(root_, "proc/loadavg", "7.0 1 1 1/1 1");
    fake_sysfs_put(root_, "sys/devices/system/cpu/isolated", "1");
    fake_sysfs_put(root_, "proc/thread-self/status", "Cpus_allowed_list:\t0-1\nCapEff:\t0\n");
    fake_sysfs_put(root_, "sys/class/power_supply/BAT1/type", "Battery");
    fake_sysfs_put(root_, "sys/class/power_supply/BAT1/status", "Discharging");
    size_t expect = 8;
#if FB_HAVE_PERF_EVENTS
    mkdirs("sys/bus/event_source/devices/software");
    fake_sysfs_put(root_, "proc/sys/kernel/perf_event_paranoid", "4");
    expect += 2;
#endif
    CHECK(check(1)->count == expect);
    check_all_have_fixes(&rep_);
    fake_sysfs_remove(root_);
    /* the real machine: anything, but no crash and well-formed */
    fb__env_check("/", FB__CALLSITE, &rep_);
    CHECK(rep_.count <= FB__ENV_MAX_WARNINGS);
    check_all_have_fixes(&rep_);
}

#endif

/* ----------------------------------------------------- once per process */

static void test_suppressed(void) {
    unsetenv("FEMTOBENCH_SUPPRESS_WARNINGS");
    CHECK(!suppressed_now());
    setenv("FEMTOBENCH_SUPPRESS_WARNINGS", "", 1);
    CHECK(!suppressed_now());
    setenv("FEMTOBENCH_SUPPRESS_WARNINGS", "0", 1);
    CHECK(!suppressed_now());
    setenv("FEMTOBENCH_SUPPRESS_WARNINGS", "1", 1);
    CHECK(suppressed_now());
    setenv("FEMTOBENCH_SUPPRESS_WARNINGS", "no", 1);
    CHECK(suppressed_now());
    setenv("FEMTOBENCH_SUPPRESS_WARNINGS", "00", 1);
    CHECK(suppressed_now());
    unsetenv("FEMTOBENCH_SUPPRESS_WARNINGS");
}

static size_t count_lines(const char *s) {
    size_t n = 0;
    for (; *s; ++s) n += (*s == '\n');
    return n;
}

/* In a child process, so that the print-once state starts fresh. */
static void in_child(void (*fn)(void)) {
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
        check_failures_ = 0; /* count only the child's own failures */
        fn();
        fflush(stderr);
        _exit(check_failures_ ? 1 : 0);
    }
    int status = 0;
    CHECK(pid > 0 && waitpid(pid, &status, 0) == pid);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

static void child_prints_block_once(void) {
    char *buf = NULL, *buf2 = NULL;
    size_t len = 0, len2 = 0;
    unsetenv("FEMTOBENCH_SUPPRESS_WARNINGS");
    fb__process_reload();
    CHECK(fb__process_env_report() == NULL);
    FILE *f = open_memstream(&buf, &len);
    /* call site 1 (unoptimized): at least one warning on any machine */
    const fb__env_report *r = warn_once(f, 1);
    fclose(f);
    CHECK(r != NULL && r == fb__process_env_report());
    CHECK(r && r->count >= 1 && find(r, "unoptimized build"));
    const char *head = "femtobench: warning: results may be unstable:\n";
    CHECK(buf && strncmp(buf, head, strlen(head)) == 0);
    CHECK(buf && r && count_lines(buf) == 1 + 2 * r->count);
    CHECK(buf && strstr(buf, "\n  - unoptimized build") != NULL);
    CHECK(buf && strstr(buf, "\n    compile the benchmark with optimization") != NULL);
    /* a second call: same report, nothing printed, even with another call site */
    f = open_memstream(&buf2, &len2);
    CHECK(warn_once(f, 3) == r);
    fclose(f);
    CHECK(len2 == 0);
    free(buf);
    free(buf2);
}

static void child_suppressed_records_silently(void) {
    char *buf = NULL;
    size_t len = 0;
    setenv("FEMTOBENCH_SUPPRESS_WARNINGS", "1", 1);
    fb__process_reload();
    FILE *f = open_memstream(&buf, &len);
    const fb__env_report *r = warn_once(f, 1);
    fclose(f);
    CHECK(len == 0);
    CHECK(r && r->count >= 1 && r == fb__process_env_report()); /* still recorded for JSON */
    free(buf);
}

static void child_null_stream(void) {
    const fb__env_report *r = warn_once(NULL, 1);
    CHECK(r && r->count >= 1);
}

/* ------------------------------------------------------ FEMTOBENCH_CONFIG */

/* Parses text into a fresh bench; err output goes to *msgs. */
static int parse(fb_bench *b, const char *text, char **msgs) {
    size_t len = 0;
    FILE *f = open_memstream(msgs, &len);
    int bad = parse_into(b, text, f);
    fclose(f);
    return bad;
}

static void check_bad(const char *text, const char *entry, const char *reason) {
    fb_bench *b = fb_bench_new();
    char *msgs = NULL, expect[512];
    CHECK(parse(b, text, &msgs) == 1);
    snprintf(expect, sizeof expect, "femtobench: FEMTOBENCH_CONFIG: bad entry '%s': %s\n", entry,
             reason);
    CHECK_STR(msgs, expect);
    CHECK(b->layers[FB__LAYER_ENV].set == 0);
    free(msgs);
    fb_bench_free(b);
}

static void test_config_valid(void) {
    fb_bench *b = fb_bench_new();
    char *msgs = NULL;
    CHECK(parse(b, "epochs=21,min_epoch_time=5ms,warmup=100", &msgs) == 0);
    CHECK_STR(msgs, "");
    free(msgs);
    CHECK(fb__cfg(b, FB__K_EPOCHS) == 21);
    CHECK_NEAR(fb__cfg(b, FB__K_MIN_EPOCH_TIME), 5e-3, 1e-18);
    CHECK(fb__cfg(b, FB__K_WARMUP) == 100);
    CHECK(fb__cfg(b, FB__K_MAX_EPOCH_TIME) ==
          fb__key_info_of(FB__K_MAX_EPOCH_TIME)->def); /* untouched */

    /* whitespace, empty entries, every unit, fractions, every key */
    CHECK(parse_into(b,
                     " ,, epochs = 7 , max_epoch_time= 0.5 s ,min_epoch_time=250us,"
                     "max_total_time=.5ms, epoch_iterations=0,min_epoch_iterations=3,"
                     "clock_resolution_multiple=2000,warmup=0,min_time=0.2s",
                     NULL) == 0);
    CHECK(fb__cfg(b, FB__K_EPOCHS) == 7);
    CHECK_NEAR(fb__cfg(b, FB__K_MAX_EPOCH_TIME), 0.5, 1e-15);
    CHECK_NEAR(fb__cfg(b, FB__K_MIN_EPOCH_TIME), 250e-6, 1e-18);
    CHECK_NEAR(fb__cfg(b, FB__K_MAX_TOTAL_TIME), 0.5e-3, 1e-18);
    CHECK(fb__cfg(b, FB__K_EPOCH_ITERATIONS) == 0);
    CHECK(fb__cfg(b, FB__K_MIN_EPOCH_ITERATIONS) == 3);
    CHECK(fb__cfg(b, FB__K_CLOCK_RESOLUTION_MULTIPLE) == 2000);
    CHECK(fb__cfg(b, FB__K_WARMUP) == 0);
    CHECK_NEAR(fb__cfg(b, FB__K_MIN_TIME), 0.2, 1e-15);
    CHECK(b->layers[FB__LAYER_ENV].set == (1u << FB__K_COUNT) - 1);
    CHECK(parse_into(b, "min_epoch_time=100ns", NULL) == 0);
    CHECK_NEAR(fb__cfg(b, FB__K_MIN_EPOCH_TIME), 100e-9, 1e-20);
    CHECK(parse_into(b, "min_epoch_time=2 ms", NULL) == 0);
    CHECK_NEAR(fb__cfg(b, FB__K_MIN_EPOCH_TIME), 2e-3, 1e-18);
    CHECK(parse_into(b, "warmup=1,warmup=2", NULL) == 0); /* the last wins */
    CHECK(fb__cfg(b, FB__K_WARMUP) == 2);
    CHECK(parse_into(b, "", NULL) == 0);
    CHECK(parse_into(b, NULL, NULL) == 0);
    CHECK(parse_into(b, " , ,", NULL) == 0);
    CHECK(parse_into(NULL, "epochs=3,x", NULL) == 1); /* NULL bench: check only */
    fb_bench_free(b);
}

static void test_config_malformed(void) {
    check_bad("epoch=3", "epoch=3", "unknown key 'epoch' (did you mean 'epochs'?)");
    check_bad(" minEpochTime = 1ms ", "minEpochTime = 1ms",
              "unknown key 'minEpochTime' (did you mean 'min_epoch_time'?)");
    check_bad("max_epoc_tme=1ms", "max_epoc_tme=1ms",
              "unknown key 'max_epoc_tme' (did you mean 'max_epoch_time'?)");
    check_bad("zzz=1", "zzz=1", "unknown key 'zzz'");
    check_bad("title=x", "title=x", "unknown key 'title'");
    check_bad("epochs", "epochs", "expected key=value");
    check_bad("=5", "=5", "expected key=value");
    check_bad("epochs=", "epochs=", "missing value");
    check_bad("epochs=abc", "epochs=abc", "not a number");
    check_bad("epochs=+3", "epochs=+3", "not a number");
    check_bad("epochs=1e3", "epochs=1e3", "not a number");
    check_bad("epochs=0x10", "epochs=0x10", "not a number");
    check_bad("min_epoch_time=1e-3s", "min_epoch_time=1e-3s", "not a number");
    check_bad("min_epoch_time=ms", "min_epoch_time=ms", "not a number");
    check_bad("epochs=-3", "epochs=-3", "negative value");
    check_bad("min_epoch_time=-1ms", "min_epoch_time=-1ms", "negative value");
    check_bad("min_epoch_time=5", "min_epoch_time=5", "missing unit (ns, us, ms or s)");
    check_bad("min_epoch_time=5min", "min_epoch_time=5min", "unknown unit 'min' (ns, us, ms or s)");
    check_bad("min_epoch_time=5MS", "min_epoch_time=5MS", "unknown unit 'MS' (ns, us, ms or s)");
    check_bad("epochs=2.5", "epochs=2.5", "'epochs' takes a whole number");
    check_bad("warmup=10ms", "warmup=10ms", "'warmup' is a count and takes no unit");
    check_bad("epochs=99999999999999999999999", "epochs=99999999999999999999999",
              "number too large");
    check_bad("warmup=18446744073709551615", "warmup=18446744073709551615", "number too large");
    check_bad("max_total_time=99999999999999999999999s", "max_total_time=99999999999999999999999s",
              "number too large");

    /* several bad entries: one line each, and the good ones still apply */
    fb_bench *b = fb_bench_new();
    char *msgs = NULL;
    CHECK(parse(b, "epochs=x,warmup=5,bogus,min_epoch_time=3ms,epochs=-1", &msgs) == 3);
    CHECK_STR(msgs, "femtobench: FEMTOBENCH_CONFIG: bad entry 'epochs=x': not a number\n"
                    "femtobench: FEMTOBENCH_CONFIG: bad entry 'bogus': expected key=value\n"
                    "femtobench: FEMTOBENCH_CONFIG: bad entry 'epochs=-1': negative value\n");
    CHECK(fb__cfg(b, FB__K_WARMUP) == 5);
    CHECK_NEAR(fb__cfg(b, FB__K_MIN_EPOCH_TIME), 3e-3, 1e-18);
    CHECK(fb__cfg(b, FB__K_EPOCHS) == fb__key_info_of(FB__K_EPOCHS)->def);
    free(msgs);
    /* a NULL stream: counted, not printed */
    CHECK(parse_into(b, "a=1,b=2", NULL) == 2);
    fb_bench_free(b);
}

static void test_config_precedence(void) {
    fb_bench *b = fb_bench_new();
    /* code after env, and env after code: code wins either way */
    CHECK(parse_into(b, "epochs=21,warmup=7", NULL) == 0);
    fb_set_epochs(b, 5);
    CHECK(fb__cfg(b, FB__K_EPOCHS) == 5);
    CHECK(fb__cfg(b, FB__K_WARMUP) == 7);
    fb_set_warmup(b, 9);
    CHECK(parse_into(b, "warmup=1", NULL) == 0);
    CHECK(fb__cfg(b, FB__K_WARMUP) == 9);
    /* the runner's command line wins over both */
    fb__cfg_set(b, FB__LAYER_CLI, FB__K_EPOCHS, 3);
    CHECK(parse_into(b, "epochs=30", NULL) == 0);
    CHECK(fb__cfg(b, FB__K_EPOCHS) == 3);
    fb_bench_free(b);
}

/* fb_bench_new applies FEMTOBENCH_CONFIG (read once per process); its bad
 * entries reach the diagnostics stream once, at the first run. */
static void child_apply_config(void) {
    char path[] = "/tmp/fb_test_env_err_XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    if (fd < 0) return;
    setenv("FEMTOBENCH_CONFIG", "epochs=13, bogus=1 ,min_epoch_time=1us", 1);
    setenv("FEMTOBENCH_SUPPRESS_WARNINGS", "1", 1); /* only the config's line */
    fb__process_reload();
    fb_bench *b1 = fb_bench_new();
    /* read once: a later change of the variable changes nothing */
    setenv("FEMTOBENCH_CONFIG", "epochs=5", 1);
    fb_bench *b2 = fb_bench_new();
    CHECK(b1 && fb__cfg(b1, FB__K_EPOCHS) == 13);
    CHECK(b2 && fb__cfg(b2, FB__K_EPOCHS) == 13);
    CHECK(b2 && fabs(fb__cfg(b2, FB__K_MIN_EPOCH_TIME) - 1e-6) < 1e-18);
    CHECK(fb__process_config_errors() == 1);
    FILE *f = fdopen(dup(fd), "w");
    CHECK(f != NULL);
    fb__process_first_run(f, 7);
    fb__process_first_run(f, 7);
    fclose(f);
    fb_bench_free(b1);
    fb_bench_free(b2);
    char text[1024] = "";
    ssize_t n = pread(fd, text, sizeof text - 1, 0);
    text[n > 0 ? n : 0] = '\0';
    CHECK_STR(text, "femtobench: FEMTOBENCH_CONFIG: bad entry 'bogus=1': unknown key 'bogus'\n");
    close(fd);
    unlink(path);
    unsetenv("FEMTOBENCH_CONFIG");
    unsetenv("FEMTOBENCH_SUPPRESS_WARNINGS");
}

int main(void) {
    unsetenv("FEMTOBENCH_CONFIG");
    unsetenv("FEMTOBENCH_SUPPRESS_WARNINGS");
    test_empty_and_missing_roots();
    test_build();
#if FB_HAVE_SYSFS
    test_frequency_scaling();
    test_governor();
    test_boost();
    test_hypervisor();
    test_counters();
    test_load();
    test_isolated();
    test_battery();
    test_everything_at_once();
#endif
    test_suppressed();
    in_child(child_prints_block_once);
    in_child(child_suppressed_records_silently);
    in_child(child_null_stream);
    test_config_valid();
    test_config_malformed();
    test_config_precedence();
    in_child(child_apply_config);
    return CHECK_DONE();
}
