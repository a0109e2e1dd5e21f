/* The bytes of -isolate's records (src/runner/isolate_record.c has their
 * format): a growing buffer to write them, a bounded reader that marks
 * itself bad rather than read past the end, and a record's frame. Native
 * byte order: both ends are the same program on the same machine. */
#include "isolate_wire.h"

#include <stdlib.h>
#include <string.h>

void fb__iso_put(fb__iso_buf *b, const void *v, size_t n) {
    if (b->oom) return;
    if (b->len + n > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->len + n) cap *= 2;
        unsigned char *p = realloc(b->p, cap);
        if (!p) {
            b->oom = true;
            return;
        }
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->len, v, n);
    b->len += n;
}

void fb__iso_put_u32(fb__iso_buf *b, uint32_t v) { fb__iso_put(b, &v, sizeof v); }
void fb__iso_put_u64(fb__iso_buf *b, uint64_t v) { fb__iso_put(b, &v, sizeof v); }
void fb__iso_put_f64(fb__iso_buf *b, double v) { fb__iso_put(b, &v, sizeof v); }
void fb__iso_put_str(fb__iso_buf *b, const char *s) {
    if (!s) {
        fb__iso_put_u32(b, FB__ISO_NULL);
        return;
    }
    size_t n = strlen(s);
    fb__iso_put_u32(b, (uint32_t)n);
    fb__iso_put(b, s, n);
}

void fb__iso_get(fb__iso_rd *r, void *v, size_t n) {
    if (r->bad || (size_t)(r->end - r->p) < n) {
        r->bad = true;
        memset(v, 0, n);
        return;
    }
    memcpy(v, r->p, n);
    r->p += n;
}

uint32_t fb__iso_get_u32(fb__iso_rd *r) {
    uint32_t v;
    fb__iso_get(r, &v, sizeof v);
    return v;
}
uint64_t fb__iso_get_u64(fb__iso_rd *r) {
    uint64_t v;
    fb__iso_get(r, &v, sizeof v);
    return v;
}
double fb__iso_get_f64(fb__iso_rd *r) {
    double v;
    fb__iso_get(r, &v, sizeof v);
    return v;
}
char *fb__iso_get_str(fb__iso_rd *r, bool *is_null) {
    uint32_t n = fb__iso_get_u32(r);
    *is_null = false;
    if (r->bad) return NULL;
    if (n == FB__ISO_NULL) {
        *is_null = true;
        return NULL;
    }
    if ((size_t)(r->end - r->p) < n || memchr(r->p, 0, n)) { /* short, or a NUL inside */
        r->bad = true;
        return NULL;
    }
    char *s = malloc((size_t)n + 1);
    if (!s) {
        r->bad = true;
        return NULL;
    }
    memcpy(s, r->p, n);
    s[n] = '\0';
    r->p += n;
    return s;
}

bool fb__iso_frame(const unsigned char *buf, size_t len, unsigned char tag, uint32_t *payload,
                   fb__iso_rd *rd) {
    if (len < 5 || buf[0] != tag) return false;
    memcpy(payload, buf + 1, sizeof *payload);
    if (*payload > FB__ISO_MAX_RECORD || len - 5 < *payload) return false;
    *rd = (fb__iso_rd){buf + 5, buf + 5 + *payload, false};
    return true;
}
