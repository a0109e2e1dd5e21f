// The self-benchmarks, Google Benchmark side: the same workloads as
// fb_selfbench.c (workloads.h), written the way a typical Google Benchmark
// user writes them, with Google Benchmark's defaults.
//
// One deliberate choice: `slow` (a 10 ms sleep) is registered with
// UseRealTime(). Google Benchmark sizes its runs by CPU time by default; a
// sleep costs almost no CPU, so without it the iteration count grows 10x per
// round until the real-time safety stop (1 + 10 + 100 + 1000 sleeps, ~11 s).
// Its documentation recommends UseRealTime() for such code, and the
// comparison would otherwise be trivially won. `slow_cputime` is the same
// benchmark without it, for the record (tools/selfbench.py --gb-cputime-slow).
//
// tools/selfbench.py runs one process per workload:
//   gb_selfbench --benchmark_filter='^fast$' --benchmark_format=json
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstring>

#include "hashes.h"
#include "workloads.h"

static void fast(benchmark::State &state) {
    uint64_t x = 1;
    for (auto _ : state) {
        x += x;
        benchmark::DoNotOptimize(x);
    }
}
BENCHMARK(fast);

static void siphash(benchmark::State &state) {
    uint8_t v[32] = {0};
    uint64_t k1 = 0;
    for (auto _ : state) {
        uint64_t h = fbh_siphash24_u256(0, ++k1, v);
        benchmark::DoNotOptimize(h);
        std::memcpy(v, &h, sizeof h);
    }
}
BENCHMARK(siphash);

static void fluct(benchmark::State &state) {
    sb_rng rng = {42};
    for (auto _ : state) {
        uint64_t s = sb_fluct(&rng);
        benchmark::DoNotOptimize(s);
    }
}
BENCHMARK(fluct);

static void slow(benchmark::State &state) {
    for (auto _ : state) sb_sleep_10ms();
}
BENCHMARK(slow)->UseRealTime();
BENCHMARK(slow)->Name("slow_cputime");

static void memcpy4k(benchmark::State &state) {
    static uint8_t src[SB_MEMCPY_BYTES], dst[SB_MEMCPY_BYTES];
    std::memset(src, 1, sizeof src);
    std::memset(dst, 2, sizeof dst);
    uint8_t *d = dst;
    for (auto _ : state) {
        benchmark::DoNotOptimize(d);
        std::memcpy(d, src, SB_MEMCPY_BYTES);
        benchmark::ClobberMemory();
    }
    state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * SB_MEMCPY_BYTES);
}
BENCHMARK(memcpy4k);

BENCHMARK_MAIN();
