#!/usr/bin/env python3
"""Whole-process wall and CPU time of short runs (docs/performance.md):
femtobench against femtobench 0.1 and nanobench, one benchmark and a suite
of ten (bench/selfbench/coldstart.c, bench/selfbench/nb_coldstart.cpp).

Cells: {one, suite} x {warm, cold} x {tools}. Rounds interleave every cell,
the tools in a rotating order; "warm" processes run back to back, "cold"
ones after an idle gap (default 1.5 s: the kernel switches its perf hooks
off about a second after the last perf event closes, and a developer who
runs one benchmark starts it from an idle shell). Wall time from fork to
reap, CPU time (user + system) from wait4. Paired: each ratio is the median
of the per-round ratios against femtobench's process in the same round.
In the same processes, what each tool printed: the median ns/op of every
row over the rounds and its spread (the 10th to 90th percentile of the
per-process values, in % of the median), so that a faster process is not
bought with a worse number. The last lines check the targets: one
benchmark at most 1/3 of nanobench's wall, the suite at most 0.3, neither
more than 1.10x femtobench 0.1's.

    python3 tools/coldstart_bench.py --build build-speed --old-build /tmp/fb01/build \\
        --nanobench /tmp/nanobench -n 20

--old-build: a build of v0.1.0 (libfemtobench.a); --nanobench: a checkout
of github.com/martinus/nanobench (or a folder holding nanobench.h). Both are
built outside this repository and never committed. Either may be left out.
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SRC = os.path.join(ROOT, "bench", "selfbench")


def build(tmp, a):
    exes = {}
    builds = [("femtobench", a.build, os.path.join(ROOT, "include"))]
    builds += [("femtobench 0.1", a.old_build, None)] if a.old_build else []
    for other in a.other:
        label, _, build_dir = other.partition("=")
        builds.append((label, build_dir, None))
    for name, build_dir, inc in builds:
        lib = os.path.join(build_dir, "libfemtobench.a")
        if not os.path.exists(lib):
            sys.exit("no %s: build it first" % lib)
        inc = inc or os.path.join(os.path.dirname(os.path.abspath(build_dir)), "include")
        exe = os.path.join(tmp, name.replace(" ", "_"))
        subprocess.run([a.cc, "-O2", "-std=c11", "-I", inc, os.path.join(SRC, "coldstart.c"), lib,
                        "-lm", "-lpthread", "-o", exe], check=True)
        exes[name] = exe
    if a.nanobench:
        inc = a.nanobench
        for sub in ("src/include", "include"):
            if os.path.exists(os.path.join(a.nanobench, sub, "nanobench.h")):
                inc = os.path.join(a.nanobench, sub)
        exe = os.path.join(tmp, "nanobench")
        subprocess.run([a.cxx, "-O2", "-std=c++17", "-I", inc,
                        os.path.join(SRC, "nb_coldstart.cpp"), "-o", exe], check=True)
        exes["nanobench"] = exe
    return exes


# a markdown row of either tool: "| 0.62 | 1,621,684,522.03 | ... | `add0` ..."
ROW = re.compile(r"^\|\s*([0-9.,]+)\s*\|.*`(add[0-9]+)`", re.M)


def run_one(exe, n, env):
    out = tempfile.TemporaryFile()
    t0 = time.perf_counter()
    p = subprocess.Popen([exe, str(n)], stdout=out, stderr=subprocess.DEVNULL, env=env)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0:
        sys.exit("%s %d failed: %d" % (exe, n, p.returncode))
    out.seek(0)
    text = out.read().decode("utf-8", "replace")
    rows = {m.group(2): float(m.group(1).replace(",", "")) for m in ROW.finditer(text)}
    if len(rows) != n:
        sys.exit("%s %d printed %d rows, not %d" % (exe, n, len(rows), n))
    return wall * 1e3, (ru.ru_utime + ru.ru_stime) * 1e3, rows


def pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, max(0, int(round(q * (len(xs) - 1)))))]


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--old-build", help="a build of femtobench 0.1 (v0.1.0)")
    ap.add_argument("--other", action="append", default=[], metavar="LABEL=BUILD",
                    help="another femtobench build (e.g. before a change); its include/ "
                         "is BUILD/../include")
    ap.add_argument("--nanobench", help="a nanobench checkout")
    ap.add_argument("-n", "--rounds", type=int, default=20)
    ap.add_argument("--gap", type=float, default=1.5)
    ap.add_argument("--cc", default="cc")
    ap.add_argument("--cxx", default="c++")
    a = ap.parse_args()
    env = dict(os.environ, FEMTOBENCH_SUPPRESS_WARNINGS="1")
    with tempfile.TemporaryDirectory() as tmp:
        exes = build(tmp, a)
        tools = list(exes)
        cases = (("one benchmark", 1), ("suite of 10", 10))
        modes = ("warm", "cold")
        data = {}  # (case, mode, tool) -> [(wall, cpu)] per round
        loads = {m: [] for m in modes}
        t_start = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
        for r in range(a.rounds):
            order = tools[r % len(tools):] + tools[:r % len(tools)]
            for case, n in cases:
                for mode in modes:
                    loads[mode].append(os.getloadavg()[0])
                    for tool in order:
                        if mode == "cold":
                            time.sleep(a.gap)
                        data.setdefault((case, mode, tool), []).append(run_one(exes[tool], n, env))
        print("%d rounds, %s; load average (1 min) median %.1f warm, %.1f cold; gap %.1f s" % (
            a.rounds, t_start, statistics.median(loads["warm"]), statistics.median(loads["cold"]),
            a.gap))
        print()
        print("| case | " + " | ".join("%s wall / CPU ms" % t for t in tools) +
              "".join(" | femtobench / %s wall" % t for t in tools[1:]) + " |")
        print("|---|" + "---:|" * (2 * len(tools) - 1))
        for case, _ in cases:
            for mode in modes:
                cells, ratios = [], []
                for t in tools:
                    xs = data[(case, mode, t)]
                    cells.append("%.1f / %.1f" % (statistics.median(x[0] for x in xs),
                                                  statistics.median(x[1] for x in xs)))
                fb = data[(case, mode, tools[0])]
                for t in tools[1:]:
                    xs = data[(case, mode, t)]
                    ratios.append("%.2f" % statistics.median(f[0] / x[0] for f, x in zip(fb, xs)))
                label = "%s, %s" % (case, "after a %.1f s idle gap" % a.gap if mode == "cold"
                                    else "back to back")
                print("| %s | %s |" % (label, " | ".join(cells + ratios)))
        print()
        print("What each tool printed (all processes of the suite, warm and cold): median ns/op "
              "of each row [10th-90th percentile spread, % of the median]")
        print()
        print("| row | " + " | ".join(tools) + " |")
        print("|---|" + "---:|" * len(tools))
        for k in range(10):
            name, cells = "add%d" % k, []
            for t in tools:
                xs = [x[2][name] for mode in modes for x in data[("suite of 10", mode, t)]]
                med = statistics.median(xs)
                cells.append("%.3f [%.1f%%]" % (med, 100 * (pct(xs, 0.9) - pct(xs, 0.1)) / med))
            print("| %s | %s |" % (name, " | ".join(cells)))
        print()
        targets = {"nanobench": {"one benchmark": 1 / 3, "suite of 10": 0.3},
                   "femtobench 0.1": {"one benchmark": 1.10, "suite of 10": 1.10}}
        for t, limits in targets.items():
            if t not in tools:
                continue
            for case, limit in limits.items():
                for mode in modes:
                    fb, xs = data[(case, mode, tools[0])], data[(case, mode, t)]
                    r = statistics.median(f[0] / x[0] for f, x in zip(fb, xs))
                    print("target: %s, %s: femtobench / %s wall %.2f, at most %.2f: %s" % (
                        case, mode, t, r, limit, "met" if r <= limit else "NOT MET"))


if __name__ == "__main__":
    main()
