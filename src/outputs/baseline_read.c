/* Baselines read from a femtobench JSON file (docs/formats.md,
 * "femtobench/1"), -baseline's and femtobench-compare's input. The file is
 * untrusted input: it is parsed by the bounded reader (src/outputs/json_read.c) and
 * every value the comparison uses is checked, with a message that names
 * the benchmark and the epoch. Keys the comparison does not use are
 * ignored, as docs/formats.md asks of readers. */
#include "baseline.h"

#include "json_read.h"
#include "text.h"

#include <stdarg.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ------------------------------------------------------- from a file */

typedef struct fb__bl_reader {
    const fb__jr_doc *d;
    char *err;
    size_t len;
} fb__bl_reader;

static int fb__bl_fail(fb__bl_reader *rd, const char *fmt, ...) FB__PRINTF(2, 3);
static int fb__bl_fail(fb__bl_reader *rd, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(rd->err, rd->len, fmt, ap);
    va_end(ap);
    return -1;
}

static void fb__bl_ctx_str(const fb__jr_doc *d, uint32_t obj, const char *key, char *out,
                           size_t len) {
    uint32_t v = fb__jr_get(d, obj, key);
    snprintf(out, len, "%s", v && d->v[v].type == FB__JR_STR ? fb__jr_str(d, v) : "unknown");
}

static int fb__bl_build_bits(const fb__jr_doc *d, uint32_t obj) {
    if (!obj || d->v[obj].type != FB__JR_OBJ) return 0;
    int bits = 0;
    const char *keys[3] = {"known", "optimized", "ndebug"};
    for (int k = 0; k < 3; ++k) {
        uint32_t v = fb__jr_get(d, obj, keys[k]);
        if (v && d->v[v].type == FB__JR_TRUE) bits |= 1 << k;
    }
    return bits;
}

/* Text from the file for a message: at most 100 bytes, control characters
 * as \xNN, so that an error stays one line whatever the file holds. */
static void fb__bl_quote(char *out, size_t len, const char *s) {
    size_t o = 0;
    for (size_t i = 0; s[i] && i < 100 && o + 5 < len; ++i) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x20 || c == 0x7f)
            o += (size_t)snprintf(out + o, len - o, "\\x%02x", c);
        else
            out[o++] = (char)c;
    }
    out[o < len ? o : len - 1] = '\0';
}

/* A member that must be a string (or null when null_ok): *out the text, or
 * NULL for null. */
static int fb__bl_text(fb__bl_reader *rd, uint32_t obj, const char *key, bool null_ok,
                       const char *what, const char **out) {
    uint32_t v = fb__jr_get(rd->d, obj, key);
    if (!v) return fb__bl_fail(rd, "%s: no \"%s\"", what, key);
    int t = rd->d->v[v].type;
    if (t == FB__JR_NULL && null_ok) {
        *out = NULL;
        return 0;
    }
    if (t != FB__JR_STR)
        return fb__bl_fail(rd, "%s: \"%s\" is %s, not a string", what, key, fb__jr_type_name(t));
    *out = fb__jr_str(rd->d, v);
    return 0;
}

static int fb__bl_result(fb__bl_reader *rd, uint32_t ri, size_t index, fb__bl_record *rec,
                         int *counters, int *code) {
    const fb__jr_doc *d = rd->d;
    char what[160];
    snprintf(what, sizeof what, "results[%zu]", index);
    if (d->v[ri].type != FB__JR_OBJ)
        return fb__bl_fail(rd, "%s is %s, not an object", what, fb__jr_type_name(d->v[ri].type));
    const char *name, *title, *unit, *error;
    if (fb__bl_text(rd, ri, "name", false, what, &name)) return -1;
    /* from here on, messages name the benchmark */
    char quoted[128];
    fb__bl_quote(quoted, sizeof quoted, name);
    snprintf(what, sizeof what, "benchmark '%s'", quoted);
    if (fb__bl_text(rd, ri, "title", true, what, &title) ||
        fb__bl_text(rd, ri, "unit", true, what, &unit))
        return -1;
    uint32_t ev = fb__jr_get(d, ri, "error");
    error = ev && d->v[ev].type == FB__JR_STR ? fb__jr_str(d, ev) : NULL;
    if (ev && !error && d->v[ev].type != FB__JR_NULL)
        return fb__bl_fail(rd, "%s: \"error\" is %s, not a string or null", what,
                           fb__jr_type_name(d->v[ev].type));

    uint32_t bv = fb__jr_get(d, ri, "batch");
    if (!bv) return fb__bl_fail(rd, "%s: no \"batch\"", what);
    if (d->v[bv].type != FB__JR_NUM || !(d->v[bv].num > 0))
        return fb__bl_fail(rd, "%s: \"batch\" must be a number > 0", what);
    rec->batch = d->v[bv].num;
    uint32_t nv = fb__jr_get(d, ri, "complexityN");
    if (nv && d->v[nv].type != FB__JR_NULL) {
        if (d->v[nv].type != FB__JR_NUM || !(d->v[nv].num > 0))
            return fb__bl_fail(rd, "%s: \"complexityN\" must be null or a number > 0", what);
        rec->complexity_n = d->v[nv].num;
    }
    uint32_t pv = fb__jr_get(d, ri, "pass");
    if (pv && d->v[pv].type != FB__JR_NULL) {
        double pn = d->v[pv].type == FB__JR_NUM ? d->v[pv].num : -1;
        if (!(pn >= 0 && pn <= 4294967295.0 && pn == floor(pn)))
            return fb__bl_fail(rd, "%s: \"pass\" must be a whole number >= 0", what);
        rec->pass = (unsigned)pn;
    }
    rec->median_s = rec->cpu_median_s = NAN;
    rec->name = fb__strdup(name);
    rec->title = fb__strdup(title ? title : "");
    rec->unit = fb__strdup(unit ? unit : "op");
    if (error) rec->error = fb__strdup(error);
    if (!rec->name || !rec->title || !rec->unit || (error && !rec->error))
        return fb__bl_fail(rd, "out of memory");
    if (*code < 0 && !error) {
        uint32_t cb = fb__jr_get(d, ri, "callsite_build");
        if (cb) *code = fb__bl_build_bits(d, cb);
    }
    uint32_t stats = fb__jr_get(d, ri, "stats");
    if (stats && d->v[stats].type == FB__JR_OBJ)
        for (uint32_t k = d->v[stats].first; k; k = d->v[k].next)
            if (strcmp(fb__jr_key(d, k), "elapsed") != 0 &&
                strcmp(fb__jr_key(d, k), "cputime") != 0)
                *counters = 1; /* the CPU time is no counter: every run reads it */

    /* "user_counters" (optional: files written before them have none);
     * each with a label and a number shown, else left out */
    uint32_t uv = fb__jr_get(d, ri, "user_counters");
    if (uv && d->v[uv].type == FB__JR_ARR && d->v[uv].count && !error) {
        size_t cap = d->v[uv].count < FB__UCOUNTER_MAX ? d->v[uv].count : FB__UCOUNTER_MAX;
        if (!(rec->uc = calloc(cap, sizeof *rec->uc))) return fb__bl_fail(rd, "out of memory");
        for (uint32_t k = d->v[uv].first; k && rec->n_uc < cap; k = d->v[k].next) {
            if (d->v[k].type != FB__JR_OBJ) continue;
            uint32_t lv = fb__jr_get(d, k, "label"), sv = fb__jr_get(d, k, "shown");
            if (!lv || d->v[lv].type != FB__JR_STR || !sv || d->v[sv].type != FB__JR_NUM) continue;
            snprintf(rec->uc[rec->n_uc].label, sizeof rec->uc[rec->n_uc].label, "%s",
                     fb__jr_str(d, lv));
            rec->uc[rec->n_uc++].shown = d->v[sv].num;
        }
    }
    uint32_t vg = fb__jr_get(d, ri, "valgrind");
    if (vg && d->v[vg].type == FB__JR_OBJ && !error) {
        /* counted under Callgrind: the exact count, compared exactly */
        uint32_t pi = fb__jr_get(d, vg, "per_iteration");
        uint32_t ins = pi && d->v[pi].type == FB__JR_OBJ ? fb__jr_get(d, pi, "instructions") : 0;
        if (!ins || d->v[ins].type != FB__JR_NUM || !(d->v[ins].num >= 0) ||
            !isfinite(d->v[ins].num / rec->batch))
            return fb__bl_fail(rd, "%s: counted under Callgrind without a number of instructions",
                               what);
        rec->counted = true;
        rec->ins_per_unit = rec->ins_lo_per_unit = rec->ins_hi_per_unit =
            d->v[ins].num / rec->batch;
        /* "instructions_spread" (files written before it have none: exact) */
        uint32_t sp = fb__jr_get(d, vg, "instructions_spread");
        if (sp && d->v[sp].type == FB__JR_ARR && d->v[sp].count == 2) {
            uint32_t lo = d->v[sp].first, hi = lo ? d->v[lo].next : 0;
            if (!lo || !hi || d->v[lo].type != FB__JR_NUM || d->v[hi].type != FB__JR_NUM ||
                !(d->v[lo].num <= d->v[ins].num && d->v[ins].num <= d->v[hi].num) ||
                !isfinite(d->v[hi].num / rec->batch) || !isfinite(d->v[lo].num / rec->batch))
                return fb__bl_fail(rd,
                                   "%s: an \"instructions_spread\" that is not [low, high] "
                                   "around the instructions",
                                   what);
            rec->ins_lo_per_unit = d->v[lo].num / rec->batch;
            rec->ins_hi_per_unit = d->v[hi].num / rec->batch;
        }
        return 0;
    }
    uint32_t mv = fb__jr_get(d, ri, "measurements");
    if (!mv) return fb__bl_fail(rd, "%s: no \"measurements\"", what);
    if (d->v[mv].type != FB__JR_ARR)
        return fb__bl_fail(rd, "%s: \"measurements\" is %s, not an array", what,
                           fb__jr_type_name(d->v[mv].type));
    size_t n = d->v[mv].count;
    if (n == 0 && !error) return fb__bl_fail(rd, "%s: no epochs in \"measurements\"", what);
    if (error) return 0; /* a failed benchmark: its epochs, if any, are not used */
    rec->per_unit_s = malloc(n * sizeof *rec->per_unit_s);
    if (!rec->per_unit_s) return fb__bl_fail(rd, "out of memory");
    size_t e = 0;
    for (uint32_t k = d->v[mv].first; k; k = d->v[k].next, ++e) {
        if (d->v[k].type != FB__JR_OBJ)
            return fb__bl_fail(rd, "%s epoch %zu: %s, not an object", what, e + 1,
                               fb__jr_type_name(d->v[k].type));
        uint32_t it = fb__jr_get(d, k, "iterations");
        if (!it || d->v[it].type != FB__JR_NUM || !(d->v[it].num >= 1) ||
            d->v[it].num != floor(d->v[it].num))
            return fb__bl_fail(rd, "%s epoch %zu: \"iterations\" must be a whole number >= 1", what,
                               e + 1);
        uint32_t el = fb__jr_get(d, k, "elapsed");
        if (!el) return fb__bl_fail(rd, "%s epoch %zu: no \"elapsed\" time", what, e + 1);
        int t = d->v[el].type;
        if (t == FB__JR_NULL)
            return fb__bl_fail(rd, "%s epoch %zu: time is null (not a number)", what, e + 1);
        if (t != FB__JR_NUM)
            return fb__bl_fail(rd, "%s epoch %zu: time is %s, not a number", what, e + 1,
                               fb__jr_type_name(t));
        double s = d->v[el].num;
        if (s < 0) return fb__bl_fail(rd, "%s epoch %zu: negative time", what, e + 1);
        rec->per_unit_s[e] = s / rec->batch;
        if (!isfinite(rec->per_unit_s[e]))
            return fb__bl_fail(rd, "%s epoch %zu: time per unit out of range", what, e + 1);
    }
    /* the thread's CPU time per unit of each epoch ("cputime", optional:
     * files written before it, or a run without it, have none; null when
     * an epoch could not read it); its median over the epochs used is
     * taken when every epoch has it */
    double *cpu = malloc(n * sizeof *cpu);
    if (!cpu) return fb__bl_fail(rd, "out of memory");
    bool has_cpu = true;
    e = 0;
    for (uint32_t k = d->v[mv].first; k; k = d->v[k].next, ++e) {
        uint32_t cv = fb__jr_get(d, k, "cputime");
        int t = cv ? d->v[cv].type : FB__JR_NULL;
        if (t != FB__JR_NULL &&
            (t != FB__JR_NUM || !(d->v[cv].num >= 0) || !isfinite(d->v[cv].num / rec->batch))) {
            free(cpu);
            return fb__bl_fail(rd, "%s epoch %zu: \"cputime\" must be null or a number >= 0", what,
                               e + 1);
        }
        has_cpu = has_cpu && t == FB__JR_NUM;
        cpu[e] = t == FB__JR_NUM ? d->v[cv].num / rec->batch : NAN;
    }
    /* "dropped": the epochs the statistics left out (disturbed or
     * superseded); the comparison uses the others, as the table did */
    uint32_t dv = fb__jr_get(d, ri, "dropped");
    if (dv && d->v[dv].type == FB__JR_ARR && d->v[dv].count > 0) {
        unsigned char *drop = calloc(e ? e : 1, 1);
        if (!drop) {
            free(cpu);
            return fb__bl_fail(rd, "out of memory");
        }
        for (uint32_t k = d->v[dv].first; k; k = d->v[k].next) {
            double x = d->v[k].type == FB__JR_NUM ? d->v[k].num : -1;
            if (!(x >= 0 && x < (double)e && x == floor(x))) {
                free(drop);
                free(cpu);
                return fb__bl_fail(rd, "%s: \"dropped\" holds %s, not an epoch's index", what,
                                   d->v[k].type == FB__JR_NUM ? "a number out of range"
                                                              : fb__jr_type_name(d->v[k].type));
            }
            drop[(size_t)x] = 1;
        }
        size_t kept = 0;
        for (size_t k = 0; k < e; ++k)
            if (!drop[k]) {
                cpu[kept] = cpu[k];
                rec->per_unit_s[kept++] = rec->per_unit_s[k];
            }
        free(drop);
        if (kept == 0) {
            free(cpu);
            return fb__bl_fail(rd, "%s: every epoch is in \"dropped\"", what);
        }
        e = kept;
    } else if (dv && d->v[dv].type != FB__JR_ARR && d->v[dv].type != FB__JR_NULL) {
        free(cpu);
        return fb__bl_fail(rd, "%s: \"dropped\" is %s, not an array", what,
                           fb__jr_type_name(d->v[dv].type));
    }
    rec->epochs = e;
    rec->err_pct = fb__bl_err_pct(rec->per_unit_s, e);
    rec->median_s = fb__bl_median(rec->per_unit_s, e);
    rec->cpu_median_s = has_cpu ? fb__bl_median(cpu, e) : NAN;
    free(cpu);
    return 0;
}

static int fb__bl_doc(fb__bl_reader *rd, fb__baseline *out) {
    const fb__jr_doc *d = rd->d;
    if (d->v[0].type != FB__JR_OBJ)
        return fb__bl_fail(rd, "not femtobench JSON (the top level is %s, not an object)",
                           fb__jr_type_name(d->v[0].type));
    uint32_t sv = fb__jr_get(d, 0, "schema");
    if (!sv) {
        if (fb__jr_get(d, 0, "benchmarks"))
            return fb__bl_fail(rd, "this is Google Benchmark JSON (-output_gbench); a baseline is "
                                   "femtobench JSON (-output_json)");
        return fb__bl_fail(rd, "no \"schema\": not femtobench JSON (written by -output_json)");
    }
    if (d->v[sv].type != FB__JR_STR)
        return fb__bl_fail(rd, "\"schema\" is %s, not a string", fb__jr_type_name(d->v[sv].type));
    char schema[128];
    fb__bl_quote(schema, sizeof schema, fb__jr_str(d, sv));
    if (strcmp(fb__jr_str(d, sv), "femtobench/1") != 0) {
        if (strncmp(schema, "femtobench/", 11) == 0)
            return fb__bl_fail(rd,
                               "schema '%s' is version %s; this femtobench reads version 1 "
                               "(femtobench/1)",
                               schema, schema + 11);
        return fb__bl_fail(rd, "schema '%s' is not femtobench JSON version 1 (femtobench/1)",
                           schema);
    }
    fb__bl_context *c = &out->ctx;
    fb__bl_ctx_str(d, 0, "version", c->version, sizeof c->version);
    uint32_t cv = fb__jr_get(d, 0, "context");
    if (cv && d->v[cv].type != FB__JR_OBJ)
        return fb__bl_fail(rd, "\"context\" is %s, not an object", fb__jr_type_name(d->v[cv].type));
    fb__bl_ctx_str(d, cv, "cpu_model", c->cpu_model, sizeof c->cpu_model);
    fb__bl_ctx_str(d, cv, "compiler", c->compiler, sizeof c->compiler);
    /* absent in files written before they were recorded: "unknown", and
     * no claim about the machine is made from them */
    fb__bl_ctx_str(d, cv, "os", c->os, sizeof c->os);
    fb__bl_ctx_str(d, cv, "arch", c->arch, sizeof c->arch);
    fb__bl_ctx_str(d, cv, "library_build_flags", c->build_flags, sizeof c->build_flags);
    int library = fb__bl_build_bits(d, fb__jr_get(d, cv, "library_build"));

    uint32_t rv = fb__jr_get(d, 0, "results");
    if (!rv) return fb__bl_fail(rd, "no \"results\"");
    if (d->v[rv].type != FB__JR_ARR)
        return fb__bl_fail(rd, "\"results\" is %s, not an array", fb__jr_type_name(d->v[rv].type));
    size_t n = d->v[rv].count;
    out->rec = calloc(n ? n : 1, sizeof *out->rec);
    if (!out->rec) return fb__bl_fail(rd, "out of memory");
    int code = -1;
    size_t i = 0;
    for (uint32_t k = d->v[rv].first; k; k = d->v[k].next, ++i) {
        ++out->n; /* counted first, so fb__baseline_free sees a half-built record */
        if (fb__bl_result(rd, k, i, &out->rec[i], &c->counters, &code)) return -1;
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
        if (!p) return fb__bl_fail(rd, "out of memory");
        out->rec = p;
        memset(p + out->n, 0, (m + 1) * sizeof *p);
        for (uint32_t k = d->v[crv].first; k; k = d->v[k].next, ++i) {
            ++out->n;
            if (fb__bl_result(rd, k, i, &out->rec[out->n - 1], &c->counters, &code)) return -1;
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

/* ------------------------------------------- several files, one side */

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
