/* The change view: a run against a baseline as a value, one row per
 * benchmark (docs/baselines.md), computed here and only printed by
 * src/outputs/report_change.c (the table) and src/outputs/report_html_baseline.c (the chart).
 *
 * Rows are matched by title, name and complexity N (the k-th occurrence of
 * a key in a process with the k-th in the other run), by sorting both sides
 * (O(n log n)); the records of one row in different processes (the
 * runner's passes, -run's runs) are that row's per-process values. Rows
 * follow the current run's order, then the baseline's benchmarks that are
 * gone. A row is compared between processes when a side has more than one
 * (src/outputs/change_between.c, fb__change_between), else over the epochs of the one
 * process a side, widened by the floor between processes. The view's
 * sentences (contexts, method) are src/outputs/change_view_notes.c's. No I/O. */
#include "change.h"
#include "marks.h" /* the CPU-time rule */

#include "stats.h" /* fb__median */
#include "text.h"  /* fb__strdup */

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------ rows: grouping */

/* A record of one side, with its occurrence: the k-th record of its key in
 * its process (a benchmark that runs one name twice has two rows). */
typedef struct fb__cv_ent {
    const fb__bl_record *r;
    size_t i;   /* index in the side */
    size_t occ; /* occurrence of its key within its process */
} fb__cv_ent;

/* One row's side: the records of one key and occurrence, one per process,
 * in process order. */
typedef struct fb__cv_group {
    const fb__cv_ent *e;
    size_t n;
    size_t first; /* smallest index in the side: the order of the table */
    size_t match; /* the other side's group, or SIZE_MAX */
} fb__cv_group;

static int fb__cv_cmp_num(double a, double b) { return (a > b) - (a < b); }

static int fb__cv_cmp_key(const fb__bl_record *a, const fb__bl_record *b) {
    int c = strcmp(a->name, b->name);
    if (!c) c = strcmp(a->title, b->title);
    return c ? c : fb__cv_cmp_num(a->complexity_n, b->complexity_n);
}

static int fb__cv_cmp_size(size_t a, size_t b) { return (a > b) - (a < b); }

/* by key, process, index: the occurrences of a key within a process */
static int fb__cv_cmp_pass(const void *pa, const void *pb) {
    const fb__cv_ent *a = pa, *b = pb;
    int c = fb__cv_cmp_key(a->r, b->r);
    if (!c) c = fb__cv_cmp_size(a->r->pass, b->r->pass);
    return c ? c : fb__cv_cmp_size(a->i, b->i);
}

/* by key, occurrence, process: the rows, each with its processes */
static int fb__cv_cmp_row(const void *pa, const void *pb) {
    const fb__cv_ent *a = pa, *b = pb;
    int c = fb__cv_cmp_key(a->r, b->r);
    if (!c) c = fb__cv_cmp_size(a->occ, b->occ);
    if (!c) c = fb__cv_cmp_size(a->r->pass, b->r->pass);
    return c ? c : fb__cv_cmp_size(a->i, b->i);
}

static int fb__cv_cmp_group(const fb__cv_group *a, const fb__cv_group *b) {
    int c = fb__cv_cmp_key(a->e[0].r, b->e[0].r);
    return c ? c : fb__cv_cmp_size(a->e[0].occ, b->e[0].occ);
}

/* The rows of one side, sorted by key and occurrence: O(n log n). */
static int fb__cv_side(const fb__baseline *bl, fb__cv_ent **ents, fb__cv_group **groups,
                       size_t *n_groups) {
    size_t n = bl->n;
    fb__cv_ent *e = malloc((n ? n : 1) * sizeof *e);
    fb__cv_group *g = malloc((n ? n : 1) * sizeof *g);
    *ents = e;
    *groups = g;
    *n_groups = 0;
    if (!e || !g) return FB_ENOMEM;
    for (size_t i = 0; i < n; ++i) e[i] = (fb__cv_ent){&bl->rec[i], i, 0};
    qsort(e, n, sizeof *e, fb__cv_cmp_pass);
    for (size_t i = 1; i < n; ++i)
        if (!fb__cv_cmp_key(e[i].r, e[i - 1].r) && e[i].r->pass == e[i - 1].r->pass)
            e[i].occ = e[i - 1].occ + 1;
    qsort(e, n, sizeof *e, fb__cv_cmp_row);
    for (size_t i = 0; i < n;) {
        size_t j = i + 1, first = e[i].i;
        while (j < n && !fb__cv_cmp_key(e[j].r, e[i].r) && e[j].occ == e[i].occ) {
            if (e[j].i < first) first = e[j].i;
            ++j;
        }
        g[(*n_groups)++] = (fb__cv_group){e + i, j - i, first, SIZE_MAX};
        i = j;
    }
    return FB_OK;
}

/* ------------------------------------------------ rows: values */

static bool fb__cv_failed(const fb__cv_group *g) {
    for (size_t k = 0; k < g->n; ++k)
        if (g->e[k].r->error || (!g->e[k].r->counted && g->e[k].r->epochs == 0)) return true;
    return false;
}

static bool fb__cv_counted(const fb__cv_group *g) {
    for (size_t k = 0; k < g->n; ++k)
        if (!g->e[k].r->counted) return false;
    return true;
}

/* The geometric mean of s[0..n) with a time of 0 counted as 1 fs, as
 * fb__change_between takes it: the value whose ratio is the change. */
static double fb__cv_geomean(const double *s, size_t n) {
    if (!n) return NAN;
    double sum = 0;
    for (size_t k = 0; k < n; ++k) sum += log(s[k] > 1e-15 ? s[k] : 1e-15);
    return exp(sum / (double)n);
}

/* The median over the group's processes of each one's exact count per
 * unit; NAN when failed or on no memory. */
static double fb__cv_count(const fb__cv_group *g) {
    if (!g || !g->n || fb__cv_failed(g)) return NAN;
    double *v = malloc(g->n * sizeof *v);
    if (!v) return NAN;
    for (size_t k = 0; k < g->n; ++k) v[k] = g->e[k].r->ins_per_unit;
    double m = fb__median(v, g->n);
    free(v);
    return m;
}

/* A record's median time per unit: the wall time's, or (cpu) the thread's
 * CPU time's (NAN when not recorded). */
static double fb__cv_median(const fb__bl_record *r, bool cpu) {
    return cpu ? r->cpu_median_s : r->median_s;
}

/* The geometric mean over the group's processes of each one's median time
 * per unit (one process: its median); NAN when failed or on no memory, and
 * for the CPU time when a process has none. */
static double fb__cv_time(const fb__cv_group *g, bool cpu) {
    if (!g || !g->n || fb__cv_failed(g)) return NAN;
    if (g->n == 1) return fb__cv_median(g->e[0].r, cpu);
    for (size_t k = 0; k < g->n; ++k)
        if (isnan(fb__cv_median(g->e[k].r, cpu))) return NAN;
    double *v = malloc(g->n * sizeof *v);
    if (!v) return NAN;
    for (size_t k = 0; k < g->n; ++k) v[k] = fb__cv_median(g->e[k].r, cpu);
    double m = fb__cv_geomean(v, g->n);
    free(v);
    return m;
}

/* The side of a row from its group (NULL: absent). FB_OK or FB_ENOMEM. */
static int fb__cv_side_value(const fb__cv_group *g, fb__change_side *s) {
    memset(s, 0, sizeof *s);
    s->value_s = s->ins_per_unit = s->ins_lo = s->ins_hi = s->cpu_s = NAN;
    if (!g) return FB_OK;
    s->present = true;
    s->failed = fb__cv_failed(g);
    s->counted = fb__cv_counted(g);
    s->value_s = fb__cv_time(g, false);
    s->cpu_s = fb__cv_time(g, true);
    s->ins_per_unit = fb__cv_count(g);
    s->ins_lo = s->ins_hi = s->ins_per_unit;
    for (size_t k = 0; s->counted && !s->failed && k < g->n; ++k) {
        const fb__bl_record *r = g->e[k].r;
        if (r->ins_lo_per_unit < s->ins_lo) s->ins_lo = r->ins_lo_per_unit;
        if (r->ins_hi_per_unit > s->ins_hi) s->ins_hi = r->ins_hi_per_unit;
    }
    s->unit = fb__strdup(g->e[0].r->unit);
    return s->unit ? FB_OK : FB_ENOMEM;
}

static int fb__cv_kind(const fb__cv_group *o, const fb__cv_group *n, bool paired) {
    if (!o) return FB__CHANGE_ROW_NEW;
    if (!n) return FB__CHANGE_ROW_GONE;
    if (fb__cv_failed(o) || fb__cv_failed(n)) return FB__CHANGE_ROW_FAILED;
    if (fb__cv_counted(o) || fb__cv_counted(n)) return FB__CHANGE_ROW_COUNTED;
    if (paired) {
        size_t pairs = 0;
        for (size_t a = 0, b = 0; a < o->n && b < n->n;) {
            unsigned pa = o->e[a].r->pass, pb = n->e[b].r->pass;
            if (pa == pb) ++pairs;
            a += pa <= pb;
            b += pb <= pa;
        }
        return pairs >= 2 ? FB__CHANGE_ROW_BETWEEN : FB__CHANGE_ROW_FEW;
    }
    return o->n == 1 && n->n == 1 ? FB__CHANGE_ROW_ONE : FB__CHANGE_ROW_BETWEEN;
}

/* The per-process medians of the two sides (paired: of the processes both
 * sides have, in pairs). Returns FB_OK or FB_ENOMEM. */
static int fb__cv_values(const fb__cv_group *o, const fb__cv_group *w, bool paired, bool cpu,
                         double **vo, size_t *m, double **vn, size_t *n) {
    *vo = malloc(o->n * sizeof **vo);
    *vn = malloc(w->n * sizeof **vn);
    *m = *n = 0;
    if (!*vo || !*vn) return FB_ENOMEM;
    if (!paired) {
        for (size_t k = 0; k < o->n; ++k) (*vo)[(*m)++] = fb__cv_median(o->e[k].r, cpu);
        for (size_t k = 0; k < w->n; ++k) (*vn)[(*n)++] = fb__cv_median(w->e[k].r, cpu);
        return FB_OK;
    }
    for (size_t a = 0, b = 0; a < o->n && b < w->n;) {
        unsigned pa = o->e[a].r->pass, pb = w->e[b].r->pass;
        if (pa == pb) {
            (*vo)[(*m)++] = fb__cv_median(o->e[a].r, cpu);
            (*vn)[(*n)++] = fb__cv_median(w->e[b].r, cpu);
        }
        a += pa <= pb;
        b += pb <= pa;
    }
    return FB_OK;
}

/* The critical t values of a view, one per degrees of freedom, computed
 * when first needed (every row of a view has the same alpha). */
typedef struct fb__cv_tcache {
    double alpha;
    double *t; /* [max_df + 1], NAN until computed */
    size_t max_df;
} fb__cv_tcache;

static double fb__cv_t(fb__cv_tcache *c, unsigned df) {
    if (df == 0) return NAN;
    if (df > c->max_df || !c->t) return fb__change_t_quantile(c->alpha, df);
    if (isnan(c->t[df])) c->t[df] = fb__change_t_quantile(c->alpha, df);
    return c->t[df];
}

/* Whether a side's CPU time and wall time differ (fb__marks_cpu_differs). */
static bool fb__cv_cpu_differs(const fb__change_side *sd) {
    return fb__marks_cpu_differs(sd->value_s, sd->cpu_s);
}

/* A timed row's CPU change: the ratio of the two CPU values it shows. */
static void fb__cv_cpu(fb__change_row *row) {
    row->cpu_change_pct = NAN;
    row->cpu_differs = false;
    if (row->kind != FB__CHANGE_ROW_ONE && row->kind != FB__CHANGE_ROW_BETWEEN) return;
    const fb__change_side *a = &row->old, *b = &row->now;
    if (!(a->cpu_s > 0) || !isfinite(a->cpu_s) || !isfinite(b->cpu_s)) return;
    row->cpu_change_pct = 100.0 * (b->cpu_s / a->cpu_s - 1.0);
    row->cpu_differs = fb__cv_cpu_differs(a) || fb__cv_cpu_differs(b);
}

/* Compares one row (its kind and sides already set). FB_OK or FB_ENOMEM. */
static int fb__cv_compare(fb__change_row *row, const fb__cv_group *o, const fb__cv_group *w,
                          bool paired, fb__cv_tcache *tc, double threshold_pct) {
    fb__change *c = &row->change;
    memset(c, 0, sizeof *c);
    c->shift = c->mw_lo = c->mw_hi = c->lo = c->hi = NAN;
    c->change_pct = c->lo_pct = c->hi_pct = NAN;
    c->verdict = FB__V_UNSURE;
    int rc = FB_OK;
    if (row->kind == FB__CHANGE_ROW_NEW) {
        c->verdict = FB__V_NEW;
    } else if (row->kind == FB__CHANGE_ROW_GONE) {
        c->verdict = FB__V_GONE;
    } else if (row->kind == FB__CHANGE_ROW_COUNTED) {
        const fb__change_side *a = &row->old, *b = &row->now;
        fb__change_counted_spread(a->counted ? a->ins_per_unit : NAN, a->ins_lo, a->ins_hi,
                                  b->counted ? b->ins_per_unit : NAN, b->ins_lo, b->ins_hi, c);
    } else if (row->kind == FB__CHANGE_ROW_ONE) {
        const fb__bl_record *a = o->e[0].r, *b = w->e[0].r;
        fb__change_one_process(a->per_unit_s, a->epochs, a->err_pct, b->per_unit_s, b->epochs,
                               b->err_pct, threshold_pct, c);
    } else if (row->kind == FB__CHANGE_ROW_BETWEEN) {
        double *vo = NULL, *vn = NULL;
        size_t m, n;
        rc = fb__cv_values(o, w, paired, false, &vo, &m, &vn, &n);
        if (rc == FB_OK) {
            fb__change_between_t(vo, m, vn, n, paired,
                                 fb__cv_t(tc, fb__change_between_df(m, n, paired)), threshold_pct,
                                 c);
            /* the values shown are those the change was computed from: with
             * pairs, over the processes that have a pair */
            row->old.value_s = fb__cv_geomean(vo, m);
            row->now.value_s = fb__cv_geomean(vn, n);
        }
        free(vo);
        free(vn);
        vo = vn = NULL;
        /* the CPU time over the same processes */
        if (rc == FB_OK && !isnan(row->old.cpu_s) && !isnan(row->now.cpu_s)) {
            rc = fb__cv_values(o, w, paired, true, &vo, &m, &vn, &n);
            if (rc == FB_OK) {
                row->old.cpu_s = fb__cv_geomean(vo, m);
                row->now.cpu_s = fb__cv_geomean(vn, n);
            }
            free(vo);
            free(vn);
        }
    }
    if (rc == FB_OK) fb__cv_cpu(row);
    return rc;
}

static int fb__cv_cmp_first(const void *pa, const void *pb) {
    const fb__cv_group *const *a = pa, *const *b = pb;
    return fb__cv_cmp_size((*a)->first, (*b)->first);
}

static int fb__cv_cmp_unsigned(const void *pa, const void *pb) {
    unsigned a = *(const unsigned *)pa, b = *(const unsigned *)pb;
    return (a > b) - (a < b);
}

/* The processes a side ran in: the number of distinct `pass` values. */
static size_t fb__cv_processes(const fb__baseline *bl) {
    unsigned *p = malloc((bl->n ? bl->n : 1) * sizeof *p);
    if (!p) return 0;
    for (size_t i = 0; i < bl->n; ++i) p[i] = bl->rec[i].pass;
    size_t k = 0;
    qsort(p, bl->n, sizeof *p, fb__cv_cmp_unsigned);
    for (size_t i = 0; i < bl->n; ++i) k += i == 0 || p[i] != p[i - 1];
    free(p);
    return k;
}

/* A row's identity and sides. FB_OK or FB_ENOMEM. */
static int fb__cv_row_init(fb__change_row *row, const fb__cv_group *o, const fb__cv_group *w,
                           int kind) {
    const fb__bl_record *r = w ? w->e[0].r : o->e[0].r;
    row->kind = kind;
    row->complexity_n = r->complexity_n;
    row->name = fb__strdup(r->name);
    row->title = fb__strdup(r->title);
    int rc = row->name && row->title ? FB_OK : FB_ENOMEM;
    if (fb__cv_side_value(o, &row->old) != FB_OK) rc = FB_ENOMEM;
    if (fb__cv_side_value(w, &row->now) != FB_OK) rc = FB_ENOMEM;
    return rc;
}

int fb__change_view_compute(const fb__baseline *base, const fb__baseline *now, double threshold_pct,
                            bool paired, fb__change_view *out) {
    memset(out, 0, sizeof *out);
    out->threshold_pct = threshold_pct;
    out->paired = paired;
    fb__change_view_contexts(out, &base->ctx, &now->ctx);
    fb__cv_ent *eo = NULL, *en = NULL;
    fb__cv_group *go = NULL, *gn = NULL;
    const fb__cv_group **order = NULL, **olds = NULL;
    size_t no = 0, nn = 0;
    int rc = fb__cv_side(base, &eo, &go, &no);
    if (rc == FB_OK) rc = fb__cv_side(now, &en, &gn, &nn);
    if (rc == FB_OK) {
        order = malloc((no + nn + 1) * sizeof *order);
        olds = malloc((no + nn + 1) * sizeof *olds);
        out->rows = calloc(no + nn + 1, sizeof *out->rows);
        if (!order || !olds || !out->rows) rc = FB_ENOMEM;
    }
    if (rc != FB_OK) goto done;
    /* both sides are sorted by key and occurrence: match them in one walk */
    for (size_t a = 0, b = 0; a < no && b < nn;) {
        int c = fb__cv_cmp_group(&go[a], &gn[b]);
        if (c == 0) {
            go[a].match = b;
            gn[b].match = a;
        }
        a += c <= 0;
        b += c >= 0;
    }
    /* the current run's order, then the baseline's benchmarks that are
     * gone: order[i] is row i's current side, olds[i] its baseline side */
    for (size_t b = 0; b < nn; ++b) order[b] = &gn[b];
    qsort(order, nn, sizeof *order, fb__cv_cmp_first);
    size_t n_rows = nn;
    for (size_t b = 0; b < nn; ++b)
        olds[b] = order[b]->match == SIZE_MAX ? NULL : &go[order[b]->match];
    for (size_t a = 0; a < no; ++a)
        if (go[a].match == SIZE_MAX) olds[n_rows++] = &go[a];
    qsort(olds + nn, n_rows - nn, sizeof *olds, fb__cv_cmp_first);
    for (size_t i = nn; i < n_rows; ++i) order[i] = NULL;
    for (size_t i = 0; i < n_rows && rc == FB_OK; ++i) {
        out->n = i + 1; /* cleared on failure, with what it holds */
        rc = fb__cv_row_init(&out->rows[i], olds[i], order[i],
                             order[i] ? fb__cv_kind(olds[i], order[i], paired)
                                      : FB__CHANGE_ROW_GONE);
    }
    /* family-wise over the rows compared between processes (Bonferroni) */
    for (size_t i = 0; i < out->n; ++i) {
        out->n_between += out->rows[i].kind == FB__CHANGE_ROW_BETWEEN;
        out->n_one += out->rows[i].kind == FB__CHANGE_ROW_ONE;
    }
    fb__cv_tcache tc = {FB__CHANGE_ALPHA / (double)(out->n_between ? out->n_between : 1), NULL,
                        base->n + now->n};
    if (rc == FB_OK) tc.t = malloc((tc.max_df + 1) * sizeof *tc.t);
    for (size_t k = 0; tc.t && k <= tc.max_df; ++k) tc.t[k] = NAN;
    for (size_t i = 0; i < out->n && rc == FB_OK; ++i) {
        rc = fb__cv_compare(&out->rows[i], olds[i], order[i], paired, &tc, threshold_pct);
        ++out->counts[out->rows[i].change.verdict];
        out->n_cpu += out->rows[i].cpu_differs;
    }
    free(tc.t);
    out->processes_old = fb__cv_processes(base);
    out->processes_now = fb__cv_processes(now);
    fb__change_view_method(out);
done:
    free(eo);
    free(en);
    free(go);
    free(gn);
    free(order);
    free(olds);
    if (rc != FB_OK) {
        fb__change_view_clear(out);
        out->threshold_pct = threshold_pct;
        out->paired = paired;
    }
    return rc;
}

void fb__change_view_clear(fb__change_view *v) {
    if (!v) return;
    for (size_t i = 0; i < v->n; ++i) {
        free(v->rows[i].name);
        free(v->rows[i].title);
        free(v->rows[i].old.unit);
        free(v->rows[i].now.unit);
    }
    free(v->rows);
    memset(v, 0, sizeof *v);
}

fb__change_view *fb__change_view_new(void) { return calloc(1, sizeof(fb__change_view)); }

void fb__change_view_free(fb__change_view *v) {
    fb__change_view_clear(v);
    free(v);
}
