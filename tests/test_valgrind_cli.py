"""-valgrind (docs/valgrind.md): exact instruction counts under Callgrind.

- exact: AddK (K dependent adds in inline assembly) reports K plus the same
  loop overhead for every K, so Add(K+1) is exactly one more than AddK;
- agrees with Callgrind itself: callgrind_annotate's count of the same loop
  in a program without femtobench (tests/vg_standalone.c), per iteration;
- deterministic: two runs give identical counts, including the raw totals;
- by hand: FEMTOBENCH_VALGRIND=1 under a hand-started Callgrind gives the
  same counts; without --collect-atstart=no the row is an error that says so;
- the outputs: JSON, CSV (Python's csv) and Google Benchmark JSON (compare.py
  reads two of them), and each bad input: one line, exit status 2.
Skips (77) without valgrind, without <valgrind/callgrind.h> at build time, or
on an architecture without the inline assembly (x86-64, AArch64)."""
import csv
import io
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
SUITE = os.path.join(BUILD, "tests", "suite_valgrind")
STANDALONE = os.path.join(BUILD, "tests", "vg_standalone")
check = fbtest.Checks()


def env_for(extra=None):
    e = dict(os.environ)
    for k in ("FEMTOBENCH_CONFIG", "FEMTOBENCH_ENDLESS", "FEMTOBENCH_VALGRIND",
              "FEMTOBENCH_CALLGRIND_OUT"):
        e.pop(k, None)
    e["FEMTOBENCH_SUPPRESS_WARNINGS"] = "1"
    e.update(extra or {})
    return e


run = fbtest.runner(SUITE, timeout=240)


def bad(args, *must_contain, env=None):
    rc, out, err = run(*args, env=env)
    lines = err.strip().splitlines()
    what = " ".join(args)
    check(rc == 2, f"{what}: exit status {rc}, want 2")
    check(out == "", f"{what}: something ran: {out!r}")
    check(len(lines) == 1 and lines[0].startswith("femtobench: error: "), f"{what}: {lines!r}")
    for s in must_contain:
        check(s in err, f"{what}: stderr lacks {s!r}: {err!r}")


# ---------------------------------------------------------------- bad input
bad(["-valgrind=fast"], "-valgrind=fast: unknown value")
bad(["-valgrind", "-sanity_check"], "-sanity_check")
bad(["-valgrind", "-min_time=5"], "-min_time")
bad(["-valgrind"], "FEMTOBENCH_ENDLESS", env={"FEMTOBENCH_ENDLESS": "Add1"})
with tempfile.TemporaryDirectory() as empty:
    rc, out, err = run("-valgrind", env={"PATH": empty})
    if "built without" not in err:  # no valgrind in PATH: what to install
        bad(["-valgrind"], "no 'valgrind' program in PATH", "apt-get install valgrind",
            env={"PATH": empty})

if os.path.exists(SUITE) and b"__asan_init" in open(SUITE, "rb").read():
    print("SKIP: built with AddressSanitizer, which does not run under Valgrind")
    sys.exit(1 if check.failures else 77)
if not shutil.which("valgrind"):
    print("SKIP: no valgrind in PATH (Debian: apt-get install valgrind)")
    sys.exit(1 if check.failures else 77)
rc, out, err = run("-valgrind", "-list")
if rc == 2 and "built without" in err:
    print("SKIP: femtobench was built without <valgrind/callgrind.h>")
    sys.exit(1 if check.failures else 77)
if "Add1" not in out.split():
    print("SKIP: no inline-assembly benchmarks on this architecture")
    sys.exit(1 if check.failures else 77)


def counted(args, env=None, prog=SUITE, cwd=None):
    """Runs with -output_json to a file; returns (rc, stdout, stderr, results by name)."""
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "r.json")
        rc, out, err = run(*args, f"-output_json={path}", env=env, prog=prog, cwd=cwd)
        doc = json.load(open(path)) if os.path.exists(path) else {"results": []}
    return rc, out, err, {r["name"]: r for r in doc["results"]}


# ------------------------------------------------------- not deterministic
# an op whose count changes between two counted epochs of the same length is
# counted five times over (n, 2n) pairs: the median pair, with the pairs'
# spread; a small spread is not marked unsteady, and the run passes
rc, out, err, res = counted(["-valgrind", "-filter=NotDeterministic"])
nd = res.get("NotDeterministic")
vg = nd and nd.get("valgrind")
check(rc == 0 and nd is not None and nd["error"] is None and vg,
      f"-valgrind on a moving count: exit {rc}: {nd and nd['error']} {err}")
if vg:
    ins = vg["per_iteration"]["instructions"]
    lo, hi = vg["instructions_spread"]
    check(vg["pairs"] == 5 and lo < hi and lo <= ins <= hi and not vg["unsteady"],
          f"a moving count: {vg['pairs']} pairs, {lo} <= {ins} <= {hi}, {vg['unsteady']}")
check("(median of 5 counted pairs, spread " in out, f"the table says so: {out}")

# ---------------------------------------------------------------- exactness
rc, out, err, res = counted(["-valgrind", "-filter=Add.*|Other"])
check(rc == 0, f"-valgrind: exit status {rc}: {err}")
check(re.search(r"\|\s+ins/op \| benchmark", out), f"table has an ins/op column: {out}")
check(not re.search(r"\bns/op|err%", out), f"no time columns under -valgrind: {out}")
ks = [1, 2, 3, 4, 10, 11, 100, 101]
ins = {}
for k in ks:
    r = res.get(f"Add{k}")
    check(r is not None and r["error"] is None, f"Add{k} counted: {r and r['error']}")
    if not r or r["error"]:
        continue
    vg = r["valgrind"]
    ins[k] = vg["per_iteration"]["instructions"]
    n1, n2 = vg["iterations"]
    ir1, ir2 = vg["events"]["Ir"]
    check(n2 == 2 * n1 and (ir2 - ir1) == ins[k] * (n2 - n1),
          f"Add{k}: per iteration = (Ir(n2) - Ir(n1)) / (n2 - n1): {vg}")
    check(r["stats"] == {} and r["epochs"] == 2, f"Add{k}: no time, two epochs: {r['stats']}")
overhead = {k: ins[k] - k for k in ins}
print("ins/op - K per K:", overhead)
check(len(set(overhead.values())) == 1, f"the loop overhead is the same for every K: {overhead}")
loop = next(iter(overhead.values()), None)
check(loop is not None and loop == int(loop) and 1 <= loop <= 8,
      f"the loop's own instructions per iteration are a small whole number: {loop}")
for k in (1, 2, 3, 10, 100):
    if k in ins and k + 1 in ins:
        check(ins[k + 1] - ins[k] == 1, f"Add{k + 1} is exactly one instruction more than Add{k}")
b8 = res.get("Add64Batch8")
check(b8 and b8["valgrind"]["per_iteration"]["instructions"] == 64 + loop,
      f"Add64Batch8: 64 + loop per call: {b8 and b8['valgrind']}")
check(re.search(r"\|\s+%s \| `Add64Batch8`" % re.escape(f"{(64 + loop) / 8:.2f}"), out),
      f"the table shows ins/byte = ins/op / batch: {out}")
fixed = res.get("Add10Fixed")
check(fixed and fixed["valgrind"]["iterations"] == [1000, 2000]
      and fixed["valgrind"]["per_iteration"]["instructions"] == ins.get(10),
      f"epoch_iterations=1000 gives the pair (1000, 2000) and the same count: {fixed}")
check(res.get("Other") and res["Other"]["valgrind"]["per_iteration"]["instructions"] > 0,
      "fb_run's function-pointer loop is counted too")

# ------------------------------------------------- agreement with Callgrind
annotate = shutil.which("callgrind_annotate")
if annotate and os.path.exists(STANDALONE) and 10 in ins:
    per = []
    with tempfile.TemporaryDirectory() as d:
        for n in (1000000, 2000000):
            out_file = os.path.join(d, f"cg.{n}")
            subprocess.run(["valgrind", "--tool=callgrind", "-q",
                            f"--callgrind-out-file={out_file}", STANDALONE, str(n)],
                           check=True, capture_output=True, timeout=240)
            text = subprocess.run([annotate, out_file], check=True, capture_output=True,
                                  text=True).stdout
            m = re.search(r"^\s*([\d,]+)\s.*:fbt_loop\b", text, re.M)
            check(m is not None, f"callgrind_annotate lists fbt_loop: {text[-800:]}")
            per.append((n, int(m.group(1).replace(",", ""))) if m else (n, 0))
    (n1, c1), (n2, c2) = per
    print(f"callgrind_annotate fbt_loop: {c1} Ir / {n1} = {c1 / n1}; "
          f"({c2} - {c1}) / ({n2} - {n1}) = {(c2 - c1) / (n2 - n1)}; Add10 ins/op {ins[10]}")
    check((c2 - c1) / (n2 - n1) == ins[10],
          f"callgrind_annotate's count per iteration equals Add10's ins/op ({ins[10]})")
    check(abs(c1 / n1 - ins[10]) < 100 / n1,
          f"callgrind_annotate total / iterations agrees to 100/N: {c1 / n1} vs {ins[10]}")
else:
    print("note: callgrind_annotate or vg_standalone missing; agreement not checked")

# ------------------------------------------------------------ determinism
rc2, out2, err2, res2 = counted(["-valgrind", "-filter=Add.*|Other"])
check({k: v["valgrind"] for k, v in res.items()} == {k: v["valgrind"] for k, v in res2.items()},
      "a second run gives identical counts, raw totals included")
check(out == out2, "a second run prints the same table")

# ----------------------------------------------------------- cache option
rc, out, err, resc = counted(["-valgrind=cache", "-filter=Add10|Add64Batch8"])
check(rc == 0, f"-valgrind=cache: exit status {rc}: {err}")
for col in ("L1 miss/op", "LL miss/op", "bra miss%", "L1 miss/byte"):
    check(col in out, f"-valgrind=cache table has {col!r}: {out}")
check("warning" not in err, f"Valgrind's notes about the host cache are not shown: {err!r}")
a10 = resc.get("Add10", {}).get("valgrind", {})
check(a10.get("cache_sim") is True and a10["per_iteration"].get("instructions") == ins.get(10),
      f"cache simulation does not change the instruction count: {a10}")
check(a10.get("per_iteration", {}).get("branches") == 1,
      f"Add10 executes one conditional branch per iteration: {a10}")

# ------------------------------------------------------------------ outputs
with tempfile.TemporaryDirectory() as d:
    rc, out, err = run("-valgrind", "-filter=Add1|Add2|Add64Batch8",
                       f"-output_csv={d}/r.csv", f"-output_gbench={d}/g1.json")
    check(rc == 0, f"outputs: exit status {rc}: {err}")
    rows = {r["name"]: r for r in csv.DictReader(io.open(f"{d}/r.csv", newline=""))}
    check(float(rows["Add1"]["valgrind_instructions_per_unit"]) == ins.get(1),
          f"CSV valgrind_instructions_per_unit: {rows.get('Add1')}")
    check(float(rows["Add64Batch8"]["valgrind_instructions_per_unit"]) == (64 + loop) / 8,
          "CSV is per unit")
    check(rows["Add1"]["median_ns_per_unit"] == "" and rows["Add1"]["epochs"] == "2",
          f"CSV: no time, two epochs: {rows['Add1']}")
    g = json.load(open(f"{d}/g1.json"))
    row = {b["name"]: b for b in g["benchmarks"]}
    # no time of 0 for a dashboard: real_time/cpu_time carry the instructions
    # per op call (so per call, not per unit, for the batched one), in "ns"
    check(row["Add2"]["valgrind_instructions"] == ins.get(2)
          and row["Add2"]["real_time"] == ins.get(2) and row["Add2"]["cpu_time"] == ins.get(2)
          and row["Add2"]["time_unit"] == "ns" and "instructions" in row["Add2"].get("label", ""),
          f"GB JSON: a valgrind_instructions counter, real_time the count: {row.get('Add2')}")
    check(row["Add64Batch8"]["real_time"] == 64 + loop
          and row["Add64Batch8"]["valgrind_instructions"] == (64 + loop) / 8,
          f"GB JSON: real_time per call, the counter per unit: {row.get('Add64Batch8')}")
    compare = "/usr/share/benchmark/compare.py"
    has_scipy = subprocess.run([sys.executable, "-c", "import scipy"],
                               capture_output=True).returncode == 0
    if os.path.exists(compare) and has_scipy:
        run("-valgrind", "-filter=Add1|Add2|Add64Batch8", f"-output_gbench={d}/g2.json")
        p = subprocess.run([sys.executable, compare, "benchmarks", f"{d}/g1.json",
                            f"{d}/g2.json"], capture_output=True, text=True, timeout=120)
        check(p.returncode == 0 and "Add64Batch8" in p.stdout,
              f"compare.py reads two -valgrind runs: {p.stdout[-400:]} {p.stderr[-400:]}")

# ------------------------------------------------------------------ by hand
with tempfile.TemporaryDirectory() as d:
    base = [
        "valgrind", "--tool=callgrind", "-q", "--collect-atstart=no"]
    # default output name callgrind.out.<pid> in the current directory
    p = subprocess.run([*base, os.path.abspath(SUITE), "-filter=Add10|Add64Batch8",
                        f"-output_json={d}/h.json"], capture_output=True, text=True,
                       env=env_for({"FEMTOBENCH_VALGRIND": "1"}), cwd=d, timeout=240)
    check(p.returncode == 0, f"by hand: exit status {p.returncode}: {p.stderr}")
    hand = {r["name"]: r for r in json.load(open(f"{d}/h.json"))["results"]} \
        if os.path.exists(f"{d}/h.json") else {}
    for name in ("Add10", "Add64Batch8"):
        check(name in hand and hand[name]["valgrind"] == res[name]["valgrind"],
              f"by hand, {name}: the same counts as -valgrind")
    dumps = [f for f in os.listdir(d) if f.startswith("callgrind.out.")]
    check(len(dumps) >= 4, f"by hand: Callgrind's dump files are left for callgrind_annotate: "
          f"{dumps}")
    # another output file name, told through FEMTOBENCH_CALLGRIND_OUT
    p = subprocess.run([*base, f"--callgrind-out-file={d}/x.%p", os.path.abspath(SUITE),
                        "-filter=Add3"], capture_output=True, text=True,
                       env=env_for({"FEMTOBENCH_VALGRIND": "1",
                                    "FEMTOBENCH_CALLGRIND_OUT": f"{d}/x.%p"}), timeout=240)
    check(p.returncode == 0 and re.search(r"\|\s+%s \| `Add3`" % re.escape(f"{ins.get(3):.2f}"),
                                          p.stdout),
          f"by hand with --callgrind-out-file: {p.stdout} {p.stderr}")
    # collection on at the start: the toggles invert, and femtobench says so
    p = subprocess.run(["valgrind", "--tool=callgrind", "-q", f"--callgrind-out-file={d}/y.%p",
                        os.path.abspath(SUITE), "-filter=Add3"], capture_output=True,
                       text=True, env=env_for({"FEMTOBENCH_VALGRIND": "1",
                                               "FEMTOBENCH_CALLGRIND_OUT": f"{d}/y.%p"}),
                       timeout=240)
    check(p.returncode == 1 and "--collect-atstart=no" in p.stdout,
          f"without --collect-atstart=no: an error row that says so: {p.stdout} {p.stderr}")
    # FEMTOBENCH_VALGRIND=1 under valgrind but the dumps are elsewhere
    p = subprocess.run([*base, f"--callgrind-out-file={d}/z.%p", os.path.abspath(SUITE),
                        "-filter=Add3"], capture_output=True, text=True,
                       env=env_for({"FEMTOBENCH_VALGRIND": "1"}), cwd=d, timeout=240)
    check(p.returncode == 1 and "FEMTOBENCH_CALLGRIND_OUT" in p.stdout,
          f"dumps not found: an error row naming FEMTOBENCH_CALLGRIND_OUT: {p.stdout}")

# ------------------------------------------- -valgrind against a baseline
# Counts are compared exactly: the same binary twice is `same` with a 0.0%
# change; one instruction per op more (a baseline edited to one fewer) is
# `slower`, and -fail_on_slower makes it exit status 3. femtobench-compare
# reads the same files the same way.
COMPARE = os.path.join(BUILD, "femtobench-compare")
with tempfile.TemporaryDirectory() as d:
    base = os.path.join(d, "base.json")
    rc, out, err = run("-valgrind", "-filter=Add10|Add11", f"-output_json={base}")
    check(rc == 0, f"-valgrind baseline run: exit {rc}: {err}")
    rc, out, err = run("-valgrind", "-filter=Add10|Add11", f"-baseline={base}", "-fail_on_slower")
    rows = [l for l in out.splitlines()
            if re.search(r"\| (same|slower|faster|unsure|new|gone) +\| `Add1[01]`$", l)]
    check(rc == 0 and len(rows) == 2 and all("| same " in l and "exact" in l for l in rows),
          f"-valgrind -baseline, same binary: exit {rc}: {rows} {err}")
    doc = json.load(open(base))
    for r in doc["results"]:
        if r["name"] == "Add10":
            vg = r["valgrind"]
            check(vg["pairs"] == 1 and vg["instructions_spread"] ==
                  [vg["per_iteration"]["instructions"]] * 2, f"Add10 is exact: {vg}")
            vg["per_iteration"]["instructions"] -= 1  # one instruction fewer before
            vg["instructions_spread"] = [x - 1 for x in vg["instructions_spread"]]
    older = os.path.join(d, "older.json")
    json.dump(doc, open(older, "w"))
    # a spread that does not hold the count is refused (one line, exit 2)
    for r in doc["results"]:
        if r["name"] == "Add10":
            r["valgrind"]["instructions_spread"] = [0, 1]
    broken = os.path.join(d, "broken.json")
    json.dump(doc, open(broken, "w"))
    bad(["-filter=Add10", f"-baseline={broken}"], "instructions_spread")
    rc, out, err = run("-valgrind", "-filter=Add10|Add11", f"-baseline={older}", "-fail_on_slower")
    slower = [l for l in out.splitlines() if re.search(r"\| slower +\| `Add10`$", l)]
    same = [l for l in out.splitlines() if re.search(r"\| same +\| `Add11`$", l)]
    check(rc == 3 and len(slower) == 1 and len(same) == 1,
          f"one instruction per op more is slower, exit 3: exit {rc}: {out}")
    # the same gate with each benchmark in a child: the counts come back with the results
    rc, out, err = run("-valgrind", "-isolate", "-filter=Add10|Add11", f"-baseline={older}",
                       "-fail_on_slower")
    slower = [l for l in out.splitlines() if re.search(r"\| slower +\| `Add10`$", l)]
    check(rc == 3 and len(slower) == 1, f"-valgrind -isolate: slower, exit 3: exit {rc}: {out}")
    if os.path.exists(COMPARE):
        p = subprocess.run([COMPARE, older, base, "-fail_on_slower"], capture_output=True,
                           text=True, timeout=60)
        check(p.returncode == 3 and re.search(r"\| slower +\| `Add10`", p.stdout),
              f"femtobench-compare on counts: exit {p.returncode}: {p.stdout}")

check.finish()
