/* A tiny test harness: CHECK(cond) and friends, one process per test file. */
#ifndef FB_TEST_CHECK_H
#define FB_TEST_CHECK_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "portable.h" /* Windows: the POSIX calls the tests use */

static int check_failures_;

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);               \
            check_failures_++;                                                                     \
        }                                                                                          \
    } while (0)

#define CHECK_NEAR(a, b, tol)                                                                      \
    do {                                                                                           \
        double a_ = (double)(a), b_ = (double)(b);                                                 \
        if (!(fabs(a_ - b_) <= (tol))) {                                                           \
            fprintf(stderr, "%s:%d: CHECK_NEAR failed: %s = %.17g, %s = %.17g\n", __FILE__,        \
                    __LINE__, #a, a_, #b, b_);                                                     \
            check_failures_++;                                                                     \
        }                                                                                          \
    } while (0)

#define CHECK_STR(a, b)                                                                            \
    do {                                                                                           \
        const char *a_ = (a), *b_ = (b);                                                           \
        if (!a_ || !b_ || strcmp(a_, b_) != 0) {                                                   \
            fprintf(stderr, "%s:%d: CHECK_STR failed:\n  %s = \"%s\"\n  %s = \"%s\"\n", __FILE__,  \
                    __LINE__, #a, a_ ? a_ : "(null)", #b, b_ ? b_ : "(null)");                     \
            check_failures_++;                                                                     \
        }                                                                                          \
    } while (0)

/* main's result: `return CHECK_DONE();`. A result left unused is a warning
 * (an error under -Werror): a test whose main drops it could never fail. */
#if defined(__GNUC__)
__attribute__((warn_unused_result))
#endif
static inline int
check_done_(void) {
    if (check_failures_) {
        fprintf(stderr, "%d check(s) failed\n", check_failures_);
        return 1;
    }
    printf("ok\n");
    return 0;
}
#define CHECK_DONE() check_done_()

/* The emulator the test runs under (FB_TEST_EMULATOR, set by the cross
 * builds' ctest: "wine", "qemu-aarch64"), or NULL on the machine itself.
 * Under qemu the guest's time is the host's time spent translating, so a
 * timing bound means nothing there: a test says so (printed) and checks what
 * the function can still be held to (monotonic, finite, bounded). */
static inline const char *check_emulator(void) {
    const char *e = getenv("FB_TEST_EMULATOR");
    return e && *e ? e : NULL;
}

/* Skips the whole test (ctest reports it as skipped via exit code 77). */
#define CHECK_SKIP(reason)                                                                         \
    do {                                                                                           \
        printf("SKIP: %s\n", reason);                                                              \
        exit(77);                                                                                  \
    } while (0)

#endif
