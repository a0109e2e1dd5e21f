/* libFuzzer target: the runner's command line (tests/fuzz/run.sh).
 * The input is split at NUL bytes into argv[1..]; each argument goes through
 * the option parser and, where it is one, the -filter bounds and the output
 * path's descriptor test (no file is created: the probe of a path's
 * directory is left to the tests). Built from the single header, so the
 * library's internal functions (src/runner/options.c's parser) are reachable. */
#define FEMTOBENCH_IMPLEMENTATION
#include "femtobench.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define FUZZ_MAX_ARGS 32

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char *text = malloc(size + 1);
    if (!text) return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    char *argv[FUZZ_MAX_ARGS + 2] = {"fuzz_cli"};
    int argc = 1;
    for (size_t i = 0; i <= size && argc <= FUZZ_MAX_ARGS;) {
        argv[argc++] = text + i;
        i += strlen(text + i) + 1;
    }
    argv[argc] = NULL;
    fb__opts o;
    fb__opts_init(&o);
    if (fb__opts_parse(argc, argv, &o) == 0) {
        char why[512];
        if (o.filter) (void)fb__filter_check(o.filter, why, sizeof why);
        for (size_t k = 0; k < o.outs.n; ++k)
            if (o.outs.given[k]) (void)fb__outfile_std_fd(o.outs.given[k]);
    }
    fb__opts_free(&o);
    free(text);
    return 0;
}
