/* The runner's option values read and checked (src/runner/options.c calls
 * them): numbers in their canonical form (`05` refused by every numeric
 * option alike), -shard's k/n, -asymptote's list, -context's pairs, Google
 * Benchmark's booleans and flags, and its flags accepted with a note; and
 * the one error line they all end in. */
#include "options.h"
#include "cli_check.h"
#include "numfmt.h" /* locale-independent numbers */
#include "text.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

int fb__opts_error(const char *fmt, ...) {
    /* one line, whatever the values quoted in it hold: control
     * characters are shown as \xNN (src/runner/cli_check.c) */
    char line[1536];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    fputs("femtobench: error: ", stderr);
    fb__put_line(stderr, line);
    fputc('\n', stderr);
    return 2;
}
/* Strict number: the whole text, finite, >= 0, '.' as the decimal point
 * whatever the locale (src/platform/numfmt.c), in its canonical form (no leading
 * zero before another digit: src/process/settings.c). */
bool fb__opts_nonneg(const char *s, double *out) {
    return !fb__number_padded(s) && fb__parse_decimal(s, out) && *out >= 0;
}

/* The options whose values are numbers (or lists of them: -asymptote's
 * n1,n2, -shard's k/n): each number in the canonical form, so that `05` is
 * refused by every one of them alike, with the same line. */
static const char *const fb__opts_numeric[] = {
    "min_time", "asymptote", "repetitions",        "timeout",
    "shard",    "threshold", "benchmark_min_time", "benchmark_repetitions"};

int fb__opts_check_padded(const char *name, const char *val) {
    bool numeric = false;
    for (size_t i = 0; i < sizeof fb__opts_numeric / sizeof *fb__opts_numeric; ++i)
        numeric = numeric || !strcmp(name, fb__opts_numeric[i]);
    if (!numeric) return 0;
    for (const char *p = val; *p; ++p)
        if ((p == val || p[-1] == ',' || p[-1] == '/') && fb__number_padded(p))
            return fb__opts_error("-%s=%s: a number with a leading zero (write 5, not 05)", name,
                                  val);
    return 0;
}

/* A Google Benchmark boolean flag's value: "" (bare flag) is true. */
int fb__opts_gb_bool(const char *name, const char *val, bool *out) {
    static const char *const t[] = {"", "true", "1", "yes", "on"};
    static const char *const f[] = {"false", "0", "no", "off"};
    for (size_t i = 0; i < sizeof t / sizeof *t; ++i)
        if (!strcmp(val, t[i])) return *out = true, 0;
    for (size_t i = 0; i < sizeof f / sizeof *f; ++i)
        if (!strcmp(val, f[i])) return *out = false, 0;
    return fb__opts_error("-%s=%s: expected true or false", name, val);
}

/* The Google Benchmark flags other than the boolean ones. */
int fb__opts_gb_flag(const char *name, const char *val, fb__opts *o) {
    if (!strcmp(name, "benchmark_filter")) {
        o->filter_negate = val[0] == '-';
        o->filter = val + o->filter_negate;
        o->filter_search = true;
        if (!*o->filter) return fb__opts_error("-%s=%s: empty regular expression", name, val);
    } else if (!strcmp(name, "benchmark_out")) {
        if (!*val) return fb__opts_error("-%s: empty file name", name);
        o->outs.given[FB__OUT_GBENCH] = val;
    } else if (!strcmp(name, "benchmark_out_format")) {
        if (strcmp(val, "json") != 0)
            return fb__opts_error("-%s=%s: femtobench writes Google Benchmark's json format "
                                  "only (its own CSV: -output_csv=<file>)",
                                  name, val);
        o->gb_out_format = val;
    } else if (!strcmp(name, "benchmark_format")) {
        if (!strcmp(val, "json"))
            o->gb_stdout = true;
        else if (!strcmp(val, "console"))
            o->gb_stdout = false;
        else
            return fb__opts_error("-%s=%s: expected console or json (femtobench's CSV: "
                                  "-output_csv=-)",
                                  name, val);
    } else if (!strcmp(name, "benchmark_min_time")) {
        char num[64];
        size_t len = strlen(val);
        char last = len ? val[len - 1] : '\0';
        double v;
        if (len == 0 || len >= sizeof num)
            return fb__opts_error("-%s=%s: expected seconds (0.5 or 0.5s) or iterations (100x)",
                                  name, val);
        snprintf(num, sizeof num, "%.*s", (int)(len - (last == 's' || last == 'x')), val);
        if (last == 'x') {
            if (!fb__opts_nonneg(num, &v) || v < 1 || v != floor(v) || v > 9007199254740992.0)
                return fb__opts_error("-%s=%s: the iterations must be a whole number >= 1", name,
                                      val);
            o->epoch_iterations = v;
            o->min_epoch_time_s = -1;
        } else {
            if (!fb__opts_nonneg(num, &v))
                return fb__opts_error("-%s=%s: not a non-negative number of seconds", name, val);
            o->min_epoch_time_s = v;
            o->epoch_iterations = 0;
        }
    } else if (!strcmp(name, "benchmark_repetitions")) {
        double v;
        if (!fb__opts_nonneg(val, &v) || v < 1 || v != floor(v) || v > 1e6)
            return fb__opts_error("-%s=%s: expected a whole number from 1 to 1000000", name, val);
        o->epochs = v;
    } else if (!strcmp(name, "gbench_rows")) {
        static const char *const rows[] = {"median", "repetitions", "aggregates"};
        o->gb_rows = -1;
        for (int i = 0; i < 3; ++i)
            if (!strcmp(val, rows[i])) o->gb_rows = i; /* FB_GBENCH_* in that order */
        if (o->gb_rows < 0)
            return fb__opts_error("-%s=%s: expected median, repetitions or aggregates", name, val);
    } else {
        return -1; /* not one of these */
    }
    return 0;
}

/* -context=key=value: checked as fb_set_context checks it (src/handle/context.c). */
static int fb__parse_context(const char *opt, const char *val, fb__opts *o) {
    const char *eq = strchr(val, '=');
    if (!eq) return fb__opts_error("-%s=%s: expected key=value", opt, val);
    char key[FB__CONTEXT_KEY_MAX + 2];
    size_t klen = (size_t)(eq - val);
    snprintf(key, sizeof key, "%.*s", (int)(klen < sizeof key - 1 ? klen : sizeof key - 1), val);
    if (klen >= sizeof key - 1) key[sizeof key - 2] = 'x'; /* too long: refused below */
    const char *why = fb__context_bad_in(&o->context, key, eq + 1);
    if (why) return fb__opts_error("-%s=%s: %s", opt, val, why);
    if (fb__context_add(&o->context, key, eq + 1) != FB_OK)
        return fb__opts_error("-%s: out of memory", opt);
    return 0;
}

/* The options added for dashboards and Google Benchmark users: -context,
 * --benchmark_context, --benchmark_dry_run and the GB flags
 * that change nothing. -1: not one of these; else 0 or the exit status. */
int fb__opts_feature_flag(const char *name, const char *val, fb__opts *o) {
    if (!strcmp(name, "context")) return fb__parse_context(name, val, o);
    if (!strcmp(name, "benchmark_context")) { /* GB: k1=v1,k2=v2 */
        char pair[FB__CONTEXT_KEY_MAX + FB__CONTEXT_VALUE_MAX + 4];
        for (const char *p = val;;) {
            const char *comma = strchr(p, ',');
            size_t len = comma ? (size_t)(comma - p) : strlen(p);
            if (len >= sizeof pair)
                return fb__opts_error("-%s: an entry is longer than %zu bytes", name,
                                      sizeof pair - 1);
            memcpy(pair, p, len);
            pair[len] = '\0';
            int rc = fb__parse_context(name, pair, o);
            if (rc) return rc;
            if (!comma) break;
            p = comma + 1;
        }
        return 0;
    }
    if (!strcmp(name, "benchmark_dry_run")) {
        bool on = false;
        int rc = fb__opts_gb_bool(name, val, &on);
        if (rc) return rc;
        o->sanity = o->sanity || on;
        return 0;
    }
    size_t n_specs;
    const fb__opt_spec *specs = fb__opts_specs(&n_specs);
    for (size_t k = 0; k < n_specs; ++k) {
        const fb__opt_spec *s = &specs[k];
        if (strcmp(s->name, name) != 0 || strncmp(s->help, "accepted: ", 10) != 0) continue;
        if (o->n_gb_notes < sizeof o->gb_notes / sizeof o->gb_notes[0])
            o->gb_notes[o->n_gb_notes++] = s->name;
        return 0;
    }
    return -1;
}

/* -shard=k/n: two whole numbers (digits only: no sign, blank or exponent),
 * 1 <= k <= n <= FB__CLI_MAX_SHARDS. */
int fb__opts_shard(const char *val, fb__opts *o) {
    unsigned part[2] = {0, 0};
    const char *p = val;
    for (int i = 0; i < 2; ++i) {
        const char *start = p;
        while (*p >= '0' && *p <= '9' && p - start < 5)
            part[i] = part[i] * 10 + (unsigned)(*p++ - '0');
        if (p == start || (*p >= '0' && *p <= '9') || *p != (i == 0 ? '/' : '\0'))
            return fb__opts_error("-shard=%s: expected k/n, two whole numbers with 1 <= k <= n "
                                  "<= %d (e.g. -shard=2/4)",
                                  val, FB__CLI_MAX_SHARDS);
        ++p;
    }
    if (part[1] < 1 || part[1] > FB__CLI_MAX_SHARDS)
        return fb__opts_error("-shard=%s: the number of shards must be from 1 to %d", val,
                              FB__CLI_MAX_SHARDS);
    if (part[0] < 1 || part[0] > part[1])
        return fb__opts_error("-shard=%s: the shard must be from 1 to %u", val, part[1]);
    o->shard_k = part[0];
    o->shard_n = part[1];
    return 0;
}

int fb__opts_asymptote(const char *text, fb__opts *o) {
    size_t cap = 1;
    for (const char *p = text; *p; ++p) cap += *p == ',';
    if (cap > FB__CLI_MAX_ASYMPTOTE) /* each N is a run */
        return fb__opts_error("-asymptote: %zu entries (at most %d)", cap, FB__CLI_MAX_ASYMPTOTE);
    o->asymptote = calloc(cap, sizeof *o->asymptote);
    if (!o->asymptote) return fb__opts_error("-asymptote: out of memory");
    const char *p = text;
    for (;;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        char item[64];
        if (len == 0)
            return fb__opts_error(
                "-asymptote=%s: empty entry (expected n1,n2,... with every N > 0)", text);
        if (len >= sizeof item)
            return fb__opts_error("-asymptote=%s: entry '%.*s' is too long", text, (int)len, p);
        memcpy(item, p, len);
        item[len] = '\0';
        double v;
        if (!fb__opts_nonneg(item, &v) || v <= 0)
            return fb__opts_error("-asymptote=%s: '%s' is not a number > 0", text, item);
        if (v > FB__MAX_COMPLEXITY_N)
            return fb__opts_error("-asymptote=%s: '%s' is out of range (at most 2^53)", text, item);
        o->asymptote[o->n_asymptote++] = v;
        if (!comma) break;
        p = comma + 1;
    }
    for (size_t i = 1; i < o->n_asymptote; ++i)
        if (o->asymptote[i] != o->asymptote[0]) return 0;
    return fb__opts_error("-asymptote=%s: needs at least two distinct N", text);
}
