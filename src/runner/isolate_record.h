/* Crash isolation's records (src/runner/isolate_record.c, a result's
 * src/runner/isolate_result.c): what a child sends back over the pipe, one
 * result or comparison at a time. */
#ifndef FB_ISOLATE_RECORD_H
#define FB_ISOLATE_RECORD_H

#include "bench.h"
#include "isolate_wire.h"

/* The compact record of one result (exposed for the tests): appends r to
 * *buf (growing it), and reads one back. fb__isolate_decode returns the
 * bytes used (0: incomplete or malformed, *out NULL). */
FB__PRIVATE int fb__isolate_encode(const fb_result *r, unsigned char **buf, size_t *len,
                                   size_t *cap);
FB__PRIVATE size_t fb__isolate_decode(const unsigned char *buf, size_t len, fb_result **out);
/* The same for a comparison (its alternatives' statistics recomputed). */
FB__PRIVATE int fb__isolate_encode_comparison(const fb_comparison *c, unsigned char **buf,
                                              size_t *len, size_t *cap);
FB__PRIVATE size_t fb__isolate_decode_comparison(const unsigned char *buf, size_t len,
                                                 fb_comparison **out);

/* The record at the front of buf[0..len), as a reader of the pipe takes it:
 * kind is 'R' (result: *result, owned by the caller now), 'U' (the result
 * sent last again, amended: *result, likewise), 'C' (comparison:
 * *comparison, likewise), 'O' or 'D' (their one byte: `byte`), 0 when the
 * record is not complete yet (read more), or FB__ISO_BAD when the bytes are
 * not a record of ours or a complete record is malformed (stop reading).
 * `used`: its bytes (0 unless complete). */
#define FB__ISO_BAD 1
typedef struct fb__iso_rec {
    unsigned char kind, byte;
    size_t used;
    fb_result *result;
    fb_comparison *comparison;
} fb__iso_rec;
FB__PRIVATE void fb__iso_next(const unsigned char *buf, size_t len, fb__iso_rec *rec);

#endif
