/* The markdown table's last column (src/outputs/report_markdown.c writes the
 * others): text escaped for a cell, a name as a code span, and a row's
 * name cell: the marks before the name, its label, and the notes after it
 * (the error; descheduled or unstable epochs, a group's threads, the CPU
 * time, a slow core, the marks of src/stats/marks.c, Callgrind's spread).
 * Reads results, never measures. */
#include "report.h"
#include "marks.h" /* the CPU-time rule */

#include "numfmt.h"
#include "text.h"
#include "valgrind.h" /* counted results (-valgrind) */

#include <math.h>
#include <string.h>

/* Writes s for a table cell: `|` escaped, control characters made visible,
 * so that no name or title can break the row. */
void fb__md_text(FILE *f, const char *s) {
    for (const unsigned char *p = (const unsigned char *)s; *p; ++p) {
        if (*p == '|')
            fputs("\\|", f);
        else if (*p == '\n')
            fputs("\\n", f);
        else if (*p == '\r')
            fputs("\\r", f);
        else if (*p == '\t')
            fputs("\\t", f);
        else if (*p < 0x20 || *p == 0x7f)
            fprintf(f, "\\x%02x", *p);
        else
            fputc(*p, f);
    }
}

/* The name as a markdown code span: a fence longer than any run of
 * backticks inside, padded with a space when the name starts or ends with a
 * backtick (CommonMark strips one space on each side). */
void fb__md_code(FILE *f, const char *s) {
    size_t run = 0, longest = 0;
    for (const char *p = s; *p; ++p) {
        run = *p == '`' ? run + 1 : 0;
        if (run > longest) longest = run;
    }
    size_t len = strlen(s);
    bool pad = len && (s[0] == '`' || s[len - 1] == '`' || s[0] == ' ');
    for (size_t i = 0; i <= longest; ++i) fputc('`', f);
    if (pad) fputc(' ', f);
    fb__md_text(f, s);
    if (pad) fputc(' ', f);
    for (size_t i = 0; i <= longest; ++i) fputc('`', f);
}

/* The row's label (fb_set_label), after its name: " [label]". */
static void fb__md_put_label(FILE *f, const fb_result *r) {
    if (!r->label) return;
    fputs(" [", f);
    fb__md_text(f, r->label);
    fputc(']', f);
}

/* The CPU time is shown beside the wall-clock median when they differ
 * (fb__marks_cpu_differs: the time column is then not what the thread spent
 * running the op). */
static bool fb__md_cpu_differs(const fb_result *r, double cpu_per_unit) {
    return fb__marks_cpu_differs(fb_result_median(r, FB_ELAPSED) / r->config.batch, cpu_per_unit);
}

void fb__md_name_cell(FILE *f, const fb_result *r, bool quiet) {
    if (r->error) {
        fputs("| :boom: ", f);
        fb__md_code(f, r->name);
        fb__md_put_label(f, r);
        fputs(" (", f);
        fb__md_text(f, r->error);
        fputs(")\n", f);
        return;
    }
    double per_unit = fb_result_median(r, FB_ELAPSED) / r->config.batch; /* seconds */
    fputs("| ", f);
    bool unstable = fb_result_unstable(r) && !quiet;
    bool slow = r->slow_core && !quiet; /* measured in a slow episode of the core */
    /* descheduled epochs the statistics had to keep: never suppressed, the
     * value holds time the thread spent off the CPU */
    bool desched = fb_result_descheduled(r);
    if (desched) fputs(":warning: ", f);
    if (unstable) fputs(":wavy_dash: ", f);
    if (slow) fputs(":snail: ", f);
    fb__md_code(f, r->name);
    fb__md_put_label(f, r);
    double cpu = fb_result_cpu_median(r); /* seconds per unit; NAN when not read */
    char cpu_txt[64] = "";
    if (isfinite(cpu)) fb__fmt_grouped(cpu_txt, sizeof cpu_txt, cpu / r->config.time_unit_s, 2);
    if (desched) {
        fprintf(f,
                " (descheduled: %zu of %zu epochs were off the CPU and too few others remained: "
                "the value includes time spent waiting",
                r->disturbed, r->epochs);
        if (cpu_txt[0])
            fprintf(f, "; CPU time %s %s/%s", cpu_txt, r->config.time_unit_label, r->config.unit);
        fputc(')', f);
    } else if (unstable && r->disturbed) {
        /* the cause is the machine: longer epochs would only be hit more */
        fprintf(f,
                " (Unstable: %zu of %zu epochs were descheduled (wall > CPU time, or a context "
                "switch); the median uses the other %zu)",
                r->disturbed, r->epochs, r->used);
    } else if (unstable) {
        /* more epochs, not longer ones: a longer epoch holds more of the
         * machine's interruptions and a preemption hides in it */
        fputs(" (Unstable: its epochs disagree; more epochs (-min_time) or passes "
              "(-repetitions) show whether the median holds)",
              f);
    }
    if (r->thread_median_s && r->threads > 1) { /* a group: each thread's own time */
        double lo, hi;
        char l[64], h[64];
        fb__result_thread_range(r, &lo, &hi);
        fb__fmt_fixed(l, sizeof l, lo / r->config.time_unit_s / r->config.batch, 2);
        fb__fmt_fixed(h, sizeof h, hi / r->config.time_unit_s / r->config.batch, 2);
        fprintf(f, " (%zu threads, each %s..%s %s/%s wall", r->threads, l, h,
                r->config.time_unit_label, r->config.unit);
        /* CPU time per thread: the same at every thread count for the same
         * work per call (docs/threads.md) */
        if (cpu_txt[0])
            fprintf(f, "; CPU %s %s/%s a thread", cpu_txt, r->config.time_unit_label,
                    r->config.unit);
        /* the epochs whose time is the threads' CPU span (src/run/group.h) */
        if (r->waited)
            fprintf(f, "; %zu of %zu epochs waited for a core: their time is the threads' CPU span",
                    r->waited, r->epochs);
        fputc(')', f);
    } else if (cpu_txt[0] && !desched && fb__md_cpu_differs(r, cpu)) {
        fprintf(f, " (CPU time %s %s/%s", cpu_txt, r->config.time_unit_label, r->config.unit);
        if (cpu > 0) {
            char ratio[64];
            fb__fmt_fixed(ratio, sizeof ratio, per_unit / cpu, 2);
            fprintf(f, ": wall %sx it", ratio);
        }
        fputc(')', f);
    }
    if (slow) {
        char c[64]; /* '.' whatever the locale (src/platform/numfmt.c) */
        fb__fmt_fixed(c, sizeof c,
                      r->probe[1] >= r->probe[0] || isnan(r->probe[0]) ? r->probe[1] : r->probe[0],
                      1);
        fprintf(f, " (core in a slow episode: a 1-cycle loop ran at %s cycles)", c);
    }
    /* marks from the result's own numbers (src/stats/marks.c); never suppressed:
     * they say the value is not the op's */
    if (r->optimized_away || r->at_loop_resolution) {
        char v[64], e[64];
        fb__fmt_fixed(v, sizeof v, fb_result_median(r, FB_ELAPSED) * 1e9, 2);
        fb__fmt_fixed(e, sizeof e, r->empty_loop_s * 1e9, 2);
        if (r->optimized_away)
            fprintf(f,
                    " (optimized away? %s ns per iteration, under a quarter of a loop holding "
                    "only fb_do_not_optimize: %s ns)",
                    v, e);
        else
            fprintf(f,
                    " (at the loop's resolution: %s ns per iteration, within 2x of a loop "
                    "holding only fb_do_not_optimize, %s ns: one add costs that much, and so "
                    "does a body the compiler deleted)",
                    v, e);
    }
    if (r->unresolved)
        fputs(" (not resolved by the clock: its epochs are too few clock resolutions long)", f);
    if (r->vg && !r->error && r->vg->ins_lo < r->vg->ins_hi) {
        /* a count that moved between epochs of the same iterations: the
         * median of the pairs, and their range */
        char l[64], h[64];
        fb__fmt_grouped(l, sizeof l, r->vg->ins_lo / r->config.batch, 2);
        fb__fmt_grouped(h, sizeof h, r->vg->ins_hi / r->config.batch, 2);
        fprintf(f, " (median of %u counted pairs, spread %s..%s)", r->vg->pairs, l, h);
        if (r->vg->wild)
            fputs(" (unsteady count: the pairs differ by over 10%, the op does different work "
                  "each time)",
                  f);
    }
    fputc('\n', f);
}
