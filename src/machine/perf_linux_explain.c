/* Why counters are missing (src/machine/perf_linux.c opens them): one line that
 * names the missing counters grouped by cause, with the advice for each
 * errno of perf_event_open (a VM without a PMU, perf_event_paranoid, a
 * seccomp filter, a busy PMU) and kernel.perf_event_paranoid's value.
 * docs/counters.md lists the causes. */
#include "perf.h"

#if FB_HAVE_PERF_EVENTS

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int fb__perf_paranoid(void) {
    int v = INT_MIN;
    FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
    if (f) {
        if (fscanf(f, "%d", &v) != 1) v = INT_MIN;
        fclose(f);
    }
    return v;
}

static const char *fb__perf_advice(int err, const fb__perf_spec *s, int paranoid) {
    switch (err) {
    case ENOENT:
    case ENODEV:
    case EOPNOTSUPP:
    case EINVAL:
        return s->hardware ? "no PMU in this VM or CPU: hardware counters unavailable; run on "
                             "bare metal or give the VM a virtual PMU"
                           : "this kernel does not support the event";
    case EACCES:
    case EPERM:
        if (!s->exclude_kernel)
            return "context switches are counted in kernel mode: sysctl "
                   "kernel.perf_event_paranoid=1, or grant CAP_PERFMON";
        if (paranoid > 2) return "sysctl kernel.perf_event_paranoid=2, or grant CAP_PERFMON";
        return "perf_event_open is denied although perf_event_paranoid allows it: a "
               "seccomp filter (container) or security module blocks it; allow "
               "perf_event_open there, or grant CAP_PERFMON";
    case ENOSYS:
        return "the kernel lacks perf events (CONFIG_PERF_EVENTS) or a seccomp filter "
               "blocks perf_event_open";
    case EMFILE:
    case ENFILE:
        return "too many open files: raise `ulimit -n`";
    case EBUSY:
    case ENOSPC:
        return "the PMU is busy (another profiler or the NMI watchdog): stop it, or "
               "sysctl kernel.nmi_watchdog=0";
    default:
        return "see perf_event_open(2)";
    }
}

static void fb__perf_catf(char *buf, size_t len, const char *fmt, ...) FB__PRINTF(3, 4);
static void fb__perf_catf(char *buf, size_t len, const char *fmt, ...) {
    size_t used = strlen(buf);
    if (used + 1 >= len) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + used, len - used, fmt, ap);
    va_end(ap);
}

void fb__perf_explain(char *why, size_t len, const fb__perf_spec specs[FB__PERF_EVENTS],
                      const int errs[FB__PERF_EVENTS], int failed) {
    static const int fb__perf_pseudo[2] = {FB__PERF_UNSCHEDULED, FB__PERF_FAILED};
    if (!why || !len) return;
    why[0] = '\0';
    int missing = 0;
    for (int i = 0; i < FB__PERF_EVENTS; ++i) missing |= errs[i] > 0 || errs[i] < -1;
    if (!missing) return;
    int paranoid = fb__perf_paranoid();
    fb__perf_catf(why, len, "performance counters missing:");
    int first = 1;
    for (int k = 0; k < 2; ++k) {
        first = 1;
        for (int i = 0; i < FB__PERF_EVENTS; ++i) {
            if (errs[i] != fb__perf_pseudo[k]) continue;
            fb__perf_catf(why, len, "%s%s", first ? " " : ", ",
                          fb_measure_name((fb_measure)specs[i].measure));
            first = 0;
        }
        if (first) continue;
        if (fb__perf_pseudo[k] == FB__PERF_UNSCHEDULED)
            fb__perf_catf(why, len, " (opened, but a group with them never got the PMU: %s);",
                          fb__perf_advice(EBUSY, &specs[0], paranoid));
        else
            fb__perf_catf(why, len, " (an ioctl or read on the group failed: %s, errno %d);",
                          strerror(failed), failed);
    }
    for (int i = 0; i < FB__PERF_EVENTS; ++i) {
        if (errs[i] <= 0) continue;
        first = 1;
        const char *advice = fb__perf_advice(errs[i], &specs[i], paranoid);
        /* events with the same errno and the same advice share one entry */
        int j = 0;
        for (; j < i; ++j)
            if (errs[j] == errs[i] && fb__perf_advice(errs[j], &specs[j], paranoid) == advice)
                break;
        if (j < i) continue;
        for (j = i; j < FB__PERF_EVENTS; ++j) {
            if (errs[j] != errs[i] || fb__perf_advice(errs[j], &specs[j], paranoid) != advice)
                continue;
            fb__perf_catf(why, len, "%s%s", first ? " " : ", ",
                          fb_measure_name((fb_measure)specs[j].measure));
            first = 0;
        }
        fb__perf_catf(why, len, " (perf_event_open: %s, errno %d: %s);", strerror(errs[i]), errs[i],
                      advice);
    }
    if (paranoid == INT_MIN)
        fb__perf_catf(why, len, " kernel.perf_event_paranoid unreadable");
    else
        fb__perf_catf(why, len, " kernel.perf_event_paranoid=%d", paranoid);
}

#endif /* FB_HAVE_PERF_EVENTS */
