/* The suite behind docs/design.md's "An op that was optimized away": one to
 * four dependent adds (each add waits for the one before: the inline-asm
 * barrier keeps the compiler from folding them), a copy the compiler
 * deletes down to its barrier, and a body it deletes entirely. Built and
 * run by tools/loop_marks.py. */
#include <femtobench.h>

#include <stdint.h>
#include <string.h>

#define LM_DEP(x) __asm__ __volatile__("" : "+r"(x))

FB_BENCHMARK(add1) {
    uint64_t x = 1;
    FB_RUN(b, NULL) {
        x += 3;
        fb_do_not_optimize(x);
    }
}
FB_BENCHMARK(add2) {
    uint64_t x = 1;
    FB_RUN(b, NULL) {
        x += 3;
        LM_DEP(x);
        x += 5;
        fb_do_not_optimize(x);
    }
}
FB_BENCHMARK(add3) {
    uint64_t x = 1;
    FB_RUN(b, NULL) {
        x += 3;
        LM_DEP(x);
        x += 5;
        LM_DEP(x);
        x += 7;
        fb_do_not_optimize(x);
    }
}
FB_BENCHMARK(add4) {
    uint64_t x = 1;
    FB_RUN(b, NULL) {
        x += 3;
        LM_DEP(x);
        x += 5;
        LM_DEP(x);
        x += 7;
        LM_DEP(x);
        x += 9;
        fb_do_not_optimize(x);
    }
}
static char lm_dst[4096], lm_src[4096];
/* a copy into a static array nothing reads: deleted, its barrier stays */
FB_BENCHMARK(deleted_copy) {
    FB_RUN(b, NULL) {
        memcpy(lm_dst, lm_src, sizeof lm_dst);
        fb_clobber_memory();
    }
}
/* nothing kept at all: the compiler deletes the body and the loop */
FB_BENCHMARK(deleted_all) {
    uint64_t x = 1;
    FB_RUN(b, NULL) {
        uint64_t y = x * 3 + 1;
        (void)y;
    }
}

FB_MAIN()
