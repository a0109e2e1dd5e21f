/* The summary over passes: reads the suite's finished results only. */
#include "report_passes.h"

#include "bench.h"
#include "json.h"   /* fb__fmt_double: '.' whatever the locale */
#include "numfmt.h" /* fb__fmt_fixed */
#include "passes.h"
#include "text.h"

#include <stdlib.h>
#include <string.h>

static bool fb__rp_same(const fb_result *a, const fb_result *b) {
    return strcmp(a->name, b->name) == 0 && a->config.complexity_n == b->config.complexity_n;
}

static void fb__rp_num(FILE *f, double v, const char *suffix) {
    char num[64];
    fb__fmt_grouped(num, sizeof num, v, 2);
    fprintf(f, "| %16s%s ", num, suffix);
}

int fb__write_passes(const fb_bench *suite, FILE *f) {
    size_t n = fb_result_count(suite);
    double *v = malloc((n ? n : 1) * sizeof *v);
    bool *done = calloc(n ? n : 1, sizeof *done);
    if (!v || !done) {
        free(v);
        free(done);
        return FB_ENOMEM;
    }
    fprintf(f, "| %16s | %14s | %8s | %16s | %16s | benchmark\n", "median ns/unit",
            "between passes", "passes", "min ns/unit", "max ns/unit");
    fputs(
        "|-----------------:|---------------:|---------:|-----------------:|-----------------:|:--"
        "--------\n",
        f);
    for (size_t i = 0; i < n; ++i) {
        const fb_result *r = fb_result_at(suite, i);
        if (done[i] || r->error) continue;
        size_t k = 0;
        for (size_t j = i; j < n; ++j) {
            const fb_result *s = fb_result_at(suite, j);
            if (done[j] || s->error || !fb__rp_same(r, s)) continue;
            done[j] = true;
            v[k++] = fb_result_median(s, FB_ELAPSED) / s->config.batch * 1e9;
        }
        fb__pass_summary ps;
        fb__passes_summarize(v, k, &ps);
        fb__rp_num(f, ps.median, "");
        char err[32];
        fb__fmt_fixed(err, sizeof err, ps.err_pct, 1);
        fprintf(f, "| %13s%% | %8zu ", err, ps.passes);
        fb__rp_num(f, ps.min, "");
        fb__rp_num(f, ps.max, "");
        fputs("| ", f);
        fputc('`', f);
        for (const char *p = r->name; *p; ++p) /* a cell: `|` and line breaks escaped */
            fputs(*p == '|' ? "\\|" : *p == '\n' ? "\\n" : (char[2]){*p, 0}, f);
        fputc('`', f);
        char a[32], c[32];
        if (r->config.complexity_n > 0) {
            fb__fmt_double(a, sizeof a, r->config.complexity_n, 6);
            fprintf(f, " N=%s", a);
        }
        if (ps.two_modes) {
            fb__fmt_double(a, sizeof a, ps.mode[0], 4);
            fb__fmt_double(c, sizeof c, ps.mode[1], 4);
            fprintf(f,
                    " (two modes: %s ns in %zu passes, %s ns in %zu; the median is not "
                    "representative)",
                    a, ps.mode_n[0], c, ps.mode_n[1]);
        }
        fputc('\n', f);
    }
    free(v);
    free(done);
    return ferror(f) ? FB_EIO : FB_OK;
}
