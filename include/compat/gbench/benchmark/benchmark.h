/* Google Benchmark's API on femtobench (docs/migrating.md).
 *
 * A suite written for Google Benchmark (BENCHMARK, State, fixtures,
 * BENCHMARK_MAIN) builds unchanged against this header and runs on
 * femtobench's core and runner: its epochs, statistics, table and files.
 * Add include/compat/gbench to the include path (pkg-config
 * femtobench-benchmark, or the CMake target femtobench::benchmark) and link
 * libfemtobench. C++11.
 *
 * The registration rules are Google Benchmark's: Range with multiplier 8,
 * both ends inclusive; Ranges and ArgsProduct as a product, the first
 * dimension varying fastest; names "BM_x/8/64", "BM_x/a:1/b:2",
 * "BM_x/iterations:42", "BM_x/repeats:3", "BM_x/real_time", "BM_x/threads:2".
 * Each function call is one epoch of femtobench: the code before and after
 * the loop is untimed (an excluded region), the loop's iterations are the
 * epoch's. What femtobench cannot honour does not compile (a deleted
 * function or a static_assert) or says so in one line at run time.
 */
#ifndef FEMTOBENCH_COMPAT_GBENCH_BENCHMARK_H
#define FEMTOBENCH_COMPAT_GBENCH_BENCHMARK_H

#include <femtobench.h>

#include <algorithm>
#include <atomic>
#include <cassert>
#include <cstddef>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <iterator>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#define BENCHMARK_VERSION_FEMTOBENCH 1

#if __cplusplus >= 201703L
#define BENCHMARK_UNUSED [[maybe_unused]]
#elif defined(__GNUC__) || defined(__clang__)
#define BENCHMARK_UNUSED __attribute__((unused))
#else
#define BENCHMARK_UNUSED
#endif
#if defined(__GNUC__) || defined(__clang__)
#define BENCHMARK_ALWAYS_INLINE __attribute__((always_inline))
#define BENCHMARK_NOINLINE __attribute__((noinline))
#define BENCHMARK_BUILTIN_EXPECT(x, y) __builtin_expect(x, y)
#else
#define BENCHMARK_ALWAYS_INLINE
#define BENCHMARK_NOINLINE
#define BENCHMARK_BUILTIN_EXPECT(x, y) x
#endif
#define BENCHMARK_DISALLOW_COPY_AND_ASSIGN(TypeName)                                               \
    TypeName(const TypeName &) = delete;                                                           \
    TypeName &operator=(const TypeName &) = delete

namespace benchmark {

typedef int64_t IterationCount;

enum TimeUnit { kNanosecond, kMicrosecond, kMillisecond, kSecond };

enum BigO { oNone, o1, oN, oNSquared, oNCubed, oLogN, oNLogN, oAuto, oLambda };
typedef double(BigOFunc)(IterationCount);
typedef double(StatisticsFunc)(const std::vector<double> &);
enum StatisticUnit { kTime, kPercentage };

/* Optimizer barriers: femtobench's (include/femtobench.h). */
template <class Tp> inline BENCHMARK_ALWAYS_INLINE void DoNotOptimize(Tp const &value) {
    fb_do_not_optimize(value);
}
template <class Tp> inline BENCHMARK_ALWAYS_INLINE void DoNotOptimize(Tp &value) {
    fb_do_not_optimize(value);
}
#if __cplusplus >= 201103L
template <class Tp> inline BENCHMARK_ALWAYS_INLINE void DoNotOptimize(Tp &&value) {
    fb_do_not_optimize(value);
}
#endif
inline BENCHMARK_ALWAYS_INLINE void ClobberMemory() { fb_clobber_memory(); }

/* A user counter. The flags are Google Benchmark's; each is turned into
 * femtobench's (a value as given, or an amount per iteration shown per
 * second) from the epoch that gave it. */
class Counter {
  public:
    enum Flags {
        kDefaults = 0,
        kIsRate = 1 << 0,
        kAvgThreads = 1 << 1,
        kAvgThreadsRate = kIsRate | kAvgThreads,
        kIsIterationInvariant = 1 << 2,
        kIsIterationInvariantRate = kIsRate | kIsIterationInvariant,
        kAvgIterations = 1 << 3,
        kAvgIterationsRate = kIsRate | kAvgIterations,
        kInvert = 1 << 31
    };
    enum OneK { kIs1000 = 1000, kIs1024 = 1024 };
    Counter(double v = 0., Flags f = kDefaults, OneK k = kIs1000) : value(v), flags(f), oneK(k) {}
    operator double const &() const { return value; }
    operator double &() { return value; }
    double value;
    Flags flags;
    OneK oneK;
};
inline Counter::Flags operator|(const Counter::Flags &a, const Counter::Flags &b) {
    return static_cast<Counter::Flags>(static_cast<int>(a) | static_cast<int>(b));
}
typedef std::map<std::string, Counter> UserCounters;

class State;
class Benchmark;

namespace internal {
class Shared;
typedef void(Function)(State &);
void Note(const std::string &what);
} // namespace internal

class State {
  public:
    struct StateIterator;
    friend struct StateIterator;

    StateIterator begin();
    StateIterator end();

    bool KeepRunning() { return KeepRunningInternal(1, false); }
    bool KeepRunningBatch(IterationCount n) { return KeepRunningInternal(n, true); }

    void PauseTiming() { fb_exclude_begin(bench_); }
    void ResumeTiming() { fb_exclude_end(bench_); }

    void SkipWithMessage(const std::string &msg) { Skip("", msg); }
    void SkipWithError(const std::string &msg) { Skip("error: ", msg); }
    bool skipped() const { return skipped_; }
    bool error_occurred() const { return skipped_; }

    void SetIterationTime(double seconds) {
        if (manual_) fb_set_iteration_time(bench_, seconds);
    }
    void SetBytesProcessed(int64_t bytes) {
        counters["bytes"] = Counter(static_cast<double>(bytes), Counter::kIsRate);
    }
    int64_t bytes_processed() const { return Get("bytes"); }
    void SetItemsProcessed(int64_t items) {
        counters["items"] = Counter(static_cast<double>(items), Counter::kIsRate);
    }
    int64_t items_processed() const { return Get("items"); }
    void SetComplexityN(int64_t n) { complexity_n_ = n; }
    int64_t complexity_length_n() const { return complexity_n_; }
    void SetLabel(const std::string &label);

    int64_t range(std::size_t pos = 0) const { return pos < range_.size() ? range_[pos] : 0; }
    int64_t range_x() const { return range(0); }
    int64_t range_y() const { return range(1); }
    /* the iterations run so far: KeepRunningBatch runs whole batches, so
     * its epoch may run more than max_iterations (the epoch counts them) */
    IterationCount iterations() const {
        return started_ ? handed_ - total_iterations_ + batch_leftover_ : 0;
    }
    int threads() const { return threads_; }
    int thread_index() const { return thread_index_; }
    std::string name() const { return *name_; }

    UserCounters counters;
    const IterationCount max_iterations;

    /* Made by the runner (internal::Shared), not by a suite. */
    State(const std::string *name, IterationCount max_iters, const std::vector<int64_t> *ranges,
          int thread_i, int n_threads, fb_bench *b, internal::Shared *shared, bool manual,
          IterationCount *last_batched = nullptr)
        : max_iterations(max_iters), total_iterations_(0), batch_leftover_(0), handed_(max_iters),
          batch_(1), last_batched_(last_batched), started_(false), finished_(false),
          skipped_(false), manual_(manual), batched_(false), complexity_n_(0),
          thread_index_(thread_i), threads_(n_threads), name_(name), range_(*ranges), bench_(b),
          shared_(shared) {}

  private:
    friend class internal::Shared;
    void StartKeepRunning();
    void FinishKeepRunning();
    void Skip(const char *kind, const std::string &msg);
    int64_t Get(const char *key) const {
        UserCounters::const_iterator it = counters.find(key);
        return it == counters.end() ? 0 : static_cast<int64_t>(it->second.value);
    }
    bool KeepRunningInternal(IterationCount n, bool is_batch) {
        fb_do_not_optimize(total_iterations_);
        if (BENCHMARK_BUILTIN_EXPECT(total_iterations_ >= n, 1)) {
            total_iterations_ -= n;
            return true;
        }
        if (!started_) {
            StartKeepRunning();
            if (is_batch) StartBatches(n);
            if (!skipped_ && total_iterations_ >= n) {
                total_iterations_ -= n;
                return true;
            }
        }
        if (is_batch && total_iterations_ != 0) {
            batch_leftover_ = n - total_iterations_;
            total_iterations_ = 0;
            return true;
        }
        FinishKeepRunning();
        return false;
    }

    /* A batched loop (KeepRunningBatch(k)) runs whole batches: the epoch's
     * count rounded up to a multiple of k. As under Google Benchmark's
     * runner, whose calls of a batched body only grow, a count at or below
     * the last one runs one batch more than it (up to twice the planned
     * count; past that, one batch). The epoch records what ran. */
    void StartBatches(IterationCount k) {
        batched_ = true;
        batch_ = k;
        if (skipped_ || k <= 0) return;
        IterationCount want = (max_iterations + k - 1) / k * k;
        if (last_batched_) {
            IterationCount last = *last_batched_;
            if (want > k && want <= last) want = last + k <= 2 * want ? last + k : k;
            *last_batched_ = want;
        }
        handed_ = total_iterations_ = want;
    }

    IterationCount total_iterations_;
    IterationCount batch_leftover_;
    IterationCount handed_; /* the iterations this call's loop hands out */
    IterationCount batch_;  /* KeepRunningBatch's k */
    IterationCount *last_batched_;
    bool started_, finished_, skipped_, manual_, batched_;
    int64_t complexity_n_;
    int thread_index_, threads_;
    const std::string *name_;
    std::vector<int64_t> range_;
    fb_bench *bench_;
    internal::Shared *shared_;

  public:
    State(const State &) = delete;
    State &operator=(const State &) = delete;
};

struct State::StateIterator {
    struct BENCHMARK_UNUSED Value {};
    typedef std::forward_iterator_tag iterator_category;
    typedef Value value_type;
    typedef Value reference;
    typedef Value pointer;
    typedef std::ptrdiff_t difference_type;

    StateIterator() : cached_(0), parent_(nullptr) {}
    explicit StateIterator(State *st)
        : cached_(st->skipped_ ? 0 : st->max_iterations), parent_(st) {}
    Value operator*() const { return Value(); }
    StateIterator &operator++() {
        --cached_;
        return *this;
    }
    bool operator!=(StateIterator const &) {
        /* the count stays a real loop, as in Google Benchmark: an empty
         * body is a row of about a cycle per iteration (marked "optimized
         * away?"), never a loop the compiler deleted */
        fb_do_not_optimize(cached_);
        if (BENCHMARK_BUILTIN_EXPECT(cached_ != 0, 1)) return true;
        parent_->FinishKeepRunning();
        return false;
    }

  private:
    IterationCount cached_;
    State *parent_;
};

inline State::StateIterator State::begin() {
    StartKeepRunning();
    return StateIterator(this);
}
inline State::StateIterator State::end() { return StateIterator(); }

/* A family of benchmarks: one function and its arguments, thread counts and
 * settings; expanded into instances by Google Benchmark's rules. */
class Benchmark {
  public:
    virtual ~Benchmark() {}

    Benchmark *Name(const std::string &name) {
        name_ = name;
        return this;
    }
    Benchmark *Arg(int64_t x) {
        args_.push_back(std::vector<int64_t>(1, x));
        return this;
    }
    Benchmark *Unit(TimeUnit unit) {
        unit_ = unit;
        has_unit_ = true;
        return this;
    }
    Benchmark *Range(int64_t start, int64_t limit) {
        std::vector<int64_t> v;
        AddRange(&v, start, limit, range_multiplier_);
        for (std::size_t i = 0; i < v.size(); ++i) args_.push_back(std::vector<int64_t>(1, v[i]));
        return this;
    }
    Benchmark *DenseRange(int64_t start, int64_t limit, int step = 1) {
        for (int64_t a = start; a <= limit; a += step) args_.push_back(std::vector<int64_t>(1, a));
        return this;
    }
    Benchmark *Args(const std::vector<int64_t> &args) {
        args_.push_back(args);
        return this;
    }
    Benchmark *ArgPair(int64_t x, int64_t y) {
        std::vector<int64_t> v;
        v.push_back(x);
        v.push_back(y);
        return Args(v);
    }
    Benchmark *Ranges(const std::vector<std::pair<int64_t, int64_t>> &ranges) {
        std::vector<std::vector<int64_t>> lists(ranges.size());
        for (std::size_t i = 0; i < ranges.size(); ++i)
            AddRange(&lists[i], ranges[i].first, ranges[i].second, range_multiplier_);
        return ArgsProduct(lists);
    }
    Benchmark *RangePair(int64_t lo1, int64_t hi1, int64_t lo2, int64_t hi2) {
        std::vector<std::pair<int64_t, int64_t>> r;
        r.push_back(std::make_pair(lo1, hi1));
        r.push_back(std::make_pair(lo2, hi2));
        return Ranges(r);
    }
    /* The product of the lists, the first one varying fastest. */
    Benchmark *ArgsProduct(const std::vector<std::vector<int64_t>> &lists) {
        std::size_t total = 1;
        for (std::size_t i = 0; i < lists.size(); ++i) total *= lists[i].size();
        std::vector<std::size_t> idx(lists.size(), 0);
        for (std::size_t k = 0; k < total; ++k) {
            std::vector<int64_t> a;
            for (std::size_t d = 0; d < lists.size(); ++d) a.push_back(lists[d][idx[d]]);
            args_.push_back(a);
            std::size_t d = 0;
            do {
                idx[d] = (idx[d] + 1) % lists[d].size();
            } while (idx[d++] == 0 && d < lists.size());
        }
        return this;
    }
    Benchmark *ArgName(const std::string &name) {
        arg_names_ = std::vector<std::string>(1, name);
        return this;
    }
    Benchmark *ArgNames(const std::vector<std::string> &names) {
        arg_names_ = names;
        return this;
    }
    Benchmark *Apply(void (*custom)(Benchmark *)) {
        custom(this);
        return this;
    }
    Benchmark *Apply(const std::function<void(Benchmark *)> &custom) {
        custom(this);
        return this;
    }
    Benchmark *Setup(void (*setup)(const State &)) {
        setup_ = setup;
        return this;
    }
    Benchmark *Teardown(void (*teardown)(const State &)) {
        teardown_ = teardown;
        return this;
    }
    Benchmark *RangeMultiplier(int multiplier) {
        range_multiplier_ = multiplier;
        return this;
    }
    Benchmark *MinTime(double t) {
        min_time_ = t;
        return this;
    }
    Benchmark *MinWarmUpTime(double t) {
        min_warmup_time_ = t;
        return this;
    }
    Benchmark *Iterations(IterationCount n) {
        iterations_ = n;
        return this;
    }
    Benchmark *Repetitions(int n) {
        repetitions_ = n;
        return this;
    }
    Benchmark *ReportAggregatesOnly(bool = true) {
        internal::Note("ReportAggregatesOnly: femtobench reports each run's median "
                       "(-output_gbench_rows selects the rows of its Google Benchmark JSON)");
        return this;
    }
    Benchmark *DisplayAggregatesOnly(bool v = true) { return ReportAggregatesOnly(v); }
    Benchmark *MeasureProcessCPUTime() {
        process_time_ = true;
        internal::Note("MeasureProcessCPUTime: femtobench measures wall-clock time");
        return this;
    }
    /* femtobench measures wall-clock time: real time is its only time. */
    Benchmark *UseRealTime() {
        real_time_ = true;
        return this;
    }
    Benchmark *UseManualTime() {
        manual_time_ = true;
        return this;
    }
    Benchmark *Complexity(BigO complexity = oAuto) {
        complexity_ = complexity;
        return this;
    }
    Benchmark *Complexity(BigOFunc *) {
        complexity_ = oLambda;
        internal::Note("Complexity(lambda): the lambda is not used: femtobench fits its own "
                       "models (O(1) to O(n^3)) and reports the best, as Complexity(oAuto)");
        return this;
    }
    Benchmark *ComputeStatistics(const std::string &name, StatisticsFunc *, StatisticUnit = kTime) {
        internal::Note("ComputeStatistics(\"" + name +
                       "\"): femtobench computes its own statistics only");
        return this;
    }
    Benchmark *Threads(int t) {
        thread_counts_.push_back(t);
        return this;
    }
    Benchmark *ThreadRange(int min_threads, int max_threads) {
        std::vector<int64_t> v;
        AddRange(&v, min_threads, max_threads, 2);
        for (std::size_t i = 0; i < v.size(); ++i) thread_counts_.push_back(static_cast<int>(v[i]));
        return this;
    }
    Benchmark *DenseThreadRange(int min_threads, int max_threads, int stride = 1) {
        for (int i = min_threads; i < max_threads; i += stride) thread_counts_.push_back(i);
        thread_counts_.push_back(max_threads);
        return this;
    }
    Benchmark *ThreadPerCpu() {
        thread_counts_.push_back(static_cast<int>(fb_cpu_count()));
        return this;
    }

    const char *GetName() const { return name_.c_str(); }
    void SetName(const std::string &name) { name_ = name; }
    TimeUnit GetTimeUnit() const { return has_unit_ ? unit_ : kNanosecond; }

    virtual void Run(State &state) = 0;

    /* Google Benchmark's AddRange: lo, the powers of mult strictly between
     * (negative ones mirrored, 0 when the range crosses it), hi. */
    static void AddRange(std::vector<int64_t> *dst, int64_t lo, int64_t hi, int mult) {
        dst->push_back(lo);
        if (lo >= hi) return;
        if (lo + 1 == hi) {
            dst->push_back(hi);
            return;
        }
        int64_t lo_inner = lo + 1, hi_inner = hi - 1;
        if (lo_inner < 0) {
            std::size_t at = dst->size();
            AddPowers(dst, -(hi_inner < -1 ? hi_inner : -1), -lo_inner, mult);
            for (std::size_t i = at; i < dst->size(); ++i) (*dst)[i] = -(*dst)[i];
            std::reverse(dst->begin() + static_cast<std::ptrdiff_t>(at), dst->end());
        }
        if (lo < 0 && hi >= 0) dst->push_back(0);
        if (hi_inner > 0) AddPowers(dst, lo_inner > 1 ? lo_inner : 1, hi_inner, mult);
        if (hi != dst->back()) dst->push_back(hi);
    }

  protected:
    explicit Benchmark(const std::string &name)
        : name_(name), unit_(kNanosecond), has_unit_(false), range_multiplier_(8), min_time_(0),
          min_warmup_time_(0), iterations_(0), repetitions_(0), process_time_(false),
          real_time_(false), manual_time_(false), complexity_(oNone), setup_(nullptr),
          teardown_(nullptr) {}
    Benchmark(const Benchmark &) = delete;
    Benchmark &operator=(const Benchmark &) = delete;

  private:
    friend class internal::Shared;
    friend struct Registry;
    static void AddPowers(std::vector<int64_t> *dst, int64_t lo, int64_t hi, int mult) {
        const int64_t kmax = std::numeric_limits<int64_t>::max();
        for (int64_t i = 1; i <= hi; i *= mult) {
            if (i >= lo) dst->push_back(i);
            if (i > kmax / mult) break;
        }
    }

  public:
    /* read by the runner (internal::Shared) */
    std::string name_;
    TimeUnit unit_;
    bool has_unit_;
    int range_multiplier_;
    double min_time_, min_warmup_time_;
    IterationCount iterations_;
    int repetitions_;
    bool process_time_, real_time_, manual_time_;
    BigO complexity_;
    void (*setup_)(const State &);
    void (*teardown_)(const State &);
    std::vector<std::vector<int64_t>> args_;
    std::vector<std::string> arg_names_;
    std::vector<int> thread_counts_;
};

namespace internal {

class FunctionBenchmark : public Benchmark {
  public:
    FunctionBenchmark(const std::string &name, Function *func) : Benchmark(name), func_(func) {}
    void Run(State &st) override { func_(st); }

  private:
    Function *func_;
};

template <class Lambda> class LambdaBenchmark : public Benchmark {
  public:
    template <class OLambda>
    LambdaBenchmark(const std::string &name, OLambda &&lam)
        : Benchmark(name), lambda_(std::forward<OLambda>(lam)) {}
    void Run(State &st) override { lambda_(st); }

  private:
    Lambda lambda_;
};

/* The families, in registration order (a function's static: constructors
 * of other files may register before this file's statics exist). */
inline std::vector<std::unique_ptr<Benchmark>> &Families() {
    static std::vector<std::unique_ptr<Benchmark>> f;
    return f;
}
inline Benchmark *RegisterBenchmarkInternal(Benchmark *b) {
    Families().push_back(std::unique_ptr<Benchmark>(b));
    return b;
}

/* One line per distinct note, on stderr: what femtobench does not honour. */
inline void Note(const std::string &what) {
    static std::set<std::string> said;
    static std::mutex mu;
    std::lock_guard<std::mutex> lock(mu);
    if (!said.insert(what).second) return;
    std::fprintf(stderr, "femtobench: note: %s\n", what.c_str());
}

/* A barrier for the threads of one group (C++11 has none). */
class Barrier {
  public:
    explicit Barrier(int n) : n_(n), waiting_(0), generation_(0) {}
    void Wait() {
        if (n_ <= 1) return;
        std::unique_lock<std::mutex> lock(mu_);
        unsigned gen = generation_;
        if (++waiting_ == n_) {
            waiting_ = 0;
            ++generation_;
            cv_.notify_all();
            return;
        }
        while (gen == generation_) cv_.wait(lock);
    }

  private:
    int n_, waiting_;
    unsigned generation_;
    std::mutex mu_;
    std::condition_variable cv_;
};

/* One expanded instance: its family, arguments, threads and full name. */
struct Instance {
    Benchmark *family;
    std::vector<int64_t> args;
    int threads;
    std::string name;
};

/* A run of one instance: what its threads share (the barrier, the counters
 * summed over threads, the skip, the label). */
class Shared {
  public:
    Shared(const Instance &in)
        : in_(in), barrier_(in.threads), skipped_(false), has_label_(false) {}

    static void ThreadBody(fb_bench *tb, void *ctx) { static_cast<Shared *>(ctx)->Body(tb); }

    void Body(fb_bench *tb) {
        int tid = static_cast<int>(fb_thread_index(tb));
        const bool manual = in_.family->manual_time_;
        fb__loop l = fb__loop_begin(tb, in_.name.c_str(), FB__CALLSITE);
        IterationCount last_batched = 0; /* State::StartBatches */
        while (fb__loop_next(&l)) {
            /* the code around the loop is untimed (the loop itself ends and
             * starts the excluded regions, State::Start/FinishKeepRunning) */
            fb_exclude_begin(tb);
            State st(&in_.family->name_, static_cast<IterationCount>(l.n), &in_.args, tid,
                     in_.threads, tb, this, manual, &last_batched);
            bool skip;
            {
                std::lock_guard<std::mutex> lock(mu_);
                skip = skipped_;
            }
            if (!skip) in_.family->Run(st);
            fb_exclude_end(tb);
            if (manual && (skip || !st.started_)) fb_set_iteration_time(tb, 0);
            /* whole batches: the epoch counts the iterations that ran */
            if (st.batched_ && st.iterations() > 0)
                fb__loop_ran(&l, static_cast<uint64_t>(st.iterations()),
                             static_cast<uint64_t>(st.batch_));
            Merge(st, static_cast<double>(l.n));
            barrier_.Wait();
            if (tid == 0) {
                Publish(tb);
                /* Complexity: the run's N is SetComplexityN's (known once
                 * the body ran), else the first argument */
                if (in_.family->complexity_ != oNone) {
                    int64_t n = complexity_n_ ? complexity_n_ : in_.args.empty() ? 0 : in_.args[0];
                    fb__loop_complexity_n(&l, static_cast<double>(n));
                }
            }
            barrier_.Wait();
            fb__loop_done(&l, 0);
        }
    }

    void Start(State &st) {
        fb_exclude_end(st.bench_);
        barrier_.Wait();
    }
    void Finish(State &st) {
        barrier_.Wait();
        fb_exclude_begin(st.bench_);
    }
    void Skip(State &st, const std::string &why) {
        std::lock_guard<std::mutex> lock(mu_);
        if (!skipped_) {
            skipped_ = true;
            why_ = why;
        }
        (void)st;
    }
    /* SetLabel: the run's label (fb_set_label), the last one given */
    void Label(const std::string &label) {
        std::lock_guard<std::mutex> lock(mu_);
        label_ = label;
        has_label_ = true;
    }
    bool skipped() const { return skipped_; }
    const std::string &why() const { return why_; }
    int64_t complexity_n() const { return complexity_n_; }

  private:
    /* Adds a thread's counters of this epoch, per Google Benchmark's flags,
     * into femtobench's form: a value as given, or an amount per iteration
     * shown per second (FB_COUNTER_RATE). */
    void Merge(const State &st, double n) {
        std::lock_guard<std::mutex> lock(mu_);
        const double T = static_cast<double>(in_.threads);
        for (UserCounters::const_iterator it = st.counters.begin(); it != st.counters.end(); ++it) {
            Pending &p = pending_[it->first];
            p.sum += it->second.value;
            p.flags = it->second.flags;
            p.iters = n * T;
        }
        if (st.complexity_n_) complexity_n_ = st.complexity_n_;
    }
    void Publish(fb_bench *tb) {
        std::lock_guard<std::mutex> lock(mu_);
        if (skipped_) fb_skip(tb, why_.c_str());
        if (has_label_) fb_set_label(tb, label_.c_str());
        const double T = static_cast<double>(in_.threads);
        for (std::map<std::string, Pending>::iterator it = pending_.begin(); it != pending_.end();
             ++it) {
            int f = static_cast<int>(it->second.flags);
            double v = it->second.sum, iters = it->second.iters > 0 ? it->second.iters : 1;
            if (f & Counter::kAvgThreads) v /= T;
            unsigned fb_flags = 0;
            if (f & Counter::kIsRate) {
                /* per second = v / time = (v / iters) per iteration */
                double per = (f & Counter::kIsIterationInvariant) ? v : v / iters;
                if (f & Counter::kAvgIterations) per /= iters;
                if (f & Counter::kInvert)
                    Note("counter '" + it->first +
                         "': kInvert with a rate: femtobench shows the rate, not inverted");
                v = per;
                fb_flags = FB_COUNTER_RATE;
            } else {
                if (f & Counter::kIsIterationInvariant) v *= iters;
                if (f & Counter::kAvgIterations) v /= iters;
                if ((f & Counter::kInvert) && v != 0) v = 1 / v;
            }
            fb_counter_set(tb, it->first.c_str(), v, fb_flags);
        }
        pending_.clear();
    }

    struct Pending {
        Pending() : sum(0), flags(Counter::kDefaults), iters(0) {}
        double sum;
        Counter::Flags flags;
        double iters;
    };
    const Instance &in_;
    Barrier barrier_;
    std::mutex mu_;
    bool skipped_, has_label_;
    std::string why_, label_;
    std::map<std::string, Pending> pending_;
    int64_t complexity_n_ = 0;
};

} // namespace internal

inline void State::StartKeepRunning() {
    if (started_) return;
    started_ = true;
    total_iterations_ = skipped_ ? 0 : max_iterations;
    shared_->Start(*this);
}
inline void State::FinishKeepRunning() {
    if (finished_) return;
    if (!started_) StartKeepRunning();
    finished_ = true;
    total_iterations_ = 0;
    shared_->Finish(*this);
}
inline void State::Skip(const char *kind, const std::string &msg) {
    skipped_ = true;
    total_iterations_ = 0;
    shared_->Skip(*this, kind + msg);
}
inline void State::SetLabel(const std::string &label) { shared_->Label(label); }

/* A fixture: SetUp and TearDown around each call of the body (each epoch,
 * on each thread). */
class Fixture : public Benchmark {
  public:
    Fixture() : Benchmark("") {}
    void Run(State &st) override {
        this->SetUp(st);
        this->BenchmarkCase(st);
        this->TearDown(st);
    }
    virtual void SetUp(const State &) {}
    virtual void TearDown(const State &) {}
    virtual void SetUp(State &st) { SetUp(const_cast<const State &>(st)); }
    virtual void TearDown(State &st) { TearDown(const_cast<const State &>(st)); }

  protected:
    virtual void BenchmarkCase(State &) = 0;
};

inline Benchmark *RegisterBenchmark(const std::string &name, internal::Function *fn) {
    return internal::RegisterBenchmarkInternal(new internal::FunctionBenchmark(name, fn));
}
template <class Lambda> Benchmark *RegisterBenchmark(const std::string &name, Lambda &&fn) {
    typedef typename std::decay<Lambda>::type L;
    return internal::RegisterBenchmarkInternal(
        new internal::LambdaBenchmark<L>(name, std::forward<Lambda>(fn)));
}
template <class Lambda, class... Args>
Benchmark *RegisterBenchmark(const std::string &name, Lambda &&fn, Args &&...args) {
    return RegisterBenchmark(name, [=](State &st) { fn(st, args...); });
}

inline void ClearRegisteredBenchmarks() { internal::Families().clear(); }

namespace internal {
inline std::vector<std::string> &SavedArgs() {
    static std::vector<std::string> a;
    return a;
}
} // namespace internal

/* Keeps the --benchmark_* flags (and femtobench's own options) for
 * RunSpecifiedBenchmarks and removes them from argv, as Google Benchmark
 * does; the runner reads them (a bad one: one line, exit status 2). */
inline void Initialize(int *argc, char **argv, void (*)() = nullptr) {
    std::vector<std::string> &saved = internal::SavedArgs();
    saved.clear();
    if (!argc || !argv) return;
    saved.push_back(*argc > 0 && argv[0] ? argv[0] : "benchmark");
    int out = 1;
    for (int i = 1; i < *argc; ++i) {
        const char *a = argv[i];
        if (a && a[0] == '-') {
            saved.push_back(a);
        } else {
            argv[out++] = argv[i];
        }
    }
    *argc = out;
}
inline bool ReportUnrecognizedArguments(int argc, char **argv) {
    for (int i = 1; i < argc; ++i)
        std::fprintf(stderr, "%s: error: unrecognized command-line flag: %s\n", argv[0], argv[i]);
    return argc > 1;
}
inline void MaybeReenterWithoutASLR(int, char **) {}
inline void Shutdown() {}
inline void SetDefaultTimeUnit(TimeUnit) {
    internal::Note("SetDefaultTimeUnit: give Unit() to each benchmark, or -time_unit");
}
inline void AddCustomContext(const std::string &key, const std::string &value) {
    internal::SavedArgs().push_back("-context=" + key + "=" + value);
}

namespace internal {

inline std::string NameOf(const Benchmark &f, const std::vector<int64_t> &args, int threads) {
    std::string s = f.name_;
    char buf[64];
    for (std::size_t i = 0; i < args.size(); ++i) {
        s += '/';
        if (i < f.arg_names_.size() && !f.arg_names_[i].empty()) s += f.arg_names_[i] + ":";
        std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(args[i]));
        s += buf;
    }
    if (f.min_time_ != 0) {
        std::snprintf(buf, sizeof buf, "/min_time:%0.3f", f.min_time_);
        s += buf;
    }
    if (f.min_warmup_time_ != 0) {
        std::snprintf(buf, sizeof buf, "/min_warmup_time:%0.3f", f.min_warmup_time_);
        s += buf;
    }
    if (f.iterations_ != 0) {
        std::snprintf(buf, sizeof buf, "/iterations:%lu",
                      static_cast<unsigned long>(f.iterations_));
        s += buf;
    }
    if (f.repetitions_ != 0) {
        std::snprintf(buf, sizeof buf, "/repeats:%d", f.repetitions_);
        s += buf;
    }
    std::string time_type;
    if (f.process_time_) time_type = "process_time";
    if (f.manual_time_)
        time_type += std::string(time_type.empty() ? "" : "/") + "manual_time";
    else if (f.real_time_)
        time_type += std::string(time_type.empty() ? "" : "/") + "real_time";
    if (!time_type.empty()) s += "/" + time_type;
    if (!f.thread_counts_.empty()) {
        std::snprintf(buf, sizeof buf, "/threads:%d", threads);
        s += buf;
    }
    return s;
}

/* Every family's instances, in registration order: its arguments (or
 * none), each with each thread count (or 1), as Google Benchmark orders
 * them. */
inline std::vector<Instance> ExpandAll() {
    std::vector<Instance> out;
    std::vector<std::unique_ptr<Benchmark>> &fams = Families();
    for (std::size_t k = 0; k < fams.size(); ++k) {
        Benchmark *f = fams[k].get();
        if (!f) continue;
        std::vector<std::vector<int64_t>> args = f->args_;
        if (args.empty()) args.push_back(std::vector<int64_t>());
        std::vector<int> th = f->thread_counts_;
        if (th.empty()) th.push_back(1);
        for (std::size_t a = 0; a < args.size(); ++a)
            for (std::size_t t = 0; t < th.size(); ++t) {
                Instance in;
                in.family = f;
                in.args = args[a];
                in.threads = th[t];
                in.name = NameOf(*f, args[a], th[t]);
                out.push_back(in);
            }
    }
    return out;
}

/* One instance, a benchmark of the runner (instances may share a name:
 * rows of the same name). */
struct Group {
    std::vector<Instance> instances;
    std::size_t *ran;
};

/* Google Benchmark's asked model as femtobench's (fb_register_ordered). */
inline int AskedModel(BigO o) {
    switch (o) {
    case o1:
        return FB_FIT_ASK_1;
    case oN:
        return FB_FIT_ASK_N;
    case oLogN:
        return FB_FIT_ASK_LOG_N;
    case oNLogN:
        return FB_FIT_ASK_N_LOG_N;
    case oNSquared:
        return FB_FIT_ASK_N2;
    case oNCubed:
        return FB_FIT_ASK_N3;
    default: /* oAuto, and a lambda (not used: said once) */
        return FB_FIT_ASK_BEST;
    }
}

inline void SetUnit(fb_bench *b, TimeUnit u) {
    switch (u) {
    case kSecond:
        fb_set_time_unit(b, 1, "s");
        break;
    case kMillisecond:
        fb_set_time_unit(b, 1e-3, "ms");
        break;
    case kMicrosecond:
        fb_set_time_unit(b, 1e-6, "us");
        break;
    default:
        fb_set_time_unit(b, 1e-9, "ns");
        break;
    }
}

inline void RunInstance(fb_bench *b, const Instance &in) {
    const Benchmark &f = *in.family;
    int reps = f.repetitions_ > 0 ? f.repetitions_ : 1;
    if (f.min_warmup_time_ != 0)
        Note("MinWarmUpTime: femtobench warms up by its own schedule (-warmup=<iterations>)");
    for (int r = 0; r < reps; ++r) {
        if (f.has_unit_) SetUnit(b, f.unit_);
        if (f.iterations_ > 0) {
            /* one call of exactly that many iterations, as Google Benchmark:
             * it wins over --benchmark_min_time (code set in the body wins
             * over the runner's min time) */
            fb_set_warmup(b, 0);
            fb_set_epochs(b, 1);
            fb_set_epoch_iterations(b, static_cast<uint64_t>(f.iterations_));
            fb_set_min_time(b, 0);
        }
        /* MinTime(t): at least t of measured time, as Google Benchmark's
         * own MinTime wins over its flag */
        if (f.min_time_ > 0) fb_set_min_time(b, f.min_time_ < 60 ? f.min_time_ : 60);
        fb_set_manual_time(b, f.manual_time_);
        Shared sh(in);
        State setup_state(&in.family->name_, 1, &in.args, 0, in.threads, b, &sh, false);
        if (f.setup_) f.setup_(setup_state);
        if (in.threads > 1) {
            int rc = fb_run_threads(b, static_cast<size_t>(in.threads), Shared::ThreadBody, &sh);
            if (rc != FB_OK)
                std::fprintf(stderr, "femtobench: error: '%s': %d threads: %s\n", in.name.c_str(),
                             in.threads, fb_strerror(rc));
        } else {
            sh.Body(b);
        }
        if (f.teardown_) f.teardown_(setup_state);
    }
}

inline void RunGroup(fb_bench *b, void *ctx) {
    Group *g = static_cast<Group *>(ctx);
    for (std::size_t i = 0; i < g->instances.size(); ++i) {
        RunInstance(b, g->instances[i]);
        if (g->ran) ++*g->ran;
    }
}

inline std::vector<std::unique_ptr<Group>> &Groups() {
    static std::vector<std::unique_ptr<Group>> groups;
    return groups;
}

/* Registers every instance with the runner, once, in Google Benchmark's
 * order (fb_register_ordered: the runner keeps it): from RunAll, or when
 * the runner first reads its registry (fb_register_later: a suite built as
 * a femtobench-ab plugin never runs main). A family with Complexity is one
 * family of the runner, fitted after its last instance (named as Google
 * Benchmark's BigO rows: the instance's name without its arguments). 0, or
 * 2 after an error line. */
inline int RegisterAll() {
    static bool registered = false;
    static int status = 0;
    if (registered) return status;
    registered = true;
    std::vector<Instance> all = ExpandAll();
    std::vector<std::unique_ptr<Benchmark>> &fams = Families();
    for (std::size_t i = 0; i < all.size(); ++i) {
        Groups().push_back(std::unique_ptr<Group>(new Group()));
        Group *g = Groups().back().get();
        g->ran = nullptr;
        g->instances.push_back(all[i]);
        const Benchmark &f = *all[i].family;
        std::string family;
        unsigned id = 0;
        if (f.complexity_ != oNone) {
            int th = f.thread_counts_.empty() ? 1 : f.thread_counts_[0];
            family = NameOf(f, std::vector<int64_t>(), th);
            for (std::size_t k = 0; k < fams.size() && !id; ++k)
                if (fams[k].get() == &f) id = static_cast<unsigned>(k + 1);
        }
        if (fb_register_ordered(all[i].name.c_str(), family.empty() ? nullptr : family.c_str(), id,
                                AskedModel(f.complexity_), RunGroup, g) != FB_OK) {
            std::fprintf(stderr, "femtobench: error: '%s': cannot register\n", all[i].name.c_str());
            return status = 2;
        }
    }
    return status;
}
inline void RegisterAllLater() { (void)RegisterAll(); }
/* One in every file that includes this header; the runner keeps one. */
struct LaterRegistration {
    LaterRegistration() { (void)fb_register_later(&RegisterAllLater); }
};
static const LaterRegistration later_registration{};

/* Registers every instance with the runner (fb_register), then runs
 * fb_main with the saved flags. */
inline int RunAll(const std::vector<std::string> &args, std::size_t *ran) {
    if (RegisterAll() != 0) return 2;
    std::vector<std::unique_ptr<Group>> &groups = Groups();
    for (std::size_t i = 0; i < groups.size(); ++i) groups[i]->ran = ran;
    std::vector<char *> argv;
    for (std::size_t i = 0; i < args.size(); ++i)
        argv.push_back(const_cast<char *>(args[i].c_str()));
    argv.push_back(nullptr);
    return fb_main(static_cast<int>(args.size()), argv.data());
}

/* Only Google Benchmark's own flags (--benchmark_*) among the arguments. */
inline bool OnlyGbenchFlags(const std::vector<std::string> &args) {
    for (std::size_t i = 1; i < args.size(); ++i) {
        const std::string &a = args[i];
        std::size_t dashes = a.compare(0, 2, "--") == 0 ? 2 : 1;
        if (a.compare(dashes, 10, "benchmark_") != 0) return false;
    }
    return true;
}

inline std::size_t RunSpecified(const std::string &spec, int *status) {
    std::vector<std::string> args = SavedArgs();
    if (args.empty()) args.push_back("benchmark");
    if (!spec.empty()) args.push_back("-benchmark_filter=" + spec);
    /* No benchmark registered through this header, run with Google
     * Benchmark's flags only: one line and exit status 0, as Google
     * Benchmark's main (its tests build such programs). With any of
     * femtobench's options the runner decides: nothing to run is bad input
     * there (a gate never passes on nothing), as is an empty filter match. */
    if (ExpandAll().empty() && OnlyGbenchFlags(args)) {
        std::fprintf(stderr, "femtobench: note: no benchmark is registered\n");
        if (status) *status = 0;
        return 0;
    }
    std::size_t ran = 0;
    int rc = RunAll(args, &ran);
    if (status) *status = rc;
    return ran;
}

inline int &ExitStatus() {
    static int s = 0;
    return s;
}

} // namespace internal

/* Runs the registered benchmarks through femtobench's runner (fb_main) with
 * the flags Initialize kept; returns how many instances ran. Reporters are
 * femtobench's own: -output_gbench=<file> writes Google Benchmark JSON. */
inline std::size_t RunSpecifiedBenchmarks() {
    return internal::RunSpecified("", &internal::ExitStatus());
}
inline std::size_t RunSpecifiedBenchmarks(std::string spec) {
    return internal::RunSpecified(spec, &internal::ExitStatus());
}
/* A reporter of one's own is not supported: it does not compile. */
class BenchmarkReporter;
std::size_t RunSpecifiedBenchmarks(BenchmarkReporter *) = delete;
std::size_t RunSpecifiedBenchmarks(BenchmarkReporter *, BenchmarkReporter *) = delete;
std::size_t RunSpecifiedBenchmarks(BenchmarkReporter *, std::string) = delete;
std::size_t RunSpecifiedBenchmarks(BenchmarkReporter *, BenchmarkReporter *, std::string) = delete;

/* The exit status of the last RunSpecifiedBenchmarks: femtobench's (0, 1 a
 * failed benchmark, 2 bad input). BENCHMARK_MAIN returns it. */
inline int GetExitStatus() { return internal::ExitStatus(); }

} // namespace benchmark

#if defined(__COUNTER__) && (__COUNTER__ + 1 == __COUNTER__ + 0)
#define BENCHMARK_PRIVATE_UNIQUE_ID __COUNTER__
#else
#define BENCHMARK_PRIVATE_UNIQUE_ID __LINE__
#endif
#define BENCHMARK_PRIVATE_NAME(...)                                                                \
    BENCHMARK_PRIVATE_CONCAT(benchmark_uniq_, BENCHMARK_PRIVATE_UNIQUE_ID, __VA_ARGS__)
#define BENCHMARK_PRIVATE_CONCAT(a, b, c) BENCHMARK_PRIVATE_CONCAT2(a, b, c)
#define BENCHMARK_PRIVATE_CONCAT2(a, b, c) a##b##c
#define BENCHMARK_PRIVATE_CONCAT_NAME(BaseClass, Method) BaseClass##_##Method##_Benchmark
#define BENCHMARK_PRIVATE_DECLARE(n)                                                               \
    static ::benchmark::Benchmark const *const BENCHMARK_PRIVATE_NAME(n) BENCHMARK_UNUSED

#define BENCHMARK(...)                                                                             \
    BENCHMARK_PRIVATE_DECLARE(_benchmark_) = (::benchmark::internal::RegisterBenchmarkInternal(    \
        new ::benchmark::internal::FunctionBenchmark(                                              \
            #__VA_ARGS__, static_cast<::benchmark::internal::Function *>(__VA_ARGS__))))
#define BENCHMARK_WITH_ARG(n, a) BENCHMARK(n)->Arg((a))
#define BENCHMARK_WITH_ARG2(n, a1, a2) BENCHMARK(n)->Args({(a1), (a2)})
#define BENCHMARK_WITH_UNIT(n, t) BENCHMARK(n)->Unit((t))
#define BENCHMARK_RANGE(n, lo, hi) BENCHMARK(n)->Range((lo), (hi))
#define BENCHMARK_RANGE2(n, l1, h1, l2, h2) BENCHMARK(n)->RangePair((l1), (h1), (l2), (h2))

#define BENCHMARK_CAPTURE(func, test_case_name, ...)                                               \
    BENCHMARK_PRIVATE_DECLARE(_benchmark_) = (::benchmark::RegisterBenchmark(                      \
        #func "/" #test_case_name, [](::benchmark::State &st) { func(st, __VA_ARGS__); }))

#define BENCHMARK_TEMPLATE1(n, a)                                                                  \
    BENCHMARK_PRIVATE_DECLARE(n) = (::benchmark::internal::RegisterBenchmarkInternal(              \
        new ::benchmark::internal::FunctionBenchmark(                                              \
            #n "<" #a ">", static_cast<::benchmark::internal::Function *>(n<a>))))
#define BENCHMARK_TEMPLATE2(n, a, b)                                                               \
    BENCHMARK_PRIVATE_DECLARE(n) = (::benchmark::internal::RegisterBenchmarkInternal(              \
        new ::benchmark::internal::FunctionBenchmark(                                              \
            #n "<" #a "," #b ">", static_cast<::benchmark::internal::Function *>(n<a, b>))))
#define BENCHMARK_TEMPLATE(n, ...)                                                                 \
    BENCHMARK_PRIVATE_DECLARE(n) = (::benchmark::internal::RegisterBenchmarkInternal(              \
        new ::benchmark::internal::FunctionBenchmark(                                              \
            #n "<" #__VA_ARGS__ ">",                                                               \
            static_cast<::benchmark::internal::Function *>(n<__VA_ARGS__>))))
#define BENCHMARK_TEMPLATE1_CAPTURE(func, a, test_case_name, ...)                                  \
    BENCHMARK_CAPTURE(func<a>, test_case_name, __VA_ARGS__)
#define BENCHMARK_TEMPLATE2_CAPTURE(func, a, b, test_case_name, ...)                               \
    BENCHMARK_PRIVATE_DECLARE(func) = (::benchmark::RegisterBenchmark(                             \
        #func "<" #a "," #b ">"                                                                    \
              "/" #test_case_name,                                                                 \
        [](::benchmark::State &st) { func<a, b>(st, __VA_ARGS__); }))

#define BENCHMARK_PRIVATE_DECLARE_F(BaseClass, Method)                                             \
    class BaseClass##_##Method##_Benchmark : public BaseClass {                                    \
      public:                                                                                      \
        BaseClass##_##Method##_Benchmark() { this->SetName(#BaseClass "/" #Method); }              \
                                                                                                   \
      protected:                                                                                   \
        void BenchmarkCase(::benchmark::State &) override;                                         \
    };
#define BENCHMARK_TEMPLATE1_PRIVATE_DECLARE_F(BaseClass, Method, a)                                \
    class BaseClass##_##Method##_Benchmark : public BaseClass<a> {                                 \
      public:                                                                                      \
        BaseClass##_##Method##_Benchmark() { this->SetName(#BaseClass "<" #a ">/" #Method); }      \
                                                                                                   \
      protected:                                                                                   \
        void BenchmarkCase(::benchmark::State &) override;                                         \
    };
#define BENCHMARK_TEMPLATE2_PRIVATE_DECLARE_F(BaseClass, Method, a, b)                             \
    class BaseClass##_##Method##_Benchmark : public BaseClass<a, b> {                              \
      public:                                                                                      \
        BaseClass##_##Method##_Benchmark() {                                                       \
            this->SetName(#BaseClass "<" #a "," #b ">/" #Method);                                  \
        }                                                                                          \
                                                                                                   \
      protected:                                                                                   \
        void BenchmarkCase(::benchmark::State &) override;                                         \
    };
#define BENCHMARK_TEMPLATE_PRIVATE_DECLARE_F(BaseClass, Method, ...)                               \
    class BaseClass##_##Method##_Benchmark : public BaseClass<__VA_ARGS__> {                       \
      public:                                                                                      \
        BaseClass##_##Method##_Benchmark() {                                                       \
            this->SetName(#BaseClass "<" #__VA_ARGS__ ">/" #Method);                               \
        }                                                                                          \
                                                                                                   \
      protected:                                                                                   \
        void BenchmarkCase(::benchmark::State &) override;                                         \
    };
#define BENCHMARK_DEFINE_F(BaseClass, Method)                                                      \
    BENCHMARK_PRIVATE_DECLARE_F(BaseClass, Method)                                                 \
    void BENCHMARK_PRIVATE_CONCAT_NAME(BaseClass, Method)::BenchmarkCase
#define BENCHMARK_TEMPLATE1_DEFINE_F(BaseClass, Method, a)                                         \
    BENCHMARK_TEMPLATE1_PRIVATE_DECLARE_F(BaseClass, Method, a)                                    \
    void BENCHMARK_PRIVATE_CONCAT_NAME(BaseClass, Method)::BenchmarkCase
#define BENCHMARK_TEMPLATE2_DEFINE_F(BaseClass, Method, a, b)                                      \
    BENCHMARK_TEMPLATE2_PRIVATE_DECLARE_F(BaseClass, Method, a, b)                                 \
    void BENCHMARK_PRIVATE_CONCAT_NAME(BaseClass, Method)::BenchmarkCase
#define BENCHMARK_TEMPLATE_DEFINE_F(BaseClass, Method, ...)                                        \
    BENCHMARK_TEMPLATE_PRIVATE_DECLARE_F(BaseClass, Method, __VA_ARGS__)                           \
    void BENCHMARK_PRIVATE_CONCAT_NAME(BaseClass, Method)::BenchmarkCase
#define BENCHMARK_REGISTER_F(BaseClass, Method)                                                    \
    BENCHMARK_PRIVATE_REGISTER_F(BENCHMARK_PRIVATE_CONCAT_NAME(BaseClass, Method))
#define BENCHMARK_PRIVATE_REGISTER_F(TestName)                                                     \
    BENCHMARK_PRIVATE_DECLARE(TestName) =                                                          \
        (::benchmark::internal::RegisterBenchmarkInternal(new TestName()))
#define BENCHMARK_TEMPLATE_PRIVATE_CONCAT_NAME_F(BaseClass, Method)                                \
    BaseClass##_##Method##_BenchmarkTemplate
#define BENCHMARK_TEMPLATE_METHOD_F(BaseClass, Method)                                             \
    template <class... Args>                                                                       \
    class BENCHMARK_TEMPLATE_PRIVATE_CONCAT_NAME_F(BaseClass, Method)                              \
        : public BaseClass<Args...> {                                                              \
      protected:                                                                                   \
        using Base = BaseClass<Args...>;                                                           \
        void BenchmarkCase(::benchmark::State &) override;                                         \
    };                                                                                             \
    template <class... Args>                                                                       \
    void BENCHMARK_TEMPLATE_PRIVATE_CONCAT_NAME_F(BaseClass, Method)<Args...>::BenchmarkCase
#define BENCHMARK_TEMPLATE_PRIVATE_INSTANTIATE_F(BaseClass, Method, UniqueName, ...)               \
    class UniqueName                                                                               \
        : public BENCHMARK_TEMPLATE_PRIVATE_CONCAT_NAME_F(BaseClass, Method)<__VA_ARGS__> {        \
      public:                                                                                      \
        UniqueName() { this->SetName(#BaseClass "<" #__VA_ARGS__ ">/" #Method); }                  \
    };                                                                                             \
    BENCHMARK_PRIVATE_DECLARE(BaseClass##_##Method##_Benchmark) =                                  \
        (::benchmark::internal::RegisterBenchmarkInternal(new UniqueName()))
#define BENCHMARK_TEMPLATE_INSTANTIATE_F(BaseClass, Method, ...)                                   \
    BENCHMARK_TEMPLATE_PRIVATE_INSTANTIATE_F(                                                      \
        BaseClass, Method, BENCHMARK_PRIVATE_NAME(BaseClass##Method), __VA_ARGS__)
#define BENCHMARK_F(BaseClass, Method)                                                             \
    BENCHMARK_PRIVATE_DECLARE_F(BaseClass, Method)                                                 \
    BENCHMARK_REGISTER_F(BaseClass, Method);                                                       \
    void BENCHMARK_PRIVATE_CONCAT_NAME(BaseClass, Method)::BenchmarkCase
#define BENCHMARK_TEMPLATE1_F(BaseClass, Method, a)                                                \
    BENCHMARK_TEMPLATE1_PRIVATE_DECLARE_F(BaseClass, Method, a)                                    \
    BENCHMARK_REGISTER_F(BaseClass, Method);                                                       \
    void BENCHMARK_PRIVATE_CONCAT_NAME(BaseClass, Method)::BenchmarkCase
#define BENCHMARK_TEMPLATE2_F(BaseClass, Method, a, b)                                             \
    BENCHMARK_TEMPLATE2_PRIVATE_DECLARE_F(BaseClass, Method, a, b)                                 \
    BENCHMARK_REGISTER_F(BaseClass, Method);                                                       \
    void BENCHMARK_PRIVATE_CONCAT_NAME(BaseClass, Method)::BenchmarkCase
#define BENCHMARK_TEMPLATE_F(BaseClass, Method, ...)                                               \
    BENCHMARK_TEMPLATE_PRIVATE_DECLARE_F(BaseClass, Method, __VA_ARGS__)                           \
    BENCHMARK_REGISTER_F(BaseClass, Method);                                                       \
    void BENCHMARK_PRIVATE_CONCAT_NAME(BaseClass, Method)::BenchmarkCase

/* The runner's main: femtobench's options and Google Benchmark's
 * --benchmark_* flags (fb_main; -help lists them). */
#define BENCHMARK_MAIN()                                                                           \
    int main(int argc, char **argv) {                                                              \
        ::benchmark::Initialize(&argc, argv);                                                      \
        if (::benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;                        \
        ::benchmark::RunSpecifiedBenchmarks();                                                     \
        ::benchmark::Shutdown();                                                                   \
        return ::benchmark::GetExitStatus();                                                       \
    }                                                                                              \
    int main(int, char **)

#endif /* FEMTOBENCH_COMPAT_GBENCH_BENCHMARK_H */
