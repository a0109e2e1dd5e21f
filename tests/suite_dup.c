/* Two benchmarks registered under one name: the runner must refuse. */
#include "femtobench.h"

FB_BENCHMARK(Same) { (void)b; }

static void other(fb_bench *b) { (void)b; }
static fb__registration suite_dup_reg = {"Same", other, NULL, FB__REG_ONE, NULL, 0, 0, 0, 0};
FB__CONSTRUCTOR(suite_dup_register) { fb__register(&suite_dup_reg); }

FB_MAIN()
