/* A bad registration (tests/test_args.py): a family whose name another
 * benchmark has (registered by hand here, as another file of a suite could
 * with FB_BENCHMARK(Copy)). */
#include "femtobench.h"

FB_BENCHMARK_ARGS(Copy, 8, 64) { (void)b; }

static void other(fb_bench *b) { (void)b; }
static fb__registration suite_collide_reg = {"Copy", other, NULL, FB__REG_ONE, NULL, 0, 0, 0, 0};
FB__CONSTRUCTOR(suite_collide_register) { fb__register(&suite_collide_reg); }

FB_MAIN()
