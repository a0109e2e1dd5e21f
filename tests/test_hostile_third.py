"""The third hostile round (docs/reliability.md, "Third round"): the runner
tried as a hostile user would, with tests/suite_hostile_third.c and
tests/suite_hostile_more.c (each misbehaving benchmark active only when
HOSTILE names it)."""
import csv
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fbtest  # noqa: E402

BUILD = os.environ.get("FB_BUILD_DIR", "build")
SUITE = os.path.abspath(os.path.join(BUILD, "tests", "suite_hostile_third"))
MORE = os.path.abspath(os.path.join(BUILD, "tests", "suite_hostile_more"))
check = fbtest.Checks()


run = fbtest.runner(SUITE, hostile="", timeout=60, hung=True)


# A thread of a group that calls pthread_exit: an error row and a line
# that says why, never a hang (in process and under -isolate).
for extra in ([], ["-isolate"]):
    rc, out, err = run(*extra, "-filter=ThreadExit.*", hostile="ThreadExit", timeout=30)
    check(rc == 1, f"pthread_exit {extra}: exit {rc}, want 1: {err[-300:]}")
    check(":boom:" in out and "ThreadExit" in out, f"pthread_exit {extra}: no error row: {out}")
    check("called pthread_exit" in err, f"pthread_exit {extra}: not said: {err[-300:]}")

# fb_counter after the last run (Google Benchmark's habit): attached to
# that run and said, never dropped silently (every output:
# tests/test_hostile_fourth.py).
for extra in ([], ["-isolate"]):
    rc, out, err = run(*extra, "-filter=CounterAfter", hostile="CounterAfter")
    check(rc == 0, f"late counter {extra}: exit {rc}, want 0")
    check("'CounterAfter': 1 counter given with fb_counter after the run: attached" in err,
          f"late counter {extra}: not said: {err[-300:]}")

# A rate counter that overflows a double: inf in the table and the CSV,
# "overflow" in the JSON, and a line on stderr.
with tempfile.TemporaryDirectory() as d:
    rc, out, err = run("-filter=RateOverflow", "-output_csv=r.csv", "-output_json=r.json",
                       hostile="RateOverflow", cwd=d)
    check(rc == 0, f"rate overflow: exit {rc}: {err[-300:]}")
    row = [l for l in out.splitlines() if "RateOverflow" in l]
    check(row and "inf" in row[0], f"rate overflow: not in the table row: {out}")
    check("more than a double holds" in err, f"rate overflow: not said: {err[-300:]}")
    with open(os.path.join(d, "r.csv")) as f:
        rows = list(csv.DictReader(f))
    check(rows and rows[0].get("huge/s") == "inf", f"rate overflow: CSV cell: {rows}")
    with open(os.path.join(d, "r.json")) as f:
        uc = json.load(f)["results"][0]["user_counters"][0]
    check(uc.get("overflow") is True and uc.get("shown") is None,
          f"rate overflow: JSON counter: {uc}")

# said once, in the process that measured it (not again where -isolate's
# parent or -repetitions' parent publishes the result it was sent)
for extra in (["-isolate"], ["-repetitions=2"]):
    rc, out, err = run(*extra, "-filter=RateOverflow", hostile="RateOverflow")
    n = err.count("more than a double holds")
    want = 2 if extra == ["-repetitions=2"] else 1
    check(rc == 0 and n == want, f"rate overflow {extra}: said {n} times, want {want}: {err}")

# A benchmark that calls chdir() moves no output, -output_bmf included
# (every output file is pinned from one table).
with tempfile.TemporaryDirectory() as d:
    elsewhere = os.path.join(d, "elsewhere")
    os.mkdir(elsewhere)
    for extra in ([], ["-isolate"]):
        rc, out, err = run(*extra, "-output_bmf=r.bmf.json", "-output_json=r.json",
                           hostile="Chdir", env={"CHDIR_TO": elsewhere}, cwd=d, prog=MORE)
        check(rc == 0 and os.path.exists(os.path.join(d, "r.bmf.json"))
              and not os.listdir(elsewhere),
              f"chdir bmf {extra}: exit {rc}, in place: {sorted(os.listdir(d))}, moved: "
              f"{os.listdir(elsewhere)} {err[-300:]}")
        check("wrote 'r.bmf.json'" in err, f"chdir bmf {extra}: the path as given: {err[-300:]}")
        for where in (d, elsewhere):
            for f in ("r.json", "r.bmf.json"):
                if os.path.exists(os.path.join(where, f)):
                    os.unlink(os.path.join(where, f))

# -repetitions: each pass's comparison table once (the pass process prints
# it; the parent only counts it).
rc, out, err = run("-filter=Cmp", "-repetitions=3", hostile="Cmp", prog=MORE)
summaries = [l for l in (out + err).splitlines() if "paired rounds" in l]
check(rc == 0 and len(summaries) == 3,
      f"-repetitions=3: {len(summaries)} comparison summaries, want 3 (exit {rc})")

# FB_COMPARE's alternatives are compared against a -baseline (by the
# comparison's title and the alternative's name), in process, under
# -isolate and over -repetitions.
with tempfile.TemporaryDirectory() as d:
    base = os.path.join(d, "base.json")
    rc, out, err = run("-filter=Cmp", f"-output_json={base}", hostile="Cmp", prog=MORE)
    check(rc == 0, f"comparison baseline: exit {rc}: {err[-300:]}")
    for extra in ([], ["-isolate"], ["-repetitions=2"]):
        rc, out, err = run(*extra, "-filter=Cmp", f"-baseline={base}", hostile="Cmp", prog=MORE)
        both = out + err
        check(rc == 0 and "`x` (pair)" in both and "`one` (pair)" in both
              and "2 benchmarks against the baseline" in both,
              f"comparison baseline {extra}: exit {rc}: {both[-600:]}")

# One bad fb_set_iteration_time call in each of 3,000 iterations: said
# once, then counted.
rc, out, err = run("-filter=BadIterTime", hostile="BadIterTime")
said = [l for l in err.splitlines()
        if "fb_set_iteration_time(-1)" in l and "(said above)" not in l]
counted = re.search(r"fb_set_iteration_time\(-1\): not a finite number of seconds >= 0 "
                    r"\(said above\) came (\d+) more times", err)
check(rc == 2 and len(said) == 1 and counted and int(counted.group(1)) >= 2999
      and len(err.splitlines()) < 10,
      f"bad manual time: exit {rc}, {len(said)} lines: {err[-400:]}")

# A manual time of 0, a clock that stands still or runs backwards: said
# as what happened, not blamed on the optimizer.
for what, env, want in (("ZeroIterTime", {}, "fb_set_iteration_time do not grow"),
                        ("StillClock", {}, "the clock stood still"),
                        ("StillClock", {"BACK": "1"}, "the clock went backwards")):
    rc, out, err = run(f"-filter={what}", hostile=what, env=env)
    check(rc == 1 and want in out and "optimized away" not in out,
          f"{what} {env}: exit {rc}: {out[-400:]}")

# The change table: '.' whatever the locale, a huge value in exponent form
# (never cut).
with tempfile.TemporaryDirectory() as d:
    base = os.path.join(d, "base.json")
    rc, out, err = run("-filter=Fine", f"-output_json={base}")
    with open(base) as f:
        doc = json.load(f)
    for m in doc["results"][0]["measurements"]:
        m["elapsed"] = 1e57
    with open(base, "w") as f:
        json.dump(doc, f)
    rc, out, err = run("-filter=Fine", f"-baseline={base}")
    row = [l for l in out.splitlines() if l.startswith("|") and "`Fine`" in l and "s/op" in l]
    check(row and "1e+57 s/op" in row[-1] and "-100.0%" in row[-1],
          f"1e57 s baseline: {row or out[-400:]}")
    loc_dir = os.path.join(d, "loc")
    os.mkdir(loc_dir)
    made = []
    for loc in ("de_DE", "ps_AF"):
        if subprocess.run(["localedef", "-i", loc, "-f", "UTF-8",
                           os.path.join(loc_dir, loc + ".UTF-8")],
                          capture_output=True).returncode == 0:
            made.append(loc)
    for loc in made:
        env = {"LOCPATH": loc_dir, "LC_ALL": loc + ".UTF-8", "SETLOCALE": "1"}
        rc, out, err = run("-filter=Fine", f"-baseline={base}", env=env)
        row = [l for l in out.splitlines() if l.startswith("|") and "`Fine`" in l and "s/op" in l]
        check(row and "-100.0%" in row[-1], f"change table under {loc}: {row or out[-400:]}")
    if not made:
        print("note: localedef made no locale: the change table's locale was not tried")

# Control characters in a name: every stderr line that names it is one line.
rc, out, err = run("-filter=CtlName", "-sanity_check", hostile="CtlName")
check(rc != 0 and "ctl\\x0aname\\x1b[31m" in err and "\x1b" not in err
      and 'fb_counter("bad\\x0actr")' in err
      and not any(l.startswith(("name", "ctr")) for l in err.splitlines()),
      f"control characters in a name: exit {rc}: {err[-400:]!r}")

# -sanity_check -asymptote: one iteration per N fits nothing, so no fit is
# written; a fractional N is shown as given.
with tempfile.TemporaryDirectory() as d:
    rc, out, err = run("-filter=Fine", "-sanity_check", "-asymptote=10,100,1000",
                       "-output_json=s.json", cwd=d)
    with open(os.path.join(d, "s.json")) as f:
        fits = json.load(f).get("complexity")
    check(rc == 0 and not fits, f"-sanity_check -asymptote: exit {rc}, fits {str(fits)[:200]}")
rc, out, err = run("-filter=Fine", "-asymptote=10,100.25,1000.5")
check(rc == 0 and "100.25 |" in out and "1,000.5 |" in out, f"fractional N: {out[:600]}")

check.finish()
