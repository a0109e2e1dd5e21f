"""Baselines from the command line: the runner's -baseline, -threshold and
-fail_on_slower, femtobench-compare, their exit statuses, every bad baseline
(one line, exit 2, nothing run), the markdown file, and that
femtobench-compare prints the same table as -baseline. Runs
tests/suite_cli.c's program. Verdicts are made certain by scaling a real
baseline's times by 1000 (or 1/1000), never by timing thresholds."""
import json
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fbtest  # noqa: E402

BUILD = os.environ.get("FB_BUILD_DIR", "build")
SUITE = os.path.join(BUILD, "tests", "suite_cli")
COMPARE = os.path.join(BUILD, "femtobench-compare")
check = fbtest.Checks()


run = fbtest.runner()  # run(prog, *args)


def bad(prog, args, *must_contain):
    rc, out, err = run(prog, *args)
    lines = err.strip().splitlines()
    what = os.path.basename(prog) + " " + " ".join(args)
    check(rc == 2, f"{what}: exit status {rc}, want 2")
    check(out == "", f"{what}: something ran or printed on stdout: {out[:200]!r}")
    check(len(lines) == 1, f"{what}: want one line on stderr, got {lines!r}")
    check(lines and lines[0].startswith("femtobench: error: "), f"{what}: {lines!r}")
    for s in must_contain:
        check(s in err, f"{what}: stderr lacks {s!r}: {err!r}")


def change_table(text):
    """The change table of a run's output: warnings, table and summary."""
    lines = text.splitlines()
    start = next((i for i, l in enumerate(lines)
                  if l.startswith("> warning:") or l.startswith("|           baseline |")), None)
    if start is None:
        return ""
    end = next(i for i in range(start, len(lines)) if lines[i].startswith("femtobench: "))
    return "\n".join(lines[start:end + 1]) + "\n"


def verdicts(table):
    """{benchmark: verdict} from the table's rows."""
    out = {}
    for line in table.splitlines():
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line)]
        if len(cells) == 7 and cells[5] in ("faster", "slower", "same", "unsure", "new", "gone"):
            out[cells[6].strip("`").split("`")[0]] = cells[5]
    return out


def cis(table):
    """{benchmark: its 95% CI cell} from the table's rows."""
    out = {}
    for line in table.splitlines():
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line)]
        if len(cells) == 7 and cells[5] in ("faster", "slower", "same", "unsure", "new", "gone"):
            out[cells[6].strip("`").split("`")[0]] = cells[4]
    return out


def used_epochs(path):
    """{benchmark: epochs its statistics use} from a femtobench JSON file."""
    with open(path) as f:
        return {r["name"]: r["epochs_used"] for r in json.load(f)["results"]}


def check_verdicts(table, want, old_json, now_json, what):
    """Every benchmark of the table has the verdict `want` (the times differ
    1000x), except where a busy machine left a run with too few epochs for an
    interval: then the row says "too few epochs" and "unsure", and the files
    show a run with 3 or fewer epochs used (a default run is cut by its time
    budget when disturbed epochs eat it; docs/design.md, "Disturbed epochs").
    Returns how many have `want`."""
    v, ci = verdicts(table), cis(table)
    old, now = used_epochs(old_json), used_epochs(now_json)
    n = 0
    for name in now:
        if v.get(name) == want:
            n += 1
            continue
        few = min(old.get(name, 0), now.get(name, 0)) <= 3
        if v.get(name) == "unsure" and ci.get(name) == "too few epochs" and few:
            print(f"note: {what}: {name!r} unsure: epochs used {old.get(name)} (baseline), "
                  f"{now.get(name)} (now): a busy machine")
            continue
        check(False, f"{what}: {name!r} is {v.get(name)!r} ({ci.get(name)!r}), want {want!r}; "
                     f"epochs used {old.get(name)} and {now.get(name)}\n{table}")
    check(set(v) == set(now), f"{what}: rows {sorted(v)}, results {sorted(now)}")
    return n


def scaled(src, dst, factor, drop=(), edit=None):
    with open(src) as f:
        d = json.load(f)
    d["results"] = [r for r in d["results"] if r["name"] not in drop]
    for r in d["results"]:
        for m in r["measurements"]:
            m["elapsed"] *= factor
    if edit:
        edit(d)
    with open(dst, "w") as f:
        json.dump(d, f, indent=2)


def main():
    if not os.path.exists(COMPARE):
        print("SKIP: no femtobench-compare in", BUILD)
        return 77
    tmp = tempfile.mkdtemp(prefix="fb-baseline-test.")
    p = lambda name: os.path.join(tmp, name)
    sel = "-filter=Alpha|Beta|Linear"

    # a real baseline, then variants of it
    rc, out, err = run(SUITE, sel, "-output_json=" + p("base.json"), "-output_gbench=" + p("gb.json"))
    check(rc == 0, f"baseline run: {rc} {err}")
    text = open(p("base.json")).read()
    scaled(p("base.json"), p("slow.json"), 1e-3)    # now is 1000x slower
    scaled(p("base.json"), p("fast.json"), 1e3)     # now is 1000x faster
    scaled(p("base.json"), p("noalpha.json"), 1, drop=("Alpha",))
    scaled(p("base.json"), p("othercpu.json"), 1,
           edit=lambda d: d["context"].update(cpu_model="Other CPU 9000"))
    with open(p("trunc.json"), "w") as f:
        f.write(text[:123])
    with open(p("notjson.json"), "w") as f:
        f.write("<html>not json</html>\n")
    with open(p("empty.json"), "w") as f:
        pass
    scaled(p("base.json"), p("v2.json"), 1, edit=lambda d: d.update(schema="femtobench/2"))
    scaled(p("base.json"), p("other.json"), 1, edit=lambda d: d.update(schema="something/1"))

    def epoch_edit(value):
        def edit(d):
            d["results"][1]["measurements"][2]["elapsed"] = value
        return edit
    scaled(p("base.json"), p("neg.json"), 1, edit=epoch_edit(-1e-9))
    scaled(p("base.json"), p("null.json"), 1, edit=epoch_edit(None))
    name1 = json.load(open(p("base.json")))["results"][1]["name"]

    # ---- every bad baseline: one line naming the file, exit 2, nothing run
    cases = [
        (p("missing.json"), "cannot open: No such file or directory"),
        (tmp, "cannot read: Is a directory"),
        (p("empty.json"), "empty file"),
        (p("notjson.json"), "not valid JSON: invalid JSON at byte 0 ('<')"),
        (p("trunc.json"), "truncated JSON at byte 123"),
        (p("v2.json"), "schema 'femtobench/2' is version 2; this femtobench reads version 1"),
        (p("other.json"), "schema 'something/1' is not femtobench JSON version 1"),
        (p("gb.json"), "this is Google Benchmark JSON (-output_gbench)"),
        (p("neg.json"), f"benchmark '{name1}' epoch 3: negative time"),
        (p("null.json"), f"benchmark '{name1}' epoch 3: time is null (not a number)"),
    ]
    if os.geteuid() != 0:  # root reads anything
        with open(p("unreadable.json"), "w") as f:
            f.write(text)
        os.chmod(p("unreadable.json"), 0)
        cases.append((p("unreadable.json"), "cannot open: Permission denied"))
    for path, why in cases:
        bad(SUITE, ["-baseline=" + path], f"-baseline={path}: {why}")
        bad(SUITE, ["-baseline=" + path, "-sanity_check"], f"-baseline={path}: {why}")
        bad(COMPARE, [path, p("base.json")], f"error: {path}: {why}")
        bad(COMPARE, [p("base.json"), path], f"error: {path}: {why}")

    # ---- bad options
    bad(SUITE, ["-baseline="], "-baseline: empty file name")
    bad(SUITE, ["-baseline=" + p("base.json"), "-threshold=abc"], "-threshold=abc: not a percentage")
    bad(SUITE, ["-baseline=" + p("base.json"), "-threshold=-5"], "-threshold=-5")
    bad(SUITE, ["-threshold=5"], "-threshold needs -baseline=<file>")
    bad(SUITE, ["-fail_on_slower"], "-fail_on_slower needs -baseline=<file>")
    bad(SUITE, ["-baseline=" + p("base.json"), "-fail_on_slower=1"], "takes no value")
    bad(COMPARE, [p("base.json")], "needs two files")
    bad(COMPARE, [p("base.json"), p("base.json"), p("base.json")], "unexpected argument")
    bad(COMPARE, [p("base.json"), p("base.json"), "-threshold=x"], "-threshold=x")
    bad(COMPARE, [p("base.json"), p("base.json"), "-bogus"], "unknown option '-bogus'")
    bad(COMPARE, [p("base.json"), p("base.json"), "-output_md=" + p("nodir/x.md")],
        "-output_md=" + p("nodir/x.md"))
    rc, out, _ = run(SUITE, "-help")
    for opt in ("-baseline=<file>", "-threshold=<pct>", "-fail_on_slower"):
        check(opt in out, f"-help lacks {opt}")
    rc, out, _ = run(COMPARE, "-help")
    check(rc == 0 and "femtobench-compare OLD.json NEW.json" in out, f"compare -help: {rc} {out!r}")

    # ---- slower: exit 3 with -fail_on_slower, outputs still written
    rc, out, err = run(SUITE, sel, "-baseline=" + p("slow.json"), "-fail_on_slower",
                       "-output_json=" + p("now.json"), "-output_csv=" + p("now.csv"))
    table = change_table(out)
    slower = check_verdicts(table, "slower", p("slow.json"), p("now.json"), "slower")
    check(rc == (3 if slower else 0), f"slower with -fail_on_slower: exit {rc}, want 3; {err}")
    check(f"{slower} slower" in table and "0 faster" in table, f"summary: {table}")
    check(json.load(open(p("now.json")))["schema"] == "femtobench/1", "-output_json not written")
    check(os.path.exists(p("now.csv")), "-output_csv not written")
    check(out.index("| benchmark") < out.index("|           baseline |"),
          "the change table comes after the ordinary table")
    rc, out, _ = run(SUITE, sel, "-baseline=" + p("slow.json"))
    check(rc == 0, f"slower without -fail_on_slower: exit {rc}, want 0")
    # a failed benchmark keeps exit status 1 even when something is slower
    rc, out, _ = run(SUITE, "-filter=Alpha|Broken", "-baseline=" + p("slow.json"),
                     "-fail_on_slower", env={"SUITE_CLI_BROKEN": "1"})
    check(rc == 1, f"failed + slower: exit {rc}, want 1")
    check(verdicts(change_table(out)).get("Broken") == "new", f"{change_table(out)}")

    # ---- faster: exit 0 even with -fail_on_slower; -threshold is shown
    rc, out, _ = run(SUITE, sel, "-baseline=" + p("fast.json"), "-fail_on_slower", "-threshold=7.5",
                     "-output_json=" + p("fastnow.json"))
    table = change_table(out)
    check(rc == 0, f"faster: exit {rc}")
    faster = check_verdicts(table, "faster", p("fast.json"), p("fastnow.json"), "faster")
    check(f"{faster} faster" in table and "0 slower" in table, f"faster summary: {table}")
    check("(threshold 7.5%)" in table, f"threshold in summary: {table}")

    # ---- new and gone
    rc, out, _ = run(SUITE, "-filter=Alpha|Beta", "-baseline=" + p("noalpha.json"))
    v = verdicts(change_table(out))
    check(v.get("Alpha") == "new" and v.get("Linear") == "gone", f"new/gone: {v}")
    check("1 new, 1 gone" in change_table(out), f"new/gone summary: {change_table(out)}")

    # ---- context: a warning above the table
    rc, out, _ = run(SUITE, "-filter=Alpha", "-baseline=" + p("othercpu.json"))
    table = change_table(out)
    check(table.startswith("> warning: the runs differ in CPU model: baseline 'Other CPU 9000', now '"),
          f"cpu warning: {table}")
    rc, out, _ = run(SUITE, "-filter=Alpha", "-baseline=" + p("base.json"))
    check("> warning" not in out, f"no warning for the same machine and build: {out}")

    # ---- no change table for -sanity_check or -list
    rc, out, _ = run(SUITE, sel, "-sanity_check", "-baseline=" + p("base.json"))
    check(rc == 0 and "baseline" not in out, f"sanity check: {rc} {out}")
    rc, out, _ = run(SUITE, "-list", "-baseline=" + p("base.json"))
    check(rc == 0 and "baseline" not in out, f"list: {rc} {out}")
    # the change table goes where the table goes (stderr when JSON is on stdout)
    rc, out, err = run(SUITE, "-filter=Alpha", "-baseline=" + p("base.json"), "-output_json=-")
    check(json.loads(out)["schema"] == "femtobench/1" and "|           baseline |" in err,
          "with -output_json=- the change table is on stderr")

    # ---- femtobench-compare: the same table as -baseline, -output_md, exit 3
    rc, out, err = run(SUITE, sel, "-baseline=" + p("slow.json"), "-output_json=" + p("n2.json"))
    runner_table = change_table(out)
    rc2, cout, cerr = run(COMPARE, p("slow.json"), p("n2.json"), "-output_md=" + p("pr.md"))
    check(rc2 == 0, f"compare: exit {rc2}: {cerr}")
    check(cout == runner_table, f"compare's table differs from -baseline's:\n{cout}\n---\n{runner_table}")
    check(open(p("pr.md")).read() == cout, "-output_md differs from the printed table")
    check(f"wrote '{p('pr.md')}'" in cerr, f"compare stderr: {cerr}")
    slower = check_verdicts(runner_table, "slower", p("slow.json"), p("n2.json"), "femtobench-compare")
    rc2, _, _ = run(COMPARE, p("slow.json"), p("n2.json"), "-fail_on_slower")
    check(rc2 == (3 if slower else 0), f"compare -fail_on_slower: exit {rc2}, want 3")
    rc2, cout, _ = run(COMPARE, p("slow.json"), p("n2.json"), "--threshold=20%")
    check("(threshold 20%)" in cout, f"compare --threshold: {cout}")
    rc2, cout, _ = run(COMPARE, p("base.json"), p("base.json"), "-fail_on_slower")
    check(rc2 == 0 and set(verdicts(cout).values()) <= {"same", "unsure"},
          f"a file against itself: {rc2} {cout}")
    # compare reports a failed benchmark in NEW with exit status 1
    rc, out, _ = run(SUITE, "-filter=Broken", "-output_json=" + p("broken.json"),
                     env={"SUITE_CLI_BROKEN": "1"})
    rc2, cout, _ = run(COMPARE, p("base.json"), p("broken.json"))
    check(rc2 == 1 and "failed" in cout, f"compare with a failed benchmark: {rc2} {cout}")

    # ---- the markdown is a well-formed table: every row has the header's cells
    rows = [l for l in runner_table.splitlines() if l.startswith("|")]
    ncells = [len(re.split(r"(?<!\\)\|", l)) for l in rows]
    check(len(rows) == 5 and len(set(ncells)) == 1, f"table shape: {ncells}")

    return check.done()


if __name__ == "__main__":
    sys.exit(main())
