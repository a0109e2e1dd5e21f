/* A bad argument to the API inside a benchmark: refused, said once, and
 * carried by the next result as its error (src/misuse.h). */
#include "misuse.h"

#include "bench_state.h"
#include "text.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

int fb__bench_misuse(fb_bench *b, const char *fmt, ...) {
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (b->diag) { /* written here: bench.c calls this file, not the reverse */
        fprintf(b->diag, "femtobench: error: %s\n", line);
        fflush(b->diag);
    }
    if (!b->misuse) {
        size_t n = strlen(FB__MISUSE_PREFIX) + strlen(line) + 1;
        b->misuse = malloc(n);
        if (b->misuse) snprintf(b->misuse, n, "%s%s", FB__MISUSE_PREFIX, line);
    }
    return FB_EINVAL;
}

void fb__misuse_attach(fb_bench *b, fb_result *r) {
    if (!b->misuse) return;
    /* the row says why it is not a measurement; the bad argument comes
     * first, whatever else went wrong because of it (a run whose manual
     * times were refused measured nothing, "optimized away") */
    free(r->error);
    r->error = b->misuse;
    b->misuse = NULL;
}

bool fb__result_misuse(const fb_result *r) {
    return r->error && strncmp(r->error, FB__MISUSE_PREFIX, strlen(FB__MISUSE_PREFIX)) == 0;
}
