/* Runs one benchmark with the counters on or off (argv[1] = "on"/"off"),
 * for tests/test_counters_off.sh, which counts perf syscalls with strace. */
#include "femtobench.h"
#include "../src/platform/config.h" /* FB_HAVE_PERF_EVENTS: was the library built with counters? */

#include <string.h>

int main(int argc, char **argv) {
    fb_bench *b = fb_bench_new();
    fb_set_performance_counters(b, argc > 1 && strcmp(argv[1], "on") == 0);
    fb_set_output(b, NULL);
    /* always 11 epochs: on a loaded machine the default time budget may
     * stop a run at 3, and the test counts per-epoch ioctls */
    fb_set_max_total_time(b, 60);
    uint64_t x = 1;
    FB_RUN(b, "x += x") {
        x += x;
        fb_do_not_optimize(x);
    }
    const fb_result *r = fb_last_result(b);
    /* 11 epochs, more when disturbed ones were replaced, as few as 3 when a
     * loaded machine spends the budget */
    int ok = r && !fb_result_error(r) && fb_result_epochs(r) >= 3;
    printf("pagefaults measured: %s\n", fb_result_has(r, FB_PAGEFAULTS) ? "yes" : "no");
    printf("perf build: %s\n", FB_HAVE_PERF_EVENTS ? "yes" : "no");
    fb_bench_free(b);
    return ok ? 0 : 1;
}
