#!/usr/bin/env python3
"""Complexity verdicts on real runs (docs/complexity.md).

Builds tools/complexity_workloads.c (a constant plus a linear part, and a
merge sort) against a femtobench build, runs each workload R times with the
runner's -asymptote (one process per run, the workloads interleaved), and
counts the verdicts from the femtobench JSON: the right model alone, an
honest "not separated" that includes it, or wrong.

    cmake -S . -B build -DCMAKE_BUILD_TYPE=Release && cmake --build build -j2
    python3 tools/complexity_check.py --build build -r 20

The binary is built in a temporary directory, never in the tree.
"""
import argparse
import collections
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
WORKLOADS = {
    # name: (N list, the right model)
    "ConstLinear": ("100,200,400,800,1600,3200,6400", "O(n)"),
    "MergeSort": ("500,1000,2000,4000,8000,16000", "O(n log n)"),
}


def build(build_dir, out_dir):
    lib = os.path.join(build_dir, "libfemtobench.a")
    if not os.path.exists(lib):
        sys.exit("no %s: build femtobench first" % lib)
    exe = os.path.join(out_dir, "cx_workloads")
    subprocess.run(["cc", "-O2", "-std=c11", "-I", os.path.join(ROOT, "include"),
                    "-I", os.path.join(ROOT, "bench"),
                    os.path.join(HERE, "complexity_workloads.c"), lib, "-lm", "-lpthread",
                    "-o", exe], check=True)
    return exe


def verdict(exe, name, ns, out_dir):
    path = os.path.join(out_dir, name + ".json")
    subprocess.run([exe, "-filter=" + name, "-asymptote=" + ns, "-quiet",
                    "-output_json=" + path], check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    with open(path) as f:
        doc = json.load(f)
    for c in doc["complexity"]:
        if c["name"] == name:
            return c.get("verdict"), c.get("candidates") or [], c["fits"][0]["model"]
    return None, [], None


def classify(right, v, candidates, first):
    if v == "model" and first == right:
        return "right"
    if v == "not_separated" and right in candidates:
        return "not separated, includes it"
    return "wrong"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("-r", "--runs", type=int, default=20)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        exe = build(a.build, tmp)
        tally = {w: collections.Counter() for w in WORKLOADS}
        shown = {w: collections.Counter() for w in WORKLOADS}
        for _ in range(a.runs):
            for name, (ns, right) in WORKLOADS.items():
                v, cands, first = verdict(exe, name, ns, tmp)
                tally[name][classify(right, v, cands, first)] += 1
                shown[name][v + ": " + " or ".join(cands) if v else "none"] += 1
    print("| workload | N | right model | right alone | not separated, includes it | wrong | verdicts |")
    print("|---|---|---|---:|---:|---:|---|")
    ok = True
    for name, (ns, right) in WORKLOADS.items():
        t = tally[name]
        good = t["right"] + t["not separated, includes it"]
        ok = ok and good * 20 >= a.runs * 19
        print("| %s | %s | %s | %d | %d | %d | %s |" % (
            name, ns, right, t["right"], t["not separated, includes it"], t["wrong"],
            "; ".join("%s x%d" % kv for kv in shown[name].most_common())))
    print("goal (right or honest in >= 19 of 20): %s" % ("met" if ok else "NOT met"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
