/* Shared objects that are not usable femtobench plugins, for
 * femtobench-ab's bad-input tests (tests/test_ab_cli.py):
 *   AB_FAKE_VERSION  exports the plugin entry point of another femtobench
 *                    version ("9.9.0")
 *   AB_FAKE_MISSING  needs a symbol nothing defines (it cannot load)
 *   AB_FAKE_NULLS    this femtobench's version and interface, with NULL
 *                    in place of its functions
 *   neither          a shared object without the entry point */
#include "femtobench.h"
#include "plugin.h"

#include <stddef.h>

#if defined(AB_FAKE_NULLS)
static const fb__plugin_api ab_fake_api = {FB__PLUGIN_ABI, FB_VERSION_STRING, NULL, NULL, NULL};
const fb__plugin_api *fb__plugin_entry(void) { return &ab_fake_api; }
#elif defined(AB_FAKE_VERSION)
static const fb__plugin_api ab_fake_api = {FB__PLUGIN_ABI, "9.9.0", NULL, NULL, NULL};
const fb__plugin_api *fb__plugin_entry(void) { return &ab_fake_api; }
#elif defined(AB_FAKE_MISSING)
int ab_fake_no_such_symbol(void);
int ab_fake_uses_it(void);
int ab_fake_uses_it(void) { return ab_fake_no_such_symbol(); }
#else
int ab_fake_not_a_plugin(void);
int ab_fake_not_a_plugin(void) { return 42; }
#endif
