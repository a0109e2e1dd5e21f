"""docs/design.md's map of the code against the code: every file in src/
has a row (by its name, in a group such as `report_{csv,json}.c`, or
matched by a pattern such as `perf_*.c`),
and every file a row names exists. A file added, renamed or removed without
its row fails here."""
import fnmatch
import glob
import itertools
import os
import re
import sys

SOURCE = os.environ.get("FB_SOURCE_DIR", os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
design = open(os.path.join(SOURCE, "docs", "design.md"), encoding="utf-8").read()
start = design.index("| file | its one concern |")
table = design[start:design.index("\n\n", start)]
failures = []


def expand(token):
    """report_{csv,json}.c -> report_csv.c, report_json.c (any number of groups)."""
    parts = re.split(r"\{([^}]*)\}", token)
    choices = [[p] if i % 2 == 0 else p.split(",") for i, p in enumerate(parts)]
    return ["".join(c) for c in itertools.product(*choices)]


named = set()
for row in table.splitlines()[2:]:
    cell = row.split("|")[1]
    for code in re.findall(r"`([^`]+)`", cell):
        for token in re.split(r"[\s,]+", code):
            for name in expand(token):
                if name.endswith((".c", ".h")):
                    named.add(name)

# every named file exists (a bare name is in src/)
for name in sorted(named):
    if "*" in name:
        continue
    if "/" in name:
        path = name
    else:  # a bare name: in src/ or one of its layer folders
        found = glob.glob(os.path.join(SOURCE, "src", name)) + \
            glob.glob(os.path.join(SOURCE, "src", "*", name))
        path = found[0] if found else os.path.join("src", name)
    if not os.path.exists(os.path.join(SOURCE, path)):
        failures.append(f"docs/design.md names {name}, which does not exist")

# every source file has a row: its name, or its stem in a group
basenames = {os.path.basename(n) for n in named}
for path in sorted(glob.glob(os.path.join(SOURCE, "src", "*", "*.c"))):
    base = os.path.basename(path)
    if base in basenames:
        continue
    if any(fnmatch.fnmatch(base, os.path.basename(n)) for n in named if "*" in n):
        continue
    failures.append(f"{os.path.relpath(path, SOURCE)} has no row in docs/design.md's map")

for f in failures:
    print("FAIL:", f)
if failures:
    sys.exit(1)
print(f"ok: {len(named)} files named, every src/*/*.c has a row")
