/* The machine checks where there is no /sys and /proc to read and no
 * Windows API (macOS today; docs/platforms.md): only the portable checks of
 * src/machine/machine.c run. */
#include "machine.h"

#if !FB_HAVE_SYSFS && !FB_HAVE_WINDOWS

#include <string.h>

void fb__env_check(const char *root, int callsite, fb__env_report *out) {
    (void)root;
    memset(out, 0, sizeof *out);
    fb__env_check_build(callsite, out);
}

#endif
