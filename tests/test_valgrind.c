/* src/run/valgrind.c's pure parts: reading a Callgrind dump's header (events,
 * totals, trigger), the per-iteration arithmetic, Valgrind's file-name
 * escapes, and the public accessors on results that were not counted. */
#include "check.h"
#include "internal.h"
#include "valgrind.h"

#include <stdlib.h>
#include <string.h>

static int parse(const char *text, fb__vg_dump *d, char *err, size_t len) {
    FILE *f = tmpfile();
    if (!f) return -2;
    fputs(text, f);
    rewind(f);
    int rc = fb__vg_parse_dump(f, d, err, len);
    fclose(f);
    return rc;
}

int main(void) {
    fb__vg_dump d;
    char err[128];

    /* the shape Callgrind 3.19 writes: events, summary, costs, totals */
    CHECK(parse("# callgrind format\nversion: 1\ncreator: callgrind-3.19.0\npart: 3\n\n"
                "desc: I1 cache: 32768 B, 64 B, 8-way associative\n"
                "desc: Trigger: Client Request: femtobench:3:8:Add10\n\n"
                "positions: line\nevents: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw Bc Bcm Bi Bim\n"
                "summary: 1200 300 200 4 5 6 1 2 3 100 7 10 1\n\nfn=(1) main\n5 1200 300\n"
                "totals: 1200 300 200 4 5 6 1 2 3 100 7 10 1\n",
                &d, err, sizeof err) == 0);
    CHECK_STR(d.trigger, "Client Request: femtobench:3:8:Add10");
    CHECK(d.have == (1u << FB__VG_EVENTS) - 1);
    CHECK(d.totals[FB__VG_IR] == 1200 && d.totals[FB__VG_DLMW] == 3 && d.totals[FB__VG_BIM] == 1);

    /* unknown events are skipped; missing trailing numbers count 0; a
     * cost line longer than the buffer is not mistaken for a header */
    char *text = malloc(5000);
    strcpy(text, "events: Ge Ir Bc\nfn=");
    for (int i = 0; i < 3000; ++i) strcat(text, "x");
    strcat(text, "summary: 0\n\ntotals: 9 77\n");
    CHECK(parse(text, &d, err, sizeof err) == 0);
    CHECK(d.totals[FB__VG_IR] == 77 && d.totals[FB__VG_BC] == 0);
    CHECK(d.have == ((1u << FB__VG_IR) | (1u << FB__VG_BC)));
    free(text);

    /* not a profile, totals before events, garbage numbers */
    CHECK(parse("hello\n", &d, err, sizeof err) == -1 && strstr(err, "events"));
    CHECK(parse("events: Ir\n", &d, err, sizeof err) == -1 && strstr(err, "totals"));
    CHECK(parse("summary: 5\nevents: Ir\n", &d, err, sizeof err) == -1);
    CHECK(parse("events: Ir\nsummary: 12x\n", &d, err, sizeof err) == -1 &&
          strstr(err, "malformed"));
    CHECK(parse("events: Ir\nsummary: -3\n", &d, err, sizeof err) == -1);

    /* (c2 - c1) / (n2 - n1): fixed costs cancel; a measure needs all its
     * events; fewer misses in the longer epoch give a negative rate */
    struct fb__vg_result r;
    memset(&r, 0, sizeof r);
    r.n1 = 64;
    r.n2 = 128;
    r.have = (1u << FB__VG_IR) | (1u << FB__VG_BC) | (1u << FB__VG_BI) | (1u << FB__VG_BCM);
    r.c1[FB__VG_IR] = 37 + 64 * 14;
    r.c2[FB__VG_IR] = 37 + 128 * 14;
    r.c1[FB__VG_BC] = 70, r.c2[FB__VG_BC] = 134;
    r.c1[FB__VG_BCM] = 5, r.c2[FB__VG_BCM] = 4;
    fb__vg_derive(&r);
    CHECK(r.per_iter[FB_VG_INSTRUCTIONS] == 14);
    CHECK(r.per_iter[FB_VG_BRANCHES] == 1);
    CHECK(isnan(r.per_iter[FB_VG_BRANCH_MISSES])); /* Bim missing */
    CHECK(isnan(r.per_iter[FB_VG_L1_MISSES]));
    r.have |= 1u << FB__VG_BIM;
    fb__vg_derive(&r);
    CHECK(r.per_iter[FB_VG_BRANCH_MISSES] == -1.0 / 64);

    /* Valgrind's escapes in --callgrind-out-file */
    char out[64];
    setenv("FBT_VG_DIR", "/tmp/x", 1);
    fb__process_callgrind_expand("%q{FBT_VG_DIR}/cg.%p.%%", 42, out, sizeof out);
    CHECK_STR(out, "/tmp/x/cg.42.%");
    fb__process_callgrind_expand("callgrind.out.%p", 7, out, 10);
    CHECK_STR(out, "callgrind");

    /* the environment -valgrind gives its child (execve, no setenv here) */
    setenv("FBT_VG_KEEP", "k", 1);
    setenv("FBT_VG_SET", "old", 1);
    const char *const set[] = {"FBT_VG_SET=new", "FBT_VG_ADDED=a=b"};
    char **env = fb__process_child_env(set, 2);
    CHECK(env != NULL);
    int keep = 0, old = 0, new_ = 0, added = 0;
    for (size_t i = 0; env && env[i]; ++i) {
        keep += strcmp(env[i], "FBT_VG_KEEP=k") == 0;
        old += strcmp(env[i], "FBT_VG_SET=old") == 0;
        new_ += strcmp(env[i], "FBT_VG_SET=new") == 0;
        added += strcmp(env[i], "FBT_VG_ADDED=a=b") == 0;
    }
    CHECK(keep == 1 && old == 0 && new_ == 1 && added == 1);
    CHECK_STR(getenv("FBT_VG_SET"), "old"); /* this process's environment is untouched */
    free(env);

    /* names and accessors */
    CHECK_STR(fb_vg_measure_name(FB_VG_LL_MISSES), "ll_misses");
    CHECK(fb_vg_measure_name(FB_VG_MEASURE_COUNT) == NULL);
    fb_bench *b = fb_bench_new();
    fb_set_output(b, NULL);
    uint64_t x = 1;
    FB_RUN(b, "plain") {
        x += x;
        fb_do_not_optimize(x);
    }
    const fb_result *res = fb_last_result(b);
    CHECK(res && !fb_result_counted(res)); /* not under Valgrind: timed as always */
    CHECK(res && isnan(fb_result_valgrind(res, FB_VG_INSTRUCTIONS)));
    CHECK(res && fb_result_has(res, FB_ELAPSED));
    fb_bench_free(b);
    return CHECK_DONE();
}
