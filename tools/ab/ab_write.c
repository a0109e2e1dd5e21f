/* femtobench-ab: the JSON and the HTML page (docs/ab.md; tools/ab/ab.h). */
#define _GNU_SOURCE /* sched_setaffinity, CPU_SET, sched_getcpu, strsignal */

#include "ab.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

const fb__output_spec fba_outputs[FBA_N_OUT] = {
    {"output_json", "the comparison as JSON", NULL, fba_write_json},
    {"output_md", "the comparison as a markdown pull-request comment", NULL, fba_write_md},
    {"output_html", "the comparison as an HTML page with a forest plot", NULL, fba_write_html},
};

static void fba_json_kfinite(fb__json *j, const char *key, double v) {
    if (isfinite(v))
        fb__json_knum(j, key, v);
    else
        fb__json_knull(j, key);
}

int fba_write_json(void *ctx, FILE *f) {
    const fba_report *rep = ctx;
    const fba_opts *o = rep->o;
    fb__json j;
    fb__json_init(&j, f);
    fb__json_obj(&j, NULL, false);
    fb__json_obj(&j, "context", false);
    fb__json_kstr(&j, "femtobench_version", FB_VERSION_STRING);
    fb__json_kstr(&j, "old", o->files[0]);
    fb__json_kstr(&j, "new", o->files[1]);
    fb__json_kstr(&j, "mode", o->valgrind ? "valgrind" : "timed");
    fb__json_knum(&j, "threshold_pct", o->threshold_pct);
    fb__json_kint(&j, "rounds", o->rounds);
    fb__json_knum(&j, "min_time_ms", o->min_time_ms);
    fb__json_knum(&j, "confidence", rep->confidence);
    fb__json_knum(&j, "family_confidence", FBA_FAMILY_CONFIDENCE);
    fb__json_knum(&j, "wall_s", rep->wall_s);
    /* each side's files (its layouts, the first as given) */
    for (int sd = 0; sd < 2; ++sd) {
        fb__json_arr(&j, sd ? "new_layouts" : "old_layouts", true);
        for (size_t l = 0; l < o->layouts; ++l) fb__json_kstr(&j, NULL, o->layout[sd][l]);
        fb__json_end_arr(&j);
    }
    fb__json_kint(&j, "layouts", (long long)o->layouts);
    fb__json_kbool(&j, "placement_measured", o->layouts >= FBA_MIN_RANDOM_LAYOUTS && !o->valgrind);
    /* the layouts are copies of one file a side (-instances): where each
     * copy lands is measured, the code's layout is not */
    fb__json_kbool(&j, "copies", o->copies);
    fba_json_kfinite(&j, "load_before", o->load[0]);
    fba_json_kfinite(&j, "load_after", o->load[1]);
    fb__json_arr(&j, "warnings", false);
    for (size_t w = 0; w < o->env.count; ++w) fb__json_kstr(&j, NULL, o->env.w[w].what);
    fb__json_end_arr(&j);
    fb__json_end_obj(&j);
    fb__json_obj(&j, "summary", true);
    for (int v = 0; v < FB__V_COUNT; ++v)
        fb__json_kint(&j, fb__verdict_name((fb__verdict)v), (long long)rep->counts[v]);
    fb__json_kint(&j, "layout-sensitive", (long long)rep->layout_sensitive);
    fb__json_kint(&j, "skipped", (long long)rep->skipped);
    fb__json_kint(&j, "error", (long long)rep->errors);
    fb__json_end_obj(&j);
    fb__json_arr(&j, "benchmarks", false);
    for (size_t i = 0; i < rep->rows->n; ++i) {
        const fba_row *r = rep->rows->v[i];
        fb__json_obj(&j, NULL, false);
        fb__json_kstr(&j, "name", r->label);
        fb__json_kstr(&j, "run", r->name);
        if (r->n > 0)
            fb__json_knum(&j, "n", r->n);
        else
            fb__json_knull(&j, "n");
        fb__json_kstr(&j, "verdict", fba_verdict(r));
        if (r->kind == FBA_ERROR)
            fb__json_kstr(&j, "error", r->error);
        else
            fb__json_knull(&j, "error");
        fba_json_kfinite(&j, "old_s", r->t_old); /* per unit */
        fba_json_kfinite(&j, "new_s", r->t_new);
        /* the thread's CPU time per unit over the same rounds (null when
         * not read: a plugin before interface 4, manual timing) */
        fba_json_kfinite(&j, "old_cpu_s", r->cpu_old);
        fba_json_kfinite(&j, "new_cpu_s", r->cpu_new);
        if (r->unit[0])
            fb__json_kstr(&j, "unit", r->unit);
        else
            fb__json_knull(&j, "unit");
        fb__json_knum(&j, "batch", r->batch[r->kind == FBA_NEW ? 1 : 0]);
        fba_json_kfinite(&j, "old_instructions", r->ins_old);
        fba_json_kfinite(&j, "new_instructions", r->ins_new);
        /* the least and most of each side's counted pairs (equal to the
         * count when exact), and whether the verdict took them into account */
        fba_json_kfinite(&j, "old_instructions_low", r->ins_old_lo);
        fba_json_kfinite(&j, "old_instructions_high", r->ins_old_hi);
        fba_json_kfinite(&j, "new_instructions_low", r->ins_new_lo);
        fba_json_kfinite(&j, "new_instructions_high", r->ins_new_hi);
        if (r->kind == FBA_PAIRED && o->valgrind && isfinite(r->change.change_pct))
            fb__json_kstr(&j, "spread",
                          r->change.spread == FB__SPREAD_NONE     ? "exact"
                          : r->change.spread == FB__SPREAD_WITHIN ? "within"
                                                                  : "beyond");
        else
            fb__json_knull(&j, "spread");
        fba_json_kfinite(&j, "change_pct", r->change.change_pct);
        fba_json_kfinite(&j, "low_pct", r->change.lo_pct);
        fba_json_kfinite(&j, "high_pct", r->change.hi_pct);
        fb__json_ku64(&j, "iterations", r->iterations);
        fb__json_ku64(&j, "rounds", r->rounds);
        fb__json_ku64(&j, "rounds_used", r->n_lr);
        fb__json_ku64(&j, "rounds_disturbed", r->dropped);
        bool timed = r->kind == FBA_PAIRED && !o->valgrind;
        fba_json_kfinite(&j, "placement_spread_pct", timed ? r->judged.spread_pct : NAN);
        fb__json_kbool(&j, "layout_sensitive", timed && r->judged.layout_sensitive);
        fb__json_kbool(&j, "moment_split", timed && r->judged.moment_split);
        fba_json_kfinite(&j, "first_half_pct", timed ? r->judged.half_pct[0] : NAN);
        fba_json_kfinite(&j, "second_half_pct", timed ? r->judged.half_pct[1] : NAN);
        fb__json_arr(&j, "by_layout", false);
        for (size_t l = 0; timed && l < r->layouts; ++l) {
            fb__json_obj(&j, NULL, true);
            fba_json_kfinite(&j, "old_s", r->lay_old[l]);
            fba_json_kfinite(&j, "new_s", r->lay_new[l]);
            fb__json_end_obj(&j);
        }
        fb__json_end_arr(&j);
        fb__json_end_obj(&j);
    }
    fb__json_end_arr(&j);
    fb__json_end_obj(&j);
    fputc('\n', f);
    return fb__writer_finish(f);
}

static void fba_html_text(FILE *f, const char *s) { fb__svg_text(f, s); }

static int fba_html_verdict(const fba_row *r) {
    if (r->kind == FBA_ERROR) return FB__HTML_UNKNOWN;
    switch (r->change.verdict) {
    case FB__V_FASTER:
        return FB__HTML_FASTER;
    case FB__V_SLOWER:
        return FB__HTML_SLOWER;
    case FB__V_SAME:
        return FB__HTML_SAME;
    case FB__V_NEW:
        return FB__HTML_NEW;
    case FB__V_GONE:
        return FB__HTML_GONE;
    default:
        return FB__HTML_UNSURE;
    }
}

/* The page: the summary, a forest plot of new / old with each interval,
 * and the change chart and table (src/outputs/report_html_compare.c's), under the
 * report's style sheet and its policy (no script, no request). */
static void fba_html_time(FILE *f, double s, const char *unit) {
    char buf[48] = "-";
    if (s > 0 && isfinite(s))
        fb__svg_si(buf, sizeof buf, s, "s", 4);
    else if (s == 0)
        strcpy(buf, "0");
    fba_html_text(f, buf);
    if (strcmp(buf, "-") != 0 && unit && *unit) {
        fputc('/', f);
        fba_html_text(f, unit);
    }
}

/* Each side's time beside its thread's CPU time over the same rounds: the
 * two agree unless the op waits (a sleep, I/O, a lock) or the rounds kept
 * were off the CPU; the table and markdown show the CPU time only where
 * they differ (fb__marks_cpu_differs). */
static void fba_html_cpu(FILE *f, const fba_report *rep) {
    fputs("<section class=\"change\">\n<h2>Time and CPU time</h2>\n<p class=\"sub\">", f);
    fba_html_text(f, "The thread's CPU time per unit over the same rounds; \"-\" where it was not "
                     "read (manual timing, or a plugin built before femtobench-ab read it).");
    fputs("</p>\n<table class=\"change\">\n<thead><tr><th class=\"name\">benchmark</th>"
          "<th>old</th><th>old CPU</th><th>new</th><th>new CPU</th></tr></thead>\n<tbody>\n",
          f);
    for (size_t i = 0; i < rep->rows->n; ++i) {
        const fba_row *r = rep->rows->v[i];
        fputs("<tr><td class=\"name\"><code>", f);
        fba_html_text(f, r->label);
        fputs("</code></td><td>", f);
        fba_html_time(f, r->t_old, r->unit);
        fputs("</td><td>", f);
        fba_html_time(f, r->cpu_old, r->unit);
        fputs("</td><td>", f);
        fba_html_time(f, r->t_new, r->unit);
        fputs("</td><td>", f);
        fba_html_time(f, r->cpu_new, r->unit);
        fputs("</td></tr>\n", f);
    }
    fputs("</tbody></table>\n</section>\n", f);
}

int fba_write_html(void *ctx, FILE *f) {
    const fba_report *rep = ctx;
    size_t n = rep->rows->n;
    const char **names = calloc(n + 1, sizeof *names);
    double *v = calloc(8 * (n + 1), sizeof *v);
    int *verdict = calloc(n + 1, sizeof *verdict);
    if (!names || !v || !verdict) {
        free(names);
        free(v);
        free(verdict);
        return FB_ENOMEM;
    }
    double *ratio = v, *lo = v + n + 1, *hi = v + 2 * (n + 1), *t_old = v + 3 * (n + 1),
           *t_new = v + 4 * (n + 1), *pct = v + 5 * (n + 1), *lo_pct = v + 6 * (n + 1),
           *hi_pct = v + 7 * (n + 1);
    bool vg = rep->o->valgrind;
    for (size_t i = 0; i < n; ++i) {
        const fba_row *r = rep->rows->v[i];
        names[i] = r->label;
        const fb__change *c = &r->change;
        ratio[i] = isfinite(c->change_pct) ? 1 + c->change_pct / 100 : NAN;
        lo[i] = isfinite(c->lo_pct) ? 1 + c->lo_pct / 100 : NAN;
        hi[i] = isfinite(c->hi_pct) ? 1 + c->hi_pct / 100 : NAN;
        t_old[i] = vg ? r->ins_old : r->t_old;
        t_new[i] = vg ? r->ins_new : r->t_new;
        pct[i] = c->change_pct;
        lo_pct[i] = c->lo_pct;
        hi_pct[i] = c->hi_pct;
        verdict[i] = fba_html_verdict(r);
    }
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          "<meta http-equiv=\"Content-Security-Policy\" "
          "content=\"default-src 'none'; style-src 'unsafe-inline'\">\n"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
          "<title>femtobench-ab</title>\n<style>",
          f);
    fputs(fb__html_style(), f);
    fputs("</style>\n</head>\n<body>\n<header>\n<h1>femtobench-ab: old and new in one "
          "process</h1>\n<p class=\"sub\">",
          f);
    char buf[4096] = "";
    FILE *m = fmemopen(buf, sizeof buf - 1, "w");
    if (m) {
        fba_summary(m, rep);
        fclose(m);
        buf[strcspn(buf, "\n")] = '\0';
    }
    fba_html_text(f, buf);
    fputs("</p>\n<p class=\"sub\">old: <code>", f);
    fba_html_text(f, rep->o->files[0]);
    fputs("</code>, new: <code>", f);
    fba_html_text(f, rep->o->files[1]);
    fputs("</code></p>\n</header>\n<main>\n", f);
    fb__html_forest(f,
                    vg ? "new / old (instructions per unit; below 1 is fewer)"
                       : "new / old (time per unit; below 1 is faster)",
                    n, names, ratio, lo, hi);
    fb__html_change_bars(f, "Change of each benchmark (new against old)", n, names, t_old, t_new,
                         pct, lo_pct, hi_pct, verdict);
    if (vg) { /* the counts, and what each verdict made of their spreads */
        fputs("<section class=\"change\">\n<h2>Instructions counted under Callgrind</h2>\n"
              "<table class=\"change\">\n<thead><tr><th class=\"name\">benchmark</th>"
              "<th>old</th><th>new</th><th class=\"name\">spread</th>"
              "<th class=\"name\">verdict</th></tr></thead>\n<tbody>\n",
              f);
        for (size_t i = 0; i < n; ++i) {
            const fba_row *r = rep->rows->v[i];
            char note[80] = "-";
            if (r->kind == FBA_PAIRED && isfinite(r->change.change_pct))
                fb__change_counted_text(note, sizeof note, &r->change);
            fputs("<tr><td class=\"name\"><code>", f);
            fba_html_text(f, r->label);
            fputs("</code></td><td>", f);
            if (isfinite(r->ins_old)) fprintf(f, "%.10g", r->ins_old);
            fputs("</td><td>", f);
            if (isfinite(r->ins_new)) fprintf(f, "%.10g", r->ins_new);
            fputs("</td><td class=\"name\">", f);
            fba_html_text(f, note);
            fputs("</td><td class=\"name\">", f);
            fba_html_text(f, fba_verdict(r));
            fputs("</td></tr>\n", f);
        }
        fputs("</tbody></table>\n</section>\n", f);
    }
    if (!vg) { /* how much placement alone moves each row */
        fprintf(f,
                "<section class=\"change\">\n<h2>Code placement (%zu %s%s a side)</h2>\n"
                "<p class=\"sub\">",
                rep->o->layouts, rep->o->copies ? "cop" : "layout",
                rep->o->copies ? (rep->o->layouts == 1 ? "y" : "ies")
                               : (rep->o->layouts == 1 ? "" : "s"));
        fba_html_text(f, rep->o->copies
                             ? "Each side was measured in copies of its one file, each loaded "
                               "at its own address with its own data; the change's interval "
                               "spans them. The code's own layout was not varied: build layout "
                               "variants for that (docs/ab.md, \"Code layout\")."
                         : rep->o->layouts >= FBA_MIN_RANDOM_LAYOUTS
                             ? "Each side was measured under every layout; the change's interval "
                               "spans them. Spread: how much the time moves with placement alone "
                               "(the most one side's layouts differ)."
                             : "Placement not measured: build layout variants (docs/ab.md, "
                               "\"Code layout\").");
        fputs("</p>\n<table class=\"change\">\n<thead><tr><th class=\"name\">benchmark</th>"
              "<th>spread</th><th class=\"name\">verdict</th></tr></thead>\n<tbody>\n",
              f);
        for (size_t i = 0; i < n; ++i) {
            const fba_row *r = rep->rows->v[i];
            char sp[32] = "-", why[160];
            if (r->kind == FBA_PAIRED && isfinite(r->judged.spread_pct)) {
                fb__fmt_double(sp, sizeof sp - 1, r->judged.spread_pct, 3);
                strcat(sp, "%");
            }
            fputs("<tr><td class=\"name\"><code>", f);
            fba_html_text(f, r->label);
            fputs("</code></td><td>", f);
            fba_html_text(f, sp);
            fputs("</td><td class=\"name\">", f);
            fba_html_text(f, fba_verdict(r));
            if (fba_moment_text(r, why, sizeof why)) {
                fputs(" (", f);
                fba_html_text(f, why);
                fputs(")", f);
            }
            fputs("</td></tr>\n", f);
        }
        fputs("</tbody></table>\n</section>\n", f);
        fba_html_cpu(f, rep);
    }
    fputs("</main>\n</body>\n</html>\n", f);
    free(names);
    free(v);
    free(verdict);
    return fb__writer_finish(f);
}
