/* Baselines read from a femtobench JSON file (docs/formats.md,
 * "femtobench/1"), -baseline's and femtobench-compare's input. The file is
 * untrusted input: it is parsed by the bounded reader (src/outputs/json_read.c) and
 * every value the comparison uses is checked (each result by
 * src/outputs/baseline_record.c), with a message that names the benchmark
 * and the epoch. Keys the comparison does not use are ignored, as
 * docs/formats.md asks of readers. */
#include "baseline.h"

#include "baseline_record.h"
#include "json_read.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static void fb__bl_ctx_str(const fb__jr_doc *d, uint32_t obj, const char *key, char *out,
                           size_t len) {
    uint32_t v = fb__jr_get(d, obj, key);
    snprintf(out, len, "%s", v && d->v[v].type == FB__JR_STR ? fb__jr_str(d, v) : "unknown");
}

static int fb__bl_doc(fb__bl_reader *rd, fb__baseline *out) {
    const fb__jr_doc *d = rd->d;
    if (d->v[0].type != FB__JR_OBJ)
        return fb__bl_record_fail(rd, "not femtobench JSON (the top level is %s, not an object)",
                                  fb__jr_type_name(d->v[0].type));
    uint32_t sv = fb__jr_get(d, 0, "schema");
    if (!sv) {
        if (fb__jr_get(d, 0, "benchmarks"))
            return fb__bl_record_fail(
                rd, "this is Google Benchmark JSON (-output_gbench); a baseline is "
                    "femtobench JSON (-output_json)");
        return fb__bl_record_fail(rd,
                                  "no \"schema\": not femtobench JSON (written by -output_json)");
    }
    if (d->v[sv].type != FB__JR_STR)
        return fb__bl_record_fail(rd, "\"schema\" is %s, not a string",
                                  fb__jr_type_name(d->v[sv].type));
    char schema[128];
    fb__bl_quote(schema, sizeof schema, fb__jr_str(d, sv));
    if (strcmp(fb__jr_str(d, sv), "femtobench/1") != 0) {
        if (strncmp(schema, "femtobench/", 11) == 0)
            return fb__bl_record_fail(rd,
                                      "schema '%s' is version %s; this femtobench reads version 1 "
                                      "(femtobench/1)",
                                      schema, schema + 11);
        return fb__bl_record_fail(rd, "schema '%s' is not femtobench JSON version 1 (femtobench/1)",
                                  schema);
    }
    fb__bl_context *c = &out->ctx;
    fb__bl_ctx_str(d, 0, "version", c->version, sizeof c->version);
    uint32_t cv = fb__jr_get(d, 0, "context");
    if (cv && d->v[cv].type != FB__JR_OBJ)
        return fb__bl_record_fail(rd, "\"context\" is %s, not an object",
                                  fb__jr_type_name(d->v[cv].type));
    fb__bl_ctx_str(d, cv, "cpu_model", c->cpu_model, sizeof c->cpu_model);
    fb__bl_ctx_str(d, cv, "compiler", c->compiler, sizeof c->compiler);
    /* absent in files written before they were recorded: "unknown", and
     * no claim about the machine is made from them */
    fb__bl_ctx_str(d, cv, "os", c->os, sizeof c->os);
    fb__bl_ctx_str(d, cv, "arch", c->arch, sizeof c->arch);
    fb__bl_ctx_str(d, cv, "library_build_flags", c->build_flags, sizeof c->build_flags);
    int library = fb__bl_record_build_bits(d, fb__jr_get(d, cv, "library_build"));

    uint32_t rv = fb__jr_get(d, 0, "results");
    if (!rv) return fb__bl_record_fail(rd, "no \"results\"");
    if (d->v[rv].type != FB__JR_ARR)
        return fb__bl_record_fail(rd, "\"results\" is %s, not an array",
                                  fb__jr_type_name(d->v[rv].type));
    size_t n = d->v[rv].count;
    out->rec = calloc(n ? n : 1, sizeof *out->rec);
    if (!out->rec) return fb__bl_record_fail(rd, "out of memory");
    int code = -1;
    size_t i = 0;
    for (uint32_t k = d->v[rv].first; k; k = d->v[k].next, ++i) {
        ++out->n; /* counted first, so fb__baseline_free sees a half-built record */
        if (fb__bl_record_read(rd, k, i, &out->rec[i], &c->counters, &code)) return -1;
    }
    /* FB_COMPARE's alternatives are results of their own, under
     * "comparisons": compared as rows named by the comparison's title and
     * the alternative's name, as the runner's side has them */
    uint32_t cmv = fb__jr_get(d, 0, "comparisons");
    for (uint32_t ck = cmv && d->v[cmv].type == FB__JR_ARR ? d->v[cmv].first : 0; ck;
         ck = d->v[ck].next) {
        uint32_t crv = d->v[ck].type == FB__JR_OBJ ? fb__jr_get(d, ck, "results") : 0;
        if (!crv || d->v[crv].type != FB__JR_ARR) continue;
        size_t m = d->v[crv].count;
        fb__bl_record *p = realloc(out->rec, (out->n + m + 1) * sizeof *p);
        if (!p) return fb__bl_record_fail(rd, "out of memory");
        out->rec = p;
        memset(p + out->n, 0, (m + 1) * sizeof *p);
        for (uint32_t k = d->v[crv].first; k; k = d->v[k].next, ++i) {
            ++out->n;
            if (fb__bl_record_read(rd, k, i, &out->rec[out->n - 1], &c->counters, &code)) return -1;
        }
    }
    fb__bl_build_type(c, library, code);
    return 0;
}

int fb__baseline_parse(const char *text, size_t n, fb__baseline *out, char *err, size_t len) {
    memset(out, 0, sizeof *out);
    if (n == 0) {
        snprintf(err, len, "empty file, not femtobench JSON");
        return -1;
    }
    if (n >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0) {
        snprintf(err, len,
                 "starts with a UTF-8 byte order mark (BOM, bytes EF BB BF), which JSON does not "
                 "allow (RFC 8259); save the file without it");
        return -1;
    }
    fb__jr_doc d;
    char why[200];
    if (fb__jr_parse(&d, text, n, why, sizeof why)) {
        /* "truncated JSON at byte N" says it all; anything else is "not JSON" */
        if (strncmp(why, "truncated", 9) == 0)
            snprintf(err, len, "%s", why);
        else
            snprintf(err, len, "not valid JSON: %s", why);
        return -1;
    }
    fb__bl_reader rd = {&d, err, len};
    int rc = fb__bl_doc(&rd, out);
    fb__jr_free(&d);
    if (rc) fb__baseline_free(out);
    return rc;
}

int fb__baseline_load_file(const char *path, fb__baseline *out, char *err, size_t len) {
    memset(out, 0, sizeof *out);
    /* A named pipe, a terminal or another device would block the open or
     * the reads until something writes: only a regular file, or a
     * descriptor the caller opened (/dev/fd/N, /dev/stdin, a shell's
     * <(...)), is read. The test is on the path, before any open. */
    struct stat st;
    bool descriptor = strncmp(path, "/dev/fd/", 8) == 0 ||
                      strncmp(path, "/proc/self/fd/", 14) == 0 || strcmp(path, "/dev/stdin") == 0;
    if (!descriptor && stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
        const char *kind = "not a file";
        if (S_ISFIFO(st.st_mode))
            kind = "a named pipe";
        else if (S_ISCHR(st.st_mode))
            kind = "a character device";
#ifdef S_ISBLK /* not on Windows */
        else if (S_ISBLK(st.st_mode))
            kind = "a block device";
#endif
#ifdef S_ISSOCK
        else if (S_ISSOCK(st.st_mode))
            kind = "a socket";
#endif
        snprintf(err, len, "not a regular file (%s): reading it could wait forever; give a file",
                 kind);
        return -1;
    }
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, len, "cannot open: %s", strerror(errno));
        return -1;
    }
    /* read at most the reader's limit + 1 bytes: a larger file is refused
     * without being read whole */
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    int rc = -1;
    if (!buf) {
        snprintf(err, len, "out of memory");
        goto done;
    }
    for (;;) {
        if (n == cap) {
            if (cap > FB__JR_MAX_BYTES) {
                snprintf(err, len, "larger than %u MiB, too large for a baseline",
                         (unsigned)(FB__JR_MAX_BYTES >> 20));
                goto done;
            }
            size_t ncap = cap * 2;
            if (ncap > (size_t)FB__JR_MAX_BYTES + 1) ncap = (size_t)FB__JR_MAX_BYTES + 1;
            char *nb = realloc(buf, ncap);
            if (!nb) {
                snprintf(err, len, "out of memory");
                goto done;
            }
            buf = nb;
            cap = ncap;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0) break;
    }
    if (ferror(f)) {
        snprintf(err, len, "cannot read: %s", strerror(errno));
        goto done;
    }
    rc = fb__baseline_parse(buf, n, out, err, len);
done:
    free(buf);
    fclose(f);
    return rc;
}
