/* An error result made by the runner rather than by a run: a
 * benchmark that measured nothing, or an isolated child that crashed, timed
 * out or exited. It goes through the same sinks as a measured result, so it
 * is a row in the table and in every output file. */
#include "bench.h"

#include "text.h"

#include <stdlib.h>

int fb__bench_error_row(fb_bench *b, const char *name, const char *msg) {
    fb_result *r = calloc(1, sizeof *r);
    if (!r) return FB_ENOMEM;
    r->name = fb__strdup(name);
    r->error = fb__strdup(msg);
    if (!r->name || !r->error || fb__bench_config(b, &r->config) != FB_OK) {
        free(r->name);
        free(r->error);
        free(r);
        return FB_ENOMEM;
    }
    r->callsite = -1;
    size_t before = fb_result_count(b);
    fb__bench_publish(b, r);
    return fb_result_count(b) > before ? FB_OK : FB_ENOMEM;
}
