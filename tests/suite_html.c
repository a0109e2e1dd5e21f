/* A suite for tests/test_html_cli.py and test_html_browser.py: hostile
 * names, titles and units that the HTML report must show as text, two
 * groups (one spanning more than 100x: a log axis), an error row and a
 * benchmark sized by N for -asymptote. Run through the runner (FB_MAIN). */
#include "femtobench.h"

/* Names a page must never execute or break on. */
FB_BENCHMARK(Hostile) {
    fb_set_title(b, "<b>title</b> & 'more'");
    fb_set_unit(b, "b<y>te");
    fb_set_batch(b, 4);
    uint64_t x = 1;
    FB_RUN(b, "<script>alert(1)</script>") {
        x = x * 3 + 1;
        fb_do_not_optimize(x);
    }
    FB_RUN(b, "a\"b'&c") {
        x ^= x >> 3;
        fb_do_not_optimize(x);
    }
    FB_RUN(b, "</svg><img src=x onerror=alert(2)>") {
        x += 7;
        fb_do_not_optimize(x);
    }
}

/* About 1 ns and about 20 us: more than 100x apart in one group. */
FB_BENCHMARK(Fast) {
    uint64_t x = 1;
    FB_RUN(b, "fast") {
        x += x >> 1;
        fb_do_not_optimize(x);
    }
}

FB_BENCHMARK(Slow) {
    uint64_t x = 1;
    FB_RUN(b, "slow") {
        for (int i = 0; i < 20000; ++i) {
            x = x * 6364136223846793005ull + 1;
            fb_do_not_optimize(x);
        }
    }
}

/* `break` leaves the timed loop: an error row. */
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

FB_MAIN()
