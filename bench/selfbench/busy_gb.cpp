// The busy-machine workloads with Google Benchmark (busy_ops.h says what
// each is), written as a Google Benchmark user writes them, its defaults
// kept; tools/busy_check.py compares its cpu_time with femtobench's.
#include <benchmark/benchmark.h>

#include <cstdint>

#include "busy_ops.h"

static void add1(benchmark::State &state) {
    uint64_t x = 1;
    for (auto _ : state) {
        x += x;
        benchmark::DoNotOptimize(x);
    }
}
BENCHMARK(add1);

#define BUSY_ADD x += x; benchmark::DoNotOptimize(x);
#define BUSY_ADD8 BUSY_ADD BUSY_ADD BUSY_ADD BUSY_ADD BUSY_ADD BUSY_ADD BUSY_ADD BUSY_ADD
static void chain32(benchmark::State &state) {
    uint64_t x = 1;
    for (auto _ : state) {
        BUSY_ADD8 BUSY_ADD8 BUSY_ADD8 BUSY_ADD8
    }
}
BENCHMARK(chain32);

static void hash16(benchmark::State &state) {
    uint64_t h = 1;
    for (auto _ : state) {
        h = busy_siphash16(1, 2, h, 3);
        benchmark::DoNotOptimize(h);
    }
    state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * 16);
}
BENCHMARK(hash16);

static void mul(benchmark::State &state) {
    uint64_t x = 1;
    const uint32_t k = static_cast<uint32_t>(state.range(0));
    for (auto _ : state) {
        x = busy_mul(x, k);
        benchmark::DoNotOptimize(x);
    }
}
BENCHMARK(mul)->Name("mul1us")->Arg(BUSY_MUL_1US);
BENCHMARK(mul)->Name("mul100us")->Arg(100 * BUSY_MUL_1US);
BENCHMARK(mul)->Name("mul1ms")->Arg(1000 * BUSY_MUL_1US);

static void mul1us_threads(benchmark::State &state) {
    uint64_t x = 1;
    for (auto _ : state) {
        x = busy_mul(x, BUSY_MUL_1US);
        benchmark::DoNotOptimize(x);
    }
}
BENCHMARK(mul1us_threads)->Threads(1)->Threads(2)->Threads(4);

BENCHMARK_MAIN();
