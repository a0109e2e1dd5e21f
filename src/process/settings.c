/* The configuration: the key table, layering, the run's config value and the
 * FEMTOBENCH_CONFIG parser. Defaults and their reasons are in docs/design.md
 * ("Defaults"). */
#include "settings.h"

#include "numfmt.h"

#include "text.h"

#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Ranges (docs/reliability.md, "Counts and times"): no product of two
 * values can overflow (epochs x 8 bytes x 7 measures <= 56 MB; epochs x
 * epoch time is capped by the budget's 3600 s in src/run/run.c), and no value
 * makes a single epoch last more than a second. Counts stop at 10^10
 * iterations, the upscaling limit of src/run/run.c. */
static const fb__key_info fb__keys[FB__K_COUNT] = {
    [FB__K_EPOCHS] = {"epochs", 0, 11, 1, 1e6},
    [FB__K_EPOCH_ITERATIONS] = {"epoch_iterations", 0, 0, 0, 1e10},
    [FB__K_MIN_EPOCH_ITERATIONS] = {"min_epoch_iterations", 0, 1, 1, 1e10},
    [FB__K_MIN_EPOCH_TIME] = {"min_epoch_time", 1, 250e-6, 0, 1},
    [FB__K_MAX_EPOCH_TIME] = {"max_epoch_time", 1, 100e-3, 0, 1},
    [FB__K_MAX_TOTAL_TIME] = {"max_total_time", 1, 20e-3, 0, 3600},
    [FB__K_WARMUP] = {"warmup", 0, 0, 0, 1e10},
    [FB__K_CLOCK_RESOLUTION_MULTIPLE] = {"clock_resolution_multiple", 0, 1000, 1, 1e6},
    /* more epochs of the usual length, never longer ones (src/run/rounds.c) */
    [FB__K_MIN_TIME] = {"min_time", 1, 0, 0, 60},
};

const fb__key_info *fb__key_info_of(fb__key k) {
    return (unsigned)k < FB__K_COUNT ? &fb__keys[k] : NULL;
}

int fb__key_clamp(fb__key k, double *v) {
    const fb__key_info *i = fb__key_info_of(k);
    if (!i || *v != *v) return -1;
    if (*v < i->min) {
        *v = i->min;
        return 1;
    }
    if (*v > i->max) {
        *v = i->max;
        return 1;
    }
    return 0;
}

void fb__layer_set(fb__layer *l, fb__key k, double v) {
    l->v[k] = v;
    l->set |= 1u << k;
}

double fb__layers_get(const fb__layer *layers, fb__key k) {
    for (int layer = FB__LAYERS - 1; layer >= 0; --layer)
        if (layers[layer].set & (1u << k)) return layers[layer].v[k];
    return fb__keys[k].def;
}

bool fb__config_set_by_user(const fb__config *c, fb__key k) { return (c->set >> k) & 1u; }

double fb__config_epoch_target(const fb__config *c, double resolution_s) {
    double target = resolution_s * c->num[FB__K_CLOCK_RESOLUTION_MULTIPLE];
    if (target > c->num[FB__K_MAX_EPOCH_TIME]) target = c->num[FB__K_MAX_EPOCH_TIME];
    if (target < c->num[FB__K_MIN_EPOCH_TIME]) target = c->num[FB__K_MIN_EPOCH_TIME];
    return target;
}

int fb__config_copy(fb__config *dst, const fb__config *src) {
    fb__config c = *src;
    c.title = fb__strdup(src->title);
    c.unit = fb__strdup(src->unit);
    c.family = src->family ? fb__strdup(src->family) : NULL;
    if (!c.title || !c.unit || (src->family && !c.family)) {
        free(c.title);
        free(c.unit);
        free(c.family);
        return FB_ENOMEM;
    }
    *dst = c;
    return FB_OK;
}

void fb__config_free(fb__config *c) {
    free(c->title);
    free(c->unit);
    free(c->family);
    c->title = c->unit = c->family = NULL;
}

void fb__key_format(const fb__key_info *info, double v, char *buf, size_t len) {
    /* '.' whatever the locale (src/platform/numfmt.c) */
    char num[24]; /* %.6g: at most 13 bytes */
    if (!info->is_duration) {
        fb__fmt_fixed(buf, len, v, 0);
        return;
    }
    const char *unit = v == 0 || v >= 1 ? "s" : v >= 1e-3 ? "ms" : v >= 1e-6 ? "us" : "ns";
    double scale = v == 0 || v >= 1 ? 1 : v >= 1e-3 ? 1e3 : v >= 1e-6 ? 1e6 : 1e9;
    fb__fmt_double(num, sizeof num, v * scale, 6);
    snprintf(buf, len, "%s%s", num, unit);
}

/* ------------------------------------------------------ FEMTOBENCH_CONFIG */

/* Lower case without '_' and '-', so nanobench's "minEpochTime" finds
 * "min_epoch_time". */
static void fb__config_fold(const char *s, char *out, size_t len) {
    size_t n = 0;
    for (; *s && n + 1 < len; ++s)
        if (*s != '_' && *s != '-') out[n++] = (char)tolower((unsigned char)*s);
    out[n] = '\0';
}

static const char *fb__config_suggest(const char *key) {
    char fk[64], fn[64];
    const char *best = NULL;
    size_t best_d = (size_t)-1;
    fb__config_fold(key, fk, sizeof fk);
    for (int k = 0; k < FB__K_COUNT; ++k) {
        fb__config_fold(fb__keys[k].name, fn, sizeof fn);
        if (strcmp(fk, fn) == 0) return fb__keys[k].name;
        size_t d = fb__edit_distance(key, fb__keys[k].name);
        if (d < best_d) {
            best_d = d;
            best = fb__keys[k].name;
        }
    }
    /* close enough: at most 3 edits, and fewer than a third of the key */
    return (best && best_d <= 3 && 3 * best_d < strlen(key)) ? best : NULL;
}

bool fb__number_padded(const char *s) { return s && s[0] == '0' && isdigit((unsigned char)s[1]); }

/* Parses one value; returns NULL or the reason it is bad (in why). */
static const char *fb__config_value(const char *v, const fb__key_info *info, double *out, char *why,
                                    size_t len) {
    const char *p = v;
    uint64_t whole = 0, frac = 0, frac_den = 1;
    int digits = 0, has_dot = 0;
    if (!*p) return "missing value";
    if (*p == '-') return "negative value";
    if (fb__number_padded(p)) return "a number with a leading zero (write 5, not 05)";
    for (; isdigit((unsigned char)*p); ++p, ++digits) {
        unsigned d = (unsigned)(*p - '0');
        if (whole > (UINT64_MAX - d) / 10) return "number too large";
        whole = 10 * whole + d;
    }
    if (*p == '.') {
        has_dot = 1;
        for (++p; isdigit((unsigned char)*p); ++p, ++digits)
            if (frac_den <= UINT64_MAX / 100) { /* further digits cannot matter */
                frac = 10 * frac + (uint64_t)(*p - '0');
                frac_den *= 10;
            }
    }
    if (!digits) return "not a number";
    const char *unit = p;
    while (*unit == ' ' || *unit == '\t') ++unit;
    for (const char *q = unit; *q; ++q)
        if (!isalpha((unsigned char)*q)) return "not a number";
    if (!info->is_duration) {
        if (*unit) {
            snprintf(why, len, "'%s' is a count and takes no unit", info->name);
            return why;
        }
        if (has_dot) {
            snprintf(why, len, "'%s' takes a whole number", info->name);
            return why;
        }
        if (whole > ((uint64_t)1 << 53)) return "number too large";
        *out = (double)whole;
        return NULL;
    }
    static const struct {
        const char *name;
        double s;
    } fb__config_units[] = {{"ns", 1e-9}, {"us", 1e-6}, {"ms", 1e-3}, {"s", 1}};
    if (!*unit) return "missing unit (ns, us, ms or s)";
    for (size_t i = 0; i < sizeof fb__config_units / sizeof *fb__config_units; ++i)
        if (strcmp(unit, fb__config_units[i].name) == 0) {
            *out = ((double)whole + (double)frac / (double)frac_den) * fb__config_units[i].s;
            return NULL;
        }
    snprintf(why, len, "unknown unit '%.16s' (ns, us, ms or s)", unit);
    return why;
}

/* Trims [*b, *e) of spaces and tabs. */
static void fb__config_trim(const char **b, const char **e) {
    while (*b < *e && isspace((unsigned char)**b)) ++*b;
    while (*e > *b && isspace((unsigned char)(*e)[-1])) --*e;
}

/* into may be NULL: then the text is only checked (and errors reported). */
/* s[0, n) for a message: control characters (ESC, newlines...) as \xNN, so
 * that an entry stays one harmless line; cut with "..." past cap - 1. */
static void fb__config_show(const char *s, size_t n, char *out, size_t cap) {
    size_t o = 0;
    for (size_t i = 0; i < n; ++i) {
        unsigned char c = (unsigned char)s[i];
        bool ctl = c < 0x20 || c == 0x7f;
        size_t need = ctl ? 4 : 1;
        if (o + need + 4 > cap) { /* room for "..." and the NUL */
            memcpy(out + o, "...", 3);
            o += 3;
            break;
        }
        if (ctl)
            o += (size_t)snprintf(out + o, cap - o, "\\x%02x", c);
        else
            out[o++] = (char)c;
    }
    out[o] = '\0';
}

/* At most this many bad entries are listed; the rest are counted. */
#define FB__CONFIG_LISTED 10

int fb__config_parse(const char *text, fb__layer *into, FILE *err) {
    int bad = 0;
    if (!text) return 0;
    for (const char *p = text; *p;) {
        const char *end = strchr(p, ',');
        if (!end) end = p + strlen(p);
        const char *eb = p, *ee = end;
        p = *end ? end + 1 : end;
        fb__config_trim(&eb, &ee);
        if (eb == ee) continue; /* empty entry */

        char entry[256], why[200], key[128], val[128], shown_key[48];
        const char *reason = NULL;
        fb__config_show(eb, (size_t)(ee - eb), entry, sizeof entry);
        const char *eq = memchr(eb, '=', (size_t)(ee - eb));
        if (!eq) {
            reason = "expected key=value";
        } else {
            const char *kb = eb, *ke = eq, *vb = eq + 1, *ve = ee;
            fb__config_trim(&kb, &ke);
            fb__config_trim(&vb, &ve);
            snprintf(key, sizeof key, "%.*s", (int)(ke - kb), kb);
            snprintf(val, sizeof val, "%.*s", (int)(ve - vb), vb);
            fb__config_show(kb, (size_t)(ke - kb), shown_key, sizeof shown_key);
            int k = 0;
            while (k < FB__K_COUNT && strcmp(fb__keys[k].name, key) != 0) ++k;
            if (!*key) {
                reason = "expected key=value";
            } else if (k == FB__K_COUNT) {
                const char *hint = fb__config_suggest(key);
                if (hint)
                    snprintf(why, sizeof why, "unknown key '%s' (did you mean '%s'?)", shown_key,
                             hint);
                else
                    snprintf(why, sizeof why, "unknown key '%s'", shown_key);
                reason = why;
            } else if ((size_t)(ve - vb) >= sizeof val) {
                reason = "value too long";
            } else {
                double v = 0;
                reason = fb__config_value(val, &fb__keys[k], &v, why, sizeof why);
                if (!reason && fb__key_clamp((fb__key)k, &v) != 0) {
                    /* outside the documented range: refused, never clamped */
                    char lo[32], hi[32];
                    fb__key_format(&fb__keys[k], fb__keys[k].min, lo, sizeof lo);
                    fb__key_format(&fb__keys[k], fb__keys[k].max, hi, sizeof hi);
                    snprintf(why, sizeof why, "out of range ('%s' is %s to %s)", shown_key, lo, hi);
                    reason = why;
                }
                if (!reason && into) fb__layer_set(into, (fb__key)k, v);
            }
        }
        if (reason) {
            ++bad;
            if (err && bad <= FB__CONFIG_LISTED)
                fprintf(err, "femtobench: FEMTOBENCH_CONFIG: bad entry '%s': %s\n", entry, reason);
        }
    }
    if (err && bad > FB__CONFIG_LISTED)
        fprintf(err, "femtobench: FEMTOBENCH_CONFIG: ... and %d more bad entr%s\n",
                bad - FB__CONFIG_LISTED, bad - FB__CONFIG_LISTED == 1 ? "y" : "ies");
    return bad;
}
