/* User counters (fb_counter): checked when given, kept on the bench until
 * the next result is published, then carried by that result. The writers
 * read them through fb__ucounter_shown (src/result/result.c) and fb__ucounter_label. */
#include "ucounter.h"

#include "bench_state.h"
#include "misuse.h"
#include "numfmt.h"
#include "text.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* Keys a Google Benchmark row uses itself, and the names of femtobench's
 * own measures: a counter of that name would overwrite them in the files. */
static const char *const fb__ucounter_reserved[] = {"name",
                                                    "family_index",
                                                    "per_family_instance_index",
                                                    "run_name",
                                                    "run_type",
                                                    "repetitions",
                                                    "repetition_index",
                                                    "threads",
                                                    "iterations",
                                                    "real_time",
                                                    "cpu_time",
                                                    "time_unit",
                                                    "bytes_per_second",
                                                    "items_per_second",
                                                    "label",
                                                    "error_occurred",
                                                    "error_message",
                                                    "aggregate_name",
                                                    "aggregate_unit",
                                                    "elapsed",
                                                    "instructions",
                                                    "cpucycles",
                                                    "branchinstructions",
                                                    "branchmisses",
                                                    "pagefaults",
                                                    "contextswitches"};

const char *fb__ucounter_bad_name(const fb__ucounters *have, const char *name) {
    if (!name || !*name) return "empty name";
    if (strlen(name) > FB__UCOUNTER_NAME_MAX) return "name longer than 48 bytes";
    for (const unsigned char *p = (const unsigned char *)name; *p; ++p)
        if (*p < 0x20 || *p == 0x7f || *p == ',' || *p == '"' || *p == '\\')
            return "name with a control character, a comma, a quote or a backslash";
    for (size_t i = 0; i < sizeof fb__ucounter_reserved / sizeof *fb__ucounter_reserved; ++i)
        if (!strcmp(name, fb__ucounter_reserved[i])) return "name reserved by the output files";
    if (!strncmp(name, "valgrind_", 9)) return "name reserved by the output files";
    for (size_t i = 0; have && i < have->n; ++i)
        if (!strcmp(have->c[i].name, name)) return "duplicated name (given twice for one run)";
    return NULL;
}

int fb_counter(fb_bench *b, const char *name, double value, unsigned flags) {
    if (!b) return FB_EINVAL;
    const char *why = fb__ucounter_bad_name(&b->ucounters, name);
    if (why) return fb__bench_misuse(b, "fb_counter(\"%.60s\"): %s", name ? name : "(null)", why);
    if (!isfinite(value))
        return fb__bench_misuse(b, "fb_counter(\"%s\", %g): not a finite number", name, value);
    if (flags & ~(unsigned)(FB_COUNTER_RATE | FB_COUNTER_PER_ITERATION))
        return fb__bench_misuse(b, "fb_counter(\"%s\"): unknown flags 0x%x", name, flags);
    if ((flags & FB_COUNTER_RATE) && (flags & FB_COUNTER_PER_ITERATION))
        return fb__bench_misuse(b,
                                "fb_counter(\"%s\"): FB_COUNTER_RATE and "
                                "FB_COUNTER_PER_ITERATION do not go together (a rate is already "
                                "the per-iteration amount per second)",
                                name);
    if (b->ucounters.n == FB__UCOUNTER_MAX)
        return fb__bench_misuse(b, "fb_counter(\"%s\"): more than %d counters for one run", name,
                                FB__UCOUNTER_MAX);
    fb__ucounter *c = &b->ucounters.c[b->ucounters.n++];
    memset(c, 0, sizeof *c);
    memcpy(c->name, name, strlen(name) + 1);
    c->value = value;
    c->flags = flags;
    return FB_OK;
}

int fb_counter_set(fb_bench *b, const char *name, double value, unsigned flags) {
    if (!b || !name) return fb_counter(b, name, value, flags);
    for (size_t i = 0; i < b->ucounters.n; ++i) {
        fb__ucounter *c = &b->ucounters.c[i];
        if (strcmp(c->name, name) != 0) continue;
        /* the same checks as a new counter's, then the value replaced */
        fb__ucounters rest = b->ucounters;
        rest.c[i] = rest.c[--rest.n];
        fb__ucounters saved = b->ucounters;
        b->ucounters = rest;
        int rc = fb_counter(b, name, value, flags);
        if (rc == FB_OK) {
            saved.c[i] = b->ucounters.c[b->ucounters.n - 1];
        }
        b->ucounters = saved;
        return rc;
    }
    return fb_counter(b, name, value, flags);
}

/* One line on b's diagnostics, control characters in the names as \xNN;
 * written here: bench.c calls this file, not the reverse. */
static void fb__ucounter_say(const fb_bench *b, const char *fmt, ...) FB__PRINTF(2, 3);
static void fb__ucounter_say(const fb_bench *b, const char *fmt, ...) {
    if (!b->diag) return;
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap); /* a longer line is cut, never split */
    va_end(ap);
    fputs("femtobench: ", b->diag);
    fb__put_line(b->diag, line);
    fputc('\n', b->diag);
    fflush(b->diag);
}

bool fb__ucounters_attach(fb_bench *b, fb_result *r) {
    if (!b->ucounters.n) return false;
    if (!r->ucounters) {
        r->ucounters = malloc(sizeof *r->ucounters);
        if (r->ucounters)
            *r->ucounters = b->ucounters;
        else
            fb__ucounter_say(b, "'%s': out of memory: its %zu counters are lost", r->name,
                             b->ucounters.n);
    }
    b->ucounters.n = 0; /* they belong to this run only */
    return true;
}

size_t fb__ucounters_late(fb_bench *b, fb_result *last) {
    size_t n = b->ucounters.n;
    if (!n) return 0;
    fb__ucounters all;
    if (last->ucounters)
        all = *last->ucounters;
    else
        all.n = 0;
    for (size_t i = 0; i < n; ++i) {
        const fb__ucounter *c = &b->ucounters.c[i];
        size_t k = 0;
        while (k < all.n && strcmp(all.c[k].name, c->name) != 0) ++k;
        if (k == FB__UCOUNTER_MAX) return 0; /* no room: they stay pending */
        all.c[k] = *c;                       /* given again after the run: the later value wins */
        if (k == all.n) ++all.n;
    }
    if (!last->ucounters) {
        last->ucounters = malloc(sizeof *last->ucounters);
        if (!last->ucounters) return 0;
    }
    *last->ucounters = all;
    b->ucounters.n = 0;
    return n;
}

void fb__ucounters_take(fb_result *dst, fb_result *src) {
    if (!src->ucounters) return;
    free(dst->ucounters);
    dst->ucounters = src->ucounters;
    src->ucounters = NULL;
}

void fb__ucounters_say_late(const fb_bench *b, const fb_result *r, size_t late) {
    if (!b->diag || !r->ucounters) return;
    /* the counters given late are the last ones named; the line lists all
     * of the run's counters as the files now show them */
    char list[512] = "";
    size_t used = 0;
    for (size_t i = 0; i < r->ucounters->n && used < sizeof list; ++i) {
        char label[FB__UCOUNTER_LABEL_MAX], num[48];
        fb__ucounter_label(r, i, label, sizeof label);
        double v = fb_result_counter(r, i);
        if (isnan(v)) /* a rate with no time to divide by (-valgrind) */
            snprintf(num, sizeof num, "-");
        else
            fb__fmt_double(num, sizeof num, v, 6);
        int w = snprintf(list + used, sizeof list - used, "%s%s %s", i ? ", " : "", label, num);
        if (w < 0) break;
        used += (size_t)w;
    }
    fb__ucounter_say(b,
                     "'%s': %zu counter%s given with fb_counter after the run: "
                     "attached to that run (in every file; its table row was printed before): %s",
                     r->name, late, late == 1 ? "" : "s", list);
}

size_t fb__ucounters_left(fb_bench *b, char *first, size_t len) {
    size_t n = b->ucounters.n;
    if (n && len) snprintf(first, len, "%s", b->ucounters.c[0].name);
    b->ucounters.n = 0;
    return n;
}

void fb__ucounters_check(const fb_bench *b, const fb_result *r) {
    for (size_t i = 0; i < fb_result_counter_count(r); ++i) {
        double v = fb_result_counter(r, i);
        if (!isinf(v)) continue;
        /* a rate over the largest double: shown as inf in the table, the
         * CSV and the HTML, null in the JSON files ("overflow" in
         * -output_json's), and left out of Bencher's format, whose values
         * are numbers: never left out without a word */
        char label[FB__UCOUNTER_LABEL_MAX];
        fb__ucounter_label(r, i, label, sizeof label);
        char given[32], per[32]; /* '.' whatever the locale */
        fb__fmt_double(given, sizeof given, r->ucounters->c[i].value, 6);
        fb__fmt_double(per, sizeof per, fb_result_median(r, FB_ELAPSED), 6);
        if (b->diag) /* written here: bench.c calls this file, not the reverse */
            fprintf(b->diag,
                    "femtobench: counter '%s' of this run is %s per %s s: more than a double "
                    "holds (inf in the table, CSV and HTML; null in the JSON files; not in "
                    "-output_bmf)\n",
                    label, given, per);
    }
}

void fb__ucounter_label(const fb_result *r, size_t i, char *buf, size_t len) {
    const fb__ucounter *c = &r->ucounters->c[i];
    if (c->flags & FB_COUNTER_RATE)
        snprintf(buf, len, "%s/s", c->name);
    else if (c->flags & FB_COUNTER_PER_ITERATION)
        snprintf(buf, len, "%s/%s", c->name, r->config.unit);
    else
        snprintf(buf, len, "%s", c->name);
}

/* ---------------------------------------------------- result accessors */

size_t fb_result_counter_count(const fb_result *r) {
    return r && r->ucounters ? r->ucounters->n : 0;
}

const char *fb_result_counter_name(const fb_result *r, size_t i) {
    return i < fb_result_counter_count(r) ? r->ucounters->c[i].name : NULL;
}

unsigned fb_result_counter_flags(const fb_result *r, size_t i) {
    return i < fb_result_counter_count(r) ? r->ucounters->c[i].flags : 0;
}

double fb_result_counter(const fb_result *r, size_t i) {
    if (i >= fb_result_counter_count(r) || r->error) return NAN;
    return fb__ucounter_shown(r, i,
                              fb_result_has(r, FB_ELAPSED) ? fb_result_median(r, FB_ELAPSED) : NAN);
}

/* ------------------------------------------------------ column unions */

void fb__ucounter_cols_add(fb__ucounter_cols *cols, const fb_result *r) {
    for (size_t i = 0; i < fb_result_counter_count(r); ++i) {
        char label[FB__UCOUNTER_LABEL_MAX];
        fb__ucounter_label(r, i, label, sizeof label);
        bool seen = false;
        for (size_t k = 0; k < cols->n && !seen; ++k) seen = !strcmp(cols->label[k], label);
        if (!seen && cols->n < FB__UCOUNTER_COLS)
            memcpy(cols->label[cols->n++], label, sizeof label);
    }
}

double fb__ucounter_col_value(const fb_result *r, const char *label) {
    for (size_t i = 0; i < fb_result_counter_count(r); ++i) {
        char have[FB__UCOUNTER_LABEL_MAX];
        fb__ucounter_label(r, i, have, sizeof have);
        if (!strcmp(have, label)) return fb_result_counter(r, i);
    }
    return NAN;
}
