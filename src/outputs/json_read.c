/* A bounded, non-recursive JSON reader (RFC 8259) for baselines. The input
 * is untrusted (a file named on the command line, the fuzzer's bytes): every
 * byte is checked against the grammar, nesting is tracked on a fixed stack
 * of FB__JR_MAX_DEPTH, and memory is bounded by the input size: decoded
 * strings never outgrow the text they came from (one buffer of len + 1
 * bytes), and each value takes at least one input byte, with at most
 * FB__JR_MAX_VALUES of them. Errors name the byte offset (0-based) where the
 * text stopped making sense; running off the end is "truncated". */
#include "json_read.h"

#include "numfmt.h"
#include "text.h" /* UTF-8 */

#include <locale.h>
#include <stdlib.h>
#include <string.h>

typedef struct fb__jr_state {
    fb__jr_doc *d;
    const unsigned char *p;
    size_t len, pos;
    char *err;
    size_t errlen;
} fb__jr_state;

const char *fb__jr_type_name(int type) {
    static const char *const names[] = {"null",     "false",    "true",     "a number",
                                        "a string", "an array", "an object"};
    return type >= 0 && type <= FB__JR_OBJ ? names[type] : "?";
}

static int fb__jr_fail(fb__jr_state *st, const char *what) {
    if (st->pos >= st->len)
        snprintf(st->err, st->errlen, "truncated JSON at byte %zu", st->len);
    else if (st->p[st->pos] >= 0x20 && st->p[st->pos] < 0x7f)
        snprintf(st->err, st->errlen, "invalid JSON at byte %zu ('%c'): %s", st->pos,
                 st->p[st->pos], what);
    else
        snprintf(st->err, st->errlen, "invalid JSON at byte %zu (0x%02x): %s", st->pos,
                 st->p[st->pos], what);
    return -1;
}

static void fb__jr_ws(fb__jr_state *st) {
    while (st->pos < st->len) {
        unsigned char c = st->p[st->pos];
        if (c != ' ' && c != '\t' && c != '\n' && c != '\r') break;
        ++st->pos;
    }
}

/* A new value at the current position into *out; -1 with the error set. */
static int fb__jr_new(fb__jr_state *st, int type, uint32_t *out) {
    fb__jr_doc *d = st->d;
    if (d->n >= FB__JR_MAX_VALUES) {
        snprintf(st->err, st->errlen, "more than %u JSON values at byte %zu",
                 (unsigned)FB__JR_MAX_VALUES, st->pos);
        return -1;
    }
    if (d->n == d->cap) {
        size_t cap = d->cap ? d->cap * 2 : 64;
        if (cap > FB__JR_MAX_VALUES) cap = FB__JR_MAX_VALUES;
        fb__jr_val *v = realloc(d->v, cap * sizeof *v);
        if (!v) {
            snprintf(st->err, st->errlen, "out of memory");
            return -1;
        }
        d->v = v;
        d->cap = cap;
    }
    fb__jr_val *v = &d->v[d->n];
    memset(v, 0, sizeof *v);
    v->type = (uint8_t)type;
    v->at = (uint32_t)st->pos;
    *out = (uint32_t)d->n++;
    return 0;
}

static int fb__jr_hex4(fb__jr_state *st, unsigned *out) {
    unsigned v = 0;
    for (int i = 0; i < 4; ++i, ++st->pos) {
        if (st->pos >= st->len) return fb__jr_fail(st, "");
        unsigned char c = st->p[st->pos];
        unsigned h;
        if (c >= '0' && c <= '9')
            h = c - '0';
        else if (c >= 'a' && c <= 'f')
            h = c - 'a' + 10u;
        else if (c >= 'A' && c <= 'F')
            h = c - 'A' + 10u;
        else
            return fb__jr_fail(st, "expected four hex digits after \\u");
        v = v * 16 + h;
    }
    *out = v;
    return 0;
}

static void fb__jr_put_utf8(fb__jr_doc *d, unsigned cp) {
    d->s_len += fb__utf8_encode(cp, d->s + d->s_len);
}

/* A string at st->pos (the opening quote); its decoded text goes to the
 * string buffer, *off its offset. Decoded text is never longer than the
 * escaped text, so the buffer (input length + 1) cannot overflow. */
static int fb__jr_string(fb__jr_state *st, uint32_t *off) {
    fb__jr_doc *d = st->d;
    *off = (uint32_t)d->s_len;
    ++st->pos; /* the quote */
    for (;;) {
        if (st->pos >= st->len) return fb__jr_fail(st, "");
        unsigned char c = st->p[st->pos];
        if (c == '"') {
            ++st->pos;
            d->s[d->s_len++] = '\0';
            return 0;
        }
        if (c < 0x20) return fb__jr_fail(st, "control character in a string (must be escaped)");
        if (c == '\\') {
            if (++st->pos >= st->len) return fb__jr_fail(st, "");
            char e = (char)st->p[st->pos];
            const char *from = "\"\\/bfnrt", *to = "\"\\/\b\f\n\r\t";
            const char *k = e ? strchr(from, e) : NULL;
            if (k) {
                d->s[d->s_len++] = to[k - from];
                ++st->pos;
                continue;
            }
            if (e != 'u') return fb__jr_fail(st, "invalid escape in a string");
            ++st->pos;
            size_t at = st->pos - 2;
            unsigned cp;
            if (fb__jr_hex4(st, &cp)) return -1;
            if (cp >= 0xdc00 && cp <= 0xdfff) {
                st->pos = at;
                return fb__jr_fail(st, "lone low surrogate in a \\u escape");
            }
            if (cp >= 0xd800 && cp <= 0xdbff) {
                unsigned lo = 0;
                if (st->pos >= st->len) return fb__jr_fail(st, "");
                if (st->p[st->pos] == '\\') {
                    if (st->pos + 1 >= st->len) {
                        st->pos = st->len;
                        return fb__jr_fail(st, "");
                    }
                    if (st->p[st->pos + 1] == 'u') {
                        st->pos += 2;
                        if (fb__jr_hex4(st, &lo)) return -1;
                    }
                }
                if (lo < 0xdc00 || lo > 0xdfff) {
                    st->pos = at;
                    return fb__jr_fail(st, "high surrogate without a low one in a \\u escape");
                }
                cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
            }
            if (cp == 0) {
                st->pos = at;
                return fb__jr_fail(st, "\\u0000 in a string is not supported");
            }
            fb__jr_put_utf8(d, cp);
            continue;
        }
        size_t n = fb__utf8_len(st->p + st->pos, st->len - st->pos);
        if (n == 0) {
            /* a sequence cut off by the end of the input is truncation */
            if (st->len - st->pos < 4 && c >= 0xc2 && c <= 0xf4) {
                size_t k = 1;
                while (st->pos + k < st->len && st->p[st->pos + k] >= 0x80 &&
                       st->p[st->pos + k] <= 0xbf)
                    ++k;
                if (st->pos + k == st->len) {
                    st->pos = st->len;
                    return fb__jr_fail(st, "");
                }
            }
            return fb__jr_fail(st, "invalid UTF-8 in a string");
        }
        memcpy(d->s + d->s_len, st->p + st->pos, n);
        d->s_len += n;
        st->pos += n;
    }
}

/* A number per RFC 8259's grammar, converted with strtod under any locale
 * (the '.' is swapped for the locale's decimal point). */
static int fb__jr_number(fb__jr_state *st, double *out) {
    size_t start = st->pos, i = st->pos;
    const unsigned char *p = st->p;
#define FB__JR_DIGIT(k) ((k) < st->len && p[k] >= '0' && p[k] <= '9')
    if (i < st->len && p[i] == '-') ++i;
    if (i >= st->len) {
        st->pos = i;
        return fb__jr_fail(st, "");
    }
    if (p[i] == '0')
        ++i;
    else if (p[i] >= '1' && p[i] <= '9')
        while (FB__JR_DIGIT(i)) ++i;
    else {
        st->pos = i;
        return fb__jr_fail(st, "expected a digit");
    }
    if (i < st->len && p[i] == '.') {
        ++i;
        if (!FB__JR_DIGIT(i)) {
            st->pos = i;
            return fb__jr_fail(st, "expected a digit after '.'");
        }
        while (FB__JR_DIGIT(i)) ++i;
    }
    if (i < st->len && (p[i] == 'e' || p[i] == 'E')) {
        ++i;
        if (i < st->len && (p[i] == '+' || p[i] == '-')) ++i;
        if (!FB__JR_DIGIT(i)) {
            st->pos = i;
            return fb__jr_fail(st, "expected a digit in the exponent");
        }
        while (FB__JR_DIGIT(i)) ++i;
    }
#undef FB__JR_DIGIT
    char buf[64];
    if (i - start >= sizeof buf) return fb__jr_fail(st, "number longer than 63 characters");
    memcpy(buf, p + start, i - start);
    buf[i - start] = '\0';
    /* converted under any locale, a decimal point of several bytes
     * included (src/platform/numfmt.c); the grammar is checked above */
    bool neg = buf[0] == '-';
    double v;
    if (!fb__parse_decimal(buf + neg, &v)) {
        /* a value beyond the doubles; one too small for them is 0 */
        bool tiny = false;
        for (const char *e = strpbrk(buf, "eE"); e && !tiny; e = NULL) tiny = e[1] == '-';
        if (!tiny) return fb__jr_fail(st, "number out of range");
        v = 0;
    }
    if (neg) v = -v;
    *out = v;
    st->pos = i;
    return 0;
}

static int fb__jr_literal(fb__jr_state *st, const char *word) {
    size_t n = strlen(word);
    for (size_t k = 0; k < n; ++k, ++st->pos) {
        if (st->pos >= st->len) return fb__jr_fail(st, "");
        if (st->p[st->pos] != (unsigned char)word[k]) {
            char what[32];
            snprintf(what, sizeof what, "expected '%s'", word);
            return fb__jr_fail(st, what);
        }
    }
    return 0;
}

int fb__jr_parse(fb__jr_doc *d, const char *text, size_t len, char *err, size_t errlen) {
    memset(d, 0, sizeof *d);
    fb__jr_state st = {d, (const unsigned char *)text, len, 0, err, errlen};
    if (len > FB__JR_MAX_BYTES) {
        snprintf(err, errlen, "larger than %u MiB", (unsigned)(FB__JR_MAX_BYTES >> 20));
        return -1;
    }
    d->s_cap = len + 1;
    d->s = malloc(d->s_cap);
    if (!d->s) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    uint32_t stack[FB__JR_MAX_DEPTH], last[FB__JR_MAX_DEPTH];
    int depth = 0;
    uint32_t key = 0; /* pending member key (offset in s) */
    fb__jr_ws(&st);
    for (;;) {
        /* a value */
        if (st.pos >= len) goto fail_here;
        unsigned char c = st.p[st.pos];
        int type;
        switch (c) {
        case '{':
            type = FB__JR_OBJ;
            break;
        case '[':
            type = FB__JR_ARR;
            break;
        case '"':
            type = FB__JR_STR;
            break;
        case 't':
            type = FB__JR_TRUE;
            break;
        case 'f':
            type = FB__JR_FALSE;
            break;
        case 'n':
            type = FB__JR_NULL;
            break;
        default:
            if (c == '-' || (c >= '0' && c <= '9')) {
                type = FB__JR_NUM;
                break;
            }
            fb__jr_fail(&st, "expected a value");
            goto fail;
        }
        uint32_t vi;
        if (fb__jr_new(&st, type, &vi)) goto fail;
        if (depth > 0) {
            uint32_t parent = stack[depth - 1];
            d->v[vi].key = key;
            if (last[depth - 1])
                d->v[last[depth - 1]].next = vi;
            else
                d->v[parent].first = vi;
            last[depth - 1] = vi;
            d->v[parent].count++;
        }
        int rc = 0;
        switch (type) {
        case FB__JR_STR: {
            uint32_t off;
            rc = fb__jr_string(&st, &off);
            d->v[vi].str = off;
            break;
        }
        case FB__JR_NUM:
            rc = fb__jr_number(&st, &d->v[vi].num);
            break;
        case FB__JR_TRUE:
            rc = fb__jr_literal(&st, "true");
            break;
        case FB__JR_FALSE:
            rc = fb__jr_literal(&st, "false");
            break;
        case FB__JR_NULL:
            rc = fb__jr_literal(&st, "null");
            break;
        default: { /* array or object: open it */
            if (depth == FB__JR_MAX_DEPTH) {
                snprintf(err, errlen, "nesting deeper than %d at byte %zu", FB__JR_MAX_DEPTH,
                         st.pos);
                goto fail;
            }
            stack[depth] = vi;
            last[depth] = 0;
            ++depth;
            ++st.pos;
            fb__jr_ws(&st);
            if (st.pos < len && st.p[st.pos] == (type == FB__JR_OBJ ? '}' : ']')) {
                ++st.pos;
                --depth;
                break; /* empty: a complete value */
            }
            if (type == FB__JR_OBJ) goto member;
            continue; /* first element */
        }
        }
        if (rc) goto fail;

        /* after a complete value: close containers or move to the next */
        for (;;) {
            fb__jr_ws(&st);
            if (depth == 0) {
                if (st.pos < len) {
                    fb__jr_fail(&st, "trailing text after the JSON value");
                    goto fail;
                }
                return 0;
            }
            if (st.pos >= len) goto fail_here;
            int is_obj = d->v[stack[depth - 1]].type == FB__JR_OBJ;
            c = st.p[st.pos];
            if (c == (is_obj ? '}' : ']')) {
                ++st.pos;
                --depth;
                continue;
            }
            if (c != ',') {
                fb__jr_fail(&st, is_obj ? "expected ',' or '}'" : "expected ',' or ']'");
                goto fail;
            }
            ++st.pos;
            fb__jr_ws(&st);
            if (is_obj) goto member;
            break; /* the next element */
        }
        continue;

    member:
        /* st.pos at the member's key */
        if (st.pos >= len) goto fail_here;
        if (st.p[st.pos] != '"') {
            fb__jr_fail(&st, "expected a member name in double quotes");
            goto fail;
        }
        if (fb__jr_string(&st, &key)) goto fail;
        fb__jr_ws(&st);
        if (st.pos >= len) goto fail_here;
        if (st.p[st.pos] != ':') {
            fb__jr_fail(&st, "expected ':' after a member name");
            goto fail;
        }
        ++st.pos;
        fb__jr_ws(&st);
    }
fail_here:
    fb__jr_fail(&st, "");
fail:
    fb__jr_free(d);
    return -1;
}

void fb__jr_free(fb__jr_doc *d) {
    free(d->v);
    free(d->s);
    memset(d, 0, sizeof *d);
}

uint32_t fb__jr_get(const fb__jr_doc *d, uint32_t obj, const char *key) {
    if (obj >= d->n || d->v[obj].type != FB__JR_OBJ) return 0;
    /* a repeated key: the last value wins, as in Python's json and jq */
    uint32_t found = 0;
    for (uint32_t i = d->v[obj].first; i; i = d->v[i].next)
        if (strcmp(d->s + d->v[i].key, key) == 0) found = i;
    return found;
}
