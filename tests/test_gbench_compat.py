"""Google Benchmark's API on femtobench (include/compat/gbench): the
instances of tests/suite_gbench_compat.cpp named by Google Benchmark's
expansion rules, and its counters, thread groups, fixed iterations and skipped
row read back from femtobench JSON and Google Benchmark JSON. Skipped (77)
when the build has no C++ compiler (no suite program)."""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fbtest  # noqa: E402

BUILD = os.environ.get("FB_BUILD_DIR", "build")
SUITE = os.path.join(BUILD, "tests", "suite_gbench_compat")
check = fbtest.Checks()


if not os.path.exists(SUITE):
    print("no", SUITE, "(no C++ compiler): skipped")
    sys.exit(77)

# Range: multiplier 8, both ends inclusive; RangeMultiplier(2) over a
# negative range mirrors the powers and adds 0; DenseRange steps; Ranges and
# ArgsProduct as a product with ArgNames; Iterations, UseRealTime and
# ThreadRange as name parts, in Google Benchmark's order.
EXPECTED = {
    "BM_Range/8", "BM_Range/64", "BM_Range/512",
    "BM_Range/-8", "BM_Range/-4", "BM_Range/-2", "BM_Range/-1", "BM_Range/0", "BM_Range/1",
    "BM_Range/2", "BM_Range/4",
    "BM_Range/10", "BM_Range/12", "BM_Range/14",
    "BM_Pair/a:1/b:16", "BM_Pair/a:8/b:16", "BM_Pair/a:1/b:32", "BM_Pair/a:8/b:32",
    "BM_Product/1/3/iterations:5", "BM_Product/2/3/iterations:5",
    "BM_Product/1/4/iterations:5", "BM_Product/2/4/iterations:5",
    "BM_Threads/3/real_time/threads:1", "BM_Threads/3/real_time/threads:2",
    "BM_Counters", "BM_Skip", "BM_Empty", "BM_Batch", "Fix/Sum/16", "BM_Templ<int>", "BM_Capture/seven",
    "runtime name with spaces",
}
p = subprocess.run([SUITE, "-list"], capture_output=True, text=True, timeout=60)
check(p.returncode == 0, "-list: exit status %d: %s" % (p.returncode, p.stderr))
listed = p.stdout.splitlines()
check(set(listed) == EXPECTED,
      "-list: missing %s, unexpected %s" % (sorted(EXPECTED - set(listed)),
                                            sorted(set(listed) - EXPECTED)))
check(len(listed) == len(set(listed)), "-list: a name twice")

with tempfile.TemporaryDirectory() as d:
    fj, gj = os.path.join(d, "fb.json"), os.path.join(d, "gb.json")
    p = subprocess.run([SUITE, "-output_json=" + fj,
                        "-output_gbench=" + gj], capture_output=True, text=True, timeout=240)
    # a skipped row is no failure
    check(p.returncode == 0, "run: exit status %d: %s" % (p.returncode, p.stderr[-2000:]))
    fb = {r["name"]: r for r in json.load(open(fj))["results"]}
    gb = {r["name"]: r for r in json.load(open(gj))["benchmarks"]}
    check(set(fb) == EXPECTED, "femtobench JSON: names %s" % sorted(set(fb) ^ EXPECTED))
    check(set(gb) == EXPECTED, "GB JSON: names %s" % sorted(set(gb) ^ EXPECTED))

    def counters(r):
        return {c["name"]: c for c in r.get("user_counters") or []}

    c = counters(fb["BM_Counters"])
    check(c.get("size", {}).get("value") == 42, "size counter: %s" % c.get("size"))
    check(c.get("per_iter", {}).get("value") == 3, "kAvgIterations: %s" % c.get("per_iter"))
    check(c.get("items", {}).get("kind") == "rate" and c["items"]["value"] == 2,
          "SetItemsProcessed: an amount of 2 per iteration shown per second: %s" % c.get("items"))
    check(gb["BM_Counters"].get("size") == 42, "GB JSON: size %s" % gb["BM_Counters"].get("size"))
    # SetLabel: the row's label in both files (fb_set_label)
    check(fb["BM_Counters"].get("label") == "two items an iteration",
          "SetLabel: %s" % fb["BM_Counters"].get("label"))
    check(gb["BM_Counters"].get("label", "").startswith("two items an iteration"),
          "GB JSON label: %s" % gb["BM_Counters"].get("label"))
    check("label" not in fb["BM_Range/8"], "a label on a row without SetLabel")
    # counters summed over the group's threads; kAvgThreads divides again
    t2 = counters(fb["BM_Threads/3/real_time/threads:2"])
    check(t2.get("per_thread", {}).get("value") == 2, "summed over 2 threads: %s" % t2)
    check(t2.get("avg", {}).get("value") == 4, "kAvgThreads: %s" % t2)
    t1 = counters(fb["BM_Threads/3/real_time/threads:1"])
    check(t1.get("per_thread", {}).get("value") == 1, "one thread: %s" % t1)
    # Iterations(5): one epoch of exactly 5 iterations
    for n in ("BM_Product/1/3/iterations:5", "BM_Product/2/4/iterations:5"):
        check(fb[n]["error"] is None and fb[n].get("total_iterations") == 5,
              "%s: %s iterations" % (n, fb[n].get("total_iterations")))
    # SkipWithMessage: a row that says so, in both files
    check((fb["BM_Skip"]["error"] or "") == "skipped: no device here",
          "skip row: %s" % fb["BM_Skip"]["error"])
    check(gb["BM_Skip"].get("error_occurred") is True and
          "no device here" in gb["BM_Skip"].get("error_message", ""),
          "GB JSON skip row: %s" % gb["BM_Skip"])
    # KeepRunningBatch(1009): each epoch counts the whole batches it ran
    # (a batch larger than the first epochs' counts is no "does not grow")
    b = fb["BM_Batch"]
    check(b["error"] is None and b["measurements"] and
          all(m["iterations"] % 1009 == 0 for m in b["measurements"]),
          "KeepRunningBatch: %s %s" % (b["error"], [m["iterations"] for m in b["measurements"]]))
    # an empty loop is a measured row (a mark), never an error
    check(fb["BM_Empty"]["error"] is None, "empty loop: %s" % fb["BM_Empty"]["error"])
    for n in EXPECTED - {"BM_Skip"}:
        check(fb[n]["error"] is None, "%s: error %s" % (n, fb[n]["error"]))

# main from femtobench::benchmark_main (Google Benchmark's benchmark_main)
MAIN = os.path.join(BUILD, "tests", "suite_gbench_main")
EMPTY = os.path.join(BUILD, "tests", "suite_gbench_empty")
check(os.path.exists(MAIN) and os.path.exists(EMPTY), "benchmark_main: no suite built")
if os.path.exists(MAIN) and os.path.exists(EMPTY):
    p = subprocess.run([MAIN, "--benchmark_min_time=0.01s"], capture_output=True, text=True,
                       timeout=120)
    check(p.returncode == 0 and "BM_FromMain" in p.stdout,
          "benchmark_main: exit %d: %s %s" % (p.returncode, p.stdout, p.stderr))
    p = subprocess.run([MAIN, "-list"], capture_output=True, text=True, timeout=60)
    check(p.returncode == 0 and p.stdout.split() == ["BM_FromMain"],
          "benchmark_main -list: %d %r" % (p.returncode, p.stdout))
    # no benchmark at all: Google Benchmark's flags only, exit 0 with a line;
    # with femtobench's options, its rule (nothing to run is bad input)
    p = subprocess.run([EMPTY, "--benchmark_min_time=0.01s"], capture_output=True, text=True,
                       timeout=60)
    check(p.returncode == 0 and "no benchmark is registered" in p.stderr,
          "empty suite, Google Benchmark's flags: exit %d: %s" % (p.returncode, p.stderr))
    p = subprocess.run([EMPTY, "-sanity_check"], capture_output=True, text=True, timeout=60)
    check(p.returncode == 2, "empty suite, -sanity_check: exit %d: %s" % (p.returncode, p.stderr))

# the same suite built as a femtobench-ab plugin (femtobench_add_plugin):
# registered when the plugin is asked for its benchmarks (fb_register_later:
# a plugin never runs main), each copy its own (g++'s unique statics off)
AB = os.path.join(BUILD, "femtobench-ab")
PLUGIN = os.path.join(BUILD, "tests", "ab_gbench.so")
if os.path.exists(AB) and os.path.exists(PLUGIN):
    with tempfile.TemporaryDirectory() as d:
        js = os.path.join(d, "ab.json")
        env = dict(os.environ, FEMTOBENCH_SUPPRESS_WARNINGS="1")
        r = subprocess.run([AB, PLUGIN, PLUGIN, "-filter=BM_Range|BM_Skip|Fix", "-output_json=" + js],
                           capture_output=True, text=True, env=env, timeout=300)
        check(r.returncode == 0, "femtobench-ab A/A of the suite: exit %d: %s" % (r.returncode,
                                                                              r.stderr))
        if os.path.exists(js):
            with open(js) as f:
                doc = json.load(f)
            rows = {b["name"]: b for b in doc["benchmarks"]}
            want = {n for n in EXPECTED if n.startswith(("BM_Range", "BM_Skip", "Fix"))}
            check(set(rows) == want, "femtobench-ab rows: %s" % sorted(set(rows) ^ want))
            check(all(b["verdict"] not in ("new", "gone") for b in rows.values()),
                  "femtobench-ab: both copies list the suite: %s" %
                  {n: b["verdict"] for n, b in rows.items()})
            check(rows.get("BM_Skip", {}).get("verdict") == "skipped" and
                  doc["summary"]["skipped"] == 1 and doc["summary"]["error"] == 0,
                  "femtobench-ab skip row: %s %s" % (rows.get("BM_Skip"), doc["summary"]))

check.finish()
