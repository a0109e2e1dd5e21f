/* Hardware and software counters through Linux perf_event_open (no libpfm).
 *
 * One event group for the calling thread: the hardware events first
 * (instructions, core cycles, branch instructions, branch misses), then the
 * software events (page faults, context switches). The first event that opens
 * leads the group; the group is enabled around each epoch and read with one
 * read(), values matched by event id and scaled when the kernel multiplexed
 * the group. docs/counters.md explains the calibration and the fallback. */

/* syscall() is outside POSIX: glibc and musl declare it under _DEFAULT_SOURCE.
 * (tools/amalgamate hoists this define to the top of the single header.) */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE 1
#endif

#include "perf.h"

#include "clock.h"

#if FB_HAVE_PERF_EVENTS

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/perf_event.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Linux's value; <sys/resource.h> names it only under _GNU_SOURCE. */
#ifndef RUSAGE_THREAD
#define RUSAGE_THREAD 1
#endif

#if !defined(SYS_perf_event_open) && defined(__NR_perf_event_open)
#define SYS_perf_event_open __NR_perf_event_open
#endif

/* Close-on-exec at open time needs Linux 3.14; older kernels get fcntl(). */
#ifdef PERF_FLAG_FD_CLOEXEC
#define FB__PERF_OPEN_FLAGS PERF_FLAG_FD_CLOEXEC
#else
#define FB__PERF_OPEN_FLAGS 0UL
#endif

/* glibc declares ioctl(int, unsigned long, ...), musl and older bionic
 * ioctl(int, int, ...). Requests such as PERF_EVENT_IOC_ID do not fit in an
 * int, so the request is converted explicitly to whichever type this libc
 * takes: no warning on either (nanobench broke on musl with -Werror, #92). */
#if defined(__cplusplus)
#define FB__PERF_REQ(r) (r)
#else
#define FB__PERF_REQ(r)                                                                            \
    _Generic(&ioctl, int (*)(int, int, ...) : (int)(r), default : (unsigned long)(r))
#endif

/* Keeps an empty loop body or function alive without adding instructions. */
#if defined(__GNUC__) || defined(__clang__)
#define FB__PERF_KEEP() __asm__ __volatile__("")
#else
#define FB__PERF_KEEP() ((void)0)
#endif

/* Calibration sizes: FB__PERF_CAL_PAIRS empty begin/end pairs for the
 * measuring overhead; per loop shape, FB__PERF_CAL_REPS runs of 0 and of
 * FB__PERF_CAL_N iterations. About 100 group reads in all. */
#define FB__PERF_CAL_PAIRS 64
/* With software events only (page faults, context switches: no loop
 * overhead to calibrate, and an empty window counts 0 of them) a few pairs
 * do; this keeps start-up short on machines without a PMU. */
#define FB__PERF_CAL_PAIRS_SW 8
#define FB__PERF_CAL_REPS 5
#define FB__PERF_CAL_N 1000
/* Only when no short window ever saw the group scheduled. */
#define FB__PERF_PROBE_NS 10000000u

/* The counters whose per-iteration loop overhead is subtracted: the loop's
 * own instructions, branches and (exit) misses add up exactly. Cycles keep
 * the loop's cost, like the elapsed time does: an empty loop's cycles overlap
 * with a real body's, so subtracting them would overstate IPC. */
#define FB__PERF_LOOP_MASK                                                                         \
    (FB__BIT(FB_INSTRUCTIONS) | FB__BIT(FB_BRANCHINSTRUCTIONS) | FB__BIT(FB_BRANCHMISSES))

static const fb__perf_spec fb__perf_specs[FB__PERF_EVENTS] = {
    {FB_INSTRUCTIONS, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 1, 1},
    {FB_CPUCYCLES, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, 1, 1},
    {FB_BRANCHINSTRUCTIONS, PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, 1, 1},
    {FB_BRANCHMISSES, PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES, 1, 1},
    {FB_PAGEFAULTS, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, 0, 1},
    {FB_CONTEXTSWITCHES, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES, 0, 0},
};

struct fb__perf {
    int leader; /* group leader fd, -1 when none */
    int fds[FB__PERF_EVENTS];
    fb__perf_slot slots[FB__PERF_EVENTS];
    size_t n;               /* events in the group */
    fb__mask opened;        /* measures of the group */
    fb__mask last_known;    /* measures of the last fb__perf_end */
    int error;              /* sticky: errno of a failed ioctl or read */
    uint64_t prev_times[2]; /* time_enabled, time_running last read */
    uint64_t buf[3 + 2 * FB__PERF_EVENTS];
    double measuring[FB_MEASURE_COUNT];        /* per epoch */
    double loop[FB__SHAPES][FB_MEASURE_COUNT]; /* per iteration */
    double calibration_s;
    /* No hardware event opened: page faults and context switches come from
     * getrusage(RUSAGE_THREAD) instead of perf software events, whose first
     * successful open can wait milliseconds for the kernel to switch its perf
     * hooks on, longer than a whole short run. usage0: faults, switches at
     * the epoch's start. */
    bool usage;
    uint64_t usage0[2];
};

/* ------------------------------------------------------------ pure parts */

int fb__perf_parse_group(const uint64_t *buf, size_t words, const fb__perf_slot *slots,
                         size_t n_slots, uint64_t prev_times[2], double counts[FB_MEASURE_COUNT],
                         fb__mask *known) {
    *known = 0;
    for (size_t s = 0; s < n_slots; ++s)
        if (slots[s].measure > 0 && slots[s].measure < FB_MEASURE_COUNT)
            counts[slots[s].measure] = NAN;
    if (!buf || words < 3 || buf[0] > (words - 3) / 2) return -1;
    uint64_t nr = buf[0], enabled = buf[1], running = buf[2];
    /* RESET clears the values but not the times: use the epoch's deltas. */
    uint64_t d_enabled = enabled >= prev_times[0] ? enabled - prev_times[0] : enabled;
    uint64_t d_running = running >= prev_times[1] ? running - prev_times[1] : running;
    prev_times[0] = enabled;
    prev_times[1] = running;
    double scale = 1.0;
    if (d_running == 0 && d_enabled > 0) return 0; /* never scheduled: unknown */
    if (d_running > 0 && d_running < d_enabled) scale = (double)d_enabled / (double)d_running;
    for (uint64_t i = 0; i < nr; ++i) {
        uint64_t value = buf[3 + 2 * i], id = buf[4 + 2 * i];
        for (size_t s = 0; s < n_slots; ++s) {
            int m = slots[s].measure;
            if (slots[s].id != id || m <= 0 || m >= FB_MEASURE_COUNT) continue;
            counts[m] = scale == 1.0 ? (double)value : (double)value * scale;
            *known |= FB__BIT(m);
            break;
        }
    }
    return 0;
}

void fb__perf_subtract(double counts[FB_MEASURE_COUNT], fb__mask which,
                       const double measuring[FB_MEASURE_COUNT],
                       const double loop_per_iter[FB_MEASURE_COUNT], uint64_t iterations) {
    for (int m = 1; m < FB_MEASURE_COUNT; ++m) {
        if (!(which & FB__BIT(m)) || isnan(counts[m])) continue;
        double c = counts[m] - measuring[m] - loop_per_iter[m] * (double)iterations;
        counts[m] = c > 0 ? c : 0;
    }
}

/* ----------------------------------------------------------- syscalls */

static int fb__perf_ioctl(int fd, unsigned long request, unsigned long arg) {
    return ioctl(fd, FB__PERF_REQ(request), arg);
}

static int fb__perf_ioctl_id(int fd, uint64_t *id) {
    unsigned long request = (unsigned long)PERF_EVENT_IOC_ID;
    return ioctl(fd, FB__PERF_REQ(request), id);
}

static int fb__perf_event_open(const fb__perf_spec *s, int group_fd) {
    struct perf_event_attr a;
    memset(&a, 0, sizeof a);
    a.size = sizeof a;
    a.type = s->type;
    a.config = s->config;
    a.disabled = 1;
    a.exclude_kernel = s->exclude_kernel ? 1u : 0u;
    a.exclude_hv = 1;
    a.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID | PERF_FORMAT_TOTAL_TIME_ENABLED |
                    PERF_FORMAT_TOTAL_TIME_RUNNING;
    unsigned long flags = FB__PERF_OPEN_FLAGS;
    long fd =
        syscall(SYS_perf_event_open, &a, 0 /* this thread */, -1 /* any cpu */, group_fd, flags);
    if (fd < 0 && errno == EINVAL && flags) { /* a kernel older than 3.14 */
        flags = 0;
        fd = syscall(SYS_perf_event_open, &a, 0, -1, group_fd, flags);
    }
    if (fd < 0) return -1;
    if (!flags) (void)fcntl((int)fd, F_SETFD, FD_CLOEXEC);
    return (int)fd;
}

static void fb__perf_close_fds(fb__perf *p) {
    for (size_t i = 0; i < p->n; ++i) close(p->fds[i]);
    p->n = 0;
    p->leader = -1;
    p->opened = 0;
}

/* The thread's page faults (minor + major) and context switches (voluntary
 * + involuntary: the perf event counts both), or -1 when unreadable. */
static int fb__perf_usage_read(uint64_t out[2]) {
    struct rusage u;
    if (getrusage(RUSAGE_THREAD, &u) != 0) return -1;
    out[0] = (uint64_t)u.ru_minflt + (uint64_t)u.ru_majflt;
    out[1] = (uint64_t)u.ru_nvcsw + (uint64_t)u.ru_nivcsw;
    return 0;
}

static void fb__perf_usage_end(fb__perf *p, double counts[FB_MEASURE_COUNT]) {
    uint64_t now[2];
    fb__mask known = 0;
    if (!p->error && fb__perf_usage_read(now) != 0) p->error = errno > 0 ? errno : EIO;
    counts[FB_PAGEFAULTS] = counts[FB_CONTEXTSWITCHES] = NAN;
    if (!p->error) {
        counts[FB_PAGEFAULTS] = now[0] >= p->usage0[0] ? (double)(now[0] - p->usage0[0]) : 0;
        counts[FB_CONTEXTSWITCHES] = now[1] >= p->usage0[1] ? (double)(now[1] - p->usage0[1]) : 0;
        known = p->opened;
    }
    p->last_known = known;
}

void fb__perf_begin(fb__perf *p) {
    if (p && p->usage) {
        if (!p->error && fb__perf_usage_read(p->usage0) != 0) p->error = errno > 0 ? errno : EIO;
        return;
    }
    if (!p || !p->n || p->error) return;
    if (fb__perf_ioctl(p->leader, PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP) == -1 ||
        fb__perf_ioctl(p->leader, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP) == -1)
        p->error = errno > 0 ? errno : EIO;
}

/* Disables the group and reads the scaled counts, no overhead subtracted. */
static int fb__perf_read_raw(fb__perf *p, double counts[FB_MEASURE_COUNT], fb__mask *known) {
    *known = 0;
    if (p->error) return -1;
    if (fb__perf_ioctl(p->leader, PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP) == -1) {
        p->error = errno > 0 ? errno : EIO;
        return -1;
    }
    size_t words = 3 + 2 * p->n;
    ssize_t got = read(p->leader, p->buf, words * sizeof p->buf[0]);
    if (got != (ssize_t)(words * sizeof p->buf[0]) ||
        fb__perf_parse_group(p->buf, words, p->slots, p->n, p->prev_times, counts, known) != 0) {
        p->error = got < 0 && errno > 0 ? errno : EIO;
        return -1;
    }
    return 0;
}

void fb__perf_end(fb__perf *p, uint64_t iterations, int shape, double counts[FB_MEASURE_COUNT]) {
    if (p && p->usage) { /* nothing to subtract: an empty window counts 0 */
        fb__perf_usage_end(p, counts);
        return;
    }
    if (!p || !p->n) return;
    double c[FB_MEASURE_COUNT];
    fb__mask known = 0;
    if (fb__perf_read_raw(p, c, &known) != 0) {
        for (int m = 1; m < FB_MEASURE_COUNT; ++m) c[m] = NAN;
        known = 0;
    }
    if (shape < 0 || shape >= FB__SHAPES) shape = FB__SHAPE_INLINE;
    fb__perf_subtract(c, known, p->measuring, p->loop[shape], iterations);
    for (int m = 1; m < FB_MEASURE_COUNT; ++m)
        if (p->opened & FB__BIT(m)) counts[m] = c[m];
    p->last_known = known;
}

fb__mask fb__perf_available(const fb__perf *p) { return p && !p->error ? p->opened : 0; }

fb__mask fb__perf_last_known(const fb__perf *p) { return p ? p->last_known : 0; }

double fb__perf_calibration(const fb__perf *p, double measuring[FB_MEASURE_COUNT],
                            double loop_per_iter[FB__SHAPES][FB_MEASURE_COUNT]) {
    if (!p) return 0;
    if (measuring) memcpy(measuring, p->measuring, sizeof p->measuring);
    if (loop_per_iter) memcpy(loop_per_iter, p->loop, sizeof p->loop);
    return p->calibration_s;
}

void fb__perf_close(fb__perf *p) {
    if (!p) return;
    fb__perf_close_fds(p);
    free(p);
}

/* -------------------------------------------------------- calibration */

/* An op with nothing in it, for the FB__SHAPE_CALL calibration. */
static FB__NOINLINE void fb__perf_empty_op(void *ctx) {
    (void)ctx;
    FB__PERF_KEEP();
}

/* FB_RUN's inner loop, `for (; i; --i) { body }`, with an empty body. The
 * count goes through a volatile so that the compiler cannot see it. */
static FB__NOINLINE int fb__perf_cal_inline(fb__perf *p, uint64_t n, double c[FB_MEASURE_COUNT],
                                            fb__mask *known) {
    volatile uint64_t n_hidden = n;
    uint64_t i = n_hidden;
    fb__perf_begin(p);
    for (; i; --i) {
        FB__PERF_KEEP();
    }
    return fb__perf_read_raw(p, c, known);
}

/* fb_run's loop, `for (; i; --i) op(ctx);`, through a function pointer. */
static FB__NOINLINE int fb__perf_cal_call(fb__perf *p, uint64_t n, double c[FB_MEASURE_COUNT],
                                          fb__mask *known) {
    volatile uint64_t n_hidden = n;
    fb_op volatile op_hidden = fb__perf_empty_op;
    void *volatile ctx_hidden = NULL;
    uint64_t i = n_hidden;
    fb_op op = op_hidden;
    void *ctx = ctx_hidden;
    fb__perf_begin(p);
    for (; i; --i) op(ctx);
    return fb__perf_read_raw(p, c, known);
}

static void fb__perf_keep_min(double best[FB_MEASURE_COUNT], const double c[FB_MEASURE_COUNT],
                              fb__mask known) {
    for (int m = 1; m < FB_MEASURE_COUNT; ++m)
        if ((known & FB__BIT(m)) && c[m] < best[m]) best[m] = c[m];
}

/* Returns 0, or -1 when the group was never scheduled (p->error is set by a
 * failed read). Minimum per counter: interrupts and other noise only add. */
static int fb__perf_calibrate(fb__perf *p) {
    /* run.c reads the clock twice inside each counted epoch, indirectly */
    uint64_t (*volatile clock_read)(void) = fb__clock_now_ns;
    uint64_t t0 = fb__clock_now_ns();
    double best[FB_MEASURE_COUNT], c[FB_MEASURE_COUNT];
    fb__mask known, seen = 0;
    for (int m = 0; m < FB_MEASURE_COUNT; ++m) best[m] = INFINITY;
    bool hardware = (p->opened & FB__PERF_LOOP_MASK) != 0;
    int pairs = hardware ? FB__PERF_CAL_PAIRS : FB__PERF_CAL_PAIRS_SW;
    for (int k = 0; k < pairs; ++k) {
        fb__perf_begin(p);
        (void)clock_read();
        (void)clock_read();
        if (fb__perf_read_raw(p, c, &known) != 0) return 0;
        fb__perf_keep_min(best, c, known);
        seen |= known;
    }
    if (!seen) {
        /* Never on the PMU in ~100 short windows: either multiplexed out for
         * now, or the group can never fit (counters held by others). One
         * longer window tells them apart; a multiplexed group is kept, with
         * measuring overheads of 0 where no short window saw them. */
        fb__perf_begin(p);
        uint64_t until = fb__clock_now_ns() + FB__PERF_PROBE_NS;
        while (clock_read() < until) {
        }
        if (fb__perf_read_raw(p, c, &known) != 0) return 0;
        if (!known) return -1;
    }
    for (int m = 1; m < FB_MEASURE_COUNT; ++m) p->measuring[m] = isinf(best[m]) ? 0 : best[m];

    for (int shape = 0; shape < FB__SHAPES && hardware; ++shape) {
        double c0[FB_MEASURE_COUNT], cn[FB_MEASURE_COUNT];
        for (int m = 0; m < FB_MEASURE_COUNT; ++m) c0[m] = cn[m] = INFINITY;
        for (int r = 0; r < FB__PERF_CAL_REPS; ++r) {
            for (int big = 0; big < 2; ++big) {
                uint64_t n = big ? FB__PERF_CAL_N : 0;
                int rc = shape == FB__SHAPE_CALL ? fb__perf_cal_call(p, n, c, &known)
                                                 : fb__perf_cal_inline(p, n, c, &known);
                if (rc != 0) return 0;
                fb__perf_keep_min(big ? cn : c0, c, known);
            }
        }
        for (int m = 1; m < FB_MEASURE_COUNT; ++m) {
            double per = (cn[m] - c0[m]) / FB__PERF_CAL_N;
            p->loop[shape][m] =
                (FB__PERF_LOOP_MASK & FB__BIT(m)) && isfinite(per) && per > 0 ? per : 0;
        }
    }
    p->calibration_s = (double)(fb__clock_now_ns() - t0) * 1e-9;
    return 0;
}

/* ----------------------------------------------------------------- open */

/* Opens the events of `want` into p's group; errs[i] as in fb__perf_explain. */
static void fb__perf_open_group(fb__perf *p, fb__mask want, int errs[FB__PERF_EVENTS]) {
    for (int i = 0; i < FB__PERF_EVENTS; ++i) {
        const fb__perf_spec *s = &fb__perf_specs[i];
        if (!(want & FB__BIT(s->measure))) continue;
        int fd = fb__perf_event_open(s, p->leader);
        uint64_t id = 0;
        if (fd >= 0 && fb__perf_ioctl_id(fd, &id) == -1) {
            int e = errno;
            close(fd);
            fd = -1;
            errno = e;
        }
        if (fd < 0) {
            errs[i] = errno > 0 ? errno : EINVAL;
            continue;
        }
        errs[i] = 0;
        if (p->leader < 0) p->leader = fd;
        p->fds[p->n] = fd;
        p->slots[p->n].id = id;
        p->slots[p->n].measure = s->measure;
        p->opened |= FB__BIT(s->measure);
        p->n++;
    }
}

/* The groups tried in turn when one never gets the PMU (too few free
 * hardware counters): all, then without the branch events, then software. */
#define FB__PERF_HW_MASK                                                                           \
    (FB__BIT(FB_INSTRUCTIONS) | FB__BIT(FB_CPUCYCLES) | FB__BIT(FB_BRANCHINSTRUCTIONS) |           \
     FB__BIT(FB_BRANCHMISSES))
#define FB__PERF_SW_MASK (FB__BIT(FB_PAGEFAULTS) | FB__BIT(FB_CONTEXTSWITCHES))

/* Without a hardware counter, page faults and context switches from
 * getrusage; -1 (p unchanged) where it cannot be read. */
static int fb__perf_use_usage(fb__perf *p) {
    uint64_t probe[2];
    if (fb__perf_usage_read(probe) != 0) return -1;
    p->usage = true;
    p->opened = FB__PERF_SW_MASK;
    return 0;
}

fb__perf *fb__perf_open_flags(char *why, size_t why_len, unsigned flags) {
    static const fb__mask fb__perf_ladder[3] = {
        FB__PERF_HW_MASK | FB__PERF_SW_MASK,
        FB__BIT(FB_INSTRUCTIONS) | FB__BIT(FB_CPUCYCLES) | FB__PERF_SW_MASK,
        FB__PERF_SW_MASK,
    };
    if (why && why_len) why[0] = '\0';
    fb__perf *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    p->leader = -1;
    int errs[FB__PERF_EVENTS], failed = 0;
    for (int i = 0; i < FB__PERF_EVENTS; ++i) errs[i] = -1;
    if ((flags & FB__PERF_USAGE_ONLY) && fb__perf_use_usage(p) == 0) return p;
    for (int step = (flags & FB__PERF_SW_ONLY) ? 2 : 0; step < 3; ++step) {
        if (step == 0) {
            /* The hardware events first, in the table's order as always; the
             * software ones join the group only where one of them opened. */
            fb__perf_open_group(p, fb__perf_ladder[0] & FB__PERF_HW_MASK, errs);
            if (!p->n && fb__perf_use_usage(p) == 0) break;
            fb__perf_open_group(p, fb__perf_ladder[0] & FB__PERF_SW_MASK, errs);
        } else {
            fb__perf_open_group(p, fb__perf_ladder[step], errs);
        }
        if (!p->n) break; /* nothing opens: nothing to calibrate */
        int unscheduled = fb__perf_calibrate(p) != 0;
        if (!unscheduled && !p->error) break;
        failed = p->error; /* an ioctl or read failed while calibrating */
        for (int i = 0; i < FB__PERF_EVENTS; ++i)
            if (errs[i] == 0) errs[i] = failed ? FB__PERF_FAILED : FB__PERF_UNSCHEDULED;
        fb__perf_close_fds(p);
        p->error = 0;
        memset(p->prev_times, 0, sizeof p->prev_times);
        memset(p->measuring, 0, sizeof p->measuring);
        memset(p->loop, 0, sizeof p->loop);
        if (failed) break;
    }
    fb__perf_explain(why, why_len, fb__perf_specs, errs,
                     failed); /* src/machine/perf_linux_explain.c */
    return p;
}

fb__perf *fb__perf_open(char *why, size_t why_len) { return fb__perf_open_flags(why, why_len, 0); }

#endif /* FB_HAVE_PERF_EVENTS */
