/* The monotonic clock on Windows: QueryPerformanceCounter, or the TSC read
 * directly (rdtsc) where it is invariant (CPUID 0x80000007, EDX bit 8: it
 * ticks at one rate in every power state and on every core), scaled by a
 * rate measured once against QueryPerformanceCounter. QueryPerformanceCounter
 * itself reads the TSC on such machines, plus a call and a division; rdtsc
 * alone is the cheaper read. Elsewhere (no invariant TSC, a hypervisor that
 * hides the bit) QueryPerformanceCounter is the clock.
 *
 * The conversion facts (the counter's frequency, fixed at boot, and the TSC
 * rate) are set once, under InitOnceExecuteOnce, and only read afterwards. */
#include "clock.h"

#if FB_HAVE_WINDOWS
#include <windows.h>

#if FB_HAVE_RDTSC
#include <cpuid.h>
#include <x86intrin.h>
#endif

typedef struct fb__clock_win {
    uint64_t qpc_hz;    /* QueryPerformanceFrequency */
    int use_tsc;        /* 1: rdtsc scaled by ns_per_tick */
    uint64_t tsc0;      /* the TSC when ns0 was read */
    uint64_t ns0;       /* QueryPerformanceCounter in ns at tsc0 */
    double ns_per_tick; /* the TSC's period */
} fb__clock_win;

static fb__clock_win fb__clock_w;
static INIT_ONCE fb__clock_w_once = INIT_ONCE_STATIC_INIT;

static uint64_t fb__clock_qpc_ns(uint64_t hz) {
    LARGE_INTEGER c;
    QueryPerformanceCounter(&c);
    uint64_t t = (uint64_t)c.QuadPart;
    /* whole seconds and the rest apart: t * 1e9 would overflow after ~30 min at 10 MHz */
    return t / hz * 1000000000u + t % hz * 1000000000u / hz;
}

#if FB_HAVE_RDTSC
static int fb__clock_tsc_invariant(void) {
    unsigned a, b, c, d;
    if (!__get_cpuid(0x80000000u, &a, &b, &c, &d) || a < 0x80000007u) return 0;
    if (!__get_cpuid(0x80000007u, &a, &b, &c, &d)) return 0;
    return (d >> 8) & 1u;
}
#endif

static BOOL CALLBACK fb__clock_win_init(PINIT_ONCE once, PVOID param, PVOID *ctx) {
    (void)once;
    (void)param;
    (void)ctx;
    LARGE_INTEGER f;
    QueryPerformanceFrequency(&f);
    fb__clock_w.qpc_hz = f.QuadPart > 0 ? (uint64_t)f.QuadPart : 1;
#if FB_HAVE_RDTSC
    if (fb__clock_tsc_invariant()) {
        /* The TSC's rate against QueryPerformanceCounter over 10 ms: the
         * rate's error is about one counter tick in 10 ms (1e-5 at 10 MHz). */
        uint64_t q0 = fb__clock_qpc_ns(fb__clock_w.qpc_hz), t0 = __rdtsc();
        uint64_t q1 = q0, t1 = t0;
        while (q1 - q0 < 10000000u) {
            q1 = fb__clock_qpc_ns(fb__clock_w.qpc_hz);
            t1 = __rdtsc();
        }
        if (t1 > t0) {
            fb__clock_w.ns_per_tick = (double)(q1 - q0) / (double)(t1 - t0);
            fb__clock_w.tsc0 = t1;
            fb__clock_w.ns0 = q1;
            fb__clock_w.use_tsc = 1;
        }
    }
#endif
    return TRUE;
}

static const fb__clock_win *fb__clock_win_get(void) {
    InitOnceExecuteOnce(&fb__clock_w_once, fb__clock_win_init, NULL, NULL);
    return &fb__clock_w;
}

uint64_t fb__clock_now_ns(void) {
    const fb__clock_win *w = fb__clock_win_get();
#if FB_HAVE_RDTSC
    if (w->use_tsc) return w->ns0 + (uint64_t)((double)(__rdtsc() - w->tsc0) * w->ns_per_tick);
#endif
    return fb__clock_qpc_ns(w->qpc_hz);
}

/* The thread's CPU time: its cycle count (QueryThreadCycleTime counts TSC
 * ticks while the thread runs) scaled like the clock where the TSC is the
 * clock; else GetThreadTimes' kernel + user time (100 ns units, updated at
 * the scheduler's tick: coarse, but it still tells a descheduled epoch). */
uint64_t fb__clock_cpu_ns(void) {
    const fb__clock_win *w = fb__clock_win_get();
    HANDLE th = GetCurrentThread();
#if FB_HAVE_RDTSC
    ULONG64 cycles;
    if (w->use_tsc && QueryThreadCycleTime(th, &cycles))
        return (uint64_t)((double)cycles * w->ns_per_tick);
#else
    (void)w;
#endif
    FILETIME created, exited, kernel, user;
    if (!GetThreadTimes(th, &created, &exited, &kernel, &user)) return FB__CLOCK_CPU_UNKNOWN;
    uint64_t k = ((uint64_t)kernel.dwHighDateTime << 32) | kernel.dwLowDateTime;
    uint64_t u = ((uint64_t)user.dwHighDateTime << 32) | user.dwLowDateTime;
    return (k + u) * 100u;
}

#endif /* FB_HAVE_WINDOWS */
