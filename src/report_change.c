/* The change table: a run against a baseline, one row per benchmark, in
 * markdown (the same text in the terminal, in -output_md and in a pull
 * request comment):
 *
 *   > warning: the runs differ in compiler: baseline 'gcc 12.2.0', now 'clang 14.0.6'
 *   |         baseline |              now |   change |            95% CI | verdict | benchmark
 *   |-----------------:|-----------------:|---------:|------------------:|:--------|:----------
 *   |     26.95 ns/op  |     27.01 ns/op  |    +0.2% |    [-1.1%, +1.4%] | same    | `SipHash_32b`
 *   femtobench: 1 benchmark compared (threshold 5%): 0 faster, 0 slower, 1 same, ...
 *
 * Rows are matched by title, name and complexity N (the k-th occurrence of
 * a key in one run with the k-th in the other); rows follow the current
 * run's order, then the baseline's benchmarks that are gone. Cell text and
 * names are escaped as in the main table (fb__md_text, fb__md_code). */
#include "change.h"

#include "bench.h"
#include "report.h"
#include "json.h"
#include "stats.h"
#include "text.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The benchmark's unit for a table cell: at most 24 bytes of it (cut
 * before a UTF-8 continuation byte), '|' escaped for markdown, control
 * characters (ESC...) as \xNN so that none reaches the terminal. */
static void fb__rc_unit(const char *unit, char *out, size_t cap) {
    size_t n = strlen(unit ? unit : ""), o = 0;
    if (n > 24) {
        n = 24;
        while (n > 0 && ((unsigned char)unit[n] & 0xc0) == 0x80) --n;
    }
    for (size_t i = 0; i < n && o + 5 < cap; ++i) {
        unsigned char c = (unsigned char)unit[i];
        if (c < 0x20 || c == 0x7f)
            o += (size_t)snprintf(out + o, cap - o, "\\x%02x", c);
        else if (c == '|')
            out[o++] = '\\', out[o++] = '|';
        else
            out[o++] = (char)c;
    }
    out[o] = '\0';
}

/* "26.95 ns/op": seconds per unit in ns, us, ms or s. */
static void fb__rc_time(char *buf, size_t len, const fb__bl_record *r) {
    char unit[104];
    fb__rc_unit(r ? r->unit : NULL, unit, sizeof unit);
    if (!r) {
        snprintf(buf, len, "-");
        return;
    }
    if (!r->error && r->counted) { /* counted: exact instructions */
        char num[64];
        fb__fmt_grouped(num, sizeof num, r->ins_per_unit, 2);
        snprintf(buf, len, "%s ins/%s", num, unit);
        return;
    }
    if (r->error || r->epochs == 0) {
        snprintf(buf, len, "failed");
        return;
    }
    double *tmp = malloc(r->epochs * sizeof *tmp);
    if (!tmp) {
        snprintf(buf, len, "?");
        return;
    }
    memcpy(tmp, r->per_unit_s, r->epochs * sizeof *tmp);
    double s = fb__median(tmp, r->epochs);
    free(tmp);
    const char *u = "s";
    if (s < 1e-6)
        s *= 1e9, u = "ns";
    else if (s < 1e-3)
        s *= 1e6, u = "us";
    else if (s < 1)
        s *= 1e3, u = "ms";
    char num[64];
    fb__fmt_grouped(num, sizeof num, s, 2);
    /* the unit is the benchmark's: keep the cell bounded */
    snprintf(buf, len, "%s %s/%s", num, u, unit);
}

static void fb__rc_pct(char *buf, size_t len, double pct) {
    if (isnan(pct))
        snprintf(buf, len, "?");
    else if (isinf(pct))
        snprintf(buf, len, "%sinf", pct > 0 ? "+" : "-");
    else
        snprintf(buf, len, "%+.1f%%", pct);
}

static bool fb__rc_same_key(const fb__bl_record *a, const fb__bl_record *b) {
    return strcmp(a->name, b->name) == 0 && strcmp(a->title, b->title) == 0 &&
           a->complexity_n == b->complexity_n;
}

static void fb__rc_warn(FILE *f, const char *what, const char *old, const char *now) {
    if (strcmp(old, now) == 0) return;
    fprintf(f, "> warning: the runs differ in %s: baseline '", what);
    fb__md_text(f, old);
    fputs("', now '", f);
    fb__md_text(f, now);
    fputs("'\n", f);
}

/* The median time per unit of a measured record, else NAN. */
static double fb__rc_median(const fb__bl_record *r) {
    if (!r || r->error || r->epochs == 0) return NAN;
    double *tmp = malloc(r->epochs * sizeof *tmp);
    if (!tmp) return NAN;
    memcpy(tmp, r->per_unit_s, r->epochs * sizeof *tmp);
    double s = fb__median(tmp, r->epochs);
    free(tmp);
    return s;
}

/* One row of the table; also kept in view (may be NULL) for other writers. */
static int fb__rc_row(FILE *f, const fb__bl_record *old, const fb__bl_record *now,
                      double threshold_pct, size_t counts[FB__V_COUNT], fb__change_view *view) {
    char tb[160], tn[160], ch[32], ci[80];
    fb__rc_time(tb, sizeof tb, old);
    fb__rc_time(tn, sizeof tn, now);
    fb__change c;
    memset(&c, 0, sizeof c);
    c.shift = c.mw_lo = c.mw_hi = c.lo = c.hi = NAN;
    c.change_pct = c.lo_pct = c.hi_pct = NAN;
    fb__verdict v;
    snprintf(ch, sizeof ch, "-");
    snprintf(ci, sizeof ci, "-");
    if (!old)
        v = FB__V_NEW;
    else if (!now)
        v = FB__V_GONE;
    else if (!old->error && !now->error && (old->counted || now->counted)) {
        fb__change_counted(old->counted ? old->ins_per_unit : NAN,
                           now->counted ? now->ins_per_unit : NAN, &c);
        v = c.verdict;
        if (isnan(c.change_pct))
            snprintf(ci, sizeof ci, "counted vs timed");
        else {
            fb__rc_pct(ch, sizeof ch, c.change_pct);
            snprintf(ci, sizeof ci, "exact");
        }
    } else {
        fb__change_compare(old->per_unit_s, old->error ? 0 : old->epochs, old->err_pct,
                           now->per_unit_s, now->error ? 0 : now->epochs, now->err_pct,
                           threshold_pct, &c);
        v = c.verdict;
        if (!isnan(c.change_pct)) fb__rc_pct(ch, sizeof ch, c.change_pct);
        if (!isnan(c.change_pct)) {
            if (isinf(c.lo) || isinf(c.hi)) {
                snprintf(ci, sizeof ci, "too few epochs");
            } else {
                char lo[32], hi[32];
                fb__rc_pct(lo, sizeof lo, c.lo_pct);
                fb__rc_pct(hi, sizeof hi, c.hi_pct);
                snprintf(ci, sizeof ci, "[%s, %s]", lo, hi);
            }
        }
    }
    ++counts[v];
    const fb__bl_record *r = now ? now : old;
    fprintf(f, "| %18s | %18s | %8s | %18s | %-7s | ", tb, tn, ch, ci, fb__verdict_name(v));
    fb__md_code(f, r->name);
    if (r->complexity_n > 0) {
        char num[64];
        fb__fmt_double(num, sizeof num, r->complexity_n, 0);
        fprintf(f, " N=%s", num);
    }
    if (strcmp(r->title, "benchmark") != 0 && r->title[0]) {
        fputs(" (", f);
        fb__md_text(f, r->title);
        fputc(')', f);
    }
    fputc('\n', f);
    if (!view) return 0;
    bool few = isinf(c.lo) || isinf(c.hi);
    return fb__change_view_add(view, r->name, fb__rc_median(old), fb__rc_median(now), c.change_pct,
                               few ? NAN : c.lo_pct, few ? NAN : c.hi_pct, (int)v);
}

static int fb__rc_table(FILE *f, const fb__baseline *base, const fb__baseline *now,
                        double threshold_pct, size_t counts[FB__V_COUNT], fb__change_view *view) {
    int rc = 0;
    if (view) view->threshold_pct = threshold_pct;
    for (int v = 0; v < FB__V_COUNT; ++v) counts[v] = 0;
    bool *used = calloc(base->n ? base->n : 1, sizeof *used);
    if (!used) return FB_ENOMEM;

    const fb__bl_context *a = &base->ctx, *b = &now->ctx;
    fb__rc_warn(f, "CPU model", a->cpu_model, b->cpu_model);
    fb__rc_warn(f, "compiler", a->compiler, b->compiler);
    fb__rc_warn(f, "build type", a->build_type, b->build_type);
    fb__rc_warn(f, "build flags", a->build_flags, b->build_flags);
    fb__rc_warn(f, "femtobench version", a->version, b->version);
    fb__rc_warn(f, "performance counters", a->counters ? "on" : "off", b->counters ? "on" : "off");

    fprintf(f, "| %18s | %18s | %8s | %18s | %-7s | benchmark\n", "baseline", "now", "change",
            "95% CI", "verdict");
    fprintf(f, "|%s:|%s:|%s:|%s:|:%s|:----------\n", "-------------------", "-------------------",
            "---------", "-------------------", "--------");
    for (size_t i = 0; i < now->n; ++i) {
        const fb__bl_record *old = NULL;
        for (size_t j = 0; j < base->n && !old; ++j)
            if (!used[j] && fb__rc_same_key(&base->rec[j], &now->rec[i])) {
                used[j] = true;
                old = &base->rec[j];
            }
        rc |= fb__rc_row(f, old, &now->rec[i], threshold_pct, counts, view);
    }
    for (size_t j = 0; j < base->n; ++j)
        if (!used[j]) rc |= fb__rc_row(f, &base->rec[j], NULL, threshold_pct, counts, view);
    free(used);

    size_t total = 0;
    for (int v = 0; v < FB__V_COUNT; ++v) total += counts[v];
    char t[64];
    fb__fmt_double(t, sizeof t, threshold_pct, 0);
    fprintf(f, "\nfemtobench: %zu benchmark%s against the baseline (threshold %s%%):", total,
            total == 1 ? "" : "s", t);
    for (int v = 0; v < FB__V_COUNT; ++v)
        fprintf(f, "%s %zu %s", v ? "," : "", counts[v], fb__verdict_name((fb__verdict)v));
    fputc('\n', f);
    return rc ? FB_ENOMEM : 0;
}

int fb__change_table(FILE *f, const fb__baseline *base, const fb__baseline *now,
                     double threshold_pct, size_t counts[FB__V_COUNT]) {
    return fb__rc_table(f, base, now, threshold_pct, counts, NULL);
}

int fb__change_against(FILE *f, const fb__baseline *base, const fb_bench *now, double threshold_pct,
                       size_t counts[FB__V_COUNT], fb__change_view *view) {
    fb__baseline cur;
    if (fb__baseline_from_bench(now, &cur) != 0) return FB_ENOMEM;
    int rc = fb__rc_table(f, base, &cur, threshold_pct, counts, view);
    fb__baseline_free(&cur);
    return rc;
}
