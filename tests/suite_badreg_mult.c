/* A bad registration (tests/test_args.py): a range with mult < 2. */
#include "femtobench.h"

FB_BENCHMARK(Fine) { (void)b; }
FB_BENCHMARK_RANGE(Mult, 1, 64, 1) { (void)b; }

FB_MAIN()
