/* Callgrind's dump files (docs/valgrind.md): the header of one dump parsed
 * (the trigger, the events and their totals), and a counted pair's measures
 * per iteration derived from its two dumps' totals. */
#include "valgrind_dump.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Reads the rest of an over-long line. */
static void fb__vg_skip_line(FILE *f) {
    int c;
    while ((c = getc(f)) != EOF && c != '\n') {
    }
}

int fb__vg_parse_dump(FILE *f, fb__vg_dump *out, char *err, size_t err_len) {
    memset(out, 0, sizeof *out);
    char line[1024];
    int map[32]; /* column -> FB__VG_* (-1: an event we do not read) */
    size_t n_events = 0;
    bool events = false, totals = false;
    while (fgets(line, sizeof line, f)) {
        size_t len = strlen(line);
        if (len && line[len - 1] == '\n')
            line[--len] = '\0';
        else if (!feof(f))
            fb__vg_skip_line(f); /* a long cost or name line: never a header we read */
        if (strncmp(line, "desc: Trigger: ", 15) == 0) {
            snprintf(out->trigger, sizeof out->trigger, "%.255s", line + 15);
        } else if (strncmp(line, "events:", 7) == 0) {
            events = true;
            n_events = 0;
            for (char *save = NULL, *t = strtok_r(line + 7, " \t", &save); t;
                 t = strtok_r(NULL, " \t", &save)) {
                if (n_events == sizeof map / sizeof map[0]) break;
                int e = -1;
                for (int k = 0; k < FB__VG_EVENTS; ++k)
                    if (strcmp(t, fb__vg_event_name(k)) == 0) e = k;
                map[n_events++] = e;
            }
        } else if (strncmp(line, "summary:", 8) == 0 || strncmp(line, "totals:", 7) == 0) {
            if (!events) {
                snprintf(err, err_len, "a totals line before the events line");
                return -1;
            }
            char *p = strchr(line, ':') + 1;
            out->have = 0;
            /* as in cost lines, events missing at the end count 0 */
            for (size_t i = 0; i < n_events; ++i) {
                uint64_t v = 0;
                while (*p == ' ' || *p == '\t') ++p;
                if (*p) {
                    char *end;
                    errno = 0;
                    unsigned long long x = strtoull(p, &end, 10);
                    if (*p < '0' || *p > '9' || end == p || errno ||
                        (*end && *end != ' ' && *end != '\t')) {
                        snprintf(err, err_len, "a malformed totals line");
                        return -1;
                    }
                    v = (uint64_t)x;
                    p = end;
                }
                if (map[i] >= 0) {
                    out->totals[map[i]] = v;
                    out->have |= 1u << map[i];
                }
            }
            totals = true;
        }
    }
    if (ferror(f)) {
        snprintf(err, err_len, "read error");
        return -1;
    }
    if (!events || !totals) {
        snprintf(err, err_len, "not a Callgrind profile (no %s line)",
                 events ? "totals" : "events");
        return -1;
    }
    return 0;
}

void fb__vg_derive(struct fb__vg_result *r) {
    static const int groups[FB_VG_MEASURE_COUNT][4] = {
        [FB_VG_INSTRUCTIONS] = {FB__VG_IR, -1, -1, -1},
        [FB_VG_L1_MISSES] = {FB__VG_I1MR, FB__VG_D1MR, FB__VG_D1MW, -1},
        [FB_VG_LL_MISSES] = {FB__VG_ILMR, FB__VG_DLMR, FB__VG_DLMW, -1},
        [FB_VG_BRANCHES] = {FB__VG_BC, FB__VG_BI, -1, -1},
        [FB_VG_BRANCH_MISSES] = {FB__VG_BCM, FB__VG_BIM, -1, -1}};
    for (int m = 0; m < FB_VG_MEASURE_COUNT; ++m) {
        uint64_t s1 = 0, s2 = 0;
        bool ok = r->n2 > r->n1;
        for (int k = 0; k < 4 && groups[m][k] >= 0; ++k) {
            int e = groups[m][k];
            if (!(r->have & (1u << e))) ok = false;
            s1 += r->c1[e];
            s2 += r->c2[e];
        }
        /* signed: an epoch may miss the cache less than the shorter one */
        r->per_iter[m] = ok ? (double)(int64_t)(s2 - s1) / (double)(r->n2 - r->n1) : NAN;
    }
}
