/* The calibration kernel: a tight loop against a latency chain, both timed
 * with the monotonic clock; each kernel is run 3 times and the fastest kept
 * (about 25 us in all on a 3 GHz core). Outside any timed region. */
#include "probe.h"

#include "clock.h"

#include <math.h>
#include <stdint.h>
#include <time.h>

#define FB__PROBE_LOOP 12000 /* iterations of the tight loop: 12,000 cycles */
#define FB__PROBE_CHAIN 1000 /* 4 multiplies each: 12,000 cycles */
#define FB__PROBE_TRIES 3

double fb__probe_wait(fb__probe_fn fn, void *ctx, double max_s) {
    struct timespec ms = {0, 1000000L};
    double p = fn(ctx);
    for (double waited = 0; !(p < FB__PROBE_SLOW) && waited < max_s; waited += 1e-3) {
        nanosleep(&ms, NULL);
        p = fn(ctx);
    }
    return p;
}

#if FB_HAVE_PROBE /* x86-64 kernels; elsewhere off (docs/platforms.md) */
static double fb__probe_loop_ns(void) {
    uint64_t x = 0, k = FB__PROBE_LOOP;
    uint64_t t0 = fb__clock_now_ns();
    /* aligned: where the loop falls in the binary must not decide its speed
     * (unaligned, a Debug/ASan build read 2 cycles on a clean core) */
    __asm__ volatile(".p2align 6\n1: add $1, %0\n\tsub $1, %1\n\tjne 1b"
                     : "+r"(x), "+r"(k)
                     :
                     : "cc");
    return (double)(fb__clock_now_ns() - t0);
}

static double fb__probe_chain_ns(void) {
    uint64_t x = 3, k = FB__PROBE_CHAIN, m = 0x9E3779B97F4A7C15ULL;
    uint64_t t0 = fb__clock_now_ns();
    __asm__ volatile(".p2align 6\n1: imul %2, %0\n\timul %2, %0\n\timul %2, %0\n\timul %2, %0\n\t"
                     "sub $1, %1\n\tjne 1b"
                     : "+r"(x), "+r"(k)
                     : "r"(m)
                     : "cc");
    return (double)(fb__clock_now_ns() - t0);
}

double fb__probe_core(void *ctx) {
    (void)ctx;
    double loop = HUGE_VAL, chain = HUGE_VAL;
    for (int i = 0; i < FB__PROBE_TRIES; ++i) {
        double l = fb__probe_loop_ns(), c = fb__probe_chain_ns();
        if (l < loop) loop = l;
        if (c < chain) chain = c;
    }
    /* cycles per loop iteration, with the chain's 12 cycles per round */
    double cycle_ns = chain / (4.0 * 3.0 * FB__PROBE_CHAIN);
    return cycle_ns > 0 ? loop / FB__PROBE_LOOP / cycle_ns : NAN;
}
#else
double fb__probe_core(void *ctx) {
    (void)ctx;
    return NAN;
}
#endif
