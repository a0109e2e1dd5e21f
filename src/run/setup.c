/* Untimed setup and teardown around each epoch (fb_set_setup,
 * fb_set_teardown) and the argument of a family's instance (fb_arg). */
#include "setup.h"
#include "bench_state.h" /* in_call, the hooks */

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
    if (!b->setup) return;
    ++b->in_call; /* fb_bench_free from the setup is refused */
    b->setup(b->setup_ctx);
    --b->in_call;
}

void fb__teardown_after_epoch(fb_bench *b) {
    if (!b->teardown) return;
    ++b->in_call;
    b->teardown(b->teardown_ctx);
    --b->in_call;
}

int64_t fb_arg(const fb_bench *b) { return b->cfg.has_arg ? b->cfg.arg : 0; }

void fb__bench_set_arg(fb_bench *b, int64_t arg) { fb__bench_set_args(b, &arg, 1); }

void fb__bench_set_args(fb_bench *b, const int64_t *args, size_t n) {
    if (n > FB_MAX_ARGS) n = FB_MAX_ARGS;
    b->cfg.has_arg = n > 0;
    b->cfg.arg = n ? args[0] : 0;
    b->cfg.n_args = n;
    for (size_t i = 0; i < n; ++i) b->cfg.args[i] = args[i];
}

int fb__bench_set_family(fb_bench *b, const char *family, unsigned id, int model) {
    char *copy = family ? fb__strdup(family) : NULL;
    if (family && !copy) return FB_ENOMEM;
    free(b->cfg.family);
    b->cfg.family = copy;
    b->cfg.family_id = id;
    b->cfg.family_model = model;
    return FB_OK;
}

int64_t fb_arg_at(const fb_bench *b, size_t i) { return i < b->cfg.n_args ? b->cfg.args[i] : 0; }
size_t fb_arg_count(const fb_bench *b) { return b->cfg.n_args; }
size_t fb_result_arg_count(const fb_result *r) { return r->config.n_args; }
int64_t fb_result_arg_at(const fb_result *r, size_t i) {
    return i < r->config.n_args ? r->config.args[i] : 0;
}

/* "/a" or "/a/b/...": the suffix of a family's instance. */
static void fb__args_suffix(const fb__config *c, char *buf, size_t len) {
    size_t o = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < c->n_args && o < len; ++i) {
        int k = snprintf(buf + o, len - o, "/%" PRId64, c->args[i]);
        if (k < 0) break;
        o += (size_t)k;
    }
}

bool fb_result_has_arg(const fb_result *r) { return r->config.has_arg; }
int64_t fb_result_arg(const fb_result *r) { return r->config.has_arg ? r->config.arg : 0; }

char *fb__run_name(const fb_bench *b, const char *name) {
    const char *base = name ? name : b->name ? b->name : "noname";
    /* a family's "/<arg>..." and a group's "/threads:<n>" (Google Benchmark's
     * suffix), each appended unless the name already ends with it */
    char suffix[24 * FB_MAX_ARGS + 32] = "";
    if (b->cfg.has_arg) fb__args_suffix(&b->cfg, suffix, sizeof suffix);
    size_t n = strlen(base), k = strlen(suffix);
    if (n >= k && strcmp(base + n - k, suffix) == 0) k = 0, suffix[0] = '\0';
    if (b->group) {
        char th[32];
        snprintf(th, sizeof th, "/threads:%zu", fb_threads(b));
        size_t t = strlen(th);
        if (!(k == 0 && n >= t && strcmp(base + n - t, th) == 0)) {
            memcpy(suffix + k, th, t + 1);
            k += t;
        }
    }
    char *s = malloc(n + k + 1);
    if (!s) return NULL;
    memcpy(s, base, n);
    memcpy(s + n, suffix, k + 1);
    return s;
}
