/* A bad registration (tests/test_args.py): an absurd thread count. */
#include "femtobench.h"

FB_BENCHMARK(Fine) { (void)b; }
FB_BENCHMARK_THREADS(ThreadsAbsurd, 1, 100000) { (void)b; }

FB_MAIN()
