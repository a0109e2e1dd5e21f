/* A bounded JSON reader for baselines (src/outputs/json_read.c). It reads untrusted
 * files, so every resource is capped: the input size, the nesting depth (an
 * explicit stack, no recursion), the number of values, the length of a
 * number; memory is at most a fixed multiple of the input size. The whole
 * document becomes a flat array of values linked by index. */
#ifndef FB_JSON_READ_H
#define FB_JSON_READ_H

#include "base.h"

#define FB__JR_MAX_BYTES (32u << 20) /* 32 MiB of JSON text */
#define FB__JR_MAX_DEPTH 64          /* nested arrays/objects */
#define FB__JR_MAX_VALUES (1u << 21) /* values in one document */

typedef enum fb__jr_type {
    FB__JR_NULL = 0,
    FB__JR_FALSE,
    FB__JR_TRUE,
    FB__JR_NUM,
    FB__JR_STR,
    FB__JR_ARR,
    FB__JR_OBJ
} fb__jr_type;

/* One value. Indexes are into fb__jr_doc.v; 0 means "none" for links (the
 * root is value 0 and is never a member). Strings are NUL-terminated UTF-8
 * in fb__jr_doc.s (a string containing \u0000 is refused). */
typedef struct fb__jr_val {
    uint8_t type;   /* fb__jr_type */
    uint32_t key;   /* offset of the member's key in s (objects' members only) */
    uint32_t str;   /* offset in s (strings) */
    uint32_t next;  /* next member/element of the parent, 0 = last */
    uint32_t first; /* first member/element (arrays, objects), 0 = empty */
    uint32_t count; /* members/elements (arrays, objects) */
    uint32_t at;    /* byte offset of the value in the input */
    double num;     /* numbers */
} fb__jr_val;

typedef struct fb__jr_doc {
    fb__jr_val *v;
    size_t n, cap;
    char *s; /* decoded strings, each NUL-terminated */
    size_t s_len, s_cap;
} fb__jr_doc;

/* Parses text[0, len) (need not be NUL-terminated) into d. Returns 0, or -1
 * with a one-line reason in err: "truncated JSON at byte N", "invalid JSON
 * at byte N: ...", "nesting deeper than 64 at byte N", "larger than 32 MiB",
 * "out of memory". d is freed on error; otherwise free it with
 * fb__jr_free. */
FB__PRIVATE int fb__jr_parse(fb__jr_doc *d, const char *text, size_t len, char *err, size_t errlen);
FB__PRIVATE void fb__jr_free(fb__jr_doc *d);

/* The member `key` of object obj (the last if repeated, as Python's json
 * module and jq read it), 0 when absent or
 * when obj is not an object. */
FB__PRIVATE uint32_t fb__jr_get(const fb__jr_doc *d, uint32_t obj, const char *key);
static inline const char *fb__jr_str(const fb__jr_doc *d, uint32_t i) { return d->s + d->v[i].str; }
static inline const char *fb__jr_key(const fb__jr_doc *d, uint32_t i) { return d->s + d->v[i].key; }
FB__PRIVATE const char *fb__jr_type_name(int type); /* "null", "a number", ... */

#endif
