/* The platform layer (docs/platforms.md), on every platform it is built
 * for: the real clock (monotonic; an elapsed time against a sleep; on
 * Windows the rdtsc path against QueryPerformanceCounter), the in-memory
 * FILE, replacing a file by rename, path separators, -filter's patterns
 * that every platform's matcher takes alike (and, without <regex.h>, the
 * ones refused), and the Windows power plan's check. Timing bounds are
 * checked on the machine itself and under wine (native code, real clock);
 * under qemu only their lower side is, and the test says so. */
#include "check.h"
#include "internal.h"

#include <time.h>
#if FB_HAVE_WINDOWS
#include <windows.h>
static long this_pid(void) { return (long)GetCurrentProcessId(); }
#else
static long this_pid(void) { return (long)getpid(); }
#endif

static void sleep_ms(unsigned ms) {
#if FB_HAVE_WINDOWS
    Sleep(ms);
#else
    struct timespec t = {0, (long)ms * 1000000L};
    while (nanosleep(&t, &t) != 0) {
    }
#endif
}

static void test_clock(void) {
    /* monotonic over many reads */
    uint64_t prev = fb__clock_now_ns(), backwards = 0;
    for (int i = 0; i < 200000; ++i) {
        uint64_t t = fb__clock_now_ns();
        if (t < prev) ++backwards;
        prev = t;
    }
    CHECK(backwards == 0);
    fb__clock_info ci;
    fb__clock_measure(NULL, NULL, &ci);
    CHECK(ci.resolution_s > 0 && ci.resolution_s < 1e-3);
    CHECK(ci.overhead_s > 0 && ci.overhead_s < 1e-3);
    /* a hooked run's measure: the resolution and the CPU clock's read */
    fb__clock_info paced;
    fb__clock_measure_paced(&paced);
    CHECK(paced.resolution_s > 0 && paced.resolution_s < 1e-3);
    CHECK(paced.overhead_s == 0 && paced.empty_loop_s == 0);
    CHECK((paced.cpu_overhead_s >= 0) == (ci.cpu_overhead_s >= 0));

    /* a 50 ms sleep: never measured shorter; longer by at most 1 s except
     * under an emulator (qemu's guest time is the host's), where the bound
     * is 60 s: the clock must still advance and stay finite */
#if FB_HAVE_WINDOWS
    LARGE_INTEGER f, q0, q1;
    QueryPerformanceFrequency(&f);
    QueryPerformanceCounter(&q0);
#endif
    uint64_t t0 = fb__clock_now_ns();
    sleep_ms(50);
    uint64_t t1 = fb__clock_now_ns();
#if FB_HAVE_WINDOWS
    QueryPerformanceCounter(&q1);
#endif
    double slept_s = (double)(t1 - t0) * 1e-9;
    CHECK(slept_s >= 0.049);
    const char *emu = check_emulator();
    if (emu && strstr(emu, "qemu")) {
        printf("under %s: the sleep's upper bound is not a property of the clock there; "
               "checked: it advanced and stayed under 60 s (%.3f s)\n",
               emu, slept_s);
        CHECK(slept_s < 60);
    } else {
        CHECK(slept_s < 1.0);
    }
#if FB_HAVE_WINDOWS
    /* the rdtsc path's rate against QueryPerformanceCounter: within 0.5%
     * (plus the two counters' read skew) over the sleep */
    double qpc_s = (double)(q1.QuadPart - q0.QuadPart) / (double)f.QuadPart;
    CHECK(fabs(slept_s - qpc_s) <= 0.005 * qpc_s + 20e-6);
#endif
}

static void test_memfile(void) {
    char buf[64];
    FILE *f = fb__os_memfile_open(buf, sizeof buf);
    CHECK(f != NULL);
    if (!f) return;
    fprintf(f, "key=%d, %s", 42, "bad");
    long n = fb__os_memfile_close(f, buf, sizeof buf);
    CHECK(n == 11);
    CHECK_STR(buf, "key=42, bad");
}

static void write_file(const char *path, const char *text) {
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL);
    if (!f) return;
    fputs(text, f);
    fclose(f);
}

static void test_replace(void) {
    char a[64], b[64], got[16] = {0};
    snprintf(a, sizeof a, "fb-platform-a-%ld.tmp", this_pid());
    snprintf(b, sizeof b, "fb-platform-b-%ld.tmp", this_pid());
    write_file(a, "new");
    write_file(b, "old");
    /* rename over an existing file: POSIX rename does it; Windows' rename
     * refuses, MoveFileEx(MOVEFILE_REPLACE_EXISTING) does it */
    CHECK(fb__os_replace(a, b) == 0);
    FILE *f = fopen(b, "rb");
    CHECK(f != NULL);
    if (f) {
        CHECK(fread(got, 1, sizeof got - 1, f) == 3);
        fclose(f);
    }
    CHECK_STR(got, "new");
    CHECK(fopen(a, "rb") == NULL);
    remove(b);
    CHECK(fb__os_pid_alive(this_pid()) == 1);

    CHECK(fb__os_last_sep("a/b") != NULL && *fb__os_last_sep("a/b") == '/');
    CHECK(fb__os_last_sep("name") == NULL);
#if FB_HAVE_WINDOWS
    const char *w = "C:\\dir/sub\\out.json";
    CHECK(fb__os_last_sep(w) == w + 10);
#endif
}

static void test_filter(void) {
    const char *names[] = {"Sort", "SortShuffled/1024", "SipHash/8", "SipHash/64", "SHA256_32b"};
    const size_t n = sizeof names / sizeof names[0];
    static const struct {
        const char *pattern;
        bool anywhere;
        const char *want;
    } cases[] = {
        {"Sort", false, "10000"},         {"Sort|SHA256_32b", false, "10001"},
        {"Sip.*", false, "00110"},        {"SipHash/[0-9]+", false, "00110"},
        {"SipHash/[^6]", false, "00100"}, {"S.*/6?4?", false, "00010"},
        {"Sort.+", false, "01000"},       {"Sort", true, "11000"},
        {"^Sip", true, "00110"},          {"256_32b$", true, "00001"},
        {"x*", false, "00000"},           {"Sip\\Hash/8", false, "00100"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
        unsigned char sel[8] = {0};
        char why[256] = "", got[8] = {0};
        int rc = fb__filter_select_mode(cases[c].pattern, names, n, sel, cases[c].anywhere, why,
                                        sizeof why);
        for (size_t i = 0; i < n; ++i) got[i] = sel[i] ? '1' : '0';
        CHECK(rc == 0);
        if (rc != 0 || strcmp(got, cases[c].want) != 0)
            fprintf(stderr, "  pattern '%s' (anywhere %d): %s, want %s (%s)\n", cases[c].pattern,
                    cases[c].anywhere, got, cases[c].want, why);
        CHECK_STR(got, cases[c].want);
    }
    unsigned char sel[8];
    char why[256] = "";
    CHECK(fb__filter_select("Sort[", names, n, sel, why, sizeof why) == -1);
    CHECK(fb__filter_select("*Sort", names, n, sel, why, sizeof why) == -1);
#if !FB_HAVE_POSIX_REGEX
    /* groups and bounds: refused with a line that says what this matcher takes */
    CHECK(fb__filter_select("(Sort)", names, n, sel, why, sizeof why) == -1);
    CHECK(strstr(why, "need POSIX regular expressions") != NULL);
    CHECK(fb__filter_select("a{2}", names, n, sel, why, sizeof why) == -1);
    CHECK(fb__filter_select("[[:alpha:]]", names, n, sel, why, sizeof why) == -1);
    CHECK(strstr(why, "character classes") != NULL);
#endif
}

static void test_power_plan(void) {
    fb__env_report r;
    memset(&r, 0, sizeof r);
    fb__env_check_power_plan("8c5e7fda-e8bf-4a96-9a85-a6e23a8c635c", &r); /* High performance */
    fb__env_check_power_plan("E9A42B02-D5DF-448D-AA00-03F14749EB61", &r); /* Ultimate, upper case */
    fb__env_check_power_plan(NULL, &r);
    fb__env_check_power_plan("", &r);
    CHECK(r.count == 0);
    fb__env_check_power_plan("381b4222-f694-41f0-9685-ff5bb260df2e", &r);
    CHECK(r.count == 1);
    CHECK(strstr(r.w[0].what, "power plan 'Balanced'") != NULL);
    CHECK(strstr(r.w[0].fix, "powercfg /setactive SCHEME_MIN") != NULL);
    fb__env_check_power_plan("01234567-89ab-cdef-0123-456789abcdef", &r); /* a custom plan */
    CHECK(r.count == 2);
    CHECK(strstr(r.w[1].what, "'01234567-89ab-cdef-0123-456789abcdef'") != NULL);
}

int main(void) {
    test_clock();
    test_memfile();
    test_replace();
    test_filter();
    test_power_plan();
    return CHECK_DONE();
}
