#!/usr/bin/env python3
"""The layout and moment measurements behind docs/ab.md ("Code layout").

Builds tools/ab_check_suite.c as femtobench-ab plugins with the plain-compiler
recipe, each with its layout variants (cmake/femtobench-layout-pad.c linked
first, the sizes femtobench_add_plugin uses), in four versions:

  base     unchanged
  drop     Unrelated removed (the first benchmark in the file: all code after
           it moves; nothing else changes)
  slow5    Chain and Mem 5% more work, with more code (a second loop)
  slow10   the same, 10%

Then, --runs times, femtobench-ab on each pair, with every layout and (with
--single) with the files alone, in another folder: as femtobench-ab loads
them by default (8 copies a side) and once (-instances=1):

  aa       base against base          no row may be faster or slower
  layout   base against drop          no row may be faster or slower
  d5, d10  base against slow5/slow10  Chain and Mem slower, nothing else flagged
           (each counted on its own too)

and one plain run of the suite (the runner, for the cost). Prints a markdown
table with the load, and each run's verdicts on stderr.

usage: tools/ab_layout_check.py [--build build] [--runs 20] [--layouts 8]
                                [--only aa,layout,d5,d10] [--single] [--ab-args '-min_time=1.5']
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
PAD = os.path.join(ROOT, "cmake", "femtobench-layout-pad.c")
VERSIONS = {"base": [], "drop": ["-DAB_CHECK_DROP_UNRELATED"],
            "slow5": ["-DAB_CHECK_SLOW_PCT=5"], "slow10": ["-DAB_CHECK_SLOW_PCT=10"]}
CHANGED = {"Chain", "Mem"}


def sh(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def must(cmd):
    r = sh(cmd)
    if r.returncode:
        sys.exit("failed: %s\n%s" % (" ".join(cmd), r.stderr))


def pads(k):
    """femtobench_add_plugin's padding for layout k (cmake/femtobench-plugin.cmake)."""
    return 16 * (k % 4) + 64 * ((k * 23) % 64), 16 * ((k * 29) % 256)


def build(bdir, out, layouts):
    lib = os.path.join(bdir, "libfemtobench.a")
    inc = os.path.join(ROOT, "include")
    src = os.path.join(HERE, "ab_check_suite.c")
    pad_o = []
    for k in range(1, layouts):
        t, d = pads(k)
        o = os.path.join(out, "pad%d.o" % k)
        must(["cc", "-O2", "-fPIC", "-c", "-o", o, "-DFB_LAYOUT_PAD_TEXT=%d" % t,
              "-DFB_LAYOUT_PAD_DATA=%d" % d, PAD])
        pad_o.append(o)
    files = {}
    for name, defs in VERSIONS.items():
        obj = os.path.join(out, name + ".o")
        must(["cc", "-O2", "-fPIC", "-c", "-o", obj, "-I", inc] + defs + [src])
        so = os.path.join(out, name + ".so")
        must(["cc", "-shared", "-o", so, obj, lib, "-lpthread", "-lm"])
        for k, p in enumerate(pad_o, 1):
            must(["cc", "-shared", "-o", os.path.join(out, "%s.layout%d.so" % (name, k)), p, obj,
                  lib, "-lpthread", "-lm"])
        one = os.path.join(out, "one")
        os.makedirs(one, exist_ok=True)
        shutil.copyfile(so, os.path.join(one, name + ".so"))
        exe = os.path.join(out, name)
        must(["cc", "-o", exe, obj, lib, "-lpthread", "-lm"])
        files[name] = (so, os.path.join(one, name + ".so"), exe)
    return files


def ab(bdir, old, new, out, extra=()):
    js = os.path.join(out, "ab.json")
    t = time.monotonic()
    r = sh([os.path.join(bdir, "femtobench-ab"), old, new, "-quiet", "-output_json=" + js,
            *extra])
    wall = time.monotonic() - t
    if r.returncode not in (0, 3):
        sys.exit("femtobench-ab failed (%d): %s" % (r.returncode, r.stderr))
    with open(js) as f:
        doc = json.load(f)
    return doc, wall


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--layouts", type=int, default=8)
    ap.add_argument("--only", default="aa,layout,d5,d10")
    ap.add_argument("--single", action="store_true",
                    help="also the files alone: 8 copies a side (femtobench-ab's default "
                         "for one file) and one copy (-instances=1)")
    ap.add_argument("--ab-args", default="",
                    help="more options for every femtobench-ab run, e.g. '-min_time=1.5'")
    args = ap.parse_args()
    more = args.ab_args.split()
    bdir = os.path.abspath(args.build)
    out = tempfile.mkdtemp(prefix="ab_layout.")
    kinds = args.only.split(",")
    pairs = {"aa": ("base", "base"), "layout": ("base", "drop"),
             "d5": ("base", "slow5"), "d10": ("base", "slow10")}
    modes = ["layouts"] + (["copies", "one"] if args.single else [])
    try:
        files = build(bdir, out, args.layouts)
        stats = {(m, k): {"bad": 0, "found": 0, "clean": 0, "chain": 0, "mem": 0, "rows": {},
                          "wall": []}
                 for m in modes for k in kinds}
        plain, loads = [], []
        for i in range(args.runs):
            t = time.monotonic()
            must([files["base"][2], "-quiet"])
            plain.append(time.monotonic() - t)
            for m in modes:
                for k in kinds:
                    o, n = pairs[k]
                    idx = 0 if m == "layouts" else 1
                    doc, wall = ab(bdir, files[o][idx], files[n][idx], out,
                                   (["-instances=1"] if m == "one" else []) + more)
                    loads.append(doc["context"]["load_before"])
                    s = stats[(m, k)]
                    s["wall"].append(wall)
                    v = {b["name"]: b["verdict"] for b in doc["benchmarks"]}
                    for name, verdict in v.items():
                        s["rows"].setdefault(name, {}).setdefault(verdict, 0)
                        s["rows"][name][verdict] += 1
                    flagged = {x for x, y in v.items() if y in ("faster", "slower")}
                    if k in ("aa", "layout"):
                        s["bad"] += bool(flagged)
                    else:
                        hit = all(v.get(x) == "slower" for x in CHANGED)
                        s["found"] += hit
                        s["chain"] += v.get("Chain") == "slower"
                        s["mem"] += v.get("Mem") == "slower"
                        s["clean"] += hit and flagged == CHANGED
                        s["bad"] += bool(flagged - CHANGED) or any(
                            v.get(x) == "faster" for x in CHANGED)
                    print("run %d %s %s: %s" % (i + 1, m, k, " ".join(
                        "%s=%s" % (x, y) for x, y in sorted(v.items()))), file=sys.stderr)
        med = lambda v: sorted(v)[len(v) // 2]
        print("load (1 min) over the runs: %.1f-%.1f, median %.1f" % (
            min(loads), max(loads), med(loads)))
        print("one plain run of the suite: median %.3f s\n" % med(plain))
        print("| layouts a side | pair | runs | false faster/slower | Chain slower | Mem slower "
              "| both (nothing else flagged) | wall (median) | vs one plain run |")
        print("|:--|:--|--:|--:|--:|--:|--:|--:|--:|")
        for m in modes:
            for k in kinds:
                s = stats[(m, k)]
                w = med(s["wall"])
                changed = k not in ("aa", "layout")
                found = "%d (%d)" % (s["found"], s["clean"]) if changed else "-"
                print("| %s | %s | %d | %d | %s | %s | %s | %.2f s | %.2fx |" % (
                    args.layouts if m == "layouts" else 1, k, args.runs, s["bad"],
                    s["chain"] if changed else "-", s["mem"] if changed else "-", found, w,
                    w / med(plain)))
        print("\nverdicts per row:")
        for (m, k), s in stats.items():
            print("%s %s: %s" % (m, k, "; ".join(
                "%s %s" % (n, dict(sorted(c.items()))) for n, c in sorted(s["rows"].items()))))
    finally:
        shutil.rmtree(out, ignore_errors=True)


if __name__ == "__main__":
    main()
