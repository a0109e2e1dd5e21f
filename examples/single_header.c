/* SPDX-License-Identifier: MIT
 *
 * single_header.c: femtobench as one file dropped into your project.
 *
 * Get femtobench.h: copy build/single/femtobench.h from any femtobench build
 * (or run tools/amalgamate -o femtobench.h), then
 *
 *     cc -O2 -std=c11 single_header.c -o single_header -pthread -lm
 *     ./single_header -sanity_check     (or no option: the full table)
 *
 * Exactly one C file defines FEMTOBENCH_IMPLEMENTATION before including the
 * header, and includes it before any other header (it sets the POSIX feature
 * macros the implementation needs). Other files include it plainly.
 */
#define FEMTOBENCH_IMPLEMENTATION
#include "femtobench.h"

#include <string.h>

FB_BENCHMARK(StrLen) {
    static char s[256];
    memset(s, 'a', sizeof s - 1);
    size_t n = 0;
    FB_RUN(b, "StrLen") {
        n += strlen(s);
        fb_do_not_optimize(n);
    }
}

FB_BENCHMARK(Xorshift) {
    uint64_t x = 88172645463325252u;
    FB_RUN(b, "Xorshift") {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        fb_do_not_optimize(x);
    }
}

FB_MAIN()
