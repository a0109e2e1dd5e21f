/* Baselines: a live bench as a list of records with per-epoch times per
 * unit, and what every baseline shares (its release, the appending of
 * -run's files, the median and err% of a record, the build type text, a
 * file's text quoted for a message). A femtobench JSON file is read into
 * the same records by src/outputs/baseline_read.c. */
#include "baseline.h"

#include "disturb.h" /* FB__EPOCH_DROPPED */
#include "result.h"
#include "stats.h"
#include "sysinfo.h"
#include "text.h"

#include <stdarg.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

void fb__baseline_free(fb__baseline *bl) {
    if (!bl) return;
    for (size_t i = 0; i < bl->n; ++i) {
        fb__bl_record *r = &bl->rec[i];
        free(r->title);
        free(r->name);
        free(r->unit);
        free(r->error);
        free(r->per_unit_s);
        free(r->uc);
    }
    free(bl->rec);
    memset(bl, 0, sizeof *bl);
}

int fb__baseline_append(fb__baseline *to, fb__baseline *from, unsigned pass) {
    fb__bl_record *rec = realloc(to->rec, (to->n + from->n + 1) * sizeof *rec);
    if (!rec) return FB_ENOMEM;
    to->rec = rec;
    if (to->n == 0) to->ctx = from->ctx;
    for (size_t i = 0; i < from->n; ++i) {
        to->rec[to->n] = from->rec[i];
        to->rec[to->n++].pass = pass;
    }
    free(from->rec);
    from->rec = NULL;
    from->n = 0;
    return FB_OK;
}

double fb__bl_median(const double *v, size_t n) {
    if (n == 0) return NAN;
    double *tmp = malloc(n * sizeof *tmp);
    if (!tmp) return NAN;
    memcpy(tmp, v, n * sizeof *tmp);
    double m = fb__median(tmp, n);
    free(tmp);
    return m;
}

double fb__bl_err_pct(const double *v, size_t n) {
    if (n == 0) return NAN;
    double *tmp = malloc(2 * n * sizeof *tmp);
    if (!tmp) return NAN;
    memcpy(tmp, v, n * sizeof *tmp);
    double med = fb__median(tmp, n);
    double e = fb__mdape_pct(v, n, med, tmp + n);
    free(tmp);
    return e;
}

/* "optimized, NDEBUG" from FB__CALLSITE-style bits (1 known, 2 optimized,
 * 4 NDEBUG). */
static void fb__bl_build_text(char *out, size_t len, const char *who, int bits, size_t used) {
    if (used >= len) return;
    if (!(bits & 1))
        snprintf(out + used, len - used, "%s unknown", who);
    else
        snprintf(out + used, len - used, "%s %s, %s", who,
                 (bits & 2) ? "optimized" : "not optimized",
                 (bits & 4) ? "NDEBUG" : "assertions on");
}

void fb__bl_build_type(fb__bl_context *c, int library, int code) {
    fb__bl_build_text(c->build_type, sizeof c->build_type, "library", library, 0);
    size_t used = strlen(c->build_type);
    if (code >= 0) {
        snprintf(c->build_type + used, sizeof c->build_type - used, "; ");
        fb__bl_build_text(c->build_type, sizeof c->build_type, "benchmarks", code,
                          strlen(c->build_type));
    }
}

void fb__bl_quote(char *out, size_t len, const char *s) {
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

/* ------------------------------------------------------- from a bench */

int fb__baseline_from_bench(const fb_bench *b, fb__baseline *out) {
    memset(out, 0, sizeof *out);
    fb__sysinfo si;
    fb__sysinfo_read("/", &si);
    fb__bl_context *c = &out->ctx;
    snprintf(c->version, sizeof c->version, "%s", si.version);
    snprintf(c->cpu_model, sizeof c->cpu_model, "%s", si.cpu_model);
    snprintf(c->compiler, sizeof c->compiler, "%s", si.compiler);
    snprintf(c->build_flags, sizeof c->build_flags, "%s", si.build_flags);
    snprintf(c->os, sizeof c->os, "%s", si.os);
    snprintf(c->arch, sizeof c->arch, "%s", si.arch);
    /* the results, then each comparison's alternatives (as the JSON file
     * has them, src/outputs/baseline_read.c) */
    size_t n = fb_result_count(b), n_results = n;
    for (size_t k = 0; k < fb_comparison_count(b); ++k)
        n += fb_comparison_size(fb_comparison_at(b, k));
    int code = -1;
    out->rec = calloc(n ? n : 1, sizeof *out->rec);
    if (!out->rec) return FB_ENOMEM;
    size_t cmp = 0, alt = 0;
    for (size_t i = 0; i < n; ++i) {
        const fb_result *r = NULL;
        if (i < n_results) {
            r = fb_result_at(b, i);
        } else {
            while (alt >= fb_comparison_size(fb_comparison_at(b, cmp))) ++cmp, alt = 0;
            r = fb_comparison_result(fb_comparison_at(b, cmp), alt++);
        }
        if (!r) continue;
        fb__bl_record *rec = &out->rec[out->n++];
        const char *title = fb_result_title(r), *unit = fb_result_unit(r);
        rec->title = fb__strdup(title ? title : "");
        rec->name = fb__strdup(fb_result_name(r) ? fb_result_name(r) : "");
        rec->unit = fb__strdup(unit ? unit : "op");
        if (!rec->title || !rec->name || !rec->unit) goto oom;
        if (fb_result_error(r) && !(rec->error = fb__strdup(fb_result_error(r)))) goto oom;
        rec->batch = fb_result_batch(r);
        rec->complexity_n = fb_result_complexity_n(r);
        rec->pass = r->config.pass;
        rec->median_s = rec->cpu_median_s = NAN;
        for (int m = 0; m < FB_MEASURE_COUNT; ++m)
            if (m != FB_ELAPSED && m != FB_CPUTIME && fb_result_has(r, (fb_measure)m))
                c->counters = 1; /* the CPU time is no counter: every run reads it */
        if (code < 0 && !rec->error) code = r->callsite;
        /* user counters as shown (src/handle/ucounter.c) */
        size_t nu = rec->error ? 0 : fb_result_counter_count(r);
        if (nu && !(rec->uc = calloc(nu, sizeof *rec->uc))) goto oom;
        for (size_t k = 0; k < nu; ++k) {
            fb__ucounter_label(r, k, rec->uc[k].label, sizeof rec->uc[k].label);
            rec->uc[k].shown = fb_result_counter(r, k);
        }
        rec->n_uc = nu;
        if (!rec->error && fb_result_counted(r)) {
            rec->counted = true;
            rec->ins_per_unit = fb_result_valgrind(r, FB_VG_INSTRUCTIONS) / rec->batch;
            double lo, hi;
            fb_result_valgrind_spread(r, &lo, &hi);
            rec->ins_lo_per_unit = lo / rec->batch;
            rec->ins_hi_per_unit = hi / rec->batch;
            continue;
        }
        if (rec->error || !fb_result_has(r, FB_ELAPSED)) continue;
        /* the epochs the result's statistics use, as the table shows them:
         * a disturbed or superseded epoch is left out here too */
        size_t e = fb_result_epochs(r), kept = 0;
        rec->per_unit_s = malloc((e ? e : 1) * sizeof *rec->per_unit_s);
        if (!rec->per_unit_s) goto oom;
        for (size_t k = 0; k < e; ++k)
            if (!r->epoch_flags || !(r->epoch_flags[k] & FB__EPOCH_DROPPED))
                rec->per_unit_s[kept++] = fb_result_value(r, FB_ELAPSED, k) / rec->batch;
        rec->epochs = kept;
        rec->err_pct = fb__bl_err_pct(rec->per_unit_s, kept);
        rec->median_s = fb__bl_median(rec->per_unit_s, kept);
        /* the CPU time over the same epochs, as the JSON file has it */
        if (fb_result_has(r, FB_CPUTIME)) {
            double *cpu = malloc((e ? e : 1) * sizeof *cpu);
            if (!cpu) goto oom;
            size_t kc = 0;
            for (size_t k = 0; k < e; ++k)
                if (!r->epoch_flags || !(r->epoch_flags[k] & FB__EPOCH_DROPPED))
                    cpu[kc++] = fb_result_value(r, FB_CPUTIME, k) / rec->batch;
            bool all = kc > 0;
            for (size_t k = 0; k < kc; ++k) all = all && cpu[k] >= 0;
            rec->cpu_median_s = all ? fb__bl_median(cpu, kc) : NAN;
            free(cpu);
        }
    }
    fb__bl_build_type(c, si.library_build, code);
    return 0;
oom:
    fb__baseline_free(out);
    return FB_ENOMEM;
}
