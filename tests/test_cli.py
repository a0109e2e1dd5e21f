"""The runner's command line: every bad input, -list, -filter, -sanity_check,
-asymptote, the table on stdout. Runs tests/suite_cli.c's program."""
import os
import statistics
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fbtest  # noqa: E402

BUILD = os.environ.get("FB_BUILD_DIR", "build")
SUITE = os.path.join(BUILD, "tests", "suite_cli")
DUP = os.path.join(BUILD, "tests", "suite_dup")
check = fbtest.Checks()


def NAMED(line, name):
    """A table row of that benchmark: its name is the last cell's first `...`
    (a mark or note may follow it on a busy machine)."""
    last = line.rstrip().rstrip("|").rsplit("|", 1)[-1]
    m = re.match(r"^\s*(?::[a-z_]+: )*`([^`]*)`", last)
    return bool(m) and m.group(1) == name


run = fbtest.runner(SUITE)


def bad(args, *must_contain, prog=SUITE):
    rc, out, err = run(*args, prog=prog)
    lines = err.strip().splitlines()
    what = " ".join(args)
    check(rc == 2, f"{what}: exit status {rc}, want 2")
    check(out == "", f"{what}: something ran or printed on stdout: {out!r}")
    check(len(lines) == 1, f"{what}: want one line on stderr, got {lines!r}")
    check(lines and lines[0].startswith("femtobench: error: "), f"{what}: {lines!r}")
    for s in must_contain:
        check(s in err, f"{what}: stderr lacks {s!r}: {err!r}")


# bad input: nothing runs, one line, status 2
bad(["-fitler=Alpha"], "-fitler", "did you mean -filter")
bad(["--lst"], "--lst", "did you mean -list")
bad(["-frobnicate"], "-frobnicate")
bad(["-filter=("], "-filter=(", "invalid regular expression")
bad(["-filter=Alph"], "-filter=Alph", "selects no benchmark")
bad(["-filter"], "-filter", "needs a value")
bad(["-list=3"], "-list", "takes no value")
bad(["stray"], "stray")
bad(["-min_time=abc"], "-min_time=abc")
bad(["-min_time=-5"], "-min_time=-5")
bad(["-min_time="], "-min_time=")
bad(["-asymptote=10,abc"], "-asymptote=10,abc", "'abc'")
bad(["-asymptote=10,,20"], "-asymptote=10,,20", "empty entry")
bad(["-asymptote="], "-asymptote=", "empty entry")
bad(["-asymptote=0,10"], "-asymptote=0,10", "'0'")
bad(["-asymptote=-5,10"], "-asymptote=-5,10", "'-5'")
bad(["-asymptote=10"], "-asymptote=10", "two distinct")
bad(["-asymptote=10,10"], "-asymptote=10,10", "two distinct")
bad(["-output_json=/nonexistent-dir/x.json"], "-output_json=/nonexistent-dir/x.json")
bad(["-output_csv="], "-output_csv", "empty file name")
bad(["-output_csv=-", "-output_json=-"], "only one output")
bad([], "'Same' is registered twice", prog=DUP)

# -help
rc, out, err = run("-help")
check(rc == 0 and "-filter=<regex>" in out and "-asymptote" in out, "-help")
# grouped by purpose: each option once, under the heading of what it does
sections, cur = {}, None
for line in out.splitlines():
    if line and not line.startswith(" ") and line.endswith(":"):
        cur = line
        sections[cur] = []
    elif cur and line.startswith("  -"):
        sections[cur].append(re.match(r"  -([a-z_]+)", line).group(1))
def group_of(opt):
    return [t for t, opts in sections.items() if opt in opts]
for opt, want in (("valgrind", "How it is measured:"), ("isolate", "How it is measured:"),
                  ("timeout", "How it is measured:"), ("filter", "What runs:"),
                  ("output_json", "What is written:"), ("baseline", "Against an earlier run:"),
                  ("benchmark_filter", "Google Benchmark's flag names"),
                  ("benchmark_color", "Google Benchmark flags accepted")):
    g = group_of(opt)
    check(len(g) == 1 and g[0].startswith(want), f"-help: -{opt} listed under {g}, want {want}")
every = [o for opts in sections.values() for o in opts]
check(len(every) == len(set(every)) and len(every) >= 39, f"-help: an option twice or missing: {every}")

# -list: sorted names, honours -filter (whole-name match), both dash styles
rc, out, err = run("-list")
check(rc == 0 and out.split() == ["Alpha", "BadName", "Beta", "Broken", "Linear", "Slow"], f"-list: {out!r}")
rc, out, err = run("--list", "--filter=B.*")
check(rc == 0 and out.split() == ["BadName", "Beta", "Broken"], f"--list --filter: {out!r}")
rc, out, err = run("-list", "-filter=Alpha|Linear")
check(out.split() == ["Alpha", "Linear"], f"-list alternation: {out!r}")

# -sanity_check: everything runs once, no table
# Broken and Slow return before FB_RUN unless asked: a sanity check fails them
# (a benchmark that measured nothing is not a pass)
rc, out, err = run("-sanity_check")
check(rc == 1 and out == "", f"-sanity_check: rc={rc} out={out!r}")
check("sanity check: 6 benchmarks ran, 3 failed" in err, f"-sanity_check: {err!r}")
check("Slow: measured nothing" in err and "Broken: measured nothing" in err and
      "BadName: measured nothing" in err, err)
rc, out, err = run("-sanity_check", "-filter=Alpha|Beta|Linear")
check(rc == 0 and "sanity check: 3 benchmarks ran, 0 failed" in err, f"-sanity_check: {err!r}")

# the table: one header per unit, a row per benchmark
rc, out, err = run("-filter=Alpha|Beta")
check(rc == 0, f"table run rc={rc} {err!r}")
rows = [l for l in out.splitlines() if l.startswith("|")]
check(any("ns/op" in l for l in rows) and any("ns/byte" in l for l in rows), f"headers: {out}")
check(any(NAMED(l, "Alpha") for l in rows) and any(NAMED(l, "Beta") for l in rows), out)
for l in rows:
    if NAMED(l, "Alpha"):
        cells = [c.strip() for c in l.strip("|").split("|")]
        check(re.fullmatch(r"[\d,]+\.\d\d", cells[0]) is not None, f"ns/op cell {cells[0]!r}")
        check(cells[2].endswith("%"), f"err% cell {cells[2]!r}")

# a failing benchmark: an error row and exit status 1
rc, out, err = run("-filter=Broken", env={"SUITE_CLI_BROKEN": "1"})
check(rc == 1 and ":boom: `Broken`" in out, f"broken: rc={rc} {out!r}")
# a comparison with a failing alternative fails the same way: exit status 1
rc, out, err = run("-filter=Broken", env={"SUITE_CLI_BROKEN": "compare"})
check(rc == 1 and ":boom: `fails`" in out and "comparison not made: `fails`" in out,
      f"failing alternative: rc={rc} {out!r}")

# -repetitions: the suite n times, each pass in its own order;
# the JSON keeps every pass; a summary over passes follows the table
bad(["-repetitions=0"], "-repetitions=0", "1 to 1000")
bad(["-repetitions=abc"], "-repetitions=abc")
import json
import tempfile
with tempfile.TemporaryDirectory() as td:
    path = os.path.join(td, "rep.json")
    rc, out, err = run("-filter=Alpha|Beta", "-repetitions=4", "-output_json=" + path)
    check(rc == 0, f"repetitions rc={rc} {err!r}")
    with open(path) as f:
        doc = json.load(f)
    got = [(r["name"], r["pass"]) for r in doc["results"]]
    check(sorted(got) == sorted([(n, p) for n in ("Alpha", "Beta") for p in range(4)]),
          f"repetitions: every pass in the file {got}")
    orders = [tuple(r["name"] for r in doc["results"] if r["pass"] == p) for p in range(4)]
    check(len(set(orders)) > 1, f"repetitions: passes in fresh orders {orders}")
    check("Over 4 passes" in out, f"repetitions summary: {out}")
    summary = out[out.index("Over 4 passes"):] if "Over 4 passes" in out else ""
    for name in ("Alpha", "Beta"):
        # the row ends with the name, or with the two modes it names
        row = [l for l in summary.splitlines() if l.endswith("`%s`" % name) or "`%s` (two modes: " % name in l]
        check(len(row) == 1, f"repetitions summary row for {name}: {summary}")
        if row:
            cells = [c.strip() for c in row[0].strip("|").split("|")]
            med = statistics.median(r["stats"]["elapsed"]["median"] / r["batch"] * 1e9
                                    for r in doc["results"] if r["name"] == name)
            check(abs(float(cells[0].replace(",", "")) - med) <= 0.006 + 1e-9 * med,
                  f"summary median of {name}: {cells[0]} vs {med}")
            check(cells[2] == "4", f"summary passes of {name}: {cells}")

# -asymptote: one row per N with complexityN, then the fit table
rc, out, err = run("-filter=Linear", "-asymptote=100,1000,10000,100000")
check(rc == 0, f"asymptote rc={rc} {err!r}")
check("complexityN" in out, "asymptote: no complexityN column")
for n in ["100", "1,000", "10,000", "100,000"]:
    check(re.search(r"^\|\s+%s \|" % re.escape(n), out, re.M) is not None, f"asymptote row N={n}: {out}")
check("coefficient" in out and "complexity" in out and "O(n)" in out, f"fit table: {out}")

# -asymptote over the demo suite's quadratic benchmark: per-N rows, then the fit
DEMO = os.path.join(BUILD, "bench", "femtobench-demo")
if not os.path.exists(DEMO):  # e.g. built against the single header only
    print(f"note: {DEMO} not built; skipping the demo -asymptote check")
else:
    rc, out, err = run("-filter=ComplexMemPool", "-asymptote=25,50,100,200", prog=DEMO)
    check(rc == 0, f"demo asymptote rc={rc} {err!r}")
    rows = [l for l in out.splitlines() if l.endswith("`ComplexMemPool`")]
    check(len(rows) == 4, f"demo asymptote: want 4 rows, got {rows!r}")
    check([l.strip("|").split("|")[0].strip() for l in rows] == ["25", "50", "100", "200"], f"{rows!r}")
    fit = out[out.index("coefficient"):] if "coefficient" in out else ""
    models = re.findall(r"^\|\s+\S+ \|\s+[\d.]+% \| (O\([^)]*\))", fit, re.M)
    check(sorted(models) == sorted(["O(1)", "O(n)", "O(log n)", "O(n log n)", "O(n^2)", "O(n^3)"]),
          f"fit table models {models!r}: {fit!r}")

# -min_time is more epochs, not longer ones: 110 ms of epochs of the usual
# length (read back from the JSON record: the configuration, the epochs, and
# no round of longer epochs; not each epoch's own time, which a slow episode
# of the host's core stretches whatever the plan: no wall-clock threshold)
import json
import tempfile


def min_time_epochs(r, what, epoch_s):
    ms = r.get("measurements") or []
    check((len(ms) > 11 or r.get("stopped_by") == "cap") and r.get("rounds") == 0,
          f"{what}: {len(ms)} epochs, {r.get('rounds')} rounds of longer epochs "
          f"(epochs of {epoch_s} s asked for)")
    check(r.get("total_s", 0) >= 0.9 * 0.110 or r.get("stopped_by") != "epochs",
          f"{what}: total_s {r.get('total_s')} stopped by {r.get('stopped_by')}")


with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "r.json")
    rc, out, err = run("-filter=Alpha", "-min_time=110", "-output_json=" + path)
    r = json.load(open(path))["results"][0] if rc == 0 else {}
    cfg = r.get("config", {})
    check(abs(cfg.get("min_epoch_time", 0) - 0.00025) < 1e-12, f"-min_time=110: config {cfg}")
    min_time_epochs(r, "-min_time=110", 0.00025)
    # FEMTOBENCH_CONFIG's epoch length stays; -min_time adds epochs of it
    rc, out, err = run("-filter=Alpha", "-min_time=22", "-output_json=" + path,
                       env={"FEMTOBENCH_CONFIG": "min_epoch_time=5ms,epochs=3"})
    r = json.load(open(path))["results"][0] if rc == 0 else {}
    cfg = r.get("config", {})
    check(cfg.get("epochs") == 3 and abs(cfg.get("min_epoch_time", 0) - 0.005) < 1e-12
          and (len(r.get("measurements") or []) >= 4 or r.get("stopped_by") == "cap"),
          f"-min_time over FEMTOBENCH_CONFIG: config {cfg}, {len(r.get('measurements') or [])} epochs")

    # -min_time holds after the benchmark sets its own epochs: 110 ms of
    # epochs, at least the 3 the code asks for
    rc, out, err = run("-filter=Alpha", "-min_time=110", "-output_json=" + path,
                       env={"SUITE_CLI_EPOCHS": "3"})
    r = json.load(open(path))["results"][0] if rc == 0 else {}
    cfg = r.get("config", {})
    check(cfg.get("epochs") == 3 and abs(cfg.get("min_epoch_time", 0) - 0.00025) < 1e-12,
          f"-min_time with fb_set_epochs(b, 3): config {cfg}")
    min_time_epochs(r, "-min_time=110 with fb_set_epochs(b, 3)", 0.00025)

# A bad FEMTOBENCH_CONFIG entry under the runner is bad input, like a bad option
rc, out, err = run("-filter=Alpha", env={"FEMTOBENCH_CONFIG": "epochs=3,bogus=1"})
check(rc == 2 and out == "", f"bad FEMTOBENCH_CONFIG: rc={rc} out={out!r}")
check("bad entry 'bogus=1'" in err and err.strip().splitlines()[-1].startswith("femtobench: error: FEMTOBENCH_CONFIG"),
      f"bad FEMTOBENCH_CONFIG: {err!r}")

# -quiet: no warning block and no unstable marker, without touching the
# environment (the library reads FEMTOBENCH_SUPPRESS_WARNINGS once; -quiet is
# a flag of the process state)
def run_loud(*args):
    e = dict(os.environ)
    for k in ("FEMTOBENCH_CONFIG", "FEMTOBENCH_ENDLESS", "FEMTOBENCH_SUPPRESS_WARNINGS"):
        e.pop(k, None)
    p = subprocess.run([SUITE, *args], capture_output=True, text=True, env=e, timeout=120)
    return p.returncode, p.stdout, p.stderr

rc, out, err = run_loud("-filter=Alpha", "-quiet")
check(rc == 0 and "warning" not in err and "note:" not in err, f"-quiet: {err!r}")
rc, out, err = run_loud("-filter=Alpha", "-quiet", "-min_time=1",
                        "-output_json=/dev/null")
check(rc == 0 and ":wavy_dash:" not in out, f"-quiet marker: {out!r}")
# a debug-style machine always warns here? only compare when it does
rc2, out2, err2 = run_loud("-filter=Alpha")
if "warning: results may be unstable" in err2:
    check("warning" not in err, "-quiet printed the warning block that a plain run prints")
else:
    print("note: this machine gives no warning block; -quiet checked for silence only")

check.finish()
