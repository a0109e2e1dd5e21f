/* The core probe over time, for tools/probe_timeline.py: prints
 * one probe (src/machine/probe.c) every GAP_MS milliseconds, COUNT times:
 *   probe_timeline COUNT GAP_MS
 * Links the library's internal fb__probe_core from the static library (it
 * is hidden only from the shared library's dynamic symbols). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

double fb__probe_core(void *ctx);

int main(int argc, char **argv) {
    long count = argc > 1 ? atol(argv[1]) : 100, gap_ms = argc > 2 ? atol(argv[2]) : 10;
    struct timespec gap = {gap_ms / 1000, (gap_ms % 1000) * 1000000L};
    for (long i = 0; i < count; ++i) {
        printf("%.4f\n", fb__probe_core(NULL));
        nanosleep(&gap, NULL);
    }
    return 0;
}
