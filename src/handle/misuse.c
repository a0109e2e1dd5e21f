/* A bad argument to the API inside a benchmark: refused, said once, and
 * carried by the next result as its error (src/handle/misuse.h). */
#include "misuse.h"

#include "bench_state.h"
#include "text.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

int fb__bench_misuse(fb_bench *b, const char *fmt, ...) {
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    /* one kind of misuse is one message format, whatever values it names:
     * a bad call in every iteration, each with a value of its own, is
     * still said once and then counted */
    size_t k = 0;
    while (k < b->n_misuse_said && b->misuse_fmt[k] != fmt) ++k;
    if (k < b->n_misuse_said) {
        ++b->misuse_repeats[k]; /* said once, counted after (fb__misuse_flush) */
        if (strncmp(line, b->misuse_said[k], sizeof b->misuse_said[k] - 1) != 0)
            b->misuse_varied[k] = true;
    } else if (k == FB__MISUSE_SAID) {
        ++b->misuse_unsaid; /* too many kinds: counted together */
    } else {
        size_t n = strlen(line), cap = sizeof b->misuse_said[k] - 1;
        memcpy(b->misuse_said[k], line, n < cap ? n : cap); /* cut: compared as cut */
        b->misuse_said[k][n < cap ? n : cap] = '\0';
        b->misuse_fmt[k] = fmt;
        b->misuse_repeats[k] = 0;
        b->misuse_varied[k] = false;
        ++b->n_misuse_said;
        if (b->diag) { /* written here: bench.c calls this file, not the reverse */
            fputs("femtobench: error: ", b->diag);
            fb__put_line(b->diag, line); /* a name with a line break stays one line */
            fputc('\n', b->diag);
            fflush(b->diag);
        }
    }
    if (!b->misuse) {
        size_t n = strlen(FB__MISUSE_PREFIX) + strlen(line) + 1;
        b->misuse = malloc(n);
        if (b->misuse) snprintf(b->misuse, n, "%s%s", FB__MISUSE_PREFIX, line);
    }
    return FB_EINVAL;
}

void fb__misuse_flush(fb_bench *b) {
    for (size_t k = 0; k < b->n_misuse_said; ++k)
        if (b->misuse_repeats[k] && b->diag) {
            fputs("femtobench: error: ", b->diag);
            fb__put_line(b->diag, b->misuse_said[k]);
            fprintf(b->diag, " (said above) came %zu more time%s%s\n", b->misuse_repeats[k],
                    b->misuse_repeats[k] == 1 ? "" : "s",
                    b->misuse_varied[k] ? ", with other values too" : "");
            fflush(b->diag);
        }
    if (b->misuse_unsaid && b->diag) {
        fprintf(b->diag, "femtobench: error: and %zu more bad call%s of other kinds (not shown)\n",
                b->misuse_unsaid, b->misuse_unsaid == 1 ? "" : "s");
        fflush(b->diag);
    }
    b->n_misuse_said = 0;
    b->misuse_unsaid = 0;
}

void fb__misuse_attach(fb_bench *b, fb_result *r) {
    fb__misuse_flush(b); /* a run's repeats are counted before its row */
    if (!b->misuse) return;
    /* the row says why it is not a measurement; the bad argument comes
     * first, whatever else went wrong because of it (a run whose manual
     * times were refused measured nothing, "optimized away") */
    free(r->error);
    r->error = b->misuse;
    b->misuse = NULL;
}

bool fb__result_misuse(const fb_result *r) {
    return r->error && strncmp(r->error, FB__MISUSE_PREFIX, strlen(FB__MISUSE_PREFIX)) == 0;
}

/* fb_skip: the row of the run says why it measured nothing, as a misuse
 * does, but with its own prefix: the runner counts it as no failure. */
#define FB__SKIP_PREFIX "skipped: "

int fb_skip(fb_bench *b, const char *why) {
    if (!b) return FB_EINVAL;
    if (b->misuse) return FB_OK; /* a bad argument says more than the skip */
    if (!why) why = "";
    size_t n = strlen(FB__SKIP_PREFIX) + strlen(why) + 1;
    b->misuse = malloc(n);
    if (b->misuse) snprintf(b->misuse, n, "%s%s", FB__SKIP_PREFIX, why);
    return b->misuse ? FB_OK : FB_ENOMEM;
}

bool fb_result_skipped(const fb_result *r) {
    const char *e = r ? fb_result_error(r) : NULL;
    return e && strncmp(e, FB__SKIP_PREFIX, strlen(FB__SKIP_PREFIX)) == 0;
}
