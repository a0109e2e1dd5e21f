#!/usr/bin/env python3
"""A busy machine: femtobench's values with and without two busy loops.

Runs bench/selfbench's busy_fb (femtobench) and busy_gb (Google Benchmark),
fixed-work ops from ~0.3 ns to ~1 ms (bench/selfbench/busy_ops.h), N processes
each, first on the machine as found, then with one busy loop per CPU (two on
these 2-vCPU guests: `while :; do :; done`), killed afterwards. For each op it
prints the median over processes of:

  - femtobench's value (wall-clock median per unit) with the default run,
    -min_time=200 and --benchmark_min_time=0.05s, and each one's ratio to the
    default run's value as found;
  - femtobench's CPU time per unit, and Google Benchmark's cpu_time (per unit)
    and real_time as found and under load; femtobench's CPU time over GB's;
  - for the thread group (1, 2, 4 threads of a ~1 us op): the wall time per op
    and the CPU time per op and thread, and their ratios to 1 thread.

    cmake -S . -B build -DCMAKE_BUILD_TYPE=Release && cmake --build build -j2
    python3 tools/busy_check.py --build build -n 3

docs/performance.md ("A busy machine") has a run of it. Nothing here asserts:
the figures are read by a person.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

OPS = ["add1", "chain32", "hash16", "mul1us", "mul100us", "mul1ms"]
THREADS = ["mul1us_threads/threads:1", "mul1us_threads/threads:2", "mul1us_threads/threads:4"]
MODES = [("default", []), ("-min_time=200", ["-min_time=200"]),
         ("--benchmark_min_time=0.05s", ["--benchmark_min_time=0.05s"])]
UNIT_BATCH = {"hash16": 16}  # GB reports per call; femtobench per byte


def loadavg():
    try:
        with open("/proc/loadavg") as f:
            return float(f.read().split()[0])
    except OSError:
        return float("nan")


def run_fb(exe, extra):
    out = subprocess.run([exe, "-quiet", "-output_json=-", *extra], capture_output=True,
                         text=True, timeout=600)
    doc = json.loads(out.stdout)
    vals = {}
    for r in doc.get("results", []):
        if r.get("error"):
            continue
        st, batch = r["stats"], r.get("batch", 1) or 1
        wall = st["elapsed"]["median"] / batch * 1e9
        cpu = st["cputime"]["median"] / batch * 1e9 if "cputime" in st else float("nan")
        vals[r["name"]] = (wall, cpu, bool(r.get("descheduled")))
    return vals


def run_gb(exe):
    out = subprocess.run([exe, "--benchmark_format=json"], capture_output=True, text=True,
                         timeout=600)
    doc = json.loads(out.stdout)
    vals = {}
    for b in doc.get("benchmarks", []):
        name = b["name"]
        if "/threads:" not in name:
            name = name.split("/")[0]
        k = UNIT_BATCH.get(name, 1)
        vals[name] = (b["real_time"] / k, b["cpu_time"] / k)
    return vals


def med(xs):
    xs = [x for x in xs if x == x]
    return statistics.median(xs) if xs else float("nan")


def measure(fb, gb, n):
    runs = {m: [] for m, _ in MODES}
    gbs = []
    loads = []
    for _ in range(n):
        for m, extra in MODES:
            loads.append(loadavg())
            runs[m].append(run_fb(fb, extra))
        if gb:
            gbs.append(run_gb(gb))
    res = {"load": (min(loads), max(loads))}
    for name in OPS + THREADS:
        for m, _ in MODES:
            res[(m, name)] = (med([r[name][0] for r in runs[m] if name in r]),
                              med([r[name][1] for r in runs[m] if name in r]),
                              sum(r[name][2] for r in runs[m] if name in r))
        res[("gb", name)] = (med([g[name][0] for g in gbs if name in g]),
                             med([g[name][1] for g in gbs if name in g]))
    return res


def fmt(v):
    if v != v:
        return "-"
    return f"{v:,.3g}" if v < 1000 else f"{v:,.0f}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build")
    ap.add_argument("-n", type=int, default=3)
    ap.add_argument("--loops", type=int, default=os.cpu_count() or 2)
    a = ap.parse_args()
    fb = os.path.join(a.build, "bench", "selfbench", "busy_fb")
    gb = os.path.join(a.build, "bench", "selfbench", "busy_gb")
    if not os.path.exists(gb):
        gb = None
    quiet = measure(fb, gb, a.n)
    loops = [subprocess.Popen(["sh", "-c", "while :; do :; done"]) for _ in range(a.loops)]
    try:
        time.sleep(2)
        busy = measure(fb, gb, a.n)
    finally:
        for p in loops:
            p.kill()
            p.wait()
    print(f"as found: load {quiet['load'][0]:.1f}-{quiet['load'][1]:.1f}; with {a.loops} busy "
          f"loops: load {busy['load'][0]:.1f}-{busy['load'][1]:.1f}; {a.n} processes each, "
          "medians (ns per unit)\n")
    print("| op | as found, default | loaded: default | -min_time=200 | "
          "--benchmark_min_time=0.05s | fb CPU as found / loaded | GB cpu_time as found / "
          "loaded | fb CPU / GB cpu_time, loaded | GB real_time, loaded |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name in OPS + THREADS:
        q = quiet[("default", name)][0]
        cells = [fmt(q)]
        for m, _ in MODES:
            w, _, d = busy[(m, name)]
            cells.append(f"{fmt(w)} ({w / q:.2f}x{', marked ' + str(d) if d else ''})")
        qc, bc = quiet[("default", name)][1], busy[("default", name)][1]
        gq, gl = quiet[("gb", name)], busy[("gb", name)]
        cells.append(f"{fmt(qc)} / {fmt(bc)}")
        cells.append(f"{fmt(gq[1])} / {fmt(gl[1])}")
        cells.append(f"{bc / gl[1]:.3f}" if gl[1] == gl[1] else "-")
        cells.append(fmt(gl[0]))
        print(f"| {name} | " + " | ".join(cells) + " |")
    print("\nthreads (loaded, default run): ratio to 1 thread")
    one = busy[("default", THREADS[0])]
    oneq = quiet[("default", THREADS[0])]
    for name in THREADS:
        w, c, _ = busy[("default", name)]
        wq, cq, _ = quiet[("default", name)]
        print(f"- {name}: wall/op {fmt(w)} ({w / one[0]:.2f}x; as found {wq / oneq[0]:.2f}x), "
              f"CPU/op a thread {fmt(c)} ({c / one[1]:.3f}x; as found {cq / oneq[1]:.3f}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
