/* femtobench-ab: the verdicts of a suite, the summary, the table and the markdown comment
 * (docs/ab.md; tools/ab/ab.h). */
#define _GNU_SOURCE /* sched_setaffinity, CPU_SET, sched_getcpu, strsignal */

#include "ab.h"
#include "report.h" /* fb__md_text: the runner's table cells */

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

/* ------------------------------------------------------------- verdicts */

/* The fewest kept rounds whose sign-test interval exists at each row's
 * confidence when `family` runs are compared (1 - 0.05 / family): fewer
 * can only give `unsure`. Asked of fb__cmp_interval itself, so that the two
 * never disagree. */
size_t fba_rounds_needed(size_t family) {
    double confidence = 1.0 - (1.0 - FBA_FAMILY_CONFIDENCE) / (double)(family ? family : 1);
    static double v[FBA_MAX_ROUNDS];
    for (size_t n = 1; n <= FBA_MAX_ROUNDS; ++n) {
        double m, lo, hi;
        memset(v, 0, n * sizeof *v);
        if (fb__cmp_interval(v, n, confidence, &m, &lo, &hi)) return n;
    }
    return FBA_MAX_ROUNDS + 1;
}

void fba_judge(fba_report *rep) {
    fba_rows *rows = rep->rows;
    rep->paired = 0;
    for (size_t i = 0; i < rows->n; ++i) rep->paired += rows->v[i]->kind == FBA_PAIRED;
    rep->confidence = 1.0 - (1.0 - FBA_FAMILY_CONFIDENCE) / (double)(rep->paired ? rep->paired : 1);
    rep->needed = fba_rounds_needed(rep->paired);
    for (size_t i = 0; i < rows->n; ++i) {
        fba_row *r = rows->v[i];
        fb__change *c = &r->change;
        c->shift = c->lo = c->hi = c->mw_lo = c->mw_hi = NAN;
        c->change_pct = c->lo_pct = c->hi_pct = NAN;
        c->verdict = FB__V_UNSURE;
        if (r->kind == FBA_NEW) c->verdict = FB__V_NEW;
        if (r->kind == FBA_GONE) c->verdict = FB__V_GONE;
        if (r->kind == FBA_ERROR) {
            if (r->skipped)
                rep->skipped++;
            else
                rep->errors++;
            continue;
        }
        if (r->kind == FBA_PAIRED) {
            if (rep->o->valgrind)
                fb__change_counted_spread(r->ins_old, r->ins_old_lo, r->ins_old_hi, r->ins_new,
                                          r->ins_new_lo, r->ins_new_hi, c);
            else {
                fba_rounds in = {r->lr,      r->lr_layout, r->lr_pass, r->n_lr,
                                 r->layouts, r->passes,    r->lay_old, r->lay_new};
                fba_judge_rounds(&in, rep->confidence, rep->o->threshold_pct, &r->judged);
                *c = r->judged.change;
                r->t_old = r->judged.old_s;
                r->t_new = r->judged.new_s;
            }
        }
        /* no interval at all: too few rounds or layouts kept, whatever they
         * measured (the table's interval cell says which) */
        if (r->kind == FBA_PAIRED && !rep->o->valgrind && !isfinite(c->lo_pct)) {
            rep->undecided++;
            rep->undecided_rounds += !r->judged.random;
        }
        if (r->kind == FBA_PAIRED && !rep->o->valgrind && r->judged.layout_sensitive)
            rep->layout_sensitive++;
        else
            rep->counts[c->verdict]++;
        rep->moment_split += r->kind == FBA_PAIRED && r->judged.moment_split;
    }
}

const char *fba_verdict(const fba_row *r) {
    if (r->kind == FBA_ERROR) return r->skipped ? "skipped" : "error";
    if (r->kind == FBA_PAIRED && r->judged.layout_sensitive) return "layout-sensitive";
    return fb__verdict_name(r->change.verdict);
}

/* The summary line: how many of each verdict. */
void fba_summary(FILE *f, const fba_report *rep) {
    static const fb__verdict order[] = {FB__V_SLOWER, FB__V_FASTER, FB__V_UNSURE,
                                        FB__V_SAME,   FB__V_NEW,    FB__V_GONE};
    size_t total = rep->rows->n;
    fprintf(f, "%zu benchmark%s:", total, total == 1 ? "" : "s");
    bool first = true;
    for (size_t i = 0; i < sizeof order / sizeof order[0]; ++i) {
        if (!rep->counts[order[i]]) continue;
        fprintf(f, "%s %zu %s", first ? "" : ",", rep->counts[order[i]],
                fb__verdict_name(order[i]));
        first = false;
    }
    if (rep->layout_sensitive) {
        fprintf(f, "%s %zu layout-sensitive", first ? "" : ",", rep->layout_sensitive);
        first = false;
    }
    if (rep->skipped) {
        fprintf(f, "%s %zu skipped", first ? "" : ",", rep->skipped);
        first = false;
    }
    if (rep->errors) fprintf(f, "%s %zu failed", first ? "" : ",", rep->errors);
    if (!total) fputs(" none", f);
    if (rep->o->valgrind)
        fputs(" (instructions counted under Callgrind: exact counts compared exactly, counts that "
              "move by their spread)",
              f);
    else if (rep->o->copies)
        fprintf(f,
                " (threshold %g%%, family-wise 95%%, %zu copies a side: where each copy lands "
                "measured, its code layout not",
                rep->o->threshold_pct, rep->o->layouts);
    else if (rep->o->layouts >= FBA_MIN_RANDOM_LAYOUTS)
        fprintf(f, " (threshold %g%%, family-wise 95%%, %zu layouts a side", rep->o->threshold_pct,
                rep->o->layouts);
    else
        fprintf(f,
                " (threshold %g%%, family-wise 95%%, %zu layout%s a side: placement not "
                "measured",
                rep->o->threshold_pct, rep->o->layouts, rep->o->layouts == 1 ? "" : "s");
    /* the machine's state: a verdict holds for a machine in that state */
    if (!rep->o->valgrind && isfinite(rep->o->load[0]) && isfinite(rep->o->load[1])) {
        char a[32], b[32];
        fb__fmt_double(a, sizeof a, rep->o->load[0], 3);
        fb__fmt_double(b, sizeof b, rep->o->load[1], 3);
        fprintf(f, "; load %s then %s", a, b);
    }
    if (!rep->o->valgrind) fputc(')', f);
    fputc('\n', f);
}

static void fba_time(FILE *f, double s) {
    char buf[32];
    if (!(s > 0)) {
        fputs("-", f);
        return;
    }
    fb__svg_si(buf, sizeof buf, s, "s", 4);
    fputs(buf, f);
}

static void fba_num(FILE *f, double v, const char *suffix) {
    char buf[64];
    if (!isfinite(v)) {
        fputs("-", f);
        return;
    }
    fb__svg_fixed(buf, sizeof buf, v, fabs(v) < 10 ? 2 : 1, false);
    fprintf(f, "%s%s%s", v > 0 ? "+" : "", buf, suffix);
}

/* Markdown cells, as the runner's table writes them: '|' escaped, a line
 * break as \n and every other control character as \xNN, so that no name
 * breaks the row or reaches the terminal as a control sequence. */
static void fba_cell(FILE *f, const char *s) { fb__md_text(f, s); }

/* A time per unit: "0.25 ns/byte", or per op "1.2 µs". */
static void fba_time_in(FILE *f, double s, const char *unit) {
    fba_time(f, s);
    if (s > 0 && unit && *unit) {
        fputc('/', f);
        fba_cell(f, unit);
    }
}

/* The thread's CPU time beside a side's time when the two differ (the
 * runner's rule, fb__marks_cpu_differs): " (CPU 0.9 µs)". */
static void fba_time_cpu(FILE *f, double wall_s, double cpu_s, const char *unit) {
    fba_time_in(f, wall_s, unit);
    if (!fb__marks_cpu_differs(wall_s, cpu_s)) return;
    fputs(" (CPU ", f);
    if (cpu_s > 0)
        fba_time_in(f, cpu_s, unit);
    else
        fputs("0", f);
    fputc(')', f);
}

/* A row whose halves in time disagree: both estimates, in words. */
bool fba_moment_text(const fba_row *r, char *buf, size_t len) {
    if (r->kind != FBA_PAIRED || !r->judged.moment_split) return false;
    char a[32], b[32];
    fb__fmt_double(a, sizeof a, r->judged.half_pct[0], 3);
    fb__fmt_double(b, sizeof b, r->judged.half_pct[1], 3);
    snprintf(buf, len, "the machine changed: %s%s%% in the first half, %s%s%% in the second",
             r->judged.half_pct[0] > 0 ? "+" : "", a, r->judged.half_pct[1] > 0 ? "+" : "", b);
    return true;
}

/* The table (stdout and -output_md): one row per run. */
void fba_table(FILE *f, const fba_report *rep) {
    bool vg = rep->o->valgrind;
    if (vg)
        fputs(
            "| benchmark | old (instructions) | new (instructions) | change | spread | verdict |\n"
            "|:--|--:|--:|--:|:--|:--|\n",
            f);
    else
        fprintf(f,
                "| benchmark | old | new | change | interval (%.4g%%) | placement | rounds | "
                "verdict |\n"
                "|:--|--:|--:|--:|:--|--:|--:|:--|\n",
                100 * rep->confidence);
    for (size_t i = 0; i < rep->rows->n; ++i) {
        const fba_row *r = rep->rows->v[i];
        const fb__change *c = &r->change;
        fputs("| ", f);
        fba_cell(f, r->label);
        fputs(" | ", f);
        if (vg) {
            if (isfinite(r->ins_old))
                fprintf(f, "%.10g", r->ins_old);
            else
                fputs("-", f);
            fputs(" | ", f);
            if (isfinite(r->ins_new))
                fprintf(f, "%.10g", r->ins_new);
            else
                fputs("-", f);
            fputs(" | ", f);
            fba_num(f, c->change_pct, "%");
            fputs(" | ", f);
            char note[80] = "-";
            if (r->kind == FBA_PAIRED && isfinite(c->change_pct))
                fb__change_counted_text(note, sizeof note, c);
            fputs(note, f);
        } else {
            fba_time_cpu(f, r->t_old, r->cpu_old, r->unit);
            fputs(" | ", f);
            fba_time_cpu(f, r->t_new, r->cpu_new, r->unit);
            fputs(" | ", f);
            fba_num(f, c->change_pct, "%");
            fputs(" | ", f);
            if (isfinite(c->lo_pct)) {
                fputc('[', f);
                fba_num(f, c->lo_pct, "");
                fputs(", ", f);
                fba_num(f, c->hi_pct, "");
                fputs("]%", f);
            } else if (r->kind == FBA_PAIRED && !r->judged.random && r->n_lr < rep->needed) {
                /* no interval can exist: say why the verdict is unsure */
                fprintf(f, "none: %zu rounds kept, %zu needed", r->n_lr, rep->needed);
            } else if (r->kind == FBA_PAIRED && r->judged.random) {
                fprintf(f, "none: %zu layouts kept, %d needed", r->judged.layouts_used,
                        FBA_MIN_RANDOM_LAYOUTS);
            } else {
                fputs("-", f);
            }
            fputs(" | ", f);
            /* how much placement alone moves the time: the most one
             * side's layouts differ */
            if (r->kind == FBA_PAIRED && isfinite(r->judged.spread_pct)) {
                char sp[32];
                fb__fmt_double(sp, sizeof sp, r->judged.spread_pct,
                               r->judged.spread_pct < 10 ? 2 : 3);
                fprintf(f, "%s%%", sp);
            } else
                fputs("-", f);
            fputs(" | ", f);
            if (r->kind == FBA_PAIRED)
                fprintf(f, "%zu", r->n_lr);
            else
                fputs("-", f);
        }
        fputs(" | ", f);
        if (r->kind == FBA_ERROR) {
            fputs(r->skipped ? "" : "error: ", f);
            fba_cell(f, r->error);
        } else {
            fputs(fba_verdict(r), f);
            char why[160];
            if (!vg && fba_moment_text(r, why, sizeof why)) fprintf(f, " (%s)", why);
        }
        fputs(" |\n", f);
    }
}

int fba_write_md(void *ctx, FILE *f) {
    const fba_report *rep = ctx;
    const fba_opts *o = rep->o;
    fputs("### femtobench-ab: ", f);
    size_t slower = rep->counts[FB__V_SLOWER];
    if (rep->errors)
        fprintf(f, "%zu benchmark%s failed\n\n", rep->errors, rep->errors == 1 ? "" : "s");
    else if (slower)
        fprintf(f, "%zu benchmark%s slower\n\n", slower, slower == 1 ? "" : "s");
    else
        fputs("no benchmark slower\n\n", f);
    fba_summary(f, rep);
    fputs("\n", f);
    fba_table(f, rep);
    fputs("\n<sub>old: `", f);
    fba_cell(f, o->files[0]);
    fputs("`, new: `", f);
    fba_cell(f, o->files[1]);
    fprintf(f, "`; both in one process, paired epoch by epoch (femtobench %s, docs/ab.md). ",
            FB_VERSION_STRING);
    fputs("One process cannot see changes to the femtobench library, link order, LTO or "
          "`main`.</sub>\n",
          f);
    return ferror(f) ? FB_EIO : FB_OK;
}
