/* Untimed setup and teardown around each epoch (fb_set_setup,
 * fb_set_teardown) and the argument of a family's instance (fb_arg). */
#include "setup.h"

#include "text.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

void fb_set_setup(fb_bench *b, fb_op setup, void *ctx) {
    b->setup = setup;
    b->setup_ctx = setup ? ctx : NULL;
}

void fb_set_teardown(fb_bench *b, fb_op teardown, void *ctx) {
    b->teardown = teardown;
    b->teardown_ctx = teardown ? ctx : NULL;
}

void fb__setup_before_epoch(fb_bench *b) {
    if (b->setup) b->setup(b->setup_ctx);
}

void fb__teardown_after_epoch(fb_bench *b) {
    if (b->teardown) b->teardown(b->teardown_ctx);
}

int64_t fb_arg(const fb_bench *b) { return b->cfg.has_arg ? b->cfg.arg : 0; }

void fb__bench_set_arg(fb_bench *b, int64_t arg) {
    b->cfg.has_arg = true;
    b->cfg.arg = arg;
}

bool fb_result_has_arg(const fb_result *r) { return r->config.has_arg; }
int64_t fb_result_arg(const fb_result *r) { return r->config.has_arg ? r->config.arg : 0; }

char *fb__run_name(const fb_bench *b, const char *name) {
    const char *base = name ? name : b->name ? b->name : "noname";
    if (!b->cfg.has_arg) return fb__strdup(base);
    char suffix[24];
    snprintf(suffix, sizeof suffix, "/%" PRId64, b->cfg.arg);
    size_t n = strlen(base), k = strlen(suffix);
    if (n >= k && strcmp(base + n - k, suffix) == 0) return fb__strdup(base);
    char *s = malloc(n + k + 1);
    if (!s) return NULL;
    memcpy(s, base, n);
    memcpy(s + n, suffix, k + 1);
    return s;
}
