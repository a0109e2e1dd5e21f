#!/usr/bin/env python3
"""What -isolate costs per benchmark (docs/reliability.md, "Crash isolation").

Runs the demo suite (bench/femtobench-demo, default settings) N times with
and N times without -isolate, interleaved (in, iso, in, iso, ...), and
reports the median wall time of each, the median of the per-round
differences divided by the number of benchmarks (the cost per benchmark),
and the ratio of the medians. The same for the runner's smallest possible
benchmarks (tests/suite_hostile's Fine and Fine2: a few microseconds of
measuring each), where the cost is the whole difference.

    cmake -S . -B build -DCMAKE_BUILD_TYPE=Release && cmake --build build -j2
    python3 tools/isolate_cost.py --build build -n 15
"""
import argparse
import os
import statistics
import subprocess
import sys
import time


def wall(cmd, env):
    t0 = time.perf_counter()
    p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    t = time.perf_counter() - t0
    if p.returncode != 0:
        sys.exit("failed: %s (status %d)" % (" ".join(cmd), p.returncode))
    return t


def measure(name, cmd, n, runs, env):
    ins, isos, diffs = [], [], []
    for _ in range(runs):
        a = wall(cmd, env)
        b = wall(cmd + ["-isolate"], env)
        ins.append(a)
        isos.append(b)
        diffs.append(b - a)
    med_in, med_iso = statistics.median(ins), statistics.median(isos)
    per = statistics.median(diffs) / n
    print("%-34s %3d bench  in-process %8.1f ms  -isolate %8.1f ms  ratio %.3f  "
          "cost/benchmark %6.2f ms" % (name, n, med_in * 1e3, med_iso * 1e3, med_iso / med_in,
                                        per * 1e3))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("-n", type=int, default=15, help="rounds (default 15)")
    a = ap.parse_args()
    env = dict(os.environ, FEMTOBENCH_SUPPRESS_WARNINGS="1", HOSTILE="")
    env.pop("FEMTOBENCH_CONFIG", None)
    demo = os.path.join(a.build, "bench", "femtobench-demo")
    small = os.path.join(a.build, "tests", "suite_hostile")
    n_demo = len(subprocess.run([demo, "-list"], capture_output=True, text=True).stdout.split())
    print("median of %d interleaved rounds; %s, %d CPUs" % (a.n, os.uname().machine,
                                                            os.cpu_count()))
    measure("demo suite (default settings)", [demo], n_demo, a.n, env)
    measure("two tiny benchmarks (suite_hostile)", [small, "-filter=Fine.*"], 2, a.n, env)


if __name__ == "__main__":
    main()
