// A Google Benchmark suite without a main: main comes from
// femtobench::benchmark_main (Google Benchmark's benchmark_main), as its own
// tests take it. FB_GBENCH_EMPTY: a suite with no benchmark at all (Google
// Benchmark's cxx11_test). tests/test_gbench_compat.py runs both. C++11.
#include <benchmark/benchmark.h>

#ifndef FB_GBENCH_EMPTY
namespace {
void BM_FromMain(benchmark::State &state) {
    for (auto _ : state) benchmark::ClobberMemory();
}
BENCHMARK(BM_FromMain);
} // namespace
#endif
