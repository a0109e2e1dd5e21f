/* The bottom-up merge sort that the demo's Sort benchmark and the
 * complexity workloads (tools/complexity_workloads.c) both time. */
#ifndef FB_BENCH_MERGE_SORT_H
#define FB_BENCH_MERGE_SORT_H

#include <stddef.h>
#include <stdint.h>

/* Bottom-up merge sort of n keys: ceil(log2(n)) passes of n moves,
 * ping-ponging between a and tmp. Returns the buffer holding the result. */
static uint32_t *fb__merge_sort(uint32_t *a, uint32_t *tmp, size_t n) {
    uint32_t *src = a, *dst = tmp;
    for (size_t width = 1; width < n; width *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * width) {
            size_t mid = lo + width < n ? lo + width : n;
            size_t hi = lo + 2 * width < n ? lo + 2 * width : n;
            size_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi) {
                /* branch-free: a branch on random keys would be learned by
                 * the predictor for small N, since each call sorts the same
                 * input, and the time per compare would jump with N */
                uint32_t x = src[i], y = src[j];
                size_t right = y < x;
                dst[k++] = right ? y : x;
                j += right;
                i += 1 - right;
            }
            while (i < mid) dst[k++] = src[i++];
            while (j < hi) dst[k++] = src[j++];
        }
        uint32_t *t = src;
        src = dst;
        dst = t;
    }
    return src;
}

#endif
