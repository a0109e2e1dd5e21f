/* The HTML report: SVG primitives (escaping, SI labels, scales, ticks), the
 * page written from results built by hand with a fixed context (groups,
 * dots per epoch, quartile boxes, log axes, tables, complexity, escaping,
 * locale independence), and the comparison charts from synthetic arrays.
 * The page's structure is parsed by a real HTML parser in
 * test_html_cli.py and rendered by Chromium in test_html_browser.py. */
#include "check.h"
#include "internal.h"

#include <locale.h>

/* ------------------------------------------------------------ helpers */

static char *mem_text;
static size_t mem_len;

static FILE *mem_open(void) {
    free(mem_text);
    mem_text = NULL;
    mem_len = 0;
    return open_memstream(&mem_text, &mem_len);
}

static const char *mem_close(FILE *f) {
    fclose(f);
    return mem_text;
}

static size_t count(const char *hay, const char *needle) {
    size_t n = 0;
    for (const char *p = hay; (p = strstr(p, needle)) != NULL; p += strlen(needle)) ++n;
    return n;
}

/* A result as the core records it: per-iteration seconds for each epoch. */
static fb_result *make_result(const char *title, const char *name, const char *unit, double batch,
                              double n_cx, size_t epochs, const double *elapsed) {
    fb_result *r = calloc(1, sizeof *r);
    r->config.title = fb__strdup(title);
    r->name = fb__strdup(name);
    r->config.unit = fb__strdup(unit);
    snprintf(r->config.time_unit_label, sizeof r->config.time_unit_label, "ns");
    r->config.time_unit_s = 1e-9;
    r->config.batch = batch;
    r->config.complexity_n = n_cx;
    r->epochs = epochs;
    r->iterations = calloc(epochs ? epochs : 1, sizeof *r->iterations);
    r->values[FB_ELAPSED] = calloc(epochs ? epochs : 1, sizeof(double));
    for (size_t e = 0; e < epochs; ++e) {
        r->iterations[e] = 1000;
        r->values[FB_ELAPSED][e] = elapsed[e];
    }
    r->has = FB__BIT(FB_ELAPSED);
    fb__stats_compute(r);
    return r;
}

static void context(fb__sysinfo *si) {
    static fb__env_report env;
    memset(si, 0, sizeof *si);
    snprintf(si->date, sizeof si->date, "2000-01-02T03:04:05+00:00");
    snprintf(si->host_name, sizeof si->host_name, "<host>");
    snprintf(si->cpu_model, sizeof si->cpu_model, "Test CPU \"X\" @ 1.00GHz");
    si->num_cpus = 4;
    si->mhz_per_cpu = 1000;
    si->cpu_scaling = 0;
    si->n_load_avg = 3;
    si->load_avg[0] = 0.5, si->load_avg[1] = 0.25, si->load_avg[2] = 0.125;
    si->os = "testos";
    si->arch = "testarch";
    si->version = "0.0.0-test";
    si->compiler = "testcc 1.0";
    si->build_flags = "-O2 -DNDEBUG";
    si->library_build = 7;
    env.count = 1;
    snprintf(env.w[0].what, sizeof env.w[0].what, "CPU frequency scaling: <powersave>");
    snprintf(env.w[0].fix, sizeof env.w[0].fix, "use the performance governor");
    si->env = &env;
}

#define HOSTILE "<script>alert(1)</script>"
#define QUOTES "a\"b'&c"

/* Three groups: two fast ops and a slow one (log axis), bytes with hostile
 * names, and a complexity series; plus an error row. 5 + 5 + 3 + 4x3 = 25
 * epochs measured. */
static fb_bench *sample_bench(void) {
    fb_bench *b = fb_bench_new();
    double fast[5] = {1e-9, 1.1e-9, 1.2e-9, 1.3e-9, 5e-9};
    double slow[5] = {1e-6, 1e-6, 1.2e-6, 1.1e-6, 1.05e-6};
    fb__bench_add_result(b, make_result("ops", "fast", "op", 1, 0, 5, fast));
    fb__bench_add_result(b, make_result("ops", "slow", "op", 1, 0, 5, slow));
    double bytes[3] = {8e-9, 8.8e-9, 8.4e-9};
    fb__bench_add_result(b, make_result(HOSTILE, QUOTES, "b<y>te", 8, 0, 3, bytes));
    for (int k = 1; k <= 4; ++k) {
        double t = 1e-7 * k * 100, v[3] = {t, t * 1.01, t * 0.99};
        fb__bench_add_result(b, make_result("cx", "grow", "op", 1, 100.0 * k, 3, v));
    }
    fb_result *err = make_result("ops", HOSTILE, "op", 1, 0, 0, NULL);
    err->error = fb__strdup("`break` & <friends>");
    fb__bench_add_result(b, err);
    return b;
}

/* Switches LC_NUMERIC to a locale with a decimal comma: an installed one,
 * or a tiny one (LC_NUMERIC only) compiled by glibc's localedef into a
 * temporary LOCPATH in a few milliseconds. localedef -c exits 1 for the
 * categories it lacks; setlocale tells whether it worked. */
static bool comma_locale(void) {
    if (setlocale(LC_NUMERIC, "de_DE.UTF-8") || setlocale(LC_NUMERIC, "fr_FR.UTF-8")) return true;
    char dir[] = "/tmp/fb-test-html-XXXXXX";
    if (!mkdtemp(dir)) return false;
    char path[128], cmd[512];
    snprintf(path, sizeof path, "%s/comma.src", dir);
    FILE *src = fopen(path, "w");
    bool ok = false;
    if (src) {
        fputs("LC_NUMERIC\ndecimal_point \",\"\nthousands_sep \".\"\ngrouping 3;3\n"
              "END LC_NUMERIC\n",
              src);
        fclose(src);
        snprintf(cmd, sizeof cmd,
                 "localedef -c -i %s -f ANSI_X3.4-1968 %s/fb_comma >/dev/null 2>&1", path, dir);
        if (system(cmd) != -1) {
            setenv("LOCPATH", dir, 1);
            ok = setlocale(LC_NUMERIC, "fb_comma") != NULL;
        }
    }
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0) printf("note: could not remove %s\n", dir);
    return ok;
}

/* ---------------------------------------------------------- primitives */

static void test_escape(void) {
    FILE *f = mem_open();
    fb__svg_text(f, HOSTILE);
    CHECK_STR(mem_close(f), "&lt;script&gt;alert(1)&lt;/script&gt;");
    f = mem_open();
    fb__svg_text(f, QUOTES);
    CHECK_STR(mem_close(f), "a&quot;b&#39;&amp;c");
    f = mem_open();
    fb__svg_text(f, "x\n\t\x01\x7f\xff\xc2\x85\xc3\xa9");
    CHECK_STR(mem_close(f), "x\\n\\t\\x01\\x7f\xef\xbf\xbd\\u0085\xc3\xa9");
    f = mem_open();
    fb__svg_text_max(f, "\xc3\xa9\xc3\xa9\xc3\xa9xyz", 2);
    CHECK_STR(mem_close(f), "\xc3\xa9\xc3\xa9\xe2\x80\xa6");
    f = mem_open();
    fb__svg_text_max(f, "ab", 2);
    CHECK_STR(mem_close(f), "ab");
    f = mem_open();
    fb__svg_text(f, NULL);
    CHECK_STR(mem_close(f), "");
}

static void test_numbers(void) {
    char buf[64];
    fb__svg_si(buf, sizeof buf, 1.5e-6, "s", 3);
    CHECK_STR(buf, "1.5 \xc2\xb5s");
    fb__svg_si(buf, sizeof buf, 999.96e-9, "s", 3);
    CHECK_STR(buf, "1 \xc2\xb5s");
    fb__svg_si(buf, sizeof buf, 12.345e-9, "s", 6);
    CHECK_STR(buf, "12.345 ns");
    fb__svg_si(buf, sizeof buf, 0, "s", 3);
    CHECK_STR(buf, "0 s");
    fb__svg_si(buf, sizeof buf, 2, "s", 3);
    CHECK_STR(buf, "2 s");
    fb__svg_si(buf, sizeof buf, 32000, "", 3);
    CHECK_STR(buf, "32k");
    fb__svg_si(buf, sizeof buf, 0.2, "", 3); /* a count below one: no milli prefix */
    CHECK_STR(buf, "0.2");
    fb__svg_si(buf, sizeof buf, 0.0125, "", 3);
    CHECK_STR(buf, "0.0125");
    fb__svg_si(buf, sizeof buf, 250e-12, "s", 3);
    CHECK_STR(buf, "250 ps");
    fb__svg_si(buf, sizeof buf, NAN, "s", 3);
    CHECK_STR(buf, "-");
    fb__svg_si(buf, 4, 123e-9, "s", 3); /* truncated, terminated */
    CHECK_STR(buf, "123");
    fb__svg_fixed(buf, sizeof buf, 1234567.891, 2, true);
    CHECK_STR(buf, "1,234,567.89");
    fb__svg_fixed(buf, sizeof buf, -1234.5, 1, true);
    CHECK_STR(buf, "-1,234.5");
    fb__svg_fixed(buf, sizeof buf, -0.001, 1, true);
    CHECK_STR(buf, "0.0");
    fb__svg_fixed(buf, sizeof buf, NAN, 1, true);
    CHECK_STR(buf, "-");
    FILE *f = mem_open();
    fb__svg_num(f, 12.345);
    fputc(' ', f);
    fb__svg_num(f, 3.0);
    fputc(' ', f);
    fb__svg_num(f, -0.01);
    CHECK_STR(mem_close(f), "12.3 3 0");
}

static void test_scales(void) {
    fb__svg_scale s;
    double t[64];
    /* linear from 0, 1-2-5 steps */
    fb__svg_scale_init(&s, 3, 17, 100, 500, false, true);
    CHECK_NEAR(s.d0, 0, 0);
    CHECK_NEAR(s.d1, 20, 1e-12);
    size_t n = fb__svg_ticks(&s, t, 64);
    CHECK(n == 5);
    CHECK_NEAR(t[0], 0, 0);
    CHECK_NEAR(t[4], 20, 1e-12);
    CHECK_NEAR(fb__svg_at(&s, 10), 300, 1e-9);
    CHECK_NEAR(fb__svg_at(&s, -5), 100, 0); /* clamped */
    CHECK_NEAR(fb__svg_at(&s, 99), 500, 0);
    FILE *f = mem_open();
    fb__svg_axis_x(f, &s, 0, 10, "s", NULL);
    const char *axis = mem_close(f);
    CHECK(count(axis, "<line class=\"grid\"") == 5);
    CHECK(strstr(axis, ">0</text>") != NULL && strstr(axis, ">5 s</text>") != NULL);
    CHECK(strstr(axis, ">20 s</text>") != NULL);
    /* linear zoomed in (zero false) keeps the spread visible */
    fb__svg_scale_init(&s, 101, 104, 0, 100, false, false);
    CHECK(s.d0 >= 100 && s.d0 <= 101 && s.d1 >= 104 && s.d1 <= 105);
    /* log over decades */
    fb__svg_scale_init(&s, 1.2e-9, 3e-4, 0, 600, true, false);
    CHECK(s.ticks == FB__SVG_DECADES);
    CHECK_NEAR(s.d0, 1e-9, 1e-21);
    CHECK_NEAR(s.d1, 1e-3, 1e-15);
    n = fb__svg_ticks(&s, t, 64);
    CHECK(n == 7);
    CHECK_NEAR(fb__svg_at(&s, 1e-6), 300, 1e-6);
    CHECK_NEAR(fb__svg_at(&s, 0), 0, 0); /* <= 0 on a log scale: the start */
    /* log within 1-2-5 values */
    fb__svg_scale_init(&s, 30, 400, 0, 100, true, false);
    CHECK(s.ticks == FB__SVG_125);
    CHECK_NEAR(s.d0, 20, 1e-9);
    CHECK_NEAR(s.d1, 500, 1e-9);
    n = fb__svg_ticks(&s, t, 64);
    CHECK(n == 5); /* 20 50 100 200 500 */
    /* log over a small span (ratios): linear steps */
    fb__svg_scale_init(&s, 0.95, 1.1, 0, 100, true, false);
    CHECK(s.ticks == FB__SVG_STEPS);
    CHECK(s.d0 > 0 && s.d0 <= 0.95 + 1e-12 && s.d1 >= 1.1 - 1e-12);
    n = fb__svg_ticks(&s, t, 64);
    CHECK(n >= 3);
    bool has_one = false;
    for (size_t i = 0; i < n; ++i) has_one = has_one || fabs(t[i] - 1) < 1e-9;
    CHECK(has_one);
    /* degenerate ranges still give a usable scale */
    fb__svg_scale_init(&s, 5, 5, 0, 100, false, false);
    CHECK(s.d0 < 5 && s.d1 > 5);
    fb__svg_scale_init(&s, 5, 5, 0, 100, true, false);
    CHECK(s.d0 < 5 && s.d1 > 5);
    CHECK(fb__svg_at(&s, 5) > 0 && fb__svg_at(&s, 5) < 100);
}

static void test_quantile(void) {
    double v[4] = {1, 2, 3, 4};
    CHECK_NEAR(fb__quantile_sorted(v, 4, 0.25), 1.75, 1e-12);
    CHECK_NEAR(fb__quantile_sorted(v, 4, 0.5), 2.5, 1e-12);
    CHECK_NEAR(fb__quantile_sorted(v, 4, 0.75), 3.25, 1e-12);
    CHECK_NEAR(fb__quantile_sorted(v, 1, 0.75), 1, 0);
    CHECK(isnan(fb__quantile_sorted(v, 0, 0.5)));
}

/* The box is the quartiles of the epochs the median uses: a dropped
 * (disturbed) epoch is a dot, never part of the box. Epochs 1..5 ns and one
 * dropped at 100 ns: the box is 2 to 4 ns, the median 3 ns; with the
 * dropped epoch it would be 2.25 to 4.75 ns, the median 3.5 ns. */
static void test_box_uses_kept_epochs(void) {
    double el[6] = {1e-9, 2e-9, 3e-9, 4e-9, 5e-9, 100e-9};
    fb_result *r = make_result("t", "kept", "op", 1, 0, 6, el);
    r->epoch_flags = calloc(6, 1);
    r->epoch_flags[5] = FB__EPOCH_DISTURBED | FB__EPOCH_DROPPED;
    r->disturbed = 1;
    fb__stats_compute(r);
    CHECK_NEAR(r->summary[FB_ELAPSED].q1, 2e-9, 1e-21);
    CHECK_NEAR(r->summary[FB_ELAPSED].q3, 4e-9, 1e-21);
    CHECK_NEAR(r->summary[FB_ELAPSED].median, 3e-9, 1e-21);
    fb_bench *b = fb_bench_new();
    fb_set_output(b, NULL);
    fb__bench_add_result(b, r);
    fb__sysinfo si;
    context(&si);
    FILE *f = mem_open();
    CHECK(fb__write_html_with(b, f, &si) == FB_OK);
    const char *html = mem_close(f);
    CHECK(strstr(html, "quartiles 2 ns to 4 ns, median 3 ns per op") != NULL);
    fb_bench_free(b);
}

/* --------------------------------------------------------------- page */

static void test_page(void) {
    /* the page shows the machine's warnings unless they are suppressed:
     * tests/test_single_header.sh exports FEMTOBENCH_SUPPRESS_WARNINGS=1 */
    unsetenv("FEMTOBENCH_SUPPRESS_WARNINGS");
    fb__process_reload();
    fb_bench *b = sample_bench();
    fb__sysinfo si;
    context(&si);
    FILE *f = mem_open();
    CHECK(fb__write_html_with(b, f, &si) == FB_OK);
    const char *html = mem_close(f);
    CHECK(strncmp(html, "<!DOCTYPE html>", 15) == 0);
    CHECK(strstr(html, "</html>\n") != NULL);
    /* one strip chart per title/unit group, the error row in "ops" */
    CHECK(count(html, "<svg class=\"chart strip\"") == 3);
    CHECK(count(html, "<section class=\"group\"") == 3);
    CHECK(count(html, "<svg class=\"chart loglog\"") == 1);
    /* a dot per measured epoch */
    CHECK(count(html, "<circle class=\"dot\"") == 5 + 5 + 3 + 4 * 3);
    CHECK(count(html, "<rect class=\"box\"") == 2 + 1 + 4);
    CHECK(count(html, "class=\"median\"") == 2 + 1 + 4);
    /* fast (1 ns) and slow (1 us) share a log axis; the others are linear */
    CHECK(count(html, "(log scale)</text>") == 1);
    /* hostile text is escaped everywhere: no tag, no attribute breaks out */
    CHECK(strstr(html, "<script") == NULL);
    CHECK(strstr(html, QUOTES) == NULL);
    CHECK(strstr(html, "a&quot;b&#39;&amp;c") != NULL);
    CHECK(strstr(html, "&lt;script&gt;alert(1)&lt;/script&gt;") != NULL);
    CHECK(strstr(html, "b&lt;y&gt;te") != NULL);
    CHECK(strstr(html, "&lt;host&gt;") != NULL);
    CHECK(strstr(html, "`break` &amp; &lt;friends&gt;") != NULL);
    /* nothing outside the file */
    CHECK(strstr(html, "src=") == NULL);
    CHECK(strstr(html, "href") == NULL);
    CHECK(strstr(html, "url(") == NULL);
    CHECK(strstr(html, "@import") == NULL);
    /* context and warnings */
    CHECK(strstr(html, "0.0.0-test") != NULL);
    CHECK(strstr(html, "Test CPU &quot;X&quot; @ 1.00GHz, 4 CPUs, 1000 MHz") != NULL);
    CHECK(strstr(html, "testcc 1.0; flags: -O2 -DNDEBUG; optimized, NDEBUG") != NULL);
    CHECK(strstr(html, "off or unavailable") != NULL);
    CHECK(strstr(html, "CPU frequency scaling: &lt;powersave&gt;") != NULL);
    /* the table: the markdown columns, values like the markdown table */
    CHECK(count(html, "<table class=\"results\">") == 3);
    CHECK(strstr(html,
                 "<th>ns/op</th><th>op/s</th><th><abbr title=\"the spread of this "
                 "process's epochs, not of the next process\">err%</abbr></th><th>total</th>") !=
          NULL);
    CHECK(strstr(html, "<th>ns/b&lt;y&gt;te</th>") != NULL);
    CHECK(strstr(html, "<td>1.20</td>") != NULL); /* fast: median 1.2 ns */
    CHECK(strstr(html, "<td>1.05</td>") != NULL); /* 8.4 ns / 8 bytes */
    /* fast is unstable: err% = median of |x - 1.2| / 1.2 = 8.3% */
    CHECK(count(html, "<tr class=\"unstable\">") == 1);
    CHECK(count(html, "<tr class=\"error\">") == 1);
    CHECK(strstr(html, "name unstable") != NULL);
    /* complexity: a fit line, the best model first */
    CHECK(strstr(html, "<path class=\"fit\" d=\" M") != NULL);
    CHECK(strstr(html, "O(n) (best)") != NULL);
    CHECK(count(html, "<circle class=\"point\"") == 4);
    CHECK(strstr(html, "complexityN") != NULL);
    /* the legend says what err% and the boxes mean */
    CHECK(strstr(html, "<dt>err%</dt>") != NULL);
    CHECK(strstr(html, "quartiles") != NULL);

    /* locale independent: a comma-decimal locale writes the same bytes */
    char *c_text = fb__strdup(html);
    if (comma_locale()) {
        f = mem_open();
        CHECK(fb__write_html_with(b, f, &si) == FB_OK);
        CHECK_STR(mem_close(f), c_text);
        char probe[32];
        snprintf(probe, sizeof probe, "%.1f", 2.5);
        if (strcmp(probe, "2,5") != 0) /* musl: printf ignores the locale's decimal point */
            printf("note: this libc prints %s under a decimal-comma locale\n", probe);
        setlocale(LC_NUMERIC, "C");
    } else {
        printf("note: no comma-decimal locale installed; locale check not run\n");
    }
    free(c_text);

    /* quiet: no unstable marker, warnings counted, not shown */
    setenv("FEMTOBENCH_SUPPRESS_WARNINGS", "1", 1);
    fb__process_reload(); /* read once per process */
    f = mem_open();
    CHECK(fb__write_html_with(b, f, &si) == FB_OK);
    html = mem_close(f);
    CHECK(count(html, "<tr class=\"unstable\">") == 0);
    CHECK(strstr(html, "1 environment warning suppressed") != NULL);
    CHECK(strstr(html, "&lt;powersave&gt;") == NULL);
    unsetenv("FEMTOBENCH_SUPPRESS_WARNINGS");
    fb__process_reload();
    fb_bench_free(b);
}

static void test_empty_and_errors(void) {
    fb__sysinfo si;
    context(&si);
    fb_bench *b = fb_bench_new();
    FILE *f = mem_open();
    CHECK(fb__write_html_with(b, f, &si) == FB_OK);
    const char *html = mem_close(f);
    CHECK(strstr(html, "No results.") != NULL);
    CHECK(strstr(html, "<svg") == NULL);
    CHECK(fb_write_html(NULL, stdout) == FB_EINVAL);
    CHECK(fb_write_html(b, NULL) == FB_EINVAL);
    FILE *full = fopen("/dev/full", "w");
    if (full) {
        fb_bench_free(b);
        b = sample_bench();
        CHECK(fb_write_html(b, full) == FB_EIO);
        fclose(full);
    }
    fb_bench_free(b);
}

/* How many runs of the same byte contain the run `run` (one per place). */
static size_t runs(const char *hay, const char *run) {
    size_t n = 0;
    for (const char *p = hay; (p = strstr(p, run)) != NULL; ++n)
        while (*p == run[0]) ++p;
    return n;
}

/* Hostile sizes: a 100 KB title and unit are written in full once (the
 * group's heading), bounded everywhere else; 5,000 benchmarks in one group
 * make a chart of bounded height (the table still lists every row). */
static void test_bounded(void) {
    fb__sysinfo si;
    context(&si);
    fb_bench *b = fb_bench_new();
    size_t big = 100000;
    char *title = malloc(big + 1), *unit = malloc(big + 1);
    CHECK(title && unit);
    if (!title || !unit) return;
    memset(title, 'T', big);
    memset(unit, 'U', big);
    title[big] = unit[big] = '\0';
    double e3[3] = {1e-6, 1.1e-6, 1.2e-6};
    for (int i = 0; i < 50; ++i) {
        char name[16];
        snprintf(name, sizeof name, "b%d", i);
        CHECK(fb__bench_add_result(b, make_result(title, name, unit, 1, 0, 3, e3)) == FB_OK);
    }
    FILE *f = mem_open();
    CHECK(fb__write_html_with(b, f, &si) == FB_OK);
    const char *html = mem_close(f);
    char *kilo = malloc(1001);
    memset(kilo, 'T', 1000);
    kilo[1000] = '\0';
    CHECK(runs(html, kilo) == 1); /* the title in full: once */
    memset(kilo, 'U', 1000);
    CHECK(runs(html, kilo) == 1); /* the unit in full: once */
    CHECK(mem_len < 1000000);
    free(kilo);
    fb_bench_free(b);

    b = fb_bench_new();
    for (int i = 0; i < 5000; ++i) {
        char name[16];
        snprintf(name, sizeof name, "b%d", i);
        CHECK(fb__bench_add_result(b, make_result("t", name, "op", 1, 0, 3, e3)) == FB_OK);
    }
    f = mem_open();
    CHECK(fb__write_html_with(b, f, &si) == FB_OK);
    html = mem_close(f);
    /* every svg at most 8,000 px tall */
    for (const char *p = html; (p = strstr(p, "<svg")) != NULL; ++p) {
        const char *h = strstr(p, "viewBox=\"0 0 ");
        double w = 0, hh = 0;
        CHECK(h && sscanf(h + 14, "%lf %lf", &w, &hh) == 2 && hh <= 8000);
    }
    CHECK(strstr(html, ">b4999<") != NULL || strstr(html, ">b4999 ") != NULL); /* in the table */
    CHECK(strstr(html, "the first 200 of 5000 benchmarks") != NULL);
    fb_bench_free(b);
    free(title);
    free(unit);
}

/* ---------------------------------------------------------- comparisons */

static void test_forest(void) {
    const char *names[4] = {("faster " HOSTILE), "same", "no ratio", QUOTES};
    double ratio[4] = {1.5, 1.02, NAN, 0.5};
    double lo[4] = {1.3, 0.95, NAN, 0.45};
    double hi[4] = {1.7, 1.1, NAN, 0.56};
    FILE *f = mem_open();
    fb__html_forest(f, "A <vs> B", 4, names, ratio, lo, hi);
    const char *html = mem_close(f);
    CHECK(count(html, "<svg class=\"chart forest\"") == 1);
    CHECK(count(html, "<circle class=\"ratio\"") == 3); /* the NaN row only in the table */
    CHECK(count(html, "<g class=\"row differs\">") == 2);
    CHECK(count(html, "<g class=\"row same\">") == 1);
    CHECK(count(html, "<line class=\"one\"") == 1);
    CHECK(count(html, "<tr>") == 1 + 4); /* the header row and one per alternative */
    CHECK(strstr(html, "A &lt;vs&gt; B") != NULL);
    CHECK(strstr(html, "<script") == NULL);
    CHECK(strstr(html, "a&quot;b&#39;&amp;c") != NULL);
    CHECK(strstr(html, "1.5\xc3\x97, interval 1.3\xc3\x97 to 1.7\xc3\x97") != NULL);
    CHECK(strstr(html, "excludes 1") != NULL && strstr(html, "includes 1") != NULL);
    /* the line at 1 sits between the points at 0.5 and 1.5 */
    const char *one = strstr(html, "<line class=\"one\" x1=\"");
    const char *p05 = strstr(html, "<circle class=\"ratio\" cx=\"");
    CHECK(one && p05);
    if (one && p05) {
        double x1 = atof(one + strlen("<line class=\"one\" x1=\""));
        double xa = atof(p05 + strlen("<circle class=\"ratio\" cx=\"")); /* 1.5 */
        CHECK(xa > x1);
    }
    /* nothing to plot: the table only */
    f = mem_open();
    fb__html_forest(f, "none", 1, names + 2, ratio + 2, lo + 2, hi + 2);
    html = mem_close(f);
    CHECK(strstr(html, "<svg") == NULL);
    CHECK(count(html, "<tr>") == 1 + 1);
}

static void test_change_bars(void) {
    const char *names[5] = {"slower", "faster", "same", "missing", HOSTILE};
    double base[5] = {1e-6, 2e-6, 3e-9, NAN, 1};
    double now[5] = {1.123e-6, 1.5e-6, 3.01e-9, 5e-9, 1};
    double change[5] = {12.3, -25, 0.33, NAN, 0};
    double lo[5] = {10.1, -27, -1, NAN, -0.5};
    double hi[5] = {14, -23, 1.5, NAN, 0.5};
    int verdict[5] = {FB__HTML_SLOWER, FB__HTML_FASTER, FB__HTML_SAME, FB__HTML_UNKNOWN, 42};
    FILE *f = mem_open();
    fb__html_change_bars(f, "against main", 5, names, base, now, change, lo, hi, verdict);
    const char *html = mem_close(f);
    CHECK(count(html, "<svg class=\"chart change\"") == 1);
    CHECK(count(html, "<rect class=\"bar verdict-slower\"") == 1);
    CHECK(count(html, "<rect class=\"bar verdict-faster\"") == 1);
    CHECK(count(html, "<rect class=\"bar verdict-same\"") == 1);
    CHECK(count(html, "<rect class=\"bar verdict-unknown\"") == 1); /* 42: unknown, 0% */
    CHECK(count(html, "<rect class=\"bar") == 4);                   /* NaN: no bar */
    CHECK(count(html, "<tr class=\"verdict-") == 5);
    CHECK(strstr(html, "<td>1 \xc2\xb5s</td><td>1.123 \xc2\xb5s</td><td>+12.3%</td>"
                       "<td>+10.1%</td><td>+14.0%</td>") != NULL);
    CHECK(strstr(html, "<td>-25.0%</td>") != NULL);
    CHECK(strstr(html, "<td>-</td><td>5 ns</td><td>-</td>") != NULL);
    CHECK(strstr(html, "<script") == NULL);
    /* bars grow from the zero line: slower to the right, faster to the left */
    const char *zero = strstr(html, "<line class=\"one\" x1=\"");
    const char *slow = strstr(html, "<rect class=\"bar verdict-slower\" x=\"");
    const char *fast = strstr(html, "<rect class=\"bar verdict-faster\" x=\"");
    CHECK(zero && slow && fast);
    if (zero && slow && fast) {
        double x0 = atof(zero + strlen("<line class=\"one\" x1=\""));
        double xs = atof(slow + strlen("<rect class=\"bar verdict-slower\" x=\""));
        double xf = atof(fast + strlen("<rect class=\"bar verdict-faster\" x=\""));
        CHECK_NEAR(xs, x0, 0.11);
        CHECK(xf < x0);
    }
}

int main(void) {
    /* the report's warnings and unstable rows depend on this variable, which
     * the process state reads once: start from a known environment (the
     * single-header test exports it) */
    unsetenv("FEMTOBENCH_SUPPRESS_WARNINGS");
    fb__process_reload();
    test_escape();
    test_numbers();
    test_scales();
    test_quantile();
    test_box_uses_kept_epochs();
    test_page();
    test_empty_and_errors();
    test_bounded();
    test_forest();
    test_change_bars();
    free(mem_text);
    return CHECK_DONE();
}
