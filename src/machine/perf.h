/* Hardware and software performance counters: src/machine/perf_linux.c, or the stub
 * src/machine/perf_none.c where perf_event_open is not available. */
#ifndef FB_PERF_H
#define FB_PERF_H

#include "base.h"

#include <stdio.h>

/* Loop shapes the counters are calibrated for. */
enum { FB__SHAPE_INLINE = 0, FB__SHAPE_CALL = 1, FB__SHAPES = 2 };

typedef struct fb__perf fb__perf;

/* Opens the counter group for the calling thread. Never fails hard: returns
 * a handle (possibly with no counters) or NULL only when out of memory.
 * `why` receives a one-line reason when some counters are missing. */
FB__PRIVATE fb__perf *fb__perf_open(char *why, size_t why_len);
FB__PRIVATE void fb__perf_close(fb__perf *p);
FB__PRIVATE fb__mask fb__perf_available(const fb__perf *p);
/* Around one epoch, outside the clock reads. */
FB__PRIVATE void fb__perf_begin(fb__perf *p);
/* Reads the epoch's counts, scaled for multiplexing, with the calibrated
 * measuring and loop overheads (for `iterations` iterations of `shape`)
 * subtracted, saturated at 0. counts[m] is set for each available m. */
FB__PRIVATE void fb__perf_end(fb__perf *p, uint64_t iterations, int shape,
                              double counts[FB_MEASURE_COUNT]);
/* fb__perf_open with flags: FB__PERF_SW_ONLY opens the software events only
 * (page faults, context switches); FB__PERF_USAGE_ONLY reads those two from
 * getrusage(RUSAGE_THREAD), as fb__perf_open does where no hardware event
 * opens. Used by tests on machines without a PMU. */
enum { FB__PERF_SW_ONLY = 1u, FB__PERF_USAGE_ONLY = 2u };
FB__PRIVATE fb__perf *fb__perf_open_flags(char *why, size_t why_len, unsigned flags);
/* Measures counted in the last fb__perf_end (0 after an error, or when the
 * group was never scheduled in that epoch: those counts are set to NAN). */
FB__PRIVATE fb__mask fb__perf_last_known(const fb__perf *p);
/* The calibration of p (docs/counters.md): measuring overhead per epoch and
 * loop overhead per iteration of each shape; returns its duration in s. */
FB__PRIVATE double fb__perf_calibration(const fb__perf *p, double measuring[FB_MEASURE_COUNT],
                                        double loop_per_iter[FB__SHAPES][FB_MEASURE_COUNT]);
#if FB_HAVE_PERF_EVENTS
/* Pure helpers (Linux build), exposed for tests. A slot maps a kernel event
 * id to the measure it counts. fb__perf_parse_group reads one group read()
 * (nr, time_enabled, time_running, then nr {value, id}); it sets every slot's
 * count (NAN when unknown), scales by the deltas of the times against
 * prev_times[2] (enabled, running; updated) and stores the measures it knows
 * in *known. Returns 0, or -1 for a malformed buffer. */
typedef struct fb__perf_slot {
    uint64_t id;
    int measure;
} fb__perf_slot;
FB__PRIVATE int fb__perf_parse_group(const uint64_t *buf, size_t words, const fb__perf_slot *slots,
                                     size_t n_slots, uint64_t prev_times[2],
                                     double counts[FB_MEASURE_COUNT], fb__mask *known);
/* counts[m] -= measuring[m] + loop_per_iter[m] * iterations, saturated at 0,
 * for each m in `which` (NAN stays NAN). */
FB__PRIVATE void fb__perf_subtract(double counts[FB_MEASURE_COUNT], fb__mask which,
                                   const double measuring[FB_MEASURE_COUNT],
                                   const double loop_per_iter[FB_MEASURE_COUNT],
                                   uint64_t iterations);

/* The events of the group (src/machine/perf_linux.c's table lists them in the
 * order they are opened). */
#define FB__PERF_EVENTS 6
typedef struct fb__perf_spec {
    int measure;
    uint32_t type;
    uint64_t config;
    int hardware;
    /* Context switches happen in the kernel: with exclude_kernel=1 they read
     * 0 (checked on Linux 6.x), so that one event counts kernel mode and
     * therefore needs perf_event_paranoid <= 1 or CAP_PERFMON. */
    int exclude_kernel;
} fb__perf_spec;
/* errs[] codes of an event that opened, but whose group never got the PMU,
 * or whose group failed (ioctl or read) while calibrating. */
#define FB__PERF_UNSCHEDULED (-2)
#define FB__PERF_FAILED (-3)
/* One line in why (src/machine/perf_linux_explain.c): the missing counters, grouped
 * by cause, then the paranoid value. errs[i]: 0 opened, -1 not requested,
 * FB__PERF_UNSCHEDULED, FB__PERF_FAILED (failed: its errno), else the errno
 * of specs[i]'s open. Empty when nothing is missing. */
FB__PRIVATE void fb__perf_explain(char *why, size_t len, const fb__perf_spec specs[FB__PERF_EVENTS],
                                  const int errs[FB__PERF_EVENTS], int failed);

#endif /* FB_HAVE_PERF_EVENTS */

#endif
