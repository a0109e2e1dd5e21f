/* Checks of the machine's stability (docs/environment.md): the report, the
 * portable check of the benchmark's build, and the warning block. The
 * platform's checks, and fb__env_check that runs them all, are in
 * src/machine_linux.c (or src/machine_none.c where there is no /sys). */
#include "machine.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* ------------------------------------------------------------ report */

void fb__env_add(fb__env_report *out, const char *fix, const char *fmt, ...) {
    if (out->count >= FB__ENV_MAX_WARNINGS) return;
    fb__env_warning *w = &out->w[out->count++];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(w->what, sizeof w->what, fmt, ap);
    va_end(ap);
    snprintf(w->fix, sizeof w->fix, "%s", fix);
    /* text from /sys or /proc (a governor's name...) may hold anything: one
     * line per warning, whatever it holds (issue 17) */
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

void fb__env_print(FILE *f, const fb__env_report *r) {
    if (!f || !r || !r->count) return;
    fprintf(f, "femtobench: warning: results may be unstable:\n");
    for (size_t i = 0; i < r->count; ++i) fprintf(f, "  - %s\n    %s\n", r->w[i].what, r->w[i].fix);
    fflush(f);
}
