#!/usr/bin/env python3
"""Are -valgrind's counts deterministic? Runs the demo suite under -valgrind
three times: twice on a quiet machine, once while another process keeps the
other core busy (the demo suite timing itself in a loop), and compares every
result's counts (per iteration and Callgrind's raw totals) across the runs.
Prints a markdown table for docs/valgrind.md and exits 1 on any difference.

    python3 tools/valgrind_determinism.py --build build [--cache]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time


def run_suite(demo, extra, path):
    t0 = time.monotonic()
    p = subprocess.run([demo, *extra, "-quiet", f"-output_json={path}"], capture_output=True,
                       text=True, timeout=600)
    wall = time.monotonic() - t0
    if p.returncode != 0:
        sys.exit(f"{demo} {' '.join(extra)}: exit status {p.returncode}\n{p.stderr}")
    doc = json.load(open(path))
    return wall, {r["name"]: r for r in doc["results"]}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("--cache", action="store_true", help="use -valgrind=cache")
    a = ap.parse_args()
    demo = os.path.join(a.build, "bench", "femtobench-demo")
    opt = "-valgrind=cache" if a.cache else "-valgrind"
    runs, walls = [], []
    with tempfile.TemporaryDirectory() as d:
        for i, busy in enumerate((False, False, True)):
            load = None
            if busy:  # the other core: the demo suite timing itself, over and over
                load = subprocess.Popen(["sh", "-c", f"while :; do {demo} -quiet >/dev/null; done"])
                time.sleep(0.5)
            try:
                wall, res = run_suite(demo, [opt], os.path.join(d, f"r{i}.json"))
            finally:
                if load:
                    load.terminate()
                    load.wait()
            runs.append(res)
            walls.append(wall)
    names = sorted(runs[0])
    measures = ["instructions"] + (["l1_misses", "ll_misses", "branches", "branch_misses"]
                                   if a.cache else [])
    print(f"`{opt}`, demo suite, 3 runs (the third with the other core busy); per unit:\n")
    print("| benchmark | unit | n1, n2 | " + " | ".join(measures) + " | identical in all 3 |")
    print("|---|---|---|" + "---:|" * len(measures) + "---|")
    same_all = True
    for n in names:
        vgs = [r[n]["valgrind"] for r in runs]
        same = all(v == vgs[0] for v in vgs)
        same_all &= same
        batch = runs[0][n]["batch"]
        cells = [f"{vgs[0]['per_iteration'].get(m, float('nan')) / batch:,.4f}" for m in measures]
        print(f"| {n} | {runs[0][n]['unit']} | {vgs[0]['iterations'][0]}, "
              f"{vgs[0]['iterations'][1]} | " + " | ".join(cells) + f" | {'yes' if same else 'NO'} |")
    print(f"\nwall time of each run: {', '.join(f'{w:.1f} s' for w in walls)} "
          f"(load average now: {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs)")
    if not same_all:
        print("DIFFERENCES: see the rows marked NO", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
