/* Benchmarks with a known instruction count, for tests/test_valgrind_cli.py:
 * AddK runs K dependent adds in inline assembly per iteration, so under
 * -valgrind its ins/op must be exactly K plus the loop's own instructions
 * (the same for every K). Also a benchmark with a batch and one through
 * fb_run's function pointer. Only x86-64 and AArch64 have the assembly;
 * elsewhere the suite has just `Other`, and the test skips. */
#include <femtobench.h>

#define FBT_STR2(x) #x
#define FBT_STR(x) FBT_STR2(x)

#if defined(__x86_64__)
#define FBT_ADDS(k, x) __asm__ __volatile__(".rept " FBT_STR(k) "\n\tadd %0, %0\n\t.endr" : "+r"(x))
#elif defined(__aarch64__)
#define FBT_ADDS(k, x)                                                                             \
    __asm__ __volatile__(".rept " FBT_STR(k) "\n\tadd %0, %0, %0\n\t.endr" : "+r"(x))
#endif

#ifdef FBT_ADDS
#define FBT_ADD_BENCH(k)                                                                           \
    FB_BENCHMARK(Add##k) {                                                                         \
        uint64_t x = 1;                                                                            \
        FB_RUN(b, NULL) { FBT_ADDS(k, x); }                                                        \
        fb_do_not_optimize(x);                                                                     \
    }
FBT_ADD_BENCH(1)
FBT_ADD_BENCH(2)
FBT_ADD_BENCH(3)
FBT_ADD_BENCH(4)
FBT_ADD_BENCH(10)
FBT_ADD_BENCH(11)
FBT_ADD_BENCH(100)
FBT_ADD_BENCH(101)

/* 64 adds per call over 8 "bytes": ins/byte = ins/op / 8 */
FB_BENCHMARK(Add64Batch8) {
    uint64_t x = 1;
    fb_set_batch(b, 8);
    fb_set_unit(b, "byte");
    FB_RUN(b, NULL) { FBT_ADDS(64, x); }
    fb_do_not_optimize(x);
}

/* An epoch_iterations set in code fixes the counted pair at (E, 2E). */
FB_BENCHMARK(Add10Fixed) {
    uint64_t x = 1;
    fb_set_epoch_iterations(b, 1000);
    FB_RUN(b, NULL) { FBT_ADDS(10, x); }
    fb_do_not_optimize(x);
}

/* 21 epochs asked for: under -valgrind the counted schedule replaces them,
 * and no line may say that some were not run. */
FB_BENCHMARK(Add10Epochs) {
    uint64_t x = 1;
    fb_set_epochs(b, 21);
    FB_RUN(b, NULL) { FBT_ADDS(10, x); }
    fb_do_not_optimize(x);
}

/* Comparisons under -valgrind are counted: PairDouble's second alternative
 * executes exactly twice the first's instructions per iteration (10 adds
 * plus the loop's own L instructions against 20 + L adds plus L: in
 * FB_COMPARE's loop L is 2 with gcc 12 -O2, 3 with clang 14), so its ratio
 * must be exactly 0.5 (tests/test_valgrind_compare.py says so when another
 * compiler's L differs); PairSame's two alternatives are the same code, so
 * exactly 1. */
#if defined(__clang__)
#define FBT_DOUBLE_K 23
#else
#define FBT_DOUBLE_K 22
#endif
FB_BENCHMARK(PairDouble) {
    uint64_t x = 1, y = 1;
    FB_COMPARE(b, "pair double") {
        FB_ALTERNATIVE("ten") { FBT_ADDS(10, x); }
        FB_ALTERNATIVE("twice") { FBT_ADDS(FBT_DOUBLE_K, y); }
    }
    fb_do_not_optimize(x);
    fb_do_not_optimize(y);
}

FB_BENCHMARK(PairSame) {
    uint64_t x = 1, y = 1;
    FB_COMPARE(b, "pair same") {
        FB_ALTERNATIVE("one") { FBT_ADDS(10, x); }
        FB_ALTERNATIVE("other") { FBT_ADDS(10, y); }
    }
    fb_do_not_optimize(x);
    fb_do_not_optimize(y);
}
#endif

static void fbt_other(void *ctx) {
    uint64_t *x = (uint64_t *)ctx;
    *x = *x * 3 + 1;
    fb_do_not_optimize(*x);
}

FB_BENCHMARK(Other) {
    uint64_t x = 1;
    fb_run(b, NULL, fbt_other, &x);
}

/* Not deterministic: call c does (c mod 5) multiply-adds, so two counted
 * epochs of the same n iterations that start at different calls execute
 * different numbers of instructions (-valgrind must say so). */
static uint64_t fbt_calls;

FB_BENCHMARK(NotDeterministic) {
    uint64_t x = 1;
    FB_RUN(b, NULL) {
        uint64_t k = ++fbt_calls % 5;
        for (uint64_t i = 0; i < k; ++i) {
            x = x * 3 + i;
            fb_do_not_optimize(x);
        }
    }
}

FB_MAIN()
