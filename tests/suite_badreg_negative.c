/* A bad registration (tests/test_args.py): a range starting below 0. */
#include "femtobench.h"

FB_BENCHMARK(Fine) { (void)b; }
FB_BENCHMARK_RANGE(Negative, -8, 8, 2) { (void)b; }

FB_MAIN()
