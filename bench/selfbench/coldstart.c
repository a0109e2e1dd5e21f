/* Whole-process cost of short runs, for tools/coldstart_bench.py:
 *   fb_coldstart 1    one benchmark, as a developer runs one
 *   fb_coldstart 10   a suite of ten
 * Each benchmark is a dependent add chain, `x += x + k`, with the defaults
 * (output on stdout). The same file builds against femtobench 0.1, and
 * nb_coldstart.cpp is the nanobench side with the same bodies. */
#include <femtobench.h>

#include <stdlib.h>

/* One FB_RUN site per benchmark, as a suite's source has. */
#define CS_RUN(k)                                                                                  \
    if (n > k) {                                                                                   \
        FB_RUN(b, "add" #k) {                                                                      \
            x += x + k;                                                                            \
            fb_do_not_optimize(x);                                                                 \
        }                                                                                          \
    }

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 1;
    fb_bench *b = fb_bench_new();
    if (!b) return 1;
    uint64_t x = 1;
    CS_RUN(0)
    CS_RUN(1)
    CS_RUN(2)
    CS_RUN(3)
    CS_RUN(4)
    CS_RUN(5)
    CS_RUN(6)
    CS_RUN(7)
    CS_RUN(8)
    CS_RUN(9)
    fb_bench_free(b);
    return 0;
}
