"""nanobench's API and Bitcoin Core's registration on femtobench
(include/compat/nanobench): tests/suite_nanobench_compat.cpp with Bitcoin
Core's runner flags (-list, -filter, -output_csv, -output_json, -asymptote),
and nanobench's Bench and Rng outside the runner. Skipped (77) when the build
has no C++ compiler (no suite program)."""
import csv
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fbtest  # noqa: E402

BUILD = os.environ.get("FB_BUILD_DIR", "build")
SUITE = os.path.join(BUILD, "tests", "suite_nanobench_compat")
check = fbtest.Checks()


if not os.path.exists(SUITE):
    print("no", SUITE, "(no C++ compiler): skipped")
    sys.exit(77)

p = subprocess.run([SUITE, "-list"], capture_output=True, text=True, timeout=60)
check(p.returncode == 0 and p.stdout.split() == ["Grow", "Sum"], "-list: %r" % p.stdout)

with tempfile.TemporaryDirectory() as d:
    fj, fc = os.path.join(d, "r.json"), os.path.join(d, "r.csv")
    p = subprocess.run([SUITE, "-filter=Grow", "-asymptote=8,64", "-output_json=" + fj,
                        "-output_csv=" + fc], capture_output=True, text=True, timeout=120)
    check(p.returncode == 0, "run: exit status %d: %s" % (p.returncode, p.stderr[-2000:]))
    res = json.load(open(fj))["results"]
    check([r["name"] for r in res] == ["Grow", "Grow"], "names: %s" % [r["name"] for r in res])
    check(sorted(r["complexityN"] for r in res) == [8, 64],
          "-asymptote: N %s" % [r["complexityN"] for r in res])
    rows = list(csv.reader(open(fc)))
    check(len(rows) == 3, "CSV: %d lines" % len(rows))
    p = subprocess.run([SUITE, "-filter=Sum", "-output_json=" + fj], capture_output=True,
                       text=True, timeout=120)
    res = json.load(open(fj))["results"]
    check(p.returncode == 0 and len(res) == 1 and res[0]["unit"] == "byte" and
          res[0]["batch"] == 64, "Sum: %s" % (res and {k: res[0][k] for k in ("unit", "batch")}))

# nanobench's generator gives nanobench's numbers (Rng(123), taken from
# nanobench 4.x itself)
p = subprocess.run([SUITE, "-selftest"], capture_output=True, text=True, timeout=120)
check(p.returncode == 0, "selftest: exit status %d: %s" % (p.returncode, p.stderr))
out = dict(line.split(" ", 1) for line in p.stdout.splitlines() if " " in line)
check(out.get("rng") == "2222826058396098479 2602822925082020875 13335048783801050212 453 "
      "0.97675981994457595", "Rng(123): %s" % out.get("rng"))
# epochs(3): 3 recorded, or more where a disturbed epoch (a busy machine:
# descheduled) was measured again (femtobench's rule, docs/design.md)
res = (out.get("results") or "").split()
check(len(res) == 9 and res[:4] == ["1", "name", "add", "epochs"] and res[4].isdigit() and
      int(res[4]) >= 3 and res[5:] == ["table", "1", "median_ok", "1"],
      "Bench: %s" % out.get("results"))
check(out.get("json") == "1", "render(json()): %s" % out.get("json"))
# Bench::compare: femtobench's paired comparison, nanobench's CompareResult
check(out.get("compare") == "2 one add|two adds 1 0 1 1 1", "compare(): %s" % out.get("compare"))
# Result::context: the context of its own run; title() starts the results over
check(out.get("context") == "a b", "Result::context: %s" % out.get("context"))
check(out.get("retitled") == "1 third", "title() starts over: %s" % out.get("retitled"))
check(out.get("unset_context_throws") == "1",
      "render with an unset context variable: %s" % out.get("unset_context_throws"))

check.finish()
