/* The complexity table: the stored fit of one benchmark, as markdown. */
#include "report.h"

#include "bench.h"
#include "json.h"
#include "numfmt.h"
#include "text.h" /* N as given */

#include <string.h>

/* The verdict under the table (docs/complexity.md, "What the note says"):
 * true for the number of points the fit had. */
static void fb__write_fit_note(const fb__fit_set *s, FILE *f) {
    switch (s->verdict) {
    case FB__CX_FLAT:
        fputs("The time did not depend on N: no growing model fits significantly better than "
              "O(1).\n",
              f);
        break;
    case FB__CX_UNDECIDED: {
        /* '.' whatever the locale (src/platform/numfmt.c) */
        char rise[32], lo[32], hi[32];
        fb__fmt_double(rise, sizeof rise, s->rise, 3);
        fb__fmt_n(lo, sizeof lo, s->n_min, false); /* N as given */
        fb__fmt_n(hi, sizeof hi, s->n_max, false);
        fprintf(f,
                "Not decided: the time rose %sx from N = %s to N = %s, but with %zu distinct N no "
                "model is significantly better than O(1); measure 5 or more N.\n",
                rise, lo, hi, s->distinct);
        break;
    }
    case FB__CX_NOT_SEPARATED:
        for (size_t i = 0; i < s->candidates; i++)
            fprintf(f, "%s%s",
                    i == 0                   ? ""
                    : i + 1 == s->candidates ? " or "
                                             : ", ",
                    s->candidate_names[i]);
        fputs(": these points do not tell them apart.\n", f);
        break;
    case FB__CX_NO_FIT: {
        char err[32];
        fb__fmt_fixed(err, sizeof err, s->fits[0].err_pct, 1);
        fprintf(f,
                "No model fits these points: the best, %s, misses them by %s%% (a step, e.g. "
                "a cache size, or noise).\n",
                s->fits[0].name, err);
        break;
    }
    case FB__CX_TWO_POINTS:
        fprintf(f, "A guess from 2 distinct N (the lower error wins); measure 5 or more N.\n");
        break;
    default:
        break;
    }
}

int fb__write_fit_set(const fb__fit_set *s, FILE *f) {
    if (!s || !f) return FB_EINVAL;
    if (s->n == 0) {
        fprintf(f, "A complexity fit needs at least two distinct N (found %zu).\n", s->distinct);
    } else {
        fputs("|   coefficient |   err% | complexity\n"
              "|--------------:|-------:|------------\n",
              f);
        for (size_t i = 0; i < s->n; i++) {
            /* %g / %.1f with '.' whatever the locale (src/platform/numfmt.c) */
            char coef[32], err[32];
            fb__fmt_double(coef, sizeof coef, s->fits[i].coefficient, 6);
            fb__fmt_fixed(err, sizeof err, s->fits[i].err_pct, 1);
            fprintf(f, "| %13s | %5s%% | %s\n", coef, err, s->fits[i].name);
        }
        fb__write_fit_note(s, f);
    }
    return ferror(f) ? FB_EIO : FB_OK;
}

int fb_write_complexity(const fb_bench *b, const char *name, FILE *f) {
    if (!b || !f) return FB_EINVAL;
    const fb__fit_set *stored = name ? fb__bench_fit(b, name) : NULL;
    if (stored) return fb__write_fit_set(stored, f);
    /* not stored (name NULL: every result together): fit now */
    fb__fit_set s;
    memset(&s, 0, sizeof s);
    size_t n;
    const fb_result *const *rs = fb__bench_results(b, &n);
    fb__fit_compute(rs, n, name, &s);
    return fb__write_fit_set(&s, f);
}

size_t fb__write_family_fits(const fb_bench *b, const fb_result *const *rs, size_t n, FILE *f) {
    size_t printed = 0;
    const fb__fit_set *last = NULL;
    for (size_t k = 0; k < n; ++k) {
        const fb__fit_set *s = fb__fit_stored(b, fb__fit_index(b, rs[k]));
        /* one N: no fit, said for a port's family, which asked for one
         * (Google Benchmark's Complexity) */
        if (!s || !s->family || (s->n == 0 && !rs[k]->config.family) || s == last) continue;
        /* one title per series: the same as the last one's (a family's
         * instances come in a row), or one printed before */
        bool seen = false;
        for (size_t q = 0; q < k && !seen; ++q)
            seen = fb__fit_stored(b, fb__fit_index(b, rs[q])) == s;
        last = s;
        if (seen) continue;
        fprintf(f, "\nComplexity of `%s` over its instances:\n", s->name);
        fb__write_fit_set(s, f);
        /* a port's family that asked for a model (Google Benchmark's
         * Complexity(oN)): that model's row, whatever the best is */
        const fb_fit *asked = fb__fit_asked(s);
        if (asked) {
            char c[32], e[32];
            fb__fmt_double(c, sizeof c, asked->coefficient, 6);
            fb__fmt_double(e, sizeof e, asked->err_pct, 3);
            fprintf(f, "Asked for %s: coefficient %s, err%% %s%%.\n", asked->name, c, e);
        }
        printed++;
    }
    return printed;
}
