/* A bad registration (tests/test_args.py): a thread count of 0. */
#include "femtobench.h"

FB_BENCHMARK(Fine) { (void)b; }
FB_BENCHMARK_THREADS(ThreadsZero, 0) { (void)b; }

FB_MAIN()
