/* A suite for tests/test_formats.py: names and titles that every output
 * format must escape, an error row, a complexity benchmark, many small
 * results (a large file to write), and a slow benchmark to interrupt.
 * Run through the runner (FB_MAIN); the tests select with -filter. */
#define _POSIX_C_SOURCE 200809L
#include "femtobench.h"

#include <time.h>

/* Quotes, comma, semicolon, backslash, pipe, newline, tab, UTF-8 (é). */
FB_BENCHMARK(Weird) {
    fb_set_title(b, "t \"q\", ;\\ | \xc3\xa9");
    fb_set_unit(b, "b\"yte");
    fb_set_batch(b, 8);
    uint64_t x = 1;
    FB_RUN(b, "a\"b,c;d\\e|f\n\t\xc3\xa9") {
        x = x * 3 + 1;
        fb_do_not_optimize(x);
    }
}

/* Control characters, DEL and an ill-formed UTF-8 byte. */
FB_BENCHMARK(Ctrl) {
    uint64_t x = 1;
    FB_RUN(b, "ctrl\x01\x1f\x7f\xff end") {
        x ^= x << 1;
        fb_do_not_optimize(x);
    }
}

FB_BENCHMARK(Plain) {
    uint64_t x = 1;
    FB_RUN(b, "plain") {
        x += x >> 1;
        fb_do_not_optimize(x);
    }
}

/* `break` leaves the timed loop: the runner records an error row. */
FB_BENCHMARK(Broken) {
    uint64_t x = 1;
    FB_RUN(b, "broken") {
        x += 1;
        fb_do_not_optimize(x);
        if (x > 3) break;
    }
}

/* Work proportional to N (with -asymptote). */
FB_BENCHMARK(Scale) {
    size_t n = fb_complexity_n(b) > 0 ? (size_t)fb_complexity_n(b) : 16;
    uint64_t x = 1;
    FB_RUN(b, "scale") {
        for (size_t i = 0; i < n; ++i) {
            x = x * 6364136223846793005ull + i;
            fb_do_not_optimize(x);
        }
    }
}

/* Many tiny results: a large JSON file, so that writing it takes a while. */
FB_BENCHMARK(Many) {
    fb_set_epochs(b, 3);
    fb_set_epoch_iterations(b, 1);
    uint64_t x = 1;
    char name[32];
    for (int i = 0; i < 300; ++i) {
        snprintf(name, sizeof name, "many_%03d", i);
        FB_RUN(b, name) {
            x += (uint64_t)i;
            fb_do_not_optimize(x);
        }
    }
}

/* About 20 s: to be interrupted. */
FB_BENCHMARK(Slow) {
    fb_set_epochs(b, 2000);
    fb_set_epoch_iterations(b, 1);
    fb_set_max_total_time(b, 60);
    fb_set_max_epoch_time(b, 1);
    struct timespec ts = {0, 10 * 1000 * 1000};
    FB_RUN(b, "slow") { nanosleep(&ts, NULL); }
}

FB_MAIN()

/* A paired comparison (src/run/compare.c): two alternatives, one twice the
 * work of the other, and a name that needs escaping. */
FB_BENCHMARK(Compare) {
    uint64_t x = 1;
    FB_COMPARE(b, "cmp \"t\", ;|") {
        FB_ALTERNATIVE("one") {
            x = x * 3 + 1;
            fb_do_not_optimize(x);
        }
        FB_ALTERNATIVE("two, \"quoted\"") {
            x = x * 3 + 1;
            fb_do_not_optimize(x);
            x = x * 3 + 1;
            fb_do_not_optimize(x);
        }
    }
}
