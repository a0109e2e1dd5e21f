"""femtobench-ab against plugins that misbehave (tests/ab_suite.c's hostile
build, tests/ab_names.c, tests/ab_fake_plugins.c; the ordinary cases are
tests/test_ab_cli.py). Every time is a fake clock's: no wall-clock threshold.

Checked: under -valgrind without -isolate, a benchmark that crashes or calls
exit(0) is an error row and the rest is counted and printed (exit status 1);
-valgrind -timeout kills a hung benchmark's Callgrind child (an error row);
SIGTERM to femtobench-ab -valgrind ends the Callgrind child of a hung
benchmark; the measuring child alone is pinned to the measuring CPU;
-fail_on_slower does not pass when a compared row kept too few rounds for any
verdict; runs named as the runner refuses (empty, over 1024 bytes) get the
runner's line, exit status 2 and nothing written, timed and counted; control
characters in a run's name are escaped in the table and the markdown; the
"wrote" line escapes its file name; a plugin whose `run` is NULL is named with
that function; a thread group whose leader leaves before its first run
(tests/ab_suite.c's AB_LEADER build) is an error row, exit status 1."""
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fbtest  # noqa: E402

BUILD = os.environ.get("FB_BUILD_DIR", "build")
AB = os.path.join(BUILD, "femtobench-ab")
T = os.path.join(BUILD, "tests")
OLD, NEW, CRASH, HOSTILE, LEADER = (os.path.join(T, f"ab_{v}.so")
                                    for v in ("old", "new", "crash", "hostile", "leader"))
NAMES = [os.path.join(T, f"ab_names{k}.so") for k in (1, 2, 3)]
check = fbtest.Checks()

if not os.path.exists(AB):
    print("femtobench-ab was not built (no dlopen on this platform)")
    sys.exit(77)

# an AddressSanitizer build: a crash must stay a real signal, and valgrind
# cannot run such a program
ASAN = fbtest.asan_build(AB)
VALGRIND = fbtest.valgrind_ready([AB, OLD, OLD], probe=["-filter=^fb-no-such-benchmark$"])


def env(extra=None):
    e = dict(os.environ)
    e.pop("FEMTOBENCH_CONFIG", None)
    e["FEMTOBENCH_SUPPRESS_WARNINGS"] = "1"
    if ASAN:
        e["ASAN_OPTIONS"] = e.get("ASAN_OPTIONS", "") + ":handle_segv=0"
    e.update(extra or {})
    return e


run = fbtest.runner(AB, env=env, timeout=300)


def rows(out):
    """The table's rows by name (a busy machine may mark a name :warning:)."""
    got = {}
    for line in out.splitlines():
        if line.startswith("| ") and not line.startswith("| benchmark"):
            cells = [c.strip() for c in line.strip("|").split(" | ")]
            got[cells[0].replace(":warning: ", "")] = cells
    return got


def alive(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def hung_child(args, pidfile):
    """Starts femtobench-ab on the Hang benchmark; returns it once the
    benchmark's process wrote its pid (or after 20 s)."""
    if os.path.exists(pidfile):
        os.unlink(pidfile)
    p = subprocess.Popen([AB, HOSTILE, HOSTILE, "-filter=Hang", *args],
                         env=env({"AB_PIDFILE": pidfile}), stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL)
    for _ in range(400):
        if os.path.exists(pidfile) and open(pidfile).read().endswith("\n"):
            break
        time.sleep(0.05)
    return p


tmp = tempfile.mkdtemp(prefix="fb_ab_hostile_")
try:
    js = os.path.join(tmp, "ab.json")
    md = os.path.join(tmp, "ab.md")
    pidfile = os.path.join(tmp, "hang.pid")

    # too few rounds kept for any verdict (two runs in one function, known
    # only after the run): said on stderr, and -fail_on_slower does not pass
    rc, out, err = run(OLD, NEW, "-instances=1", "-rounds=6", "-filter=Two", "-fail_on_slower")
    check(rc == 3 and out.count("none: 6 rounds kept, 7 needed") == 2 and
          "2 benchmarks kept too few rounds or layouts for any verdict" in err and
          "-rounds=8 or more decides them" in err and "(-fail_on_slower: exit status 3)" in err,
          f"-fail_on_slower, rows with too few rounds: {rc} {out} {err}")
    rc, out, err = run(OLD, NEW, "-instances=1", "-rounds=6", "-filter=Two")
    check(rc == 0 and "kept too few rounds" in err and "-fail_on_slower" not in err,
          f"rows with too few rounds, no gate: {rc} {err}")
    rc, out, err = run(OLD, NEW, "-rounds=8", "-filter=Two", "-fail_on_slower")
    check(rc == 0 and "too few" not in err, f"-rounds=8 decides two runs: {rc} {out} {err}")

    # the measuring child alone is pinned to the measuring CPU: the parent,
    # which wakes to watch it, stays off that CPU
    if len(os.sched_getaffinity(0)) > 1:
        p = hung_child(["-timeout=30"], pidfile)
        try:
            child = int(open(pidfile).read())
            check(len(os.sched_getaffinity(child)) == 1,
                  f"the measuring child's CPUs: {os.sched_getaffinity(child)}")
            check(os.sched_getaffinity(p.pid) == os.sched_getaffinity(0),
                  f"femtobench-ab itself pinned: {os.sched_getaffinity(p.pid)}")
        finally:
            p.send_signal(signal.SIGTERM)
            p.wait(timeout=30)

    # a thread group whose leader leaves (pthread_exit or exit(0)) before its
    # first run: an error row for the benchmark (old and new), the other
    # benchmarks compared, exit status 1, the JSON says error; never
    # "0 benchmarks" with exit status 0
    modes = [[], ["-isolate"]] + ([["-valgrind"], ["-valgrind", "-isolate"]] if VALGRIND else [])
    for how in ("0", "1"):
        for mode in modes:
            what = f"leader {'exit(0)' if how == '1' else 'pthread_exit'} {mode}"
            if os.path.exists(js):
                os.unlink(js)
            rc, out, err = run(LEADER, LEADER, "-filter=LeaderGone|Steady", "-output_json=" + js,
                               *mode, env={"AB_LEADER_EXIT": how})
            got = rows(out)
            bad = got.get("LeaderGone/threads:2", [""])[-1]
            check(rc == 1 and bad.startswith("error: ") and
                  ("old and new: " in bad or "exited with status 0" in bad) and
                  got.get("Steady", [""])[-1] == "same" and "2 benchmarks: 1 same, 1 failed" in out + err,
                  f"{what}: {rc} {out} {err}")
            with open(js) as f:
                v = {b["name"]: b for b in json.load(f)["benchmarks"]}
            check(v.get("LeaderGone/threads:2", {}).get("verdict") == "error" and
                  v.get("Steady", {}).get("verdict") == "same", f"{what}: JSON {v}")

    # runs named as the runner refuses: the runner's line, nothing written
    for so, why in ((NAMES[0], "is empty"), (NAMES[1], "is longer than 1024 bytes")):
        if os.path.exists(js):
            os.unlink(js)
        modes = [[], ["-isolate"]] + ([["-valgrind"]] if VALGRIND else [])
        for mode in modes:
            rc, out, err = run(so, so, "-output_json=" + js, *mode)
            lines = err.strip().splitlines()
            check(rc == 2 and out == "" and len(lines) == 1 and
                  lines[0].startswith("femtobench: error: Named: a run's name '") and
                  lines[0].endswith(why + " (dashboards refuse it); nothing written"
                                    if "1024" in why else why + "; nothing written") and
                  not os.path.exists(js), f"{os.path.basename(so)} {mode}: {rc} {out!r} {err!r}")

    # control characters in a run's name: escaped in the table and markdown
    rc, out, err = run(NAMES[2], NAMES[2], "-output_md=" + md, "-output_json=" + js)
    with open(md, encoding="utf-8", errors="replace") as f:
        text = f.read()
    check(rc == 0 and "| Esc\\x1b[31mRed\\x07 |" in out and "\x1b" not in out and
          "\x07" not in out, f"control characters in the table: {rc} {out!r}")
    check("Esc\\x1b[31mRed\\x07" in text and "\x1b" not in text, f"markdown: {text!r}")
    with open(js) as f:
        check("Esc\x1b[31mRed\x07" in {b["name"] for b in json.load(f)["benchmarks"]},
              "the JSON keeps the name itself")
    # ... and in the file name that the "wrote" line names
    odd = os.path.join(tmp, "two\nlines.json")
    rc, out, err = run(OLD, OLD, "-filter=Steady", "-output_json=" + odd)
    check(rc == 0 and "wrote '" + odd.replace("\n", "\\x0a") + "'" in err,
          f"the wrote line: {rc} {err!r}")

    # an interface whose run function is NULL: named
    rc, out, err = run(os.path.join(T, "ab_fake_null_run.so"), OLD)
    check(rc == 2 and out == "" and len(err.strip().splitlines()) == 1 and
          "ab_fake_null_run.so: its plugin interface" in err and "'run' is NULL" in err,
          f"NULL run: {rc} {err!r}")

    if VALGRIND:
        # without -isolate, a benchmark that crashes or calls exit(0) under
        # Callgrind is its error row; the benchmarks before and after it are
        # counted, printed and written
        for so, filt, bad, how in ((CRASH, "Call|Crash|Slow", "Crash", "crashed"),
                                   (HOSTILE, "Steady|Exit|Two", "Exit",
                                    "exited before it finished")):
            if os.path.exists(js):
                os.unlink(js)
            rc, out, err = run(so, so, "-valgrind", "-filter=" + filt, "-output_json=" + js)
            got = rows(out)
            others = [n for n in got if n != bad]
            check(rc == 1 and bad in got and got[bad][-1].startswith("error: old and new: " + how)
                  and len(others) >= 2 and all(got[n][-1] == "same" for n in others),
                  f"-valgrind, {bad} without -isolate: {rc} {out} {err}")
            with open(js) as f:
                v = {b["name"]: b for b in json.load(f)["benchmarks"]}
            check(v.get(bad, {}).get("verdict") == "error" and
                  all(v.get(n, {}).get("verdict") == "same" for n in others),
                  f"-valgrind, {bad} without -isolate: JSON {v}")

        # -timeout under -valgrind: a benchmark still running under Callgrind
        # after 2 s (wall time) is killed with the Callgrind child's process
        # group, an error row on both sides; the rest is counted; exit 1
        for mode in ([], ["-isolate"]):
            if os.path.exists(pidfile):
                os.unlink(pidfile)
            rc, out, err = run(HOSTILE, HOSTILE, "-valgrind", "-timeout=2", "-filter=Hang|Steady",
                               "-output_json=" + js, *mode, env={"AB_PIDFILE": pidfile})
            got = rows(out)
            check(rc == 1 and got.get("Hang", [""])[-1].startswith(
                "error: old and new: timed out: still running after 2 s under Callgrind") and
                got.get("Steady", [""])[-1] == "same", f"-valgrind -timeout=2 {mode}: {rc} {out} {err}")
            with open(js) as f:
                v = {b["name"]: b for b in json.load(f)["benchmarks"]}
            check(v.get("Hang", {}).get("verdict") == "error" and
                  v.get("Steady", {}).get("verdict") == "same",
                  f"-valgrind -timeout=2 {mode}: JSON {v}")
            hung = int(open(pidfile).read()) if os.path.exists(pidfile) else 0
            check(hung and not alive(hung), f"-valgrind -timeout=2 {mode}: {hung} still runs")
            if hung and alive(hung):
                os.kill(hung, signal.SIGKILL)

        # SIGTERM ends the Callgrind child that runs a hung benchmark
        p = hung_child(["-valgrind"], pidfile)
        hung = int(open(pidfile).read()) if os.path.exists(pidfile) else 0
        p.send_signal(signal.SIGTERM)
        p.wait(timeout=30)
        check(p.returncode == -signal.SIGTERM, f"-valgrind SIGTERM: exit status {p.returncode}")
        for _ in range(100):
            if not hung or not alive(hung):
                break
            time.sleep(0.05)
        check(hung and not alive(hung), f"-valgrind SIGTERM: the Callgrind child {hung} still runs")
        if hung and alive(hung):
            os.kill(hung, signal.SIGKILL)
    else:
        print("no valgrind, an ASan build, or built without <valgrind/callgrind.h>: "
              "-valgrind not checked")
finally:
    shutil.rmtree(tmp, ignore_errors=True)

check.finish()
