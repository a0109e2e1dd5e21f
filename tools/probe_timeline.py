#!/usr/bin/env python3
"""The core probe over time (docs/design.md "Slow episodes of the
core"): how often the core is in a slow episode and how long episodes last,
which decides between waiting for a clean core, re-measuring, or marking.

Builds tools/probe_timeline.c against a femtobench build and takes COUNT
probes GAP ms apart (one process), then prints the distribution of the
probe, the fraction at or above the slow mark (1.4) and the lengths of runs
of consecutive slow probes (an episode lasts at least that long).

    python3 tools/probe_timeline.py --build build -n 500 --gap 10
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SLOW = 1.4


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("-n", type=int, default=500)
    ap.add_argument("--gap", type=int, default=10, help="ms between probes")
    a = ap.parse_args()
    lib = os.path.join(a.build, "libfemtobench.a")
    if not os.path.exists(lib):
        sys.exit("no %s: build femtobench first" % lib)
    with tempfile.TemporaryDirectory() as tmp:
        exe = os.path.join(tmp, "probe_timeline")
        subprocess.run(["cc", "-O2", "-std=c11", os.path.join(HERE, "probe_timeline.c"), lib,
                        "-lm", "-lpthread", "-o", exe], check=True)
        load0, t0 = os.getloadavg()[0], time.time()
        out = subprocess.run([exe, str(a.n), str(a.gap)], capture_output=True, text=True,
                             check=True).stdout
    ps = [float(x) for x in out.split()]
    slow = [p >= SLOW for p in ps]
    runs, cur = [], 0
    for s in slow + [False]:
        if s:
            cur += 1
        elif cur:
            runs.append(cur)
            cur = 0
    q = statistics.quantiles(ps, n=10)
    print("%d probes %d ms apart, %s, load average %.1f -> %.1f" % (
        len(ps), a.gap, time.strftime("%H:%M UTC", time.gmtime(t0)), load0, os.getloadavg()[0]))
    print("probe deciles: " + " ".join("%.2f" % x for x in q))
    print("slow (>= %.1f): %d of %d (%.0f%%)" % (SLOW, sum(slow), len(ps), 100.0 * sum(slow) / len(ps)))
    if runs:
        print("slow stretches: %d; length in probes: median %d, max %d (x %d ms: median %d ms, max %d ms)" % (
            len(runs), statistics.median(runs), max(runs), a.gap, statistics.median(runs) * a.gap,
            max(runs) * a.gap))


if __name__ == "__main__":
    main()
