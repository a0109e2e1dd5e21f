/* A suite whose middle benchmark silences its own table rows with
 * fb_set_output(b, NULL), for tests/test_set_output_cli.sh: the benchmarks
 * after it still print theirs. */
#include "femtobench.h"

#include <stdlib.h>

FB_BENCHMARK(First) {
    int x = 1;
    FB_RUN(b, "First") fb_do_not_optimize(x);
}

FB_BENCHMARK(Second_Silent) {
    fb_set_output(b, NULL);
    int x = 2;
    FB_RUN(b, "Second_Silent") fb_do_not_optimize(x);
}

FB_BENCHMARK(Third) {
    int x = 3;
    FB_RUN(b, "Third") fb_do_not_optimize(x);
}

/* With SUITE_OUTPUT_CRASH set: silences its rows, measures, then crashes.
 * Under -isolate the crash is the runner's report, not one of the
 * benchmark's rows: it is printed. */
FB_BENCHMARK(Fourth_Crash) {
    if (!getenv("SUITE_OUTPUT_CRASH")) return;
    fb_set_output(b, NULL);
    int x = 4;
    FB_RUN(b, "Fourth_Crash") fb_do_not_optimize(x);
    abort();
}

FB_MAIN()
