#!/usr/bin/env python3
"""Does the error column predict the next run? (docs/performance.md)

Runs bench/selfbench's fb_selfbench R times per workload, one process per
run, the workloads interleaved, and compares each run's reported error with
what the next run of the same workload actually reported:

  hit rate  the fraction of next runs whose value lies within +-err% of this
            run's value; err% is a 50% band (MdAPE), so ~0.5 is calibrated
  ratio     calibration ratio: the median of |next - this| / this over the
            median of err%/100; 0.67..1.5 is the goal, > 1 understates
  unmarked  the same ratio over the pairs where neither run is marked
            unstable (err% < 5): the runs a user would take as they are

The spin workloads (spin1us, spin10us, spin100us: busy-waits of a known
length) separate the machine from the op:

    python3 tools/calibrate_err.py --build build -r 30 -w spin1us,spin10us,spin100us,add64

Two error figures are scored, each from the same processes' JSON:
  err%      the table's column: the within-run MdAPE of the epochs
  passes    with --passes K (K >= 3): the runner's -repetitions=K, its value the
            median over passes and its error the MdAPE between passes

    python3 tools/calibrate_err.py --build build -r 30
    python3 tools/calibrate_err.py --build build -r 30 --passes 5

Conditions (load, time) are printed with the table: copy them into the doc.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

WORKLOADS = ["fast", "siphash", "fluct", "memcpy4k", "slow"]


def clean_env():
    e = dict(os.environ)
    for k in ("FEMTOBENCH_CONFIG", "FEMTOBENCH_ENDLESS"):
        e.pop(k, None)
    e["FEMTOBENCH_SUPPRESS_WARNINGS"] = "1"
    return e


def mdape(xs):
    m = statistics.median(xs)
    return 100 * statistics.median(abs(x - m) / m for x in xs) if m else 0.0


def one(exe, workload, passes):
    argv = [exe, "-filter=" + workload, "-output_json=-"]
    if passes > 1:
        argv.append("-repetitions=%d" % passes)
    p = subprocess.run(argv, capture_output=True, text=True, env=clean_env(), timeout=120)
    if p.returncode:
        sys.exit("%s failed: %s" % (" ".join(argv), p.stderr))
    doc = json.loads(p.stdout)
    rs = [r for r in doc["results"] if not r["error"]]
    per_pass = [r["stats"]["elapsed"]["median"] / r["batch"] for r in rs]
    first = rs[0]
    within = (first["stats"]["elapsed"]["median"] / first["batch"], first["stats"]["elapsed"]["err_pct"],
              bool(first.get("probe") and first["probe"]["slow"]))
    between = (statistics.median(per_pass), mdape(per_pass), False) if passes > 1 else None
    return within, between


UNSTABLE_PCT = 5.0  # the table's :wavy_dash: mark


def unmarked_ratio(series):
    """The ratio over the pairs where neither run is marked unstable."""
    dev, rep = [], []
    for (v, e, *_), (w, f, *_) in zip(series, series[1:]):
        if e < UNSTABLE_PCT and f < UNSTABLE_PCT:
            dev.append(abs(w - v) / v)
            rep.append(e / 100)
    if not dev or statistics.median(rep) <= 0:
        return float("nan"), len(dev)
    return statistics.median(dev) / statistics.median(rep), len(dev)


def score(series):
    """series: [(value, err_pct)] in run order -> (hit rate, ratio)."""
    hits, dev, rep = 0, [], []
    for (v, e, *_), (w, *_) in zip(series, series[1:]):
        d = abs(w - v) / v
        hits += d <= e / 100
        dev.append(d)
        rep.append(e / 100)
    n = len(dev)
    r = statistics.median(dev) / statistics.median(rep) if statistics.median(rep) > 0 else float("inf")
    return hits / n if n else float("nan"), r, 100 * statistics.median(dev), statistics.median(rep) * 100


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default="build")
    ap.add_argument("-r", "--runs", type=int, default=30)
    ap.add_argument("--passes", type=int, default=1)
    ap.add_argument("-w", "--workloads", default=",".join(WORKLOADS))
    a = ap.parse_args()
    exe = os.path.join(a.build, "bench", "selfbench", "fb_selfbench")
    if not os.access(exe, os.X_OK):
        sys.exit("no %s: build femtobench first" % exe)
    wls = a.workloads.split(",")
    load0, t0 = os.getloadavg()[0], time.time()
    within = {w: [] for w in wls}
    between = {w: [] for w in wls}
    for _ in range(a.runs):
        for w in wls:
            x, y = one(exe, w, a.passes)
            within[w].append(x)
            if y:
                between[w].append(y)
    load1 = os.getloadavg()[0]
    print("%d runs per workload, %s, load average %.1f -> %.1f, %.0f s, %s" % (
        a.runs, "%d passes each" % a.passes if a.passes > 1 else "one pass", load0, load1,
        time.time() - t0, time.strftime("%H:%M UTC", time.gmtime(t0))))
    print()
    print("| workload | error | median reported | median actual next-run deviation | hit rate (goal ~0.5) "
          "| ratio (goal 0.67..1.5) | ratio, unmarked pairs | runs marked unstable |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for w in wls:
        for label, s in (("err% (within run)", within[w]), ("between passes", between[w])):
            if len(s) < 2:
                continue
            hit, ratio, dev, rep = score(s)
            um, pairs = unmarked_ratio(s)
            marked = sum(1 for x in s if x[1] >= UNSTABLE_PCT)
            print("| %s | %s | %.3f%% | %.3f%% | %.2f | %.2f | %.2f (%d pairs) | %d of %d |" % (
                w, label, rep, dev, hit, ratio, um, pairs, marked, len(s)))
    # the core probe (docs/design.md, "Slow episodes of the core"): the
    # values of runs marked :snail: against the others
    print()
    print("| workload | runs marked slow | median value, marked (ns) | median value, unmarked (ns) | marked / unmarked |")
    print("|---|---:|---:|---:|---:|")
    for w in wls:
        slow = [v * 1e9 for v, _, s in within[w] if s]
        fast = [v * 1e9 for v, _, s in within[w] if not s]
        ms = statistics.median(slow) if slow else float("nan")
        mf = statistics.median(fast) if fast else float("nan")
        print("| %s | %d of %d | %.3f | %.3f | %.2f |" % (w, len(slow), len(within[w]), ms, mf,
                                                        ms / mf if slow and fast else float("nan")))


if __name__ == "__main__":
    main()
