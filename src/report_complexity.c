/* The complexity table: the stored fit of one benchmark, as markdown. */
#include "report.h"

#include "bench.h"

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
    case FB__CX_UNDECIDED:
        fprintf(f,
                "Not decided: the time rose %.3gx from N = %g to N = %g, but with %zu distinct N no "
                "model is significantly better than O(1); measure 5 or more N.\n",
                s->rise, s->n_min, s->n_max, s->distinct);
        break;
    case FB__CX_NOT_SEPARATED:
        for (size_t i = 0; i < s->candidates; i++)
            fprintf(f, "%s%s", i == 0 ? "" : i + 1 == s->candidates ? " or " : ", ",
                    s->candidate_names[i]);
        fputs(": these points do not tell them apart.\n", f);
        break;
    case FB__CX_NO_FIT:
        fprintf(f,
                "No model fits these points: the best, %s, misses them by %.1f%% (a step, e.g. "
                "a cache size, or noise).\n",
                s->fits[0].name, s->fits[0].err_pct);
        break;
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
        for (size_t i = 0; i < s->n; i++)
            fprintf(f, "| %13g | %5.1f%% | %s\n", s->fits[i].coefficient, s->fits[i].err_pct,
                    s->fits[i].name);
        fb__write_fit_note(s, f); /* issue 19 */
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
    fb__fit_compute((const fb_result *const *)b->results, b->n_results, name, &s);
    return fb__write_fit_set(&s, f);
}
