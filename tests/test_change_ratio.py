"""Every change table's `change` is the ratio of the two values it shows
(docs/baselines.md, "The table"): femtobench-compare's terminal table and
its -output_md file, the runner's -baseline table, and the HTML report's
change table, which also shows each time with its unit. The sides are five
processes each, one of the baseline's an outlier (four times as slow), made
from a real run's JSON by scaling its times, never by timing: a table that
showed the median of the processes beside a change computed from their mean
log would fail here. The values shown are checked against the JSON files
themselves (the geometric mean over the processes of each one's median).

The CPU time: the sides' wall times are scaled and their CPU times are not,
so a side's wall and CPU time differ by 5% or more and every change table
lists the CPU time of each row under it; its change is the ratio of the two
CPU values it shows (the JSON's geometric means of the CPU medians). A
baseline written before the CPU time was recorded still compares, with no
CPU list and no note that the counters differ."""
import html.parser
import json
import math
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fbtest  # noqa: E402

BUILD = os.environ.get("FB_BUILD_DIR", "build")
SUITE = os.path.join(BUILD, "tests", "suite_cli")
COMPARE = os.path.join(BUILD, "femtobench-compare")
SEL = "-filter=Alpha|Beta|Linear"
check = fbtest.Checks()
UNITS = {}


run = fbtest.runner()  # run(prog, *args)


def passes(src, dst, factors):
    """dst: src's results once per factor, each a process (`pass`) with its
    times scaled by the factor."""
    d = json.load(open(src))
    out = []
    for k, fac in enumerate(factors):
        for r in d["results"]:
            r = json.loads(json.dumps(r))
            r["pass"] = k
            for m in r["measurements"]:
                m["elapsed"] *= fac
            out.append(r)
    d["results"] = out
    d.pop("over_passes", None)
    json.dump(d, open(dst, "w"), indent=1)


def geomeans(path, measure="elapsed"):
    """{benchmark: geometric mean over its processes of each one's median
    time per unit, in seconds} from a femtobench JSON file: the wall time
    ("elapsed" of each epoch), or the thread's CPU time ("cputime")."""
    d = json.load(open(path))
    logs = {}
    for r in d["results"]:
        if r.get("error"):
            continue
        dropped = set(r.get("dropped") or [])
        t = sorted(m[measure] / r["batch"] for i, m in enumerate(r["measurements"])
                   if i not in dropped)
        n = len(t)
        med = t[n // 2] if n % 2 else (t[n // 2 - 1] + t[n // 2]) / 2
        logs.setdefault(r["name"], []).append(math.log(med))
    return {k: math.exp(sum(v) / len(v)) for k, v in logs.items()}


SCALE = {"s": 1, "ms": 1e-3, "us": 1e-6, "\u00b5s": 1e-6, "ns": 1e-9, "ps": 1e-12, "fs": 1e-15}


def geomeans_cpu(path):
    """The same for the thread's CPU time ("cputime" of each epoch)."""
    return geomeans(path, "cputime")


def time_cell(cell):
    """(seconds, half-step, unit) of a change table's "26.95 ns/op"."""
    m = re.match(r"([0-9,]+(?:\.([0-9]+))?) (\w+)/(\S+)$", cell)
    if not m:
        return None
    num = float(m.group(1).replace(",", ""))
    half = 0.5 * 10 ** -len(m.group(2) or "")
    return num * SCALE[m.group(3)], half * SCALE[m.group(3)], m.group(4)


def cpu_rows(text):
    """{benchmark: (old s, old half-step, now s, now half-step, change %)}
    from the CPU list under a change table."""
    rows = {}
    for line in text.splitlines():
        m = re.match(r"> - `([^`]+)`.*: baseline (.+), now (.+), change ([-+][0-9.]+)%$", line)
        if not m:
            continue
        a, b = time_cell(m.group(2)), time_cell(m.group(3))
        if a and b:
            rows[m.group(1)] = (a[0], a[1], b[0], b[1], float(m.group(4)))
    return rows


def check_cpu(what, text, cpu_old, cpu_now):
    """Every row's CPU list entry: the change is the ratio of the CPU values
    shown, which are the JSON's."""
    rows = cpu_rows(text)
    check(len(rows) == 3, f"{what}: {len(rows)} rows in the CPU list, want 3:\n{text}")
    for name, (old, old_h, now, now_h, pct) in rows.items():
        ratio_ok(what + " CPU", name, old, old_h, now, now_h, pct)
        for side, v, h, gm in (("baseline", old, old_h, cpu_old), ("now", now, now_h, cpu_now)):
            check(abs(v - gm[name]) <= h * 1.0001 + 1e-18,
                  f"{what}: {name}: CPU {side} shows {v:.6g} s, the JSON's {gm[name]:.6g} s")
    return rows


def strip_measures(src, dst, keep):
    """dst: src with only the measures in keep (and "elapsed") in each
    epoch and in the stats: a file written before the others existed."""
    d = json.load(open(src))
    for r in d["results"]:
        r["stats"] = {k: v for k, v in r.get("stats", {}).items() if k in keep or k == "elapsed"}
        for m in r.get("measurements", []):
            for k in list(m):
                if k not in keep and k not in ("elapsed", "iterations"):
                    del m[k]
    json.dump(d, open(dst, "w"), indent=1)


def md_rows(text):
    """{benchmark: (old s, old half-step s, now s, now half-step s, change %,
    unit)} from a markdown change table; a time's half-step is half its last
    printed digit (the rounding)."""
    rows = {}
    for line in text.splitlines():
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line)]
        if len(cells) != 7 or not cells[3].endswith("%"):
            continue
        name = cells[6].strip("`").split("`")[0]
        vals = []
        for cell in cells[1:3]:
            m = re.match(r"([0-9,]+(?:\.([0-9]+))?) (\w+)/(\S+)$", cell)
            if not m:
                vals = None
                break
            num = float(m.group(1).replace(",", ""))
            half = 0.5 * 10 ** -len(m.group(2) or "")
            vals += [num * SCALE[m.group(3)], half * SCALE[m.group(3)], m.group(4)]
        if vals:
            rows[name] = (vals[0], vals[1], vals[3], vals[4], float(cells[3].rstrip("%")), vals[2])
    return rows


def ratio_ok(what, name, old, old_h, now, now_h, pct, pct_h=0.05):
    """pct (rounded to pct_h) is within rounding of now / old - 1."""
    lo = 100 * ((now - now_h) / (old + old_h) - 1) - pct_h
    hi = 100 * ((now + now_h) / (old - old_h) - 1) + pct_h
    check(lo <= pct <= hi, f"{what}: {name}: change {pct:+.2f}% is not the ratio of the shown "
                           f"values {old:.6g} -> {now:.6g} ({lo:+.2f}%..{hi:+.2f}%)")


def units(path):
    """{benchmark: its unit} from a femtobench JSON file."""
    return {r["name"]: r["unit"] for r in json.load(open(path))["results"]}


def check_md(what, text, gm_old, gm_now):
    rows = md_rows(text)
    check(len(rows) == 3, f"{what}: {len(rows)} rows, want 3:\n{text}")
    for name, (old, old_h, now, now_h, pct, unit) in rows.items():
        ratio_ok(what, name, old, old_h, now, now_h, pct)
        check(unit == UNITS[name], f"{what}: {name}: unit {unit!r}, want {UNITS[name]!r}")
        # the shown values are the JSON's: the geometric mean of the
        # processes' medians (the outlier moves it; the median would not)
        for side, v, h, gm in (("baseline", old, old_h, gm_old), ("now", now, now_h, gm_now)):
            if gm is not None:
                check(abs(v - gm[name]) <= h * 1.0001 + 1e-18,
                      f"{what}: {name}: {side} shows {v:.6g} s, the JSON's geometric mean of the "
                      f"process medians is {gm[name]:.6g} s")
    return rows


class ChangeTable(html.parser.HTMLParser):
    """The cells of <table class="change">'s body rows."""

    def __init__(self):
        super().__init__()
        self.rows, self.cell, self.inside = [], None, False

    def handle_starttag(self, tag, attrs):
        if tag == "table" and ("class", "change") in attrs:
            self.inside = True
        elif self.inside and tag == "tr":
            self.rows.append([])
        elif self.inside and tag == "td":
            self.cell = ""

    def handle_endtag(self, tag):
        if tag == "table":
            self.inside = False
        elif self.inside and tag == "td" and self.cell is not None:
            self.rows[-1].append(self.cell.strip())
            self.cell = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell += data


def si(cell):
    """(seconds, half-step, unit) of "485.5 ps/op" (4 significant digits)."""
    m = re.match(r"(-?[0-9.]+(?:e[-+]?[0-9]+)?) ?(\S*?)s/(\S+)$", cell)
    if not m:
        return None
    num = float(m.group(1))
    prefix = {"": 1, "m": 1e-3, "\u00b5": 1e-6, "u": 1e-6, "n": 1e-9, "p": 1e-12, "f": 1e-15}
    scale = prefix[m.group(2)]
    digits = m.group(1).lstrip("-").replace(".", "").lstrip("0")
    decimals = len(m.group(1).split(".")[1]) if "." in m.group(1) else 0
    return num * scale, 0.5 * 10 ** -decimals * scale, m.group(3), len(digits)


def main():
    if not os.path.exists(COMPARE):
        print("SKIP: no femtobench-compare in", BUILD)
        return 77
    tmp = tempfile.mkdtemp(prefix="fb-change-ratio.")
    p = lambda name: os.path.join(tmp, name)
    rc, _, err = run(SUITE, SEL, "-quiet", "-output_json=" + p("one.json"))
    check(rc == 0, f"the run: {rc} {err}")
    if rc:
        return 1
    UNITS.update(units(p("one.json")))
    check("byte" in UNITS.values(), f"a benchmark per byte among {UNITS}")
    # five processes a side; the baseline's fifth four times as slow
    passes(p("one.json"), p("old.json"), [1.0, 1.02, 0.98, 1.01, 4.0])
    passes(p("one.json"), p("new.json"), [1.05, 1.07, 1.03, 1.06, 1.04])
    gm_old, gm_new = geomeans(p("old.json")), geomeans(p("new.json"))

    # femtobench-compare: the terminal and the markdown file
    rc, out, err = run(COMPARE, p("old.json"), p("new.json"), "-output_md=" + p("cmp.md"))
    check(rc == 0, f"femtobench-compare: {rc} {err}")
    rows = check_md("femtobench-compare (terminal)", out, gm_old, gm_new)
    check_md("femtobench-compare -output_md", open(p("cmp.md")).read(), gm_old, gm_new)
    # the outlier moved the baseline's value and the change with it: about
    # 1.05 / 4^(1/5) - 1 = -20%, not +5% (the median of the processes)
    for name, r in rows.items():
        check(-25 < r[4] < -15, f"femtobench-compare: {name}: change {r[4]}%, want about -20%")
    # the CPU times were not scaled: the same on both sides, listed because
    # the baseline's wall time is 1.3x its CPU time
    cpu_old, cpu_new = geomeans_cpu(p("old.json")), geomeans_cpu(p("new.json"))
    crows = check_cpu("femtobench-compare (terminal)", out, cpu_old, cpu_new)
    check_cpu("femtobench-compare -output_md", open(p("cmp.md")).read(), cpu_old, cpu_new)
    for name, r in crows.items():
        check(abs(r[4]) < 0.5, f"femtobench-compare: {name}: CPU change {r[4]}%, want 0")

    # a baseline without the CPU time (an older file) still compares: the
    # same rows, no CPU list, and no note that the counters differ
    strip_measures(p("old.json"), p("old_nocpu.json"), set())
    strip_measures(p("new.json"), p("new_cpu.json"), {"cputime"})
    rc, out, err = run(COMPARE, p("old_nocpu.json"), p("new_cpu.json"))
    check(rc == 0, f"femtobench-compare, a baseline without CPU time: {rc} {err}")
    check_md("a baseline without CPU time", out, gm_old, gm_new)
    check(not cpu_rows(out) and "CPU time" not in out,
          f"a baseline without CPU time: a CPU list:\n{out}")
    check("performance counters" not in out,
          f"a baseline without CPU time: the counters said to differ:\n{out}")

    # the runner against the five-process baseline (now: one live process):
    # its terminal table and the HTML report's
    rc, out, err = run(SUITE, SEL, "-baseline=" + p("old.json"), "-output_html=" + p("r.html"),
                       "-output_json=" + p("now.json"))
    check(rc == 0, f"-baseline: {rc} {err}")
    check_md("-baseline (terminal)", out, gm_old, geomeans(p("now.json")))
    check_cpu("-baseline (terminal)", out, cpu_old, geomeans_cpu(p("now.json")))
    page = ChangeTable()
    page.feed(open(p("r.html"), encoding="utf-8").read())
    page.rows = [r for r in page.rows if r]  # the header row has no <td>
    check(len(page.rows) == 3, f"HTML: {len(page.rows)} rows in the change table, want 3")
    for cells in page.rows:
        if len(cells) != 7:
            check(False, f"HTML: a row of {len(cells)} cells: {cells}")
            continue
        name, b, n, c = cells[0], si(cells[1]), si(cells[2]), cells[3]
        check(b is not None and n is not None, f"HTML: {name}: times without a unit: {cells[1:3]}")
        if b is None or n is None:
            continue
        check(b[2] == UNITS[name] and n[2] == UNITS[name],
              f"HTML: {name}: unit {b[2]!r} {n[2]!r}, want {UNITS[name]!r}")
        ratio_ok("HTML", name, b[0], b[1], n[0], n[1], float(c.rstrip("%")))
        check(abs(b[0] - gm_old[name]) <= b[1] * 1.0001,
              f"HTML: {name}: baseline {cells[1]}, the JSON's {gm_old[name]:.6g} s")
    # the HTML report's CPU list: each side's CPU time and their ratio
    items = re.findall(r'<li class="change-cpu"><code>([^<]*)</code>: baseline '
                       r'<span class="cpu-old">([^<]*)</span>, now <span class="cpu-now">([^<]*)'
                       r'</span>, change <span class="cpu-change">([^<]*)%</span>',
                       open(p("r.html"), encoding="utf-8").read())
    check(len(items) == 3, f"HTML: {len(items)} rows in the CPU list, want 3")
    for name, old_cell, now_cell, pct in items:
        b, n = si(old_cell), si(now_cell)
        check(b is not None and n is not None, f"HTML CPU: {name}: {old_cell!r} {now_cell!r}")
        if b is None or n is None:
            continue
        ratio_ok("HTML CPU", name, b[0], b[1], n[0], n[1], float(pct))
        check(abs(b[0] - cpu_old[name]) <= b[1] * 1.0001,
              f"HTML CPU: {name}: baseline {old_cell}, the JSON's {cpu_old[name]:.6g} s")

    # one process a side: the change is the ratio of the two processes'
    # medians, the values shown
    rc, out, err = run(COMPARE, p("one.json"), p("now.json"))
    check(rc == 0, f"femtobench-compare one process a side: {rc} {err}")
    check_md("one process a side", out, geomeans(p("one.json")), geomeans(p("now.json")))

    if check.failures:
        print(f"files in {tmp}", file=sys.stderr)
    return check.done()


if __name__ == "__main__":
    sys.exit(main())
