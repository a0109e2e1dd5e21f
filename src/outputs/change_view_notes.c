/* The change view's sentences (src/outputs/change_view.c computes the rest):
 * what the two runs' contexts say about the comparison (different
 * machines, one side's files that disagree, the fields that differ), and
 * how the rows were compared, as every writer prints them. No I/O. */
#include "change.h"

#include <stdio.h>
#include <string.h>

/* A note that the two runs differ in `what`, when they do. */
static void fb__cv_note_differs(fb__change_view *v, const char *what, const char *old,
                                const char *now) {
    if (strcmp(old, now) == 0 || v->n_notes >= FB__CHANGE_NOTES) return;
    snprintf(v->notes[v->n_notes++], sizeof v->notes[0],
             "the runs differ in %s: baseline '%s', now '%s'", what, old, now);
}

/* One side given as several files that disagree about the machine. */
static void fb__cv_note_files(fb__change_view *v, const char *side, const fb__bl_context *c) {
    if (!c->files_differ[0] || v->n_notes >= FB__CHANGE_NOTES) return;
    snprintf(v->notes[v->n_notes++], sizeof v->notes[0],
             "the %s files disagree about the machine: %s", side, c->files_differ);
}

/* A known OS or architecture on each side, and they differ: the changes
 * are those of two machines, not of the code. An unknown one (a file
 * written before they were recorded) is no claim either way. */
void fb__change_view_contexts(fb__change_view *v, const fb__bl_context *a,
                              const fb__bl_context *b) {
    bool os = strcmp(a->os, "unknown") && strcmp(b->os, "unknown") && strcmp(a->os, b->os);
    bool arch =
        strcmp(a->arch, "unknown") && strcmp(b->arch, "unknown") && strcmp(a->arch, b->arch);
    if (os || arch)
        snprintf(v->machines, sizeof v->machines,
                 "the runs are on different machines (%s%s%s): baseline %s %s, now %s %s; the "
                 "changes compare the machines, not only the code",
                 os ? "OS" : "", os && arch ? " and " : "", arch ? "architecture" : "", a->os,
                 a->arch, b->os, b->arch);
    fb__cv_note_files(v, "baseline's", a);
    fb__cv_note_files(v, "new run's", b);
    fb__cv_note_differs(v, "CPU model", a->cpu_model, b->cpu_model);
    fb__cv_note_differs(v, "compiler", a->compiler, b->compiler);
    fb__cv_note_differs(v, "build type", a->build_type, b->build_type);
    fb__cv_note_differs(v, "build flags", a->build_flags, b->build_flags);
    fb__cv_note_differs(v, "femtobench version", a->version, b->version);
    fb__cv_note_differs(v, "performance counters", a->counters ? "on" : "off",
                        b->counters ? "on" : "off");
}

/* How the rows were compared, once the rows are: between processes, or
 * over one process a side (widened by the floor between processes). */
void fb__change_view_method(fb__change_view *v) {
    if (v->n_between)
        snprintf(
            v->method[v->n_method++], sizeof v->method[0],
            "between processes (%s): baseline %zu, now %zu; each side the geometric mean of its "
            "processes' medians; "
            "95%% family-wise over %zu benchmark%s",
            v->paired ? "alternating runs, paired" : "t interval, pooled spread", v->processes_old,
            v->processes_now, v->n_between, v->n_between == 1 ? "" : "s");
    if (v->n_one)
        snprintf(v->method[v->n_method++], sizeof v->method[0],
                 "one process a side for %zu benchmark%s: the spread between processes is "
                 "unknown, so the interval is widened by the floor between processes (%.0f%%, "
                 "fitted on held-out pairs of processes of one binary) and only a larger change "
                 "gets a verdict; "
                 "run both sides with -repetitions=5, or femtobench-compare -run OLD NEW",
                 v->n_one, v->n_one == 1 ? "" : "s", FB__CHANGE_PROCESS_FLOOR_PCT);
}
