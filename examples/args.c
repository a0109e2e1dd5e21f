/* SPDX-License-Identifier: MIT
 *
 * args.c: one benchmark body over a range of input sizes.
 *
 * FB_BENCHMARK_RANGE(fn, lo, hi, mult) registers fn once per size lo,
 * lo*mult, ... hi, as the benchmarks fn/lo ... fn/hi; FB_BENCHMARK_ARGS(fn,
 * a1, a2, ...) once per listed argument. fb_arg(b) tells the body which.
 * FB_BENCHMARK_PRODUCT(fn, FB_LIST(...), FB_RANGE(lo, hi, mult), ...) registers
 * fn once per combination of several arguments, as fn/a/b; fb_arg_at(b, i)
 * reads argument i.
 * Each instance is an ordinary benchmark for -list, -filter and the outputs.
 *
 * Run:   ./args
 *        ./args -list
 *        ./args -filter='Sum/(256|4096)'     two instances
 *        ./args -filter=Fnv1a                 the whole family
 *        ./args -filter='Stride/4/.*'         one stride, every size
 */
#include <femtobench.h>

#include <stdlib.h>

/* Sum/64, Sum/256, ..., Sum/65536: adds up arg numbers. The instances set
 * the complexity N to their size, so the runner prints a fit over the
 * family after its last row (it should say O(n)). */
FB_BENCHMARK_RANGE(Sum, 64, 64 << 10, 4) {
    size_t n = (size_t)fb_arg(b);
    uint32_t *v = malloc(n * sizeof *v);
    if (v == NULL) {
        return;
    }
    for (size_t i = 0; i < n; i++) {
        v[i] = (uint32_t)(i * 2654435761u);
    }
    fb_set_complexity_n(b, (double)n);
    FB_RUN(b, NULL) { /* NULL: the instance's name, e.g. "Sum/1024" */
        uint64_t s = 0;
        for (size_t i = 0; i < n; i++) {
            s += v[i];
        }
        fb_do_not_optimize(s);
    }
    free(v);
}

/* FNV-1a over messages of the listed lengths, per byte: the table shows how
 * the per-call cost weighs on short messages. */
FB_BENCHMARK_ARGS(Fnv1a, 3, 16, 100, 1000) {
    size_t n = (size_t)fb_arg(b);
    unsigned char *msg = calloc(n, 1);
    if (msg == NULL) {
        return;
    }
    fb_set_unit(b, "byte");
    fb_set_batch(b, (double)n);
    FB_RUN(b, NULL) {
        uint64_t h = 14695981039346656037u;
        for (size_t i = 0; i < n; i++) {
            h = (h ^ msg[i]) * 1099511628211u;
        }
        fb_do_not_optimize(h);
    }
    free(msg);
}

/* Strided reads: every combination of a stride (a list) and a buffer size
 * in 32-bit words (a range), as Stride/<stride>/<words>. */
FB_BENCHMARK_PRODUCT(Stride, FB_LIST(1, 4, 16), FB_RANGE(1024, 16384, 4)) {
    size_t stride = (size_t)fb_arg_at(b, 0), n = (size_t)fb_arg_at(b, 1);
    uint32_t *v = calloc(n, sizeof *v);
    if (v == NULL) {
        return;
    }
    fb_set_unit(b, "read");
    fb_set_batch(b, (double)((n + stride - 1) / stride));
    FB_RUN(b, NULL) { /* "Stride/4/4096" */
        uint32_t s = 0;
        for (size_t i = 0; i < n; i += stride) {
            s += v[i];
        }
        fb_do_not_optimize(s);
    }
    free(v);
}

FB_MAIN()
