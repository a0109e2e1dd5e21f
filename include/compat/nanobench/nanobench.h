/* nanobench's API on femtobench (docs/migrating.md).
 *
 * ankerl::nanobench::Bench, Rng and doNotOptimizeAway over femtobench's
 * core: a suite written for nanobench builds unchanged against this header
 * with include/compat/nanobench on the include path (pkg-config
 * femtobench-nanobench, or the CMake target femtobench::nanobench) and
 * libfemtobench linked. C++11. The table is femtobench's (the same columns
 * as nanobench's); render() writes femtobench's JSON, CSV or HTML for
 * nanobench's json(), csv() and htmlBoxplot() templates; any other template
 * is refused with one line on stderr.
 */
#ifndef FEMTOBENCH_COMPAT_NANOBENCH_H
#define FEMTOBENCH_COMPAT_NANOBENCH_H

#include <femtobench.h>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <iostream>
#include <limits>
#include <map>
#include <memory>
#include <ostream>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#define ANKERL_NANOBENCH_VERSION_MAJOR 4
#define ANKERL_NANOBENCH_VERSION_MINOR 3
#define ANKERL_NANOBENCH_VERSION_PATCH 11

#define ANKERL_NANOBENCH(x) ANKERL_NANOBENCH_PRIVATE_##x()
#if __cplusplus >= 201703L
#define ANKERL_NANOBENCH_PRIVATE_NODISCARD() [[nodiscard]]
#else
#define ANKERL_NANOBENCH_PRIVATE_NODISCARD()
#endif
#define ANKERL_NANOBENCH_PRIVATE_NOEXCEPT() noexcept

#if defined(__clang__)
#define ANKERL_NANOBENCH_NO_SANITIZE(...) __attribute__((no_sanitize(__VA_ARGS__)))
#else
#define ANKERL_NANOBENCH_NO_SANITIZE(...)
#endif

namespace ankerl {
namespace nanobench {

using Clock = std::chrono::steady_clock;

template <typename Arg> inline void doNotOptimizeAway(Arg &&arg) { fb_do_not_optimize(arg); }

namespace detail {
/* One line per distinct note on stderr: what femtobench does not honour. */
inline void note(const std::string &what) {
    static std::set<std::string> said;
    if (!said.insert(what).second) return;
    std::fprintf(stderr, "femtobench: note: %s\n", what.c_str());
}
/* Copies what a femtobench writer wrote to a temporary file into os. */
inline void copy_file(std::FILE *f, std::ostream &os) {
    std::rewind(f);
    char buf[4096];
    std::size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0)
        os.write(buf, static_cast<std::streamsize>(n));
}
} // namespace detail

/* nanobench's generator (RomuDuoJr, seeded by splitmix64): the same
 * sequence for the same seed as nanobench. */
class Rng {
  public:
    using result_type = uint64_t;
    static constexpr uint64_t(min)() { return 0; }
    static constexpr uint64_t(max)() { return (std::numeric_limits<uint64_t>::max)(); }

    Rng() : mX(0), mY(0) {
        std::random_device rd;
        std::uniform_int_distribution<uint64_t> dist;
        do {
            mX = dist(rd);
            mY = dist(rd);
        } while (mX == 0 && mY == 0);
    }
    explicit Rng(uint64_t seed) noexcept : mX(splitMix64(seed)), mY(splitMix64(seed)) {
        for (std::size_t i = 0; i < 10; ++i) operator()();
    }
    explicit Rng(std::vector<uint64_t> const &data) : mX(0), mY(0) {
        if (data.size() != 2)
            throw std::runtime_error("ankerl::nanobench::Rng::Rng: needed exactly 2 entries");
        mX = data[0];
        mY = data[1];
    }
    Rng(Rng const &) = delete;
    Rng &operator=(Rng const &) = delete;
    Rng(Rng &&) noexcept = default;
    Rng &operator=(Rng &&) noexcept = default;
    ~Rng() noexcept = default;

    Rng copy() const noexcept { return Rng(mX, mY); }
    std::vector<uint64_t> state() const {
        std::vector<uint64_t> d(2);
        d[0] = mX;
        d[1] = mY;
        return d;
    }

    inline uint64_t operator()() noexcept {
        uint64_t x = mX;
        mX = UINT64_C(15241094284759029579) * mY;
        mY = rotl(mY - x, 27);
        return x;
    }
    inline uint32_t bounded(uint32_t range) noexcept {
        uint64_t const r32 = static_cast<uint32_t>(operator()());
        uint64_t multiresult = r32 * range;
        return static_cast<uint32_t>(multiresult >> 32U);
    }
    inline double uniform01() noexcept {
        uint64_t i = (UINT64_C(0x3ff) << 52U) | (operator()() >> 12U);
        double d;
        std::memcpy(&d, &i, sizeof d);
        return d - 1.0;
    }
    template <typename Container> void shuffle(Container &container) noexcept {
        auto i = container.size();
        while (i > 1U) {
            using std::swap;
            uint64_t n = operator()();
            auto b1 = static_cast<decltype(i)>(
                (static_cast<uint32_t>(n) * static_cast<uint64_t>(i)) >> 32U);
            swap(container[--i], container[b1]);
            auto b2 = static_cast<decltype(i)>(((n >> 32U) * static_cast<uint64_t>(i)) >> 32U);
            swap(container[--i], container[b2]);
        }
    }

  private:
    Rng(uint64_t x, uint64_t y) noexcept : mX(x), mY(y) {}
    static uint64_t splitMix64(uint64_t &state) noexcept {
        uint64_t z = (state += UINT64_C(0x9e3779b97f4a7c15));
        z = (z ^ (z >> 30U)) * UINT64_C(0xbf58476d1ce4e5b9);
        z = (z ^ (z >> 27U)) * UINT64_C(0x94d049bb133111eb);
        return z ^ (z >> 31U);
    }
    static constexpr uint64_t rotl(uint64_t x, unsigned k) noexcept {
        return (x << k) | (x >> (64U - k));
    }
    uint64_t mX, mY;
};

/* The settings a result was measured with (nanobench's Config fields that
 * suites read). */
struct Config {
    std::string mBenchmarkTitle = "benchmark";
    std::string mBenchmarkName = "noname";
    std::string mUnit = "op";
    double mBatch = 1.0;
    double mComplexityN = -1.0;
};

/* A result: reads femtobench's stored result. */
class Result {
  public:
    enum class Measure : std::size_t {
        elapsed,
        iterations,
        pagefaults,
        cpucycles,
        contextswitches,
        instructions,
        branchinstructions,
        branchmisses,
        _size
    };
    typedef std::map<std::string, std::string> Context;
    explicit Result(const fb_result *r, std::shared_ptr<const Context> ctx = nullptr)
        : r_(r), ctx_(ctx) {
        cfg_.mBenchmarkTitle = fb_result_title(r) ? fb_result_title(r) : "";
        cfg_.mBenchmarkName = fb_result_name(r) ? fb_result_name(r) : "";
        cfg_.mUnit = fb_result_unit(r) ? fb_result_unit(r) : "";
        cfg_.mBatch = fb_result_batch(r);
        double n = fb_result_complexity_n(r);
        cfg_.mComplexityN = n > 0 ? n : -1.0;
    }
    Config const &config() const noexcept { return cfg_; }
    bool has(Measure m) const noexcept {
        fb_measure fm;
        return map(m, &fm) && fb_result_has(r_, fm);
    }
    double median(Measure m) const { return get(m, fb_result_median); }
    double medianAbsolutePercentError(Measure m) const {
        double v = get(m, fb_result_err_pct);
        return v / 100.0;
    }
    double average(Measure m) const { return get(m, fb_result_mean); }
    double minimum(Measure m) const noexcept { return get(m, fb_result_min); }
    double maximum(Measure m) const noexcept { return get(m, fb_result_max); }
    std::size_t size() const noexcept { return fb_result_epochs(r_); }
    double sum(Measure m) const noexcept {
        if (m == Measure::iterations) return static_cast<double>(fb_result_total_iterations(r_));
        double s = 0;
        fb_measure fm;
        if (!map(m, &fm)) return 0;
        for (std::size_t i = 0; i < fb_result_epochs(r_); ++i)
            s += fb_result_value(r_, fm, i) * static_cast<double>(fb_result_iterations(r_, i));
        return s;
    }
    double sumProduct(Measure a, Measure b) const noexcept {
        return a == Measure::iterations ? sum(b) : b == Measure::iterations ? sum(a) : 0;
    }
    /* The context (Bench::context) when the result was measured; a name
     * it lacks throws std::out_of_range, as nanobench's. */
    std::string const &context(char const *variableName) const {
        static const Context none;
        return (ctx_ ? *ctx_ : none).at(variableName);
    }
    std::string const &context(std::string const &variableName) const {
        return context(variableName.c_str());
    }
    const fb_result *femtobench() const noexcept { return r_; }

  private:
    static bool map(Measure m, fb_measure *out) {
        switch (m) {
        case Measure::elapsed:
            *out = FB_ELAPSED;
            return true;
        case Measure::pagefaults:
            *out = FB_PAGEFAULTS;
            return true;
        case Measure::cpucycles:
            *out = FB_CPUCYCLES;
            return true;
        case Measure::contextswitches:
            *out = FB_CONTEXTSWITCHES;
            return true;
        case Measure::instructions:
            *out = FB_INSTRUCTIONS;
            return true;
        case Measure::branchinstructions:
            *out = FB_BRANCHINSTRUCTIONS;
            return true;
        case Measure::branchmisses:
            *out = FB_BRANCHMISSES;
            return true;
        default:
            return false;
        }
    }
    double get(Measure m, double (*f)(const fb_result *, fb_measure)) const {
        if (m == Measure::iterations)
            return fb_result_epochs(r_) ? static_cast<double>(fb_result_total_iterations(r_)) /
                                              static_cast<double>(fb_result_epochs(r_))
                                        : 0;
        fb_measure fm;
        return map(m, &fm) && fb_result_has(r_, fm) ? f(r_, fm) : 0;
    }
    const fb_result *r_;
    std::shared_ptr<const Context> ctx_;
    Config cfg_;
};

/* A paired, interleaved comparison (Bench::compare): femtobench's
 * fb_compare. Entry 0 is the baseline; relative is t_baseline / t_i (1.25:
 * 25% faster), with its interval (95% for the whole table). */
class CompareResult {
  public:
    struct Entry {
        Entry(std::string entryName, Result entryResult, double entryRelative,
              double entryRelativeLow, double entryRelativeHigh, std::size_t entryTiedRounds)
            : name(std::move(entryName)), result(std::move(entryResult)), relative(entryRelative),
              relativeLow(entryRelativeLow), relativeHigh(entryRelativeHigh),
              tiedRounds(entryTiedRounds) {}
        std::string name;
        Result result;
        double relative, relativeLow, relativeHigh;
        std::size_t tiedRounds;
    };
    CompareResult(std::vector<Entry> entries, std::size_t numRounds)
        : entries_(std::move(entries)), rounds_(numRounds) {}
    std::size_t size() const noexcept { return entries_.size(); }
    Entry const &operator[](std::size_t idx) const { return entries_.at(idx); }
    std::size_t rounds() const noexcept { return rounds_; }
    std::size_t comparisons() const noexcept { return entries_.empty() ? 0 : entries_.size() - 1; }
    /* the interval excludes 1: told apart from the baseline (never the baseline) */
    bool isSignificant(std::size_t idx) const {
        Entry const &e = entries_.at(idx);
        return idx != 0 && (e.relativeLow > 1.0 || e.relativeHigh < 1.0);
    }
    std::size_t fastest() const {
        std::size_t best = 0;
        for (std::size_t i = 1; i < entries_.size(); ++i)
            if (entries_[i].result.median(Result::Measure::elapsed) <
                entries_[best].result.median(Result::Measure::elapsed))
                best = i;
        return best;
    }

  private:
    std::vector<Entry> entries_;
    std::size_t rounds_;
};

/* A fitted complexity model (femtobench's fit, docs/complexity.md). */
class BigO {
  public:
    explicit BigO(const fb_fit &f)
        : name_(f.name), constant_(f.coefficient), err_(f.err_pct / 100.0) {}
    std::string const &name() const noexcept { return name_; }
    double constant() const noexcept { return constant_; }
    double normalizedRootMeanSquare() const noexcept { return err_; }
    bool operator<(BigO const &o) const noexcept { return err_ < o.err_; }

  private:
    std::string name_;
    double constant_, err_;
};
inline std::ostream &operator<<(std::ostream &os, BigO const &b) {
    return os << b.constant() << " * " << b.name() << ", rms=" << b.normalizedRootMeanSquare();
}
inline std::ostream &operator<<(std::ostream &os, std::vector<BigO> const &v) {
    os << "|   coefficient |   err% | complexity" << std::endl
       << "|--------------:|-------:|------------" << std::endl;
    for (std::size_t i = 0; i < v.size(); ++i) {
        char line[128];
        std::snprintf(line, sizeof line, "|%14.5e | %5.1f%% | %s", v[i].constant(),
                      v[i].normalizedRootMeanSquare() * 100, v[i].name().c_str());
        os << line << std::endl;
    }
    return os;
}

/* nanobench's output templates: the femtobench writer each stands for. */
namespace templates {
inline char const *csv() noexcept {
    return "\x01"
           "fb:csv";
}
inline char const *json() noexcept {
    return "\x01"
           "fb:json";
}
inline char const *htmlBoxplot() noexcept {
    return "\x01"
           "fb:html";
}
inline char const *pyperf() noexcept {
    return "\x01"
           "fb:pyperf";
}
} // namespace templates

class Bench {
  public:
    Bench()
        : b_(fb_bench_new(), fb_bench_free), x_(std::make_shared<Shared>()), out_(&std::cout),
          borrowed_(false) {
        if (!b_) throw std::bad_alloc();
    }
    /* A Bench on a bench the runner made (Bitcoin Core's BENCHMARK, see
     * bench/bench.h): not freed here. */
    explicit Bench(fb_bench *borrowed)
        : b_(borrowed, [](fb_bench *) {}), x_(std::make_shared<Shared>()), out_(&std::cout),
          borrowed_(true) {}

    template <typename Op> Bench &run(char const *benchmarkName, Op &&op) {
        name_ = benchmarkName;
        return run(std::forward<Op>(op));
    }
    template <typename Op> Bench &run(std::string const &benchmarkName, Op &&op) {
        return run(benchmarkName.c_str(), std::forward<Op>(op));
    }
    template <typename Op> Bench &run(Op &&op) {
        typedef typename std::remove_reference<Op>::type O;
        O *p = &op; /* a function, a const lambda: passed as a pointer to it */
        std::FILE *tmp = BeginOutput();
        fb_run(b_.get(), name_.empty() ? nullptr : name_.c_str(), &Bench::call<O>,
               static_cast<void *>(&p));
        EndOutput(tmp);
        KeepContext();
        return *this;
    }

    /* compare("a", op_a, "b", op_b, ...): femtobench's paired, interleaved
     * comparison (fb_compare, docs/compare.md): the same iterations for
     * all, one epoch of each per round, epochs() rounds; the table and the
     * verdict on output(). The first is the baseline. Bad input (a name
     * twice) throws std::invalid_argument after femtobench's line. */
    template <typename... Args> CompareResult compare(Args &&...args) {
        static_assert(sizeof...(args) % 2 == 0, "compare() takes `name, op` pairs");
        static_assert(sizeof...(args) >= 4, "compare() needs at least two alternatives to compare");
        std::vector<std::string> names;
        std::vector<std::function<void()>> ops;
        CompareCollect(names, ops, std::forward<Args>(args)...);
        std::vector<fb_alternative> alts(names.size());
        for (std::size_t i = 0; i < names.size(); ++i) {
            alts[i].name = names[i].c_str();
            alts[i].op = &Bench::callFunction;
            alts[i].ctx = static_cast<void *>(&ops[i]);
        }
        std::FILE *tmp = BeginOutput();
        const fb_comparison *c = fb_compare(b_.get(), nullptr, alts.data(), alts.size());
        EndOutput(tmp);
        if (!c) throw std::invalid_argument("ankerl::nanobench::Bench::compare: bad alternatives");
        std::shared_ptr<const Result::Context> ctx = std::make_shared<Result::Context>(x_->context);
        std::vector<CompareResult::Entry> entries;
        for (std::size_t i = 0; i < fb_comparison_size(c); ++i) {
            bool base = i == 0;
            entries.push_back(CompareResult::Entry(
                fb_comparison_name(c, i), Result(fb_comparison_result(c, i), ctx),
                base ? 1.0 : fb_comparison_ratio(c, i), base ? 1.0 : fb_comparison_low(c, i),
                base ? 1.0 : fb_comparison_high(c, i), base ? 0 : fb_comparison_tied(c, i)));
        }
        return CompareResult(std::move(entries), fb_comparison_rounds(c));
    }

    /* A new title or unit starts over: results() holds the runs after it,
     * as nanobench's (femtobench's files keep every run of the bench). */
    Bench &title(char const *t) {
        if (std::strcmp(t, fb_title(b_.get())) != 0) x_->first = fb_result_count(b_.get());
        fb_set_title(b_.get(), t);
        return *this;
    }
    Bench &title(std::string const &t) { return title(t.c_str()); }
    std::string const &title() const noexcept {
        title_ = fb_title(b_.get());
        return title_;
    }
    Bench &name(char const *n) {
        name_ = n;
        return *this;
    }
    Bench &name(std::string const &n) { return name(n.c_str()); }
    std::string const &name() const noexcept { return name_; }
    Bench &unit(char const *u) {
        if (std::strcmp(u, fb_unit(b_.get())) != 0) x_->first = fb_result_count(b_.get());
        fb_set_unit(b_.get(), u);
        return *this;
    }
    Bench &unit(std::string const &u) { return unit(u.c_str()); }
    std::string const &unit() const noexcept {
        unit_ = fb_unit(b_.get());
        return unit_;
    }
    template <typename T> Bench &batch(T b) noexcept {
        fb_set_batch(b_.get(), static_cast<double>(b));
        return *this;
    }
    double batch() const noexcept { return fb_batch(b_.get()); }
    Bench &relative(bool on) noexcept {
        fb_set_relative(b_.get(), on);
        return *this;
    }
    Bench &performanceCounters(bool on) noexcept {
        fb_set_performance_counters(b_.get(), on);
        return *this;
    }
    Bench &timeUnit(std::chrono::duration<double> const &tu, std::string const &label) {
        fb_set_time_unit(b_.get(), tu.count(), label.c_str());
        return *this;
    }
    Bench &epochs(std::size_t n) noexcept {
        fb_set_epochs(b_.get(), n);
        return *this;
    }
    Bench &epochIterations(uint64_t n) noexcept {
        fb_set_epoch_iterations(b_.get(), n);
        return *this;
    }
    Bench &minEpochIterations(uint64_t n) noexcept {
        fb_set_min_epoch_iterations(b_.get(), n);
        return *this;
    }
    Bench &warmup(uint64_t n) noexcept {
        fb_set_warmup(b_.get(), n);
        return *this;
    }
    Bench &minEpochTime(std::chrono::nanoseconds t) noexcept {
        fb_set_min_epoch_time(b_.get(), static_cast<double>(t.count()) * 1e-9);
        return *this;
    }
    Bench &maxEpochTime(std::chrono::nanoseconds t) noexcept {
        fb_set_max_epoch_time(b_.get(), static_cast<double>(t.count()) * 1e-9);
        return *this;
    }
    template <typename T> Bench &complexityN(T n) noexcept {
        fb_set_complexity_n(b_.get(), static_cast<double>(n));
        return *this;
    }
    double complexityN() const noexcept { return fb_complexity_n(b_.get()); }
    /* Each result keeps the context it was measured with
     * (Result::context); femtobench's files record a bench's first value of
     * each key (fb_set_context) for all its results. */
    Bench &context(char const *key, char const *value) {
        x_->context[key] = value;
        if (!x_->recorded.insert(key).second) {
            detail::note(std::string("context(\"") + key +
                         "\") again: Result::context has each value; femtobench's files record "
                         "the first one for the whole bench");
        } else if (fb_set_context(b_.get(), key, value) != FB_OK) {
            detail::note(std::string("context(\"") + key +
                         "\"): not recorded in femtobench's files (see the line above)");
        }
        return *this;
    }
    Bench &context(std::string const &k, std::string const &v) {
        return context(k.c_str(), v.c_str());
    }
    Bench &clearContext() {
        x_->context.clear();
        return *this;
    }
    Bench &output(std::ostream *os) noexcept {
        out_ = os;
        borrowed_ = false; /* the runner's stream no longer */
        return *this;
    }
    std::ostream *output() const noexcept { return out_; }

    template <typename Arg> Bench &doNotOptimizeAway(Arg &&arg) {
        fb_do_not_optimize(arg);
        return *this;
    }

    /* The results so far, kept with the Bench as nanobench keeps them (a
     * reference to them stays valid until the next run). */
    std::vector<Result> const &results() const {
        std::size_t n = fb_result_count(b_.get()), first = x_->first < n ? x_->first : n;
        if (results_.size() != n - first || results_first_ != first) {
            results_.clear();
            results_first_ = first;
            for (std::size_t i = first; i < n; ++i)
                results_.push_back(Result(fb_result_at(b_.get(), i),
                                          i < x_->ctx_of.size() ? x_->ctx_of[i] : nullptr));
        }
        return results_;
    }
    std::vector<BigO> complexityBigO() const {
        fb_fit fits[FB_FIT_MODELS];
        std::size_t n = fb_complexity_fit(b_.get(), nullptr, fits, FB_FIT_MODELS);
        std::vector<BigO> v;
        for (std::size_t i = 0; i < n; ++i) v.push_back(BigO(fits[i]));
        return v;
    }

    /* A model of one's own: time = c * op(N), fitted by least squares over
     * the results that carry a complexity N. */
    template <typename Op> BigO complexityBigO(char const *modelName, Op op) const {
        double tf = 0, ff = 0, tt = 0;
        std::vector<std::pair<double, double>> pts;
        for (std::size_t i = 0; i < fb_result_count(b_.get()); ++i) {
            const fb_result *r = fb_result_at(b_.get(), i);
            double n = fb_result_complexity_n(r);
            if (!(n > 0) || fb_result_error(r)) continue;
            double t = fb_result_median(r, FB_ELAPSED), f = static_cast<double>(op(n));
            pts.push_back(std::make_pair(f, t));
            tf += t * f;
            ff += f * f;
            tt += t;
        }
        fb_fit fit;
        fit.name = modelName;
        fit.coefficient = ff > 0 ? tf / ff : 0;
        fit.constant = 0;
        double se = 0;
        for (std::size_t i = 0; i < pts.size(); ++i) {
            double d = pts[i].second - fit.coefficient * pts[i].first;
            se += d * d;
        }
        double mean = pts.empty() ? 0 : tt / static_cast<double>(pts.size());
        fit.err_pct = pts.empty() || !(mean > 0)
                          ? 0
                          : 100 * std::sqrt(se / static_cast<double>(pts.size())) / mean;
        return BigO(fit);
    }
    template <typename Op> BigO complexityBigO(std::string const &n, Op op) const {
        return complexityBigO(n.c_str(), op);
    }

    /* json(), csv(), htmlBoxplot(): femtobench's writer of that kind; a
     * mustache template of one's own is not rendered (one line on stderr). */
    Bench &render(char const *templateContent, std::ostream &os) {
        int (*w)(const fb_bench *, std::FILE *) = nullptr;
        if (!std::strcmp(templateContent, templates::json())) w = fb_write_json;
        if (!std::strcmp(templateContent, templates::csv())) w = fb_write_csv;
        if (!std::strcmp(templateContent, templates::htmlBoxplot())) w = fb_write_html;
        if (!w) {
            /* not rendered; a context variable a result lacks is still an
             * error, as in nanobench's rendering */
            const std::string t = templateContent, tag = "{{context(";
            for (std::size_t at = t.find(tag); at != std::string::npos; at = t.find(tag, at + 1)) {
                std::size_t end = t.find(")}}", at);
                if (end == std::string::npos) break;
                std::string var = t.substr(at + tag.size(), end - at - tag.size());
                for (std::size_t i = 0; i < results().size(); ++i) try {
                        (void)results()[i].context(var);
                    } catch (std::out_of_range const &) {
                        throw std::runtime_error("render: context variable '" + var +
                                                 "' not set for '" +
                                                 results()[i].config().mBenchmarkName + "'");
                    }
            }
            detail::note("render: femtobench renders json(), csv() and htmlBoxplot() only "
                         "(its own formats, docs/formats.md); this template is not rendered");
            return *this;
        }
        std::FILE *f = std::tmpfile();
        if (!f) return *this;
        if (w(b_.get(), f) == FB_OK) detail::copy_file(f, os);
        std::fclose(f);
        return *this;
    }
    Bench &render(std::string const &t, std::ostream &os) { return render(t.c_str(), os); }

    fb_bench *femtobench() const noexcept { return b_.get(); }

  private:
    /* What copies of a Bench share besides femtobench's bench: the context
     * now, each result's context, where results() starts (a new title). */
    struct Shared {
        Shared() : first(0) {}
        Result::Context context;
        std::set<std::string> recorded; /* keys given to fb_set_context */
        std::vector<std::shared_ptr<const Result::Context>> ctx_of;
        std::size_t first;
    };
    /* the context of each result the last run added */
    void KeepContext() {
        std::size_t n = fb_result_count(b_.get());
        if (x_->ctx_of.size() >= n) return;
        std::shared_ptr<const Result::Context> now = std::make_shared<Result::Context>(x_->context);
        while (x_->ctx_of.size() < n) x_->ctx_of.push_back(now);
    }
    static void CompareCollect(std::vector<std::string> &, std::vector<std::function<void()>> &) {}
    template <typename Name, typename Op, typename... Rest>
    static void CompareCollect(std::vector<std::string> &names,
                               std::vector<std::function<void()>> &ops, Name &&name, Op &&op,
                               Rest &&...rest) {
        names.push_back(std::string(std::forward<Name>(name)));
        ops.push_back(std::function<void()>(std::forward<Op>(op)));
        CompareCollect(names, ops, std::forward<Rest>(rest)...);
    }
    static void callFunction(void *ctx) { (*static_cast<std::function<void()> *>(ctx))(); }
    template <typename O> static void call(void *ctx) { (**static_cast<O **>(ctx))(); }
    /* nanobench prints to any ostream; femtobench to a FILE: stdout and
     * stderr directly, any other stream through a temporary file. */
    std::FILE *BeginOutput() {
        if (borrowed_) return nullptr; /* the runner's table keeps its stream */
        if (!out_) {
            fb_set_output(b_.get(), nullptr);
            return nullptr;
        }
        if (out_ == &std::cout) {
            std::cout.flush();
            fb_set_output(b_.get(), stdout);
            return nullptr;
        }
        if (out_ == &std::cerr) {
            fb_set_output(b_.get(), stderr);
            return nullptr;
        }
        std::FILE *f = std::tmpfile();
        fb_set_output(b_.get(), f);
        return f;
    }
    void EndOutput(std::FILE *f) {
        if (!f) return;
        std::fflush(f);
        detail::copy_file(f, *out_);
        fb_set_output(b_.get(), nullptr);
        std::fclose(f);
    }

    std::shared_ptr<fb_bench> b_;
    std::shared_ptr<Shared> x_;
    std::ostream *out_;
    bool borrowed_;
    std::string name_;
    mutable std::string title_, unit_;
    mutable std::vector<Result> results_;
    mutable std::size_t results_first_ = 0;
};

inline void render(char const *mustacheTemplate, Bench const &bench, std::ostream &out) {
    const_cast<Bench &>(bench).render(mustacheTemplate, out);
}
inline void render(std::string const &mustacheTemplate, Bench const &bench, std::ostream &out) {
    render(mustacheTemplate.c_str(), bench, out);
}

} // namespace nanobench
} // namespace ankerl

#endif /* FEMTOBENCH_COMPAT_NANOBENCH_H */
