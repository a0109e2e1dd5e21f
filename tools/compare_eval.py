#!/usr/bin/env python3
"""The paired comparison, measured on the real clock (docs/compare.md).

Runs bench/selfbench/fb_compare_eval (femtobench's fb_compare / FB_COMPARE)
and, with --nanobench DIR, the same chains through nanobench 4.6's
Bench::compare() (bench/selfbench/nb_compare_eval.cpp, compiled here against
DIR/nanobench.h, outside the repository). Processes alternate between the
frameworks and modes, each making --per-process comparisons at the defaults:

  self    one function compared with itself under two names: how often the
          interval excludes 1 (false positives; the goal is <= 5%)
  copies  two inlined copies of that function (separately compiled code can
          differ for real, through alignment: reported, not judged)
  known   a dependent chain of 44 multiplies against 40: the true ratio is
          1.1; how often the interval covers it (the goal is >= 90%)

Reports per framework and mode: comparisons, rate, median interval width
(high / low - 1), median rounds, median wall time and CPU time (user + sys)
per comparison. CPU time is the figure to trust on a loaded machine; wall
time includes the time other processes had the CPU.

    cmake -S . -B build -DCMAKE_BUILD_TYPE=Release && cmake --build build -j2
    python3 tools/compare_eval.py --build build -n 100 --nanobench /tmp/nb-scratch
"""
import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

MODES = ["self", "copies", "known"]
TRUTH = {"self": 1.0, "copies": 1.0, "known": 1.1}


def build_nanobench(nb_dir, src_dir, out_dir):
    exe = os.path.join(out_dir, "nb_compare_eval")
    cmd = ["c++", "-std=c++17", "-O2", "-I", nb_dir, "-I", os.path.join(src_dir, "bench", "selfbench"),
           os.path.join(src_dir, "bench", "selfbench", "nb_compare_eval.cpp"), "-o", exe]
    subprocess.run(cmd, check=True)
    return exe


def run_one(exe, mode, count):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    out = subprocess.run([exe, mode, str(count)], check=True, capture_output=True, text=True).stdout
    wall = time.monotonic() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    rows = []
    for line in out.splitlines():
        ratio, low, high, sig, rounds, w = line.split()
        rows.append({"ratio": float(ratio), "low": float(low), "high": float(high), "sig": sig == "1",
                     "rounds": int(rounds), "wall": float(w)})
    return rows, wall, cpu


def summarize(name, mode, rows, cpu):
    n = len(rows)
    truth = TRUTH[mode]
    if mode == "known":
        hits = sum(r["low"] <= truth <= r["high"] for r in rows)
        rate = f"coverage {100.0 * hits / n:.1f}% ({hits}/{n})"
    else:
        hits = sum(r["sig"] for r in rows)
        rate = f"significant {100.0 * hits / n:.1f}% ({hits}/{n})"
    width = statistics.median(r["high"] / r["low"] - 1 for r in rows)
    ratio = statistics.median(r["ratio"] for r in rows)
    return (f"| {name} | {mode} | {rate} | {ratio:.4f} | {100 * width:.3f}% | "
            f"{statistics.median(r['rounds'] for r in rows):.0f} | "
            f"{1000 * statistics.median(r['wall'] for r in rows):.1f} | {1000 * cpu / n:.1f} |")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default="build")
    ap.add_argument("-n", type=int, default=100, help="comparisons per framework and mode")
    ap.add_argument("--per-process", type=int, default=10)
    ap.add_argument("--nanobench", help="a directory holding nanobench.h (4.6, with compare())")
    ap.add_argument("--modes", default=",".join(MODES))
    args = ap.parse_args()
    src = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    progs = {"femtobench": os.path.join(args.build, "bench", "selfbench", "fb_compare_eval")}
    if not os.path.exists(progs["femtobench"]):
        sys.exit(f"{progs['femtobench']} is not built")
    tmp = tempfile.mkdtemp(prefix="fb_compare_eval_")
    if args.nanobench:
        progs["nanobench"] = build_nanobench(args.nanobench, src, tmp)
    modes = args.modes.split(",")
    rows = {(f, m): [] for f in progs for m in modes}
    cpu = {(f, m): 0.0 for f in progs for m in modes}
    t0 = time.monotonic()
    while any(len(rows[k]) < args.n for k in rows):
        for m in modes:
            for f, exe in progs.items():
                k = min(args.per_process, args.n - len(rows[(f, m)]))
                if k <= 0:
                    continue
                got, _, c = run_one(exe, m, k)
                rows[(f, m)] += got
                cpu[(f, m)] += c
    try:
        load = os.getloadavg()[0]
    except OSError:
        load = float("nan")
    print(f"{len(rows)} series of {args.n} comparisons in {time.monotonic() - t0:.0f} s, "
          f"{args.per_process} per process, interleaved; load average {load:.1f} on {os.cpu_count()} CPUs")
    print("| framework | mode | rate | median ratio | median CI width | rounds | wall ms | CPU ms |")
    print("|---|---|---|---:|---:|---:|---:|---:|")
    for m in modes:
        for f in progs:
            print(summarize(f, m, rows[(f, m)], cpu[(f, m)]))
    for f in os.listdir(tmp):
        os.unlink(os.path.join(tmp, f))
    os.rmdir(tmp)


if __name__ == "__main__":
    main()
