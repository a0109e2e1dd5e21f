/* The suite runner's command line: the parser (argv matched against the
 * tables of src/runner/options_table.c, each value checked by
 * src/runner/options_value.c), the defaults, and what it allocated. */
#include "options.h"
#include "cli_check.h"
#include "settings.h" /* bounds of the values */
#include "text.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int fb__opts_parse(int argc, char **argv, fb__opts *o) {
    size_t n_specs;
    const fb__opt_spec *specs = fb__opts_specs(&n_specs);
    const fb__output_spec *rows = fb__opts_outputs();
    for (int i = 1; i < argc; ++i) {
        const char *arg = argv[i];
        if (arg[0] != '-' || arg[1] == '\0')
            return fb__opts_error("unexpected argument '%s' (options start with '-'; see -help)",
                                  arg);
        const char *name = arg + 1 + (arg[1] == '-');
        const char *eq = strchr(name, '=');
        size_t len = eq ? (size_t)(eq - name) : strlen(name);
        const fb__opt_spec *spec = NULL;
        for (size_t k = 0; k < n_specs; ++k)
            if (strlen(specs[k].name) == len && strncmp(specs[k].name, name, len) == 0)
                spec = &specs[k];
        /* an output (the outputs' table): -option=<file> */
        int out = spec ? -1 : fb__outputs_find(rows, FB__OPTS_N_OUT, name, len);
        if (out >= 0 && rows[out].help) {
            const char *option = rows[out].option;
            char why[128];
            if (!eq) return fb__opts_error("-%s needs a value: -%s=<file>", option, option);
            if (fb__outputs_give(&o->outs, out, eq + 1, why, sizeof why) != FB_OK)
                return fb__opts_error("%s", why);
            continue;
        }
        if (!spec) {
            char given[64];
            snprintf(given, sizeof given, "%.*s", (int)len, name);
            const char *best = NULL;
            size_t best_d = 3;
            for (size_t k = 0; k < n_specs; ++k) {
                size_t d = fb__edit_distance(given, specs[k].name);
                if (d < best_d) best_d = d, best = specs[k].name;
            }
            for (size_t k = 0; k < FB__OPTS_N_OUT; ++k) {
                if (!rows[k].help) continue;
                size_t d = fb__edit_distance(given, rows[k].option);
                if (d < best_d) best_d = d, best = rows[k].option;
            }
            if (best) return fb__opts_error("unknown option '%s' (did you mean -%s?)", arg, best);
            return fb__opts_error("unknown option '%s' (see -help)", arg);
        }
        if (spec->takes_value == FB__V_REQUIRED && !eq)
            return fb__opts_error("-%s needs a value: -%s=%s", spec->name, spec->name, spec->arg);
        if (spec->takes_value == FB__V_NONE && eq)
            return fb__opts_error("-%s takes no value, got '%s'", spec->name, arg);
        const char *val = eq ? eq + 1 : "";
        int gb = fb__opts_check_padded(spec->name, val);
        if (gb) return gb;
        gb = fb__opts_gb_flag(spec->name, val, o);
        if (gb >= 0) {
            if (gb) return gb;
            continue;
        }
        if ((gb = fb__opts_feature_flag(spec->name, val, o)) >= 0) {
            if (gb) return gb;
            continue;
        }
        bool on = false;
        if (!strcmp(spec->name, "benchmark_list_tests")) {
            if ((gb = fb__opts_gb_bool(spec->name, val, &on)) != 0) return gb;
            o->list = on;
        } else if (!strcmp(spec->name, "benchmark_report_aggregates_only")) {
            if ((gb = fb__opts_gb_bool(spec->name, val, &on)) != 0) return gb;
            o->gb_aggregates_only = on;
        } else if (!strcmp(spec->name, "version"))
            o->version = true;
        else if (!strcmp(spec->name, "help"))
            o->help = true;
        else if (!strcmp(spec->name, "list"))
            o->list = true;
        else if (!strcmp(spec->name, "sanity_check"))
            o->sanity = true;
        else if (!strcmp(spec->name, "quiet"))
            o->quiet = true;
        else if (!strcmp(spec->name, "isolate"))
            o->isolate = true;
        else if (!strcmp(spec->name, "timeout")) {
            char why[96];
            if (!fb__opts_nonneg(val, &o->timeout_s) || o->timeout_s <= 0)
                return fb__opts_error("-timeout=%s: not a number of seconds > 0", val);
            if (fb__cli_range(o->timeout_s, 0, FB__CLI_MAX_TIMEOUT_S, "s", why, sizeof why))
                return fb__opts_error("-timeout=%s: %s", val, why);
            o->isolate = true;
        } else if (!strcmp(spec->name, "fail_on_slower"))
            o->fail_on_slower = true;
        else if (!strcmp(spec->name, "threshold")) {
            if (fb__change_parse_threshold(val, &o->threshold_pct))
                return fb__opts_error("-threshold=%s: not a percentage >= 0 and < 1000", val);
        } else if (!strcmp(spec->name, "baseline")) {
            if (!*val) return fb__opts_error("-baseline: empty file name");
            if (o->baseline) { /* given again: one more file of the baseline */
                size_t a = strlen(o->baseline), n = strlen(val);
                char *list = malloc(a + n + 2);
                if (!list) return fb__opts_error("out of memory");
                memcpy(list, o->baseline, a);
                list[a] = ',';
                memcpy(list + a + 1, val, n + 1);
                free(o->baseline_list);
                o->baseline_list = list;
                val = list;
            }
            o->baseline = val;
        } else if (!strcmp(spec->name, "filter")) {
            o->filter = val;
            o->filter_search = o->filter_negate = false;
        } else if (!strcmp(spec->name, "shard")) { /* src/runner/selection.c */
            int rc = fb__opts_shard(val, o);
            if (rc) return rc;
        } else if (!strcmp(spec->name, "valgrind")) { /* src/runner/valgrind_runner.c */
            if (eq && strcmp(val, "cache") != 0)
                return fb__opts_error("-valgrind=%s: unknown value (use -valgrind or "
                                      "-valgrind=cache)",
                                      val);
            o->valgrind = eq ? 2 : 1;
        } else if (!strcmp(spec->name, "min_time")) {
            char why[96];
            if (!fb__opts_nonneg(val, &o->min_time_ms))
                return fb__opts_error("-min_time=%s: not a non-negative number of milliseconds",
                                      val);
            if (fb__cli_range(o->min_time_ms, 0, FB__CLI_MAX_MIN_TIME_MS, "ms", why, sizeof why))
                return fb__opts_error("-min_time=%s: %s", val, why);
        } else if (!strcmp(spec->name, "repetitions")) { /* src/outputs/passes.c */
            /* the grammar of every other number (no blank, no sign) */
            double n;
            if (!fb__opts_nonneg(val, &n) || n != floor(n) || n < 1 || n > 1000 ||
                strpbrk(val, ".eE"))
                return fb__opts_error("-repetitions=%s: not a whole number from 1 to 1000", val);
            o->repetitions = (unsigned)n;
        } else if (!strcmp(spec->name, "asymptote")) {
            free(o->asymptote);
            o->asymptote = NULL;
            o->n_asymptote = 0;
            int rc = fb__opts_asymptote(val, o);
            if (rc) return rc;
        }
    }
    return 0;
}

void fb__opts_init(fb__opts *o) {
    memset(o, 0, sizeof *o);
    o->min_time_ms = -1;
    o->threshold_pct = -1;
    o->gb_rows = o->gb_aggregates_only = -1; /* not given */
    o->min_epoch_time_s = -1;
    fb__outputs_init(&o->outs, fb__opts_outputs(), FB__OPTS_N_OUT);
}

void fb__opts_free(fb__opts *o) {
    free(o->asymptote);
    o->asymptote = NULL;
    fb__context_clear(&o->context);
    fb__outputs_free(&o->outs);
    fb__baseline_free(&o->base);
    free(o->baseline_list);
    o->baseline_list = NULL;
}
