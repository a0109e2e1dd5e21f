/* The library's identity: its version, and the messages of its error codes
 * (generated from the one list, FB_ERRNO_MAP in include/femtobench.h). */
#include "base.h"

const char *fb_version(void) { return FB_VERSION_STRING; }

const char *fb_strerror(int err) {
#define FB__ERRNO_CASE(name, code, msg)                                                            \
    case FB_##name:                                                                                \
        return msg;
    switch (err) { FB_ERRNO_MAP(FB__ERRNO_CASE) default : return "unknown error"; }
#undef FB__ERRNO_CASE
}
