/* Where the timed loops of FB_RUN and FB_ALTERNATIVE lie (docs/design.md,
 * "Where the loop lies"), compiled by tests/test_loop_align.py with PAD
 * bytes of code before the benchmark's function: it prints the function's
 * address, then an address inside each loop's body, each modulo 64. The
 * function moves with PAD; the loops must not. */
#include <femtobench.h>
#include <stdint.h>
#include <stdio.h>

#ifndef PAD
#define PAD 0
#endif
#define STR2(x) #x
#define STR(x) STR2(x)
/* code of PAD bytes before the benchmark's function: all that follows moves */
__asm__(".text\n.p2align 6\n.globl la_pad\nla_pad:\n.skip " STR(PAD) ", 0x90\nret\n");

static volatile uintptr_t at_run, at_alt;

#if defined(__x86_64__)
#define HERE(v) __asm__ volatile("lea 0(%%rip), %0" : "=r"(v))
#elif defined(__i386__)
#define HERE(v) __asm__ volatile("call 1f\n1: pop %0" : "=r"(v))
#elif defined(__aarch64__)
#define HERE(v) __asm__ volatile("adr %0, ." : "=r"(v))
#endif

__attribute__((noinline)) static void timed(fb_bench *b) {
    FB_RUN(b, "loop") {
        uintptr_t v;
        HERE(v);
        at_run = v;
    }
    FB_COMPARE(b, "alternatives") {
        FB_ALTERNATIVE("a") {
            uintptr_t v;
            HERE(v);
            at_alt = v;
        }
        FB_ALTERNATIVE("b") { fb_do_not_optimize(at_alt); }
    }
}

int main(void) {
    fb_bench *b = fb_bench_new();
    if (!b) return 1;
    fb_set_output(b, NULL);
    fb_set_epochs(b, 3);
    fb_set_epoch_iterations(b, 100);
    timed(b);
    printf("%u %u %u\n", (unsigned)((uintptr_t)&timed % 64), (unsigned)(at_run % 64),
           (unsigned)(at_alt % 64));
    fb_bench_free(b);
    return 0;
}
