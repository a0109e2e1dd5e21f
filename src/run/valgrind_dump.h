/* Callgrind's dump files (src/run/valgrind_dump.c): one dump's header
 * parsed, and a counted pair's measures per iteration. */
#ifndef FB_VALGRIND_DUMP_H
#define FB_VALGRIND_DUMP_H

#include "base.h"
#include "counted.h"

#include <stdint.h>
#include <stdio.h>

/* One Callgrind dump file's header, parsed: the trigger text (the
 * CALLGRIND_DUMP_STATS_AT string), the events and their totals. Returns 0,
 * or -1 with the reason in err when the text is not a Callgrind profile
 * with an `events:` line and a `summary:` or `totals:` line. */
typedef struct fb__vg_dump {
    char trigger[256];
    unsigned have;
    uint64_t totals[FB__VG_EVENTS];
} fb__vg_dump;
FB__PRIVATE int fb__vg_parse_dump(FILE *f, fb__vg_dump *out, char *err, size_t err_len);

/* Fills r->per_iter from n1, n2, c1, c2 and have. */
FB__PRIVATE void fb__vg_derive(struct fb__vg_result *r);

#endif
