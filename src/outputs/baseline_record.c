/* One result of a femtobench JSON file (docs/formats.md, "femtobench/1")
 * read and checked into a baseline's record: each value the comparison uses
 * (name, batch, complexity N, pass, epochs, the thread's CPU time, the
 * dropped epochs, user counters, Callgrind's counts) checked, and each bad
 * one named with its benchmark and epoch. The file is untrusted input. */
#include "baseline_record.h"

#include "text.h"

#include <stdarg.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int fb__bl_record_fail(fb__bl_reader *rd, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(rd->err, rd->len, fmt, ap);
    va_end(ap);
    return -1;
}

int fb__bl_record_build_bits(const fb__jr_doc *d, uint32_t obj) {
    if (!obj || d->v[obj].type != FB__JR_OBJ) return 0;
    int bits = 0;
    const char *keys[3] = {"known", "optimized", "ndebug"};
    for (int k = 0; k < 3; ++k) {
        uint32_t v = fb__jr_get(d, obj, keys[k]);
        if (v && d->v[v].type == FB__JR_TRUE) bits |= 1 << k;
    }
    return bits;
}

/* A member that must be a string (or null when null_ok): *out the text, or
 * NULL for null. */
static int fb__bl_text(fb__bl_reader *rd, uint32_t obj, const char *key, bool null_ok,
                       const char *what, const char **out) {
    uint32_t v = fb__jr_get(rd->d, obj, key);
    if (!v) return fb__bl_record_fail(rd, "%s: no \"%s\"", what, key);
    int t = rd->d->v[v].type;
    if (t == FB__JR_NULL && null_ok) {
        *out = NULL;
        return 0;
    }
    if (t != FB__JR_STR)
        return fb__bl_record_fail(rd, "%s: \"%s\" is %s, not a string", what, key,
                                  fb__jr_type_name(t));
    *out = fb__jr_str(rd->d, v);
    return 0;
}

int fb__bl_record_read(fb__bl_reader *rd, uint32_t ri, size_t index, fb__bl_record *rec,
                       int *counters, int *code) {
    const fb__jr_doc *d = rd->d;
    char what[160];
    snprintf(what, sizeof what, "results[%zu]", index);
    if (d->v[ri].type != FB__JR_OBJ)
        return fb__bl_record_fail(rd, "%s is %s, not an object", what,
                                  fb__jr_type_name(d->v[ri].type));
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
        return fb__bl_record_fail(rd, "%s: \"error\" is %s, not a string or null", what,
                                  fb__jr_type_name(d->v[ev].type));

    uint32_t bv = fb__jr_get(d, ri, "batch");
    if (!bv) return fb__bl_record_fail(rd, "%s: no \"batch\"", what);
    if (d->v[bv].type != FB__JR_NUM || !(d->v[bv].num > 0))
        return fb__bl_record_fail(rd, "%s: \"batch\" must be a number > 0", what);
    rec->batch = d->v[bv].num;
    uint32_t nv = fb__jr_get(d, ri, "complexityN");
    if (nv && d->v[nv].type != FB__JR_NULL) {
        if (d->v[nv].type != FB__JR_NUM || !(d->v[nv].num > 0))
            return fb__bl_record_fail(rd, "%s: \"complexityN\" must be null or a number > 0", what);
        rec->complexity_n = d->v[nv].num;
    }
    uint32_t pv = fb__jr_get(d, ri, "pass");
    if (pv && d->v[pv].type != FB__JR_NULL) {
        double pn = d->v[pv].type == FB__JR_NUM ? d->v[pv].num : -1;
        if (!(pn >= 0 && pn <= 4294967295.0 && pn == floor(pn)))
            return fb__bl_record_fail(rd, "%s: \"pass\" must be a whole number >= 0", what);
        rec->pass = (unsigned)pn;
    }
    rec->median_s = rec->cpu_median_s = NAN;
    rec->name = fb__strdup(name);
    rec->title = fb__strdup(title ? title : "");
    rec->unit = fb__strdup(unit ? unit : "op");
    if (error) rec->error = fb__strdup(error);
    if (!rec->name || !rec->title || !rec->unit || (error && !rec->error))
        return fb__bl_record_fail(rd, "out of memory");
    if (*code < 0 && !error) {
        uint32_t cb = fb__jr_get(d, ri, "callsite_build");
        if (cb) *code = fb__bl_record_build_bits(d, cb);
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
        if (!(rec->uc = calloc(cap, sizeof *rec->uc)))
            return fb__bl_record_fail(rd, "out of memory");
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
            return fb__bl_record_fail(
                rd, "%s: counted under Callgrind without a number of instructions", what);
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
                return fb__bl_record_fail(rd,
                                          "%s: an \"instructions_spread\" that is not [low, high] "
                                          "around the instructions",
                                          what);
            rec->ins_lo_per_unit = d->v[lo].num / rec->batch;
            rec->ins_hi_per_unit = d->v[hi].num / rec->batch;
        }
        return 0;
    }
    uint32_t mv = fb__jr_get(d, ri, "measurements");
    if (!mv) return fb__bl_record_fail(rd, "%s: no \"measurements\"", what);
    if (d->v[mv].type != FB__JR_ARR)
        return fb__bl_record_fail(rd, "%s: \"measurements\" is %s, not an array", what,
                                  fb__jr_type_name(d->v[mv].type));
    size_t n = d->v[mv].count;
    if (n == 0 && !error) return fb__bl_record_fail(rd, "%s: no epochs in \"measurements\"", what);
    if (error) return 0; /* a failed benchmark: its epochs, if any, are not used */
    rec->per_unit_s = malloc(n * sizeof *rec->per_unit_s);
    if (!rec->per_unit_s) return fb__bl_record_fail(rd, "out of memory");
    size_t e = 0;
    for (uint32_t k = d->v[mv].first; k; k = d->v[k].next, ++e) {
        if (d->v[k].type != FB__JR_OBJ)
            return fb__bl_record_fail(rd, "%s epoch %zu: %s, not an object", what, e + 1,
                                      fb__jr_type_name(d->v[k].type));
        uint32_t it = fb__jr_get(d, k, "iterations");
        if (!it || d->v[it].type != FB__JR_NUM || !(d->v[it].num >= 1) ||
            d->v[it].num != floor(d->v[it].num))
            return fb__bl_record_fail(
                rd, "%s epoch %zu: \"iterations\" must be a whole number >= 1", what, e + 1);
        uint32_t el = fb__jr_get(d, k, "elapsed");
        if (!el) return fb__bl_record_fail(rd, "%s epoch %zu: no \"elapsed\" time", what, e + 1);
        int t = d->v[el].type;
        if (t == FB__JR_NULL)
            return fb__bl_record_fail(rd, "%s epoch %zu: time is null (not a number)", what, e + 1);
        if (t != FB__JR_NUM)
            return fb__bl_record_fail(rd, "%s epoch %zu: time is %s, not a number", what, e + 1,
                                      fb__jr_type_name(t));
        double s = d->v[el].num;
        if (s < 0) return fb__bl_record_fail(rd, "%s epoch %zu: negative time", what, e + 1);
        rec->per_unit_s[e] = s / rec->batch;
        if (!isfinite(rec->per_unit_s[e]))
            return fb__bl_record_fail(rd, "%s epoch %zu: time per unit out of range", what, e + 1);
    }
    /* the thread's CPU time per unit of each epoch ("cputime", optional:
     * files written before it, or a run without it, have none; null when
     * an epoch could not read it); its median over the epochs used is
     * taken when every epoch has it */
    double *cpu = malloc(n * sizeof *cpu);
    if (!cpu) return fb__bl_record_fail(rd, "out of memory");
    bool has_cpu = true;
    e = 0;
    for (uint32_t k = d->v[mv].first; k; k = d->v[k].next, ++e) {
        uint32_t cv = fb__jr_get(d, k, "cputime");
        int t = cv ? d->v[cv].type : FB__JR_NULL;
        if (t != FB__JR_NULL &&
            (t != FB__JR_NUM || !(d->v[cv].num >= 0) || !isfinite(d->v[cv].num / rec->batch))) {
            free(cpu);
            return fb__bl_record_fail(rd, "%s epoch %zu: \"cputime\" must be null or a number >= 0",
                                      what, e + 1);
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
            return fb__bl_record_fail(rd, "out of memory");
        }
        for (uint32_t k = d->v[dv].first; k; k = d->v[k].next) {
            double x = d->v[k].type == FB__JR_NUM ? d->v[k].num : -1;
            if (!(x >= 0 && x < (double)e && x == floor(x))) {
                free(drop);
                free(cpu);
                return fb__bl_record_fail(
                    rd, "%s: \"dropped\" holds %s, not an epoch's index", what,
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
            return fb__bl_record_fail(rd, "%s: every epoch is in \"dropped\"", what);
        }
        e = kept;
    } else if (dv && d->v[dv].type != FB__JR_ARR && d->v[dv].type != FB__JR_NULL) {
        free(cpu);
        return fb__bl_record_fail(rd, "%s: \"dropped\" is %s, not an array", what,
                                  fb__jr_type_name(d->v[dv].type));
    }
    rec->epochs = e;
    rec->err_pct = fb__bl_err_pct(rec->per_unit_s, e);
    rec->median_s = fb__bl_median(rec->per_unit_s, e);
    rec->cpu_median_s = has_cpu ? fb__bl_median(cpu, e) : NAN;
    free(cpu);
    return 0;
}
