// A suite written against Google Benchmark's API, built with
// include/compat/gbench (femtobench::benchmark); tests/test_gbench_compat.py
// checks its names, counters and rows. C++11.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <string>
#include <vector>

namespace {

void BM_Range(benchmark::State &state) {
    for (auto _ : state) benchmark::DoNotOptimize(state.range(0));
}
BENCHMARK(BM_Range)->Range(8, 512);                    // 8 64 512
BENCHMARK(BM_Range)->RangeMultiplier(2)->Range(-8, 4); // -8 -4 -2 -1 0 1 2 4
BENCHMARK(BM_Range)->DenseRange(10, 14, 2);            // 10 12 14

void BM_Pair(benchmark::State &state) {
    for (auto _ : state) benchmark::DoNotOptimize(state.range(0) + state.range(1));
}
BENCHMARK(BM_Pair)->Ranges({{1, 8}, {16, 32}})->ArgNames({"a", "b"});
BENCHMARK(BM_Pair)->ArgsProduct({{1, 2}, {3, 4}})->Iterations(5)->Name("BM_Product");

void BM_Threads(benchmark::State &state) {
    if (state.thread_index() >= state.threads()) std::abort();
    for (auto _ : state) benchmark::ClobberMemory();
    state.counters["per_thread"] = 1;
    state.counters["avg"] = benchmark::Counter(4, benchmark::Counter::kAvgThreads);
}
BENCHMARK(BM_Threads)->Arg(3)->ThreadRange(1, 2)->UseRealTime();

void BM_Counters(benchmark::State &state) {
    for (auto _ : state) benchmark::DoNotOptimize(state.iterations());
    state.SetItemsProcessed(state.iterations() * 2);
    state.counters["size"] = 42;
    state.SetLabel("two items an iteration");
    state.counters["per_iter"] = benchmark::Counter(static_cast<double>(state.iterations()) * 3,
                                                    benchmark::Counter::kAvgIterations);
}
BENCHMARK(BM_Counters);

void BM_Skip(benchmark::State &state) {
    state.SkipWithMessage("no device here");
    for (auto _ : state) {
    }
}
BENCHMARK(BM_Skip);

void BM_Empty(benchmark::State &state) {
    for (auto _ : state) {
    }
}
BENCHMARK(BM_Empty);

// KeepRunningBatch: whole batches, counted; a batched body's counts only
// grow from call to call, or are one batch (Google Benchmark's basic_test)
void BM_Batch(benchmark::State &state) {
    const benchmark::IterationCount k = 1009;
    static benchmark::IterationCount last = 0;
    benchmark::IterationCount n = 0;
    while (state.KeepRunningBatch(k)) n += k;
    if (state.iterations() != n || n % k != 0 || (n != k && n <= last)) std::abort();
    last = n;
}
BENCHMARK(BM_Batch);

class Fix : public benchmark::Fixture {
  public:
    void SetUp(const benchmark::State &) override { data.assign(16, 1); }
    void TearDown(const benchmark::State &) override { data.clear(); }
    std::vector<int> data;
};
BENCHMARK_DEFINE_F(Fix, Sum)(benchmark::State &state) {
    for (auto _ : state) {
        int s = 0;
        for (int v : data) s += v;
        benchmark::DoNotOptimize(s);
    }
}
BENCHMARK_REGISTER_F(Fix, Sum)->Arg(16);

template <class T> void BM_Templ(benchmark::State &state) {
    for (auto _ : state) {
        T t = T();
        benchmark::DoNotOptimize(t);
    }
}
BENCHMARK_TEMPLATE(BM_Templ, int);

void BM_Capture(benchmark::State &state, int k) {
    for (auto _ : state) benchmark::DoNotOptimize(k);
}
BENCHMARK_CAPTURE(BM_Capture, seven, 7);

} // namespace

int main(int argc, char **argv) {
    benchmark::RegisterBenchmark("runtime name with spaces", [](benchmark::State &st) {
        for (auto _ : st) benchmark::ClobberMemory();
    });
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return benchmark::GetExitStatus();
}
