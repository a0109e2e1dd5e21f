#!/usr/bin/env python3
"""hash16 side by side (docs/performance.md, "Why hash16 reads 7% under Google
Benchmark's cpu_time"): N rounds alternating, ns per byte, medians over the
rounds, of femtobench on bench/selfbench/busy_fb.c; Google Benchmark on
busy_gb.cpp (its defaults, and 20 repetitions of 0.01 s: their median and
fastest); and busy_gb.cpp built against femtobench's Google Benchmark header
(femtobench timing Google Benchmark's source):

    g++ -O3 -DNDEBUG -Iinclude/compat/gbench -Iinclude bench/selfbench/busy_gb.cpp \
        -o busy_gb_fb build/libfemtobench.a -lpthread
    python3 tools/hash16_sides.py build ./busy_gb_fb 7

Nothing here asserts: the figures are read by a person."""
import json
import statistics
import subprocess
import sys

B = sys.argv[1]
GBFB = sys.argv[2]
N = int(sys.argv[3]) if len(sys.argv) > 3 else 7
NAN = float("nan")


def fb(exe, args, k):
    """femtobench: (wall median, CPU median, fastest epoch's CPU), ns per
    byte; k: bytes per unit (16 for the compat build, which reports per call)."""
    out = subprocess.run([exe, "-quiet", "-output_json=-", *args], capture_output=True,
                         text=True).stdout
    r = [r for r in json.loads(out)["results"] if r["name"].startswith("hash16")][0]
    b = r.get("batch", 1) * k
    c = r["stats"].get("cputime", {}).get("median", NAN)
    ms = [m.get("cputime", m["elapsed"]) / b * 1e9 for m in r["measurements"]]
    return r["stats"]["elapsed"]["median"] / b * 1e9, c / b * 1e9, min(ms)


def gb(exe, extra=()):
    """Google Benchmark: (real_time, cpu_time, fastest cpu_time), medians
    over its repetitions, ns per byte (it reports per call of 16 bytes)."""
    out = subprocess.run([exe, "--benchmark_filter=^hash16$", "--benchmark_format=json",
                          *extra], capture_output=True, text=True).stdout
    runs = [b for b in json.loads(out)["benchmarks"]
            if b.get("run_type", "iteration") == "iteration"]
    cpu = [b["cpu_time"] / 16 for b in runs]
    return statistics.median(b["real_time"] / 16 for b in runs), statistics.median(cpu), min(cpu)


SETUPS = [
    ("femtobench, busy_fb.c", lambda: fb(B + "/bench/selfbench/busy_fb", ["-filter=^hash16$"], 1)),
    ("GB, busy_gb.cpp, defaults", lambda: gb(B + "/bench/selfbench/busy_gb")),
    ("GB, busy_gb.cpp, 20 reps of 0.01 s",
     lambda: gb(B + "/bench/selfbench/busy_gb",
                ["--benchmark_repetitions=20", "--benchmark_min_time=0.01"])),
    ("femtobench timing busy_gb.cpp (compat header)",
     lambda: fb(GBFB, ["--benchmark_filter=^hash16$"], 16)),
]
rows = {name: [] for name, _ in SETUPS}
for _ in range(N):
    for name, measure in SETUPS:
        rows[name].append(measure())
print("| setup | wall (median of runs) | CPU (median of runs) | fastest epoch or repetition | "
      "CPU of each run |")
print("|---|---:|---:|---:|---|")
for k, v in rows.items():
    print(f"| {k} | {statistics.median(x[0] for x in v):.3f} | "
          f"{statistics.median([x[1] for x in v]):.3f} | {min(x[2] for x in v):.3f} | "
          f"{' '.join(f'{x[1]:.3f}' for x in v)} |")
