"""Google Benchmark compatibility of the runner: GB's flag names,
-version, names dashboards refuse, the row layouts read with the rules of the
tools that consume them, and compare.py's executable mode.

The dashboard rules are re-stated here (their code is not vendored):
 * github-action-benchmark, tool 'googlecpp' (src/extract.ts,
   extractGoogleCppResult): every element of "benchmarks" becomes a data point
   {name, value: real_time, unit: time_unit + "/iter"}; alerts (src/write.ts,
   findAlerts/getRatio): each current point is compared with the FIRST previous
   point of the same name, ratio current/prev (smaller is better for
   googlecpp), an alert when ratio > threshold (action.yml: alert-threshold
   default "200%").
 * Bencher, adapter cpp_google (lib/bencher_adapter/src/adapters/cpp/google.rs):
   context.caches must be an array; each row gives (name, real_time in
   time_unit as latency in ns) to a result map keyed by benchmark name, so a
   name that appears twice leaves one value for two rows (a defect); names
   are 1 to 1024 bytes (BenchmarkName).
Runs tests/suite_cli.c's program; compare.py as in test_formats_cli.py
(skipped with 77 at the end when missing)."""
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fbtest  # noqa: E402

BUILD = os.environ.get("FB_BUILD_DIR", "build")
SUITE = os.path.join(BUILD, "tests", "suite_cli")
COMPARE = "/usr/share/benchmark/compare.py"
check = fbtest.Checks()


def env(extra=None):
    e = dict(os.environ)
    for k in ("FEMTOBENCH_CONFIG", "FEMTOBENCH_ENDLESS", "SUITE_CLI_BADNAME"):
        e.pop(k, None)
    e["FEMTOBENCH_SUPPRESS_WARNINGS"] = "1"
    e.update(extra or {})
    return e


run = fbtest.runner(SUITE, env=env)


def bad(args, *must, extra=None):
    rc, out, err = run(*args, env=extra)
    lines = err.strip().splitlines()
    check(rc == 2, f"{args}: exit {rc}, want 2: {err!r}")
    check(out == "", f"{args}: printed on stdout {out[:200]!r}")
    check(len(lines) == 1 and lines[0].startswith("femtobench: error: "), f"{args}: {lines!r}")
    for m in must:
        check(m in err, f"{args}: stderr lacks {m!r}: {err!r}")


def googlecpp_extract(doc):
    return [{"name": b["name"], "value": b["real_time"], "unit": b["time_unit"] + "/iter"}
            for b in doc["benchmarks"]]


def googlecpp_alerts(cur, prev, threshold=2.0):
    alerts = []
    for c in cur:
        p = next((x for x in prev if x["name"] == c["name"]), None)
        if p is None:
            continue
        ratio = 1 if p["value"] == 0 and c["value"] == 0 else c["value"] / p["value"]
        if ratio > threshold:
            alerts.append((c["name"], ratio))
    return alerts


def bencher_cpp_google(doc):
    """name -> latency in ns; None when a name repeats (the defect)."""
    if not isinstance(doc.get("context", {}).get("caches"), list):
        return None
    scale = {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}
    out = {}
    for b in doc["benchmarks"]:
        if b["name"] in out:
            return None
        out[b["name"]] = b["real_time"] * scale[b["time_unit"]]
    return out


def check_explicit_epochs(r, asked, what, iterations=None):
    """A run asked for `asked` epochs (explicitly): what the option promises,
    on a quiet machine or a busy one. An epoch in which the thread was
    descheduled is recorded, marked (its index in `disturbed`) and replaced:
    the file then has more measurements than asked, and the statistics leave
    the marked ones out (`dropped`). On a machine so busy that most epochs are
    disturbed the run stops early with stopped_by "cap" (docs/design.md,
    "Disturbed epochs"). So: the epochs used, not the raw count of
    measurements."""
    ms = r.get("measurements") or []
    disturbed = r.get("disturbed") or []  # null where it cannot be read: none
    dropped = set(r.get("dropped") or [])
    clean = len(ms) - len(disturbed)
    check(r.get("epochs") == len(ms) and r.get("epochs_asked") == asked and r.get("rounds") == 0,
          f"{what}: epochs {r.get('epochs')}, {len(ms)} measurements, asked {r.get('epochs_asked')}")
    if iterations is not None:  # every recorded epoch, replaced ones included
        check([m["iterations"] for m in ms] == [iterations] * len(ms), f"{what}: iterations {ms}")
    check(all(0 <= i < len(ms) for i in disturbed) and len(set(disturbed)) == len(disturbed),
          f"{what}: disturbed {disturbed}")
    check(dropped <= set(disturbed), f"{what}: dropped {sorted(dropped)} not all disturbed {disturbed}")
    check(r.get("epochs_used") == len(ms) - len(dropped), f"{what}: epochs_used {r.get('epochs_used')}")
    if r.get("stopped_by") == "epochs":
        # every disturbed epoch was replaced by a clean one and left out
        check(clean == asked and r.get("epochs_used") == asked and dropped == set(disturbed),
              f"{what}: {clean} clean epochs, {r.get('epochs_used')} used, asked {asked}, "
              f"disturbed {disturbed}, dropped {sorted(dropped)}")
    else:
        check(r.get("stopped_by") == "cap" and (2 * clean < len(ms) or len(ms) >= 2 * asked),
              f"{what}: stopped by {r.get('stopped_by')} with {clean} clean of {len(ms)}")
        print(f"note: {what}: a busy machine: {len(disturbed)} of {len(ms)} epochs disturbed "
              f"(stopped_by 'cap'), {r.get('epochs_used')} used")
    return r.get("epochs_used")


if not os.path.exists(SUITE):
    print(f"SKIP: {SUITE} is not built")
    sys.exit(77)
tmp = tempfile.mkdtemp(prefix="fb_gbcli_")
P = lambda n: os.path.join(tmp, n)  # noqa: E731

# -version
rc, out, err = run("-version")
check(rc == 0 and out.startswith("femtobench ") and out.split()[1].count(".") == 2, f"-version: {out!r}")
rc, out2, _ = run("--version")
check(out2 == out, "--version")

# --benchmark_list_tests and --benchmark_filter (a match anywhere; '-' negates)
rc, out, _ = run("--benchmark_list_tests")
check(rc == 0 and out.split() == ["Alpha", "BadName", "Beta", "Broken", "Linear", "Slow"], f"list: {out!r}")
rc, out, _ = run("--benchmark_list_tests=true", "--benchmark_filter=et")
check(out.split() == ["Beta"], f"--benchmark_filter=et: {out!r}")
rc, out, _ = run("--benchmark_list_tests=true", "--benchmark_filter=-e")
check(out.split() == ["Alpha", "Slow"], f"--benchmark_filter=-e: {out!r}")
rc, out, _ = run("--benchmark_list_tests=false", "-filter=Alpha")
check(rc == 0 and re.search(r"\| (:warning: )?`Alpha`", out),
      f"--benchmark_list_tests=false runs: {out!r}")
bad(["--benchmark_list_tests=maybe"], "expected true or false")
bad(["--benchmark_filter=zzz"], "-benchmark_filter=zzz selects no benchmark")
bad(["--benchmark_filter=("], "invalid regular expression")
bad(["--benchmark_out_format=csv", "--benchmark_out=" + P("x")], "json format only")
bad(["--benchmark_format=csv"], "expected console or json")
bad(["--benchmark_format=json", "-output_json=-"], "only one output can go to stdout")
bad(["--benchmark_min_time=0,5"], "-benchmark_min_time=0,5")
bad(["--benchmark_min_time="], "expected seconds")
bad(["--benchmark_min_time=1.5x"], "whole number")
bad(["--benchmark_repetitions=0"], "from 1 to 1000000")
bad(["--benchmark_repetitions=2.5"], "from 1 to 1000000")
bad(["-gbench_rows=all"], "median, repetitions or aggregates")
bad(["--benchmark_out="], "empty file name")

# --benchmark_min_time: with --benchmark_repetitions, <n>x is n iterations per
# epoch (GB: per repetition); 3 epochs used, each of 7 iterations; a disturbed
# epoch is replaced and marked
rc, out, err = run("-filter=Alpha", "--benchmark_min_time=7x", "--benchmark_repetitions=3",
                   "-output_json=" + P("mt.json"))
check(rc == 0, f"--benchmark_min_time=7x --benchmark_repetitions=3: exit {rc}: {err}")
r = json.load(open(P("mt.json")))["results"][0] if rc == 0 else {}
check(r.get("config", {}).get("epoch_iterations") == 7 and r.get("config", {}).get("epochs") == 3,
      f"--benchmark_min_time=7x --benchmark_repetitions=3: config {r.get('config')}")
check_explicit_epochs(r, 3, "--benchmark_min_time=7x --benchmark_repetitions=3", iterations=7)
# alone, <n>x is n iterations in all, split over the epochs (11 of 10 each)
rc, out, err = run("-filter=Alpha", "--benchmark_min_time=100x", "-output_json=" + P("mtx.json"))
r = json.load(open(P("mtx.json")))["results"][0] if rc == 0 else {}
check(r.get("config", {}).get("epoch_iterations") == 10 and r.get("config", {}).get("epochs") == 11,
      f"--benchmark_min_time=100x: {rc} {err} config {r.get('config')}")
# seconds, with or without the 's': a total per repetition, as more epochs of
# the usual length (250 us), never longer ones
for arg in ("0.002s", "0.002"):
    rc, out, err = run("-filter=Alpha", "--benchmark_min_time=" + arg, "--benchmark_repetitions=2",
                       "-output_json=" + P("mt2.json"))
    r = json.load(open(P("mt2.json")))["results"][0] if rc == 0 else {}
    cfg = r.get("config", {})
    check(cfg.get("min_epoch_time") == 0.00025 and cfg.get("epochs") == 2 and cfg.get("epoch_iterations") == 0,
          f"--benchmark_min_time={arg}: {rc} {err} {cfg}")
    ms = r.get("measurements") or []
    off = set(r.get("disturbed") or [])  # a descheduled epoch reads long: not its length
    longest = max((m["elapsed"] * m["iterations"] for i, m in enumerate(ms) if i not in off), default=0)
    check((len(ms) > 2 or r.get("stopped_by") == "cap") and longest < 0.001,
          f"--benchmark_min_time={arg}: {len(ms)} epochs, longest undisturbed {longest}")
    check(r.get("total_s", 0) >= 0.004 or r.get("stopped_by") != "epochs",
          f"--benchmark_min_time={arg}: total_s {r.get('total_s')}, stopped by {r.get('stopped_by')}")

# layouts: the default (one row per benchmark), repetitions, aggregates only
def gb(*args):
    rc, out, err = run("-filter=Alpha|Beta", *args)
    check(rc == 0, f"{args}: exit {rc}: {err}")
    try:
        return json.loads(out)
    except ValueError as e:
        check(False, f"{args}: not JSON on stdout: {e}: {out[:200]!r}")
        return {"context": {}, "benchmarks": []}


d1 = gb("--benchmark_format=json")
d2 = gb("--benchmark_format=json")
for d in (d1, d2):
    names = [b["name"] for b in d["benchmarks"]]
    check(names == ["Alpha", "Beta"], f"default layout rows {names}")
    check(bencher_cpp_google(d) is not None, "Bencher: a repeated name in the default layout")
    beta = d["benchmarks"][-1]
    check(abs(beta["bytes_per_second"] - 64 / (beta["real_time"] * 1e-9)) <= 1e-9 * beta["bytes_per_second"],
          f"Beta: bytes_per_second beside a per-call real_time: {beta}")
cur, prev = googlecpp_extract(d2), googlecpp_extract(d1)
check(len(cur) == 2 and all(sum(p["name"] == c["name"] for p in prev) == 1 for c in cur),
      "googlecpp: each point has exactly one previous point of its name")
print("github-action-benchmark rule, default layout: points", [c["name"] for c in cur],
      "alerts", googlecpp_alerts(cur, prev))

# one row per epoch used: 5, or fewer when a busy machine capped the run
# (read from the femtobench JSON the same run writes)
reps = gb("--benchmark_format=json", "--benchmark_repetitions=5", "-output_json=" + P("reps.json"))
rows = reps["benchmarks"]
alpha = next((x for x in json.load(open(P("reps.json")))["results"] if x["name"] == "Alpha"), {})
used = check_explicit_epochs(alpha, 5, "--benchmark_repetitions=5")
alpha_its = [b for b in rows if b["run_name"] == "Alpha" and b["run_type"] == "iteration"]
check(len(alpha_its) == used and all(b["name"] == "Alpha" and b["repetitions"] == used for b in alpha_its),
      f"--benchmark_repetitions=5: {len(alpha_its)} rows, {used} epochs used")
check(sorted(b["repetition_index"] for b in alpha_its) == list(range(len(alpha_its))),
      "--benchmark_repetitions=5: repetition_index")
check({b["name"] for b in rows if b["run_type"] == "aggregate"} ==
      {f"{n}_{a}" for n in ("Alpha", "Beta") for a in ("mean", "median", "stddev")}, "aggregates")
med = next(b for b in rows if b["name"] == "Alpha_median")["real_time"]
check(abs(med - statistics.median(b["real_time"] for b in alpha_its)) <= 1e-9 * med, "Alpha_median")
check(bencher_cpp_google(reps) is None, "the repetitions layout repeats names (for compare.py, not dashboards)")
agg = gb("--benchmark_format=json", "--benchmark_repetitions=3", "--benchmark_report_aggregates_only")
check([b["run_type"] for b in agg["benchmarks"]] == ["aggregate"] * 6, "aggregates only")
check(bencher_cpp_google(agg) is not None, "aggregates only: unique names")
full = gb("--benchmark_format=json", "--benchmark_report_aggregates_only=false")
check(len([b for b in full["benchmarks"] if b["run_name"] == "Alpha"]) >= 4, "aggregates_only=false: per epoch rows")
same = gb("--benchmark_format=json", "--benchmark_repetitions=3", "-gbench_rows=median")
check([b["name"] for b in same["benchmarks"]] == ["Alpha", "Beta"], "-gbench_rows wins over GB's flags")

# names dashboards refuse: nothing written, exit 2; 1024 bytes is fine
for kind in ("empty", "long"):
    rc, out, err = run("-filter=BadName", "--benchmark_out=" + P(kind + ".json"), env={"SUITE_CLI_BADNAME": kind})
    check(rc == 2 and "femtobench: error: BadName: a run's name" in err and not os.path.exists(P(kind + ".json")),
          f"bad name {kind}: {rc} {err!r}")
rc, out, err = run("-filter=BadName", "--benchmark_out=" + P("max.json"), env={"SUITE_CLI_BADNAME": "max"})
check(rc == 0 and [len(b["name"]) for b in json.load(open(P("max.json")))["benchmarks"]] == [1024],
      f"1024-byte name: {rc} {err[-300:]!r}")

# compare.py's executable mode: it runs the binary with --benchmark_out=<tmp>
skip = None
py = None
if not os.path.exists(COMPARE):
    skip = f"{COMPARE} missing (apt-get install libbenchmark-tools python3-scipy)"
else:
    for cand in (sys.executable, "/usr/bin/python3", "python3"):
        try:
            if subprocess.run([cand, "-c", "import scipy, numpy"], capture_output=True).returncode == 0:
                py = cand
                break
        except OSError:
            pass
    if not py:
        skip = "no Python with scipy and numpy for compare.py"
if skip is None:
    old = P("old.json")
    rc, _, err = run("--benchmark_filter=Alpha|Beta", "--benchmark_repetitions=9", "--benchmark_out=" + old,
                     "--benchmark_out_format=json")
    check(rc == 0, f"old run: {rc} {err}")
    c = subprocess.run([py, COMPARE, "--no-color", "benchmarks", SUITE, old,
                        "--benchmark_filter=Alpha|Beta", "--benchmark_repetitions=9"],
                       capture_output=True, text=True, env=env(), timeout=300)
    check(c.returncode == 0 and "Traceback" not in c.stderr, f"compare.py executable mode: {c.returncode} {c.stderr[-1500:]}")
    check("RUNNING: " + SUITE in c.stdout and "OVERALL_GEOMEAN" in c.stdout, f"compare.py output {c.stdout[-1500:]}")
    # the U test over the epochs each side used: 9, unless a busy machine capped a run
    old_alpha = [b for b in json.load(open(old))["benchmarks"]
                 if b["run_name"] == "Alpha" and b["run_type"] == "iteration"]
    utest = re.search(r"^Alpha_pvalue .*U Test, Repetitions: (\d+) vs (\d+)", c.stdout, re.M)
    check(utest is not None and int(utest[1]) == len(old_alpha) and int(utest[2]) >= 3,
          f"compare.py: no U test on the old file's {len(old_alpha)} Alpha repetitions: {c.stdout[-1500:]}")
    if utest and (int(utest[1]), int(utest[2])) != (9, 9):
        print(f"note: a busy machine: U test on {utest[1]} vs {utest[2]} repetitions of 9")
    for n in ("Alpha_median", "Beta_median", "Alpha_pvalue"):
        check(any(l.startswith(n + " ") for l in c.stdout.splitlines()), f"compare.py printed no {n} row")
    print("compare.py executable mode:", [l for l in c.stdout.splitlines() if "_median" in l])
    # both sides executables, the default layout: one row each
    c = subprocess.run([py, COMPARE, "--no-color", "benchmarks", SUITE, SUITE, "--benchmark_filter=^Alpha$"],
                       capture_output=True, text=True, env=env(), timeout=300)
    rows = [l for l in c.stdout.splitlines() if l.startswith("Alpha")]
    check(c.returncode == 0 and len(rows) == 1, f"compare.py two executables: {c.returncode} {rows} {c.stderr[-500:]}")

for f in os.listdir(tmp):
    os.unlink(P(f))
os.rmdir(tmp)
if check.failures:
    print(f"{len(check.failures)} check(s) failed", file=sys.stderr)
    sys.exit(1)
if skip:
    print("SKIP (compare.py part only; everything else passed):", skip)
    sys.exit(77)
print("ok")
