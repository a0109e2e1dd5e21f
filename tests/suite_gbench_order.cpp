// A suite written against Google Benchmark's API, for test_gbench_order.py:
// the order in which benchmarks run and are listed (Google Benchmark's: the
// order of registration, a family's instances by argument, then by thread
// count; fixtures where BENCHMARK_F or BENCHMARK_REGISTER_F stands;
// RegisterBenchmark at run time after the static ones), and complexity
// fits over families (Complexity with a Range, SetComplexityN). The times
// are manual (SetIterationTime), so that the fits are exact. The same
// source builds against Google Benchmark itself.
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdint>

namespace {

void Work(benchmark::State &state) {
    for (auto _ : state) benchmark::DoNotOptimize(state.iterations());
}

void BM_Zeta(benchmark::State &state) { Work(state); }
void BM_Alpha(benchmark::State &state) { Work(state); }
void BM_Capture(benchmark::State &state, int k) {
    Work(state);
    benchmark::DoNotOptimize(k);
}
template <class T> void BM_Templ(benchmark::State &state) { Work(state); }
void BM_Runtime(benchmark::State &state) { Work(state); }

// Manual time per iteration: 42 ns * f(N).
double Linear(double n) { return n; }
double Square(double n) { return n * n; }
double NLogN(double n) { return n * std::log2(n); }
template <double (*F)(double)> void BM_Grow(benchmark::State &state) {
    for (auto _ : state) state.SetIterationTime(42e-9 * F(static_cast<double>(state.range(0))));
    state.SetComplexityN(state.range(0));
}
// N given by SetComplexityN, not the argument (which is 1, 2, 3): 100, 200, 300.
void BM_OwnN(benchmark::State &state) {
    for (auto _ : state) state.SetIterationTime(1e-9 * 100.0 * static_cast<double>(state.range(0)));
    state.SetComplexityN(100 * state.range(0));
}

// One N for the whole family: no fit, and that is said.
void BM_OneN(benchmark::State &state) {
    for (auto _ : state) state.SetIterationTime(1e-7);
    state.SetComplexityN(100);
}

class Fix : public benchmark::Fixture {};

} // namespace

BENCHMARK(BM_Zeta)->Arg(3)->Arg(1)->Threads(2)->Threads(1);
BENCHMARK(BM_Alpha);
BENCHMARK_F(Fix, Middle)(benchmark::State &state) { Work(state); }
BENCHMARK_DEFINE_F(Fix, Late)(benchmark::State &state) { Work(state); }
BENCHMARK(BM_Alpha)->Arg(7);
BENCHMARK_CAPTURE(BM_Capture, beta, 1);
BENCHMARK_REGISTER_F(Fix, Late)->Arg(2)->Arg(1);
BENCHMARK_TEMPLATE(BM_Templ, int);
BENCHMARK_TEMPLATE(BM_Grow, Linear)
    ->RangeMultiplier(2)
    ->Range(1 << 4, 1 << 9)
    ->UseManualTime()
    ->Complexity(benchmark::oN);
BENCHMARK_TEMPLATE(BM_Grow, Square)
    ->RangeMultiplier(2)
    ->Range(1 << 4, 1 << 9)
    ->UseManualTime()
    ->Complexity();
BENCHMARK_TEMPLATE(BM_Grow, NLogN)
    ->RangeMultiplier(2)
    ->Range(1 << 4, 1 << 9)
    ->UseManualTime()
    ->Complexity(benchmark::oNLogN);
// asked for O(n) on an O(n^2) workload: the O(n) row is reported, not the best
BENCHMARK_TEMPLATE(BM_Grow, Square)
    ->RangeMultiplier(2)
    ->Range(1 << 4, 1 << 9)
    ->UseManualTime()
    ->Complexity(benchmark::oN);
BENCHMARK(BM_OwnN)->DenseRange(1, 3)->UseManualTime()->Complexity(benchmark::oN);
BENCHMARK(BM_OwnN)->DenseRange(1, 3)->UseManualTime()->Complexity([](benchmark::IterationCount n) {
    return static_cast<double>(n);
});
BENCHMARK(BM_OneN)->DenseRange(1, 2)->UseManualTime()->Complexity();

int main(int argc, char **argv) {
    benchmark::RegisterBenchmark("BM_Runtime/z", BM_Runtime);
    benchmark::RegisterBenchmark("BM_Runtime/a", BM_Runtime)->Arg(2)->Arg(1);
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
#ifdef BENCHMARK_VERSION_FEMTOBENCH
    return benchmark::GetExitStatus();
#else
    return 0;
#endif
}
