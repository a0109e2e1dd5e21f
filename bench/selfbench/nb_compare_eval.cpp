// The comparison evaluation, nanobench side: the same chains and output as
// fb_compare_eval.c, with nanobench 4.6's Bench::compare() at its defaults.
// Not built by CMake: tools/compare_eval.py --nanobench DIR compiles it
// against a nanobench checkout outside this repository (DIR holds
// nanobench.h). docs/compare.md has the method.
#define ANKERL_NANOBENCH_IMPLEMENT
#include <nanobench.h>

#include "compare_chains.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

// The one function of `self`, called through a pointer as fb_compare does.
static void cc_chain40(void *ctx) {
    uint64_t x = *static_cast<uint64_t *>(ctx);
    CC_CHAIN40(x);
    *static_cast<uint64_t *>(ctx) = x;
}

int main(int argc, char **argv) {
    const char *mode = argc == 3 ? argv[1] : "";
    bool known = std::strcmp(mode, "known") == 0, copies = std::strcmp(mode, "copies") == 0;
    if (!known && !copies && std::strcmp(mode, "self") != 0) {
        std::fprintf(stderr, "usage: nb_compare_eval self|copies|known N\n");
        return 2;
    }
    void (*volatile fn)(void *) = cc_chain40; // an indirect call, as fb_compare makes
    long n = std::strtol(argv[2], nullptr, 10);
    uint64_t xa = 1, xb = 3;
    for (long i = 0; i < n; ++i) {
        ankerl::nanobench::Bench b;
        b.output(nullptr);
        auto t0 = std::chrono::steady_clock::now();
        void (*f)(void *) = fn;
        auto c = known ? b.compare(
                             "chain44", [&] { CC_CHAIN44(xa); }, "chain40", [&] { CC_CHAIN40(xb); })
                 : copies ? b.compare(
                                "chain40 a", [&] { CC_CHAIN40(xa); }, "chain40 b",
                                [&] { CC_CHAIN40(xb); })
                          : b.compare(
                                "chain40", [&] { f(&xa); }, "again", [&] { f(&xb); });
        double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        std::printf("%.9g %.9g %.9g %d %zu %.6f\n", c[1].relative, c[1].relativeLow,
                    c[1].relativeHigh, c.isSignificant(1) ? 1 : 0, c.rounds(), wall);
    }
    ankerl::nanobench::doNotOptimizeAway(xa);
    ankerl::nanobench::doNotOptimizeAway(xb);
    return 0;
}
