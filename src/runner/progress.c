/* The runner's status line on a terminal (src/runner/progress.h). */
#include "progress.h"

#include "clock.h"
#include "text.h"

#include <string.h>

void fb__progress_init(fb__progress *p, FILE *f, size_t total, bool on) {
    memset(p, 0, sizeof *p);
    p->f = on ? f : NULL;
    p->total = total;
    p->start_ns = fb__clock_now_ns();
}

void fb__progress_step(fb__progress *p, size_t done, const char *name) {
    if (!p->f || done == 0 || done >= p->total) return;
    double elapsed_s = (double)(fb__clock_now_ns() - p->start_ns) * 1e-9;
    if (elapsed_s < FB__PROGRESS_AFTER_S) return;
    /* what is left, at the mean time per benchmark so far */
    double left_s = elapsed_s / (double)done * (double)(p->total - done);
    char shown[64];
    size_t n = strlen(name);
    if (n > 40) /* one line on any terminal */
        snprintf(shown, sizeof shown, "%.37s...", name);
    else
        snprintf(shown, sizeof shown, "%s", name);
    for (char *c = shown; *c; ++c)
        if ((unsigned char)*c < 0x20 || *c == 0x7f) *c = '?';
    /* \r and erase-line: the line is rewritten in place */
    fprintf(p->f, "\r\033[Kfemtobench: %s (%zu of %zu), about %.0f s left", shown, done + 1,
            p->total, left_s < 1 ? 1.0 : left_s);
    fflush(p->f);
    p->showing = true;
}

void fb__progress_clear(void *ctx) {
    fb__progress *p = ctx;
    if (!p || !p->f || !p->showing) return;
    fputs("\r\033[K", p->f);
    fflush(p->f);
    p->showing = false;
}
