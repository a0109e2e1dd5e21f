/* A bad registration (tests/test_args.py): a range with lo > hi. */
#include "femtobench.h"

FB_BENCHMARK(Fine) { (void)b; }
FB_BENCHMARK_RANGE(Order, 64, 8, 2) { (void)b; }

FB_MAIN()
