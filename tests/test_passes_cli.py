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
from html import escape as html_escape
from html.parser import HTMLParser

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fbtest  # noqa: E402

BUILD = os.environ.get("FB_BUILD_DIR", "build")
SUITE = os.path.join(BUILD, "tests", "suite_passes")
COMPARE = os.path.join(BUILD, "femtobench-compare")
GB_COMPARE = "/usr/share/benchmark/compare.py"
check = fbtest.Checks()


def env(extra=None):
    e = dict(os.environ)
    for k in ("FEMTOBENCH_CONFIG", "SUITE_PASSES_SLOW", "SUITE_PASSES_ALL_SLOW", "SUITE_PASSES_CRASH",
              "FEMTOBENCH_PASS"):
        e.pop(k, None)
    e["FEMTOBENCH_SUPPRESS_WARNINGS"] = "1"
    e.update(extra or {})
    return e


run = fbtest.runner(env=env, timeout=240)  # run(prog, *args)


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
    ratio = over.get("two", {}).get("ratio", {})
    # "two" does twice the work of "one": its ratio (t_one / t_two) is under
    # 1 in every pass, whatever the build (-O0 under ASan) or the load makes
    # of the loop around it; the summary's own numbers must agree
    check(ratio.get("passes") == 3 and 0 < ratio.get("median", 0) < 1 and ratio.get("faster") == 0
          and ratio["min"] <= ratio["median"] <= ratio["max"],
          f"JSON over_passes: two against one over the passes {ratio}")
    check(re.search(r"^- `pair/two` relative to `one`: [\d.]+% \(the median of 3 passes; ", out, re.M),
          f"summary: the ratio over passes: {out[-600:]}")
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
    check(re.search(r"<td><code>pair/two</code></td>(<td>[^<]*</td>){5}<td>[\d.]+% \(", html),
          "HTML: the ratio over passes of pair/two")
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
                       env={"SUITE_PASSES_BROKEN": "1"})
    doc = json.load(open(p("broken.json"))) if os.path.exists(p("broken.json")) else {}
    check(rc == 1 and len(doc.get("comparisons", [])) == 2,
          f"a failing comparison in the passes fails the run: {rc} {err[-400:]}")


class Order(HTMLParser):
    """The HTML report in document order, as a reader meets it: where the
    warnings, the verdicts and the change table are, each results row (its
    pass cell, whether it lies inside a closed <details>), each strip chart's
    row labels."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.events, self.labels = [], [], []
        self.details = []  # (open?) of each <details>
        self.closed_depth = 0  # inside a closed <details>
        self.row = None  # the results row being read: [has a pass cell]
        self.table = []  # the classes of the <table> being read
        self.in_results = False  # inside a results table's <tbody>
        self.svg = []  # the classes of the <svg> being read
        self.label_open = self.in_label = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        cls = (a.get("class") or "").split()
        if tag == "details":
            self.details.append("open" in a)
            self.closed_depth += "open" not in a
        elif tag == "div" and "warnings" in cls:
            self.events.append(("warnings", None))
        elif tag == "p" and "verdicts" in cls:
            self.events.append(("verdicts", None))
        elif tag == "table" and "change" in cls:
            self.events.append(("change table", None))
        elif tag == "table":
            self.table = cls
            if "results" in cls:
                self.events.append(("results table", self.closed_depth > 0))
        elif tag == "tbody" and "results" in self.table:
            self.in_results = True
        elif tag == "tr" and self.in_results:
            self.row = [False]
        elif tag == "td" and "pass" in cls and self.row is not None:
            self.row[0] = True
        elif tag == "svg":
            self.svg = cls
        elif tag == "text" and "name" in cls and "strip" in self.svg:
            self.label_open = self.in_label = True
            self.labels.append("")
        elif tag == "title":
            self.in_label = False  # the tooltip is not the label
        if tag not in ("br", "meta", "input", "hr", "img", "link", "wbr", "col"):
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        pass

    def handle_endtag(self, tag):
        if self.stack and self.stack[-1] == tag:
            self.stack.pop()
        if tag == "details":
            self.closed_depth -= not self.details[-1] if self.details else 0
        elif tag == "tbody":
            self.in_results = False
        elif tag == "tr" and self.row is not None:
            self.events.append(("results row", (self.row[0], self.closed_depth > 0)))
            self.row = None
        elif tag == "text":
            self.label_open = self.in_label = False
        elif tag == "title" and self.label_open:
            self.in_label = True

    def handle_data(self, data):
        if self.in_label and self.labels:
            self.labels[-1] += data


def answer_first(p):
    """A -repetitions run against a baseline leads with the answer in every
    report. HTML (read with html.parser, in document order): the machine's
    warnings (the JSON's own list of the same run) and then the verdicts,
    the summary line and the change table, before the first result row of
    any pass; each pass's results folded in a closed <details>, every row
    labelled with its pass (a pass column; a chart label `name · pass k`),
    by benchmark and then pass. The terminal: each pass's table labelled,
    the change table and its summary line at the end, where the terminal
    leaves them in view. femtobench-compare's markdown: the verdict table
    first."""
    html, js = p("order.html"), p("order.json")
    rc, out, err = run(SUITE, "-repetitions=3", "-filter=Where|Work|Pair", "-baseline=" + p("a.json"),
                       "-output_html=" + html, "-output_json=" + js,
                       env={"FEMTOBENCH_SUPPRESS_WARNINGS": "0"})
    if not check(rc == 0, f"answer first: exit {rc}: {err}"):
        return
    warnings = json.load(open(js))["context"].get("warnings")
    check(warnings is not None, "-repetitions: the machine's checks reach the files (JSON warnings)")
    text = open(html, encoding="utf-8").read()
    page = Order()
    page.feed(text)
    page.close()
    kinds = [k for k, _ in page.events]
    first_row = kinds.index("results row") if "results row" in kinds else len(kinds)
    check("verdicts" in kinds and kinds.index("verdicts") < first_row,
          f"HTML: the verdicts come before the first result row: {kinds[:8]}")
    check("change table" in kinds and kinds.index("change table") < first_row,
          f"HTML: the change table comes before the first result row: {kinds[:8]}")
    if warnings:
        check(kinds[:1] == ["warnings"] and all(html_escape(w["what"]) in text for w in warnings),
              f"HTML: the machine's warnings, first: {kinds[:3]} {warnings}")
    else:
        check("warnings" not in kinds, "HTML: no warnings section without warnings")
    summary = re.search(r'<p class="verdicts" id="verdicts"><b>(\d+) benchmarks against the '
                        r'baseline</b> \(threshold 10%\): <span class="verdict-faster[^"]*">\d+ faster',
                        text)
    check(summary, "HTML: the summary line counts the verdicts")
    check(page.details == [False], f"HTML: each pass's results in one closed <details>: {page.details}")
    rows = [v for k, v in page.events if k == "results row"]
    check(len(rows) == 6 and all(labelled and folded for labelled, folded in rows),
          f"HTML: 6 result rows (Where, Work x 3 passes), each with its pass, folded: {rows}")
    check(all(folded for k, folded in page.events if k == "results table"),
          "HTML: every results table is inside the folded details")
    names = list(dict.fromkeys(l.split(" ")[0] for l in page.labels))
    check(sorted(names) == ["Where", "Work"] and
          page.labels == [f"{n} \u00b7 pass {k}" for n in names for k in (1, 2, 3)],
          f"HTML: chart rows by benchmark, then pass, each labelled: {page.labels}")
    check(re.search(r"Each pass's results: 6 results and 3 comparisons of 3 passes", text),
          "HTML: the fold says what it holds")
    check([t for t in re.findall(r"<h2>pair \(pass (\d)\)", text)] == ["1", "2", "3"],
          f"HTML: each pass's comparison labelled, in pass order")
    # the terminal: every pass labelled before its rows; the verdicts last
    lines = out.rstrip("\n").splitlines()
    check(summary and lines[-1].startswith(f"femtobench: {summary.group(1)} benchmarks against "
                                           "the baseline"),
          f"terminal: the summary line (the HTML's) ends the output: {lines[-3:]}")
    table = [i for i, l in enumerate(lines) if re.match(r"\|\s+baseline \|", l)]
    passes = [i for i, l in enumerate(lines) if re.fullmatch(r"pass \d of 3 \(a fresh process\):", l)]
    over = [i for i, l in enumerate(lines) if l.startswith("Over 3 passes")]
    check(len(table) == 1 and len(passes) == 3 and len(over) == 1 and passes[0] == 0 and
          passes[-1] < over[0] < table[0],
          f"terminal: each pass labelled, then over passes, then the verdicts: {passes} {over} {table}")
    # femtobench-compare's markdown: the verdict table is the first table
    rc, out, err = run(COMPARE, p("a.json"), js, "-output_md=" + p("order.md"))
    md = open(p("order.md")).read().splitlines() if os.path.exists(p("order.md")) else []
    first = next((l for l in md if not l.startswith("> warning:")), "")
    check(rc == 0 and re.match(r"\|\s+baseline \|\s+now \|.*\| verdict \| benchmark$", first) and
          md[-1].startswith("femtobench: "), f"markdown: the verdict table first: {md[:3]} {md[-1:]}")


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
    # ---- against a baseline, every report leads with the answer
    answer_first(p)
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
                       "-fail_on_slower", env={"SUITE_PASSES_SLOW": "1"})
    check(rc == 3 and verdicts(out).get("Work") == ["slower"], f"1000x slower: {rc}\n{out}")
    # one process a side: unsure below the floor, a 1000x change still found
    rc, out, err = run(SUITE, "-filter=Work", "-output_json=" + p("one.json"))
    rc, out, err = run(SUITE, "-filter=Work", "-baseline=" + p("one.json"))
    check(verdicts(out).get("Work") == ["unsure"] and "> one process a side for 1 benchmark" in out,
          f"one process a side: {out}")
    rc, out, err = run(SUITE, "-filter=Work", "-baseline=" + p("one.json"), "-fail_on_slower",
                       env={"SUITE_PASSES_SLOW": "1"})
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
                       env={"SUITE_PASSES_CRASH": "1"})
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

    return check.done()


if __name__ == "__main__":
    sys.exit(main())
