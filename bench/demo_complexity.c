/* Two benchmarks sized by the complexity N, for -asymptote:
 *
 *   femtobench-demo -filter=ComplexMemPool -asymptote=25,50,100,200,400,600,800
 *   femtobench-demo -filter=Sort -asymptote=1000,2000,4000,8000,16000,32000
 *
 * ComplexMemPool is quadratic in N, Sort is n log n. Each reads N from
 * fb_complexity_n(b) (the runner sets it) and falls back to a default.
 * Inputs and scratch space are built before the timed loop; the loop
 * allocates nothing. */
#include <femtobench.h>

#include "merge_sort.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* N from the runner when it set one, else the default. */
static size_t fb__demo_n(const fb_bench *b, size_t def) {
    double n = fb_complexity_n(b);
    return n > 1 && n < 1e9 ? (size_t)n : def;
}

/* ---------------------------------------------------------- ComplexMemPool */

/* A naive mempool: a few root transactions, then N child transactions. Each
 * child spends an output of the transaction just before it (a chain of
 * unconfirmed spends, as with repeated CPFP) and of up to two more: a
 * random one of the FB__POOL_WINDOW before it, or a root. One call
 * recomputes, for every transaction, its ancestor set by walking parent
 * links from scratch, and the ancestor package's fee and size (what a
 * CPFP-aware miner looks at).
 *
 * Why quadratic, and not n log n or n^3: the chain makes every earlier
 * child an ancestor of child i, so its walk visits i ancestors and their
 * parent links (2 on average) once each (a stamp marks the visited ones,
 * so nothing is walked twice and nothing is cleared). Summed over N
 * children that is ~N^2 link visits; the roots and the per-transaction
 * bookkeeping add a small linear term. */
#define FB__POOL_ROOTS 4
#define FB__POOL_WINDOW 8

typedef struct fb__pool {
    size_t count;    /* roots + children */
    uint32_t *first; /* parents of tx i: parent[first[i] .. first[i+1]) */
    uint32_t *parent;
    uint32_t *fee;   /* satoshi */
    uint32_t *vsize; /* vbytes */
    uint64_t *seen;  /* walk stamp per tx: seen[j] == stamp when visited */
    uint32_t *stack;
} fb__pool;

static void fb__pool_free(fb__pool *p) {
    free(p->first);
    free(p->parent);
    free(p->fee);
    free(p->vsize);
    free(p->seen);
    free(p->stack);
}

static int fb__pool_build(fb__pool *p, size_t children, uint64_t seed) {
    memset(p, 0, sizeof *p);
    p->count = FB__POOL_ROOTS + children;
    p->first = malloc((p->count + 1) * sizeof *p->first);
    p->parent = malloc(3 * p->count * sizeof *p->parent);
    p->fee = malloc(p->count * sizeof *p->fee);
    p->vsize = malloc(p->count * sizeof *p->vsize);
    p->seen = calloc(p->count, sizeof *p->seen);
    p->stack = malloc(p->count * sizeof *p->stack);
    if (!p->first || !p->parent || !p->fee || !p->vsize || !p->seen || !p->stack) {
        fb__pool_free(p);
        return -1;
    }
    fb_rng rng;
    fb_rng_seed(&rng, seed);
    size_t links = 0;
    for (size_t i = 0; i < p->count; i++) {
        p->first[i] = (uint32_t)links;
        p->fee[i] = 200 + fb_rng_bounded(&rng, 20000);
        p->vsize[i] = 100 + fb_rng_bounded(&rng, 400);
        if (i < FB__POOL_ROOTS) continue;
        p->parent[links++] = (uint32_t)i - 1;
        uint32_t extra = fb_rng_bounded(&rng, 3);
        for (uint32_t k = 0; k < extra; k++) {
            uint32_t par;
            if (fb_rng_bounded(&rng, 4) == 0) {
                par = fb_rng_bounded(&rng, FB__POOL_ROOTS);
            } else {
                uint32_t w = i < FB__POOL_WINDOW ? (uint32_t)i : FB__POOL_WINDOW;
                par = (uint32_t)i - 1 - fb_rng_bounded(&rng, w);
            }
            bool dup = false; /* spending two outputs of one parent is one link */
            for (size_t j = p->first[i]; j < links; j++) dup = dup || p->parent[j] == par;
            if (!dup) p->parent[links++] = par;
        }
    }
    p->first[p->count] = (uint32_t)links;
    return 0;
}

/* One pass over the pool: every transaction's ancestor count, fee and size,
 * folded into a checksum. stamp counts walks and never repeats. */
static uint64_t fb__pool_ancestors(fb__pool *p, uint64_t *stamp) {
    uint64_t sum = 0;
    for (size_t i = 0; i < p->count; i++) {
        uint64_t s = ++*stamp;
        size_t top = 0;
        uint64_t count = 0, fee = p->fee[i], vsize = p->vsize[i];
        p->seen[i] = s;
        p->stack[top++] = (uint32_t)i;
        while (top) {
            uint32_t tx = p->stack[--top];
            for (uint32_t j = p->first[tx]; j < p->first[tx + 1]; j++) {
                uint32_t par = p->parent[j];
                if (p->seen[par] == s) continue;
                p->seen[par] = s;
                p->stack[top++] = par;
                count++;
                fee += p->fee[par];
                vsize += p->vsize[par];
            }
        }
        sum += count + (fee * 1000) / vsize;
    }
    return sum;
}

FB_BENCHMARK(ComplexMemPool) {
    fb__pool pool;
    if (fb__pool_build(&pool, fb__demo_n(b, 200), 0x6d656d706f6f6cULL) != 0) return;
    uint64_t stamp = 0;
    FB_RUN(b, "ComplexMemPool") {
        uint64_t sum = fb__pool_ancestors(&pool, &stamp);
        fb_do_not_optimize(sum);
    }
    fb__pool_free(&pool);
}

/* -------------------------------------------------------------------- Sort */

/* Sorts N random uint32 keys; each call first copies the unsorted input
 * (O(n), small next to the n log n sort). The three arrays are carved from
 * one block at fixed distances from a 4 KiB boundary: memcpy takes a few more
 * or fewer instructions depending on where its buffers start, and on a large
 * copy on where they lie against each other within a page (glibc's avoids 4K
 * aliasing), and where malloc puts separate buffers depends on what the
 * process allocated before (the length of an output path, say), so that
 * under -valgrind two processes would count a few instructions apart. */
#define FB__DEMO_PAGE 4096u
static size_t fb__demo_pages(size_t n) {
    return (n * sizeof(uint32_t) + FB__DEMO_PAGE - 1) / FB__DEMO_PAGE * FB__DEMO_PAGE;
}

FB_BENCHMARK(Sort) {
    size_t n = fb__demo_n(b, 10000);
    size_t span = fb__demo_pages(n);
    void *block = malloc(3 * span + FB__DEMO_PAGE);
    if (block) {
        uintptr_t p = (uintptr_t)block;
        unsigned char *base =
            (unsigned char *)block + (FB__DEMO_PAGE - p % FB__DEMO_PAGE) % FB__DEMO_PAGE;
        uint32_t *input = (uint32_t *)(void *)base;
        uint32_t *work = (uint32_t *)(void *)(base + span);
        uint32_t *tmp = (uint32_t *)(void *)(base + 2 * span);
        fb_rng rng;
        fb_rng_seed(&rng, 0x736f7274ULL);
        for (size_t i = 0; i < n; i++) input[i] = (uint32_t)fb_rng_u64(&rng);
        FB_RUN(b, "Sort") {
            memcpy(work, input, n * sizeof *work);
            uint32_t *sorted = fb__merge_sort(work, tmp, n);
            fb_do_not_optimize(sorted[n / 2]);
        }
    }
    free(block);
}
