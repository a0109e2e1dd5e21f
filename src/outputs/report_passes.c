/* The summary over passes: reads the suite's finished results only. */
#include "report_passes.h"

#include "bench.h"
#include "json.h"   /* fb__fmt_double: '.' whatever the locale */
#include "numfmt.h" /* fb__fmt_fixed */
#include "passes.h"
#include "text.h"

#include <stdlib.h>
#include <string.h>

static void fb__rp_num(FILE *f, double v, const char *suffix) {
    char num[64];
    fb__fmt_grouped(num, sizeof num, v, 2);
    fprintf(f, "| %16s%s ", num, suffix);
}

/* Text in a cell: `|` and line breaks escaped. */
static void fb__rp_cell(FILE *f, const char *s) {
    for (const char *p = s ? s : ""; *p; ++p)
        fputs(*p == '|' ? "\\|" : *p == '\n' ? "\\n" : (char[2]){*p, 0}, f);
}

/* Each comparison's alternatives against its baseline over the passes:
 * the stored ratio (relative, as the comparison tables show it), its range
 * and the passes in which it was significant either way. */
static void fb__rp_ratios(const fb_bench *suite, FILE *f) {
    bool head = false;
    for (size_t s = 0; s < fb__passes_count(suite); ++s) {
        size_t c, a;
        if (!fb__passes_alternative_at(suite, s, 0, &c, &a) || a == 0) continue;
        fb__pass_summary tmp;
        const fb__pass_summary *sum = fb__passes_sum(suite, s, &tmp);
        if (sum->ratio.n == 0) continue;
        const fb_comparison *cmp = fb_comparison_at(suite, c);
        if (!head)
            fputs("\nAgainst each comparison's baseline over the passes (relative: t_baseline / "
                  "t_this, as in the comparison tables):\n",
                  f);
        head = true;
        char m[32], lo[32], hi[32];
        fb__fmt_fixed(m, sizeof m, sum->ratio.median * 100, 1);
        fb__fmt_fixed(lo, sizeof lo, sum->ratio.min * 100, 1);
        fb__fmt_fixed(hi, sizeof hi, sum->ratio.max * 100, 1);
        fputs("- `", f);
        fb__rp_cell(f, fb_comparison_title(cmp));
        fputc('/', f);
        fb__rp_cell(f, fb_comparison_name(cmp, a));
        fputs("` relative to `", f);
        fb__rp_cell(f, fb_comparison_name(cmp, 0));
        fprintf(f,
                "`: %s%% (the median of %zu passes; %s%% .. %s%%), significantly faster in %zu, "
                "slower in %zu\n",
                m, sum->ratio.n, lo, hi, sum->faster, sum->slower);
    }
}

int fb__write_passes(const fb_bench *suite, FILE *f) {
    fprintf(f, "| %16s | %14s | %8s | %16s | %16s | benchmark\n", "median ns/unit",
            "between passes", "passes", "min ns/unit", "max ns/unit");
    fputs(
        "|-----------------:|---------------:|---------:|-----------------:|-----------------:|:--"
        "--------\n",
        f);
    for (size_t s = 0; s < fb__passes_count(suite); ++s) { /* stored by the runner */
        fb__pass_summary tmp;
        const fb__pass_summary *sum = fb__passes_sum(suite, s, &tmp);
        const fb_result *r = fb__passes_result(suite, s, 0);
        if (sum->passes == 0) continue; /* failed in every pass */
        fb__rp_num(f, sum->median * 1e9, "");
        char err[32];
        fb__fmt_fixed(err, sizeof err, sum->err_pct, 1);
        fprintf(f, "| %13s%% | %8zu ", err, sum->passes);
        fb__rp_num(f, sum->min * 1e9, "");
        fb__rp_num(f, sum->max * 1e9, "");
        fputs("| ", f);
        fputc('`', f);
        if (fb__passes_is_alternative(suite, s)) { /* a comparison's: title/name */
            fb__rp_cell(f, r->config.title);
            fputc('/', f);
        }
        fb__rp_cell(f, r->name);
        fputc('`', f);
        char a[32], c[32];
        if (r->config.complexity_n > 0) {
            fb__fmt_n(a, sizeof a, r->config.complexity_n, false); /* as given */
            fprintf(f, " N=%s", a);
        }
        if (sum->two_modes) {
            fb__fmt_double(a, sizeof a, sum->mode[0] * 1e9, 4);
            fb__fmt_double(c, sizeof c, sum->mode[1] * 1e9, 4);
            fprintf(f,
                    " (two modes: %s ns in %zu passes, %s ns in %zu; the median is not "
                    "representative)",
                    a, sum->mode_n[0], c, sum->mode_n[1]);
        }
        fputc('\n', f);
    }
    fb__rp_ratios(suite, f);
    return ferror(f) ? FB_EIO : FB_OK;
}
