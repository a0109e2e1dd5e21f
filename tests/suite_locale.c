/* A program that adopts the user's locale, as many real programs do, then
 * runs a small suite (tests/test_locale.sh runs it under de_DE.UTF-8). */
#include "femtobench.h"

#include <locale.h>
#include <stdlib.h>
#include <string.h>

FB_BENCHMARK(Bytes) {
    fb_set_unit(b, "byte");
    fb_set_batch(b, 1000);
    unsigned char buf[1000] = {0};
    FB_RUN(b, "Bytes") {
        for (int i = 0; i < 1000; ++i) buf[i] = (unsigned char)(buf[i] * 3 + 1);
        fb_do_not_optimize(buf);
    }
}

FB_BENCHMARK(Grow) {
    size_t n = fb_complexity_n(b) > 1 ? (size_t)fb_complexity_n(b) : 100;
    uint64_t *v = calloc(n, sizeof *v);
    FB_RUN(b, "Grow") {
        for (size_t i = 0; i < n; ++i) v[i] += i;
        fb_do_not_optimize(v[0]);
    }
    free(v);
}

int main(int argc, char **argv) {
    setlocale(LC_ALL, "");
    /* tells the test which decimal point printf would use now */
    fprintf(stderr, "suite_locale: decimal point '%s'\n", localeconv()->decimal_point);
    return fb_main(argc, argv);
}
