/* Bitcoin Core's benchmark registration on femtobench (docs/migrating.md):
 *
 *     #include <bench/bench.h>
 *     static void Sha256(benchmark::Bench &bench) { bench.batch(64).unit("byte").run([&] { ... });
 * } BENCHMARK(Sha256);          // or BENCHMARK(Sha256, benchmark::PriorityLevel::HIGH)
 *     FEMTOBENCH_BENCH_MAIN()
 *
 * Each BENCHMARK is a benchmark of femtobench's runner (fb_register): the
 * runner's -filter, -list, -output_csv, -output_json and -asymptote (read by
 * bench.complexityN()) are Bitcoin Core's flags. C++11.
 */
#ifndef FEMTOBENCH_COMPAT_BITCOIN_BENCH_H
#define FEMTOBENCH_COMPAT_BITCOIN_BENCH_H

#include <nanobench.h>

#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <utility>

namespace benchmark {

using ankerl::nanobench::Bench;
typedef std::function<void(Bench &)> BenchFunction;

/* Accepted for the registrations' sake; femtobench runs every selected one. */
enum class PriorityLevel : uint8_t { LOW = 1 << 0, HIGH = 1 << 2 };

class BenchRunner {
  public:
    BenchRunner(std::string name, BenchFunction func, PriorityLevel = PriorityLevel::HIGH) {
        /* kept for the life of the process, as the registration itself */
        BenchFunction *f = new BenchFunction(std::move(func));
        if (fb_register(name.c_str(), &BenchRunner::Run, f) != FB_OK)
            std::fprintf(stderr, "femtobench: error: cannot register '%s'\n", name.c_str());
    }

  private:
    static void Run(fb_bench *b, void *ctx) {
        Bench bench(b); /* the runner's bench: its name, table and files */
        (*static_cast<BenchFunction *>(ctx))(bench);
    }
};

} // namespace benchmark

#define FB__BENCH_PASTE2(a, b) a##b
#define FB__BENCH_PASTE(a, b) FB__BENCH_PASTE2(a, b)
#define FB__BENCH_FIRST(a, ...) #a
#define FB__BENCH_NAME(...) FB__BENCH_FIRST(__VA_ARGS__, unused)
#define BENCHMARK(...)                                                                             \
    static ::benchmark::BenchRunner FB__BENCH_PASTE(fb__bench_, __LINE__)(                         \
        FB__BENCH_NAME(__VA_ARGS__), __VA_ARGS__)

/* The runner's main (fb_main; -help lists the options). */
#define FEMTOBENCH_BENCH_MAIN()                                                                    \
    int main(int argc, char **argv) { return fb_main(argc, argv); }

#endif /* FEMTOBENCH_COMPAT_BITCOIN_BENCH_H */
