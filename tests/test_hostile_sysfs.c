/* What the machine reports, tried as a hostile (or broken) kernel
 * would report it. Every /proc and /sys file that src/machine/machine_linux.c and
 * src/machine/sysinfo.c read gets, in turn, each odd value below: empty, negative,
 * huge, hundreds of digits, not a number, binary. The checks must neither
 * crash nor hit undefined behaviour (CI runs this under UBSan with
 * -fno-sanitize-recover), and what they report must stay sane. */
#include "check.h"
#include "internal.h"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#if !FB_HAVE_SYSFS
int main(void) {
    (void)check_failures_;
    CHECK_SKIP("no /sys and /proc checks on this platform");
}
#else
#include "fake_sysfs.h" /* POSIX: a fake /sys and /proc tree */

static char root_[64];

/* Every file the checks read (CPU 0 and CPU 1 where per CPU). */
static const char *const files_[] = {
    "proc/cpuinfo",
    "proc/loadavg",
    "proc/thread-self/status",
    "proc/self/status",
    "proc/sys/kernel/perf_event_paranoid",
    "sys/devices/system/cpu/online",
    "sys/devices/system/cpu/isolated",
    "sys/devices/system/cpu/cpufreq/boost",
    "sys/devices/system/cpu/intel_pstate/no_turbo",
    "sys/devices/system/cpu/amd_pstate/cpb_boost",
    "sys/devices/system/cpu/amd_pstate/status",
    "sys/devices/system/cpu/cpu0/cpufreq/scaling_min_freq",
    "sys/devices/system/cpu/cpu0/cpufreq/scaling_max_freq",
    "sys/devices/system/cpu/cpu0/cpufreq/scaling_governor",
    "sys/devices/system/cpu/cpu0/cpufreq/boost",
    "sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq",
    "sys/devices/system/cpu/cpu1/cpufreq/scaling_min_freq",
    "sys/devices/system/cpu/cpu1/cpufreq/scaling_max_freq",
    "sys/devices/system/cpu/cpu0/cache/index0/type",
    "sys/devices/system/cpu/cpu0/cache/index0/level",
    "sys/devices/system/cpu/cpu0/cache/index0/size",
    "sys/devices/system/cpu/cpu0/cache/index0/shared_cpu_list",
    "sys/hypervisor/type",
    "sys/class/power_supply/BAT0/type",
    "sys/class/power_supply/BAT0/status",
};

/* A sane machine: every file present with a plausible value. */
static const char *const sane_[][2] = {
    {"proc/cpuinfo", "processor\t: 0\nmodel name\t: Fake CPU\ncpu MHz\t\t: 2400.000\n"
                     "processor\t: 1\nmodel name\t: Fake CPU\ncpu MHz\t\t: 2400.000\n"},
    {"proc/loadavg", "0.50 0.40 0.30 1/100 1234\n"},
    {"proc/thread-self/status", "Name:\tx\nCpus_allowed_list:\t0-1\nCapEff:\t0000000000000000\n"},
    {"proc/self/status", "Name:\tx\nCpus_allowed_list:\t0-1\nCapEff:\t0000000000000000\n"},
    {"proc/sys/kernel/perf_event_paranoid", "2\n"},
    {"sys/devices/system/cpu/online", "0-1\n"},
    {"sys/devices/system/cpu/isolated", "\n"},
    {"sys/devices/system/cpu/cpufreq/boost", "0\n"},
    {"sys/devices/system/cpu/intel_pstate/no_turbo", "1\n"},
    {"sys/devices/system/cpu/amd_pstate/cpb_boost", "0\n"},
    {"sys/devices/system/cpu/amd_pstate/status", "active\n"},
    {"sys/devices/system/cpu/cpu0/cpufreq/scaling_min_freq", "2400000\n"},
    {"sys/devices/system/cpu/cpu0/cpufreq/scaling_max_freq", "2400000\n"},
    {"sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", "performance\n"},
    {"sys/devices/system/cpu/cpu1/cpufreq/scaling_min_freq", "2400000\n"},
    {"sys/devices/system/cpu/cpu1/cpufreq/scaling_max_freq", "2400000\n"},
    {"sys/devices/system/cpu/cpu1/cpufreq/scaling_governor", "performance\n"},
    {"sys/devices/system/cpu/cpu0/cpufreq/boost", "0\n"},
    {"sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq", "2400000\n"},
    {"sys/devices/system/cpu/cpu0/cache/index0/type", "Data\n"},
    {"sys/devices/system/cpu/cpu0/cache/index0/level", "1\n"},
    {"sys/devices/system/cpu/cpu0/cache/index0/size", "32K\n"},
    {"sys/devices/system/cpu/cpu0/cache/index0/shared_cpu_list", "0\n"},
    {"sys/hypervisor/type", "\n"},
    {"sys/class/power_supply/BAT0/type", "Battery\n"},
    {"sys/class/power_supply/BAT0/status", "Full\n"},
};
#define N_SANE (sizeof sane_ / sizeof sane_[0])

static void sane_tree(void) {
    for (size_t i = 0; i < N_SANE; ++i) fake_sysfs_put(root_, sane_[i][0], sane_[i][1]);
}

/* The sane content of rel ("" when it has none). */
static const char *sane_value(const char *rel) {
    for (size_t i = 0; i < N_SANE; ++i)
        if (!strcmp(sane_[i][0], rel)) return sane_[i][1];
    return "";
}

static char huge_digits_[700];

static const char *odd_values(size_t i) {
    static const char *const v[] = {
        "",
        "\n",
        "-1",
        "-9223372036854775808",
        "-99999999999999999999999999999999",
        "9223372036854775807",
        "9223372036854775808",
        "18446744073709551616",
        "99999999999999999999999999999999999999999999G",
        "1e308",
        "nan",
        "inf",
        "-inf",
        "0x7fffffff",
        "4294967296-4294967297",
        "0-1000000",
        "1000001",
        "5-3",
        ",,,",
        "0-",
        "-0",
        "   \t  ",
        "performance\0hidden",
        "\xff\xfe\x01\x02",
        "Cpus_allowed_list:\t\nCapEff:\tzzzz\n",
        "Cpus_allowed_list:\t99999999999999999999\nCapEff:\tffffffffffffffffffffffffffff\n",
        "processor : 0\ncpu MHz : 1e999\nmodel name :\ncpu MHz : -5\n",
        "cpu MHz : 99999999999999999999999999999999999999999999999999999999999.9\n",
        "99999999999999999999999999999.99999 1e400 -1 1/1 1",
        huge_digits_,
    };
    return i < sizeof v / sizeof *v ? v[i] : NULL;
}

/* Reads the tree with rel holding value, then puts the sane tree back. */
static void one(const char *rel, const char *value) {
    fake_sysfs_put(root_, rel, value);
    fb__env_report rep;
    memset(&rep, 0, sizeof rep);
    fb__env_check(root_, FB__CALLSITE, &rep);
    CHECK(rep.count <= sizeof rep.w / sizeof rep.w[0]);
    for (size_t k = 0; k < rep.count; ++k) {
        CHECK(strlen(rep.w[k].what) < sizeof rep.w[k].what);
        CHECK(strchr(rep.w[k].what, '\n') == NULL);
    }
    fb__sysinfo si;
    fb__sysinfo_read(root_, &si);
    CHECK(si.num_cpus >= 0);
    CHECK(si.mhz_per_cpu >= 0);
    CHECK(si.n_caches <= FB__SYS_MAX_CACHES);
    for (size_t k = 0; k < si.n_caches; ++k)
        CHECK(si.caches[k].size >= 0 && si.caches[k].level >= 0);
    for (int k = 0; k < si.n_load_avg; ++k) CHECK(si.load_avg[k] >= 0);
    /* the report prints and the JSON context writes */
    FILE *f = tmpfile();
    fb__env_print(f, &rep);
    fb_bench *b = fb_bench_new();
    si.env = &rep;
    CHECK(fb__write_json_with(b, f, &si) == FB_OK);
    CHECK(fb__write_gbench_json_with(b, f, &si) == FB_OK);
    fb_bench_free(b);
    fclose(f);
    fake_sysfs_put(root_, rel, sane_value(rel));
}

int main(void) {
    memset(huge_digits_, '9', sizeof huge_digits_ - 1);
    snprintf(root_, sizeof root_, "/tmp/fb_test_hostile_sysfs_XXXXXX");
    if (!mkdtemp(root_)) return 1;
    sane_tree();
    size_t n = 0;
    for (size_t f = 0; f < sizeof files_ / sizeof *files_; ++f)
        for (size_t i = 0; odd_values(i); ++i, ++n) one(files_[f], odd_values(i));
    /* a directory where a file should be, and a cpuN name out of range */
    char path[4096];
    snprintf(path, sizeof path, "%s/proc/loadavg", root_);
    unlink(path);
    fake_sysfs_put(root_, "sys/devices/system/cpu/cpu99999999999999999999/x", "1");
    fake_sysfs_put(root_, "sys/devices/system/cpu/cpu-5/x", "1");
    fake_sysfs_put(root_, "proc/loadavg/x", "1");
    fb__env_report rep;
    fb__env_check(root_, -1, &rep);
    fb__sysinfo si;
    fb__sysinfo_read(root_, &si);
    fake_sysfs_remove(root_);
    printf("%zu odd files read\n", n);
    return CHECK_DONE();
}
#endif
