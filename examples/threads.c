/* SPDX-License-Identifier: MIT
 *
 * threads.c: a benchmark run by a group of threads, as Google Benchmark's
 * ->Threads(n): a contended atomic counter against per-thread counters, at
 * 1, 2 and 4 threads.
 *
 * FB_BENCHMARK_THREADS(fn, 1, 2, 4) runs fn's body on 1, 2 and 4 threads at
 * once (rows "fn/threads:1", ...), each thread with its own b. The time per
 * op is the group's: its epoch time / (iterations per thread * threads), so
 * work that scales shows 1/n of one thread's time, and a contended counter
 * does not. On a machine with fewer cores than threads the threads take
 * turns (docs/threads.md, "Oversubscription").
 *
 * Run:   ./threads
 *        ./threads -output_gbench=- | python3 -m json.tool
 */
#include <femtobench.h>

#include <stdatomic.h>

/* One counter all threads increment: its cache line moves between cores. */
static _Atomic uint64_t fb_ex_shared;

FB_BENCHMARK_THREADS(AtomicShared, 1, 2, 4) {
    FB_RUN(b, NULL) { atomic_fetch_add_explicit(&fb_ex_shared, 1, memory_order_relaxed); }
}

/* A counter per thread, each on its own 64-byte cache line (aligned, so
 * that no two share one): nothing is shared. */
typedef struct {
    _Alignas(64) _Atomic uint64_t n;
} fb_ex_slot;
static fb_ex_slot fb_ex_slots[4];

FB_BENCHMARK_THREADS(AtomicPerThread, 1, 2, 4) {
    fb_ex_slot *mine = &fb_ex_slots[fb_thread_index(b)];
    FB_RUN(b, NULL) { atomic_fetch_add_explicit(&mine->n, 1, memory_order_relaxed); }
}

FB_MAIN()
