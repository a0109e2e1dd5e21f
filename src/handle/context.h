/* The run's context for dashboards (fb_set_context, the runner's
 * -context=key=value): key/value pairs that every file records (the
 * commit, the branch, the machine's role). Kept on the bench whose results
 * are written. */
#ifndef FB_CONTEXT_H
#define FB_CONTEXT_H

#include "base.h"

#define FB__CONTEXT_MAX 32
#define FB__CONTEXT_KEY_MAX 64
#define FB__CONTEXT_VALUE_MAX 1024

typedef struct fb__context {
    size_t n;
    char *key[FB__CONTEXT_MAX];
    char *value[FB__CONTEXT_MAX];
} fb__context;

/* Why key=value cannot be added to c (NULL: it can; c may be NULL): an empty
 * or too long key, a key of other characters than letters, digits, '_',
 * '-' and '.', a key the files use themselves, a key given twice, a value
 * too long or with a control character, too many pairs. */
FB__PRIVATE const char *fb__context_bad_in(const fb__context *c, const char *key,
                                           const char *value);
/* Adds a copy of key=value (checked by the caller): FB_OK or FB_ENOMEM. */
FB__PRIVATE int fb__context_add(fb__context *c, const char *key, const char *value);
FB__PRIVATE size_t fb__context_count(const fb_bench *b);
FB__PRIVATE const char *fb__context_key(const fb_bench *b, size_t i);
FB__PRIVATE const char *fb__context_value(const fb_bench *b, size_t i);
FB__PRIVATE void fb__context_clear(fb__context *c); /* its pairs, not c */
FB__PRIVATE void fb__context_free(fb__context *c);  /* its pairs and c */

#endif
