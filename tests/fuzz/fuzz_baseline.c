/* libFuzzer target for the baseline reader (src/outputs/json_read.c, src/outputs/baseline.c)
 * and the comparison it feeds (src/outputs/change.c, src/outputs/report_change.c).
 *
 *   tools/amalgamate -o OUT/femtobench.h; clang -fsanitize=fuzzer,address,undefined -IOUT \
 *         tests/fuzz/fuzz_baseline.c -lm -lpthread -o fuzz_baseline
 *   ./fuzz_baseline -max_total_time=60 -dict=tests/fuzz/baseline.dict \
 *         CORPUS_COPY tests/fuzz/corpus/baseline
 *
 * tests/fuzz/run.sh (from .ci/run) does this for a bounded time; tests/test_fuzz_corpus.c replays
 * the seed corpus through the same function in every ctest run. Properties: no crash, no sanitizer
 * report, no hang (libFuzzer's -timeout), no unbounded allocation (-rss_limit_mb), and an error is
 * always one non-empty line. */
#ifndef FB_FUZZ_IN_TEST           /* tests/test_fuzz_corpus.c includes this file into a test */
#define FEMTOBENCH_IMPLEMENTATION /* the single header: internals in this file */
#include "femtobench.h"
#else
#include "baseline.h"
#include "change.h"
#include "report_change.h"
#endif

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fb__baseline bl;
    char err[512];
    if (fb__baseline_parse((const char *)data, size, &bl, err, sizeof err) != 0) {
        if (err[0] == '\0' || strchr(err, '\n')) abort(); /* one clear line */
        return 0;
    }
    /* a valid baseline: compare it with itself through the whole table */
    FILE *f = fopen("/dev/null", "w");
    if (f) {
        size_t counts[FB__V_COUNT];
        if (fb__change_table(f, &bl, &bl, 5, counts) != 0) abort();
        size_t total = 0;
        for (int v = 0; v < FB__V_COUNT; ++v) total += counts[v];
        if (total != bl.n || counts[FB__V_SLOWER] || counts[FB__V_FASTER]) abort();
        fclose(f);
    }
    fb__baseline_free(&bl);
    return 0;
}
