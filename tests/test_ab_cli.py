"""femtobench-ab from the command line, on tests/ab_suite.c built as plugins
(tests/CMakeLists.txt): old, new (Slow 10% slower, Removed gone, Added new)
and crash. The suite times everything with a fake clock that its ops
advance, so paired rounds give exact ratios and every verdict is certain:
no wall-clock threshold anywhere.

Checked: the same file twice (the A/A check: separate globals, every verdict
`same`); old against new (Slow `slower`, the rest `same`, new/gone; every
kind of run: FB_RUN, fb_run with setup/teardown, two runs in one function, a
family); -filter; -fail_on_slower (exit 3); the JSON (python json), the
markdown comment (name and summary first) and the HTML page (parsed; the
browser test is tests/test_ab_browser.py); a crash, exit(0) and a hang
(-timeout) as error rows with and without -isolate, the rest compared;
SIGTERM ending the hung child; 300 runs in one function; a thread group not
pinned; nothing in common under -fail_on_slower (exit 3); outputs checked
with the runner's rules; -rounds too few for any verdict (refused, or said in
each row); -valgrind's exact counts, counts that move compared by their
spread (A/A same within it, 10% more work slower beyond it, in the table,
markdown, JSON and HTML), a plugin of interface 1 (exact counts), runs paired
by whole names (a line break in one) (when valgrind is there); the plain
compiler recipe (cc -shared -fPIC suite.c + the build's library); and every
bad input: one line `femtobench: error: ...`, exit status 2, nothing run."""
import html.parser
import json
import os
import shlex
import shutil
import subprocess
import sys
import signal
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fbtest  # noqa: E402

BUILD = os.environ.get("FB_BUILD_DIR", "build")
SOURCE = os.environ.get("FB_SOURCE_DIR", os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
AB = os.path.join(BUILD, "femtobench-ab")
T = os.path.join(BUILD, "tests")
OLD, NEW, CRASH, HOSTILE, BADNAME, SPREAD, SPREAD_MORE = (
    os.path.join(T, f"ab_{v}.so")
    for v in ("old", "new", "crash", "hostile", "badname", "spread", "spread_more"))
check = fbtest.Checks()

if not os.path.exists(AB):
    print("femtobench-ab was not built (no dlopen on this platform)")
    sys.exit(77)


# an AddressSanitizer build (the sanitizer CI step): a crash must still be a
# real signal (ASan's own handler would turn it into exit status 1), and
# valgrind cannot run such a program
ASAN = fbtest.asan_build(AB)
ASAN_ENV = {"ASAN_OPTIONS": os.environ.get("ASAN_OPTIONS", "") + ":handle_segv=0"} if ASAN else None


run = fbtest.runner(AB, env=ASAN_ENV, timeout=300)


def bad(args, *must_contain):
    rc, out, err = run(*args)
    lines = err.strip().splitlines()
    what = "femtobench-ab " + " ".join(args)
    check(rc == 2, f"{what}: exit status {rc}, want 2")
    check(out == "", f"{what}: something ran: {out[:200]!r}")
    check(len(lines) == 1, f"{what}: want one line on stderr, got {lines!r}")
    check(lines and lines[0].startswith("femtobench: error: "), f"{what}: {lines!r}")
    for s in must_contain:
        check(s in err, f"{what}: stderr lacks {s!r}: {err!r}")


def verdicts(path):
    with open(path) as f:
        doc = json.load(f)
    return doc, {b["name"]: b for b in doc["benchmarks"]}


tmp = tempfile.mkdtemp(prefix="fb_ab_")
try:
    js, md, page = (os.path.join(tmp, n) for n in ("ab.json", "ab.md", "ab.html"))
    RUNS = ["Call", "Fam/2", "Fam/4", "Removed", "Slow", "Steady", "Two.large", "Two.small"]

    # the same file twice: loaded twice (a copy), every verdict `same`
    rc, out, err = run(OLD, OLD, "-output_json=" + js)
    check(rc == 0, f"A/A: exit status {rc}: {err}")
    doc, v = verdicts(js)
    check(sorted(v) == RUNS, f"A/A: runs {sorted(v)}")
    for name, b in v.items():
        check(b["verdict"] == "same", f"A/A: {name} is {b['verdict']}")
        check(b["change_pct"] == 0 and b["low_pct"] == 0 and b["high_pct"] == 0,
              f"A/A: {name}: {b}")
        check(b["rounds"] == 64 and b["rounds_used"] == 64, f"A/A: {name}: rounds {b}")
    check(doc["summary"]["same"] == len(RUNS) and doc["context"]["mode"] == "timed",
          f"A/A: summary {doc['summary']}")
    # the fake clock's exact times: 10 ns per unit of work
    check(abs(v["Steady"]["old_s"] - 200e-9) < 1e-15 and abs(v["Fam/4"]["new_s"] - 40e-9) < 1e-15,
          f"A/A: times {v['Steady']}, {v['Fam/4']}")
    # the thread's CPU time over the same rounds: the fake CPU clock's (Call's
    # op is 12 ns of CPU per 10 ns of time), shown in the table where it differs
    check(abs(v["Steady"]["old_cpu_s"] - 200e-9) < 1e-15
          and abs(v["Steady"]["new_cpu_s"] - 200e-9) < 1e-15
          and abs(v["Call"]["old_cpu_s"] - 84e-9) < 1e-15
          and abs(v["Call"]["new_cpu_s"] - 84e-9) < 1e-15, f"A/A: CPU times {v['Call']}")
    check("| Call | 70 ns (CPU 84 ns) | 70 ns (CPU 84 ns) |" in out
          and "| Steady | 200 ns | 200 ns |" in out, f"A/A: CPU in the table: {out}")

    # old against new, with every output
    rc, out, err = run(OLD, NEW, "-output_json=" + js, "-output_md=" + md,
                       "-output_html=" + page)
    check(rc == 0, f"old/new: exit status {rc} (no -fail_on_slower): {err}")
    doc, v = verdicts(js)
    want = {n: "same" for n in RUNS}
    want.update({"Slow": "slower", "Removed": "gone", "Added": "new"})
    check({n: b["verdict"] for n, b in v.items()} == want,
          f"old/new: verdicts {({n: b['verdict'] for n, b in v.items()})}")
    slow = v.get("Slow", {})
    check(abs(slow.get("change_pct", 0) - 10) < 1e-9 and abs(slow.get("low_pct", 0) - 10) < 1e-9,
          f"old/new: Slow {slow}")
    check(slow.get("iterations", 0) > 0 and slow.get("old_s") and slow.get("new_s"),
          f"old/new: Slow's numbers {slow}")
    check(v["Added"]["old_s"] is None and v["Added"]["new_s"] > 0, f"new: {v['Added']}")
    check(doc["summary"] == {"faster": 0, "slower": 1, "same": 6, "unsure": 0, "new": 1,
                             "gone": 1, "layout-sensitive": 0, "skipped": 0, "error": 0},
          f"summary {doc['summary']}")
    # family-wise 95% over the 7 paired runs (Bonferroni)
    check(abs(doc["context"]["confidence"] - (1 - 0.05 / 7)) < 1e-12,
          f"confidence {doc['context']['confidence']}")
    check("| Slow | 100 ns | 110 ns | +10.0% |" in out, f"table: {out}")
    with open(md) as f:
        text = f.read()
    lines = text.splitlines()
    check(lines[0] == "### femtobench-ab: 1 benchmark slower", f"md title: {lines[:1]}")
    check(lines[2].startswith("9 benchmarks: 1 slower, 6 same, 1 new, 1 gone"),
          f"md summary: {lines[2:3]}")
    check(any(l.startswith("| Slow |") and l.endswith("| slower |") for l in lines),
          "md: Slow's row")

    class Page(html.parser.HTMLParser):
        def __init__(self):
            super().__init__()
            self.tags, self.text = [], []

        def handle_starttag(self, tag, attrs):
            self.tags.append((tag, dict(attrs)))

        def handle_data(self, data):
            self.text.append(data)

    p = Page()
    with open(page, encoding="utf-8") as f:
        p.feed(f.read())
    classes = [a.get("class", "") for t, a in p.tags]
    check(any("forest" in c for c in classes), "html: no forest plot")
    check(sum(1 for t, a in p.tags if t == "circle") >= 7, "html: a point per paired run")
    check("Slow" in "".join(p.text) and not any(t == "script" for t, a in p.tags), "html text")

    # -fail_on_slower: exit 3; -filter keeps the selection
    rc, out, err = run(OLD, NEW, "-fail_on_slower", "-filter=Slow|Steady")
    check(rc == 3, f"-fail_on_slower: exit status {rc}")
    check("| Slow |" in out and "| Steady |" in out and "| Call |" not in out,
          f"-filter: {out}")
    rc, out, err = run(OLD, NEW, "-fail_on_slower", "-filter=Fam")
    check(rc == 0 and "| Fam/2 |" in out and "| Fam/4 |" in out, f"-filter=Fam: {rc} {out}")
    rc, out, err = run(OLD, NEW, "-instances=1", "-rounds=6", "-filter=Slow", "-threshold=20")
    check(rc == 0 and ("| 6 | unsure |" in out or "| 6 | same |" in out),
          f"-rounds=6 -threshold=20: {out}")
    # rounds too few for any verdict at the family's confidence (two runs:
    # 97.5% each, 7 rounds kept; an odd count keeps one less) are refused
    # up front; the fewest that decide do decide
    bad([OLD, NEW, "-instances=1", "-rounds=6", "-filter=Slow|Steady"], "-rounds=6: too few",
        "2 benchmarks", "-rounds=8")
    bad([OLD, NEW, "-instances=1", "-rounds=7", "-filter=Slow|Steady"], "-rounds=7: too few")
    bad([OLD, NEW, "-instances=1", "-rounds=7"], "-rounds=7: too few", "6 benchmarks")
    rc, out, err = run(OLD, NEW, "-rounds=8", "-filter=Slow|Steady", "-fail_on_slower")
    check(rc == 3 and "| 8 | slower |" in out, f"-rounds=8, two benchmarks: {rc} {out}")
    # a family larger than its functions (two runs in one) is known only
    # after the run: each row says why it is unsure
    rc, out, err = run(OLD, NEW, "-instances=1", "-rounds=6", "-filter=Two")
    check(rc == 0 and out.count("none: 6 rounds kept, 7 needed") == 2,
          f"-rounds=6, two runs in one function: {rc} {out}")

    # -asymptote: each benchmark once per N, matched by name and N
    rc, out, err = run(OLD, NEW, "-filter=Slow|Fam", "-asymptote=10,100", "-output_json=" + js)
    doc, v = verdicts(js)
    check(rc == 0 and sorted(v) == ["Fam/2 N=10", "Fam/2 N=100", "Fam/4 N=10", "Fam/4 N=100",
                                    "Slow N=10", "Slow N=100"], f"-asymptote: {sorted(v)}")
    check(v.get("Slow N=100", {}).get("n") == 100 and v["Slow N=100"]["run"] == "Slow" and
          v["Slow N=100"]["verdict"] == "slower" and v["Fam/2 N=10"]["verdict"] == "same",
          f"-asymptote: {v.get('Slow N=100')}")

    # a configured warmup: its epochs are paced too, the rounds come after it
    rc, out, err = run(OLD, NEW, "-filter=Slow|Steady", "-output_json=" + js,
                       env={"FEMTOBENCH_CONFIG": "warmup=5"})
    doc, v = verdicts(js)
    check(rc == 0 and v["Slow"]["verdict"] == "slower" and v["Steady"]["verdict"] == "same" and
          v["Slow"]["rounds_used"] == 64 and abs(v["Slow"]["change_pct"] - 10) < 1e-9,
          f"warmup=5: {rc} {v}")

    # -isolate: the crash is an error row, the rest is compared
    rc, out, err = run(CRASH, CRASH, "-isolate", "-filter=Crash|Slow", "-output_json=" + js)
    check(rc == 1, f"-isolate: exit status {rc}, want 1 (a benchmark failed)")
    doc, v = verdicts(js)
    check(v.get("Crash", {}).get("verdict") == "error" and "crashed" in (v["Crash"]["error"] or ""),
          f"-isolate: {v.get('Crash')}")
    check(v.get("Slow", {}).get("verdict") == "same", f"-isolate: Slow {v.get('Slow')}")
    check(doc["summary"]["error"] == 1, f"-isolate: summary {doc['summary']}")
    # without it too: the comparison runs in a child, so the rows compared
    # before the crash are kept (and those after it compared)
    rc, out, err = run(CRASH, CRASH, "-filter=Crash|Slow|Steady", "-output_json=" + js)
    doc, v = verdicts(js)
    check(rc == 1 and "killed by signal 11" in (v.get("Crash", {}).get("error") or "") and
          v.get("Slow", {}).get("verdict") == "same" and
          v.get("Steady", {}).get("verdict") == "same", f"crash without -isolate: {rc} {v}")
    check("| Crash |" in out and "| Steady |" in out, f"crash without -isolate: table {out}")

    # a benchmark that calls exit(0): an error row, exit status 1, in both
    # modes; the others are compared
    for mode in ([], ["-isolate"]):
        rc, out, err = run(HOSTILE, HOSTILE, "-filter=Exit|Steady", "-output_json=" + js, *mode)
        doc, v = verdicts(js)
        check(rc == 1 and v.get("Exit", {}).get("error") ==
              "exited with status 0 before it finished" and
              v.get("Steady", {}).get("verdict") == "same", f"exit(0) {mode}: {rc} {v}")

    # -timeout: a hung benchmark is killed and becomes an error row
    for mode in ([], ["-isolate"]):
        t0 = time.monotonic()
        rc, out, err = run(HOSTILE, HOSTILE, "-filter=Hang|Steady", "-timeout=0.5",
                           "-output_json=" + js, *mode)
        doc, v = verdicts(js)
        check(rc == 1 and (v.get("Hang", {}).get("error") or "").startswith(
            "timed out: still running after 0.5 s (-timeout)") and
            v.get("Steady", {}).get("verdict") == "same" and time.monotonic() - t0 < 60,
            f"-timeout {mode}: {rc} {v}")
    # SIGTERM to femtobench-ab ends the hung benchmark's process too
    def alive(pid):
        try:
            with open(f"/proc/{pid}/stat") as f:
                return f.read().rsplit(")", 1)[1].split()[0] != "Z"
        except OSError:
            return False

    for mode in ([], ["-isolate"]):
        pidfile = os.path.join(tmp, "hang.pid")
        if os.path.exists(pidfile):
            os.unlink(pidfile)
        e = dict(os.environ, FEMTOBENCH_SUPPRESS_WARNINGS="1", AB_PIDFILE=pidfile)
        p = subprocess.Popen([AB, HOSTILE, HOSTILE, "-filter=Hang", *mode], env=e,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(400):
            if os.path.exists(pidfile) and open(pidfile).read().endswith("\n"):
                break
            time.sleep(0.05)
        p.send_signal(signal.SIGTERM)
        p.wait(timeout=30)
        check(p.returncode == -signal.SIGTERM, f"SIGTERM {mode}: exit status {p.returncode}")
        hung = int(open(pidfile).read())
        for _ in range(100):
            if not alive(hung):
                break
            time.sleep(0.05)
        check(not alive(hung), f"SIGTERM {mode}: the hung benchmark's process {hung} still runs")
        if alive(hung):
            os.kill(hung, signal.SIGKILL)

    # more than 256 runs in one benchmark function: every one compared
    rc, out, err = run(HOSTILE, HOSTILE, "-filter=Many", "-output_json=" + js)
    doc, v = verdicts(js)
    check(rc == 0 and len(v) == 300 and all(b["verdict"] == "same" for b in v.values()),
          f"300 runs: {rc} {len(v)} {doc['summary']}")

    # a thread group's threads are not pinned to femtobench-ab's one CPU
    # (Group names its run after what its threads may use)
    if len(os.sched_getaffinity(0)) > 1:
        rc, out, err = run(HOSTILE, HOSTILE, "-filter=Group", "-output_json=" + js)
        doc, v = verdicts(js)
        check(list(v) == ["Group.free/threads:2"], f"thread group pinned: {rc} {list(v)}")

    # nothing in common: a gate that compared nothing does not pass
    rc, out, err = run(OLD, NEW, "-filter=Removed", "-fail_on_slower")
    check(rc == 3 and "nothing was compared" in err, f"nothing in common: {rc} {err}")
    rc, out, err = run(OLD, NEW, "-filter=Removed")
    check(rc == 0 and "nothing was compared" in err, f"nothing in common (no gate): {rc} {err}")

    # an output to stdout: the table goes to stderr, the JSON stays valid
    rc, out, err = run(OLD, NEW, "-filter=Slow", "-output_json=-")
    try:
        slower = json.loads(out)["summary"]["slower"]
    except ValueError:
        slower = None
    check(rc == 0 and slower == 1 and "| Slow |" in err, f"-output_json=-: {rc} {out[:200]!r}")

    # the plain-compiler recipe against the build's library, with the
    # build's own compiler and flags (an i386 build's library links only
    # into an i386 plugin; tests/CMakeLists.txt passes them)
    cc = os.environ.get("FB_CC") or shutil.which("cc") or shutil.which("gcc")
    flags = shlex.split(os.environ.get("FB_CFLAGS", "")) + shlex.split(
        os.environ.get("FB_LDFLAGS", ""))
    lib = os.path.join(BUILD, "libfemtobench.a")
    if cc and os.path.exists(lib):
        so = os.path.join(tmp, "suite.so")
        r = subprocess.run([cc, *flags, "-shared", "-fPIC", "-o", so,
                            os.path.join(SOURCE, "tests", "ab_suite.c"), "-I",
                            os.path.join(SOURCE, "include"), lib, "-lpthread", "-lm"],
                           capture_output=True, text=True)
        if check(r.returncode == 0, f"recipe: {r.stderr}"):
            rc, out, err = run(so, NEW, "-output_json=" + js, "-filter=Slow|Steady")
            doc, v = verdicts(js)
            check(rc == 0 and v["Slow"]["verdict"] == "slower" and v["Steady"]["verdict"] ==
                  "same", f"recipe plugin: {rc} {err} {v}")

    # -valgrind: exact instruction counts of both sides
    if shutil.which("valgrind") and not ASAN:
        rc, out, err = run(OLD, NEW, "-valgrind", "-filter=Slow|Steady|Fam", "-output_json=" + js)
        if "Valgrind's headers" in err or "callgrind.h" in err:
            print("-valgrind: built without <valgrind/callgrind.h>; not checked")
        else:
            check(rc == 0, f"-valgrind: exit status {rc}: {err}")
            doc, v = verdicts(js)
            check(doc["context"]["mode"] == "valgrind", "-valgrind: mode")
            s = v.get("Slow", {})
            check(s.get("verdict") == "slower" and s["new_instructions"] > s["old_instructions"],
                  f"-valgrind: Slow {s}")
            for n in ("Steady", "Fam/2", "Fam/4"):
                b = v.get(n, {})
                check(b.get("verdict") == "same" and b["old_instructions"] ==
                      b["new_instructions"] and b["old_instructions"] > 0, f"-valgrind: {n} {b}")
            # a crash under Callgrind: an error row, with -isolate or without
            # (tests/test_ab_hostile.py checks the rows around it)
            rc, out, err = run(CRASH, CRASH, "-valgrind", "-filter=Crash|Slow")
            check(rc == 1 and "| Crash |" in out and "crashed under Callgrind" in out,
                  f"-valgrind crash: {rc} {out} {err}")
            rc, out, err = run(CRASH, CRASH, "-valgrind", "-isolate", "-filter=Crash|Slow",
                               "-output_json=" + js)
            doc, v = verdicts(js)
            check(rc == 1 and v.get("Crash", {}).get("verdict") == "error" and
                  "crashed under Callgrind" in v["Crash"]["error"] and
                  v.get("Slow", {}).get("verdict") == "same", f"-valgrind -isolate: {rc} {v}")
            # exit(0) under Callgrind is no success either
            rc, out, err = run(HOSTILE, HOSTILE, "-valgrind", "-filter=Exit|Steady")
            check(rc == 1 and "| Exit |" in out and "exited before it finished" in out,
                  f"-valgrind exit(0): {rc} {out} {err}")
            rc, out, err = run(HOSTILE, HOSTILE, "-valgrind", "-isolate", "-filter=Exit|Steady",
                               "-output_json=" + js)
            doc, v = verdicts(js)
            check(rc == 1 and "exited before it finished" in (v.get("Exit", {}).get("error") or "")
                  and v.get("Steady", {}).get("verdict") == "same",
                  f"-valgrind -isolate exit(0): {rc} {v}")
            # a count that moves between epochs (Moving: each process starts
            # its epochs' work at its own pid): the same code twice is `same`
            # within the spread, in every output; 10% more work is `slower`
            # beyond it; exact counts stay exact
            smd, spage = os.path.join(tmp, "spread.md"), os.path.join(tmp, "spread.html")
            for i in range(3):
                rc, out, err = run(SPREAD, SPREAD, "-valgrind", "-filter=Moving|Steady",
                                   "-output_json=" + js, "-output_md=" + smd,
                                   "-output_html=" + spage)
                doc, v = verdicts(js)
                m = v.get("Moving", {})
                check(rc == 0 and m.get("verdict") == "same" and m.get("spread") == "within" and
                      m["old_instructions_low"] < m["old_instructions_high"] and
                      m["low_pct"] < 0 < m["high_pct"], f"-valgrind A/A, a count that moves: {rc} {m}")
                st = v.get("Steady", {})
                check(st.get("verdict") == "same" and st.get("spread") == "exact" and
                      st["old_instructions_low"] == st["old_instructions_high"] ==
                      st["old_instructions"], f"-valgrind A/A, exact: {st}")
                row = [l for l in out.splitlines() if l.startswith("| Moving ")]
                check(len(row) == 1 and "within the spread" in row[0] and row[0].endswith("| same |"),
                      f"-valgrind A/A table: {out}")
                check(any(l.startswith("| Steady ") and "| exact |" in l for l in out.splitlines()),
                      f"-valgrind A/A table, exact: {out}")
                with open(smd) as f:
                    check("within the spread" in f.read(), "-valgrind A/A markdown")
                with open(spage) as f:
                    check("within the spread" in f.read(), "-valgrind A/A html")
            rc, out, err = run(SPREAD, SPREAD_MORE, "-valgrind", "-filter=Moving|Steady",
                               "-output_json=" + js, "-fail_on_slower")
            doc, v = verdicts(js)
            m = v.get("Moving", {})
            check(rc == 3 and m.get("verdict") == "slower" and m.get("spread") == "beyond" and
                  m["low_pct"] > 5 and v.get("Steady", {}).get("verdict") == "same",
                  f"-valgrind A/B, a count that moves: {rc} {m}")
            check(any(l.startswith("| Moving ") and "beyond the spread" in l and "slower" in l
                      for l in out.splitlines()), f"-valgrind A/B table: {out}")
            # a plugin of interface 1 (no spread): its counts stay exact
            abi1 = os.path.join(T, "ab_fake_abi1.so")
            rc, out, err = run(abi1, abi1, "-valgrind", "-output_json=" + js)
            doc, v = verdicts(js)
            c = v.get("Counted", {})
            check(rc == 0 and c.get("verdict") == "same" and c.get("spread") == "exact" and
                  c["old_instructions"] == c["old_instructions_high"] == 42,
                  f"-valgrind, a plugin of interface 1: {rc} {err} {v}")
            # names that differ only after a line break are paired whole
            rc, out, err = run(SPREAD, SPREAD, "-valgrind", "-filter=NameBreak",
                               "-output_json=" + js)
            doc, v = verdicts(js)
            check(rc == 0 and sorted(v) == ["NameBreak\nlarge", "NameBreak\nsmall"] and
                  all(b["verdict"] == "same" and b["change_pct"] == 0 and
                      b["old_instructions"] == b["new_instructions"] for b in v.values()),
                  f"-valgrind, names with a line break: {rc} {err} {v}")
    else:
        print("no valgrind (or an ASan build): -valgrind not checked")

    # bad input: one line, exit 2, nothing run
    notes = os.path.join(tmp, "notes.txt")
    with open(notes, "w") as f:
        f.write("not a plugin\n")
    bad([], "needs two plugins")
    bad([OLD], "needs two plugins")
    bad([OLD, OLD, OLD], "only two plugins")
    bad([os.path.join(tmp, "missing.so"), OLD], "cannot open")
    # a value with a line break is still one line (shown as \x0a)
    bad([os.path.join(tmp, "two\nlines.so"), OLD], "cannot open", "\\x0a")
    bad([notes, OLD], "not a shared object")
    bad([OLD, notes], "not a shared object")
    bad([os.path.join(T, "ab_suite_runner"), OLD], "cannot load")
    bad([os.path.join(T, "ab_fake_none.so"), OLD], "not a femtobench plugin")
    bad([OLD, os.path.join(T, "ab_fake_version.so")], "built with femtobench 9.9.0",
        "rebuild the plugin")
    bad([os.path.join(T, "ab_fake_missing.so"), OLD], "cannot load", "undefined symbol")
    bad([OLD, os.path.join(T, "ab_fake_abi_next.so")], "plugin interface 5",
        "plugin interfaces 1 to 4", "rebuild the plugin")
    if os.path.exists(os.path.join(T, "ab_fake_m32.so")):
        bad([os.path.join(T, "ab_fake_m32.so"), OLD], "cannot load", "wrong ELF class")
    bad([OLD, NEW, "-rounds=5"], "-rounds")
    bad([OLD, NEW, "-rounds=x"], "-rounds")
    bad([OLD, NEW, "-threshold=-1"], "-threshold")
    bad([OLD, NEW, "-min_time=0"], "-min_time")
    bad([OLD, NEW, "-filter=("], "-filter")
    bad([OLD, NEW, "-filter=NoSuchBenchmark"], "selects no benchmark")
    bad([OLD, NEW, "-bogus"], "unknown option")
    bad([OLD, NEW, "-asymptote=10,x"], "-asymptote")
    bad([OLD, NEW, "-asymptote=0"], "-asymptote")
    bad([OLD, NEW, "-output_json=" + os.path.join(tmp, "no", "dir.json")], "-output_json")
    bad([OLD, NEW, "-output_json=" + js, "-output_md=" + js], "the same file")
    # the runner's rules for outputs: any spelling of one file, stdout
    # twice, a plugin under test
    bad([OLD, NEW, "-output_json=" + js, "-output_md=" + os.path.join(tmp, ".", "ab.json")],
        "the same file")
    bad([OLD, NEW, "-output_json=-", "-output_md=/dev/stdout"], "only one output can go to stdout")
    newcopy = os.path.join(tmp, "new.so")
    shutil.copy(NEW, newcopy)
    size = os.path.getsize(newcopy)
    bad([OLD, newcopy, "-output_json=" + newcopy], "this run reads")
    check(os.path.getsize(newcopy) == size, "-output_json=NEW.so replaced the plugin")
    bad([OLD, NEW, "-timeout=0"], "-timeout")
    bad([OLD, NEW, "-timeout=x"], "-timeout")
    # registrations the runner refuses; an interface with NULL functions
    bad([BADNAME, OLD], "longer than 1024 bytes")
    bad([os.path.join(T, "ab_fake_nulls.so"), OLD], "lacks a function")
    bad([OLD, NEW, "-valgrind", "-min_time=5"], "-min_time")
    check(not os.path.exists(os.path.join(tmp, "no")), "a bad run wrote something")

    # the same source, unchanged, is also an ordinary runner
    r = subprocess.run([os.path.join(T, "ab_suite_runner"), "-list"], capture_output=True,
                       text=True)
    check(r.returncode == 0 and "Slow" in r.stdout.split(), f"ab_suite_runner -list: {r}")
finally:
    shutil.rmtree(tmp, ignore_errors=True)

check.finish()
