"""The tests share their helpers, never copy them: no Python test defines its
own check or run (tests/fbtest.py has Checks and run/runner), and no C test
its own fake /sys and /proc writer or tree remover (tests/fake_sysfs.h). A
test that brings back a copy fails here."""
import glob
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fbtest  # noqa: E402

SOURCE = os.environ.get("FB_SOURCE_DIR", os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
TESTS = os.path.join(SOURCE, "tests")
PY_COPY = re.compile(r"^\s*def (check|run)\(", re.M)
C_COPY = re.compile(r"^static\s+(?:inline\s+)?void\s+(put|mkfile|rm_tree|rm_rf)\s*\(", re.M)
check = fbtest.Checks()


def copies(pattern, text):
    """The lines of text that define what pattern names."""
    return [m.group(0).strip() for m in pattern.finditer(text)]


# the scan itself finds a copy (a guard that cannot fail guards nothing)
check(copies(PY_COPY, "x = 1\n\ndef check(cond, what):\n    pass\n") == ["def check("],
      "the scan misses a top-level def check(")
check(copies(PY_COPY, "def main():\n    def run(*args):\n        pass\n") == ["def run("],
      "the scan misses a nested def run(")
check(not copies(PY_COPY, "def check_csv(rows):\n    pass\ndef runner():\n    pass\n"),
      "the scan takes check_csv or runner for a copy")
check(copies(C_COPY, "static void put(const char *rel, const char *content) {\n") == [
      "static void put("], "the scan misses a C put(")

py = sorted(glob.glob(os.path.join(TESTS, "*.py")))
check(len(py) > 20, f"only {len(py)} Python files in {TESTS}")
for path in py:
    if os.path.basename(path) == "fbtest.py":
        continue
    with open(path, encoding="utf-8") as f:
        for line in copies(PY_COPY, f.read()):
            check(False, f"{os.path.relpath(path, SOURCE)}: {line} (fbtest has Checks, runner)")

c = sorted(glob.glob(os.path.join(TESTS, "*.c")))
check(len(c) > 20, f"only {len(c)} C files in {TESTS}")
for path in c:
    with open(path, encoding="utf-8") as f:
        for line in copies(C_COPY, f.read()):
            check(False, f"{os.path.relpath(path, SOURCE)}: {line} (use tests/fake_sysfs.h)")

check.finish()
