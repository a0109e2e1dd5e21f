/* The markdown table: the default output, its header and cells (a row's last
 * column, the name and its notes, is src/outputs/report_markdown_name.c's). Reads
 * results, never measures. */
#include "report.h"

#include "numfmt.h"
#include "os.h" /* a FILE over a buffer: fmemopen, or a temporary file on Windows */
#include "process.h"
#include "text.h"
#include "ucounter.h" /* user counters: a column each */
#include "valgrind.h" /* counted results (-valgrind) */

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef enum {
    FB__COL_RELATIVE,
    FB__COL_N,
    FB__COL_TIME,
    FB__COL_RATE,
    FB__COL_ERR,
    FB__COL_INS,
    FB__COL_CYC,
    FB__COL_IPC,
    FB__COL_BRA,
    FB__COL_MISS,
    FB__COL_VG_L1,    /* -valgrind=cache: "L1 miss/op" */
    FB__COL_VG_LL,    /* "LL miss/op" */
    FB__COL_VG_BMISS, /* "bra miss%" */
    FB__COL_TOTAL,
    FB__COLS
} fb__col;

/* cell width including the leading "| " and the trailing space */
static const int fb__md_width[FB__COLS] = {11, 14, 22, 22, 10, 18, 18, 9, 17, 10, 17, 17, 12, 12};

static bool fb__md_has_col(const fb_result *r, fb__col c) {
    if (r->vg) { /* counted under Callgrind: counts instead of times */
        switch (c) {
        case FB__COL_N:
            return r->config.complexity_n > 0;
        case FB__COL_INS:
            return true;
        case FB__COL_VG_L1:
        case FB__COL_VG_LL:
        case FB__COL_VG_BMISS:
            return r->vg->cache;
        default:
            return false;
        }
    }
    switch (c) {
    case FB__COL_RELATIVE:
        return r->config.relative;
    case FB__COL_N:
        return r->config.complexity_n > 0;
    case FB__COL_INS:
        return fb_result_has(r, FB_INSTRUCTIONS);
    case FB__COL_CYC:
        return fb_result_has(r, FB_CPUCYCLES);
    case FB__COL_IPC:
        return fb_result_has(r, FB_INSTRUCTIONS) && fb_result_has(r, FB_CPUCYCLES);
    case FB__COL_BRA:
        return fb_result_has(r, FB_BRANCHINSTRUCTIONS);
    case FB__COL_MISS:
        return fb_result_has(r, FB_BRANCHINSTRUCTIONS) && fb_result_has(r, FB_BRANCHMISSES);
    case FB__COL_VG_L1:
    case FB__COL_VG_LL:
    case FB__COL_VG_BMISS:
        return false;
    default:
        return true;
    }
}

/* Every cell's text is escaped like a name (the header's unit and
 * time-unit label too), then right-aligned. */
static void fb__md_cell(FILE *f, fb__col c, const char *text) {
    char esc[512];
    FILE *m = fb__os_memfile_open(esc, sizeof esc);
    if (!m) {
        fprintf(f, "| %*s ", fb__md_width[c] - 3, "?");
        return;
    }
    fb__md_text(m, text);
    long n = fb__os_memfile_close(m, esc, sizeof esc);
    if (n < 0 || (size_t)n >= sizeof esc) { /* never cut an escape in two */
        fprintf(f, "| %*s ", fb__md_width[c] - 3, "...");
        return;
    }
    esc[n] = '\0';
    fprintf(f, "| %*s ", fb__md_width[c] - 3, esc);
}

/* User counters (fb_counter, src/handle/ucounter.c): a column each after the
 * fixed ones, as wide as its label. */
static int fb__md_uc_width(const fb_result *r, size_t i) {
    char label[96];
    fb__ucounter_label(r, i, label, sizeof label);
    int w = (int)strlen(label) + 3;
    return w < 14 ? 14 : w;
}

static void fb__md_uc_text(FILE *f, int width, const char *text) {
    fprintf(f, "| %*s ", width - 3, text);
}

/* mode 0: the header cells, 1: the separator, 2: the row's values. */
static void fb__md_uc_cells(FILE *f, const fb_result *r, int mode) {
    for (size_t i = 0; i < fb_result_counter_count(r); ++i) {
        int w = fb__md_uc_width(r, i);
        if (mode == 0) {
            char label[96];
            fb__ucounter_label(r, i, label, sizeof label);
            fb__md_uc_text(f, w, label);
        } else if (mode == 1) {
            fputc('|', f);
            for (int k = 0; k < w - 2; ++k) fputc('-', f);
            fputc(':', f);
        } else {
            double v = r->error ? NAN : fb_result_counter(r, i);
            char num[64];
            fb__fmt_grouped(num, sizeof num, v, 2);
            fb__md_uc_text(f, w, r->error ? "-" : num);
        }
    }
}

/* The header cell of column c for result r. */
static void fb__md_col_name(const fb_result *r, fb__col c, char *name, size_t len) {
    static const char *const fixed[FB__COLS] = {
        "relative", "complexityN", NULL,    NULL, "err%", NULL,        NULL,
        "IPC",      NULL,          "miss%", NULL, NULL,   "bra miss%", "total"};
    switch (c) {
    case FB__COL_TIME:
        snprintf(name, len, "%s/%s", r->config.time_unit_label, r->config.unit);
        break;
    case FB__COL_RATE:
        snprintf(name, len, "%s/s", r->config.unit);
        break;
    case FB__COL_INS:
        snprintf(name, len, "ins/%s", r->config.unit);
        break;
    case FB__COL_CYC:
        snprintf(name, len, "cyc/%s", r->config.unit);
        break;
    case FB__COL_BRA:
        snprintf(name, len, "bra/%s", r->config.unit);
        break;
    case FB__COL_VG_L1:
        snprintf(name, len, "L1 miss/%s", r->config.unit);
        break;
    case FB__COL_VG_LL:
        snprintf(name, len, "LL miss/%s", r->config.unit);
        break;
    default:
        snprintf(name, len, "%s", fixed[c]);
        break;
    }
}

/* A signature of the header: a new one is printed when it changes. */
static void fb__md_header_text(const fb_result *r, char *out, size_t len) {
    size_t o = 0;
    for (int c = 0; c < FB__COLS && o < len; ++c) {
        if (!fb__md_has_col(r, (fb__col)c)) continue;
        char name[64];
        fb__md_col_name(r, (fb__col)c, name, sizeof name);
        int n = snprintf(out + o, len - o, "%d:%s;", c, name);
        if (n < 0) break;
        o += (size_t)n;
    }
    for (size_t i = 0; i < fb_result_counter_count(r) && o < len; ++i) {
        char label[96];
        fb__ucounter_label(r, i, label, sizeof label);
        int n = snprintf(out + o, len - o, "u:%s;", label);
        if (n < 0) break;
        o += (size_t)n;
    }
    if (o < len) snprintf(out + o, len - o, "|%s", r->config.title);
}

/* The header with n_lead extra columns in front (a comparison's relative
 * and 95% CI; src/outputs/report_compare.c). */
void fb__md_header_lead(FILE *f, const fb_result *r, size_t n_lead, const char *const *names,
                        const int *widths) {
    for (size_t i = 0; i < n_lead; ++i) fprintf(f, "| %*s ", widths[i] - 3, names[i]);
    for (int c = 0; c < FB__COLS; ++c) {
        if (!fb__md_has_col(r, (fb__col)c)) continue;
        char name[64];
        fb__md_col_name(r, (fb__col)c, name, sizeof name);
        fb__md_cell(f, (fb__col)c, name);
    }
    fb__md_uc_cells(f, r, 0);
    fputs("| ", f);
    fb__md_text(f, r->config.title);
    fputc('\n', f);
    for (size_t i = 0; i < n_lead; ++i) {
        fputc('|', f);
        for (int k = 0; k < widths[i] - 2; ++k) fputc('-', f);
        fputc(':', f);
    }
    for (int c = 0; c < FB__COLS; ++c) {
        if (!fb__md_has_col(r, (fb__col)c)) continue;
        fputc('|', f);
        for (int i = 0; i < fb__md_width[c] - 2; ++i) fputc('-', f);
        fputc(':', f);
    }
    fb__md_uc_cells(f, r, 1);
    fputs("|:----------\n", f);
}

static void fb__md_print_header(FILE *f, const fb_result *r) {
    fb__md_header_lead(f, r, 0, NULL, NULL);
}

static void fb__md_num(FILE *f, fb__col c, double v, int decimals, const char *suffix) {
    char num[64], cell[80];
    fb__fmt_grouped(num, sizeof num, v, decimals);
    snprintf(cell, sizeof cell, "%s%s", num, isfinite(v) ? suffix : "");
    fb__md_cell(f, c, cell);
}

/* A complexity N as given (1,000.5, not 1,000; 0.0000001, not 0): the
 * fewest decimals that read back as N (src/platform/text.c). */
static void fb__md_n(FILE *f, fb__col c, double n) {
    char num[64];
    fb__fmt_n(num, sizeof num, n, true);
    fb__md_cell(f, c, num);
}

/* The baseline for relative mode: the first measured result of b. */
static const fb_result *fb__md_baseline(const fb_bench *b) {
    for (size_t i = 0; i < fb_result_count(b); ++i)
        if (!fb_result_error(fb_result_at(b, i))) return fb_result_at(b, i);
    return NULL;
}

static void fb__md_print_row(FILE *f, const fb_result *r, const fb_result *base, bool quiet) {
    if (r->error) {
        for (int c = 0; c < FB__COLS; ++c)
            if (fb__md_has_col(r, (fb__col)c)) {
                if (c == FB__COL_N)
                    fb__md_n(f, (fb__col)c, r->config.complexity_n);
                else
                    fb__md_cell(f, (fb__col)c, "-");
            }
        fb__md_uc_cells(f, r, 2);
        fb__md_name_cell(f, r, quiet);
        return;
    }
    double per_unit = fb_result_median(r, FB_ELAPSED) / r->config.batch; /* seconds */
    for (int c = 0; c < FB__COLS; ++c) {
        if (!fb__md_has_col(r, (fb__col)c)) continue;
        switch (c) {
        case FB__COL_RELATIVE: {
            double b_unit = base ? fb_result_median(base, FB_ELAPSED) / base->config.batch : NAN;
            fb__md_num(f, (fb__col)c, per_unit > 0 ? 100.0 * b_unit / per_unit : NAN, 1, "%");
            break;
        }
        case FB__COL_N:
            fb__md_n(f, (fb__col)c, r->config.complexity_n);
            break;
        case FB__COL_TIME:
            fb__md_num(f, (fb__col)c, per_unit / r->config.time_unit_s, 2, "");
            break;
        case FB__COL_RATE:
            fb__md_num(f, (fb__col)c, per_unit > 0 ? 1.0 / per_unit : 0, 2, "");
            break;
        case FB__COL_ERR:
            fb__md_num(f, (fb__col)c, fb_result_err_pct(r, FB_ELAPSED), 1, "%");
            break;
        case FB__COL_INS: /* exact under Callgrind, else the counter's median */
            fb__md_num(f, (fb__col)c,
                       (r->vg ? fb_result_valgrind(r, FB_VG_INSTRUCTIONS)
                              : fb_result_median(r, FB_INSTRUCTIONS)) /
                           r->config.batch,
                       2, "");
            break;
        case FB__COL_VG_L1:
            fb__md_num(f, (fb__col)c, fb_result_valgrind(r, FB_VG_L1_MISSES) / r->config.batch, 2,
                       "");
            break;
        case FB__COL_VG_LL:
            fb__md_num(f, (fb__col)c, fb_result_valgrind(r, FB_VG_LL_MISSES) / r->config.batch, 2,
                       "");
            break;
        case FB__COL_VG_BMISS: {
            double bra = fb_result_valgrind(r, FB_VG_BRANCHES);
            fb__md_num(f, (fb__col)c,
                       bra > 0 ? 100.0 * fb_result_valgrind(r, FB_VG_BRANCH_MISSES) / bra : NAN, 2,
                       "%");
            break;
        }
        case FB__COL_CYC:
            fb__md_num(f, (fb__col)c, fb_result_median(r, FB_CPUCYCLES) / r->config.batch, 2, "");
            break;
        case FB__COL_IPC: {
            double cyc = fb_result_median(r, FB_CPUCYCLES);
            fb__md_num(f, (fb__col)c, cyc > 0 ? fb_result_median(r, FB_INSTRUCTIONS) / cyc : NAN, 3,
                       "");
            break;
        }
        case FB__COL_BRA:
            fb__md_num(f, (fb__col)c, fb_result_median(r, FB_BRANCHINSTRUCTIONS) / r->config.batch,
                       2, "");
            break;
        case FB__COL_MISS: {
            double bra = fb_result_median(r, FB_BRANCHINSTRUCTIONS);
            fb__md_num(f, (fb__col)c,
                       bra > 0 ? 100.0 * fb_result_median(r, FB_BRANCHMISSES) / bra : NAN, 1, "%");
            break;
        }
        default:
            fb__md_num(f, (fb__col)c, r->total_s, 2, "");
            break;
        }
    }
    fb__md_uc_cells(f, r, 2);
    fb__md_name_cell(f, r, quiet);
}

/* For src/outputs/report_compare.c. */
void fb__md_row(FILE *f, const fb_result *r) {
    fb__md_print_row(f, r, NULL, fb__process_suppressed());
}

static bool fb__md_any_err(const fb_bench *b) {
    for (size_t i = 0; i < fb_result_count(b); ++i)
        if (fb__md_has_col(fb_result_at(b, i), FB__COL_ERR)) return true;
    for (size_t i = 0; i < fb_comparison_count(b); ++i) {
        const fb_comparison *c = fb_comparison_at(b, i);
        for (size_t a = 0; a < fb_comparison_size(c); ++a) {
            const fb_result *r = fb_comparison_result(c, a);
            if (r && fb__md_has_col(r, FB__COL_ERR)) return true;
        }
    }
    return false;
}

void fb__md_err_legend(FILE *f, const fb_bench *b) {
    if (!fb__md_any_err(b)) return;
    fputs("\n> err%: how far this process's epochs spread around the median (half lie within "
          "it); not where the next process lands, which -repetitions=5 measures\n",
          f);
}

void fb__table_sink(void *ctx, const fb_bench *b, const fb_result *r) {
    fb__table *t = ctx;
    FILE *f = t->out;
    if (!f) return;
    if (t->before_row) t->before_row(t->before_row_ctx);
    char sig[sizeof t->last_header];
    fb__md_header_text(r, sig, sizeof sig);
    if (t->last_out != f || strcmp(sig, t->last_header) != 0) {
        if (t->last_out == f) fputc('\n', f);
        fb__md_print_header(f, r);
        memcpy(t->last_header, sig, sizeof sig);
        t->last_out = f;
    }
    fb__md_print_row(f, r, fb__md_baseline(b), fb__process_suppressed());
    fflush(f);
}

void fb__table_restart(fb__table *t) { t->last_out = NULL; }

/* The results' tables; fb_write_markdown (src/outputs/report_compare.c) adds the
 * comparisons' after them. */
int fb__write_results_markdown(const fb_bench *b, FILE *f) {
    char last[512] = "";
    for (size_t i = 0; i < fb_result_count(b); ++i) {
        const fb_result *r = fb_result_at(b, i);
        char sig[sizeof last];
        fb__md_header_text(r, sig, sizeof sig);
        if (i == 0 || strcmp(sig, last) != 0) {
            if (i) fputc('\n', f);
            fb__md_print_header(f, r);
            memcpy(last, sig, sizeof sig);
        }
        fb__md_print_row(f, r, fb__md_baseline(b), fb__process_suppressed());
    }
    return ferror(f) ? FB_EIO : FB_OK;
}
