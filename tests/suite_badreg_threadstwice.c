/* A bad registration (tests/test_args.py): a thread count given twice. */
#include "femtobench.h"

FB_BENCHMARK(Fine) { (void)b; }
FB_BENCHMARK_THREADS(ThreadsThreadstwice, 2, 4, 2) { (void)b; }

FB_MAIN()
