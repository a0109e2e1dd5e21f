#!/usr/bin/env python3
"""Fits the floor between processes on held-out data (docs/baselines.md, "One
process a side: the floor").

    tools/floor_fit.py collect --bench EXE --runs 80 --dir DIR [--busy 4] [--flags "-quiet"]
    tools/floor_fit.py fit --compare FEMTOBENCH-COMPARE DIR [DIR ...]
    tools/floor_fit.py check --bench EXE --pairs 40 [--busy 4] [--flags "-quiet"]
    tools/floor_fit.py errpct DIR [DIR ...]

collect: runs the benchmark program RUNS times, one process after the other,
each writing DIR/pK.json (femtobench JSON), with the load average before and
after in DIR/load.txt. --busy N keeps N spinning shell loops running for the
whole collection (`while :; do :; done`), killed at the end.

fit: in each DIR, pairs the processes (p0, p1), (p2, p3), ... and compares
each pair with femtobench-compare (one process a side). For each pair it
undoes the current floor's widening of the printed intervals and takes how
far the change lay outside its own one-process interval (the Mann-Whitney
interval widened by err%), the largest over the pair's benchmarks: the
smallest floor that leaves the pair without a `faster`/`slower`/`same` at any
threshold. The pairs of each DIR are split in two halves (first half: fit;
second: held out); the floor is twice the largest excess over the fit halves
of all DIRs, as a ratio (2 (1 + e) - 1, rounded up to a whole 100%: the excess
is heavy-tailed, the largest of 60 pairs alone did not hold out), and the
held-out halves are then scored against it.
"""
import argparse
import math
import os
import re
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from baseline_check import FLOOR, loadavg, table  # noqa: E402


def collect(args):
    os.makedirs(args.dir, exist_ok=True)
    spinners = [subprocess.Popen(["sh", "-c", "while :; do :; done"]) for _ in range(args.busy)]
    try:
        before = loadavg()
        for k in range(args.runs):
            subprocess.run([args.bench, *args.flags.split(),
                            "-output_json=" + os.path.join(args.dir, "p%d.json" % k)],
                           check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        after = loadavg()
    finally:
        for s in spinners:
            s.kill()
            s.wait()
    with open(os.path.join(args.dir, "load.txt"), "w") as f:
        f.write("busy %d; load average before: %s; after: %s\n" % (args.busy, before, after))
    print("%s: %d runs, busy %d, load %s -> %s" % (args.dir, args.runs, args.busy, before, after))


def excess(compare, a, b):
    """{benchmark: % outside its own one-process interval} of one pair."""
    fl = FLOOR / 100
    out = {}
    for n, (v, c, lo, hi) in table([compare, a, b]).items():
        if lo != lo:
            continue
        lo0, hi0 = (1 + lo / 100) * (1 + fl) - 1, (1 + hi / 100) / (1 + fl) - 1
        out[n] = 100 * max(0.0, lo0, -hi0 / (1 + hi0) if hi0 < 0 else 0.0)
    return out


def fit(args):
    halves = []  # (dir, [pair excess dicts] fit, [...] held out)
    for d in args.dirs:
        runs = sorted((f for f in os.listdir(d) if re.match(r"p\d+\.json$", f)),
                      key=lambda f: int(f[1:-5]))
        pairs = [excess(args.compare, os.path.join(d, runs[i]), os.path.join(d, runs[i + 1]))
                 for i in range(0, len(runs) - 1, 2)]
        h = len(pairs) // 2
        halves.append((d, pairs[:h], pairs[h:]))
    worst = {}
    for d, fitp, _ in halves:
        for p in fitp:
            for n, e in p.items():
                worst[n] = max(worst.get(n, 0.0), e)
    largest = max(worst.values()) if worst else 0.0
    print("fit halves: largest excess per benchmark")
    for n, e in sorted(worst.items(), key=lambda kv: -kv[1]):
        print("  %-28s %7.1f%%" % (n, e))
    # the excess is heavy-tailed (a process preempted for most of a run's
    # epochs lands anywhere), so the largest of the fit halves alone does not
    # hold out: the floor doubles it as a ratio, rounded up to 100%
    floor = 100 * math.ceil((2 * (1 + largest / 100) - 1)) if worst else 0.0
    print("largest over the fit halves: %.1f%%; floor (twice that as a ratio, rounded up to "
          "100%%): %.0f%%" % (largest, floor))
    for d, fitp, held in halves:
        load = open(os.path.join(d, "load.txt")).read().strip() if os.path.exists(
            os.path.join(d, "load.txt")) else "?"
        bad = [max(p.values()) for p in held if p and max(p.values()) > floor]
        mx = [max(p.values()) for p in held if p]
        print("%s (%s): fit %d pairs (largest %.1f%%), held out %d pairs: %d above the floor "
              "(largest held-out excess %.1f%%, median %.1f%%)"
              % (d, load, len(fitp), max((max(p.values()) for p in fitp if p), default=0),
                 len(held), len(bad), max(mx, default=0), statistics.median(mx) if mx else 0))


def check(args):
    """PAIRS times: the program saves a baseline, then runs against it
    (`-baseline`, one process a side); counts the pairs with any verdict
    other than `unsure` (the summary line's counts)."""
    import tempfile
    spinners = [subprocess.Popen(["sh", "-c", "while :; do :; done"]) for _ in range(args.busy)]
    verdicts = 0
    rows = {"faster": 0, "slower": 0, "same": 0, "unsure": 0}
    try:
        before = loadavg()
        with tempfile.TemporaryDirectory(prefix="fb-floor-check.") as tmp:
            base = os.path.join(tmp, "base.json")
            for k in range(args.pairs):
                subprocess.run([args.bench, *args.flags.split(), "-output_json=" + base],
                               check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                p = subprocess.run([args.bench, *args.flags.split(), "-baseline=" + base],
                                   capture_output=True, text=True)
                m = re.search(r"against the baseline \(threshold [^)]*\): (\d+) faster, (\d+) "
                              r"slower, (\d+) same, (\d+) unsure", p.stdout + p.stderr)
                if not m:
                    sys.exit("no summary line: %s" % (p.stdout + p.stderr)[-500:])
                c = [int(x) for x in m.groups()]
                for name, x in zip(("faster", "slower", "same", "unsure"), c):
                    rows[name] += x
                verdicts += bool(c[0] or c[1] or c[2])
        after = loadavg()
    finally:
        for s in spinners:
            s.kill()
            s.wait()
    print("busy %d, load %s -> %s: %d of %d pairs with a verdict; rows: %s"
          % (args.busy, before, after, verdicts, args.pairs, rows))


def errpct(args):
    """err% against the next process, from the files `collect` wrote: per
    benchmark, the median over consecutive processes of |next median / this
    median - 1| over the median err% (1 is calibrated), and the fraction of
    next processes within +-err% (err% is a 50% band: 0.5 is calibrated)."""
    import json
    for d in args.dirs:
        runs = sorted((f for f in os.listdir(d) if re.match(r"p\d+\.json$", f)),
                      key=lambda f: int(f[1:-5]))
        docs = [json.load(open(os.path.join(d, f))) for f in runs]
        per = {}
        for a, b in zip(docs, docs[1:]):
            nxt = {r["name"]: r for r in b["results"] if not r.get("error")}
            for r in a["results"]:
                if r.get("error") or r["name"] not in nxt:
                    continue
                m0, m1 = r["stats"]["elapsed"]["median"], nxt[r["name"]]["stats"]["elapsed"]["median"]
                p = per.setdefault(r["name"], ([], [], []))
                p[0].append(100 * abs(m1 / m0 - 1))
                p[1].append(r["stats"]["elapsed"]["err_pct"])
                p[2].append(m0 / r["batch"])
        load = open(os.path.join(d, "load.txt")).read().strip() if os.path.exists(
            os.path.join(d, "load.txt")) else "?"
        print("%s (%s)" % (d, load))
        print("| benchmark | time per unit | err% (median) | next process (median) | ratio | hit |")
        print("|---|---:|---:|---:|---:|---:|")
        ratios = []
        for n, (act, cl, t) in sorted(per.items(), key=lambda kv: statistics.median(kv[1][2])):
            ma, mc = statistics.median(act), statistics.median(cl)
            hit = sum(x <= c for x, c in zip(act, cl)) / len(act)
            r = ma / mc if mc else float("inf")
            ratios.append(r)
            print("| %s | %.3g ns | %.2f%% | %.2f%% | %.2f | %.2f |"
                  % (n, statistics.median(t) * 1e9, mc, ma, r, hit))
        print("ratio %.2f-%.2f (median %.2f); within 0.67-1.5: %d of %d"
              % (min(ratios), max(ratios), statistics.median(ratios),
                 sum(0.67 <= x <= 1.5 for x in ratios), len(ratios)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("collect")
    c.add_argument("--bench", required=True)
    c.add_argument("--runs", type=int, default=80)
    c.add_argument("--dir", required=True)
    c.add_argument("--busy", type=int, default=0)
    c.add_argument("--flags", default="-quiet")
    f = sub.add_parser("fit")
    f.add_argument("--compare", required=True)
    f.add_argument("dirs", nargs="+")
    k = sub.add_parser("check")
    k.add_argument("--bench", required=True)
    k.add_argument("--pairs", type=int, default=40)
    k.add_argument("--busy", type=int, default=0)
    k.add_argument("--flags", default="-quiet")
    e = sub.add_parser("errpct")
    e.add_argument("dirs", nargs="+")
    args = ap.parse_args()
    {"collect": collect, "fit": fit, "check": check, "errpct": errpct}[args.cmd](args)


if __name__ == "__main__":
    main()
