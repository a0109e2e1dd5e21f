/* A bad registration (tests/test_args.py): a benchmark named like an
 * instance of a family ("Copy/64"). */
#include "femtobench.h"

FB_BENCHMARK_RANGE(Copy, 8, 512, 8) { (void)b; }

static void other(fb_bench *b) { (void)b; }
static fb__registration suite_instance_reg = {"Copy/64", other, NULL, FB__REG_ONE, NULL, 0,
                                              0,         0,     0};
FB__CONSTRUCTOR(suite_instance_register) { fb__register(&suite_instance_reg); }

FB_MAIN()
