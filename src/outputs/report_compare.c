/* The comparison table: the ordinary markdown table with `relative` and
 * `95% CI` in front, and a summary under it; the live table's comparison
 * sink, and fb_write_markdown (results, then comparisons). Reads finished
 * comparisons, never measures. */
#include "compare_stats.h"

#include "bench.h"
#include "marks.h" /* FB__RESOLVED_MULTIPLE */
#include "numfmt.h"
#include "report.h"
#include "settings.h" /* clock_resolution_multiple */
#include "text.h"

#include <math.h>
#include <string.h>

#define FB__RCMP_LEAD 2
static const char *const fb__rcmp_names[FB__RCMP_LEAD] = {"relative", "95% CI"};
static const int fb__rcmp_widths[FB__RCMP_LEAD] = {11, 22};

static void fb__rcmp_cell(FILE *f, int col, const char *text) {
    fprintf(f, "| %*s ", fb__rcmp_widths[col] - 3, text);
}

static void fb__rcmp_pct(char *buf, size_t len, double ratio) {
    fb__fmt_grouped(buf, len > 1 ? len - 1 : len, ratio * 100.0, 1);
    if (isfinite(ratio)) strcat(buf, "%");
}

/* "95% CI [low .. high]" with two decimals. */
static void fb__rcmp_interval(FILE *f, double low, double high) {
    char lo[48], hi[48];
    fb__fmt_grouped(lo, sizeof lo, low, 2);
    fb__fmt_grouped(hi, sizeof hi, high, 2);
    fprintf(f, "95%% CI [%s .. %s]", lo, hi);
}

/* A duration in s, ms, us or ns, three significant digits. */
static void fb__rcmp_time(char *buf, size_t len, double s) {
    static const char *const unit[] = {"s", "ms", "us", "ns"};
    int u = 0;
    while (u < 3 && fabs(s) < 1 && s != 0) s *= 1e3, ++u;
    char num[40];
    fb__fmt_double(num, sizeof num, s, 3);
    snprintf(buf, len, "%s %s", num, unit[u]);
}

static void fb__rcmp_ratio(FILE *f, double v) {
    char num[48];
    fb__fmt_grouped(num, sizeof num, v, 2);
    fprintf(f, "%sx", num);
}

/* "x.xxxx" with three decimals: a ratio of exact counts. */
static void fb__rcmp_exact(FILE *f, double v) {
    char num[48];
    fb__fmt_grouped(num, sizeof num, v, 3);
    fprintf(f, "%sx", num);
}

/* The summary of a comparison counted under Callgrind: ratios of exact
 * instruction counts, no interval and no rounds. */
static void fb__rcmp_counted_summary(FILE *f, const fb_comparison *c) {
    const char *unit = c->results[0]->config.unit ? c->results[0]->config.unit : "op";
    if (c->size == 2) {
        const fb_result *base = c->results[0], *other = c->results[1];
        double r = c->ratio[1];
        if (!isfinite(r)) {
            fb__md_code(f, other->name);
            fputs(" and ", f);
            fb__md_code(f, base->name);
            fputs(" were not both counted", f);
        } else if (r == 1.0) {
            fb__md_code(f, other->name);
            fputs(" and ", f);
            fb__md_code(f, base->name);
            fprintf(f, " executed the same instructions per %s: ", unit);
            fb__rcmp_exact(f, 1.0);
        } else if (c->low[1] <= 1.0 && 1.0 <= c->high[1] && c->low[1] < c->high[1]) {
            /* counts that moved between counted epochs, by less than
             * their spread: not a difference of the code */
            fb__md_code(f, other->name);
            fputs(" and ", f);
            fb__md_code(f, base->name);
            fprintf(
                f,
                " executed the same instructions per %s within the spread of their counted pairs: ",
                unit);
            fb__rcmp_exact(f, r);
            fputs(" (", f);
            fb__rcmp_exact(f, c->low[1]);
            fputs(" .. ", f);
            fb__rcmp_exact(f, c->high[1]);
            fputs(")\n", f);
            return;
        } else {
            fb__md_code(f, other->name);
            fputs(" executed ", f);
            fb__rcmp_exact(f, r < 1.0 ? 1.0 / r : r);
            fputs(r < 1.0 ? " the instructions of " : " fewer instructions than ", f);
            fb__md_code(f, base->name);
            fprintf(f, " per %s", unit);
        }
    } else {
        const char *best = c->results[c->fastest]->name;
        const char *second = c->results[c->runner_up]->name;
        fb__md_code(f, best);
        if (c->lead == 1.0) {
            fputs(" and ", f);
            fb__md_code(f, second);
            fprintf(f,
                    ", the two with the fewest instructions of %zu, executed the same: ", c->size);
            fb__rcmp_exact(f, 1.0);
        } else {
            fprintf(f, " executed the fewest instructions of %zu, ", c->size);
            fb__rcmp_exact(f, c->lead);
            fputs(" fewer than ", f);
            fb__md_code(f, second);
        }
    }
    fputs(", exact counts under Callgrind (no interval: a count does not vary)\n", f);
}

void fb__comparison_summary(FILE *f, const fb_comparison *c) {
    if (c->error) {
        fputs("comparison not made: ", f);
        fb__md_text(f, c->error);
        fputc('\n', f);
        return;
    }
    if (c->counted) {
        fb__rcmp_counted_summary(f, c);
        return;
    }
    const char *base = c->results[0]->name;
    if (c->size == 2) {
        const char *other = c->results[1]->name;
        double r = c->ratio[1], lo = c->low[1], hi = c->high[1];
        if (lo > 1.0 || hi < 1.0) {
            bool faster = r > 1.0;
            fb__md_code(f, other);
            fputs(" ran ", f);
            fb__rcmp_ratio(f, faster ? r : 1.0 / r);
            fputs(faster ? " faster than " : " slower than ", f);
            fb__md_code(f, base);
            fputs(", ", f);
            /* stated the way the sentence reads, so the interval turns too */
            if (faster)
                fb__rcmp_interval(f, lo, hi);
            else
                fb__rcmp_interval(f, 1.0 / hi, 1.0 / lo);
        } else {
            fb__md_code(f, other);
            fputs(" and ", f);
            fb__md_code(f, base);
            fputs(" were not separated: ratio ", f);
            fb__rcmp_ratio(f, r);
            fputs(", ", f);
            fb__rcmp_interval(f, lo, hi);
        }
    } else {
        /* picking the best of many is a selection: the claim is its lead
         * over the runner-up, with that pair's own interval */
        const char *best = c->results[c->fastest]->name;
        const char *second = c->results[c->runner_up]->name;
        if (c->lead_low > 1.0) {
            fb__md_code(f, best);
            fprintf(f, " is fastest of %zu, ", c->size);
            fb__rcmp_ratio(f, c->lead);
            fputs(" ahead of ", f);
            fb__md_code(f, second);
            fputs(", ", f);
        } else {
            fb__md_code(f, best);
            fputs(" and ", f);
            fb__md_code(f, second);
            fprintf(f, ", the two fastest of %zu, were not separated: ratio ", c->size);
            fb__rcmp_ratio(f, c->lead);
            fputs(", ", f);
        }
        fb__rcmp_interval(f, c->lead_low, c->lead_high);
        fprintf(f, " (corrected for %zu comparisons)", c->size - 1);
    }
    fprintf(f, ", %zu paired rounds, interleaved\n", c->rounds);
    if (c->preempted)
        fprintf(f, "%zu of %zu rounds left out: an epoch was preempted (context switch)\n",
                c->preempted, c->rounds);
    size_t tied = 0;
    for (size_t i = 1; i < c->size; ++i)
        if (c->tied[i] > tied) tied = c->tied[i];
    if (tied)
        fprintf(f,
                "%zu of %zu rounds tied at the clock's resolution: longer epochs "
                "(min_epoch_time) resolve the ratio finer\n",
                tied, c->rounds);
    /* the marks of the alternatives (src/stats/marks.c): the ratio of an op the
     * compiler deleted measures the loop; an epoch the clock cannot resolve
     * gives a ratio no better than the clock's step */
    for (size_t i = 0; i < c->size; ++i) {
        const fb_result *r = c->results[i];
        if (r->error) continue;
        if (r->optimized_away) {
            fb__md_code(f, r->name);
            fputs(" costs less than an empty loop: optimized away? Keep its result alive "
                  "with fb_do_not_optimize()\n",
                  f);
        }
        if (r->at_loop_resolution) {
            fb__md_code(f, r->name);
            fputs(" is at the loop's resolution (within 2x of an empty loop): its ratio measures "
                  "the loop as much as the op\n",
                  f);
        }
        if (r->unresolved) {
            /* its epochs, and what the clock needs (src/stats/compare_stats.c) */
            double mult = r->config.num[FB__K_CLOCK_RESOLUTION_MULTIPLE];
            if (!(mult >= FB__RESOLVED_MULTIPLE)) mult = FB__RESOLVED_MULTIPLE;
            char took[48], need[48];
            fb__rcmp_time(took, sizeof took,
                          fb_result_median(r, FB_ELAPSED) * (double)c->iterations);
            fb__rcmp_time(need, sizeof need, mult * r->clock_resolution_s);
            fb__md_code(f, r->name);
            fprintf(f,
                    ": %llu iterations an epoch (the count all alternatives share) take %s, "
                    "under the %s the clock needs: its ratio is beyond what this comparison "
                    "resolves. Its interval is widened to the clock's step, but what every "
                    "epoch costs besides the op (the clock reads, caches refilled after the "
                    "other alternatives) is not in it, so it can miss the true ratio: compare "
                    "ops of similar cost, or time each with fb_run\n",
                    (unsigned long long)c->iterations, took, need);
        }
    }
}

static void fb__rcmp_table(FILE *f, const fb_comparison *c) {
    /* the header follows a measured row's columns (all rows share them) */
    const fb_result *head = c->results[0];
    for (size_t i = 0; i < c->size; ++i)
        if (!c->results[i]->error) {
            head = c->results[i];
            break;
        }
    fb__md_header_lead(f, head, FB__RCMP_LEAD, fb__rcmp_names, fb__rcmp_widths);
    for (size_t i = 0; i < c->size; ++i) {
        const fb_result *r = c->results[i];
        char cell[128];
        if (r->error) {
            fb__rcmp_cell(f, 0, "-");
            fb__rcmp_cell(f, 1, "-");
        } else {
            fb__rcmp_pct(cell, sizeof cell, c->ratio[i]);
            fb__rcmp_cell(f, 0, cell);
            if (i == 0) {
                fb__rcmp_cell(f, 1, "");
            } else if (c->counted && !(c->low[i] < c->high[i])) {
                fb__rcmp_cell(f, 1, "exact"); /* a ratio of exact counts has no interval */
            } else {
                char lo[48], hi[48];
                fb__rcmp_pct(lo, sizeof lo, c->low[i]);
                fb__rcmp_pct(hi, sizeof hi, c->high[i]);
                snprintf(cell, sizeof cell, "%s .. %s", lo, hi);
                fb__rcmp_cell(f, 1, cell);
            }
        }
        fb__md_row(f, r);
    }
    fputc('\n', f);
    fb__comparison_summary(f, c);
}

void fb__table_comparison_sink(void *ctx, const fb_bench *b, const fb_comparison *c) {
    fb__table *t = ctx;
    FILE *f = t->out;
    (void)b;
    if (!f) return;
    if (t->before_row) t->before_row(t->before_row_ctx); /* the status line, if any */
    if (t->last_out == f) fputc('\n', f);
    fb__rcmp_table(f, c);
    /* the comparison printed its own header: the next ordinary row prints
     * one too, after a blank line (a restart would drop the blank line) */
    t->last_header[0] = '\0';
    t->last_out = f;
    fflush(f);
}

/* Here rather than in src/outputs/report_markdown.c because it writes both tables:
 * the results' (report_markdown.c) and then each comparison's. */
int fb_write_markdown(const fb_bench *b, FILE *f) {
    if (!b || !f) return FB_EINVAL;
    if (fb__write_results_markdown(b, f) != FB_OK) return FB_EIO;
    for (size_t i = 0; i < fb_comparison_count(b); ++i) {
        if (i || fb_result_count(b)) fputc('\n', f);
        fb__rcmp_table(f, fb_comparison_at(b, i));
    }
    return ferror(f) ? FB_EIO : FB_OK;
}
