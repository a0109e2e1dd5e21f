/* A run's label (src/handle/label.h): kept on the bench until the run in progress
 * (or the next one) is published, then carried by its result. Writers
 * only read it (fb_result_label). */
#include "label.h"

#include "bench_state.h"
#include "misuse.h"
#include "result.h"
#include "text.h"

#include <stdlib.h>
#include <string.h>

int fb_set_label(fb_bench *b, const char *label) {
    if (!b) return FB_EINVAL;
    if (label && strlen(label) > FB__LABEL_MAX)
        return fb__bench_misuse(b, "fb_set_label: a label longer than %d bytes", FB__LABEL_MAX);
    for (const unsigned char *p = (const unsigned char *)label; p && *p; ++p)
        if (*p < 0x20 || *p == 0x7f)
            return fb__bench_misuse(b, "fb_set_label: a label with a control character");
    char *copy = NULL;
    if (label && *label && !(copy = fb__strdup(label))) return FB_ENOMEM;
    free(b->label);
    b->label = copy; /* NULL or "": none */
    return FB_OK;
}

void fb__label_attach(fb_bench *b, fb_result *r) {
    if (!b->label) return;
    free(r->label);
    r->label = b->label;
    b->label = NULL;
}

const char *fb_result_label(const fb_result *r) { return r ? r->label : NULL; }
