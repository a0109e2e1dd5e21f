#!/usr/bin/env python3
"""The cold start of perf_event_open (docs/performance.md).

Builds tools/perf_coldstart.c against a femtobench build and runs, R times,
spaced by --gap seconds (the kernel turns its perf hooks off again about a
second after the last perf event closes):
  raw   the first and the second perf_event_open of a process, in ms
  on    one femtobench run of a 1-add op with the counters, wall ms
  off   the same run with the counters off
A process that starts while another uses perf events finds the hooks on:
other perf users on the machine make every open warm.

    python3 tools/perf_coldstart.py --build build -r 10
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


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("-r", "--runs", type=int, default=10)
    ap.add_argument("--gap", type=float, default=1.5)
    a = ap.parse_args()
    lib = os.path.join(a.build, "libfemtobench.a")
    if not os.path.exists(lib):
        sys.exit("no %s: build femtobench first" % lib)
    env = dict(os.environ, FEMTOBENCH_SUPPRESS_WARNINGS="1")
    with tempfile.TemporaryDirectory() as tmp:
        exe = os.path.join(tmp, "perf_coldstart")
        subprocess.run(["cc", "-O2", "-std=c11", "-I", os.path.join(ROOT, "include"),
                        os.path.join(HERE, "perf_coldstart.c"), lib, "-lm", "-lpthread", "-o", exe],
                       check=True)
        cold, warm, on, off = [], [], [], []
        load0 = os.getloadavg()[0]
        for _ in range(a.runs):
            for mode in ("raw", "on", "off"):
                time.sleep(a.gap)
                out = subprocess.run([exe, mode], capture_output=True, text=True, env=env,
                                     check=True).stdout.split()
                if mode == "raw":
                    cold.append(float(out[0]))
                    warm.append(float(out[1]))
                else:
                    (on if mode == "on" else off).append(float(out[0]))
        print("%d runs each, %.1f s apart, load average %.1f -> %.1f, %s" % (
            a.runs, a.gap, load0, os.getloadavg()[0], time.strftime("%H:%M UTC", time.gmtime())))
        print()
        print("| measure | median ms | min ms | max ms |")
        print("|---|---:|---:|---:|")
        for label, xs in (("first perf_event_open of a process", cold),
                          ("second perf_event_open", warm),
                          ("one femtobench run, counters on", on),
                          ("one femtobench run, counters off", off)):
            print("| %s | %.3f | %.3f | %.3f |" % (label, statistics.median(xs), min(xs), max(xs)))


if __name__ == "__main__":
    main()
