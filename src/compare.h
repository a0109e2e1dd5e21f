/* Internals of the paired comparison (src/compare.c, src/report_compare.c). */
#ifndef FB_COMPARE_H
#define FB_COMPARE_H

#include "internal.h"

/* A finished comparison: immutable once built, owned by its bench. */
struct fb_comparison {
    char *title;
    size_t size;         /* alternatives, baseline included */
    size_t rounds;       /* paired rounds measured */
    size_t preempted;    /* of them left out: an epoch was preempted */
    uint64_t iterations; /* per epoch, the same for every alternative */
    double confidence;   /* of each row's interval (Bonferroni) */
    fb_result **results; /* [size]: each alternative's epochs, one per round */
    double *ratio;       /* [size] t_baseline / t_i */
    double *low, *high;  /* [size] interval on the ratio */
    size_t *tied;        /* [size] rounds where both sides read the same time */
    double *log_ratio;   /* [size * rounds] ln t_0 - ln t_i, NAN = dropped */
    char *error;         /* why no rounds were measured, or NULL */
    /* the summary: the fastest alternative against the runner-up (for two
     * alternatives, alternative 1 against the baseline is in ratio[1]) */
    size_t fastest, runner_up;
    double lead, lead_low, lead_high; /* t_runner_up / t_fastest */
};

/* The sign-test interval of the median of v[0..n) (sorted in place): the
 * order statistics (1-based) k and n + 1 - k for the largest k with
 * P(Bin(n, 1/2) < k) <= (1 - confidence) / 2. Returns false (and NANs) when
 * n is too small for any interval at that confidence. */
bool fb__cmp_interval(double *v, size_t n, double confidence, double *median, double *low,
                      double *high);
/* The smallest number of rounds that supports an interval at confidence. */
size_t fb__cmp_min_rounds(double confidence);

/* Marks in skip[0..rounds) the rounds where some alternative's epoch had a
 * context switch (switches[i * stride + r] >= 0.5) and returns how many,
 * unless fewer than min_rounds would remain: then none (0). */
size_t fb__cmp_preempted(const double *switches, size_t k, size_t stride, size_t rounds,
                         size_t min_rounds, bool *skip);

void fb__comparison_free(fb_comparison *c);
/* Frees b's comparisons (fb_bench_free). */
void fb__bench_free_comparisons(fb_bench *b);
/* Moves all comparisons of src to the end of dst (the runner's suite record). */
int fb__bench_take_comparisons(fb_bench *dst, fb_bench *src);

/* Writers (src/report_compare.c). The live table of one comparison, with its
 * summary, to b's output; all of b's comparisons as markdown to f. */
void fb__report_comparison(fb_bench *b, const fb_comparison *c);
int fb__write_comparisons_markdown(const fb_bench *b, FILE *f);
/* The summary line(s) of c, as printed under its table. */
void fb__comparison_summary(FILE *f, const fb_comparison *c);

/* From src/report_markdown.c: the header of an ordinary table for r with
 * extra leading columns (names[i], widths[i] including "| " and the trailing
 * space), and r's row without a relative column. */
void fb__md_header_lead(FILE *f, const fb_result *r, size_t n_lead, const char *const *names,
                        const int *widths);
void fb__md_row(FILE *f, const fb_result *r);
void fb__md_text(FILE *f, const char *s);
void fb__md_code(FILE *f, const char *s);

/* From src/run.c: a result with b's settings and this configuration, no
 * name and no data yet; NULL when out of memory. */
fb_result *fb__result_new(const fb_bench *b, int callsite, const double cfg[FB__K_COUNT],
                          const fb__clock_info *clock);

#endif
