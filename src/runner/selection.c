/* The runner's selection: the command line read and checked, every
 * registered benchmark expanded into instances and filtered, the outputs
 * checked as one set and pinned, -isolate, -valgrind and the baseline
 * checked; bad input is one error line (exit status 2) before anything
 * runs. src/runner/runner.c runs what this selects. */
#include "selection.h"

#include "filter.h"
#include "isolate.h"  /* -isolate: fork available */
#include "plugin.h"   /* -version */
#include "process.h"  /* FEMTOBENCH_CONFIG's errors, the registry, endless mode */
#include "valgrind.h" /* -valgrind */

#include <stdint.h> /* SIZE_MAX */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Names that dashboards refuse: Bencher's benchmark names are 1 to 1024
 * bytes. NULL when fine, else what is wrong. */
const char *fb__select_bad_name(const char *name) {
    if (!name || !*name) return "is empty";
    if (strlen(name) > 1024) return "is longer than 1024 bytes (dashboards refuse it)";
    return NULL;
}

/* The outputs (src/runner/options_table.c's table) as one set, before anything runs:
 * each writable, no two the same file, none the file the table goes to,
 * none a -baseline file; each pinned (src/outputs/outfile_set.c). 0, or the exit
 * status of bad input after its line. */
static int fb__select_check_outputs(fb__opts *o) {
    if (o->gb_stdout) o->outs.given[FB__OUT_GB_STDOUT] = "-";
    size_t n_in = 0, cap = 1, blen = o->baseline ? strlen(o->baseline) + 1 : 1;
    for (const char *p = o->baseline; p && *p; ++p) cap += *p == ',';
    const char **inputs = calloc(cap, sizeof *inputs);
    char *buf = malloc(blen + cap), why[1024];
    if (!inputs || !buf) {
        free((void *)inputs);
        free(buf);
        return fb__opts_error("out of memory");
    }
    /* the -baseline files, each one (a list is the shards of one run) */
    size_t off = 0;
    for (const char *p = o->baseline; p && n_in < cap && off < blen + cap;) {
        if (fb__baseline_list_next(&p, buf + off, blen + cap - off) <= 0) break;
        inputs[n_in++] = buf + off;
        off += strlen(buf + off) + 1;
    }
    int rc = fb__outputs_prepare(&o->outs, !o->sanity, inputs, n_in, why, sizeof why);
    free((void *)inputs);
    free(buf);
    return rc != FB_OK ? fb__opts_error("%s", why) : 0;
}

/* A family of the selection (a benchmark alone is a family of one): its
 * first instance in the list and its size. */
typedef struct fb__select_family {
    size_t first, size;
} fb__select_family;

/* The largest family first; equal sizes in name order (the list's). */
static int fb__select_family_cmp(const void *x, const void *y) {
    const fb__select_family *a = x, *b = y;
    if (a->size != b->size) return a->size > b->size ? -1 : 1;
    return a->first < b->first ? -1 : a->first > b->first;
}

/* -shard=k/n: keeps shard k of n of the selected benchmarks (a
 * NULL-terminated list in the runner's order (src/registry/registry.h), a family's instances
 * next to each other), in their order, frees the others, and returns how
 * many are kept (SIZE_MAX: out of memory). Each family goes whole, the
 * largest first (equal sizes in name order), to the shard with the fewest
 * benchmarks so far, the lowest index on a tie: the split depends only on
 * the names selected, so every CI job computes the same one; the n shards
 * together are the selection, and their sizes differ by at most the
 * largest family's. *n_families: the selection's families. */
static size_t fb__select_shard(fb__instance **sel, unsigned k, unsigned n, size_t *n_families) {
    size_t count = 0, n_fam = 0;
    while (sel[count]) ++count;
    size_t *load = calloc(n, sizeof *load);
    fb__select_family *fam = calloc(count, sizeof *fam);
    unsigned char *keep = calloc(count, 1);
    if (!load || !fam || !keep) {
        free(load);
        free(fam);
        free(keep);
        return SIZE_MAX;
    }
    for (size_t a = 0, z; a < count; a = z) {
        for (z = a + 1;
             z < count && (sel[z]->reg == sel[a]->reg || fb__instance_same_family(sel[a], sel[z]));)
            ++z;
        fam[n_fam++] = (fb__select_family){a, z - a};
    }
    qsort(fam, n_fam, sizeof *fam, fb__select_family_cmp);
    for (size_t f = 0; f < n_fam; ++f) {
        unsigned to = 0;
        for (unsigned s = 1; s < n; ++s)
            if (load[s] < load[to]) to = s;
        load[to] += fam[f].size;
        if (to == k - 1) memset(keep + fam[f].first, 1, fam[f].size);
    }
    size_t kept = 0;
    for (size_t i = 0; i < count; ++i)
        if (keep[i])
            sel[kept++] = sel[i];
        else
            fb__instance_free(sel[i]);
    sel[kept] = NULL;
    *n_families = n_fam;
    free(load);
    free(fam);
    free(keep);
    return kept;
}

int fb__select(int argc, char **argv, fb__opts *o, fb__instance ***sel_out) {
    int rc = fb__opts_parse(argc, argv, o);
    if (rc) return rc;
    if (fb__process_config_errors() && !o->help) {
        /* the bad entries, then the one error line: bad input, like a bad option */
        fb__process_config_report(stderr);
        return fb__opts_error("FEMTOBENCH_CONFIG: %d bad entr%s (see above); nothing was run",
                              fb__process_config_errors(),
                              fb__process_config_errors() == 1 ? "y" : "ies");
    }
    if (o->help) {
        fb__opts_help(stdout, argc > 0 ? argv[0] : "femtobench");
        return -1;
    }
    if (o->version) {
        /* through the plugin entry point: a suite linked from the static
         * library then always carries it (femtobench-ab, docs/ab.md) */
        const fb__plugin_api *api = fb__plugin_entry();
        printf("femtobench %s (plugin interface %u)\n", api->version, api->abi);
        return -1;
    }
    /* Google Benchmark flags that change nothing here: said, not refused */
    for (size_t i = 0; i < o->n_gb_notes && !o->quiet; ++i)
        fprintf(stderr, "femtobench: note: --%s %s\n", o->gb_notes[i],
                fb__opts_help_of(o->gb_notes[i]));
    /* the Google Benchmark JSON layout: -gbench_rows, else GB's flags */
    if (o->gb_rows < 0)
        o->gb_rows = o->gb_aggregates_only == 1                    ? FB_GBENCH_AGGREGATES
                     : o->gb_aggregates_only == 0 || o->epochs > 0 ? FB_GBENCH_REPETITIONS
                                                                   : FB_GBENCH_MEDIAN;
    /* everything registered, families expanded into instances ("fn/arg"),
     * in the runner's order, bad registrations and duplicates refused (registry.c) */
    fb__instance **all;
    char why_reg[512];
    if (fb__registry_expand(fb__process_registry(), &all, why_reg, sizeof why_reg) != FB_OK)
        return fb__opts_error("%s", why_reg);
    *sel_out = all;
    size_t n = 0;
    while (all[n]) ++n;
    for (size_t i = 0; i < n; ++i)
        if (fb__select_bad_name(all[i]->name))
            return fb__opts_error("benchmark name '%.40s...' %s", all[i]->name,
                                  fb__select_bad_name(all[i]->name));

    const char *filter = o->filter ? o->filter : ".*";
    /* bounded, compiled and matched in a child, anchored by the
     * match's offsets (src/runner/filter.c); an instance is selected by its own name
     * or its family's; --benchmark_filter matches anywhere (GB) */
    unsigned char *hit = calloc(2 * n + 1, 1);
    const char **fnames = calloc(2 * n + 1, sizeof *fnames);
    char fwhy[320];
    if (!hit || !fnames) {
        free(hit);
        free(fnames);
        return fb__opts_error("out of memory");
    }
    for (size_t i = 0; i < n; ++i) {
        fnames[i] = all[i]->name;
        fnames[n + i] = all[i]->has_arg || all[i]->threads ? all[i]->reg->name : all[i]->name;
    }
    int bad_filter =
        fb__filter_select_mode(filter, fnames, 2 * n, hit, o->filter_search, fwhy, sizeof fwhy);
    free(fnames);
    if (bad_filter) {
        free(hit);
        const char *opt = o->filter_search ? "benchmark_filter" : "filter";
        if (strlen(filter) > 64) return fb__opts_error("-%s=%.60s...: %s", opt, filter, fwhy);
        return fb__opts_error("-%s=%s: %s", opt, filter, fwhy);
    }
    size_t k = 0;
    for (size_t i = 0; i < n; ++i)
        if ((hit[i] || hit[n + i]) != o->filter_negate)
            all[k++] = all[i];
        else
            fb__instance_free(all[i]);
    free(hit);
    all[k] = NULL;
    if (k == 0) {
        if (o->filter)
            return fb__opts_error("-%s=%s%s selects no benchmark (see -list)",
                                  o->filter_search ? "benchmark_filter" : "filter",
                                  o->filter_negate ? "-" : "", filter);
        return fb__opts_error("no benchmark is registered");
    }
    /* -shard=k/n: a part of what the filter selected (an empty part is
     * not an error: more CI jobs than families) */
    size_t n_selected = k, n_families = 0;
    if (o->shard_n && (k = fb__select_shard(all, o->shard_k, o->shard_n, &n_families)) == SIZE_MAX)
        return fb__opts_error("out of memory");

    /* the outputs as one set, checked and pinned */
    int orc = fb__select_check_outputs(o);
    if (orc) return orc;
    char why[1024];
    if (o->isolate && fb__isolate_check(why, sizeof why) != FB_OK) /* Windows: no fork */
        return fb__opts_error("%s: %s", o->timeout_s > 0 ? "-timeout" : "-isolate", why);
    if (o->valgrind) { /* -valgrind: what cannot work is refused before anything runs */
        const char *opt = o->valgrind == 2 ? "-valgrind=cache" : "-valgrind";
        if (o->sanity) return fb__opts_error("%s and -sanity_check do not go together", opt);
        if (o->min_time_ms >= 0)
            return fb__opts_error("-min_time: has no effect with %s (it counts, it does not "
                                  "time)",
                                  opt);
        if (fb__process_endless())
            return fb__opts_error("%s: FEMTOBENCH_ENDLESS is set (an endless run never ends "
                                  "under Valgrind either)",
                                  opt);
        if (fb__vg_runner_check(why, sizeof why) != FB_OK)
            return fb__opts_error("%s: %s", opt, why);
    }
    /* the baseline is read and fully checked before anything runs */
    if (!o->baseline && o->threshold_pct >= 0)
        return fb__opts_error("-threshold needs -baseline=<file>");
    if (!o->baseline && o->fail_on_slower)
        return fb__opts_error("-fail_on_slower needs -baseline=<file>");
    if (o->baseline) {
        /* counted under Callgrind (the child of -valgrind, which read and
         * checked the file already): read after the runs, where the
         * comparison needs it (src/runner/suite.c). Reading it first would leave
         * its allocations on the heap under the benchmarks, and code whose
         * count depends on addresses (memcpy's alignment) would count
         * otherwise than in the run that wrote the file */
        if (!fb__process_callgrind()->exact &&
            fb__baseline_load(o->baseline, &o->base, why, sizeof why))
            return fb__opts_error("-baseline=%s: %s", o->baseline, why);
    }
    if (k == 0) { /* an empty shard: nothing to list or run, and no file written */
        if (!o->quiet)
            fprintf(stderr,
                    "femtobench: note: -shard=%u/%u is empty (%zu benchmark%s in %zu famil%s "
                    "over %u shards): nothing %s\n",
                    o->shard_k, o->shard_n, n_selected, n_selected == 1 ? "" : "s", n_families,
                    n_families == 1 ? "y" : "ies", o->shard_n, o->list ? "listed" : "run");
        return o->list ? 0 : -1;
    }
    return 0;
}
