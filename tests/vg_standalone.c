/* The loop of tests/suite_valgrind.c's Add10 without femtobench, for
 * tests/test_valgrind_cli.py and docs/valgrind.md: under Callgrind,
 * callgrind_annotate's count for fbt_loop divided by the iterations must
 * equal Add10's ins/op under -valgrind. The loop has FB_RUN's shape (one
 * epoch between two calls the compiler cannot see through, a uint64_t
 * count down), so that the compiler emits the same instructions for it.
 * Usage: vg_standalone ITERATIONS */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define FBT_STR2(x) #x
#define FBT_STR(x) FBT_STR2(x)
#if defined(__x86_64__)
#define FBT_ADDS(k, x) __asm__ __volatile__(".rept " FBT_STR(k) "\n\tadd %0, %0\n\t.endr" : "+r"(x))
#elif defined(__aarch64__)
#define FBT_ADDS(k, x)                                                                             \
    __asm__ __volatile__(".rept " FBT_STR(k) "\n\tadd %0, %0, %0\n\t.endr" : "+r"(x))
#else
#define FBT_ADDS(k, x) ((void)(x))
#endif

typedef struct fbt_epoch {
    uint64_t n;
    int left;
} fbt_epoch;

__attribute__((noinline)) static int fbt_next(fbt_epoch *e) {
    __asm__ __volatile__("" : : "r"(e) : "memory");
    return e->left-- > 0;
}
__attribute__((noinline)) static void fbt_done(fbt_epoch *e, uint64_t left) {
    __asm__ __volatile__("" : : "r"(e), "r"(left) : "memory");
}

__attribute__((noinline)) static uint64_t fbt_loop(uint64_t n) {
    uint64_t x = 1;
    fbt_epoch e = {n, 1};
    while (fbt_next(&e))
        for (uint64_t i = e.n, once = 1; once; once = 0, fbt_done(&e, i))
            for (; i; --i) FBT_ADDS(10, x);
    __asm__ __volatile__("" : "+m,r"(x) : : "memory");
    return x;
}

int main(int argc, char **argv) {
    uint64_t n = argc > 1 ? strtoull(argv[1], NULL, 10) : 1000000;
    printf("%llu\n", (unsigned long long)fbt_loop(n));
    return 0;
}
