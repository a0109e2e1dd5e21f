#!/usr/bin/env python3
"""The slow-core mark against best-of-N (docs/performance.md, "The slow-core mark").

Runs bench/selfbench's fb_selfbench on its fast workloads, one process at a
time, N processes, each writing its JSON. A row is *slow* when its median is
more than --tolerance (3%) above the best median of the same benchmark over
all N processes (best-of-N: the reference that needs no tool). A row is
*marked* when its probe says slow. Prints, with the load average before and
after:

  - precision (marked rows that were slow) and recall (slow rows that were
    marked) of the mark as the library set it (`probe.slow`), and of other
    rules computed from the recorded probe values (before, after, either,
    both, at several thresholds), so a rule can be chosen from one recording;
  - how many rows were measured again after a slow episode (`remeasured`);
  - the wall time and the CPU time (user + sys: what an idle machine would
    take) per process and per benchmark (median, max).

    python3 tools/probe_marks.py --build build -n 50
    python3 tools/probe_marks.py -n 50 --exe /tmp/old/fb_selfbench   # another build
"""
import argparse
import json
import os
import resource
import statistics
import subprocess
import tempfile
import time

FAST = ["add64", "fast", "memcpy4k", "siphash"]


def run_one(exe, path, names):
    env = dict(os.environ, FEMTOBENCH_SUPPRESS_WARNINGS="1")
    env.pop("FEMTOBENCH_CONFIG", None)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    subprocess.run([exe, "-filter=^(" + "|".join(names) + ")$", "-output_json=" + path],
                   check=True, capture_output=True, env=env)
    wall = time.monotonic() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    with open(path) as f:
        doc = json.load(f)
    rows = []
    for r in doc["results"]:
        if r.get("error"):
            continue
        p = r.get("probe") or {}
        rows.append({"name": r["name"], "median": r["stats"]["elapsed"]["median"],
                     "before": p.get("before"), "after": p.get("after"),
                     "slow": bool(p.get("slow")), "remeasured": p.get("remeasured", 0)})
    return rows, wall, cpu


def rate(hits, n):
    return f"{100.0 * hits / n:.0f}% ({hits}/{n})" if n else "- (0/0)"


def evaluate(rows, label, marked):
    tp = sum(1 for r in rows if r["is_slow"] and marked(r))
    n_marked = sum(1 for r in rows if marked(r))
    n_slow = sum(1 for r in rows if r["is_slow"])
    print(f"| {label} | {rate(tp, n_marked)} | {rate(tp, n_slow)} | {n_marked} |")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default="build")
    ap.add_argument("-n", type=int, default=50, help="processes (rows = n x benchmarks)")
    ap.add_argument("--tolerance", type=float, default=0.03)
    ap.add_argument("--names", default=",".join(FAST))
    ap.add_argument("--exe", help="the fb_selfbench to run (default: the build's)")
    args = ap.parse_args()
    exe = args.exe or os.path.join(args.build, "bench", "selfbench", "fb_selfbench")
    names = args.names.split(",")
    load0 = os.getloadavg()[0]
    rows, walls, cpus = [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(args.n):
            got, wall, cpu = run_one(exe, os.path.join(tmp, f"r{i}.json"), names)
            rows += got
            walls.append(wall)
            cpus.append(cpu)
    load1 = os.getloadavg()[0]
    best = {}
    for r in rows:
        best[r["name"]] = min(best.get(r["name"], float("inf")), r["median"])
    for r in rows:
        r["is_slow"] = r["median"] > (1 + args.tolerance) * best[r["name"]]
    n_slow = sum(r["is_slow"] for r in rows)
    print(f"{len(rows)} rows from {args.n} processes ({', '.join(names)}); load average "
          f"{load0:.1f} before, {load1:.1f} after, on {os.cpu_count()} CPUs")
    print(f"slow rows (> {100 * args.tolerance:.0f}% above the benchmark's best of {args.n}): "
          f"{n_slow}; measured again after a slow episode: {sum(r['remeasured'] > 0 for r in rows)}")
    per_bench = [w / len(names) for w in walls]
    print(f"wall per process: median {1000 * statistics.median(walls):.1f} ms, max "
          f"{1000 * max(walls):.1f} ms; per benchmark: median {1000 * statistics.median(per_bench):.1f} ms")
    # CPU time (user + sys) is what the process would take on an idle machine;
    # wall time on a loaded one includes the time other processes had the CPU
    per_cpu = [c / len(names) for c in cpus]
    print(f"CPU per process: median {1000 * statistics.median(cpus):.1f} ms, max {1000 * max(cpus):.1f} ms; "
          f"per benchmark: median {1000 * statistics.median(per_cpu):.1f} ms, max {1000 * max(per_cpu):.1f} ms")
    print("| rule | precision | recall | marked |")
    print("|---|---:|---:|---:|")
    evaluate(rows, "the library's mark (`probe.slow`)", lambda r: r["slow"])

    def val(x):
        return x if isinstance(x, (int, float)) else 0.0

    for thr in (1.1, 1.2, 1.4, 1.6):
        evaluate(rows, f"before >= {thr}", lambda r, t=thr: val(r["before"]) >= t)
        evaluate(rows, f"after >= {thr}", lambda r, t=thr: val(r["after"]) >= t)
        evaluate(rows, f"either >= {thr}", lambda r, t=thr: max(val(r["before"]), val(r["after"])) >= t)
        evaluate(rows, f"both >= {thr}", lambda r, t=thr: min(val(r["before"]), val(r["after"])) >= t)
    for name in names:
        sub = [r for r in rows if r["name"] == name]
        if sub:
            print(f"{name}: {sum(r['is_slow'] for r in sub)} of {len(sub)} slow; "
                  f"median/best {statistics.median(r['median'] for r in sub) / best[name]:.3f}")


if __name__ == "__main__":
    main()
