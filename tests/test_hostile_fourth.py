"""The fourth hostile round (docs/reliability.md, "Fourth round"): the runner
tried as a hostile user would, with tests/suite_hostile_fourth.c (each
misbehaving benchmark active only when HOSTILE names it) and
tests/suite_hostile_more.c."""
import csv
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fbtest  # noqa: E402

BUILD = os.environ.get("FB_BUILD_DIR", "build")
SUITE = os.path.abspath(os.path.join(BUILD, "tests", "suite_hostile_fourth"))
MORE = os.path.abspath(os.path.join(BUILD, "tests", "suite_hostile_more"))
# the third round's suite: LongRun (a run named by LONGRUN's length) lives there
THIRD = os.path.abspath(os.path.join(BUILD, "tests", "suite_hostile_third"))
checks = fbtest.Checks()
check = checks.check


run = fbtest.runner(SUITE, hostile="", hung=True)


def bad(args, *must_contain, env=None):
    """Bad input: status 2, nothing on stdout, one line on stderr."""
    rc, out, err = run(*args, env=env)
    what = " ".join(a[:80] for a in args) + (f" {env}" if env else "")
    lines = err.strip().splitlines()
    check(rc == 2, f"{what}: exit status {rc}, want 2")
    check(out == "", f"{what}: something ran: {out[:200]!r}")
    check(len(lines) == 1 and lines[0].startswith("femtobench: error: ")
          or env is not None and lines and lines[-1].startswith("femtobench: error: "),
          f"{what}: want one error line, got {lines[:5]!r}")
    for m in must_contain:
        check(m in err, f"{what}: {m!r} not in {err!r}")


ASAN = fbtest.asan_build(SUITE)
VALGRIND = fbtest.valgrind_ready([SUITE])
if not VALGRIND:
    print("no valgrind, an ASan build, or built without <valgrind/callgrind.h>: "
          "-valgrind not checked")


def json_results(path):
    with open(path) as f:
        return json.load(f)["results"]


# More than 256 runs in one benchmark function: every one kept, in process,
# under -isolate, over -repetitions (and -valgrind), in the table and files.
with tempfile.TemporaryDirectory() as d:
    modes = [[], ["-isolate"], ["-repetitions=2"]] + ([["-valgrind"]] if VALGRIND else [])
    for extra in modes:
        rc, out, err = run(*extra, "-filter=ManyRuns", "-output_json=m.json", "-output_csv=m.csv",
                           hostile="ManyRuns", cwd=d, timeout=300)
        passes = 2 if "-repetitions=2" in extra else 1
        names = [r["name"] for r in json_results(os.path.join(d, "m.json"))
                 if not r.get("error")]
        with open(os.path.join(d, "m.csv")) as f:
            rows = list(csv.DictReader(f))
        check(rc == 0 and len(names) == 300 * passes and len(set(names)) == 300
              and len(rows) == 300 * passes,
              f"300 runs {extra}: exit {rc}, {len(names)} in the JSON, {len(rows)} CSV rows: "
              f"{err[-300:]}")
        shown = {l.split("`")[1] for l in out.splitlines() if "`run" in l}
        check(len(shown) == 300, f"300 runs {extra}: {len(shown)} in the table")

# A rate counter too large for a double: in every output, null in the JSON
# files (JSON has no inf), and one line that says where it is.
with tempfile.TemporaryDirectory() as d:
    rc, out, err = run("-filter=RateOverflow", "-output_json=r.json", "-output_csv=r.csv",
                       "-output_gbench=g.json", "-output_html=r.html", "-output_bmf=b.json",
                       hostile="RateOverflow", cwd=d)
    check(rc == 0, f"rate overflow: exit {rc}: {err[-300:]}")
    row = [l for l in out.splitlines() if "RateOverflow" in l]
    check(row and "| inf |" in row[0].replace("  ", ""), f"rate overflow: table: {row}")
    with open(os.path.join(d, "g.json")) as f:
        g = json.load(f)["benchmarks"][0]
    check("huge" in g and g["huge"] is None and isinstance(g.get("items"), (int, float)) and
          not isinstance(g.get("items"), bool) and g["items"] > 0,
          f"rate overflow: Google Benchmark JSON row: {g}")
    with open(os.path.join(d, "r.html")) as f:
        html = f.read()
    check("<td>inf</td>" in html, "rate overflow: not in the HTML table")
    with open(os.path.join(d, "r.csv")) as f:
        check(list(csv.DictReader(f))[0]["huge/s"] == "inf", "rate overflow: CSV")
    check("more than a double holds" in err and "null in the JSON files" in err
          and "not in -output_bmf" in err, f"rate overflow: the line: {err[-400:]}")

# fb_counter after the run it describes (Google Benchmark's habit): attached
# to that run in every file, in process, under -isolate and over
# -repetitions; one line says so. A counter with no run at all stays an
# error row.
with tempfile.TemporaryDirectory() as d:
    for extra in ([], ["-isolate"], ["-repetitions=2"], ["-repetitions=2", "-isolate"]):
        rc, out, err = run(*extra, "-filter=CounterAfter", "-output_json=c.json",
                           "-output_csv=c.csv", "-output_gbench=g.json", "-output_bmf=b.json",
                           hostile="CounterAfter", cwd=d)
        passes = 2 if "-repetitions=2" in extra else 1
        said = err.count("'first': 2 counters given with fb_counter after the run: attached")
        check(rc == 0 and said == passes,
              f"late counters {extra}: exit {rc}, said {said} times: {err[-400:]}")
        res = json_results(os.path.join(d, "c.json"))
        ok = len(res) == passes
        for r in res:
            uc = {c["label"]: c["shown"] for c in r.get("user_counters", [])}
            ok = ok and uc.get("depth") == 7 and (uc.get("bytes/s") or 0) > 0
        check(ok, f"late counters {extra}: JSON {[r.get('user_counters') for r in res]}")
        with open(os.path.join(d, "c.csv")) as f:
            rows = list(csv.DictReader(f))
        check(len(rows) == passes and all(r.get("depth") == "7" and r.get("bytes/s")
                                          for r in rows),
              f"late counters {extra}: CSV {rows}")
        with open(os.path.join(d, "g.json")) as f:
            g = json.load(f)["benchmarks"]
        check(g and all(b.get("depth") == 7 and b.get("bytes", 0) > 0 for b in g
                        if b.get("run_type") == "iteration"),
              f"late counters {extra}: Google Benchmark JSON {g}")
        with open(os.path.join(d, "b.json")) as f:
            check("depth" in f.read(), f"late counters {extra}: not in the BMF")
rc, out, err = run("-filter=CounterNoRun", hostile="CounterNoRun")
check(rc == 1 and 'fb_counter("alone") with no run to describe' in out,
      f"counter with no run: exit {rc}: {out[-300:]}")

# Names of 512 to 1024 bytes (a registered benchmark's, a run's) are
# measured in every mode; over 1024 bytes refused with one line.
with tempfile.TemporaryDirectory() as d:
    modes = [[], ["-isolate"], ["-repetitions=2"]]
    if VALGRIND:
        modes += [["-valgrind"], ["-valgrind", "-isolate"]]
    for n in (511, 512, 600, 1024):
        for extra in modes:
            rc, out, err = run(*extra, "-filter=n+", "-output_json=l.json",
                               env={"LONGNAME": str(n)}, cwd=d, timeout=300)
            passes = 2 if "-repetitions=2" in extra else 1
            got = [r for r in json_results(os.path.join(d, "l.json"))
                   if r["name"] == "n" * n and not r.get("error")]
            check(rc == 0 and len(got) == passes,
                  f"{n}-byte benchmark name {extra}: exit {rc}, {len(got)} measured: "
                  f"{err[-300:]}")
        rc, out, err = run("-isolate", "-filter=LongRun", "-output_json=l.json",
                           hostile="LongRun", env={"LONGRUN": str(n)}, cwd=d, prog=THIRD)
        got = [r for r in json_results(os.path.join(d, "l.json")) if r["name"] == "r" * n]
        check(rc == 0 and len(got) == 1, f"{n}-byte run name -isolate: exit {rc}")
    rc, out, err = run("-filter=LongRun", hostile="LongRun", env={"LONGRUN": "1025"},
                       prog=THIRD)
    check(rc == 2 and "longer than 1024 bytes" in err and len(err.strip().splitlines()) == 1,
          f"1025-byte run name: exit {rc}: {err[-300:]}")

# -repetitions prints each pass's comparison table once, under -isolate too.
rc, out, err = run("-filter=Cmp", "-repetitions=3", "-isolate", hostile="Cmp", prog=MORE)
summaries = [l for l in (out + err).splitlines() if "paired rounds" in l]
check(rc == 0 and len(summaries) == 3,
      f"-repetitions=3 -isolate: {len(summaries)} comparison summaries, want 3 (exit {rc})")

# A number with a leading zero is refused by every numeric option alike
# (and by FEMTOBENCH_CONFIG); the canonical forms still pass.
for arg in ("-repetitions=05", "-timeout=05", "-min_time=00", "-asymptote=10,010",
            "-shard=01/2", "-shard=1/02", "-threshold=05", "--benchmark_min_time=05s",
            "--benchmark_min_time=010x", "--benchmark_repetitions=03"):
    bad(["-filter=Fine", arg], "leading zero")
bad(["-filter=Fine"], "leading zero", env={"FEMTOBENCH_CONFIG": "epochs=05"})
for arg in ("-repetitions=1", "-timeout=0.5", "-min_time=0", "-asymptote=0.5,10"):
    rc, out, err = run("-list", arg)
    check(rc == 0, f"{arg}: exit {rc}: {err[-200:]}")

# -timeout with -valgrind: a benchmark still running under Callgrind after
# the timeout (wall time) is killed with its process group, an error row
# that says so; the rest is counted; exit status 1.
if VALGRIND:
    with tempfile.TemporaryDirectory() as d:
        pidfile = os.path.join(d, "hang.pid")
        rc, out, err = run("-valgrind", "-timeout=2", "-filter=Hang|Fine", "-output_json=h.json",
                           hostile="Hang", env={"HANG_PIDFILE": pidfile}, cwd=d, timeout=240)
        hang = [l for l in out.splitlines() if "`Hang`" in l]
        fine = [l for l in out.splitlines() if "`Fine`" in l]
        check(rc == 1 and hang and ":boom:" in hang[0] and "timed out" in hang[0]
              and "after 2 s" in hang[0] and fine and ":boom:" not in fine[0],
              f"-valgrind -timeout=2: exit {rc}: {out[-600:]} {err[-300:]}")
        res = {r["name"]: r for r in json_results(os.path.join(d, "h.json"))}
        check("timed out" in (res.get("Hang", {}).get("error") or "")
              and not res.get("Fine", {}).get("error")
              and ((res.get("Fine", {}).get("valgrind") or {}).get("per_iteration") or {}).get(
                  "instructions"),
              f"-valgrind -timeout=2: JSON {res}")
        pid = int(open(pidfile).read()) if os.path.exists(pidfile) else 0
        try:
            os.kill(pid, 0)
            left = pid > 0
        except OSError:
            left = False
        check(pid and not left, f"-valgrind -timeout=2: the hung process {pid} still runs")

# -sanity_check -asymptote: no fit in any file, in process and under
# -isolate; the HTML report says the fit was skipped and why (not that it
# needs two distinct N: there were three).
with tempfile.TemporaryDirectory() as d:
    for extra in ([], ["-isolate"]):
        rc, out, err = run(*extra, "-filter=Fine", "-sanity_check", "-asymptote=10,100,1000",
                           "-output_json=s.json", "-output_gbench=g.json", "-output_html=s.html",
                           "-output_csv=s.csv", cwd=d)
        with open(os.path.join(d, "s.json")) as f:
            fits = json.load(f).get("complexity")
        with open(os.path.join(d, "g.json")) as f:
            bigo = [b for b in json.load(f)["benchmarks"] if b.get("aggregate_name") in
                    ("BigO", "RMS")]
        check(rc == 0 and not fits and not bigo,
              f"-sanity_check -asymptote {extra}: exit {rc}, fits {fits}, {bigo}")
        cx = fbtest.html_sections(os.path.join(d, "s.html"), "complexity")
        text = " ".join(" ".join(s["text"].split()) for s in cx)
        inside = [i for s in cx for i in s["inside"]]
        check(len(cx) == 1 and "The complexity fit was skipped: -sanity_check runs each "
              "benchmark once per N" in text and "two distinct N" not in text
              and ("table", "fits") not in inside and ("path", "fit") not in inside,
              f"-sanity_check -asymptote {extra}: the HTML's complexity section: {cx}")
        with open(os.path.join(d, "s.csv")) as f:
            rows = list(csv.DictReader(f))
        check(len(rows) == 3 and not any(k and ("fit" in k.lower() or "bigo" in k.lower())
                                         for k in rows[0]),
              f"-sanity_check -asymptote {extra}: CSV {rows[:1]}")

# One bad fb_set_iteration_time call in each of 3,000 iterations, each with
# its own value: said once, then counted (one kind of misuse, many values).
rc, out, err = run("-filter=BadIterTimeVary", hostile="BadIterTimeVary")
lines = err.strip().splitlines()
check(rc == 2 and len(lines) < 12
      and any("(said above) came" in l and "with other values too" in l for l in lines),
      f"bad manual times, each its own: exit {rc}, {len(lines)} lines: {lines[:12]}")

# A comparison timed by a clock that stands still or runs backwards, or with
# manual times of 0 s: said as what happened, not blamed on the optimizer.
for env, want in (({"STILL": "1"}, "the clock stood still"),
                  ({"BACK": "1"}, "the clock went backwards"),
                  ({"ZERO": "1"}, "fb_set_iteration_time do not grow")):
    rc, out, err = run("-filter=CmpClock", hostile="CmpClock", env=env)
    both = out + err
    check(rc == 1 and want in both and "optimized away" not in both,
          f"comparison {env}: exit {rc}: {both[-400:]}")

# Control characters in what a user gives are shown as \xNN on every line
# that names them: -list, fb_set_context's key, the -baseline files' context.
rc, out, err = run("-list", env={"CTLNAME": "1"})
check(rc == 0 and "ctl\\x0alist\\x1b[31m" in out and "\x1b" not in out,
      f"-list with a control character: {out!r}")
rc, out, err = run("-filter=CtlContext", hostile="CtlContext")
check('fb_set_context("k\\x1b[31m\\x0ax")' in err and "\x1b" not in err,
      f"fb_set_context's key: {err[-300:]!r}")
with tempfile.TemporaryDirectory() as d:
    a, b = os.path.join(d, "a.json"), os.path.join(d, "b.json")
    rc, out, err = run("-filter=Fine", f"-output_json={a}")
    with open(a) as f:
        doc = json.load(f)
    doc["context"]["cpu_model"] = "evil\x1b[31m\ncpu"
    doc["results"][0]["name"] = "Other"
    with open(b, "w") as f:
        json.dump(doc, f)
    rc, out, err = run("-filter=Fine", f"-baseline={a},{b}")
    said = [l for l in err.splitlines() if "disagree about the machine" in l]
    check(said and "\x1b" not in err and "\\x1b" in said[0],
          f"-baseline files' context: {err[-400:]!r}")

sys.exit(checks.done())
