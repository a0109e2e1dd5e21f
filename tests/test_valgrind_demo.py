"""-valgrind on the demo suite (docs/valgrind.md, "Counts that move").

The demo has benchmarks whose counts repeat exactly (SipHash, SHA256, Sort)
and ones whose counts move from epoch to epoch (SortShuffled/N: its setup
shuffles the input anew before every epoch). Under -valgrind:

- the run exits 0 and every row is counted (no error row);
- a row whose count repeated is exact: one counted pair, its spread both the
  count; a row whose count moved is the median of five counted pairs, with a
  spread that holds it, and the table says so;
- a second run compared with the first (-baseline, -fail_on_slower) finds no
  change: exact rows are equal, and the others are within their spreads;
- the JSON reader takes the spread back (a baseline made of the first run);
- the HTML report plots the counted fit of SortShuffled.
Skips (77) without valgrind or without <valgrind/callgrind.h> at build time."""
import json
import os
import re
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fbtest  # noqa: E402

BUILD = os.environ.get("FB_BUILD_DIR", "build")
DEMO = os.path.join(BUILD, "bench", "femtobench-demo")
check = fbtest.Checks()


run = fbtest.runner(DEMO, timeout=280)


if not os.path.exists(DEMO):
    print(f"SKIP: no {DEMO}")
    sys.exit(77)
if b"__asan_init" in open(DEMO, "rb").read():
    print("SKIP: built with AddressSanitizer, which does not run under Valgrind")
    sys.exit(77)
if not shutil.which("valgrind"):
    print("SKIP: no valgrind in PATH (Debian: apt-get install valgrind)")
    sys.exit(77)
rc, out, err = run("-valgrind", "-list")
if rc == 2 and "built without" in err:
    print("SKIP: femtobench was built without <valgrind/callgrind.h>")
    sys.exit(77)

with tempfile.TemporaryDirectory() as d:
    first, html = os.path.join(d, "first.json"), os.path.join(d, "r.html")
    rc, out, err = run("-valgrind", f"-output_json={first}", f"-output_html={html}")
    check(rc == 0, f"femtobench-demo -valgrind: exit status {rc}: {err}")
    doc = json.load(open(first)) if os.path.exists(first) else {"results": []}
    res = doc["results"]
    check(len(res) >= 10, f"the demo's results: {len(res)}")
    moved = []
    for r in res:
        vg = r.get("valgrind")
        check(r.get("error") is None and vg is not None,
              f"{r['name']}: not counted: {r.get('error')}")
        if not vg:
            continue
        ins = vg["per_iteration"]["instructions"]
        lo, hi = vg["instructions_spread"]
        check(lo <= ins <= hi, f"{r['name']}: {ins} outside its spread {lo}..{hi}")
        check(vg["pairs"] in (1, 5), f"{r['name']}: {vg['pairs']} pairs")
        if vg["pairs"] == 1:
            check(lo == ins == hi, f"{r['name']}: exact but a spread {lo}..{hi}")
        else:
            moved.append(r["name"])
            check(not vg["unsteady"], f"{r['name']}: marked unsteady: {lo}..{hi}")
    for name in ("SipHash_32b", "Sort", "SHA256", "ComplexMemPool"):
        check(name not in moved, f"{name}: its count should repeat exactly: {moved}")
    check(any(n.startswith("SortShuffled/") for n in moved),
          f"SortShuffled (input shuffled before each epoch) should move: {moved}")
    for name in moved:
        check(re.search(r"`%s` \(median of 5 counted pairs, spread [0-9,.]+\.\.[0-9,.]+\)"
                        % re.escape(name), out), f"the table shows {name}'s spread: {out}")
    # SipHash_32b is exact and printed as before (a whole count, no spread;
    # the README's own figure, gcc's, is checked by tests/test_readme_samples.py)
    check(re.search(r"\|\s+[0-9,]+\.00 \| `SipHash_32b`\n", out), f"SipHash_32b's row: {out}")

    page = open(html).read() if os.path.exists(html) else ""
    check("<h2>Complexity: <code>SortShuffled</code></h2>" in page and
          "No measured result with a complexity N" not in page and
          page.count("<circle") >= 6,
          "the HTML complexity section plots SortShuffled's counted points and fit")
    check("(Callgrind, log scale)" in page,
          "the counted chart of a group spanning over 100x has a log axis")

    # the same build again, against the first run: no verdict
    rc, out, err = run("-valgrind", f"-baseline={first}", "-fail_on_slower")
    check(rc == 0, f"against itself: exit status {rc}: {out[-3000:]} {err}")
    summary = re.search(r"(\d+) faster, (\d+) slower, (\d+) same", out)
    check(summary and summary.group(1) == "0" and summary.group(2) == "0",
          f"against itself: {summary and summary.group(0)}")
    for name in moved:
        check(re.search(r"within the spread \| same\s+\| `%s`" % re.escape(name), out),
              f"{name}: same, within the spread: {out}")

check.finish()
