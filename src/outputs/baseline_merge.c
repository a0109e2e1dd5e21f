/* One side of a comparison given as a comma-separated list of femtobench
 * JSON files, the shards of one run: each file read
 * (src/outputs/baseline_read.c), their records merged in the list's order,
 * a benchmark in two files refused, and what the files disagree on about
 * the machine said. */
#include "baseline.h"

#include "text.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

int fb__baseline_list_next(const char **p, char *out, size_t cap) {
    if (!*p) return 0;
    const char *s = *p, *comma = strchr(s, ',');
    size_t n = comma ? (size_t)(comma - s) : strlen(s);
    *p = comma ? comma + 1 : NULL;
    if (n >= cap) return -1;
    memcpy(out, s, n);
    out[n] = '\0';
    return 1;
}

/* Appends to c->files_differ what file `path` (context b) disagrees on
 * with the first file (context a), each fact said once (*said: a bit per
 * fact). An unknown OS or architecture (an older file) is no claim. */
static void fb__bl_differ(fb__bl_context *c, const fb__bl_context *a, const char *first,
                          const fb__bl_context *b, const char *path, unsigned *said) {
    const char *what[5] = {"CPU model", "compiler", "build type", "OS", "architecture"};
    const char *va[5] = {a->cpu_model, a->compiler, a->build_type, a->os, a->arch};
    const char *vb[5] = {b->cpu_model, b->compiler, b->build_type, b->os, b->arch};
    for (unsigned k = 0; k < 5; ++k) {
        if ((*said >> k) & 1 || strcmp(va[k], vb[k]) == 0) continue;
        if (k >= 3 && (!strcmp(va[k], "unknown") || !strcmp(vb[k], "unknown"))) continue;
        *said |= 1u << k;
        char qa[128], qb[128], fa[128], fb[128];
        fb__bl_quote(qa, sizeof qa, va[k]);
        fb__bl_quote(qb, sizeof qb, vb[k]);
        fb__bl_quote(fa, sizeof fa, first);
        fb__bl_quote(fb, sizeof fb, path);
        size_t used = strlen(c->files_differ);
        /* cut at the field's size when there is more to say */
        if (used < sizeof c->files_differ &&
            snprintf(c->files_differ + used, sizeof c->files_differ - used,
                     "%s%s ('%s' '%s', '%s' '%s')", used ? "; " : "", what[k], fa, qa, fb, qb) < 0)
            c->files_differ[used] = '\0';
    }
}

/* The loader of a list: the records merged, the file of each kept for the
 * message about a benchmark in two files. */
typedef struct fb__bl_merge {
    fb__baseline *out;
    char **paths; /* [n_paths] */
    size_t n_paths;
    size_t *file_of; /* [out->n]: index into paths */
    char *err;
    size_t len;
} fb__bl_merge;

static int fb__bl_merge_fail(fb__bl_merge *m, const char *fmt, ...) FB__PRINTF(2, 3);
static int fb__bl_merge_fail(fb__bl_merge *m, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(m->err, m->len, fmt, ap);
    va_end(ap);
    return -1;
}

/* Adds the records of one file (taken from *one, which is left empty). */
static int fb__bl_merge_one(fb__bl_merge *m, fb__baseline *one, const char *path, unsigned *said) {
    fb__baseline *out = m->out;
    char qp[128], qo[128], qn[128];
    /* a benchmark in two files: refused, never one of them picked */
    for (size_t i = 0; i < one->n; ++i)
        for (size_t k = 0; k < out->n; ++k)
            if (strcmp(one->rec[i].name, out->rec[k].name) == 0) {
                fb__bl_quote(qo, sizeof qo, m->paths[m->file_of[k]]);
                fb__bl_quote(qp, sizeof qp, path);
                fb__bl_quote(qn, sizeof qn, one->rec[i].name);
                return fb__bl_merge_fail(m,
                                         "benchmark '%s' is in both '%s' and '%s' (the files of "
                                         "one side are shards of one run and must not overlap)",
                                         qn, qo, qp);
            }
    char *dup = fb__strdup(path);
    char **paths = dup ? realloc(m->paths, (m->n_paths + 1) * sizeof *paths) : NULL;
    size_t *file_of = paths ? realloc(m->file_of, (out->n + one->n + 1) * sizeof *file_of) : NULL;
    fb__bl_record *rec = file_of ? realloc(out->rec, (out->n + one->n + 1) * sizeof *rec) : NULL;
    if (paths) m->paths = paths;
    if (file_of) m->file_of = file_of;
    if (rec) out->rec = rec;
    if (!rec) {
        free(dup);
        return fb__bl_merge_fail(m, "out of memory");
    }
    m->paths[m->n_paths] = dup;
    if (m->n_paths == 0) {
        out->ctx = one->ctx;
    } else {
        fb__bl_differ(&out->ctx, &out->ctx, m->paths[0], &one->ctx, path, said);
        if (one->ctx.counters) out->ctx.counters = 1;
    }
    for (size_t i = 0; i < one->n; ++i) {
        m->file_of[out->n] = m->n_paths;
        out->rec[out->n++] = one->rec[i];
    }
    ++m->n_paths;
    free(one->rec);
    one->rec = NULL;
    one->n = 0;
    return 0;
}

int fb__baseline_load(const char *list, fb__baseline *out, char *err, size_t len) {
    if (!strchr(list, ',')) return fb__baseline_load_file(list, out, err, len);
    memset(out, 0, sizeof *out);
    fb__bl_merge m = {out, NULL, 0, NULL, err, len};
    const char *p = list;
    char path[4096], why[400], qp[128];
    unsigned said = 0;
    size_t k = 0;
    int rc = 0, got;
    while (!rc && (got = fb__baseline_list_next(&p, path, sizeof path)) != 0) {
        ++k;
        if (got < 0) {
            rc = fb__bl_merge_fail(&m, "file %zu of the list: a path longer than %zu bytes", k,
                                   sizeof path - 1);
        } else if (!path[0]) {
            rc = fb__bl_merge_fail(&m,
                                   "an empty file name in the list (entry %zu; files are "
                                   "separated by single commas)",
                                   k);
        } else {
            fb__baseline one;
            if (fb__baseline_load_file(path, &one, why, sizeof why)) {
                fb__bl_quote(qp, sizeof qp, path);
                rc = fb__bl_merge_fail(&m, "'%s': %s", qp, why);
            } else {
                rc = fb__bl_merge_one(&m, &one, path, &said);
                fb__baseline_free(&one);
            }
        }
    }
    for (size_t i = 0; i < m.n_paths; ++i) free(m.paths[i]);
    free(m.paths);
    free(m.file_of);
    if (rc) fb__baseline_free(out);
    return rc;
}
