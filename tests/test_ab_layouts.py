"""femtobench-ab with layout variants (docs/ab.md, "Code layout"), on
tests/ab_suite.c built by femtobench_add_plugin with LAYOUTS 4 (ab_lay_old,
ab_lay_new: Slow 10% slower, Added/Removed, and Placed, whose fake-clock
work depends on its own function's address, as a small loop's speed depends
on its alignment). Every time is the suite's fake clock: exact, no
wall-clock threshold.

Checked: the variants are found beside the file given (4 a side, in the
summary, the JSON's context and each row's by_layout); A/A: every verdict
`same` although Placed's time moves with placement (its spread shown); old
against new: Slow `slower` by exactly 10%, Placed `layout-sensitive` when
its layouts' changes differ, never faster or slower; the change equals the
ratio of the columns shown; a comma list; two layouts (placement not
measured, said); one file a side without variants: copies of it (-instances,
8 by default; 1: one, said), in every output; sides with different counts (the fewer, said once after
loading); a variant older than its plugin (refused: exit 2, one line); the
markdown and HTML outputs name the placement; an iteration longer than the
epoch gets one round a layout (8 at least) with layouts, 16 with one; each
block moves the benchmark's stack (ab_stack: a run whose time follows a
local's address reads more than one time over its layouts)."""
import json
import os
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fbtest  # noqa: E402

BUILD = os.environ.get("FB_BUILD_DIR", "build")
AB = os.path.join(BUILD, "femtobench-ab")
T = os.path.join(BUILD, "tests")
OLD, NEW, ONE = (os.path.join(T, f"ab_{v}.so") for v in ("lay_old", "lay_new", "old"))
check = fbtest.Checks()

if not os.path.exists(AB) or not os.path.exists(OLD):
    print("femtobench-ab or its layout plugins were not built (no dlopen, or CMake < 3.21)")
    sys.exit(77)
ASAN = b"__asan_init" in open(AB, "rb").read()


run = fbtest.runner(AB, timeout=300)


def layouts_of(path):
    stem = path[:-3]
    return [path] + [f"{stem}.layout{k}.so" for k in (1, 2, 3)]


tmp = tempfile.mkdtemp(prefix="fb_ab_lay_")
try:
    js = os.path.join(tmp, "ab.json")
    for f in layouts_of(OLD) + layouts_of(NEW):
        check(os.path.exists(f), f"femtobench_add_plugin LAYOUTS 4 built {f}")

    # A/A: the variants found, every row same, Placed's time moves with placement
    rc, out, err = run(OLD, OLD, "-output_json=" + js)
    check(rc == 0, f"A/A: exit status {rc}: {err}")
    doc = json.load(open(js))
    ctx = doc["context"]
    check(ctx["layouts"] == 4 and ctx["placement_measured"] is True, f"A/A context: {ctx}")
    check(ctx["old_layouts"] == layouts_of(OLD), f"A/A old_layouts: {ctx['old_layouts']}")
    check("4 layouts a side" in out, f"A/A summary: {out}")
    # the machine's state beside the verdicts: the load before and after
    if os.path.exists("/proc/loadavg"):
        check(all(isinstance(ctx[k], (int, float)) and ctx[k] >= 0
                  for k in ("load_before", "load_after")) and "; load " in out,
              f"A/A load: {ctx.get('load_before')} {ctx.get('load_after')} {out}")
    v = {b["name"]: b for b in doc["benchmarks"]}
    for name, b in v.items():
        check(b["verdict"] == "same", f"A/A: {name} is {b['verdict']}")
        check(len(b["by_layout"]) == 4, f"A/A: {name} by_layout {b['by_layout']}")
    placed = v["Placed"]
    times = [x["old_s"] for x in placed["by_layout"]]
    check(len(set(round(t * 1e12) for t in times)) > 1 and placed["placement_spread_pct"] > 0,
          f"A/A: Placed's time should move with its layout: {times}")

    # old against new
    md, page = os.path.join(tmp, "ab.md"), os.path.join(tmp, "ab.html")
    rc, out, err = run(OLD, NEW, "-output_json=" + js, "-output_md=" + md, "-output_html=" + page)
    check(rc == 0, f"old/new: exit status {rc}: {err}")
    doc = json.load(open(js))
    v = {b["name"]: b for b in doc["benchmarks"]}
    slow = v["Slow"]
    check(slow["verdict"] == "slower" and abs(slow["change_pct"] - 10) < 1e-9,
          f"old/new: Slow {slow['verdict']} {slow['change_pct']}")
    check(v["Added"]["verdict"] == "new" and v["Removed"]["verdict"] == "gone",
          "old/new: Added new, Removed gone")
    for name, b in v.items():
        if b["old_s"] and b["new_s"] and b["change_pct"] is not None:
            check(abs(b["new_s"] / b["old_s"] - 1 - b["change_pct"] / 100) < 1e-9,
                  f"old/new: {name}: change {b['change_pct']} is not the columns' ratio "
                  f"{b['new_s']} / {b['old_s']}")
    p = v["Placed"]
    ratios = [x["new_s"] / x["old_s"] for x in p["by_layout"]]
    check(p["verdict"] not in ("faster", "slower"), f"old/new: Placed {p['verdict']} {ratios}")
    if max(ratios) / min(ratios) > 1.05:
        check(p["verdict"] == "layout-sensitive" and p["layout_sensitive"] is True,
              f"old/new: Placed moves with placement {ratios} but is {p['verdict']}")
        check(doc["summary"]["layout-sensitive"] == 1, f"summary {doc['summary']}")
        check("| layout-sensitive |" in out, f"table: {out}")
    text = open(md).read()
    check("placement" in text and "4 layouts a side" in text, f"markdown: {text}")
    check("placement" in open(page).read(), "HTML names the placement")

    # a comma list; two layouts: placement not measured, said
    two = ",".join(layouts_of(OLD)[:2])
    rc, out, err = run(two, two, "-filter=Slow", "-output_json=" + js)
    doc = json.load(open(js))
    check(rc == 0 and doc["context"]["layouts"] == 2 and
          doc["context"]["placement_measured"] is False and "placement not measured" in out,
          f"two layouts: {rc} {doc['context']} {out}")
    # sides with different counts: the fewer, said once (after loading)
    rc, out, err = run(OLD, ONE, "-filter=Slow", "-output_json=" + js)
    doc = json.load(open(js))
    check(rc == 0 and doc["context"]["layouts"] == 1, f"4 against 1: {rc} {doc['context']}")
    check(err.count("compared with 1 a side") == 1, f"4 against 1: stderr {err}")
    # a variant older than its plugin is other code: refused
    d = os.path.join(tmp, "stale")
    os.makedirs(d)
    for f in layouts_of(OLD):
        shutil.copy(f, d)
    s = os.path.join(d, os.path.basename(OLD))
    old_t = time.time() - 3600
    os.utime(os.path.join(d, os.path.basename(OLD)[:-3] + ".layout2.so"), (old_t, old_t))
    rc, out, err = run(s, s)
    lines = err.strip().splitlines()
    check(rc == 2 and len(lines) == 1 and "layout2.so: older than" in lines[0] and out == "",
          f"stale variant: {rc} {lines}")
    # one file a side, no variants: copies of it (-instances, 8 by default),
    # each its own instance (its own copy of the library: else refused),
    # in the summary, the JSON and the HTML; -instances=1: one, said
    page2 = os.path.join(tmp, "copies.html")
    for extra, k in (([], 8), (["-instances=3"], 3), (["-instances=3", "-isolate"], 3)):
        rc, out, err = run(ONE, ONE, "-filter=Slow|Steady", "-output_json=" + js,
                           "-output_html=" + page2, *extra)
        doc = json.load(open(js))
        verdicts = [b["verdict"] for b in doc["benchmarks"]]
        check(rc == 0 and f"{k} copies a side" in out and doc["context"]["layouts"] == k and
              doc["context"]["copies"] is True and doc["context"]["placement_measured"] is True
              and len(doc["context"]["old_layouts"]) == k and len(verdicts) == 2 and
              not {"faster", "slower"} & set(verdicts),
              f"copies {extra}: {rc} {doc['context']} {verdicts} {out} {err}")
        check(f"Code placement ({k} copies a side)" in open(page2).read(),
              f"copies {extra}: the HTML names them")
        if k == 8:
            # -min_time 1.5 ms a side over 64 rounds and one unused first
            # round in each of the 8 blocks (one pass: a block a layout):
            # 1.5 ms / 72 over Steady's 200 ns is 105 iterations an epoch
            # (two passes would make 94; the unused rounds outside, 118)
            steady = [b for b in doc["benchmarks"] if b["name"] == "Steady"][0]
            check(steady["iterations"] == 105 and steady["rounds"] == 64,
                  f"copies: Steady's epochs: {steady['iterations']} iterations, "
                  f"{steady['rounds']} rounds")
    rc, out, err = run(ONE, ONE, "-filter=Slow", "-instances=1", "-output_json=" + js)
    doc = json.load(open(js))
    check(rc == 0 and "1 layout a side: placement not measured" in out and
          doc["context"]["layouts"] == 1 and doc["context"]["copies"] is False,
          f"-instances=1: {rc} {doc['context']} {out}")
    for v in ("0", "17", "x", "", "2.5", "-1"):
        rc, out, err = run(ONE, ONE, "-instances=" + v)
        lines = err.strip().splitlines()
        check(rc == 2 and out == "" and len(lines) == 1 and
              lines[0].startswith(f"femtobench: error: -instances={v}: not a whole number"),
              f"-instances={v}: {rc} {lines}")

    # one iteration longer than -min_time over the rounds: fewer rounds of
    # one iteration, down to one a layout (at least 8) where the layouts
    # decide, and to 16 with one layout (the sign test's fewest); Steady's
    # fake iteration is 200 ns, -min_time=0.001 is 1 us
    for args, want in (([OLD, OLD], 8), ([ONE, ONE, "-instances=16"], 16),
                       ([ONE, ONE, "-instances=1"], 16)):
        rc, out, err = run(*args, "-filter=Steady", "-min_time=0.001", "-output_json=" + js)
        b = json.load(open(js))["benchmarks"][0]
        check(rc == 0 and b["rounds"] == want and b["iterations"] == 1 and b["verdict"] == "same",
              f"long iterations {args[2:]}: {rc} rounds {b['rounds']} (want {want}) {err}")

    # each block moves the benchmark's stack by a random 0-4 KiB on each side
    # (docs/ab.md, "How it works"): Stacked's fake time follows a local's
    # address, so its 4 layouts a side do not all read one time (all 8 alike
    # by chance: 1 in 2 million; without the moves, always)
    stack = os.path.join(T, "ab_stack.so")
    rc, out, err = run(stack, stack, "-filter=Stacked", "-output_json=" + js)
    b = json.load(open(js))["benchmarks"][0]
    seen = {round(x[k] * 1e12) for x in b["by_layout"] for k in ("old_s", "new_s")}
    check(rc == 0 and len(b["by_layout"]) == 4 and len(seen) > 1,
          f"the stack moves from block to block: {rc} {b['by_layout']} {err}")

    # an empty name in a list
    rc, out, err = run(OLD + ",", OLD)
    check(rc == 2 and "empty file name" in err, f"empty name: {rc} {err}")
finally:
    shutil.rmtree(tmp, ignore_errors=True)

check.finish()
