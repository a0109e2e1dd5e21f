"""The HTML report through the runner, parsed with Python's html.parser and
checked against the femtobench JSON written in the same run: well-formed
(every element closed in order), one strip chart per title/unit group, one
dot per recorded epoch with the epoch's value in its tooltip, a log axis
exactly when a group spans more than 100x, no reference outside the file,
no script, hostile names shown as text. Also the complexity chart
(-asymptote), '-' for stdout, bad paths refused before anything runs, and
the demo suite's report size (< 200 KB).

Runs tests/suite_html.c's program and bench/femtobench-demo."""
import json
import os
import re
import sys
import tempfile
from html import escape as html_escape
from html.parser import HTMLParser

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fbtest  # noqa: E402

BUILD = os.environ.get("FB_BUILD_DIR", "build")
SUITE = os.path.join(BUILD, "tests", "suite_html")
DEMO = os.path.join(BUILD, "bench", "femtobench-demo")
HOSTILE = ["<script>alert(1)</script>", "a\"b'&c", "</svg><img src=x onerror=alert(2)>"]
HOSTILE_TITLE = "<b>title</b> & 'more'"
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr"}
URL_ATTRS = {"src", "href", "xlink:href", "srcset", "action", "formaction", "poster", "data",
             "background", "ping", "manifest", "cite", "longdesc", "usemap", "codebase"}
SI = {"p": 1e-12, "n": 1e-9, "\u00b5": 1e-6, "m": 1e-3, "": 1.0}
check = fbtest.Checks()


def env():
    e = dict(os.environ)
    for k in ("FEMTOBENCH_CONFIG", "FEMTOBENCH_ENDLESS"):
        e.pop(k, None)
    e["FEMTOBENCH_SUPPRESS_WARNINGS"] = "1"
    return e


# run(prog, *args): a "\r" the program writes stays in its output
run = fbtest.runner(newlines=False)


def seconds(text):
    """'12.3456 ns' -> 1.23456e-08"""
    m = re.fullmatch(r"(-?[0-9.]+) (p|n|\u00b5|m|)s", text)
    return float(m.group(1)) * SI[m.group(2)] if m else None


class Page(HTMLParser):
    """Collects what the checks need and every structural problem."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.errors, self.svgs, self.texts = [], [], [], []
        self.scripts = 0
        self.dot_title = None

    def element(self, tag, attrs, closed):
        a = dict(attrs)
        for name, value in attrs:
            value = value or ""
            if name in URL_ATTRS and not value.startswith("#"):
                self.errors.append(f"<{tag} {name}={value!r}> points outside the file")
            if name.startswith("on"):
                self.errors.append(f"<{tag}> has an event handler {name}")
            if name == "style" and ("url(" in value or "@import" in value):
                self.errors.append(f"<{tag} style={value!r}> loads something")
            if name == "xmlns" and value != "http://www.w3.org/2000/svg":
                self.errors.append(f"<{tag} xmlns={value!r}>")
        if tag == "script":
            self.scripts += 1
        if closed and tag not in VOID and "svg" not in self.stack:
            self.errors.append(f"<{tag}/> self-closed outside SVG")
        cls = (a.get("class") or "").split()
        if tag == "svg":
            if "svg" in self.stack:
                self.errors.append("nested <svg>")
            self.svgs.append({"class": cls, "label": a.get("aria-label"), "dots": [],
                              "points": 0, "fit": 0, "axistitle": "",
                              "size": (a.get("width"), a.get("height"))})
        elif self.svgs and "svg" in self.stack:
            svg = self.svgs[-1]
            if tag == "circle" and "dot" in cls:
                svg["dots"].append(None)
                if closed:
                    self.errors.append("a dot without a <title>")
            if tag == "circle" and "point" in cls:
                svg["points"] += 1
            if tag == "path" and "fit" in cls:
                svg["fit"] += 1
            if tag == "text" and "axistitle" in cls:
                self.dot_title = "axistitle"

    def handle_starttag(self, tag, attrs):
        self.element(tag, attrs, False)
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.element(tag, attrs, True)

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes <{self.stack[-1] if self.stack else None}>")
            if tag in self.stack:
                while self.stack.pop() != tag:
                    pass
            return
        self.stack.pop()
        if tag == "text" and self.dot_title == "axistitle":
            self.dot_title = None

    def handle_data(self, data):
        self.texts.append(data)
        if "style" in self.stack[-1:] and ("url(" in data or "@import" in data):
            self.errors.append("the stylesheet loads something")
        if not self.svgs or "svg" not in self.stack:
            return
        svg = self.svgs[-1]
        if self.dot_title == "axistitle":
            svg["axistitle"] += data
        # the <title> of a dot: "<value> per <unit> (epoch i of n, k iterations)"
        if self.stack[-2:] == ["circle", "title"] and svg["dots"] and svg["dots"][-1] is None:
            m = re.fullmatch(r"(.+?) per .* \(epoch (\d+) of (\d+), [\d,]+ iterations?\)", data,
                             re.S)
            if check(m is not None, f"dot title {data!r}"):
                svg["dots"][-1] = seconds(m.group(1))


def parse(text, what):
    p = Page()
    p.feed(text)
    p.close()
    check(text.startswith("<!DOCTYPE html>"), f"{what}: no doctype")
    check(not p.stack, f"{what}: elements left open: {p.stack}")
    for e in p.errors:
        check(False, f"{what}: {e}")
    check(p.scripts == 0, f"{what}: {p.scripts} <script> elements")
    check('<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
          'style-src \'unsafe-inline\'">' in text, f"{what}: no Content-Security-Policy")
    for k in ("<link", "<iframe", "<object", "<embed", "<img", "<use", "<image", "<foreignObject",
              "@import", "url("):
        check(k not in text, f"{what}: contains {k!r}")
    return p


def groups_of(doc):
    """Results grouped by title, unit and time unit, in order of first appearance."""
    groups = {}
    for r in doc["results"]:
        groups.setdefault((r["title"], r["unit"], r["time_unit"]), []).append(r)
    return list(groups.values())


def check_against_json(page, doc, what):
    strips = [s for s in page.svgs if "strip" in s["class"]]
    groups = groups_of(doc)
    check(len(strips) == len(groups), f"{what}: {len(strips)} strip charts, {len(groups)} groups")
    total = sum(len(r["measurements"]) for r in doc["results"] if r["error"] is None)
    dots = sum(len(s["dots"]) for s in strips)
    check(dots == total, f"{what}: {dots} dots, {total} recorded epochs")
    for svg, rs in zip(strips, groups):
        check(svg["label"] == f"{rs[0]['title']}: time per {rs[0]['unit']}",
              f"{what}: chart label {svg['label']!r}")
        check(all(v and float(v) > 0 for v in svg["size"]), f"{what}: chart size {svg['size']}")
        want = sorted(m["elapsed"] / r["batch"] for r in rs if r["error"] is None
                      for m in r["measurements"])
        got = sorted(v for v in svg["dots"] if v is not None)
        check(len(got) == len(want) and all(abs(a - b) <= 1e-5 * b for a, b in zip(got, want)),
              f"{what}: dot values {got[:4]}... differ from the JSON {want[:4]}...")
        span = want[-1] / want[0] if want and want[0] > 0 else 1
        check(("(log scale)" in svg["axistitle"]) == (span > 100),
              f"{what}: span {span:.1f}x, axis title {svg['axistitle']!r}")
    return strips


def main():
    if not (os.path.exists(SUITE) and os.path.exists(DEMO)):
        print(f"SKIP: {SUITE} or {DEMO} not built")
        return 77
    with tempfile.TemporaryDirectory() as tmp:
        html, js = os.path.join(tmp, "r.html"), os.path.join(tmp, "r.json")

        # the test suite: hostile names, two groups, a log axis, an error row
        rc, out, err = run(SUITE, f"-output_html={html}", f"-output_json={js}")
        check(rc == 1, f"suite_html: exit {rc} (one benchmark fails by design): {err}")
        check(f"femtobench: wrote '{html}'" in err, f"suite_html: no 'wrote' line: {err}")
        text = open(html, encoding="utf-8").read()
        doc = json.load(open(js, encoding="utf-8"))
        page = parse(text, "suite_html")
        strips = check_against_json(page, doc, "suite_html")
        check(len(strips) == 2, f"suite_html: {len(strips)} groups, want 2")
        data = "".join(page.texts)
        for name in HOSTILE + [HOSTILE_TITLE, "b<y>te"]:
            check(name in data, f"suite_html: {name!r} is not shown as text")
        check(any("(log scale)" in s["axistitle"] for s in strips), "suite_html: no log axis")
        check("error: `break`" in data, "suite_html: the error row")

        # -asymptote: a log-log chart with the points and the fit, and the fit table
        rc, out, err = run(SUITE, "-filter=Scale", "-asymptote=100,200,400,800,1600",
                           f"-output_html={html}")
        check(rc == 0, f"asymptote: exit {rc}: {err}")
        page = parse(open(html, encoding="utf-8").read(), "asymptote")
        loglog = [s for s in page.svgs if "loglog" in s["class"]]
        check(len(loglog) == 1 and loglog[0]["points"] == 5 and loglog[0]["fit"] == 1,
              f"asymptote: log-log charts {loglog}")
        data = "".join(page.texts)
        check(("(best)" in data) != ("(lowest error)" in data) and "O(n^3)" in data,
              "asymptote: the fit table")
        # "(best)" only where the terminal says a model fits (no note that
        # the points do not separate the models, that none fits, or a guess)
        no_fit = any(t in out + err for t in ("do not tell them apart", "No model fits",
                                              "A guess from 2", "Not decided:"))
        check(("(best)" in data) == (not no_fit),
              f"asymptote: '(best)' agrees with the terminal: {out[-600:]}")

        # -baseline: the change table drawn with bars coloured by verdict
        base = os.path.join(tmp, "base.json")
        rc, out, err = run(SUITE, "-filter=Fast|Slow.*", f"-output_json={base}")
        check(rc == 0, f"baseline run: exit {rc}: {err}")
        rc, out, err = run(SUITE, "-filter=Fast", f"-baseline={base}", f"-output_html={html}")
        check(rc == 0, f"-baseline: exit {rc}: {err}")
        text = open(html, encoding="utf-8").read()
        parse(text, "baseline")
        verdict_rows = re.findall(r'<tr class="verdict-([a-z]+)">', text)
        table_rows = [l for l in out.splitlines()
                      if re.match(r"\|.*\| (faster|slower|same|unsure|new|gone)\s*\|", l)]
        check('<section class="change">' in text, "baseline: no change section")
        check(len(verdict_rows) == len(table_rows) and len(verdict_rows) >= 2,
              f"baseline: {len(verdict_rows)} HTML rows, {len(table_rows)} table rows")
        want = [re.search(r"\| (faster|slower|same|unsure|new|gone)\s*\|", l).group(1)
                for l in table_rows]
        check(verdict_rows == want, f"baseline: verdicts {verdict_rows} vs the table's {want}")
        check("gone" in verdict_rows, f"baseline: the benchmarks not run now are gone: {verdict_rows}")
        # the answer first: the verdicts' summary and the change table come
        # right after the header, before the first group's chart and table;
        # one pass: nothing folded, no pass column
        order = [m.group(0) for m in re.finditer(
            r'<header>|</header>|<p class="verdicts"|<table class="change">|<svg class="chart change"'
            r'|<section class="group"|<table class="results"', text)]
        check(order[:6] == ["<header>", "</header>", '<p class="verdicts"', '<table class="change">',
                            '<svg class="chart change"', '<section class="group"'],
              f"baseline: the verdicts, then the details: {order}")
        check("<details" not in text and '<td class="pass">' not in text,
              "baseline, one pass: nothing folded, no pass column")

        # '-' writes the page to stdout, the table to stderr
        rc, out, err = run(SUITE, "-filter=Fast", "-output_html=-")
        check(rc == 0 and re.search(r"\| (:warning: )?`fast`", err), f"stdout: exit {rc}: {err}")
        page = parse(out, "stdout")
        check(len([s for s in page.svgs if "strip" in s["class"]]) == 1, "stdout: one chart")

        # bad input: one line, exit 2, nothing run, nothing written
        for args, what in (([f"-output_html={tmp}/no/such/dir/r.html"], "does not exist"),
                           (["-output_html="], "empty file name"),
                           ([f"-output_html={tmp}"], ""),
                           (["-output_html=-", "-output_csv=-"], "only one output")):
            rc, out, err = run(SUITE, *args)
            check(rc == 2 and out == "" and err.startswith("femtobench: error: -output_")
                  and err.count("\n") == 1 and what in err, f"bad {args}: exit {rc}: {err!r}")
        check(not os.path.exists(f"{tmp}/no"), "a directory was created")

        # the demo suite: the README's main command
        rc, out, err = run(DEMO, f"-output_html={html}", f"-output_json={js}")
        check(rc == 0, f"demo: exit {rc}: {err}")
        size = os.path.getsize(html)
        check(size < 200 * 1024, f"demo report is {size} bytes (limit 200 KB)")
        doc = json.load(open(js, encoding="utf-8"))
        page = parse(open(html, encoding="utf-8").read(), "demo")
        check_against_json(page, doc, "demo")
        # paired comparisons: one forest plot each, a row per alternative, in order
        text = open(html, encoding="utf-8").read()
        comps = doc.get("comparisons", [])
        check(len(comps) >= 1, "demo: the suite has a paired comparison")
        n_forest = text.count('<section class="forest">')
        check(n_forest == len(comps), f"demo: {n_forest} forest plots for {len(comps)} comparisons")
        rows = re.findall(r'<g class="row (differs|same)"', text)
        check(len(rows) == sum(len(c["alternatives"]) for c in comps),
              f"demo: {len(rows)} forest rows")
        for c in comps:
            for a in c["alternatives"]:
                check(html_escape(a["name"]) in text, f"demo: alternative {a['name']!r} not shown")
        print(f"demo report: {size} bytes, {len(page.svgs)} charts, "
              f"{sum(len(s['dots']) for s in page.svgs)} dots")

    return check.done()


if __name__ == "__main__":
    sys.exit(main())
