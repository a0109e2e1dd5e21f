"""-repetitions in fresh processes and the comparisons between processes:
each pass is a new process (its pid, its address layout, a first run); the
outputs carry every pass and the median over passes (GB JSON: passes are
repetitions of one name, read by compare.py; CSV; JSON); the change table
has one row per benchmark; a baseline that shares no benchmark says so and
fails -fail_on_slower; femtobench-compare -run alternates two programs and
pairs their runs. Runs tests/suite_passes.c's program. Verdicts are made
certain by 1000 times the work (SUITE_PASSES_SLOW), never by timing
thresholds."""
import csv
import json
import os
import re
import statistics
import stat
import subprocess
import sys
import tempfile

BUILD = os.environ.get("FB_BUILD_DIR", "build")
SUITE = os.path.join(BUILD, "tests", "suite_passes")
COMPARE = os.path.join(BUILD, "femtobench-compare")
GB_COMPARE = "/usr/share/benchmark/compare.py"
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what, file=sys.stderr)
    return cond


def env(extra=None):
    e = dict(os.environ)
    for k in ("FEMTOBENCH_CONFIG", "SUITE_PASSES_SLOW", "SUITE_PASSES_ALL_SLOW", "SUITE_PASSES_CRASH",
              "FEMTOBENCH_PASS"):
        e.pop(k, None)
    e["FEMTOBENCH_SUPPRESS_WARNINGS"] = "1"
    e.update(extra or {})
    return e


def run(prog, *args, extra=None):
    p = subprocess.run([prog, *args], capture_output=True, text=True, env=env(extra), timeout=240)
    return p.returncode, p.stdout, p.stderr


def verdicts(text):
    out = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.split("|")]
        if len(cells) == 7 and cells[5] in ("faster", "slower", "same", "unsure", "new", "gone"):
            out.setdefault(cells[6].strip("`").split("`")[0], []).append(cells[5])
    return out


def over_passes_everywhere(p, tag, *extra):
    """-repetitions=3 of Work with every output: the median over passes in
    the table's summary, the HTML report, JSON, CSV and GB JSON is one value
    (each writer reads the series the runner stored once)."""
    files = {k: p(f"{tag}.{k}") for k in ("json", "csv", "gb.json", "html")}
    rc, out, err = run(SUITE, "-repetitions=3", "-filter=Work", *extra,
                       "-output_json=" + files["json"], "-output_csv=" + files["csv"],
                       "-output_gbench=" + files["gb.json"], "-output_html=" + files["html"])
    if not check(rc == 0, f"{tag}: exit {rc}: {err}"):
        return
    summary = None
    after = out.split("Over 3 passes", 1)
    for line in (after[1] if len(after) == 2 else "").splitlines():
        cells = [c.strip() for c in line.split("|")]
        if len(cells) == 7 and cells[6] == "`Work`":
            summary = float(cells[1].replace(",", ""))
    if not check(summary is not None, f"{tag}: the summary over passes has Work: {out}"):
        return
    m = re.search(r"<h2>Over 3 passes</h2>.*?<tr><td><code>Work</code></td><td>([^<]*)</td>",
                  open(files["html"]).read(), re.S)
    html = float(m.group(1).replace(",", "")) if m else None
    doc = json.load(open(files["json"]))
    over = [o for o in doc.get("over_passes", []) if o["name"] == "Work"]
    js = over[0]["median"] * 1e9 if over and over[0]["median"] is not None else None
    rows = [r for r in csv.DictReader(open(files["csv"])) if r["name"] == "Work"]
    cs = {float(r["passes_median_ns_per_unit"]) for r in rows}
    gb = [b for b in json.load(open(files["gb.json"]))["benchmarks"] if b["name"] == "Work"]
    gbt = gb[0]["real_time"] if len(gb) == 1 else None
    check(js is not None and len(cs) == 1 and gbt is not None and html is not None,
          f"{tag}: every file has the median over passes: json {js} csv {cs} gb {gbt} html {html}")
    if js is None or len(cs) != 1 or gbt is None or html is None:
        return
    # the table and the HTML print two decimals; the files the whole number
    check(abs(summary - js) <= 0.0051 and abs(html - js) <= 0.0051,
          f"{tag}: summary {summary} and HTML {html} agree with JSON {js}")
    check(abs(cs.pop() / js - 1) < 1e-9 and abs(gbt / js - 1) < 1e-9,
          f"{tag}: CSV and GB JSON agree with JSON {js} (GB {gbt})")


def comparisons_over_passes(p):
    """-repetitions=3 of Pair (a comparison) and Work: each pass's comparison
    comes back from its process, and each alternative is one benchmark over
    the passes, as a run is: a row of the summary over passes, an entry of
    the JSON's over_passes, the CSV's passes columns, one GB JSON name (the
    passes its repetitions, read by compare.py), one Bencher entry bounded
    by the passes. A failing alternative in a pass fails the run."""
    files = {k: p(f"pair.{k}") for k in ("json", "csv", "gb.json", "html", "bmf")}
    rc, out, err = run(SUITE, "-repetitions=3", "-filter=Pair|Work",
                       "-output_json=" + files["json"], "-output_csv=" + files["csv"],
                       "-output_gbench=" + files["gb.json"], "-output_html=" + files["html"],
                       "-output_bmf=" + files["bmf"])
    if not check(rc == 0, f"pair: exit {rc}: {err}"):
        return
    doc = json.load(open(files["json"]))
    cmps = doc.get("comparisons", [])
    check(len(cmps) == 3 and all(c["title"] == "pair" for c in cmps),
          f"JSON: a comparison per pass: {[c.get('title') for c in cmps]}")
    passes = [r.get("pass") for c in cmps for r in c.get("results", [])]
    check(sorted(passes) == [0, 0, 1, 1, 2, 2], f"JSON: each comparison keeps its pass: {passes}")
    # the value over passes of each alternative: the median of its three
    meds = {a: statistics.median(r["stats"]["elapsed"]["median"] for c in cmps
                                 for r in c["results"] if r["name"] == a) for a in ("one", "two")}
    over = {o["name"]: o for o in doc.get("over_passes", []) if o.get("alternative")}
    check(sorted(over) == ["one", "two"] and all(over[a]["title"] == "pair" and over[a]["passes"] == 3
                                                 for a in over),
          f"JSON over_passes: the alternatives {doc.get('over_passes')}")
    for a in over:
        check(abs(over[a]["median"] / meds[a] - 1) < 1e-9, f"JSON over_passes {a}: {over[a]} vs {meds[a]}")
    summary = {}
    for line in out.split("Over 3 passes", 1)[-1].splitlines():
        cells = [c.strip() for c in line.split("|")]
        if len(cells) == 7 and cells[6].startswith("`pair/"):
            summary[cells[6].strip("`")] = float(cells[1].replace(",", ""))
    check(sorted(summary) == ["pair/one", "pair/two"] and
          all(abs(summary["pair/" + a] - meds[a] * 1e9) <= 0.0051 for a in meds),
          f"summary over passes: the alternatives {summary} vs {meds}")
    rows = [r for r in csv.DictReader(open(files["csv"])) if r["title"] == "pair"]
    check(sorted(r["name"] for r in rows) == ["one"] * 3 + ["two"] * 3 and
          all(r["passes"] == "3" and abs(float(r["passes_median_ns_per_unit"]) / (meds[r["name"]] * 1e9) - 1)
              < 1e-9 for r in rows), f"CSV comparison rows and their passes' columns: {rows}")
    gb = json.load(open(files["gb.json"]))["benchmarks"]
    gbn = [b["name"] for b in gb]
    check(gbn.count("pair/one") == 1 and gbn.count("pair/two") == 1 and not any("#" in n for n in gbn),
          f"GB JSON: one row per alternative over the passes: {gbn}")
    for b in gb:
        if b["name"].startswith("pair/"):
            check(abs(b["real_time"] / (meds[b["name"][5:]] * 1e9) - 1) < 1e-9,
                  f"GB JSON {b['name']}: the median over passes {b['real_time']}")
    html = open(files["html"]).read()
    check(html.count("<code>two</code>") >= 3 and "<td><code>pair/two</code></td>" in html,
          "HTML: each pass's comparison, and the alternative over the passes")
    keys = []
    bmf = json.load(open(files["bmf"]), object_pairs_hook=lambda kv: (keys.extend(
        k for k, _ in kv if k.startswith("pair/")), dict(kv))[1])
    check(sorted(keys) == ["pair/one", "pair/two"], f"BMF: one entry per alternative: {keys}")
    for k in keys:
        lat = bmf[k]["latency"]
        check(abs(lat["value"] / (meds[k[5:]] * 1e9) - 1) < 1e-9 and
              lat["lower_value"] <= lat["value"] <= lat["upper_value"], f"BMF {k}: {lat}")
    # the repetitions layout: the passes are repetitions of one name, which
    # Google's compare.py pairs between two runs
    rc, _, _ = run(SUITE, "-repetitions=3", "-filter=Pair", "-gbench_rows=repetitions",
                   "-output_gbench=" + p("pr1.gb.json"))
    rc2, _, _ = run(SUITE, "-repetitions=3", "-filter=Pair", "-gbench_rows=repetitions",
                    "-output_gbench=" + p("pr2.gb.json"))
    reps = json.load(open(p("pr1.gb.json")))["benchmarks"]
    check(rc == 0 and rc2 == 0 and
          [b["name"] for b in reps if b["run_type"] == "iteration"] == ["pair/one"] * 3 + ["pair/two"] * 3,
          f"GB repetitions layout of the alternatives: {[b['name'] for b in reps]}")
    py = next((c for c in (sys.executable, "/usr/bin/python3")
               if subprocess.run([c, "-c", "import scipy"], capture_output=True).returncode == 0), None)
    if os.path.exists(GB_COMPARE) and py:
        cp = subprocess.run([py, GB_COMPARE, "--no-color", "benchmarks", p("pr1.gb.json"),
                             p("pr2.gb.json")], capture_output=True, text=True, timeout=120)
        check(cp.returncode == 0 and "pair/two_pvalue" in cp.stdout,
              f"compare.py on the alternatives' passes: {cp.returncode} {cp.stdout[-800:]} {cp.stderr[-500:]}")
    rc, out, err = run(SUITE, "-repetitions=2", "-filter=Pair", "-output_json=" + p("broken.json"),
                       extra={"SUITE_PASSES_BROKEN": "1"})
    doc = json.load(open(p("broken.json"))) if os.path.exists(p("broken.json")) else {}
    check(rc == 1 and len(doc.get("comparisons", [])) == 2,
          f"a failing comparison in the passes fails the run: {rc} {err[-400:]}")


def main():
    if not os.path.exists(SUITE) or not os.path.exists(COMPARE):
        print("SKIP: no suite_passes or femtobench-compare in", BUILD)
        return 77
    tmp = tempfile.mkdtemp(prefix="fb-passes-test.")
    p = lambda name: os.path.join(tmp, name)

    # ---- each pass a fresh process: new pid, first run of the function
    rc, out, err = run(SUITE, "-repetitions=3", "-filter=Where|Work",
                       "-output_json=" + p("a.json"), "-output_csv=" + p("a.csv"),
                       "-output_gbench=" + p("a.gb.json"))
    check(rc == 0, f"-repetitions=3: exit {rc}: {err}")
    for k in (1, 2, 3):
        check(f"pass {k} of 3 (a fresh process):" in out, f"pass {k} announced: {out}")
    doc = json.load(open(p("a.json")))
    where = [r for r in doc["results"] if r["name"] == "Where"]
    check(sorted(r["pass"] for r in where) == [0, 1, 2], f"passes: {[r['pass'] for r in where]}")
    units = [r["unit"].split("-") for r in where]
    check(len({u[0] for u in units}) == 3 and str(os.getpid()) not in {u[0] for u in units},
          f"a process per pass: {units}")
    check(all(u[2] == "1" for u in units), f"each pass the first run in its process: {units}")
    aslr = open("/proc/sys/kernel/randomize_va_space").read().strip() != "0"
    if aslr:  # exec, not fork: a new address layout each time
        check(len({u[1] for u in units}) == 3, f"a new address layout per pass: {units}")

    # ---- every file has the median over passes
    work = [r for r in doc["results"] if r["name"] == "Work"]
    meds = [r["stats"]["elapsed"]["median"] for r in work]
    over = {o["name"]: o for o in doc.get("over_passes", [])}
    check("Work" in over and over["Work"]["passes"] == 3, f"over_passes: {doc.get('over_passes')}")
    if "Work" in over:
        check(abs(over["Work"]["median"] / statistics.median(meds) - 1) < 1e-9,
              f"JSON median over passes {over['Work']['median']} vs {statistics.median(meds)}")
    rows = [r for r in csv.DictReader(open(p("a.csv"))) if r["name"] == "Work"]
    check(len(rows) == 3 and all(r["passes"] == "3" for r in rows), f"CSV passes: {rows}")
    check(all(abs(float(r["passes_median_ns_per_unit"]) / (statistics.median(meds) * 1e9) - 1)
              < 1e-9 for r in rows), "CSV median over passes")
    # ---- the summary and every file give one median over passes, also
    # with each benchmark in a child process (-isolate)
    over_passes_everywhere(p, "every")
    over_passes_everywhere(p, "isolated", "-isolate")
    # ---- a comparison in every pass reaches every file, as in one process
    comparisons_over_passes(p)
    gb = json.load(open(p("a.gb.json")))
    names = [b["name"] for b in gb["benchmarks"]]
    check(names.count("Work") == 1 and not any("#" in n for n in names),
          f"GB median layout: one row per benchmark, no #2: {names}")
    wrow = next((b for b in gb["benchmarks"] if b["name"] == "Work"), None)
    if wrow:
        check(abs(wrow["real_time"] / (statistics.median(meds) * 1e9) - 1) < 1e-9,
              f"GB real_time is the median over passes: {wrow['real_time']}")
    rc, out, err = run(SUITE, "-repetitions=3", "-filter=Work", "-gbench_rows=repetitions",
                       "-output_gbench=" + p("r1.gb.json"))
    rc2, _, _ = run(SUITE, "-repetitions=3", "-filter=Work", "-gbench_rows=repetitions",
                    "-output_gbench=" + p("r2.gb.json"))
    gb = json.load(open(p("r1.gb.json")))
    reps = [b for b in gb["benchmarks"] if b["run_type"] == "iteration"]
    check(rc == 0 and [b["name"] for b in reps] == ["Work"] * 3 and
          [b["repetition_index"] for b in reps] == [0, 1, 2] and
          all(b["repetitions"] == 3 for b in gb["benchmarks"]),
          f"GB repetitions layout: the passes are repetitions of one name: {gb['benchmarks']}")
    check([b["name"] for b in gb["benchmarks"] if b["run_type"] == "aggregate"] ==
          ["Work_mean", "Work_median", "Work_stddev"], "GB aggregates over the passes")
    py = next((c for c in (sys.executable, "/usr/bin/python3")
               if subprocess.run([c, "-c", "import scipy"], capture_output=True).returncode == 0),
              None)
    if os.path.exists(GB_COMPARE) and py:
        cp = subprocess.run([py, GB_COMPARE, "--no-color", "benchmarks", p("r1.gb.json"),
                             p("r2.gb.json")], capture_output=True, text=True, timeout=120)
        check(cp.returncode == 0 and "Work" in cp.stdout and "#" not in cp.stdout,
              f"compare.py on passes: {cp.returncode} {cp.stdout[-800:]} {cp.stderr[-800:]}")

    # ---- the change table: one row per benchmark, between processes
    rc, out, err = run(SUITE, "-repetitions=3", "-filter=Where|Work", "-baseline=" + p("a.json"))
    v = verdicts(out)
    check(rc == 0 and v.get("Work") and len(v["Work"]) == 1 and "gone" not in sum(v.values(), []),
          f"one row per benchmark with passes: {v}\n{out}")
    check("> between processes (t interval, pooled spread): baseline 3, now 3" in out, out)
    rc, out, err = run(SUITE, "-repetitions=3", "-filter=Work", "-baseline=" + p("a.json"),
                       "-fail_on_slower", extra={"SUITE_PASSES_SLOW": "1"})
    check(rc == 3 and verdicts(out).get("Work") == ["slower"], f"1000x slower: {rc}\n{out}")
    # one process a side: unsure below the floor, a 1000x change still found
    rc, out, err = run(SUITE, "-filter=Work", "-output_json=" + p("one.json"))
    rc, out, err = run(SUITE, "-filter=Work", "-baseline=" + p("one.json"))
    check(verdicts(out).get("Work") == ["unsure"] and "> one process a side for 1 benchmark" in out,
          f"one process a side: {out}")
    rc, out, err = run(SUITE, "-filter=Work", "-baseline=" + p("one.json"), "-fail_on_slower",
                       extra={"SUITE_PASSES_SLOW": "1"})
    check(rc == 3 and verdicts(out).get("Work") == ["slower"], f"one process, 1000x: {rc} {out}")

    # ---- a baseline that shares no benchmark: said, and -fail_on_slower fails
    rc, out, err = run(SUITE, "-filter=Where", "-baseline=" + p("one.json"))
    check(rc == 0 and "no benchmark in common with the baseline" in err, f"nothing in common: {rc} {err}")
    rc, out, err = run(SUITE, "-filter=Where", "-baseline=" + p("one.json"), "-fail_on_slower")
    check(rc == 3 and "-fail_on_slower: exit status 3" in err, f"nothing in common, gate: {rc} {err}")
    run(SUITE, "-filter=Where", "-output_json=" + p("where.json"))
    rc, out, err = run(COMPARE, p("one.json"), p("where.json"), "-fail_on_slower")
    check(rc == 3 and "no benchmark in common" in err, f"compare, nothing in common: {rc} {err}")

    # ---- a crash in a pass: an error row, exit 1, the other passes kept
    rc, out, err = run(SUITE, "-repetitions=2", "-filter=Crash", "-output_json=" + p("c.json"),
                       extra={"SUITE_PASSES_CRASH": "1"})
    doc = json.load(open(p("c.json"))) if os.path.exists(p("c.json")) else {"results": []}
    errs = [(r["name"], r["error"]) for r in doc["results"] if r.get("error")]
    check(rc == 1 and len(errs) == 2 and errs[0][0] == "pass 1 of 2" and "crashed" in errs[0][1],
          f"a crashing pass: {rc} {errs} {err}")

    # ---- femtobench-compare -run: alternating pairs
    slow = p("slow.sh")
    with open(slow, "w") as f:
        f.write("#!/bin/sh\nSUITE_PASSES_SLOW=1 exec %s \"$@\"\n" % os.path.abspath(SUITE))
    os.chmod(slow, stat.S_IRWXU)
    rc, out, err = run(COMPARE, "-run", SUITE, SUITE, "-pairs=3", "-filter=Work|Where",
                       "-output_md=" + p("run.md"))
    check(rc == 0 and "(alternating runs, paired): baseline 3, now 3" in out, f"-run A A: {rc} {out} {err}")
    check(err.count("femtobench-compare: pair ") == 3, f"-run announces the pairs: {err}")
    check(open(p("run.md")).read() == out, "-run -output_md is the printed table")
    rc, out, err = run(COMPARE, "-run", SUITE, slow, "-pairs=3", "-filter=Work", "-fail_on_slower")
    check(rc == 3 and verdicts(out).get("Work") == ["slower"], f"-run A B: {rc} {out} {err}")
    for args, want in (
            (["-run", SUITE, SUITE, "-pairs=1"], "-pairs=1: not a whole number from 2 to 1000"),
            (["-run", SUITE, SUITE, "-pairs=x"], "-pairs=x"),
            ([p("one.json"), p("one.json"), "-pairs=3"], "-pairs needs -run"),
            (["-run", SUITE, SUITE, "-output_json=x.json"], "-output_json: not with -run"),
            (["-run", SUITE, SUITE, "-repetitions=3"], "-repetitions: not with -run"),
            (["-run", SUITE], "-run needs two programs"),
            ([p("one.json"), p("one.json"), "-filter=x"], "unknown option '-filter=x'")):
        rc, out, err = run(COMPARE, *args)
        check(rc == 2 and out == "" and err.startswith("femtobench: error: ") and want in err
              and len(err.strip().splitlines()) == 1, f"compare {args}: {rc} {err!r}")
    rc, out, err = run(COMPARE, "-run", SUITE, SUITE, "-pairs=2", "-filter=nomatch")
    check(rc == 2 and "selects no benchmark" in err, f"-run with bad runner options: {rc} {err}")
    rc, out, err = run(COMPARE, "-run", p("nonexistent"), SUITE, "-pairs=2")
    check(rc == 1 and "cannot run" in err, f"-run with a missing program: {rc} {err}")

    if failures:
        print(f"{len(failures)} failure(s)", file=sys.stderr)
        return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
