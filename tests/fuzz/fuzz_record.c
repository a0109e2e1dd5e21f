/* libFuzzer target: the -isolate record reader (src/runner/isolate.c), which
 * parses what a child process sent. Whatever the bytes, it returns 0 or a
 * whole, well-formed result that can be re-encoded to the same bytes. */
#define FEMTOBENCH_IMPLEMENTATION
#include "femtobench.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fb_result *r = NULL;
    size_t used = fb__isolate_decode(data, size, &r);
    if (!used) {
        if (r) abort();
        return 0;
    }
    if (!r || used > size) abort();
    unsigned char *buf = NULL;
    size_t len = 0, cap = 0;
    if (fb__isolate_encode(r, &buf, &len, &cap) == FB_OK &&
        (len != used || memcmp(buf, data, used) != 0))
        abort(); /* a record read back must encode to itself */
    free(buf);
    fb__result_free(r);
    return 0;
}
