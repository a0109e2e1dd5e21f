"""-isolate and -timeout keep everything a result or a comparison holds
(docs/reliability.md): the demo suite runs with and without -isolate, and
every output file (femtobench JSON, CSV, Google Benchmark JSON, HTML, the
table) must hold the same things. Times differ between two runs, so numbers
are compared by presence and type, and lists of per-epoch numbers by being
there; everything else (names, family arguments, comparisons and their
alternatives, complexity fits and their names, units, columns, headings) must
be equal. Then a comparison that fails must fail the suite (exit 1) with and
without -isolate / -timeout (tests/suite_hostile_more.c)."""
import csv
import io
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fbtest  # noqa: E402

BUILD = os.environ.get("FB_BUILD_DIR", "build")
DEMO = os.path.join(BUILD, "bench", "femtobench-demo")
SUITE = os.path.join(BUILD, "tests", "suite_hostile_more")
check = fbtest.Checks()


def env_for(extra=None):
    e = dict(os.environ)
    for k in ("FEMTOBENCH_CONFIG", "FEMTOBENCH_ENDLESS", "HOSTILE"):
        e.pop(k, None)
    e["FEMTOBENCH_SUPPRESS_WARNINGS"] = "1"
    e.update(extra or {})
    return e


# values that depend on the measurement itself (which model fits best, which
# alternative is fastest, why a run stopped): their type must match
NOISY = {"date", "stopped_by", "fastest", "model", "verdict", "candidates", "slow",
         "significant", "unstable"}
# the marks a result earns from its numbers ("optimized away?", "not resolved
# by the clock"; GB JSON writes them as a label): the measurement decides them,
# so one run may have a mark the other has not
MARKS = {"optimized_away", "unresolved", "label", "marks"}


def norm(x, key="", ctx=False):
    """ctx: inside "context", the machine's state (its load) when each ran."""
    ctx = ctx or key == "context"
    if key in NOISY:
        return type(x).__name__
    if isinstance(x, bool) or x is None:
        return x
    if isinstance(x, (int, float)):
        return "number"
    if isinstance(x, list) and key == "measurements":  # one per epoch: their fields
        return sorted({k for m in x for k in m})
    if isinstance(x, list) and key == "warnings":
        # the load warning says how busy the machine was when each ran (before
        # the general list case, which would otherwise take the warnings too)
        x = [w for w in x if not str(w.get("what", "") if isinstance(w, dict) else w)
             .startswith("high system load")]
        return [norm(v, key, ctx) for v in x]
    if isinstance(x, list):
        if all(v is None or (isinstance(v, (int, float)) and not isinstance(v, bool)) for v in x):
            return "numbers"  # per-epoch values: their count is the measurement's
        return [norm(v, key, ctx) for v in x]
    if isinstance(x, dict):
        return {k: norm(v, k, ctx) for k, v in x.items() if k not in MARKS}
    return re.sub(r"\d+(\.\d+)?", "0", x) if ctx else x


def diff(a, b, path, out):
    if type(a) is not type(b):
        out.append(f"{path}: {str(a)[:60]} != {str(b)[:60]}")
    elif isinstance(a, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                out.append(f"{path}/{k}: only in {'isolated' if k in b else 'in-process'} run")
            else:
                diff(a[k], b[k], f"{path}/{k}", out)
    elif isinstance(a, list):
        if len(a) != len(b):
            out.append(f"{path}: {len(a)} entries != {len(b)}")
        for i, (x, y) in enumerate(zip(a, b)):
            diff(x, y, f"{path}/{i}", out)
    elif a != b:
        out.append(f"{path}: {str(a)[:60]!r} != {str(b)[:60]!r}")


def run_demo(d, tag, *extra):
    files = {k: os.path.join(d, f"{tag}.{k}") for k in ("json", "csv", "gb.json", "html")}
    p = subprocess.run([DEMO, "-quiet", *extra, f"-output_json={files['json']}",
                        f"-output_csv={files['csv']}", f"-output_gbench={files['gb.json']}",
                        f"-output_html={files['html']}"], capture_output=True, text=True,
                       env=env_for(), timeout=280)
    return p, files


def table_names(text):
    """The first cell of every table row that names a benchmark or alternative."""
    rows = "\n".join(line for line in text.splitlines() if line.startswith("|"))
    # a row's notes (a mark's hint) may name another alternative: the name
    # is the row's last cell's first backticked word
    return [m.group(1) for line in rows.splitlines()
            for m in [re.search(r"\|[^|`]*`([^`]+)`[^|]*$", line)] if m]


def csv_view(path):
    rows = list(csv.DictReader(open(path, newline="")))
    keep = ("title", "name", "arg", "unit", "batch", "complexityN", "error")
    # every column must be filled (or empty) alike; identity columns equal
    return [{k: (v if k in keep else bool(v)) for k, v in r.items() if k not in MARKS}
            for r in rows]


def html_view(path):
    text = open(path, encoding="utf-8").read()
    heads = re.findall(r"<h[1-3][^>]*>([^<]*)", text)
    # a fit's verdict names the model found, which the measurement decides
    heads = [re.sub(r"O\([^)]*\)", "O(.)", h) for h in heads]
    return {"headings": heads, "svg": text.count("<svg"),
            "benchmarks": sorted(set(re.findall(r"<title>([^<]*?):", text)))}


if not os.path.exists(DEMO):
    print("skip: no femtobench-demo (FEMTOBENCH_BUILD_BENCH=OFF)")
    sys.exit(77)

with tempfile.TemporaryDirectory() as d:
    pa, fa = run_demo(d, "inproc")
    pb, fb = run_demo(d, "isolated", "-isolate")
    pc, fc = run_demo(d, "timeout", "-timeout=120")
    for p, tag in ((pa, "in-process"), (pb, "-isolate"), (pc, "-timeout")):
        check(p.returncode == 0, f"demo {tag}: exit {p.returncode}: {p.stderr[-500:]}")
    for other, tag in ((fb, "-isolate"), (fc, "-timeout")):
        for kind in ("json", "gb.json"):
            out = []
            diff(norm(json.load(open(fa[kind]))), norm(json.load(open(other[kind]))), "", out)
            check(not out, f"{kind} {tag} differs from in-process: {out[:8]}")
        ca, cb = csv_view(fa["csv"]), csv_view(other["csv"])
        check(ca == cb, f"csv {tag} differs from in-process: "
              f"{[(x, y) for x, y in zip(ca, cb) if x != y][:2]}")
        ha, hb = html_view(fa["html"]), html_view(other["html"])
        check(ha == hb, f"html {tag} differs: {ha} != {hb}")
    # sorted: a comparison's table lists its alternatives fastest first, and
    # two that are close trade places from one run to the next
    check(sorted(table_names(pa.stdout)) == sorted(table_names(pb.stdout)),
          f"table -isolate: {table_names(pa.stdout)} != {table_names(pb.stdout)}")
    # what used to be lost, named: the comparison, the family's arguments, its fit
    doc = json.load(open(fb["json"]))
    check(len(doc["comparisons"]) == 1 and len(doc["comparisons"][0]["alternatives"]) == 3,
          f"-isolate: the demo's comparison is in the JSON: {doc['comparisons']!r:.200}")
    args = [r["arg"] for r in doc["results"] if r["name"].startswith("SortShuffled/")]
    check(args == [1024, 2048, 4096, 8192, 16384, 32768], f"-isolate: family arguments {args}")
    check([c["name"] for c in doc["complexity"]] == ["SortShuffled"],
          f"-isolate: the family's fit: {[c['name'] for c in doc['complexity']]}")
    check("SortShuffled" in pb.stdout and "O(" in pb.stdout,
          "-isolate: the family's fit is printed")

# A failing comparison fails the suite, in every mode.
for extra in ([], ["-isolate"], ["-timeout=60"]):
    p = subprocess.run([SUITE, *extra], capture_output=True, text=True,
                       env=env_for({"HOSTILE": "FailCmp"}), timeout=120)
    check(p.returncode == 1 and "must reach the same alternatives" in p.stdout,
          f"failing comparison {extra}: exit {p.returncode}, want 1: {p.stdout[-300:]}")
    with tempfile.TemporaryDirectory() as d:
        j = os.path.join(d, "c.json")
        p = subprocess.run([SUITE, *extra, f"-output_json={j}"], capture_output=True, text=True,
                           env=env_for({"HOSTILE": "Cmp"}), timeout=120)
        doc = json.load(open(j)) if os.path.exists(j) else {"comparisons": []}
        names = [[a["name"] for a in c["alternatives"]] for c in doc["comparisons"]]
        check(p.returncode == 0 and names == [["one", "x"]],
              f"a comparison {extra}: exit {p.returncode}, comparisons {names}")

check.finish()
