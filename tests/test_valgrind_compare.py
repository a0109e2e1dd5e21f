"""A comparison under -valgrind is counted, not timed (docs/valgrind.md,
docs/compare.md): its ratio is the ratio of the exact instruction counts.

tests/suite_valgrind.c's PairDouble: `twice` executes exactly twice `ten`'s
instructions per iteration, so its ratio is exactly 0.5 ("executed 2.000x
the instructions"); PairSame: the same code twice, so exactly 1, the
interval collapsed onto it, not significant. Checked in every output: the
table (counts, never ns/op), femtobench JSON, CSV (Python's csv), Google
Benchmark JSON (no time of 0), HTML (counts drawn, no "not measured").
Add10Epochs asks for 21 epochs: the counted schedule replaces them, and no
line may say that some of them were not run.
Skips (77) without valgrind, without <valgrind/callgrind.h> at build time,
under AddressSanitizer, or on an architecture without the inline assembly."""
import csv
import html.parser
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
check = fbtest.Checks()


def env_for():
    e = dict(os.environ)
    for k in ("FEMTOBENCH_CONFIG", "FEMTOBENCH_ENDLESS", "FEMTOBENCH_VALGRIND",
              "FEMTOBENCH_CALLGRIND_OUT"):
        e.pop(k, None)
    e["FEMTOBENCH_SUPPRESS_WARNINGS"] = "1"
    return e


if os.path.exists(SUITE) and b"__asan_init" in open(SUITE, "rb").read():
    print("SKIP: built with AddressSanitizer, which does not run under Valgrind")
    sys.exit(77)
if not shutil.which("valgrind"):
    print("SKIP: no valgrind in PATH")
    sys.exit(77)
p = subprocess.run([SUITE, "-valgrind", "-list"], capture_output=True, text=True, env=env_for())
if p.returncode == 2 and "built without" in p.stderr:
    print("SKIP: built without <valgrind/callgrind.h>")
    sys.exit(77)
if "PairDouble" not in p.stdout:
    print("SKIP: no inline assembly for this architecture")
    sys.exit(77)


class Html(html.parser.HTMLParser):
    """Collects the text and the class attributes of the page."""

    def __init__(self):
        super().__init__()
        self.text, self.classes = [], []

    def handle_starttag(self, tag, attrs):
        for k, v in attrs:
            if k == "class":
                self.classes.append(v)

    def handle_data(self, data):
        self.text.append(data)


with tempfile.TemporaryDirectory() as d:
    p = subprocess.run([SUITE, "-valgrind", "-filter=PairDouble|PairSame|Add10Epochs",
                        f"-output_json={d}/r.json", f"-output_csv={d}/r.csv",
                        f"-output_gbench={d}/g.json", f"-output_html={d}/r.html"],
                       capture_output=True, text=True, env=env_for(), timeout=240)
    out, err = p.stdout, p.stderr
    check(p.returncode == 0, f"exit status {p.returncode}: {err}")
    # ------------------------------------------------------------ the table
    check(not re.search(r"(?<!i)ns/op", out) and "95% CI [" not in out
          and "paired rounds" not in out,
          f"the table is counted, not timed: {out}")
    check("ins/op" in out, f"the table shows ins/op: {out}")
    check("`twice` executed 2.000x the instructions of `ten` per op" in out,
          f"the doubled pair reads exactly 2.000x: {out}")
    check("`other` and `one` executed the same instructions per op: 1.000x" in out,
          f"the identical pair reads exactly 1: {out}")
    rows = [ln for ln in out.splitlines() if ln.startswith("|") and "`twice`" in ln]
    check(len(rows) == 1 and "50.0%" in rows[0] and "exact" in rows[0],
          f"the doubled pair's row: 50.0%, exact: {rows}")
    # no line about epochs asked for and not run: the counted schedule replaces them
    check("epochs asked for" not in err and "disturbed" not in err,
          f"no note about short or disturbed epochs under -valgrind: {err}")

    # ------------------------------------------------------------- the JSON
    j = json.load(open(f"{d}/r.json"))
    cmps = {c["title"]: c for c in j["comparisons"]}
    ins = {}
    for c in j["comparisons"]:
        for r in c["results"]:
            vg = r.get("valgrind") or {}
            ins[r["name"]] = vg.get("per_iteration", {}).get("instructions")
    check(all(isinstance(v, (int, float)) and v > 0 for v in ins.values()) and len(ins) == 4,
          f"each alternative is a counted result: {ins}")
    dbl, same = cmps.get("pair double", {}), cmps.get("pair same", {})
    check(dbl.get("measure") == "instructions" and same.get("measure") == "instructions",
          f"measure: instructions: {dbl.get('measure')}, {same.get('measure')}")
    check(dbl.get("rounds") == 0 and same.get("rounds") == 0, "no paired rounds when counted")
    check(ins.get("twice") == 2 * ins.get("ten", -1),
          f"suite_valgrind.c's FBT_DOUBLE_K does not double `ten` with this compiler "
          f"(ten {ins.get('ten')}, twice {ins.get('twice')}): fix it for the loop's instructions")
    a = {x["name"]: x for x in dbl.get("alternatives", [])}
    t = a.get("twice", {})
    check(t.get("ratio") == ins.get("ten", 0) / ins.get("twice", 1) and t.get("ratio") == 0.5,
          f"the ratio of exact counts is exact: {t}")
    check(t.get("low") == t.get("ratio") == t.get("high") and t.get("significant") is True
          and t.get("log_ratios") == [], f"the interval collapsed onto it: {t}")
    check(dbl.get("fastest") == "ten", f"fastest: the fewest instructions: {dbl.get('fastest')}")
    o = {x["name"]: x for x in same.get("alternatives", [])}.get("other", {})
    check(o.get("ratio") == 1 and o.get("low") == 1 and o.get("high") == 1
          and o.get("significant") is False, f"the identical pair: exactly 1, same: {o}")
    for c in j["comparisons"]:
        for r in c["results"]:
            check(r.get("error") is None, f"{r['name']}: {r.get('error')}")

    # -------------------------------------------------------------- the CSV
    rows = {r["name"]: r for r in csv.DictReader(io.open(f"{d}/r.csv", newline=""))}
    tw = rows.get("twice", {})
    check(tw.get("median_ns_per_unit") == "" and float(tw.get("relative") or "nan") == 0.5
          and float(tw.get("ci_low") or "nan") == 0.5 and float(tw.get("ci_high") or "nan") == 0.5
          and float(tw.get("valgrind_instructions_per_unit") or "nan") == ins.get("twice"),
          f"CSV: counts and the exact ratio, no time: {tw}")
    check(float(rows.get("other", {}).get("relative") or "nan") == 1.0, "CSV: the identical pair")

    # -------------------------------------------------- Google Benchmark JSON
    g = {b["name"]: b for b in json.load(open(f"{d}/g.json"))["benchmarks"]}
    for name, alt in (("pair double/ten", "ten"), ("pair double/twice", "twice")):
        row = g.get(name, {})
        check(row.get("real_time") == ins.get(alt) and row.get("cpu_time") == ins.get(alt)
              and row.get("real_time", 0) > 0, f"GB JSON: no time of 0, the count: {row}")

    # ------------------------------------------------------------- the HTML
    h = Html()
    h.feed(open(f"{d}/r.html", encoding="utf-8").read())
    text = "".join(h.text)
    check("not measured" not in text and "error:" not in text,
          "HTML: counted results are drawn, not errors")
    check(any("chart counted" in c for c in h.classes) and "instructions per op" in text,
          "HTML: a chart of the counts")
    check("instructions relative to ten" in text, "HTML: the comparison's forest plot is counted")

check.finish()
