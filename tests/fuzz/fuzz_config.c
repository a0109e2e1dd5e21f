/* libFuzzer target: the FEMTOBENCH_CONFIG parser (tests/fuzz/run.sh), with
 * its error report, and every value it accepts checked against the key's
 * documented range. */
#define FEMTOBENCH_IMPLEMENTATION
#include "femtobench.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char *text = malloc(size + 1);
    if (!text) return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    fb__layer layer;
    memset(&layer, 0, sizeof layer);
    char report[4096];
    FILE *err = fmemopen(report, sizeof report, "w");
    int bad = fb__config_parse(text, &layer, err);
    if (err) fclose(err);
    if (bad < 0) abort();
    for (int k = 0; k < FB__K_COUNT; ++k) {
        if (!(layer.set & (1u << k))) continue;
        const fb__key_info *info = fb__key_info_of((fb__key)k);
        double v = layer.v[k];
        if (!(v >= info->min && v <= info->max)) abort(); /* out of range was accepted */
    }
    free(text);
    return 0;
}
