/* A bad registration (tests/test_args.py): an argument given twice. */
#include "femtobench.h"

FB_BENCHMARK(Fine) { (void)b; }
FB_BENCHMARK_ARGS(Twice, 8, 64, 8) { (void)b; }

FB_MAIN()
