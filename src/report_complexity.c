/* The complexity table: the stored fit of one benchmark, as markdown. */
#include "report.h"

#include "bench.h"
#include "json.h"
#include "numfmt.h"

#include <string.h>

int fb__write_fit_set(const fb__fit_set *s, FILE *f) {
    if (!s || !f) return FB_EINVAL;
    if (s->n == 0) {
        fprintf(f, "A complexity fit needs at least two distinct N (found %zu).\n", s->distinct);
    } else {
        fputs("|   coefficient |   err% | complexity\n"
              "|--------------:|-------:|------------\n",
              f);
        for (size_t i = 0; i < s->n; i++) {
            /* %g / %.1f with '.' whatever the locale (src/numfmt.c) */
            char coef[32], err[32];
            fb__fmt_double(coef, sizeof coef, s->fits[i].coefficient, 6);
            fb__fmt_fixed(err, sizeof err, s->fits[i].err_pct, 1);
            fprintf(f, "| %13s | %5s%% | %s\n", coef, err, s->fits[i].name);
        }
        if (strcmp(s->fits[0].name, "O(1)") == 0)
            fputs("The time did not depend on N: no growing model fits significantly better than "
                  "O(1).\n",
                  f);
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
