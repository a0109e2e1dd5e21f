/* A suite whose middle benchmark silences its own table rows with
 * fb_set_output(b, NULL), for tests/test_set_output_cli.sh: the benchmarks
 * after it still print theirs. */
#include "femtobench.h"

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

FB_MAIN()
