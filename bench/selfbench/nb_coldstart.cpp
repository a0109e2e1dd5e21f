// The nanobench side of bench/selfbench/coldstart.c: the same ten add
// chains, nanobench's defaults (a markdown table on stdout). Built by
// tools/coldstart_bench.py against a nanobench checkout outside this
// repository (--nanobench DIR).
#define ANKERL_NANOBENCH_IMPLEMENT
#include <nanobench.h>

#include <cstdint>
#include <cstdlib>

#define CS_RUN(k)                                                                                  \
    if (n > k) {                                                                                   \
        b.run("add" #k, [&] {                                                                      \
            x += x + k;                                                                            \
            ankerl::nanobench::doNotOptimizeAway(x);                                               \
        });                                                                                        \
    }

int main(int argc, char **argv) {
    int n = argc > 1 ? std::atoi(argv[1]) : 1;
    ankerl::nanobench::Bench b;
    uint64_t x = 1;
    CS_RUN(0)
    CS_RUN(1)
    CS_RUN(2)
    CS_RUN(3)
    CS_RUN(4)
    CS_RUN(5)
    CS_RUN(6)
    CS_RUN(7)
    CS_RUN(8)
    CS_RUN(9)
    return 0;
}
