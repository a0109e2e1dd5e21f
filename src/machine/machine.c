/* Checks of the machine's stability (docs/environment.md): the report, the
 * portable check of the benchmark's build, and the warning block. The
 * platform's checks, and fb__env_check that runs them all, are in
 * src/machine/machine_linux.c, src/machine/machine_win.c (Windows), or src/machine/machine_none.c
 * (no /sys, e.g. macOS). */
#include "machine.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* ------------------------------------------------------------ report */

/* Two GUIDs in text, case-insensitively (Windows writes them either way). */
static bool fb__env_same_guid(const char *a, const char *b) {
    for (; *a && *b; ++a, ++b) {
        char x = *a >= 'A' && *a <= 'Z' ? (char)(*a - 'A' + 'a') : *a;
        char y = *b >= 'A' && *b <= 'Z' ? (char)(*b - 'A' + 'a') : *b;
        if (x != y) return false;
    }
    return !*a && !*b;
}

void fb__env_add(fb__env_report *out, const char *fix, const char *fmt, ...) {
    if (out->count >= FB__ENV_MAX_WARNINGS) return;
    fb__env_warning *w = &out->w[out->count++];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(w->what, sizeof w->what, fmt, ap);
    va_end(ap);
    snprintf(w->fix, sizeof w->fix, "%s", fix);
    /* text from /sys or /proc (a governor's name...) may hold anything: one
     * line per warning, whatever it holds */
    for (char *p = w->what; *p; ++p)
        if ((unsigned char)*p < 0x20 || *p == 0x7f) *p = '?';
}

/* The build of the code that calls FB_RUN / fb_run (bits of FB__CALLSITE).
 * Only a missing -O is a warning: a missing NDEBUG alone is common in
 * optimized benchmarks on purpose, and nanobench dropped that check as noise;
 * it is only mentioned alongside a missing -O. */
void fb__env_check_build(int callsite, fb__env_report *out) {
    if (callsite < 0 || !(callsite & 1) || (callsite & 2)) return;
    fb__env_add(
        out,
        "compile the benchmark with optimization, e.g. -O2 (CMake: -DCMAKE_BUILD_TYPE=Release)",
        "unoptimized build: the benchmark code was compiled without -O%s",
        (callsite & 4) ? "" : " (and without NDEBUG: asserts are on)");
}

/* The Windows power plan (src/machine/machine_win.c reads it; pure, so that every
 * platform's tests check it): anything but High or Ultimate performance
 * lets the CPU clock down between benchmarks, as a Linux governor other than
 * "performance" does. NULL or "" (unknown, e.g. under an emulator that does
 * not implement the call): no warning. */
void fb__env_check_power_plan(const char *guid, fb__env_report *out) {
    static const struct {
        const char *guid, *name;
    } plans[] = {
        {"8c5e7fda-e8bf-4a96-9a85-a6e23a8c635c", NULL}, /* High performance */
        {"e9a42b02-d5df-448d-aa00-03f14749eb61", NULL}, /* Ultimate performance */
        {"381b4222-f694-41f0-9685-ff5bb260df2e", "Balanced"},
        {"a1841308-3541-4fab-bc81-f71556f20b4a", "Power saver"},
    };
    if (!guid || !*guid) return;
    const char *name = guid;
    for (size_t i = 0; i < sizeof plans / sizeof plans[0]; ++i) {
        if (fb__env_same_guid(guid, plans[i].guid)) {
            if (!plans[i].name) return;
            name = plans[i].name;
            break;
        }
    }
    fb__env_add(out,
                "choose the High performance plan: powercfg /setactive SCHEME_MIN (as "
                "administrator), and back with powercfg /setactive SCHEME_BALANCED",
                "power plan '%s': the CPU clock changes with load between and inside benchmarks",
                name);
}

void fb__env_print(FILE *f, const fb__env_report *r) {
    if (!f || !r || !r->count) return;
    fprintf(f, "femtobench: warning: results may be unstable:\n");
    for (size_t i = 0; i < r->count; ++i) fprintf(f, "  - %s\n    %s\n", r->w[i].what, r->w[i].fix);
    fflush(f);
}
