/* The user counters against a baseline (-baseline): each counter of a
 * benchmark on both sides, its value then and now and the change. Counters
 * are single values per run (no epochs), so there is no interval and no
 * verdict: the table reports, the time's change table decides. It comes
 * before that table (src/outputs/report_change.c), ended by a blank line. */
#include "baseline.h"

#include "numfmt.h"
#include "report.h" /* fb__md_text, fb__md_code */
#include "text.h"   /* fb__fmt_grouped */

#include <math.h>
#include <string.h>

void fb__change_counters(FILE *f, const fb__baseline *base, const fb__baseline *now) {
    bool header = false;
    for (size_t i = 0; i < now->n; ++i) {
        const fb__bl_record *r = &now->rec[i];
        for (size_t k = 0; k < r->n_uc; ++k) {
            const fb__bl_record *o = NULL;
            for (size_t j = 0; j < base->n && !o; ++j)
                if (!strcmp(base->rec[j].name, r->name) && !strcmp(base->rec[j].title, r->title))
                    o = &base->rec[j];
            const fb__bl_counter *oc = NULL;
            for (size_t q = 0; o && q < o->n_uc && !oc; ++q)
                if (!strcmp(o->uc[q].label, r->uc[k].label)) oc = &o->uc[q];
            if (!oc) continue;
            if (!header) {
                fputs("Counters against the baseline:\n\n", f);
                fputs("| counter | baseline | now | change | benchmark\n", f);
                fputs("|--------:|---------:|----:|-------:|:----------\n", f);
                header = true;
            }
            char a[64], b[64], c[64];
            fb__fmt_grouped(a, sizeof a, oc->shown, 2);
            fb__fmt_grouped(b, sizeof b, r->uc[k].shown, 2);
            double pct =
                oc->shown != 0 ? 100.0 * (r->uc[k].shown - oc->shown) / fabs(oc->shown) : NAN;
            fb__fmt_fixed(c, sizeof c, pct, 1);
            fputs("| ", f);
            fb__md_text(f, r->uc[k].label); /* escaped as in the main table */
            fprintf(f, " | %s | %s | %s%s | ", a, b, isfinite(pct) && pct > 0 ? "+" : "",
                    isfinite(pct) ? c : "-");
            fb__md_code(f, r->name);
            fputc('\n', f);
        }
    }
    if (header) fputc('\n', f); /* the change table follows */
}
