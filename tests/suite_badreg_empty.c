/* A bad registration (tests/test_args.py): a family without arguments. */
#include "femtobench.h"

FB_BENCHMARK(Fine) { (void)b; }
FB_BENCHMARK_ARGS(Empty, ) { (void)b; }

FB_MAIN()
