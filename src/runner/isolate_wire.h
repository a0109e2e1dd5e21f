/* The bytes of -isolate's records (src/runner/isolate_wire.c): written into a
 * growing buffer, read back through a bounded reader, in native byte order. */
#ifndef FB_ISOLATE_WIRE_H
#define FB_ISOLATE_WIRE_H

#include "base.h"

#define FB__ISO_NULL 0xffffffffu
/* A record larger than this is malformed (epochs are at most 10^6). */
#define FB__ISO_MAX_RECORD (64u << 20)

/* A growing byte buffer; oom once a growth failed (then nothing more is
 * appended). */
typedef struct fb__iso_buf {
    unsigned char *p;
    size_t len, cap;
    bool oom;
} fb__iso_buf;
FB__PRIVATE void fb__iso_put(fb__iso_buf *b, const void *v, size_t n);
FB__PRIVATE void fb__iso_put_u32(fb__iso_buf *b, uint32_t v);
FB__PRIVATE void fb__iso_put_u64(fb__iso_buf *b, uint64_t v);
FB__PRIVATE void fb__iso_put_f64(fb__iso_buf *b, double v);
/* A u32 length and the bytes, or FB__ISO_NULL for NULL. */
FB__PRIVATE void fb__iso_put_str(fb__iso_buf *b, const char *s);

/* A reader over p[0..end): bad once a read went past the end or a value was
 * malformed (then every read gives zeros). */
typedef struct fb__iso_rd {
    const unsigned char *p, *end;
    bool bad;
} fb__iso_rd;
FB__PRIVATE void fb__iso_get(fb__iso_rd *r, void *v, size_t n);
FB__PRIVATE uint32_t fb__iso_get_u32(fb__iso_rd *r);
FB__PRIVATE uint64_t fb__iso_get_u64(fb__iso_rd *r);
FB__PRIVATE double fb__iso_get_f64(fb__iso_rd *r);
/* A new string; *is_null for the NULL marker. NULL on error. */
FB__PRIVATE char *fb__iso_get_str(fb__iso_rd *r, bool *is_null);

/* The frame of a record: tag, 4-byte payload size, payload. Whether buf
 * holds a whole one of this tag within the size bound; then its payload
 * size and a reader over the payload. */
FB__PRIVATE bool fb__iso_frame(const unsigned char *buf, size_t len, unsigned char tag,
                               uint32_t *payload, fb__iso_rd *rd);

#endif
