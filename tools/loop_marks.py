#!/usr/bin/env python3
"""The marks against the empty loop on real ops (docs/design.md, "An op that
was optimized away").

    tools/loop_marks.py [--build build] [-n 20]

Builds tools/loop_marks_suite.c (1-4 dependent adds, a copy the compiler
deletes to its barrier, a body it deletes entirely) with -O2 against
BUILD's library, runs it N times, one process after the other, and counts
per benchmark, from the table, the rows marked "optimized away?", the rows
"at the loop's resolution" and the error rows, with the range of ns/op. Load averages before and after are printed.
"""
import argparse
import os
import re
import subprocess
import tempfile


def loadavg():
    try:
        return " ".join(open("/proc/loadavg").read().split()[:3])
    except OSError:
        return "?"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("-n", type=int, default=20)
    args = ap.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with tempfile.TemporaryDirectory(prefix="fb-loop-marks.") as tmp:
        exe = os.path.join(tmp, "suite")
        subprocess.run([os.environ.get("CC", "cc"), "-std=c11", "-O2", "-DNDEBUG",
                        "-D_POSIX_C_SOURCE=200809L", "-I", os.path.join(root, "include"),
                        os.path.join(root, "tools", "loop_marks_suite.c"),
                        os.path.join(args.build, "libfemtobench.a"), "-lpthread", "-lm",
                        "-o", exe], check=True)
        before = loadavg()
        rows = {}
        for k in range(args.n):
            p = subprocess.run([exe, "-quiet"], capture_output=True, text=True,
                               env=dict(os.environ, FEMTOBENCH_SUPPRESS_WARNINGS="1"))
            for line in p.stdout.splitlines():
                m = re.match(r"\|\s*(\S+) \|.*\| (?::boom: )?`([^`]+)`(.*)$", line)
                if not m:
                    continue
                s = rows.setdefault(m.group(2), {"away": 0, "loop": 0, "error": 0, "ns": []})
                if ":boom:" in line:
                    s["error"] += 1
                    continue
                s["away"] += "(optimized away?" in m.group(3)
                s["loop"] += "(at the loop's resolution" in m.group(3)
                s["ns"].append(float(m.group(1).replace(",", "")))
                e = re.search(r"fb_do_not_optimize(?:,| costs:|:) ([0-9.]+) ns", m.group(3))
                if e:
                    s["empty"] = float(e.group(1))
        print("load average before: %s; after: %s; %d processes" % (before, loadavg(), args.n))
        print("| benchmark | optimized away? | at the loop's resolution | error row | "
              "ns/op (range) |")
        print("|---|---:|---:|---:|---|")
        for name, s in rows.items():
            rg = "%.2f-%.2f" % (min(s["ns"]), max(s["ns"])) if s["ns"] else "-"
            print("| %s | %d of %d | %d of %d | %d of %d | %s |" % (
                name, s["away"], args.n, s["loop"], args.n, s["error"], args.n, rg))


if __name__ == "__main__":
    main()
