// A suite written against nanobench's API and Bitcoin Core's registration,
// built with include/compat/nanobench (femtobench::nanobench);
// tests/test_nanobench_compat.py runs it with Bitcoin Core's flags. C++11.
#include <bench/bench.h>
#include <nanobench.h>

#include <cstdint>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

static void Sum(benchmark::Bench &bench) {
    std::vector<uint64_t> v(64, 1);
    bench.batch(v.size()).unit("byte").run([&] {
        uint64_t s = 0;
        for (uint64_t x : v) s += x;
        ankerl::nanobench::doNotOptimizeAway(s);
    });
}
BENCHMARK(Sum);

static void Grow(benchmark::Bench &bench) {
    // -asymptote=a,b: the runner sets each N in turn
    double n = bench.complexityN() > 0 ? bench.complexityN() : 8;
    std::vector<int> v(static_cast<std::size_t>(n), 1);
    bench.run([&] {
        int s = 0;
        for (int x : v) s += x;
        ankerl::nanobench::doNotOptimizeAway(s);
    });
}
BENCHMARK(Grow, benchmark::PriorityLevel::LOW);

// nanobench's own Bench outside the runner, and its Rng: "-selftest" prints
// what the test compares (the Rng's sequence is nanobench's).
static int SelfTest() {
    ankerl::nanobench::Rng rng(123);
    uint64_t a = rng(), b = rng(), c = rng();
    uint32_t d = rng.bounded(1000);
    double e = rng.uniform01();
    std::printf("rng %llu %llu %llu %u %.17g\n", static_cast<unsigned long long>(a),
                static_cast<unsigned long long>(b), static_cast<unsigned long long>(c), d, e);
    std::ostringstream table;
    ankerl::nanobench::Bench bench;
    bench.title("own").output(&table).epochs(3).minEpochIterations(10);
    uint64_t x = 1;
    bench.run("add", [&] {
        x += x;
        ankerl::nanobench::doNotOptimizeAway(x);
    });
    auto const &r = bench.results().front();
    std::printf("results %zu name %s epochs %zu table %d median_ok %d\n", bench.results().size(),
                r.config().mBenchmarkName.c_str(), r.size(),
                table.str().find("`add`") != std::string::npos ? 1 : 0,
                r.median(ankerl::nanobench::Result::Measure::elapsed) > 0 ? 1 : 0);
    std::ostringstream json;
    bench.render(ankerl::nanobench::templates::json(), json);
    std::printf("json %d\n", json.str().find("\"add\"") != std::string::npos ? 1 : 0);

    // compare(): femtobench's paired comparison; entry 0 is the baseline
    std::ostringstream cmp_table;
    ankerl::nanobench::Bench cb;
    cb.output(&cmp_table).epochs(12).minEpochIterations(10);
    uint64_t y = 1;
    auto const cr = cb.compare(
        "one add",
        [&] {
            y += 1;
            ankerl::nanobench::doNotOptimizeAway(y);
        },
        "two adds",
        [&] {
            y += 1;
            ankerl::nanobench::doNotOptimizeAway(y);
            y += 3;
            ankerl::nanobench::doNotOptimizeAway(y);
        });
    std::printf("compare %zu %s|%s %g %d %d %d %d\n", cr.size(), cr[0].name.c_str(),
                cr[1].name.c_str(), cr[0].relative, cr.isSignificant(0) ? 1 : 0,
                cr[1].relative > 0 && cr[1].relativeLow <= cr[1].relative &&
                        cr[1].relative <= cr[1].relativeHigh
                    ? 1
                    : 0,
                cr.rounds() >= 12 ? 1 : 0,
                cmp_table.str().find("`two adds`") != std::string::npos ? 1 : 0);

    // each result keeps its context; a new title starts the results over;
    // a template naming a context variable a result lacks throws
    ankerl::nanobench::Bench cx;
    cx.output(nullptr).epochs(3).minEpochIterations(10);
    auto op = [&] {
        x += 1;
        ankerl::nanobench::doNotOptimizeAway(x);
    };
    cx.context("k", "a").run("first", op).context("k", "b").run("second", op);
    std::printf("context %s %s\n", cx.results()[0].context("k").c_str(),
                cx.results()[1].context("k").c_str());
    cx.title("other").run("third", op);
    std::printf("retitled %zu %s\n", cx.results().size(),
                cx.results().front().config().mBenchmarkName.c_str());
    std::ostringstream sink;
    cx.render("{{#result}}{{context(k)}}{{/result}}", sink); // every result has k
    cx.clearContext().run("fourth", op);
    bool threw = false;
    try {
        cx.render("{{#result}}{{context(k)}}{{/result}}", sink);
    } catch (std::runtime_error const &) {
        threw = true;
    }
    std::printf("unset_context_throws %d\n", threw ? 1 : 0);
    return 0;
}

int main(int argc, char **argv) {
    if (argc == 2 && std::string(argv[1]) == "-selftest") return SelfTest();
    return fb_main(argc, argv);
}
