"""The line after the runner's table that says what err% is (and is not):
printed once after the last table, on the table's stream, when a row has
an err% column; not under -quiet; never in an output file (CSV, JSON)."""
import json
import os
import sys
import tempfile

import fbtest

BUILD = os.environ.get("FB_BUILD_DIR", "build")
SUITE = os.path.join(BUILD, "tests", "suite_cli")
LEGEND = ("> err%: how far this process's epochs spread around the median (half lie within it); "
          "not where the next process lands, which -repetitions=5 measures")
SEL = "-filter=Alpha|Beta"


def main():
    t = fbtest.Checks()
    tmp = tempfile.mkdtemp(prefix="fb-err-legend.")
    csv = os.path.join(tmp, "t.csv")
    rc, out, err = fbtest.run([SUITE, SEL, "-output_csv=" + csv])
    t.check(rc == 0, f"the run: {rc} {err}")
    lines = out.splitlines()
    t.check(lines.count(LEGEND) == 1, f"the legend once on stdout:\n{out}")
    if LEGEND in lines:
        at = lines.index(LEGEND)
        rows = [i for i, line in enumerate(lines) if line.startswith("|")]
        t.check(rows and max(rows) < at, f"the legend after the table's last row:\n{out}")
        # markdown: a blank line before it, so that it is not read as a row
        t.check(at > 0 and lines[at - 1] == "", f"a blank line before the legend:\n{out}")
    t.check(LEGEND not in err, f"the legend on stderr too:\n{err}")
    t.check("err%: how far" not in open(csv).read(), "-output_csv: the legend in the CSV")

    # -quiet: the table alone
    rc, out, err = fbtest.run([SUITE, SEL, "-quiet"])
    t.check(rc == 0 and "|" in out, f"-quiet: {rc} {err}")
    t.check(LEGEND not in out + err, f"-quiet: the legend printed:\n{out}")

    # JSON on stdout: the table (and the legend) go to stderr, the JSON parses
    rc, out, err = fbtest.run([SUITE, SEL, "-output_json=-"])
    t.check(rc == 0, f"-output_json=-: {rc} {err}")
    try:
        json.loads(out)
    except ValueError as e:
        t.check(False, f"-output_json=-: stdout is not JSON ({e}):\n{out[:400]}")
    t.check("err%: how far" not in out, "-output_json=-: the legend in the JSON")
    t.check(err.splitlines().count(LEGEND) == 1, f"-output_json=-: the legend on stderr:\n{err}")
    return t.done()


if __name__ == "__main__":
    sys.exit(main())
