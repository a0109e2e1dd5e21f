/* -filter where there is no POSIX <regex.h> (Windows): a small matcher of
 * its own, in the process (it cannot recurse or blow up, so it needs no
 * child). It takes the common subset of extended regular expressions:
 * literal characters and \-escapes, '.', bracket expressions ("[a-z_]",
 * "[^0-9]"), the quantifiers '*', '+' and '?' after one of those, '^' and
 * '$' at the ends of an alternative, and '|' between whole alternatives.
 * Groups "( )" and bounds "{m,n}" are refused with a line that says so.
 *
 * Matching simulates the pattern's automaton over the name: a set of
 * positions in the pattern, advanced one character at a time, so a match
 * costs at most (pattern atoms) x (name length) steps whatever the pattern. */
#include "filter.h"

#if !FB_HAVE_POSIX_REGEX

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct fb__fb_atom {
    unsigned char set[32]; /* the characters it takes, one bit each */
    char quant;            /* '1' once, '?' at most once, '*' any number */
} fb__fb_atom;

typedef struct fb__fb_branch {
    fb__fb_atom *atoms;
    size_t n;
    bool head, tail; /* anchored by '^' / '$' */
} fb__fb_branch;

static void fb__fb_set(fb__fb_atom *a, unsigned c) {
    a->set[c >> 3] |= (unsigned char)(1u << (c & 7));
}
static bool fb__fb_has(const fb__fb_atom *a, unsigned char c) {
    return a->set[c >> 3] >> (c & 7) & 1u;
}

/* Compiles pattern[0, len) (one alternative) into br; 0, or -1 with why. */
static int fb__fb_compile(const char *p, size_t len, fb__fb_branch *br, char *why, size_t wlen) {
    memset(br, 0, sizeof *br);
    br->atoms = calloc(2 * len + 1, sizeof *br->atoms); /* '+' becomes two atoms */
    if (!br->atoms) {
        snprintf(why, wlen, "out of memory");
        return -1;
    }
    size_t i = 0;
    if (i < len && p[i] == '^') {
        br->head = true;
        ++i;
    }
    while (i < len) {
        char c = p[i];
        if (c == '$' && i + 1 == len) {
            br->tail = true;
            break;
        }
        if (c == '(' || c == ')' || c == '{' || c == '}') {
            snprintf(why, wlen,
                     "groups and bounds ('%c') need POSIX regular expressions, which this "
                     "platform lacks: use '|' between whole alternatives, '.', '*', '+', '?' "
                     "and '[...]'",
                     c);
            return -1;
        }
        if (c == '*' || c == '+' || c == '?') {
            snprintf(why, wlen, "invalid regular expression: '%c' follows nothing", c);
            return -1;
        }
        fb__fb_atom *a = &br->atoms[br->n++];
        a->quant = '1';
        if (c == '.') {
            memset(a->set, 0xff, sizeof a->set);
            ++i;
        } else if (c == '\\') {
            if (i + 1 == len) {
                snprintf(why, wlen, "invalid regular expression: trailing backslash");
                return -1;
            }
            fb__fb_set(a, (unsigned char)p[i + 1]);
            i += 2;
        } else if (c == '[') {
            size_t j = i + 1;
            bool neg = j < len && p[j] == '^';
            if (neg) ++j;
            size_t first = j;
            while (j < len && (p[j] != ']' || j == first)) {
                if (p[j] == '[' && j + 1 < len &&
                    (p[j + 1] == ':' || p[j + 1] == '.' || p[j + 1] == '=')) {
                    snprintf(why, wlen,
                             "character classes ('[%c') need POSIX regular expressions, which this "
                             "platform lacks: list the characters, e.g. [a-z0-9]",
                             p[j + 1]);
                    return -1;
                }
                unsigned lo = (unsigned char)p[j], hi = lo;
                if (j + 2 < len && p[j + 1] == '-' && p[j + 2] != ']') {
                    hi = (unsigned char)p[j + 2];
                    j += 2;
                }
                for (unsigned k = lo; k <= hi; ++k) fb__fb_set(a, k);
                ++j;
            }
            if (j >= len) {
                snprintf(why, wlen, "invalid regular expression: unmatched [");
                return -1;
            }
            if (neg)
                for (size_t k = 0; k < sizeof a->set; ++k) a->set[k] = (unsigned char)~a->set[k];
            i = j + 1;
        } else {
            fb__fb_set(a, (unsigned char)c);
            ++i;
        }
        if (i < len && (p[i] == '*' || p[i] == '?')) {
            a->quant = p[i++];
        } else if (i < len && p[i] == '+') { /* x+ is x x* */
            br->atoms[br->n] = *a;
            br->atoms[br->n++].quant = '*';
            ++i;
        }
        if (i < len && (p[i] == '*' || p[i] == '+' || p[i] == '?')) {
            snprintf(why, wlen, "invalid regular expression: '%c' follows a quantifier", p[i]);
            return -1;
        }
    }
    return 0;
}

/* Adds state s and every state reachable without a character (past '?'
 * and '*' atoms). */
static void fb__fb_add(const fb__fb_branch *br, unsigned char *on, size_t s) {
    while (s <= br->n && !on[s]) {
        on[s] = 1;
        if (s == br->n || br->atoms[s].quant == '1') break;
        ++s;
    }
}

/* Does br match name: all of it, or (anywhere) some part of it? */
static bool fb__fb_match(const fb__fb_branch *br, const char *name, bool anywhere,
                         unsigned char *cur, unsigned char *next) {
    size_t len = strlen(name), k = br->n;
    bool whole_head = !anywhere || br->head, whole_tail = !anywhere || br->tail;
    memset(cur, 0, k + 1);
    fb__fb_add(br, cur, 0);
    for (size_t i = 0;; ++i) {
        if (cur[k] && (!whole_tail || i == len)) return true;
        if (i == len) return false;
        memset(next, 0, k + 1);
        unsigned char c = (unsigned char)name[i];
        for (size_t s = 0; s < k; ++s) {
            if (!cur[s] || !fb__fb_has(&br->atoms[s], c)) continue;
            if (br->atoms[s].quant == '*') fb__fb_add(br, next, s);
            fb__fb_add(br, next, s + 1);
        }
        if (!whole_head) fb__fb_add(br, next, 0); /* a match may start at the next character */
        memcpy(cur, next, k + 1);
    }
}

int fb__filter_select(const char *pattern, const char *const *names, size_t n, unsigned char *sel,
                      char *why, size_t len) {
    return fb__filter_select_mode(pattern, names, n, sel, false, why, len);
}

int fb__filter_select_mode(const char *pattern, const char *const *names, size_t n,
                           unsigned char *sel, bool anywhere, char *why, size_t len) {
    if (fb__filter_check(pattern, why, len)) return -1;
    size_t plen = strlen(pattern);
    unsigned char *cur = malloc(2 * plen + 2), *next = malloc(2 * plen + 2);
    int rc = cur && next ? 0 : -1;
    if (rc) snprintf(why, len, "out of memory");
    for (size_t i = 0; i < n; ++i) sel[i] = 0;
    for (const char *p = pattern; rc == 0;) {
        /* one alternative: up to an unescaped '|' outside brackets */
        const char *e = p;
        while (*e && *e != '|') {
            if (*e == '\\' && e[1]) {
                e += 2;
            } else if (*e == '[') {
                ++e;
                if (*e == '^') ++e;
                if (*e == ']') ++e;
                while (*e && *e != ']') ++e;
                if (*e) ++e;
            } else {
                ++e;
            }
        }
        fb__fb_branch br;
        rc = fb__fb_compile(p, (size_t)(e - p), &br, why, len);
        for (size_t i = 0; rc == 0 && i < n; ++i)
            if (!sel[i] && fb__fb_match(&br, names[i], anywhere, cur, next)) sel[i] = 1;
        free(br.atoms);
        if (!*e) break;
        p = e + 1;
    }
    free(cur);
    free(next);
    return rc;
}

#endif /* !FB_HAVE_POSIX_REGEX */
