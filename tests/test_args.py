"""Benchmark families in the runner (FB_BENCHMARK_ARGS, FB_BENCHMARK_RANGE):
instance names, -list, -filter, -sanity_check, the outputs read by their real
consumers (Python's json and csv, Google's compare.py), the complexity fit over
a family and its interplay with -asymptote, and every bad registration (one
small suite program each: exit status 2, one line, nothing run).
Runs tests/suite_args.c and tests/suite_badreg_*.c."""
import csv
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fbtest  # noqa: E402

BUILD = os.environ.get("FB_BUILD_DIR", "build")
SUITE = os.path.join(BUILD, "tests", "suite_args")
COMPARE = "/usr/share/benchmark/compare.py"
check = fbtest.Checks()


run = fbtest.runner(SUITE)


def rows_named(out):
    """(name, cells) of every table row, in order."""
    rows = []
    for line in out.splitlines():
        # the name is the first `...` of the last cell; marks and notes may
        # follow it (a slow core or an optimized-away op on a busy machine)
        m = re.match(r"^\|.*\|([^|]*)$", line)
        name = m and re.match(r"^\s*(?::[a-z_]+: )*`([^`]*)`", m.group(1))
        if name:
            rows.append((name.group(1), [c.strip() for c in line.strip("|").split("|")]))
    return rows


COPY = ["Copy/8", "Copy/64", "Copy/512", "Copy/4096"]  # RANGE(8, 4096, 8)
SCAN = ["Scan/1000", "Scan/2000", "Scan/4000", "Scan/8000", "Scan/16000", "Scan/32000"]
ALL = COPY + ["Grow/1", "Grow/4", "Pair/2", "Pair/5", "Plain"] + SCAN

# -list: every instance, families in the order of their arguments
rc, out, err = run("-list")
check(rc == 0 and out.split() == ALL, f"-list: {out.split()}")
# -filter: whole instance names, or the family's name for all its instances
for flt, want in [("Copy/(8|64)", ["Copy/8", "Copy/64"]), ("Copy", COPY), ("Scan/1000", ["Scan/1000"]),
                  (".*/4.*", ["Copy/4096", "Grow/4", "Scan/4000"]), ("Plain|Pair/5", ["Pair/5", "Plain"])]:
    rc, out, err = run("-list", "-filter=" + flt)
    check(rc == 0 and out.split() == want, f"-list -filter={flt}: {out.split()} {err}")
rc, out, err = run("-list", "-filter=Cop")
check(rc == 2 and "selects no benchmark" in err, f"-filter=Cop: rc={rc} {err!r}")

# -sanity_check: every instance runs once
rc, out, err = run("-sanity_check")
check(rc == 0 and out == "", f"-sanity_check: rc={rc} out={out!r}")
check(f"sanity check: {len(ALL)} benchmarks ran, 0 failed" in err, f"-sanity_check: {err!r}")

with tempfile.TemporaryDirectory() as tmp:
    P = lambda n: os.path.join(tmp, n)  # noqa: E731

    # the table and the three files
    rc, out, err = run("-filter=Copy|Pair|Plain", "-output_json=" + P("r.json"),
                       "-output_csv=" + P("r.csv"), "-output_gbench=" + P("g.json"))
    check(rc == 0, f"run: rc={rc} {err}")
    names = [n for n, _ in rows_named(out)]
    want = COPY + ["PairAdd/2", "PairMul/2", "PairAdd/5", "PairMul/5", "Plain"]
    check(names == want, f"table rows {names}")
    check("ns/byte" in out and "ns/op" in out, "table: Copy per byte, the others per op")
    check("Complexity of" not in out and "coefficient" not in out, "no fit without N")

    res = json.load(open(P("r.json")))["results"]
    got = [(r["name"], r["arg"], r["unit"], r["batch"]) for r in res]
    check(got == [("Copy/8", 8, "byte", 8), ("Copy/64", 64, "byte", 64), ("Copy/512", 512, "byte", 512),
                  ("Copy/4096", 4096, "byte", 4096), ("PairAdd/2", 2, "op", 1), ("PairMul/2", 2, "op", 1),
                  ("PairAdd/5", 5, "op", 1), ("PairMul/5", 5, "op", 1), ("Plain", None, "op", 1)],
          f"JSON name/arg/unit/batch: {got}")
    check(json.load(open(P("r.json")))["complexity"] == [], "JSON: no complexity without N")

    with open(P("r.csv"), newline="") as f:
        table = list(csv.DictReader(f))
    got = [(r["name"], r["arg"]) for r in table]
    check(got == [("Copy/8", "8"), ("Copy/64", "64"), ("Copy/512", "512"), ("Copy/4096", "4096"),
                  ("PairAdd/2", "2"), ("PairMul/2", "2"), ("PairAdd/5", "5"), ("PairMul/5", "5"),
                  ("Plain", "")], f"CSV name/arg: {got}")
    check(list(table[0])[:3] == ["title", "name", "arg"], f"CSV columns {list(table[0])[:4]}")

    gb = [b for b in json.load(open(P("g.json")))["benchmarks"] if b["run_type"] == "iteration"]
    seen = {}
    for b in gb:
        seen.setdefault(b["run_name"], (b["family_index"], b["per_family_instance_index"]))
    check(list(seen) == want, f"GB run names {list(seen)}")
    # the instances of a family are one GB family (the explicitly named runs
    # of Pair are two: PairAdd and PairMul), instances numbered in order
    check([seen.get(n) for n in COPY] == [(0, 0), (0, 1), (0, 2), (0, 3)], f"GB Copy family: {seen}")
    check(len(seen) == len(want) and seen["PairAdd/2"][0] == seen["PairAdd/5"][0] != seen["PairMul/2"][0] == seen["PairMul/5"][0],
          f"GB Pair families: {seen}")
    check(len({v[0] for v in seen.values()}) == 4, f"GB families: {seen}")

    # compare.py pairs the instances of two runs by their fn/arg names
    py = None
    for cand in (sys.executable, "/usr/bin/python3"):
        if subprocess.run([cand, "-c", "import scipy, numpy"], capture_output=True).returncode == 0:
            py = cand
            break
    if os.path.exists(COMPARE) and py:
        rc2, _, err2 = run("-filter=Copy", "-gbench_rows=repetitions", "-output_gbench=" + P("g2.json"))
        rc3, _, err3 = run("-filter=Copy", "-gbench_rows=repetitions", "-output_gbench=" + P("g3.json"))
        c = subprocess.run([py, COMPARE, "--no-color", "benchmarks", P("g2.json"), P("g3.json")],
                           capture_output=True, text=True, timeout=300)
        check(rc2 == 0 and rc3 == 0 and c.returncode == 0, f"compare.py: {c.returncode} {c.stderr[-2000:]}")
        for n in COPY:
            check(re.search(r"^" + re.escape(n) + r"_median\s", c.stdout, re.M) is not None,
                  f"compare.py printed no {n}_median row: {c.stdout[-3000:]}")
            check(re.search(r"^" + re.escape(n) + r"_pvalue\s", c.stdout, re.M) is not None,
                  f"compare.py printed no {n}_pvalue row (no U test)")
    else:
        print("note: compare.py or scipy missing; compare.py check skipped")

    # the fit over a family whose instances set N from fb_arg: after its rows
    rc, out, err = run("-filter=Scan|Plain", "-output_json=" + P("s.json"))
    check(rc == 0, f"Scan: rc={rc} {err}")
    rows = rows_named(out)
    check([n for n, _ in rows] == ["Plain"] + SCAN, f"Scan rows {rows}")
    check([c[0] for n, c in rows if n.startswith("Scan")] == ["1,000", "2,000", "4,000", "8,000", "16,000", "32,000"],
          f"Scan complexityN cells {rows}")
    check(out.count("Complexity of `Scan` over its instances:") == 1, f"one family fit: {out}")
    tail = out[out.find("Complexity of `Scan`"):]
    check(out.rfind("`Scan/32000`") < out.find("Complexity of `Scan`"), "fit after the last instance")
    models = re.findall(r"^\|\s+\S+ \|\s+[\d.]+% \| (O\([^)]*\))", tail, re.M)
    check(sorted(models) == sorted(["O(1)", "O(n)", "O(log n)", "O(n log n)", "O(n^2)", "O(n^3)"]),
          f"fit table models {models}")
    # linear work on a clock that moves with the work: exactly O(n)
    check(models[:1] == ["O(n)"], f"Scan fit: {tail}")
    cx = json.load(open(P("s.json")))["complexity"]
    check([c["name"] for c in cx] == ["Scan"] and len(cx[0]["fits"]) == 6 and
          cx[0]["fits"][0]["model"] == (models[0] if models else None), f"JSON complexity {cx}")

    # the HTML report: one complexity chart for the family, a point per instance
    rc, out, err = run("-filter=Scan", "-output_html=" + P("s.html"))
    html = open(P("s.html"), encoding="utf-8").read() if rc == 0 else ""
    charts = re.findall(r"Complexity: <code>([^<]*)</code>", html)
    check(charts == ["Scan"], f"HTML complexity charts {charts}")
    check(html.count('<circle class="point"') == len(SCAN), "HTML: a point per instance")

    # under -valgrind the fit reads exact instructions per call, and the
    # HTML chart plots those points, the same fit and its table
    counted = shutil.which("valgrind") and b"__asan_init" not in open(SUITE, "rb").read()
    if counted:
        rc, out, err = run("-filter=Scan", "-valgrind", "-output_html=" + P("v.html"))
        counted = not (rc == 2 and "built without" in err)  # no <valgrind/callgrind.h> (musl)
    if counted:
        html = open(P("v.html"), encoding="utf-8").read() if rc == 0 else ""
        sec = html[html.find("Complexity: <code>Scan"):]
        sec = sec[:sec.find("</section>")]
        pts = re.findall(r"<title>N=([\d,]+): ([\d,]+) instructions per call \(exact\)</title>", sec)
        check(rc == 0 and [n for n, _ in pts] == [f"{int(s[5:]):,}" for s in SCAN],
              f"-valgrind HTML complexity: a counted point per instance: {pts} {err[-300:]}")
        check('<td class="name">O(n) (best)</td>' in sec and "No measured result" not in sec and
              "instructions per call against N" in sec, f"-valgrind HTML fit: {sec[:600]}")
    else:
        print("note: no valgrind, an ASan build or no <valgrind/callgrind.h>: the counted "
              "complexity chart is not checked")

    # two instances are enough for a fit; one is not (and prints nothing)
    rc, out, err = run("-filter=Scan/(1000|32000)")
    check(rc == 0 and out.count("Complexity of `Scan`") == 1, f"two instances: {out}")
    rc, out, err = run("-filter=Scan/1000")
    check(rc == 0 and "Complexity" not in out and "coefficient" not in out, f"one instance: {out}")
    rc, out, err = run("-filter=Scan", "-sanity_check")
    check(rc == 0 and out == "", f"no fit under -sanity_check: {out!r}")

    # -asymptote: Grow reads N, so each instance is fitted over the N given,
    # right after its rows; Scan sets N from its argument (the body's call
    # comes after the runner's), so its rounds share one N and the family
    # is fitted as without -asymptote
    rc, out, err = run("-filter=Grow|Scan/(1000|32000)", "-asymptote=1000,2000,4000,8000",
                       "-output_json=" + P("a.json"), "-output_gbench=" + P("a.gb.json"),
                       "-output_bmf=" + P("a.bmf"))
    check(rc == 0, f"-asymptote: rc={rc} {err}")
    # Bencher's file names each benchmark as Google Benchmark's does: an N
    # the name carries already (Scan/1000) is not repeated
    gbn = [b["name"] for b in json.load(open(P("a.gb.json")))["benchmarks"]]
    bmf = list(json.load(open(P("a.bmf"))))
    check(bmf == gbn and "Scan/1000" in bmf and "Grow/1/2000" in bmf,
          f"-asymptote: BMF names {bmf} and GB names {gbn}")
    rows = rows_named(out)
    check([n for n, _ in rows] == ["Grow/1"] * 4 + ["Grow/4"] * 4 + ["Scan/1000"] * 4 + ["Scan/32000"] * 4,
          f"-asymptote rows {[n for n, _ in rows]}")
    check([c[0] for _, c in rows[:8]] == ["1,000", "2,000", "4,000", "8,000"] * 2, f"Grow N {rows[:8]}")
    check([c[0] for _, c in rows[8:]] == ["1,000"] * 4 + ["32,000"] * 4, f"Scan N {rows[8:]}")
    check(out.count("|   coefficient |") == 3, f"-asymptote: 3 fit tables (Grow/1, Grow/4, Scan): {out}")
    check(out.count("Complexity of `Scan` over its instances:") == 1 and "Complexity of `Grow`" not in out,
          f"-asymptote: only Scan fitted as a family: {out}")
    check("needs at least two distinct N" not in out, f"-asymptote: no empty fit: {out}")
    g4 = out.find("`Grow/4`")
    check(out.find("coefficient") < g4, "Grow/1's fit comes right after its rows")
    cx = json.load(open(P("a.json")))["complexity"]
    check([c["name"] for c in cx] == ["Grow/1", "Grow/4", "Scan"] and all(len(c["fits"]) == 6 for c in cx),
          f"-asymptote JSON complexity {[c['name'] for c in cx]}")

# bad registrations: one line naming the benchmark, exit 2, nothing run,
# with or without -list
BAD = [
    ("empty", ["'Empty'", "FB_BENCHMARK_ARGS(Empty,)", "no arguments"]),
    ("twice", ["'Twice'", "FB_BENCHMARK_ARGS(Twice, 8, 64, 8)", "argument 8 is given twice"]),
    ("mult", ["'Mult'", "FB_BENCHMARK_RANGE(Mult, 1, 64, 1)", "mult must be at least 2"]),
    ("order", ["'Order'", "FB_BENCHMARK_RANGE(Order, 64, 8, 2)", "lo is greater than hi"]),
    ("negative", ["'Negative'", "FB_BENCHMARK_RANGE(Negative, -8, 8, 2)", "lo must not be negative"]),
    ("collide", ["family 'Copy' collides", "FB_BENCHMARK_ARGS(Copy, 8, 64)"]),
    ("instance", ["'Copy/64' is registered twice", "FB_BENCHMARK_RANGE(Copy, 8, 512, 8)"]),
    ("zero", ["'ThreadsZero'", "FB_BENCHMARK_THREADS(ThreadsZero, ...)", "0 threads: give 1 to 256"]),
    ("absurd", ["'ThreadsAbsurd'", "100000 threads: give 1 to 256"]),
    ("threadstwice", ["'ThreadsThreadstwice'", "thread count 2 is given twice"]),
]
for name, must in BAD:
    prog = os.path.join(BUILD, "tests", "suite_badreg_" + name)
    for args in ([], ["-list"], ["-sanity_check"]):
        rc, out, err = run(*args, prog=prog)
        lines = err.strip().splitlines()
        what = f"suite_badreg_{name} {' '.join(args)}"
        check(rc == 2, f"{what}: exit status {rc}, want 2")
        check(out == "", f"{what}: something ran or printed on stdout: {out!r}")
        check(len(lines) == 1 and lines[0].startswith("femtobench: error: "), f"{what}: {lines!r}")
        for s in must:
            check(s in err, f"{what}: stderr lacks {s!r}: {err!r}")
    rc, out, err = run("-help", prog=prog)
    check(rc == 0 and "-filter" in out, f"suite_badreg_{name} -help still works")

check.finish()
