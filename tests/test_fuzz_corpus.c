/* Replays the fuzz target's seed corpus (tests/fuzz/corpus/baseline) and a
 * few hostile inputs through the fuzz target's function, in every ctest run
 * (and under ASan/UBSan in CI). The time-bounded fuzzing itself is in
 * .ci/run. */
#include "baseline.h" /* an internal test (also for tests/test_single_header.sh) */
#include "check.h"

#define FB_FUZZ_IN_TEST 1
#include "fuzz/fuzz_baseline.c"

#include <dirent.h>

int main(void) {
    const char *dir = FB_TEST_DATA_DIR "/../fuzz/corpus/baseline";
    DIR *d = opendir(dir);
    CHECK(d != NULL);
    size_t files = 0;
    for (struct dirent *e; d && (e = readdir(d));) {
        if (e->d_name[0] == '.') continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        FILE *f = fopen(path, "rb");
        CHECK(f != NULL);
        if (!f) continue;
        static uint8_t buf[1 << 20];
        size_t n = fread(buf, 1, sizeof buf, f);
        fclose(f);
        LLVMFuzzerTestOneInput(buf, n);
        ++files;
    }
    if (d) closedir(d);
    CHECK(files >= 5);
    /* deep nesting, long runs of one byte, a NUL in the middle */
    static uint8_t big[1 << 16];
    memset(big, '[', sizeof big);
    LLVMFuzzerTestOneInput(big, sizeof big);
    memset(big, '"', sizeof big);
    LLVMFuzzerTestOneInput(big, sizeof big);
    memset(big, '1', sizeof big);
    LLVMFuzzerTestOneInput(big, sizeof big);
    LLVMFuzzerTestOneInput((const uint8_t *)"{\"schema\":\"femtobench/1\"\0}", 27);
    return CHECK_DONE();
}
