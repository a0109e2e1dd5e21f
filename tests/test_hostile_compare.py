"""A hostile round on thread groups, comparisons and numbers
(docs/reliability.md, "Third round", and docs/threads.md, docs/compare.md):
the runner tried as a hostile user would, with tests/suite_hostile_compare.c
(each misbehaving benchmark active only when HOSTILE names it). The schedule's parts (a ratio of 10^7,
more than 100 alternatives) are tests/test_compare.c's, under a fake
clock."""
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fbtest  # noqa: E402

BUILD = os.environ.get("FB_BUILD_DIR", "build")
SUITE = os.path.abspath(os.path.join(BUILD, "tests", "suite_hostile_compare"))
checks = fbtest.Checks()
check = checks.check


run = fbtest.runner(SUITE, hostile="", timeout=60, hung=True)


# The leader of a group (thread 0) that calls pthread_exit, before its run
# or inside it: no hang; an error row for each instance, a line that says
# why, and the rest of the suite runs (in process and under -isolate).
for when in ("before", "inside"):
    for extra in ([], ["-isolate"]):
        what = f"leader pthread_exit {when} {extra}"
        rc, out, err = run(*extra, hostile="LeaderExit", env={"LEADER": when}, timeout=60)
        check(rc == 1, f"{what}: exit {rc}, want 1: {err[-300:]}")
        for inst in ("LeaderExit/threads:1", "LeaderExit/threads:2"):
            rows = [l for l in out.splitlines() if inst in l]
            check(rows and all(":boom:" in l for l in rows), f"{what}: no error row {inst}: {out}")
        check("called pthread_exit" in err, f"{what}: not said: {err[-300:]}")
        fine = [l for l in out.splitlines() if "`Fine`" in l]
        check(fine and ":boom:" not in fine[0], f"{what}: the suite did not go on: {out}")
        rows = [l for l in out.splitlines() if "LeaderExit/threads:1" in l]
        check(rows and "recorded nothing" in rows[-1], f"{what}: the row does not say why: {out}")

# The leader calls exit(0) before its run. Under -isolate: an error row for
# each instance and the suite goes on. In process the suite cannot go on:
# the runner says which benchmark ended it and exits 1, not the benchmark's
# 0 (a CI gate must not pass on the rows before it).
with tempfile.TemporaryDirectory() as d:
    js = os.path.join(d, "x.json")
    rc, out, err = run("-isolate", f"-output_json={js}", hostile="LeaderExit",
                       env={"LEADER": "exit"})
    check(rc == 1 and os.path.exists(js), f"leader exit(0) -isolate: exit {rc}: {err[-300:]}")
    for inst in ("LeaderExit/threads:1", "LeaderExit/threads:2"):
        rows = [l for l in out.splitlines() if inst in l]
        check(rows and all(":boom:" in l and "exited with status 0" in l for l in rows),
              f"leader exit(0) -isolate: no error row {inst}: {out}")
    if os.path.exists(js):
        with open(js) as f:
            errs = {r["name"]: r.get("error") for r in json.load(f)["results"]}
        check(all(errs.get(i) for i in ("LeaderExit/threads:1", "LeaderExit/threads:2")),
              f"leader exit(0) -isolate: JSON {errs}")
        os.unlink(js)
    rc, out, err = run(f"-output_json={js}", hostile="LeaderExit", env={"LEADER": "exit"})
    check(rc == 1 and "femtobench: error: LeaderExit/threads:1: called exit() while it ran" in err
          and not os.path.exists(js), f"leader exit(0) in process: exit {rc}: {err[-300:]}")

# A comparison in a family: each instance's alternatives are their own rows
# (the title carries the argument), so a baseline of both instances matches
# FamCmp/2's alternatives with FamCmp/2's, whatever -filter selects.
with tempfile.TemporaryDirectory() as d:
    base = os.path.join(d, "base.json")
    rc, out, err = run("-filter=FamCmp", f"-output_json={base}", hostile="FamCmp")
    check(rc == 0, f"family comparison: exit {rc}: {err[-300:]}")
    with open(base) as f:
        titles = sorted(c["title"] for c in json.load(f)["comparisons"])
    check(titles == ["famcmp/1", "famcmp/2"], f"family comparison titles: {titles}")
    rc, out, err = run("-filter=FamCmp/2", f"-baseline={base}", hostile="FamCmp")
    compared = [l for l in out.splitlines() if "(famcmp/2)" in l and "ns/op |" in l]
    gone = [l for l in out.splitlines() if "(famcmp/1)" in l and "gone" in l]
    check(rc == 0 and len(compared) == 2 and len(gone) == 2
          and all(l.count("ns/op") == 2 for l in compared),
          f"family comparison against a baseline: exit {rc}: {out[-900:]}")

# Every number written after setlocale(LC_ALL, "") under a decimal comma
# (de_DE) or the Arabic decimal separator (ps_AF) uses '.': the tables, the
# comparison, the change table, the summary over passes, the complexity
# table, the HTML report and the diagnostics that quote a value. The
# locales are generated with localedef into a temporary LOCPATH; skipped
# (exit 77) when none can be made.
with tempfile.TemporaryDirectory() as d:
    base = os.path.join(d, "base.json")
    rc, out, err = run("-filter=Loc", f"-output_json={base}", hostile="Loc")
    check(rc == 0, f"locale baseline: exit {rc}: {err[-300:]}")
    loc_dir = os.path.join(d, "loc")
    os.mkdir(loc_dir)
    made = []
    for loc in ("de_DE", "ps_AF"):
        try:
            ok = subprocess.run(["localedef", "-i", loc, "-f", "UTF-8",
                                 os.path.join(loc_dir, loc + ".UTF-8")],
                                capture_output=True).returncode == 0
        except OSError:
            ok = False
        if ok:
            made.append(loc)
    for loc in made:
        html = os.path.join(d, loc + ".html")
        env = {"LOCPATH": loc_dir, "LC_ALL": loc + ".UTF-8"}
        rc, out, err = run("-filter=Loc", f"-baseline={base}", "-asymptote=10,100.25",
                           "-repetitions=2", f"-output_html={html}", hostile="Loc", env=env)
        with open(html, encoding="utf-8") as f:
            page = f.read()
        text = out + err
        check(rc == 0, f"{loc}: exit {rc}: {err[-300:]}")
        check("fb_set_min_time(99.5)" in err and "fb_set_batch(-2.5)" in err,
              f"{loc}: diagnostics quote the values with '.': {err[-600:]}")
        bad = re.findall(r"\d,\d{1,2}(?!\d)|\u066b|\u066c", text + page)
        check(not bad, f"{loc}: a decimal comma or separator of the locale: {bad[:5]}")
        check("100.25" in text and "`loc`" in text and "locpair" in text,
              f"{loc}: the tables: {out[:600]}")
    if not made:
        print("note: localedef made no locale: the locales were not tried")

# A 1e57 s baseline value: exponent form in the terminal's change table
# and in the HTML report (never 58 digits, never cut).
with tempfile.TemporaryDirectory() as d:
    base = os.path.join(d, "base.json")
    rc, out, err = run("-filter=Fine", f"-output_json={base}")
    with open(base) as f:
        doc = json.load(f)
    for m in doc["results"][0]["measurements"]:
        m["elapsed"] = 1e57
    with open(base, "w") as f:
        json.dump(doc, f)
    html = os.path.join(d, "r.html")
    rc, out, err = run("-filter=Fine", f"-baseline={base}", f"-output_html={html}")
    with open(html, encoding="utf-8") as f:
        page = f.read()
    row = [l for l in out.splitlines() if l.startswith("|") and "`Fine`" in l and "s/op" in l]
    check(rc == 0 and row and "1e+57 s/op" in row[-1], f"1e57 terminal: {row or out[-400:]}")
    check("1e+57 s/op" in page and not re.search(r"\d{20}", page),
          f"1e57 HTML: {re.findall(r'[0-9.,]{20,}[^<]*', page)[:3]}")

# A fractional N shown as given everywhere it is shown: the table's cell,
# the summary over passes, the HTML table and its labels, the CSV.
with tempfile.TemporaryDirectory() as d:
    rc, out, err = run("-filter=Fine", "-asymptote=0.0000001,1234567.125", "-repetitions=2",
                       "-output_html=n.html", "-output_csv=n.csv", cwd=d)
    with open(os.path.join(d, "n.html"), encoding="utf-8") as f:
        page = f.read()
    with open(os.path.join(d, "n.csv")) as f:
        csv_text = f.read()
    check(rc == 0, f"fractional N: exit {rc}: {err[-300:]}")
    check("|   0.0000001 |" in out and "| 1,234,567.125 |" in out, f"fractional N table: {out[:900]}")
    check("`Fine` N=0.0000001" in out and "`Fine` N=1234567.125" in out,
          f"fractional N over passes: {out[-900:]}")
    check("N=1,234,567.125" in page and "N=0.0000001" in page
          and "<td>1,234,567.125</td>" in page, "fractional N in the HTML")
    check(",1234567.125," in csv_text and ",1e-07," in csv_text, f"fractional N CSV: {csv_text[:400]}")

sys.exit(checks.done())
