"""The output files through the runner, read back with real parsers: Python's
csv and json modules, and Google Benchmark's compare.py on two runs of the
demo suite. Also: names that need escaping, an unwritable path (nothing
runs), '-' for stdout, complexity fits, and interrupted runs (Ctrl-C never
leaves a torn file or a temporary file behind).

Runs tests/suite_formats.c's program and bench/femtobench-demo. compare.py
comes from `apt-get install libbenchmark-tools python3-scipy` (.ci/run
installs both); without them that part is skipped (exit 77 at the end, after
every other check has passed). Named apart from test_formats.c because ctest
names each test by its file's stem."""
import csv
import glob
import json
import math
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import time
from datetime import datetime

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fbtest  # noqa: E402

BUILD = os.environ.get("FB_BUILD_DIR", "build")
SUITE = os.path.join(BUILD, "tests", "suite_formats")
DEMO = os.path.join(BUILD, "bench", "femtobench-demo")
COMPARE = "/usr/share/benchmark/compare.py"
MEASURES = {"iterations", "elapsed", "pagefaults", "cpucycles", "contextswitches",
            "instructions", "branchinstructions", "branchmisses", "cputime"}
WEIRD = 'a"b,c;d\\e|f\n\t\u00e9'
WEIRD_TITLE = 't "q", ;\\ | \u00e9'
CTRL = "ctrl\x01\x1f\x7f\ufffd end"  # the ill-formed byte 0xff becomes U+FFFD
CSV_HEADER = ["title", "name", "arg", "unit", "batch", "complexityN", "epochs", "iterations",
              "median_ns_per_unit", "min_ns_per_unit", "max_ns_per_unit", "mean_ns_per_unit",
              "err_pct", "instructions_per_unit", "cpucycles_per_unit",
              "branchinstructions_per_unit", "branchmisses_per_unit", "pagefaults_per_unit",
              "contextswitches_per_unit", "valgrind_instructions_per_unit",
              "valgrind_l1_misses_per_unit", "valgrind_ll_misses_per_unit",
              "valgrind_branches_per_unit", "valgrind_branch_misses_per_unit", "total_s", "error", "relative", "ci_low", "ci_high", "marks",
              "passes", "passes_median_ns_per_unit", "between_passes_pct", "cpu_ns_per_unit"]
NUMERIC = [k for k in CSV_HEADER[4:] if k not in ("error", "marks")]
check = fbtest.Checks()


def env():
    e = dict(os.environ)
    for k in ("FEMTOBENCH_CONFIG", "FEMTOBENCH_ENDLESS"):
        e.pop(k, None)
    e["FEMTOBENCH_SUPPRESS_WARNINGS"] = "1"
    return e


def default_sigint():
    signal.signal(signal.SIGINT, signal.SIG_DFL)


# run(prog, *args): a "\r" the program writes stays in its output
run = fbtest.runner(newlines=False, preexec_fn=default_sigint)


def near(a, b, rel=1e-9):
    return abs(a - b) <= rel * max(abs(a), abs(b), 1e-300)


def temps_in(d):
    return [n for n in os.listdir(d) if ".tmp-" in n]


def read_csv(path):
    with open(path, encoding="utf-8", newline="") as f:
        return list(csv.reader(f, strict=True))


def read_json(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f, parse_constant=lambda c: check.failures.append(f"{path}: {c} in JSON"))


# ------------------------------------------------------------------ checks

def check_csv(rows, names):
    check(rows and rows[0] == CSV_HEADER, f"CSV header {rows[0] if rows else None}")
    body = {r[1]: r for r in rows[1:]}
    check(len(rows) - 1 == len(names), f"CSV rows {len(rows) - 1}, want {len(names)}")
    for r in rows[1:]:
        check(len(r) == len(CSV_HEADER), f"CSV row width {len(r)}: {r}")
    for name in names:
        check(name in body, f"CSV lacks row {name!r}: {list(body)}")
    w = body.get(WEIRD)
    if w:
        check(w[0] == WEIRD_TITLE and w[2] == "" and w[3] == 'b"yte' and w[4] == "8", f"CSV weird row {w}")
    for r in rows[1:]:
        d = dict(zip(CSV_HEADER, r))
        if d["error"]:
            check(all(d[k] == "" for k in NUMERIC[2:] if k != "passes"), f"CSV error row has values: {r}")
            continue
        check(set(d["marks"].split()) <= {"optimized_away", "at_loop_resolution", "unresolved"}, f"CSV marks {d['marks']!r}")
        for k in NUMERIC:
            if d[k] != "":
                v = float(d[k])
                check(math.isfinite(v), f"CSV {k}={d[k]}")
        check(int(d["epochs"]) >= 1 and int(d["iterations"]) >= int(d["epochs"]), f"CSV counts {r}")
        check(float(d["min_ns_per_unit"]) <= float(d["median_ns_per_unit"]) <= float(d["max_ns_per_unit"]),
              f"CSV min <= median <= max: {r}")
    return body


def check_json(doc, names):
    check(doc.get("schema") == "femtobench/1", "JSON schema")
    check(re.fullmatch(r"\d+\.\d+\.\d+.*", doc.get("version", "")) is not None, "JSON version")
    try:
        datetime.fromisoformat(doc["date"])
    except Exception as e:  # noqa: BLE001
        check(False, f"JSON date {doc.get('date')!r}: {e}")
    ctx = doc.get("context", {})
    for k, t in (("host_name", str), ("cpu_model", str), ("num_cpus", int), ("compiler", str),
                 ("library_build_flags", str), ("caches", list), ("library_build", dict)):
        check(isinstance(ctx.get(k), t), f"JSON context.{k} = {ctx.get(k)!r}")
    check(ctx.get("warnings") is None or isinstance(ctx["warnings"], list), "JSON context.warnings")
    results = {r["name"]: r for r in doc.get("results", [])}
    check(len(doc.get("results", [])) == len(names), f"JSON results {list(results)}")
    for name in names:
        check(name in results, f"JSON lacks result {name!r}")
    for r in doc.get("results", []):
        check(set(r["config"]) == {"epochs", "epoch_iterations", "min_epoch_iterations", "min_epoch_time",
                                   "max_epoch_time", "max_total_time", "warmup",
                                   "clock_resolution_multiple", "min_time"}, f"JSON config keys {sorted(r['config'])}")
        for k in ("title", "unit", "batch", "complexityN", "relative", "callsite_build",
                  "clock_resolution_s", "clock_overhead_s", "epochs", "total_iterations", "total_s",
                  "stats", "measurements", "error"):
            check(k in r, f"JSON result {r['name']!r} lacks {k}")
        if r["error"]:
            continue
        ms = r["measurements"]
        check(len(ms) == r["epochs"], f"JSON {r['name']!r}: {len(ms)} measurements, epochs {r['epochs']}")
        for m in ms:
            check(set(m) <= MEASURES and "iterations" in m and "elapsed" in m, f"JSON measurement keys {sorted(m)}")
        check(sum(m["iterations"] for m in ms) == r["total_iterations"], f"JSON {r['name']!r} total_iterations")
        # the statistics use the epochs not dropped (disturbed or
        # superseded); the file keeps every epoch
        for k in ("epochs_asked", "epochs_used", "disturbed", "dropped", "rounds", "stopped_by"):
            check(k in r, f"JSON result {r['name']!r} lacks {k}")
        dropped = set(r.get("dropped", []))
        check(all(0 <= i < len(ms) for i in dropped), f"JSON {r['name']!r} dropped indices")
        check(r.get("epochs_used") == len(ms) - len(dropped), f"JSON {r['name']!r} epochs_used")
        check(r.get("stopped_by") in ("epochs", "budget", "cap"), f"JSON {r['name']!r} stopped_by")
        used = [m for i, m in enumerate(ms) if i not in dropped]
        el = sorted(m["elapsed"] for m in used)
        n = len(el)
        med = el[n // 2] if n % 2 else (el[n // 2 - 1] + el[n // 2]) / 2
        check(near(r["stats"]["elapsed"]["median"], med), f"JSON {r['name']!r} median")
        el = [m["elapsed"] for m in used]
        if len(el) > 1:
            import statistics
            check(near(r["stats"]["elapsed"]["stddev"], statistics.stdev(el), 1e-9),
                  f"JSON {r['name']!r} stddev")
        check(near(r["total_s"], sum(m["elapsed"] * m["iterations"] for m in ms), 1e-6), f"JSON {r['name']!r} total_s")
    w = results.get(WEIRD)
    if w:
        check(w["title"] == WEIRD_TITLE and w["unit"] == 'b"yte' and w["batch"] == 8, f"JSON weird {w['title']!r}")
    return results


def check_gbench(doc, results, layout="median"):
    """layout: the -gbench_rows of the file (median, repetitions, aggregates)."""
    ctx = doc.get("context", {})
    check(isinstance(ctx.get("caches"), list), "GB context.caches must be an array (Bencher)")
    check(ctx.get("json_schema_version") == 1, "GB json_schema_version")
    for k, t in (("date", str), ("host_name", str), ("num_cpus", int), ("mhz_per_cpu", int),
                 ("load_avg", list), ("library_build_type", str)):
        check(isinstance(ctx.get(k), t), f"GB context.{k} = {ctx.get(k)!r}")
    rows = doc.get("benchmarks", [])
    for row in rows:
        for k in ("name", "family_index", "per_family_instance_index", "run_name", "run_type",
                  "repetitions", "threads", "iterations", "real_time", "cpu_time", "time_unit"):
            check(k in row, f"GB row {row.get('name')!r} lacks {k}")
        # cpu_time is the thread's CPU time (real_time the wall time): positive,
        # and no more than real_time plus the CPU clock's jitter where timed
        if row.get("error_occurred") or "valgrind" in str(row.get("label", "")):
            check(row.get("real_time") == row.get("cpu_time"), "GB untimed row: cpu_time = real_time")
        else:
            check(row.get("cpu_time", -1) >= 0, f"GB cpu_time {row.get('cpu_time')}")
        check(row.get("time_unit") in ("ns", "us", "ms", "s"), "GB time_unit")
        check(row.get("threads") == 1, "GB threads")
    names = [x["name"] for x in rows]
    if layout == "median":  # dashboards key rows by name: each appears once
        check(len(names) == len(set(names)), f"GB median layout: a name repeats: {names}")
    for name, r in results.items():
        its = [x for x in rows if x["run_name"] == name and x["run_type"] == "iteration"]
        rate = ("bytes_per_second" if r["unit"] in ("byte", "bytes", "B")
                else "items_per_second" if r["batch"] != 1 else None)
        aggs = {x["aggregate_name"]: x for x in rows if x["run_name"] == name and x["run_type"] == "aggregate"}
        if r["error"]:
            check(len(its) == 1 and its[0].get("error_occurred") is True and its[0]["error_message"] == r["error"],
                  f"GB error row for {name!r}")
            continue
        if layout == "median":
            check(len(its) == 1 and not [x for x in rows if x["run_name"] == name and x is not its[0]],
                  f"GB {name!r}: rows {len(its)} in the median layout")
            x = its[0]
            check(x["repetitions"] == 1 and x["iterations"] == r["total_iterations"], f"GB {name!r} median row counts")
            med = r["stats"]["elapsed"]["median"]
            check(near(x["real_time"], med * 1e9, 1e-12), f"GB {name!r} real_time per call {x['real_time']}")
            if rate:
                check(near(x.get(rate, 0), r["batch"] / med, 1e-12), f"GB {name!r} {rate} {x.get(rate)}")
            continue
        # the repetitions are the epochs the statistics use
        dropped = set(r.get("dropped", []))
        used = [m for i, m in enumerate(r["measurements"]) if i not in dropped]
        if layout == "aggregates" and len(used) >= 2:
            check(its == [], f"GB {name!r}: iteration rows in the aggregates layout")
            its = []
        else:
            check(len(its) == len(used), f"GB {name!r}: {len(its)} iteration rows, used epochs {len(used)}")
        check(not its or sorted(x["repetition_index"] for x in its) == list(range(len(used))), f"GB {name!r} repetition_index")
        check(all(x["repetitions"] == len(used) and x["name"] == name for x in its), f"GB {name!r} repetitions")
        for x, m in zip(its, used):
            check(x["iterations"] == m["iterations"], f"GB {name!r} iterations")
            check(near(x["real_time"], m["elapsed"] * 1e9, 1e-12), f"GB {name!r} real_time per call")
            if rate:
                check(near(x.get(rate, 0), r["batch"] / m["elapsed"], 1e-12), f"GB {name!r} {rate}")
        if len(used) >= 2:
            check(set(aggs) == {"mean", "median", "stddev"}, f"GB {name!r} aggregates {sorted(aggs)}")
            med = aggs.get("median", {})
            check(med.get("name") == name + "_median" and med.get("aggregate_unit") == "time", f"GB {name!r} _median row")
            check(near(med.get("real_time", 0), r["stats"]["elapsed"]["median"] * 1e9, 1e-12),
                  f"GB {name!r} median {med.get('real_time')}")


# -------------------------------------------------------------------- main

if not os.path.exists(SUITE):
    print(f"SKIP: {SUITE} is not built")
    sys.exit(77)

tmp = tempfile.mkdtemp(prefix="fb_formats_")
P = lambda name: os.path.join(tmp, name)  # noqa: E731

# 1. every format, names that need escaping, an error row
names = [WEIRD, CTRL, "plain", "broken"]
rc, out, err = run(SUITE, "-filter=Weird|Ctrl|Plain|Broken", "-output_csv=" + P("a.csv"),
                   "-output_json=" + P("a.json"), "-output_gbench=" + P("a.gb.json"))
check(rc == 1, f"a failed benchmark: exit status {rc}, want 1; {err}")
rows = read_csv(P("a.csv"))
csv_rows = check_csv(rows, names)
doc = read_json(P("a.json"))
results = check_json(doc, names)
check_gbench(read_json(P("a.gb.json")), results)
for layout in ("repetitions", "aggregates"):
    rc, out, err = run(SUITE, "-filter=Weird|Ctrl|Plain|Broken", "-gbench_rows=" + layout,
                       "-output_json=" + P(layout + ".json"), "-output_gbench=" + P(layout + ".gb.json"))
    check(rc == 1, f"-gbench_rows={layout}: exit status {rc}: {err}")
    check_gbench(read_json(P(layout + ".gb.json")), check_json(read_json(P(layout + ".json")), names), layout)
check(temps_in(tmp) == [], f"temporary files left: {temps_in(tmp)}")
# the three formats agree
for name, r in results.items():
    if r["error"] or name not in csv_rows:
        continue
    d = dict(zip(CSV_HEADER, csv_rows[name]))
    check(near(float(d["median_ns_per_unit"]), r["stats"]["elapsed"]["median"] / r["batch"] * 1e9, 1e-12),
          f"CSV and JSON medians of {name!r}")
print(f"csv: {len(rows) - 1} rows, json: {len(results)} results, gbench: "
      f"{len(read_json(P('a.gb.json'))['benchmarks'])} rows parsed")

# 2. '-' is stdout (the table goes to stderr)
rc, out, err = run(SUITE, "-filter=Plain", "-output_json=-")
check(rc == 0, f"-output_json=-: exit {rc}")
try:
    check(json.loads(out)["results"][0]["name"] == "plain", "-output_json=- content")
except ValueError as e:
    check(False, f"-output_json=- is not JSON: {e}: {out[:200]!r}")
check(re.search(r"\| (:warning: )?`plain`", err), "-output_json=-: the table is on stderr")
rc, out, err = run(SUITE, "-filter=Plain", "-output_csv=-")
check(rc == 0 and out.startswith("title,name,") and len(out.splitlines()) == 2, f"-output_csv=-: {out!r}")

# 3. complexity: fits in the JSON, name/N in the GB JSON
rc, out, err = run(SUITE, "-filter=Scale", "-asymptote=64,128,256,512,1024",
                   "-output_json=" + P("cx.json"), "-output_gbench=" + P("cx.gb.json"))
check(rc == 0, f"-asymptote: exit {rc}: {err}")
cx = read_json(P("cx.json"))
check([c["name"] for c in cx["complexity"]] == ["scale"], f"complexity entries {cx['complexity']}")
fits = cx["complexity"][0]["fits"] if cx["complexity"] else []
check(len(fits) >= 2 and all(set(f) == {"model", "coefficient", "constant", "err_pct"} for f in fits),
      f"complexity fits {fits}")
check(sorted(r["complexityN"] for r in cx["results"]) == [64, 128, 256, 512, 1024], "complexityN values")
gbn = {b["run_name"] for b in read_json(P("cx.gb.json"))["benchmarks"]}
check(gbn == {"scale/64", "scale/128", "scale/256", "scale/512", "scale/1024"}, f"GB names {sorted(gbn)}")

# 4. unwritable paths: exit 2 before anything runs, one line naming path and reason
for path, reason in ((P("missing/dir/x.json"), "does not exist"), (tmp, "is a directory"),
                     ("/proc/fb_no.json", "cannot create")):
    rc, out, err = run(SUITE, "-filter=Plain", "-output_json=" + path)
    lines = err.strip().splitlines()
    check(rc == 2, f"unwritable {path}: exit {rc}")
    check(out == "", f"unwritable {path}: a benchmark ran: {out!r}")
    check(len(lines) == 1 and path in lines[0] and reason in lines[0], f"unwritable {path}: {lines}")
rc, out, err = run(SUITE, "-filter=Plain", "-output_csv=" + P("ok.csv"), "-output_gbench=" + P("nodir/x.json"))
check(rc == 2 and not os.path.exists(P("ok.csv")), "one bad path of two: nothing written")

# 5. Ctrl-C during a benchmark: the old file stays, no temporary file
with open(P("old.json"), "w") as f:
    f.write("OLD\n")
p = subprocess.Popen([SUITE, "-filter=Slow", "-output_json=" + P("old.json")], env=env(),
                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, preexec_fn=default_sigint)
time.sleep(0.5)
p.send_signal(signal.SIGINT)
rc = p.wait(timeout=60)
check(rc != 0, f"interrupted run: exit {rc}")
check(open(P("old.json")).read() == "OLD\n", "interrupted run: the old file changed")
check(temps_in(tmp) == [], f"interrupted run: temporary files {temps_in(tmp)}")

# 6. Ctrl-C at random moments, the end (writing) included: each file is the
# old one or a complete new one, never torn, and no temporary file remains
outs = {"csv": P("big.csv"), "json": P("big.json"), "gbench": P("big.gb.json")}
args = [SUITE, "-filter=Many"] + [f"-output_{k}={v}" for k, v in outs.items()]
t0 = time.monotonic()
rc, _, err = run(*args)
full = time.monotonic() - t0
check(rc == 0, f"Many: exit {rc}: {err}")
complete = {k: open(v, "rb").read() for k, v in outs.items()}
rng = random.Random(6)
kept = replaced = 0
for trial in range(40):
    for v in outs.values():
        with open(v, "w") as f:
            f.write("OLD\n")
    p = subprocess.Popen(args, env=env(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                         preexec_fn=default_sigint)
    time.sleep(rng.uniform(0.0, full * 1.1))
    p.send_signal(signal.SIGINT)
    p.wait(timeout=60)
    for k, v in outs.items():
        data = open(v, "rb").read()
        if data == b"OLD\n":
            kept += 1
            continue
        replaced += 1
        try:
            if k == "csv":
                n = len(list(csv.reader(data.decode("utf-8").splitlines(keepends=True))))
                check(n == 301 and data.endswith(b"\n"), f"trial {trial}: torn CSV ({n} rows)")
            else:
                json.loads(data.decode("utf-8"))
        except ValueError as e:
            check(False, f"trial {trial}: torn {k} file: {e}")
    check(temps_in(tmp) == [], f"trial {trial}: temporary files {temps_in(tmp)}")
print(f"interrupt trials: {kept} files kept old, {replaced} complete new ones (run {full * 1000:.0f} ms)")

# 7. a paired comparison in every format (src/run/compare.c): the statistics
# recomputed here from the per-round log ratios
CMP_TITLE = 'cmp "t", ;|'
CMP_NAMES = ["one", 'two, "quoted"']


def sign_interval(v, confidence):
    """Median and sign-test interval of v, as docs/compare.md defines them."""
    v, n = sorted(v), len(v)
    med = v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2
    cum, k = 0.0, 0
    for j in range(n // 2 + 1):
        cum += math.comb(n, j) / 2 ** n
        if cum > (1 - confidence) / 2:
            break
        k = j + 1
    return med, v[k - 1], v[n - k]


rc, out, err = run(SUITE, "-filter=Compare", "-output_csv=" + P("c.csv"), "-output_json=" + P("c.json"),
                   "-output_gbench=" + P("c.gb.json"))
check(rc == 0, f"comparison suite: exit {rc}: {err}")
check("relative" in err or "relative" in out, "comparison table printed")
doc = read_json(P("c.json"))
cmps = doc.get("comparisons", [])
check(len(cmps) == 1 and cmps[0]["title"] == CMP_TITLE, f"JSON comparisons {cmps[:1]}")
if cmps:
    cmp = cmps[0]
    alts = cmp["alternatives"]
    check([a["name"] for a in alts] == CMP_NAMES, f"JSON alternatives {[a['name'] for a in alts]}")
    check(cmp["rounds"] >= 6 and cmp["rounds"] % 2 == 0, f"JSON rounds {cmp['rounds']}")
    res = cmp["results"]
    check(len(res) == 2 and all(r["epochs"] == cmp["rounds"] for r in res), "JSON comparison results")
    check(all(m["iterations"] == cmp["iterations"] for r in res for m in r["measurements"]),
          "JSON comparison: one shared iteration count")
    lr = alts[1]["log_ratios"]
    check(len(lr) == cmp["rounds"], f"JSON log_ratios: {len(lr)}")
    def corrected(r, m):
        # an epoch less its fixed clock cost, never under the clock's step
        e = m["elapsed"] * m["iterations"] - r["clock_overhead_s"]
        return max(e, r["clock_resolution_s"]) / m["iterations"]
    check(all(x is None or near(x, math.log(corrected(res[0], a)) - math.log(corrected(res[1], b)), 1e-9)
              for x, a, b in zip(lr, res[0]["measurements"], res[1]["measurements"])),
          "JSON log ratios = ln t_baseline - ln t_alternative per round, less the clock's cost")
    med, lo, hi = sign_interval([x for x in lr if x is not None], cmp["confidence"])
    # never narrower than the clock resolves: a step in each side's median epoch
    q = sum(r["clock_resolution_s"] / (r["stats"]["elapsed"]["median"] * cmp["iterations"]) for r in res)
    lo, hi = min(lo, med - q), max(hi, med + q)
    check(near(alts[1]["ratio"], math.exp(med), 1e-12), f"JSON ratio {alts[1]['ratio']} vs {math.exp(med)}")
    check(near(alts[1]["low"], math.exp(lo), 1e-12) and near(alts[1]["high"], math.exp(hi), 1e-12),
          "JSON interval = sign-test order statistics")
    check(alts[1]["significant"] == (alts[1]["low"] > 1 or alts[1]["high"] < 1), "JSON significant")
    check(alts[0]["ratio"] == 1 and alts[0]["significant"] is False, "JSON baseline row")
    rows = read_csv(P("c.csv"))
    check(rows[0] == CSV_HEADER, "CSV header with a comparison")
    crow = {r[1]: dict(zip(CSV_HEADER, r)) for r in rows[1:] if r[0] == CMP_TITLE}
    check(set(crow) == set(CMP_NAMES), f"CSV comparison rows {list(crow)}")
    if set(crow) == set(CMP_NAMES):
        d = crow[CMP_NAMES[1]]
        check(near(float(d["relative"]), alts[1]["ratio"], 1e-12) and near(float(d["ci_low"]), alts[1]["low"], 1e-12)
              and near(float(d["ci_high"]), alts[1]["high"], 1e-12), f"CSV relative/ci {d}")
        check(crow["one"]["relative"] == "1" and crow["one"]["ci_low"] == "", f"CSV baseline {crow['one']}")
    gb = read_json(P("c.gb.json"))
    gres = {f"{CMP_TITLE}/{r['name']}": r for r in res}
    check_gbench(gb, gres)
    check({x["run_name"] for x in gb["benchmarks"]} == set(gres), "GB rows named title/name")

# 8. compare.py on two runs of the demo suite
skip = None
if not os.path.exists(COMPARE):
    skip = f"{COMPARE} missing (apt-get install libbenchmark-tools python3-scipy)"
elif not os.path.exists(DEMO):
    skip = f"{DEMO} is not built"
else:
    py = None
    for cand in (sys.executable, "/usr/bin/python3", "python3"):
        try:
            if subprocess.run([cand, "-c", "import scipy, numpy"], capture_output=True).returncode == 0:
                py = cand
                break
        except OSError:
            pass
    if not py:
        skip = "no Python with scipy and numpy for compare.py (apt-get install python3-scipy)"
if skip is None:
    for k in ("d1", "d2"):
        rc, _, err = run(DEMO, "-gbench_rows=repetitions", "-output_gbench=" + P(k + ".gb.json"))
        check(rc == 0, f"demo run {k}: exit {rc}: {err}")
    c = subprocess.run([py, COMPARE, "--no-color", "benchmarks", P("d1.gb.json"), P("d2.gb.json")],
                       capture_output=True, text=True, timeout=300)
    check(c.returncode == 0 and "Traceback" not in c.stderr, f"compare.py failed: {c.returncode} {c.stderr[-2000:]}")
    check("Comparing" in c.stdout and "OVERALL_GEOMEAN" in c.stdout, f"compare.py output: {c.stdout[-2000:]}")
    aggregated = [{b["run_name"] for b in read_json(P(k))["benchmarks"] if b["run_type"] == "aggregate"}
                  for k in ("d1.gb.json", "d2.gb.json")]
    demo_names = aggregated[0] & aggregated[1]  # a result with one epoch has no aggregates
    check(len(demo_names) >= 3, f"demo: few benchmarks with aggregates in both runs: {demo_names}")
    for n in sorted(demo_names):
        check(re.search(r"^" + re.escape(n) + r"_median\s", c.stdout, re.M) is not None,
              f"compare.py printed no {n}_median row")
    check("U Test, Repetitions" in c.stdout, "compare.py ran no U test (too few repetitions?)")
    lines = c.stdout.splitlines()
    print("compare.py:", len(lines), "lines, e.g.:")
    for line in [ln for ln in lines if "_median" in ln or "pvalue" in ln][:4] + lines[-1:]:
        print("   ", line)
    # and on the suite with the names that need escaping
    rc1, _, _ = run(SUITE, "-filter=Weird|Ctrl|Plain", "-gbench_rows=repetitions", "-output_gbench=" + P("w1.gb.json"))
    rc2, _, _ = run(SUITE, "-filter=Weird|Ctrl|Plain", "-gbench_rows=repetitions", "-output_gbench=" + P("w2.gb.json"))
    c = subprocess.run([py, COMPARE, "--no-color", "benchmarks", P("w1.gb.json"), P("w2.gb.json")],
                       capture_output=True, text=True, timeout=300)
    check(rc1 == 0 and rc2 == 0 and c.returncode == 0 and "OVERALL_GEOMEAN" in c.stdout,
          f"compare.py on escaped names: {c.returncode} {c.stderr[-2000:]}")

for f in glob.glob(os.path.join(tmp, "*")) + glob.glob(os.path.join(tmp, ".*")):
    os.unlink(f)
os.rmdir(tmp)
if check.failures:
    print(f"{len(check.failures)} check(s) failed", file=sys.stderr)
    sys.exit(1)
if skip:
    print("SKIP (compare.py part only; everything else passed):", skip)
    sys.exit(77)
print("ok")
