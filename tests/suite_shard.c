/* A suite for -shard=k/n (tests/test_shard_cli.py): families of several
 * sizes, benchmarks alone, and names with regex metacharacters (registered
 * by hand: FB_BENCHMARK takes a C identifier) next to names that an
 * unescaped pattern would also match. */
#include "femtobench.h"

static void suite_shard_op(fb_bench *b) {
    uint64_t x = 1;
    FB_RUN(b, NULL) {
        x = x * 3 + (uint64_t)fb_arg(b);
        fb_do_not_optimize(x);
    }
}

FB_BENCHMARK_RANGE(SipHash, 8, 4096, 8) { suite_shard_op(b); } /* 4 instances */
FB_BENCHMARK_ARGS(SipHash_32b, 64, 640) { suite_shard_op(b); }
FB_BENCHMARK_ARGS(Copy, 1, 2, 3) { suite_shard_op(b); }
FB_BENCHMARK(Alpha) { suite_shard_op(b); }
FB_BENCHMARK(Beta) { suite_shard_op(b); }
FB_BENCHMARK(Gamma) { suite_shard_op(b); }
FB_BENCHMARK(Delta) { suite_shard_op(b); }
FB_BENCHMARK(aXb) { suite_shard_op(b); }
FB_BENCHMARK(xxy) { suite_shard_op(b); }

static fb__registration suite_shard_dot = {"a.b", suite_shard_op, NULL, FB__REG_ONE, NULL, 0, 0, 0,
                                           0};
static fb__registration suite_shard_plus = {"x+y", suite_shard_op, NULL, FB__REG_ONE, NULL, 0, 0, 0,
                                            0};
FB__CONSTRUCTOR(suite_shard_register) {
    fb__register(&suite_shard_dot);
    fb__register(&suite_shard_plus);
}

FB_MAIN()
