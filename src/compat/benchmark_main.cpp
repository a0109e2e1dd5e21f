// Google Benchmark's benchmark_main on femtobench (docs/migrating.md): the
// `main` of a suite that has none (the CMake target femtobench::benchmark_main,
// pkg-config femtobench-benchmark-main), BENCHMARK_MAIN's: the runner with
// its options and Google Benchmark's --benchmark_* flags. Not part of
// libfemtobench, whose users have a main of their own.
#include <benchmark/benchmark.h>

BENCHMARK_MAIN();
