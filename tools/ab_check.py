#!/usr/bin/env python3
"""The measurements behind docs/ab.md: femtobench-ab against sequential runs.

Builds tools/ab_check_suite.c (six benchmarks, about 2 ns to 0.6 ms) with the
plain-compiler plugin recipe against a build tree's library, in three
variants: unchanged, Chain 5% slower and Chain 10% slower (a longer dependent
chain), each as a plugin and as a runner executable. Then, --runs times:

  femtobench-ab   A/A (two byte-identical files), A vs 5%, A vs 10%
  sequential      runner A -output_json, then runner B -output_json,
                  femtobench-compare (what -baseline does), same three pairs
  plain           one plain run of the suite (the wall-time reference)

and prints a markdown table: how often A/A flagged anything (faster/slower),
how often the 10% change was found cleanly (Chain slower, nothing else
flagged), how often the 5% change was flagged, and wall time. The load
(uptime) is printed before and after.

usage: tools/ab_check.py [--build build] [--runs 20] [--threshold PCT]
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


def sh(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def build(bdir, out, pct):
    src = os.path.join(HERE, "ab_check_suite.c")
    common = ["-O2", "-DAB_CHECK_SLOW_PCT=%d" % pct, "-I", os.path.join(ROOT, "include"),
              src, "-L", bdir, "-lfemtobench", "-lpthread", "-lm"]
    so = os.path.join(out, "suite%d.so" % pct)
    exe = os.path.join(out, "suite%d" % pct)
    for cmd in (["cc", "-shared", "-fPIC", "-o", so] + common, ["cc", "-o", exe] + common):
        r = sh(cmd)
        if r.returncode:
            sys.exit("build failed: %s\n%s" % (" ".join(cmd), r.stderr))
    return so, exe


def ab(bdir, old, new, out, extra):
    js = os.path.join(out, "ab.json")
    t = time.monotonic()
    r = sh([os.path.join(bdir, "femtobench-ab"), old, new, "-output_json=" + js] + extra)
    wall = time.monotonic() - t
    if r.returncode not in (0, 3):
        sys.exit("femtobench-ab failed (%d): %s" % (r.returncode, r.stderr))
    with open(js) as f:
        doc = json.load(f)
    return {b["name"]: b["verdict"] for b in doc["benchmarks"]}, wall


def sequential(bdir, old_exe, new_exe, out, threshold):
    a, b = os.path.join(out, "a.json"), os.path.join(out, "b.json")
    t = time.monotonic()
    for exe, js in ((old_exe, a), (new_exe, b)):
        r = sh([exe, "-output_json=" + js])
        if r.returncode:
            sys.exit("%s failed: %s" % (exe, r.stderr))
    wall = time.monotonic() - t
    r = sh([os.path.join(bdir, "femtobench-compare"), a, b, "-threshold=%g" % threshold])
    verdicts = {}
    for line in r.stdout.splitlines():
        cells = [c.strip() for c in line.split("|")]
        if len(cells) == 6 and cells[5].startswith("`"):
            verdicts[cells[5].strip("`")] = cells[4]
    return verdicts, wall


def flagged(v):
    return {n for n, x in v.items() if x in ("faster", "slower")}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--threshold", type=float, default=None,
                    help="femtobench-ab's -threshold (default: its own)")
    ap.add_argument("--baseline-threshold", type=float, default=10.0)
    args = ap.parse_args()
    bdir = os.path.abspath(args.build)
    out = tempfile.mkdtemp(prefix="ab_check.")
    try:
        so0, exe0 = build(bdir, out, 0)
        so5, exe5 = build(bdir, out, 5)
        so10, exe10 = build(bdir, out, 10)
        so0b = os.path.join(out, "suite0_copy.so")
        shutil.copyfile(so0, so0b)  # byte-identical, another file
        extra = [] if args.threshold is None else ["-threshold=%g" % args.threshold]
        print("load before:", sh(["uptime"]).stdout.strip())
        stats = {p: {"aa": 0, "d10": 0, "d5": 0, "any5": 0, "wall": [], "changes": []}
                 for p in ("ab", "seq")}
        plain = []
        for i in range(args.runs):
            t = time.monotonic()
            sh([exe0])
            plain.append(time.monotonic() - t)
            for proto in ("ab", "seq"):
                s = stats[proto]
                for kind, (o_so, o_exe), (n_so, n_exe) in (
                        ("aa", (so0, exe0), (so0b, exe0)),
                        ("d10", (so0, exe0), (so10, exe10)),
                        ("d5", (so0, exe0), (so5, exe5))):
                    if proto == "ab":
                        v, wall = ab(bdir, o_so, n_so, out, extra)
                    else:
                        v, wall = sequential(bdir, o_exe, n_exe, out, args.baseline_threshold)
                    s["wall"].append(wall)
                    f = flagged(v)
                    if kind == "aa" and f:
                        s["aa"] += 1
                    if kind == "d10" and f == {"Chain"} and v.get("Chain") == "slower":
                        s["d10"] += 1
                    if kind == "d5" and v.get("Chain") == "slower":
                        s["d5"] += 1
                        if f == {"Chain"}:
                            s["any5"] += 1
            print("run %d/%d: ab %s, sequential %s" % (
                i + 1, args.runs,
                {k: stats["ab"][k] for k in ("aa", "d10", "d5")},
                {k: stats["seq"][k] for k in ("aa", "d10", "d5")}), file=sys.stderr)
        print("load after: ", sh(["uptime"]).stdout.strip())
        n = args.runs
        med = lambda v: sorted(v)[len(v) // 2]
        plain_med = med(plain)
        print()
        print("| protocol | A/A: runs with a false faster/slower | 10% slower: found cleanly "
              "| 5% slower: flagged (cleanly) | wall per comparison | vs one plain run |")
        print("|:--|--:|--:|--:|--:|--:|")
        names = {"ab": "femtobench-ab, one process (threshold %s)" % (
                     "default" if args.threshold is None else "%g%%" % args.threshold),
                 "seq": "sequential runs + femtobench-compare (-baseline), threshold %g%%"
                        % args.baseline_threshold}
        for p in ("ab", "seq"):
            s = stats[p]
            w = med(s["wall"])
            print("| %s | %d/%d | %d/%d | %d/%d (%d) | %.2f s | %.2fx |" % (
                names[p], s["aa"], n, s["d10"], n, s["d5"], n, s["any5"], w, w / plain_med))
        print("\none plain run of the suite: median %.2f s" % plain_med)
    finally:
        shutil.rmtree(out, ignore_errors=True)


if __name__ == "__main__":
    main()
