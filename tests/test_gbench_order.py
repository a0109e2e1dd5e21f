"""Google Benchmark's order and complexity on femtobench (include/compat/gbench):
tests/suite_gbench_order.cpp lists and runs its benchmarks in Google Benchmark's
order (registration order; a family's instances by argument, then by thread
count; fixtures where BENCHMARK_F / BENCHMARK_REGISTER_F stand; RegisterBenchmark
at run time after the static ones; a filter keeps that order), and each family
with Complexity is fitted after its last instance: femtobench's fit table, its
JSON `complexity` entry, and Google Benchmark's `_BigO` and `_RMS` rows in the
Google Benchmark JSON. The times are manual (SetIterationTime), so the fits are
exact. Skipped (77) when the build has no C++ compiler (no suite program)."""
import json
import os
import subprocess
import sys
import tempfile

import fbtest

BUILD = os.environ.get("FB_BUILD_DIR", "build")
SUITE = os.path.join(BUILD, "tests", "suite_gbench_order")
check = fbtest.Checks()

if not os.path.exists(SUITE):
    print("no", SUITE, "(no C++ compiler): skipped")
    sys.exit(77)


def grow(kind):
    return ["BM_Grow<%s>/%d/manual_time" % (kind, n) for n in (16, 32, 64, 128, 256, 512)]


OWN_N = ["BM_OwnN/%d/manual_time" % a for a in (1, 2, 3)]
# What Google Benchmark 1.7.1 (libbenchmark-dev) prints for the same source with
# --benchmark_list_tests.
ORDER = (["BM_Zeta/3/threads:2", "BM_Zeta/3/threads:1", "BM_Zeta/1/threads:2",
          "BM_Zeta/1/threads:1", "BM_Alpha", "Fix/Middle", "BM_Alpha/7", "BM_Capture/beta",
          "Fix/Late/2", "Fix/Late/1", "BM_Templ<int>"]
         + grow("Linear") + grow("Square") + grow("NLogN") + grow("Square") + OWN_N + OWN_N
         + ["BM_OneN/1/manual_time", "BM_OneN/2/manual_time", "BM_Runtime/z", "BM_Runtime/a/2", "BM_Runtime/a/1"])


run = fbtest.runner(SUITE)


def strip(name):
    """A row's name without the marks a busy machine adds."""
    return name.split(":warning: ")[-1]


for flag in ("-list", "--benchmark_list_tests"):
    p = run(flag)
    check(p.returncode == 0, "%s: exit status %d: %s" % (flag, p.returncode, p.stderr))
    check(p.stdout.splitlines() == ORDER,
          "%s: Google Benchmark's order expected, got %s" % (flag, p.stdout.splitlines()))

# a filter keeps the order (femtobench's whole-name -filter, GB's search)
SUB = ["BM_Alpha", "BM_Alpha/7", "Fix/Late/2", "Fix/Late/1", "BM_Runtime/z", "BM_Runtime/a/2",
       "BM_Runtime/a/1"]
for flag in ("-filter=BM_Alpha.*|Fix/Late.*|BM_Runtime.*", "--benchmark_filter=Alpha|Late|Runtime"):
    p = run("-list", flag)
    check(p.returncode == 0, "%s: exit status %d: %s" % (flag, p.returncode, p.stderr))
    check(p.stdout.splitlines() == SUB, "%s: got %s" % (flag, p.stdout.splitlines()))

# the runs go in that order too
with tempfile.TemporaryDirectory() as d:
    fj = os.path.join(d, "fb.json")
    p = run("--benchmark_filter=Zeta|Alpha|Fix|Capture|Templ|Runtime", "--benchmark_min_time=300x",
            "-output_json=" + fj)
    check(p.returncode == 0, "run: exit status %d: %s" % (p.returncode, p.stderr[-2000:]))
    if p.returncode == 0:
        ran = [r["name"] for r in json.load(open(fj))["results"]]
        want = [n for n in ORDER if "Grow" not in n and "OwnN" not in n and "OneN" not in n]
        check(ran == want, "run order: %s" % ran)

# complexity: one fit per family, after its last instance
FAMILIES = [  # family, asked model, GB big_o, coefficient (ns), GB family_index
    ("BM_Grow<Linear>/manual_time", "O(n)", "N", 42.0),
    ("BM_Grow<Square>/manual_time", None, "N^2", 42.0),
    ("BM_Grow<NLogN>/manual_time", "O(n log n)", "NlgN", 42.0),
    ("BM_Grow<Square>/manual_time", "O(n)", "N", None),  # O(n) asked of an O(n^2) workload
    ("BM_OwnN/manual_time", "O(n)", "N", 1.0),  # N = 100, 200, 300 from SetComplexityN
    ("BM_OwnN/manual_time", None, "N", 1.0),    # a lambda: said, and the best model
]
with tempfile.TemporaryDirectory() as d:
    fj, gj = os.path.join(d, "fb.json"), os.path.join(d, "gb.json")
    p = run("--benchmark_filter=Grow|OwnN|OneN", "--benchmark_min_time=300x", "-output_json=" + fj,
            "--benchmark_out=" + gj, timeout=240)
    check(p.returncode == 0, "complexity run: exit status %d: %s" % (p.returncode,
                                                                     p.stderr[-2000:]))
    check("Complexity(lambda): the lambda is not used" in p.stderr,
          "the lambda is said to be unused: %s" % p.stderr)
    if p.returncode == 0:
        out = p.stdout
        for fam, asked, _, _ in FAMILIES:
            check("Complexity of `%s` over its instances:" % fam in out, "table: fit of " + fam)
        check(out.count("Asked for O(n): coefficient") == 3, "table: the O(n) asked thrice")
        # a family with one N: no fit, said under its title (and no BigO row)
        check("Complexity of `BM_OneN/manual_time` over its instances:\n"
              "A complexity fit needs at least two distinct N (found 1)." in out,
              "table: one N said")
        # the table: a family's fit right after its last row
        at = out.find("`BM_Grow<Linear>/512/manual_time`")
        check(0 <= at < out.find("Complexity of `BM_Grow<Linear>/manual_time`")
              < out.find("`BM_Grow<Square>/16/manual_time`"), "table: fit after the family")

        fb = json.load(open(fj))
        cx = fb["complexity"]
        check([c["name"] for c in cx] == [f[0] for f in FAMILIES] + ["BM_OneN/manual_time"],
              "femtobench JSON complexity: %s" % [c["name"] for c in cx])
        for c, (fam, asked, _, _) in zip(cx, FAMILIES):
            check(c.get("asked") == asked, "%s: asked %s, got %s" % (fam, asked, c.get("asked")))
        best = [c["fits"][0]["model"] if c["fits"] else None for c in cx]
        check(best == ["O(n)", "O(n^2)", "O(n log n)", "O(n^2)", "O(n)", "O(n)", None],
              "femtobench JSON: best models %s" % best)
        own = [r["complexityN"] for r in fb["results"] if strip(r["name"]) in OWN_N]
        check(own == [100, 200, 300, 100, 200, 300], "SetComplexityN's N: %s" % own)

        rows = json.load(open(gj))["benchmarks"]
        agg = [r for r in rows if r.get("aggregate_name") in ("BigO", "RMS")]
        check(len(agg) == 2 * len(FAMILIES), "GB JSON: %d BigO/RMS rows" % len(agg))
        for k, (fam, asked, big_o, coef) in enumerate(FAMILIES):
            if len(agg) < 2 * (k + 1):
                break
            bo, rms = agg[2 * k], agg[2 * k + 1]
            check(bo["name"] == fam + "_BigO" and bo["run_name"] == fam
                  and bo["run_type"] == "aggregate" and bo["aggregate_unit"] == "time"
                  and bo["time_unit"] == "ns" and bo["per_family_instance_index"] == 0,
                  "GB JSON BigO row: %s" % bo)
            check(bo["big_o"] == big_o, "%s: big_o %s, got %s" % (fam, big_o, bo["big_o"]))
            if coef is not None:
                check(abs(bo["real_coefficient"] - coef) < 1e-6 * coef
                      and bo["cpu_coefficient"] == bo["real_coefficient"],
                      "%s: coefficient %s ns, got %s" % (fam, coef, bo))
                check(0 <= rms["rms"] < 1e-6, "%s: rms %s" % (fam, rms["rms"]))
            else:  # the O(n) row of an O(n^2) workload: a poor fit, said so
                check(rms["rms"] > 0.1, "%s: rms of the asked O(n): %s" % (fam, rms["rms"]))
            check(rms["name"] == fam + "_RMS" and rms["aggregate_unit"] == "percentage"
                  and rms["family_index"] == bo["family_index"], "GB JSON RMS row: %s" % rms)
            # after the family's last instance, in its family
            i = rows.index(bo)
            last = rows[i - 1]
            check(last["family_index"] == bo["family_index"]
                  and last["run_type"] == "iteration", "%s: BigO after its rows" % fam)
        fams = [r["family_index"] for r in agg[::2]]
        check(len(set(fams)) == len(FAMILIES), "one GB family each: %s" % fams)

# femtobench-ab on the same suite as a plugin: a name registered twice is
# compared once, and a note says so (never silently one row short)
AB = os.path.join(BUILD, "femtobench-ab")
PLUGIN = os.path.join(BUILD, "tests", "ab_gbench_order.so")
if os.path.exists(AB) and os.path.exists(PLUGIN):
    p = subprocess.run([AB, PLUGIN, PLUGIN, "-instances=1", "-filter=BM_OwnN.*"],
                       capture_output=True, text=True, env=fbtest.clean_env(), timeout=300)
    rows = [l for l in p.stdout.splitlines() if l.startswith("| BM_OwnN/")]
    check(p.returncode == 0 and len(rows) == 3,
          "femtobench-ab, twice-registered names: %s %s %s" % (p.returncode, p.stdout, p.stderr))
    for k in (1, 2, 3):
        check("'BM_OwnN/%d/manual_time' is registered 2 times" % k in p.stderr and
              p.stderr.count("BM_OwnN/%d/manual_time' is registered" % k) == 1,
              "femtobench-ab says BM_OwnN/%d is compared once: %s" % (k, p.stderr))
else:
    print("femtobench-ab or its plugin not built: its check skipped")

check.finish()
