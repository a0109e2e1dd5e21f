/* A suite with a family over thread counts beside a plain benchmark
 * (tests/test_threads_cli.py): groups of threads in every output, with
 * -isolate, -repetitions, -baseline and -valgrind. */
#include "femtobench.h"

#include <stdatomic.h>

static _Atomic uint64_t suite_threads_shared;

FB_BENCHMARK_THREADS(Shared, 1, 2) {
    FB_RUN(b, NULL) { atomic_fetch_add_explicit(&suite_threads_shared, 1, memory_order_relaxed); }
}

FB_BENCHMARK(Plain) {
    uint64_t x = 1;
    FB_RUN(b, NULL) {
        x += x >> 3;
        fb_do_not_optimize(x);
    }
}

FB_MAIN()
