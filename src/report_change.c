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
 * a key in a process with the k-th in the other run), by sorting both sides
 * (O(n log n)); the records of one row in different processes (the
 * runner's passes, -run's runs) are that row's per-process values. Rows
 * follow the current run's order, then the baseline's benchmarks that are
 * gone. A row is compared between processes when a side has more than one
 * (src/change.c, fb__change_between), else over the epochs of the one
 * process a side, widened by the floor between processes. Cell text and
 * names are escaped as in the main table (fb__md_text, fb__md_code). */
#include "change.h"

#include "bench.h"
#include "change_suite.h"
#include "report.h"
#include "json.h"
#include "stats.h"
#include "text.h"

#include <limits.h>
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

/* ------------------------------------------------ rows: grouping */

/* A record of one side, with its occurrence: the k-th record of its key in
 * its process (a benchmark that runs one name twice has two rows). */
typedef struct fb__rc_ent {
    const fb__bl_record *r;
    size_t i;   /* index in the side */
    size_t occ; /* occurrence of its key within its process */
} fb__rc_ent;

/* One row's side: the records of one key and occurrence, one per process,
 * in process order. */
typedef struct fb__rc_group {
    const fb__rc_ent *e;
    size_t n;
    size_t first; /* smallest index in the side: the order of the table */
    size_t match; /* the other side's group, or SIZE_MAX */
} fb__rc_group;

static int fb__rc_cmp_num(double a, double b) { return (a > b) - (a < b); }

static int fb__rc_cmp_key(const fb__bl_record *a, const fb__bl_record *b) {
    int c = strcmp(a->name, b->name);
    if (!c) c = strcmp(a->title, b->title);
    return c ? c : fb__rc_cmp_num(a->complexity_n, b->complexity_n);
}

static int fb__rc_cmp_size(size_t a, size_t b) { return (a > b) - (a < b); }

/* by key, process, index: the occurrences of a key within a process */
static int fb__rc_cmp_pass(const void *pa, const void *pb) {
    const fb__rc_ent *a = pa, *b = pb;
    int c = fb__rc_cmp_key(a->r, b->r);
    if (!c) c = fb__rc_cmp_size(a->r->pass, b->r->pass);
    return c ? c : fb__rc_cmp_size(a->i, b->i);
}

/* by key, occurrence, process: the rows, each with its processes */
static int fb__rc_cmp_row(const void *pa, const void *pb) {
    const fb__rc_ent *a = pa, *b = pb;
    int c = fb__rc_cmp_key(a->r, b->r);
    if (!c) c = fb__rc_cmp_size(a->occ, b->occ);
    if (!c) c = fb__rc_cmp_size(a->r->pass, b->r->pass);
    return c ? c : fb__rc_cmp_size(a->i, b->i);
}

static int fb__rc_cmp_group(const fb__rc_group *a, const fb__rc_group *b) {
    int c = fb__rc_cmp_key(a->e[0].r, b->e[0].r);
    return c ? c : fb__rc_cmp_size(a->e[0].occ, b->e[0].occ);
}

/* The rows of one side, sorted by key and occurrence: O(n log n). */
static int fb__rc_side(const fb__baseline *bl, fb__rc_ent **ents, fb__rc_group **groups,
                       size_t *n_groups) {
    size_t n = bl->n;
    fb__rc_ent *e = malloc((n ? n : 1) * sizeof *e);
    fb__rc_group *g = malloc((n ? n : 1) * sizeof *g);
    *ents = e;
    *groups = g;
    *n_groups = 0;
    if (!e || !g) return FB_ENOMEM;
    for (size_t i = 0; i < n; ++i) e[i] = (fb__rc_ent){&bl->rec[i], i, 0};
    qsort(e, n, sizeof *e, fb__rc_cmp_pass);
    for (size_t i = 1; i < n; ++i)
        if (!fb__rc_cmp_key(e[i].r, e[i - 1].r) && e[i].r->pass == e[i - 1].r->pass)
            e[i].occ = e[i - 1].occ + 1;
    qsort(e, n, sizeof *e, fb__rc_cmp_row);
    for (size_t i = 0; i < n;) {
        size_t j = i + 1, first = e[i].i;
        while (j < n && !fb__rc_cmp_key(e[j].r, e[i].r) && e[j].occ == e[i].occ) {
            if (e[j].i < first) first = e[j].i;
            ++j;
        }
        g[(*n_groups)++] = (fb__rc_group){e + i, j - i, first, SIZE_MAX};
        i = j;
    }
    return FB_OK;
}

/* ------------------------------------------------ rows: values */

static bool fb__rc_failed(const fb__rc_group *g) {
    for (size_t k = 0; k < g->n; ++k)
        if (g->e[k].r->error || (!g->e[k].r->counted && g->e[k].r->epochs == 0)) return true;
    return false;
}

static bool fb__rc_counted(const fb__rc_group *g) {
    for (size_t k = 0; k < g->n; ++k)
        if (!g->e[k].r->counted) return false;
    return true;
}

/* The median over the group's processes of each one's median time per unit
 * (or exact count when counted); NAN when failed or on no memory. */
static double fb__rc_value(const fb__rc_group *g, bool counted) {
    if (!g || !g->n || fb__rc_failed(g)) return NAN;
    double *v = malloc(g->n * sizeof *v);
    if (!v) return NAN;
    for (size_t k = 0; k < g->n; ++k)
        v[k] = counted ? g->e[k].r->ins_per_unit : g->e[k].r->median_s;
    double m = fb__median(v, g->n);
    free(v);
    return m;
}

/* "26.95 ns/op": the group's value in ns, us, ms or s per the unit. */
static void fb__rc_time(char *buf, size_t len, const fb__rc_group *g) {
    char unit[104];
    fb__rc_unit(g ? g->e[0].r->unit : NULL, unit, sizeof unit);
    if (!g) {
        snprintf(buf, len, "-");
        return;
    }
    if (fb__rc_failed(g)) {
        snprintf(buf, len, "failed");
        return;
    }
    char num[64];
    if (fb__rc_counted(g)) { /* counted: exact instructions */
        fb__fmt_grouped(num, sizeof num, fb__rc_value(g, true), 2);
        snprintf(buf, len, "%s ins/%s", num, unit);
        return;
    }
    double s = fb__rc_value(g, false);
    if (isnan(s)) {
        snprintf(buf, len, "?");
        return;
    }
    const char *u = "s";
    if (s < 1e-6)
        s *= 1e9, u = "ns";
    else if (s < 1e-3)
        s *= 1e6, u = "us";
    else if (s < 1)
        s *= 1e3, u = "ms";
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

static void fb__rc_warn(FILE *f, const char *what, const char *old, const char *now) {
    if (strcmp(old, now) == 0) return;
    fprintf(f, "> warning: the runs differ in %s: baseline '", what);
    fb__md_text(f, old);
    fputs("', now '", f);
    fb__md_text(f, now);
    fputs("'\n", f);
}

/* How a row is compared. */
enum {
    FB__RC_NEW,
    FB__RC_GONE,
    FB__RC_FAILED,  /* a side failed in some process */
    FB__RC_COUNTED, /* a side counted under Callgrind: exact */
    FB__RC_ONE,     /* one process a side: the epochs, widened by the floor */
    FB__RC_BETWEEN, /* between processes: a t interval (paired or pooled) */
    FB__RC_FEW      /* paired, fewer than two pairs */
};

typedef struct fb__rc_row {
    const fb__rc_group *old, *now;
    int kind;
} fb__rc_row;

static int fb__rc_kind(const fb__rc_group *o, const fb__rc_group *n, bool paired) {
    if (!o) return FB__RC_NEW;
    if (!n) return FB__RC_GONE;
    if (fb__rc_failed(o) || fb__rc_failed(n)) return FB__RC_FAILED;
    if (fb__rc_counted(o) || fb__rc_counted(n)) return FB__RC_COUNTED;
    if (paired) {
        size_t pairs = 0;
        for (size_t a = 0, b = 0; a < o->n && b < n->n;) {
            unsigned pa = o->e[a].r->pass, pb = n->e[b].r->pass;
            if (pa == pb) ++pairs;
            a += pa <= pb;
            b += pb <= pa;
        }
        return pairs >= 2 ? FB__RC_BETWEEN : FB__RC_FEW;
    }
    return o->n == 1 && n->n == 1 ? FB__RC_ONE : FB__RC_BETWEEN;
}

/* The per-process medians of the two sides (paired: of the processes both
 * sides have, in pairs) and their processes (`pass`). Returns FB_OK or
 * FB_ENOMEM; the caller frees the four arrays. */
static int fb__rc_values(const fb__rc_row *w, bool paired, double **vo, unsigned **po, size_t *m,
                         double **vn, unsigned **pn, size_t *n) {
    *vo = malloc(w->old->n * sizeof **vo);
    *vn = malloc(w->now->n * sizeof **vn);
    *po = malloc(w->old->n * sizeof **po);
    *pn = malloc(w->now->n * sizeof **pn);
    *m = *n = 0;
    if (!*vo || !*vn || !*po || !*pn) return FB_ENOMEM;
    for (size_t a = 0, b = 0; a < w->old->n || b < w->now->n;) {
        unsigned pa = a < w->old->n ? w->old->e[a].r->pass : UINT_MAX;
        unsigned pb = b < w->now->n ? w->now->e[b].r->pass : UINT_MAX;
        bool ta = a < w->old->n && (!paired || pa == pb),
             tb = b < w->now->n && (!paired || pa == pb);
        if (ta) (*po)[*m] = pa, (*vo)[(*m)++] = w->old->e[a].r->median_s;
        if (tb) (*pn)[*n] = pb, (*vn)[(*n)++] = w->now->e[b].r->median_s;
        if (!paired) {
            a += a < w->old->n;
            b += b < w->now->n;
        } else {
            a += pa <= pb;
            b += pb <= pa;
        }
    }
    return FB_OK;
}

/* The critical t values of a table, one per degrees of freedom, computed
 * when first needed (every row of a table has the same alpha). */
typedef struct fb__rc_tcache {
    double alpha;
    double *t; /* [max_df + 1], NAN until computed */
    size_t max_df;
} fb__rc_tcache;

static double fb__rc_t(fb__rc_tcache *c, unsigned df) {
    if (df == 0) return NAN;
    if (df > c->max_df || !c->t) return fb__change_t_quantile(c->alpha, df);
    if (isnan(c->t[df])) c->t[df] = fb__change_t_quantile(c->alpha, df);
    return c->t[df];
}

/* One row of the table; also kept in view (may be NULL) for other writers. */
static int fb__rc_print_row(FILE *f, const fb__rc_row *w, bool paired, fb__rc_tcache *tc,
                            const fb__suite *suite, size_t suite_row, double threshold_pct,
                            size_t counts[FB__V_COUNT], fb__change_view *view) {
    char tb[160], tn[160], ch[32], ci[80];
    fb__rc_time(tb, sizeof tb, w->old);
    fb__rc_time(tn, sizeof tn, w->now);
    fb__change c;
    memset(&c, 0, sizeof c);
    c.shift = c.mw_lo = c.mw_hi = c.lo = c.hi = NAN;
    c.change_pct = c.lo_pct = c.hi_pct = NAN;
    c.verdict = FB__V_UNSURE;
    snprintf(ch, sizeof ch, "-");
    snprintf(ci, sizeof ci, "-");
    int rc = FB_OK;
    if (w->kind == FB__RC_NEW) {
        c.verdict = FB__V_NEW;
    } else if (w->kind == FB__RC_GONE) {
        c.verdict = FB__V_GONE;
    } else if (w->kind == FB__RC_COUNTED) {
        fb__change_counted(fb__rc_counted(w->old) ? fb__rc_value(w->old, true) : NAN,
                           fb__rc_counted(w->now) ? fb__rc_value(w->now, true) : NAN, &c);
        if (isnan(c.change_pct)) {
            snprintf(ci, sizeof ci, "counted vs timed");
        } else {
            fb__rc_pct(ch, sizeof ch, c.change_pct);
            snprintf(ci, sizeof ci, "exact");
        }
    } else if (w->kind == FB__RC_FEW) {
        snprintf(ci, sizeof ci, "fewer than 2 pairs");
    } else if (w->kind == FB__RC_ONE) {
        const fb__bl_record *o = w->old->e[0].r, *n = w->now->e[0].r;
        fb__change_one_process(o->per_unit_s, o->epochs, o->err_pct, n->per_unit_s, n->epochs,
                               n->err_pct, threshold_pct, &c);
    } else if (w->kind == FB__RC_BETWEEN && suite->on) { /* relative to the whole suite */
        fb__suite_compare(suite, suite_row, fb__rc_t(tc, fb__suite_row_df(suite, suite_row)),
                          threshold_pct, &c);
    } else if (w->kind == FB__RC_BETWEEN) {
        double *vo = NULL, *vn = NULL;
        unsigned *po = NULL, *pn = NULL;
        size_t m, n;
        rc = fb__rc_values(w, paired, &vo, &po, &m, &vn, &pn, &n);
        if (rc == FB_OK)
            fb__change_between_t(vo, m, vn, n, paired,
                                 fb__rc_t(tc, fb__change_between_df(m, n, paired)), threshold_pct,
                                 &c);
        free(vo);
        free(vn);
        free(po);
        free(pn);
    }
    if (w->kind == FB__RC_ONE || w->kind == FB__RC_BETWEEN) {
        if (!isnan(c.change_pct)) fb__rc_pct(ch, sizeof ch, c.change_pct);
        if (isnan(c.change_pct)) {
        } else if (isinf(c.lo) || isinf(c.hi)) {
            snprintf(ci, sizeof ci, "too few epochs");
        } else {
            char lo[32], hi[32];
            fb__rc_pct(lo, sizeof lo, c.lo_pct);
            fb__rc_pct(hi, sizeof hi, c.hi_pct);
            snprintf(ci, sizeof ci, "[%s, %s]", lo, hi);
        }
    }
    fb__verdict v = c.verdict;
    ++counts[v];
    const fb__bl_record *r = w->now ? w->now->e[0].r : w->old->e[0].r;
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
    if (!view || rc != FB_OK) return rc;
    bool few = isinf(c.lo) || isinf(c.hi);
    bool counted = w->kind == FB__RC_COUNTED;
    return fb__change_view_add(view, r->name, counted ? NAN : fb__rc_value(w->old, false),
                               counted ? NAN : fb__rc_value(w->now, false), c.change_pct,
                               few ? NAN : c.lo_pct, few ? NAN : c.hi_pct, (int)v);
}

static int fb__rc_cmp_first(const void *pa, const void *pb) {
    const fb__rc_group *const *a = pa, *const *b = pb;
    return fb__rc_cmp_size((*a)->first, (*b)->first);
}

static int fb__rc_cmp_unsigned(const void *pa, const void *pb) {
    unsigned a = *(const unsigned *)pa, b = *(const unsigned *)pb;
    return (a > b) - (a < b);
}

/* The processes a side ran in: the number of distinct `pass` values. */
static size_t fb__rc_processes(const fb__baseline *bl) {
    unsigned *p = malloc((bl->n ? bl->n : 1) * sizeof *p);
    if (!p) return 0;
    for (size_t i = 0; i < bl->n; ++i) p[i] = bl->rec[i].pass;
    size_t k = 0;
    qsort(p, bl->n, sizeof *p, fb__rc_cmp_unsigned);
    for (size_t i = 0; i < bl->n; ++i) k += i == 0 || p[i] != p[i - 1];
    free(p);
    return k;
}

static int fb__rc_table(FILE *f, const fb__baseline *base, const fb__baseline *now,
                        double threshold_pct, bool paired, size_t counts[FB__V_COUNT],
                        fb__change_view *view) {
    if (view) view->threshold_pct = threshold_pct;
    for (int v = 0; v < FB__V_COUNT; ++v) counts[v] = 0;
    fb__rc_ent *eo = NULL, *en = NULL;
    fb__rc_group *go = NULL, *gn = NULL, **order = NULL;
    fb__rc_row *rows = NULL;
    size_t no = 0, nn = 0, n_rows = 0, *srow = NULL;
    fb__suite suite; /* the speed of each process (src/change_suite.c) */
    fb__suite_init(&suite, paired);
    int rc = fb__rc_side(base, &eo, &go, &no);
    if (rc == FB_OK) rc = fb__rc_side(now, &en, &gn, &nn);
    if (rc == FB_OK) {
        order = malloc((no + nn + 1) * sizeof *order);
        rows = malloc((no + nn + 1) * sizeof *rows);
        srow = malloc((no + nn + 1) * sizeof *srow);
        if (!order || !rows || !srow) rc = FB_ENOMEM;
    }
    if (rc != FB_OK) goto done;
    /* both sides are sorted by key and occurrence: match them in one walk */
    for (size_t a = 0, b = 0; a < no && b < nn;) {
        int c = fb__rc_cmp_group(&go[a], &gn[b]);
        if (c == 0) {
            go[a].match = b;
            gn[b].match = a;
        }
        a += c <= 0;
        b += c >= 0;
    }
    /* the current run's order, then the baseline's benchmarks that are gone */
    for (size_t b = 0; b < nn; ++b) order[b] = &gn[b];
    qsort(order, nn, sizeof *order, fb__rc_cmp_first);
    for (size_t b = 0; b < nn; ++b) {
        const fb__rc_group *o = order[b]->match == SIZE_MAX ? NULL : &go[order[b]->match];
        rows[n_rows++] = (fb__rc_row){o, order[b], fb__rc_kind(o, order[b], paired)};
    }
    size_t n_gone = 0;
    for (size_t a = 0; a < no; ++a)
        if (go[a].match == SIZE_MAX) order[n_gone++] = &go[a];
    qsort(order, n_gone, sizeof *order, fb__rc_cmp_first);
    for (size_t a = 0; a < n_gone; ++a) rows[n_rows++] = (fb__rc_row){order[a], NULL, FB__RC_GONE};
    /* family-wise over the rows compared between processes (Bonferroni) */
    size_t n_between = 0, n_one = 0;
    for (size_t i = 0; i < n_rows; ++i) {
        n_between += rows[i].kind == FB__RC_BETWEEN;
        n_one += rows[i].kind == FB__RC_ONE;
    }
    /* the rows compared between processes give each process its speed */
    for (size_t i = 0; i < n_rows && rc == FB_OK; ++i) {
        srow[i] = SIZE_MAX;
        if (rows[i].kind != FB__RC_BETWEEN) continue;
        double *vo = NULL, *vn = NULL;
        unsigned *po = NULL, *pn = NULL;
        size_t m, n;
        rc = fb__rc_values(&rows[i], paired, &vo, &po, &m, &vn, &pn, &n);
        if (rc == FB_OK) rc = fb__suite_add(&suite, vo, po, m, vn, pn, n);
        srow[i] = suite.rows - 1;
        free(vo);
        free(vn);
        free(po);
        free(pn);
    }
    if (rc == FB_OK) rc = fb__suite_fit(&suite);
    if (rc != FB_OK) goto done;
    /* the whole suite's line is one more interval of the family */
    size_t family = n_between + (suite.on ? 1 : 0);
    fb__rc_tcache tc = {FB__CHANGE_ALPHA / (double)(family ? family : 1), NULL, base->n + now->n};
    tc.t = malloc((tc.max_df + 1) * sizeof *tc.t);
    for (size_t k = 0; tc.t && k <= tc.max_df; ++k) tc.t[k] = NAN;

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
    for (size_t i = 0; i < n_rows && rc == FB_OK; ++i)
        rc = fb__rc_print_row(f, &rows[i], paired, &tc, &suite, srow[i], threshold_pct, counts,
                              view);
    fb__change whole;
    fb__suite_whole(&suite, fb__rc_t(&tc, fb__suite_whole_df(&suite)), threshold_pct, &whole);
    free(tc.t);
    if (rc == FB_OK && view && suite.on)
        rc = fb__change_view_add(view, FB__SUITE_WHOLE_NAME, NAN, NAN, whole.change_pct,
                                 whole.lo_pct, whole.hi_pct, (int)whole.verdict);

    size_t total = 0;
    for (int v = 0; v < FB__V_COUNT; ++v) total += counts[v];
    char t[64];
    fb__fmt_double(t, sizeof t, threshold_pct, 0);
    fputc('\n', f);
    if (n_between)
        fprintf(f,
                "> between processes (%s): baseline %zu, now %zu; the median of each process; "
                "95%% family-wise over %zu benchmark%s%s\n",
                paired ? "alternating runs, paired" : "t interval, pooled spread",
                fb__rc_processes(base), fb__rc_processes(now), n_between, n_between == 1 ? "" : "s",
                suite.on ? " and the whole suite" : "");
    if (suite.on) fb__suite_print(f, &suite, &whole); /* src/report_change_suite.c */
    if (n_one)
        fprintf(f,
                "> one process a side for %zu benchmark%s: the spread between processes is "
                "unknown, so the interval is widened by the largest difference measured between "
                "two processes of one binary (%.0f%%) and only a larger change gets a verdict; "
                "run both sides with -repetitions=5, or femtobench-compare -run OLD NEW\n",
                n_one, n_one == 1 ? "" : "s", FB__CHANGE_PROCESS_FLOOR_PCT);
    fprintf(f, "femtobench: %zu benchmark%s against the baseline (threshold %s%%):", total,
            total == 1 ? "" : "s", t);
    for (int v = 0; v < FB__V_COUNT; ++v)
        fprintf(f, "%s %zu %s", v ? "," : "", counts[v], fb__verdict_name((fb__verdict)v));
    if (suite.on) fprintf(f, "; whole suite %s", fb__verdict_name(whole.verdict));
    fputc('\n', f);
    /* a whole suite faster or slower counts, so that -fail_on_slower sees it */
    if (suite.on && (whole.verdict == FB__V_SLOWER || whole.verdict == FB__V_FASTER))
        ++counts[whole.verdict];
done:
    fb__suite_free(&suite);
    free(srow);
    free(eo);
    free(en);
    free(go);
    free(gn);
    free(order);
    free(rows);
    return rc;
}

int fb__change_table(FILE *f, const fb__baseline *base, const fb__baseline *now,
                     double threshold_pct, size_t counts[FB__V_COUNT]) {
    return fb__rc_table(f, base, now, threshold_pct, false, counts, NULL);
}

int fb__change_table_paired(FILE *f, const fb__baseline *base, const fb__baseline *now,
                            double threshold_pct, size_t counts[FB__V_COUNT]) {
    return fb__rc_table(f, base, now, threshold_pct, true, counts, NULL);
}

int fb__change_against(FILE *f, const fb__baseline *base, const fb_bench *now, double threshold_pct,
                       size_t counts[FB__V_COUNT], fb__change_view *view) {
    fb__baseline cur;
    if (fb__baseline_from_bench(now, &cur) != 0) return FB_ENOMEM;
    int rc = fb__rc_table(f, base, &cur, threshold_pct, false, counts, view);
    if (rc == FB_OK) fb__change_counters(f, base, &cur); /* src/report_change_counters.c */
    fb__baseline_free(&cur);
    return rc;
}
