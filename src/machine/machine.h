/* Checks of the machine's stability (docs/environment.md): src/machine/machine.c
 * (the portable part and the report), src/machine/machine_linux.c (the /sys and
 * /proc checks) or src/machine/machine_none.c (the stub). */
#ifndef FB_MACHINE_H
#define FB_MACHINE_H

#include "base.h"

#include <stdio.h>

#define FB__ENV_MAX_WARNINGS 16
typedef struct fb__env_warning {
    char what[200]; /* e.g. "CPU frequency scaling: cpu0 between 800 and 4200 MHz" */
    char fix[200];  /* what to do about it */
} fb__env_warning;

typedef struct fb__env_report {
    size_t count;
    fb__env_warning w[FB__ENV_MAX_WARNINGS];
} fb__env_report;

/* Runs every check against a root directory ("/" normally; tests pass a
 * fake tree). callsite: FB__CALLSITE of the benchmark's code, -1 unknown.
 * Defined by the platform's file (src/machine/machine_linux.c or machine_none.c). */
FB__PRIVATE void fb__env_check(const char *root, int callsite, fb__env_report *out);
/* Prints the warning block ("femtobench: warning: results may be
 * unstable: ...") to f; nothing when the report is empty. */
FB__PRIVATE void fb__env_print(FILE *f, const fb__env_report *r);

/* Used by the checks (src/machine/machine.c): adds a warning. */
FB__PRIVATE void fb__env_add(fb__env_report *out, const char *fix, const char *fmt, ...)
    FB__PRINTF(3, 4);
/* The Windows power plan's check, from the active plan's GUID in text
 * ("381b4222-f694-41f0-9685-ff5bb260df2e"; NULL or "": unknown, no warning).
 * Pure: src/machine/machine_win.c reads the plan, the tests check every platform. */
FB__PRIVATE void fb__env_check_power_plan(const char *guid, fb__env_report *out);
/* The portable check: an unoptimized benchmark build (src/machine/machine.c). */
FB__PRIVATE void fb__env_check_build(int callsite, fb__env_report *out);

#endif
