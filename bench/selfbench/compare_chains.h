/* The workloads of the comparison evaluation (tools/compare_eval.py):
 * dependent chains of 64-bit multiplies, 3 cycles each on current x86 and
 * ARM cores, with the chain carried from one iteration to the next. The
 * chain is the critical path; the loop's own work runs beside it, so the
 * time per iteration is the chain's latency and 44 steps take exactly 1.1x
 * the time of 40. Shared word for word by fb_compare_eval.c (femtobench)
 * and nb_compare_eval.cpp (nanobench), so both time the same machine code.
 * The empty asm keeps each product in a register and stops the compiler
 * from folding the constant multiplies into one. Valid C11 and C++11. */
#ifndef FB_COMPARE_CHAINS_H
#define FB_COMPARE_CHAINS_H

#include <stdint.h>

#define CC_STEP(x)                                                                                 \
    do {                                                                                           \
        (x) *= 0x9E3779B97F4A7C15ull;                                                              \
        __asm__ __volatile__("" : "+r"(x));                                                        \
    } while (0)
#define CC_STEP4(x)                                                                                \
    CC_STEP(x);                                                                                    \
    CC_STEP(x);                                                                                    \
    CC_STEP(x);                                                                                    \
    CC_STEP(x)
#define CC_CHAIN40(x)                                                                              \
    CC_STEP4(x);                                                                                   \
    CC_STEP4(x);                                                                                   \
    CC_STEP4(x);                                                                                   \
    CC_STEP4(x);                                                                                   \
    CC_STEP4(x);                                                                                   \
    CC_STEP4(x);                                                                                   \
    CC_STEP4(x);                                                                                   \
    CC_STEP4(x);                                                                                   \
    CC_STEP4(x);                                                                                   \
    CC_STEP4(x)
#define CC_CHAIN44(x)                                                                              \
    CC_CHAIN40(x);                                                                                 \
    CC_STEP4(x)

#endif
