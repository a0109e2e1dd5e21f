#!/usr/bin/env python3
"""Measures the change table's verdicts on this machine (docs/baselines.md).

    tools/baseline_check.py [--build build] [--reps 20] [--thresholds 5,10]
                            [--protocols one,reps,run] [--passes 5] [--pairs 10]
                            [--filter REGEX] [--min-time MS] [--wrap "chrt -f 50"]
                            [--busy] [--keep DIR]

Builds two copies of the demo suite from bench/ against BUILD's library with
the same compiler command: A as it is, B with -DFBH_DEMO_D64_BLOCKS=1280
(SHA256D64_1024 does 25% more work per call at the same batch). Then, REPS
times, for each protocol:

  one   A, A, B one process each, compared with femtobench-compare OLD NEW;
  reps  A, A, B with -repetitions=PASSES (each pass a fresh process),
        compared with femtobench-compare OLD NEW;
  run   femtobench-compare -run A A -pairs=PAIRS, then -run A B.

and checks:

  same binary   A vs A: any `faster` or `slower` verdict is false;
  slower build  A vs B: SHA256D64_1024 must be `slower`, and no other
                benchmark `faster` or `slower`.

Verdicts at each threshold are taken from the printed interval (the
interval does not depend on the threshold). It also prints:

  - the floor (protocol one): how far each same-binary pair's change lies
    outside its own one-process interval before the floor's widening; the
    largest is the smallest floor that gives no false verdict here;
  - the calibration (protocol reps): per benchmark, the median over reps of
    |next process / median over the passes - 1|, the next process being the
    first pass of the following A run, divided by the median of the claimed
    spread between passes (the runner's "between passes" column: the spread
    the next process is expected to have, 0.6745 s sqrt(1 + 1/n) with s the
    standard deviation of the logs of the n pass medians; src/stats/stats.c
    fb__next_spread_pct). 1 is ideal. The ratio against the former column
    (the MdAPE of the pass medians around their median) is printed beside.

Load averages before and after are printed because the machine may be
shared. --busy keeps one extra busy process running (a spinning Python
loop) for the whole measurement. --wrap runs each benchmark process under a
command.
"""
import argparse
import json
import math
import multiprocessing
import os
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile

SLOW = "SHA256D64_1024"
# src/outputs/change.h FB__CHANGE_PROCESS_FLOOR_PCT: the widening of a one-process interval
FLOOR = float(re.search(r"#define FB__CHANGE_PROCESS_FLOOR_PCT ([0-9.]+)",
                        open(os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                          "src", "outputs", "change.h")).read()).group(1))


def loadavg():
    try:
        with open("/proc/loadavg") as f:
            return " ".join(f.read().split()[:3])
    except OSError:
        return "?"


def build(root, build_dir, out, blocks):
    srcs = [os.path.join(root, "bench", f) for f in sorted(os.listdir(os.path.join(root, "bench")))
            if f.startswith("demo_") and f.endswith(".c")]
    srcs.append(os.path.join(root, "bench", "hashes.c"))
    cc = os.environ.get("CC", "cc")
    cmd = [cc, "-std=c11", "-O3", "-DNDEBUG", "-D_POSIX_C_SOURCE=200809L",
           "-DFBH_DEMO_D64_BLOCKS=%d" % blocks, "-I", os.path.join(root, "include"),
           "-I", os.path.join(root, "bench"), *srcs,
           os.path.join(build_dir, "libfemtobench.a"), "-lpthread", "-lm", "-o", out]
    subprocess.run(cmd, check=True)


def table(compare_args, threshold=10):
    """{benchmark: (verdict, change %, lo %, hi %)} from femtobench-compare."""
    p = subprocess.run(compare_args + ["-threshold=%g" % threshold], capture_output=True,
                       text=True)
    if p.returncode not in (0, 1):
        sys.exit("femtobench-compare failed (%d): %s" % (p.returncode, p.stderr.strip()))
    out = {}
    for line in p.stdout.splitlines():
        cells = [c.strip() for c in line.split("|")]
        if len(cells) < 7 or cells[5] in ("verdict", "") or cells[5].startswith(":"):
            continue
        name = re.sub(r"^`+\s?|\s?`+.*$", "", cells[6])
        pct = lambda t: float(t.rstrip("%").replace("inf", "1e9"))
        change = pct(cells[3]) if cells[3].endswith("%") else float("nan")
        m = re.match(r"\[(.*), (.*)\]", cells[4])
        lo, hi = (pct(m.group(1)), pct(m.group(2))) if m else (float("nan"), float("nan"))
        out[name] = (cells[5], change, lo, hi)
    # the whole suite's line (the speed of each process, divided out of the
    # rows): a verdict like a row's
    m = re.search(r"^> whole suite: (\S+) \[(\S+), (\S+)\] (\w+)", p.stdout, re.M)
    if m:
        pct = lambda t: float(t.rstrip("%").replace("inf", "1e9"))
        out["(whole suite)"] = (m.group(4), pct(m.group(1)), pct(m.group(2)), pct(m.group(3)))
    return out


def verdict_at(row, t):
    v, _, lo, hi = row
    if v not in ("faster", "slower", "same", "unsure") or lo != lo:
        return v
    if lo > t:
        return "slower"
    if hi < -t:
        return "faster"
    if lo >= -t and hi <= t:
        return "same"
    return "unsure"


def pass_medians(path):
    """{benchmark: [per-process median per unit]} of a femtobench JSON."""
    d = json.load(open(path))
    out = {}
    for r in sorted(d["results"], key=lambda r: r.get("pass", 0)):
        if r.get("error") or "stats" not in r:
            continue
        out.setdefault(r["name"], []).append(r["stats"]["elapsed"]["median"] / r["batch"])
    return out


def mdape(v):
    m = statistics.median(v)
    return 100 * statistics.median([abs(x / m - 1) for x in v])


def next_spread(v):
    """The runner's "between passes" (src/stats/stats.c fb__next_spread_pct), in %."""
    if len(v) < 2:
        return 0.0
    lg = [math.log(x) for x in v]
    return 100 * math.expm1(0.6744897501960817 * statistics.stdev(lg) * math.sqrt(1 + 1 / len(v)))


def spin():
    while True:
        pass


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--thresholds", default="5,10")
    ap.add_argument("--protocols", default="one,reps,run")
    ap.add_argument("--passes", type=int, default=5)
    ap.add_argument("--pairs", type=int, default=10)
    ap.add_argument("--filter")
    ap.add_argument("--min-time", type=float)
    ap.add_argument("--busy", action="store_true")
    ap.add_argument("--wrap", default="", help="command prefix for each benchmark run")
    ap.add_argument("--keep", help="copy every JSON file written into this directory")
    args = ap.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    build_dir = os.path.abspath(args.build)
    compare = os.path.join(build_dir, "femtobench-compare")
    thresholds = [float(t) for t in args.thresholds.split(",")]
    protocols = args.protocols.split(",")
    busy = None
    if args.busy:
        busy = multiprocessing.Process(target=spin, daemon=True)
        busy.start()
    with tempfile.TemporaryDirectory(prefix="fb-baseline-check.") as tmp:
        a, b = os.path.join(tmp, "demo_a"), os.path.join(tmp, "demo_b")
        build(root, build_dir, a, 1024)
        build(root, build_dir, b, 1280)
        flags = ["-quiet"]
        if args.filter:
            flags.append("-filter=" + args.filter)
        if args.min_time is not None:
            flags.append("-min_time=%g" % args.min_time)
        wrap = shlex.split(args.wrap)
        print("load average before: %s; runs: %s%s" % (loadavg(), " ".join(wrap + ["DEMO"] + flags),
                                                      "; one extra busy process" if busy else ""))
        same_ok = {(p, t): 0 for p in protocols for t in thresholds}
        slow_ok = {(p, t): 0 for p in protocols for t in thresholds}
        slow_changes = {p: [] for p in protocols}
        floor_excess = {}
        calib = {}
        last_a = None

        def run(exe, f, extra=()):
            subprocess.run([*wrap, exe, *flags, *extra, "-output_json=" + f], check=True,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            if args.keep:
                os.makedirs(args.keep, exist_ok=True)
                shutil.copy(f, args.keep)
            return f

        def score(p, same, slow):
            for t in thresholds:
                if not any(verdict_at(r, t) in ("faster", "slower") for r in same.values()):
                    same_ok[(p, t)] += 1
                if SLOW in slow and verdict_at(slow[SLOW], t) == "slower" and not any(
                        verdict_at(r, t) in ("faster", "slower")
                        for n, r in slow.items() if n != SLOW):
                    slow_ok[(p, t)] += 1
            slow_changes[p].append(slow.get(SLOW, ("?", float("nan")))[1])

        for rep in range(args.reps):
            if "one" in protocols:
                f = [run(exe, os.path.join(tmp, "o%d_%d.json" % (rep, k)))
                     for k, exe in enumerate((a, a, b))]
                same = table([compare, f[0], f[1]])
                score("one", same, table([compare, f[1], f[2]]))
                # undo the floor's widening: how far outside its own interval
                # the same-binary change lies
                fl = FLOOR / 100
                for n, (v, c, lo, hi) in same.items():
                    if lo != lo:
                        continue
                    lo0, hi0 = (1 + lo / 100) * (1 + fl) - 1, (1 + hi / 100) / (1 + fl) - 1
                    ex = max(0.0, lo0, -hi0 / (1 + hi0) if hi0 < 0 else 0.0)
                    floor_excess.setdefault(n, []).append(100 * ex)
            if "reps" in protocols:
                rp = ["-repetitions=%d" % args.passes]
                f = [run(exe, os.path.join(tmp, "r%d_%d.json" % (rep, k)), rp)
                     for k, exe in enumerate((a, a, b))]
                score("reps", table([compare, f[0], f[1]]), table([compare, f[1], f[2]]))
                # calibration: the passes of one A run against the next process
                for prev, nxt in ((f[0], f[1]), (last_a, f[0])):
                    if prev is None:
                        continue
                    pm, nm = pass_medians(prev), pass_medians(nxt)
                    for n, v in pm.items():
                        if n in nm and len(v) >= 2:
                            m = statistics.median(v)
                            c = calib.setdefault(n, ([], [], []))
                            c[0].append(100 * abs(nm[n][0] / m - 1))
                            c[1].append(next_spread(v))
                            c[2].append(mdape(v))
                last_a = f[1]
            if "run" in protocols:
                k = ["-pairs=%d" % args.pairs, *flags]
                score("run", table([compare, "-run", a, a, *k]), table([compare, "-run", a, b, *k]))
            print("  rep %d done, load %s" % (rep + 1, loadavg()), file=sys.stderr, flush=True)
        print("load average after: %s" % loadavg())
        for p in protocols:
            name = {"one": "one process a side", "reps": "-repetitions=%d a side" % args.passes,
                    "run": "-run, %d pairs" % args.pairs}[p]
            print("\n%s:" % name)
            print("| threshold | same binary: no faster/slower | 25%% slower build: only %s slower |"
                  % SLOW)
            print("|---:|---:|---:|")
            for t in thresholds:
                print("| %g%% | %d of %d | %d of %d |" % (t, same_ok[(p, t)], args.reps,
                                                        slow_ok[(p, t)], args.reps))
            ch = [c for c in slow_changes[p] if c == c]
            if ch:
                print("%s change A -> B (median over reps): %+.1f%%" % (SLOW, statistics.median(ch)))
        if floor_excess:
            print("\nfloor (one process a side, same binary): how far the change lay outside its "
                  "own interval, max per benchmark")
            worst = 0
            for n, v in sorted(floor_excess.items()):
                worst = max(worst, max(v))
                print("  %-28s %6.1f%%" % (n, max(v)))
            print("  largest: %.1f%% (FB__CHANGE_PROCESS_FLOOR_PCT is %g%%)" % (worst, FLOOR))
        if calib:
            print("\ncalibration: the next process's deviation from the median over %d passes, "
                  "against the claimed spread between passes (median over reps)" % args.passes)
            print("| benchmark | actual | claimed | ratio | MdAPE of the passes | ratio |")
            print("|---|---:|---:|---:|---:|---:|")
            inside = [0, 0]
            for n, (act, cl, md) in sorted(calib.items()):
                ma, mc, mm = statistics.median(act), statistics.median(cl), statistics.median(md)
                for k, c in enumerate((mc, mm)):
                    inside[k] += bool(c) and 0.67 <= ma / c <= 1.5
                r = lambda c: "%.2f" % (ma / c) if c else "-"
                print("| %s | %.1f%% | %.1f%% | %s | %.1f%% | %s |" % (n, ma, mc, r(mc), mm, r(mm)))
            print("ratio within 0.67-1.5: %d of %d (claimed), %d of %d (MdAPE of the passes)"
                  % (inside[0], len(calib), inside[1], len(calib)))
    if busy:
        busy.terminate()


if __name__ == "__main__":
    main()
