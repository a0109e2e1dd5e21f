/* The run's context (fb_set_context, -context=key=value): checked when
 * given, written by every writer (src/handle/context.h). */
#include "context.h"

#include "bench_state.h"
#include "text.h"

#include <stdlib.h>
#include <string.h>

/* Keys of the files' own context objects (Google Benchmark's "context",
 * which -context extends as GB's --benchmark_context does). */
static const char *const fb__context_reserved[] = {"date",
                                                   "host_name",
                                                   "executable",
                                                   "num_cpus",
                                                   "mhz_per_cpu",
                                                   "cpu_scaling_enabled",
                                                   "caches",
                                                   "load_avg",
                                                   "library_name",
                                                   "library_version",
                                                   "library_build_type",
                                                   "json_schema_version",
                                                   "cpu_model",
                                                   "compiler",
                                                   "library_build_flags",
                                                   "library_build",
                                                   "warnings",
                                                   "custom"};

const char *fb__context_bad_in(const fb__context *c, const char *key, const char *value) {
    if (!key || !*key) return "empty key";
    if (strlen(key) > FB__CONTEXT_KEY_MAX) return "key longer than 64 bytes";
    for (const char *p = key; *p; ++p)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
              *p == '_' || *p == '-' || *p == '.'))
            return "key with a character other than a letter, a digit, '_', '-' or '.'";
    for (size_t i = 0; i < sizeof fb__context_reserved / sizeof *fb__context_reserved; ++i)
        if (!strcmp(key, fb__context_reserved[i])) return "key reserved by the output files";
    if (!value) return "no value";
    if (strlen(value) > FB__CONTEXT_VALUE_MAX) return "value longer than 1024 bytes";
    for (const unsigned char *p = (const unsigned char *)value; *p; ++p)
        if (*p < 0x20 || *p == 0x7f) return "value with a control character";
    for (size_t i = 0; c && i < c->n; ++i)
        if (!strcmp(c->key[i], key)) return "duplicated key (given twice)";
    if (c && c->n == FB__CONTEXT_MAX) return "more than 32 context entries";
    return NULL;
}

int fb__context_add(fb__context *c, const char *key, const char *value) {
    if (c->n == FB__CONTEXT_MAX) return FB_EINVAL;
    char *k = fb__strdup(key), *v = fb__strdup(value);
    if (!k || !v) {
        free(k);
        free(v);
        return FB_ENOMEM;
    }
    c->key[c->n] = k;
    c->value[c->n] = v;
    c->n++;
    return FB_OK;
}

int fb_set_context(fb_bench *b, const char *key, const char *value) {
    if (!b) return FB_EINVAL;
    const char *why = fb__context_bad_in(b->context, key, value);
    if (why) {
        if (b->diag) {      /* written here: bench.c calls this file, not the reverse */
            char line[160]; /* one line whatever the key holds: \xNN */
            snprintf(line, sizeof line, "fb_set_context(\"%.64s\"): %s", key ? key : "(null)", why);
            fputs("femtobench: error: ", b->diag);
            fb__put_line(b->diag, line);
            fputc('\n', b->diag);
        }
        return FB_EINVAL;
    }
    if (!b->context && !(b->context = calloc(1, sizeof *b->context))) return FB_ENOMEM;
    return fb__context_add(b->context, key, value);
}

size_t fb__context_count(const fb_bench *b) { return b && b->context ? b->context->n : 0; }
const char *fb__context_key(const fb_bench *b, size_t i) {
    return i < fb__context_count(b) ? b->context->key[i] : NULL;
}
const char *fb__context_value(const fb_bench *b, size_t i) {
    return i < fb__context_count(b) ? b->context->value[i] : NULL;
}

void fb__context_clear(fb__context *c) {
    for (size_t i = 0; c && i < c->n; ++i) {
        free(c->key[i]);
        free(c->value[i]);
    }
    if (c) c->n = 0;
}

void fb__context_free(fb__context *c) {
    fb__context_clear(c);
    free(c);
}
