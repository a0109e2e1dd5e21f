#!/usr/bin/env python3
"""Measures the change table's verdicts on this machine (docs/baselines.md).

    tools/baseline_check.py [--build build] [--reps 20] [--thresholds 5,10,15]
                            [--filter REGEX] [--min-time MS] [--wrap "chrt -f 50"]

Builds two copies of the demo suite from bench/ against BUILD's library with
the same compiler command: A as it is, B with -DFBH_DEMO_D64_BLOCKS=1280
(SHA256D64_1024 does 25% more work per call at the same batch). Then, REPS
times, runs A, A, B one after the other and compares with femtobench-compare:

  same binary   A vs the next A: any `faster` or `slower` verdict is false;
  slower build  A vs the next B: SHA256D64_1024 must be `slower`, and no
                other benchmark `faster` or `slower`.

Prints, per threshold, how many repetitions passed each check, and the
median change femtobench measured for SHA256D64_1024 between A and B (the
real size of the regression on this machine). Load averages before and after
are printed because the machine may be shared. --wrap runs each benchmark
process under a command (e.g. `chrt -f 50` keeps other processes' time
slices off the measuring CPU; it needs the privilege to do so).
"""
import argparse
import os
import re
import shlex
import statistics
import subprocess
import sys
import tempfile

SLOW = "SHA256D64_1024"


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


def verdicts(compare, old, new, threshold):
    p = subprocess.run([compare, old, new, "-threshold=%g" % threshold],
                       capture_output=True, text=True)
    if p.returncode not in (0, 1):
        sys.exit("femtobench-compare failed (%d): %s" % (p.returncode, p.stderr.strip()))
    out = {}
    for line in p.stdout.splitlines():
        cells = [c.strip() for c in line.split("|")]
        if len(cells) < 7 or cells[5] in ("verdict", "") or cells[5].startswith(":"):
            continue
        name = re.sub(r"^`+\s?|\s?`+.*$", "", cells[6])
        change = float(cells[3].rstrip("%")) if cells[3].endswith("%") else float("nan")
        out[name] = (cells[5], change)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--thresholds", default="5,10,15")
    ap.add_argument("--filter")
    ap.add_argument("--min-time", type=float)
    ap.add_argument("--wrap", default="", help="command prefix for each benchmark run")
    args = ap.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    build_dir = os.path.abspath(args.build)
    compare = os.path.join(build_dir, "femtobench-compare")
    thresholds = [float(t) for t in args.thresholds.split(",")]
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
        print("load average before: %s; runs: %s" % (loadavg(), " ".join(wrap + ["DEMO"] + flags)))
        same_ok = {t: 0 for t in thresholds}
        slow_ok = {t: 0 for t in thresholds}
        slow_changes, same_changes = [], {}
        for rep in range(args.reps):
            files = []
            for k, exe in enumerate((a, a, b)):
                f = os.path.join(tmp, "r%d_%d.json" % (rep, k))
                subprocess.run([*wrap, exe, *flags, "-output_json=" + f], check=True,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                files.append(f)
            for t in thresholds:
                same = verdicts(compare, files[0], files[1], t)
                slow = verdicts(compare, files[1], files[2], t)
                if not any(v in ("faster", "slower") for v, _ in same.values()):
                    same_ok[t] += 1
                if slow.get(SLOW, ("?",))[0] == "slower" and not any(
                        v in ("faster", "slower") for n, (v, _) in slow.items() if n != SLOW):
                    slow_ok[t] += 1
                if t == thresholds[0]:
                    slow_changes.append(slow.get(SLOW, ("?", float("nan")))[1])
                    for n, (_, c) in same.items():
                        same_changes.setdefault(n, []).append(abs(c))
        print("load average after: %s" % loadavg())
        print("| threshold | same binary: no faster/slower | 25%% slower build: only %s slower |" % SLOW)
        print("|---:|---:|---:|")
        for t in thresholds:
            print("| %g%% | %d of %d | %d of %d |" % (t, same_ok[t], args.reps, slow_ok[t], args.reps))
        print("%s change A -> B (median over reps): %+.1f%%" % (SLOW, statistics.median(slow_changes)))
        print("same binary, |change| per benchmark: median / max over reps")
        for n, v in sorted(same_changes.items()):
            print("  %-18s %5.1f%% / %5.1f%%" % (n, statistics.median(v), max(v)))


if __name__ == "__main__":
    main()
