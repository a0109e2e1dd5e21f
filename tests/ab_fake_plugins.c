/* Shared objects that are not usable femtobench plugins, for
 * femtobench-ab's bad-input tests (tests/test_ab_cli.py):
 *   AB_FAKE_VERSION  exports the plugin entry point of another femtobench
 *                    version ("9.9.0")
 *   AB_FAKE_MISSING  needs a symbol nothing defines (it cannot load)
 *   AB_FAKE_NULLS    this femtobench's version and interface, with NULL
 *                    in place of its functions
 *   AB_FAKE_NULL_RUN the same with identity and list, and NULL for run
 *   AB_FAKE_ABI_NEXT this femtobench's version with the plugin interface
 *                    after this one
 *   AB_FAKE_ABI1     a working plugin of interface 1 (no run_counted): one
 *                    benchmark, Counted, that reports 42 instructions per
 *                    unit and no spread
 *   neither          a shared object without the entry point */
#include "femtobench.h"
#include "plugin.h"

#include <math.h>
#include <stddef.h>

#if defined(AB_FAKE_NULLS)
static const fb__plugin_api ab_fake_api = {
    FB__PLUGIN_ABI, FB_VERSION_STRING, NULL, NULL, NULL, NULL, NULL, NULL};
const fb__plugin_api *fb__plugin_entry(void) { return &ab_fake_api; }
#elif defined(AB_FAKE_NULL_RUN)
static const char ab_fake_self = 0;
static const void *ab_fake_identity(void) { return &ab_fake_self; }
static int ab_fake_list(void (*each)(void *ctx, const char *name), void *ctx, char *err,
                        size_t len) {
    (void)err;
    (void)len;
    each(ctx, "Listed");
    return FB_OK;
}
static const fb__plugin_api ab_fake_api = {
    FB__PLUGIN_ABI, FB_VERSION_STRING, ab_fake_identity, ab_fake_list, NULL, NULL, NULL, NULL};
const fb__plugin_api *fb__plugin_entry(void) { return &ab_fake_api; }
#elif defined(AB_FAKE_ABI_NEXT)
static const fb__plugin_api ab_fake_api = {
    FB__PLUGIN_ABI + 1, FB_VERSION_STRING, NULL, NULL, NULL, NULL, NULL, NULL};
const fb__plugin_api *fb__plugin_entry(void) { return &ab_fake_api; }
#elif defined(AB_FAKE_ABI1)
/* interface 1's layout: the fields of fb__plugin_api before run_counted */
typedef struct ab_fake_api_v1 {
    unsigned abi;
    const char *version;
    const void *(*identity)(void);
    int (*list)(void (*each)(void *ctx, const char *name), void *ctx, char *err, size_t len);
    int (*run)(const char *name, double n, const fb__epoch_hook *hook, fb__plugin_result_fn result,
               void *ctx);
} ab_fake_api_v1;
static const char ab_fake_self = 0;
static const void *ab_fake_identity(void) { return &ab_fake_self; }
static int ab_fake_list(void (*each)(void *ctx, const char *name), void *ctx, char *err,
                        size_t len) {
    (void)err;
    (void)len;
    each(ctx, "Counted");
    return FB_OK;
}
static int ab_fake_run(const char *name, double n, const fb__epoch_hook *hook,
                       fb__plugin_result_fn result, void *ctx) {
    (void)hook;
    result(ctx, name, n, NULL, NAN, 42.0);
    return FB_OK;
}
static const ab_fake_api_v1 ab_fake_api = {1, FB_VERSION_STRING, ab_fake_identity, ab_fake_list,
                                           ab_fake_run};
const fb__plugin_api *fb__plugin_entry(void) {
    return (const fb__plugin_api *)(const void *)&ab_fake_api;
}
#elif defined(AB_FAKE_VERSION)
static const fb__plugin_api ab_fake_api = {FB__PLUGIN_ABI, "9.9.0", NULL, NULL,
                                           NULL,           NULL,    NULL, NULL};
const fb__plugin_api *fb__plugin_entry(void) { return &ab_fake_api; }
#elif defined(AB_FAKE_MISSING)
int ab_fake_no_such_symbol(void);
int ab_fake_uses_it(void);
int ab_fake_uses_it(void) { return ab_fake_no_such_symbol(); }
#else
int ab_fake_not_a_plugin(void);
int ab_fake_not_a_plugin(void) { return 42; }
#endif
