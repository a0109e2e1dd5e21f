"""The second hostile round (docs/reliability.md, "Second round"): the
runner tried as a hostile user would, with tests/suite_hostile_more.c (each
misbehaving benchmark active only when HOSTILE names it)."""
import json
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fbtest  # noqa: E402

BUILD = os.environ.get("FB_BUILD_DIR", "build")
SUITE = os.path.abspath(os.path.join(BUILD, "tests", "suite_hostile_more"))
check = fbtest.Checks()


run = fbtest.runner(SUITE, hostile="", timeout=60)


def bad(args, *must_contain, env=None, hostile=""):
    """Bad input: status 2, nothing on stdout, one line on stderr."""
    rc, out, err = run(*args, env=env, hostile=hostile)
    what = " ".join(a[:80] for a in args)
    lines = err.strip().splitlines()
    check(rc == 2, f"{what}: exit status {rc}, want 2")
    check(out == "", f"{what}: something ran: {out[:200]!r}")
    check(len(lines) == 1 and lines[0].startswith("femtobench: error: "),
          f"{what}: want one error line, got {lines[:5]!r}")
    for s in must_contain:
        check(s in err, f"{what}: stderr lacks {s!r}: {err[:300]!r}")


def alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie is not alive: its parent (the runner) is gone, init reaps it
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(") ")[-1][0] != "Z"
    except OSError:
        return False


# ------------------------------------- -isolate, -timeout and grandchildren
# A grandchild holding the result pipe (it sleeps 30 s) neither stalls the
# suite nor turns the finished benchmark into a "timed out" row; it is ended
# with its parent's process group.
with tempfile.TemporaryDirectory() as d:
    for extra in (["-isolate"], ["-timeout=20"]):
        pidfile = os.path.join(d, "gc.pid")
        t0 = time.monotonic()
        try:
            rc, out, err = run(*extra, hostile="Grandchild", env={"GC_PIDFILE": pidfile},
                               timeout=25)
        except subprocess.TimeoutExpired:
            rc, out, err = -1, "", "stalled"
        took = time.monotonic() - t0
        check(rc == 0 and "`Grandchild`" in out and "timed out" not in out and took < 20,
              f"{extra} grandchild: exit {rc} after {took:.1f} s: {out[-300:]} {err[-300:]}")
        pid = int(open(pidfile).read()) if os.path.exists(pidfile) else 0
        time.sleep(0.2)
        check(pid > 0 and not alive(pid), f"{extra}: the grandchild {pid} survived")
        if pid > 0 and alive(pid):
            os.kill(pid, 9)

# -timeout holds after the child closes its descriptors (it then hangs)
try:
    rc, out, err = run("-timeout=1", hostile="CloseFds", env={"CLOSE_HANG": "1"}, timeout=30)
except subprocess.TimeoutExpired:
    rc, out, err = -1, "", "the deadline was not kept"
check(rc == 1 and "timed out: still running after 1 s" in out,
      f"-timeout after closing descriptors: exit {rc}: {out[-300:]} {err[-200:]}")
# ... and a child that measures with its pipe closed says so, with no status number
rc, out, err = run("-isolate", hostile="CloseFds")
# (the CloseFds row only: another row's numbers may hold the digits 121)
row = next((line for line in out.splitlines() if "`CloseFds`" in line), "")
check(rc == 1 and "result pipe was closed" in row and "121" not in row,
      f"-isolate, descriptors closed: exit {rc}: {out[-300:]}")

# ------------------------------------------ outputs land where they were checked
# A benchmark that calls chdir() moves no output: relative paths are pinned
# before anything runs; nothing is written in the directory it moved to.
with tempfile.TemporaryDirectory() as d:
    elsewhere = os.path.join(d, "elsewhere")
    os.mkdir(elsewhere)
    for extra in ([], ["-isolate"]):
        rc, out, err = run(*extra, "-output_json=r.json", "-output_csv=r.csv", hostile="Chdir",
                           env={"CHDIR_TO": elsewhere}, cwd=d)
        check(rc == 0 and os.path.exists(os.path.join(d, "r.json")) and
              os.path.exists(os.path.join(d, "r.csv")) and not os.listdir(elsewhere),
              f"chdir {extra}: exit {rc}, in place: {sorted(os.listdir(d))}, moved: "
              f"{os.listdir(elsewhere)} {err[-300:]}")
        check("wrote 'r.json'" in err, f"chdir {extra}: the path as given: {err[-300:]}")
        for where in (d, elsewhere):
            for f in ("r.json", "r.csv"):
                if os.path.exists(os.path.join(where, f)):
                    os.unlink(os.path.join(where, f))

# An output that names an input is refused before anything runs.
COMPARE = os.path.join(BUILD, "femtobench-compare")
with tempfile.TemporaryDirectory() as d:
    base = os.path.join(d, "base.json")
    rc, out, err = run(f"-output_json={base}")
    check(rc == 0, f"baseline run: {rc} {err}")
    before = open(base).read()
    link = os.path.join(d, "link.json")
    os.symlink(base, link)
    for out_opt in ("-output_json", "-output_csv", "-output_html"):
        for spelled in (base, link, os.path.join(d, ".", "base.json")):
            bad([f"-baseline={base}", f"{out_opt}={spelled}", "-fail_on_slower"],
                "this run reads")
    check(open(base).read() == before, "the baseline was not touched")
    if os.path.exists(COMPARE):
        for spelled in (base, link):
            p = subprocess.run([COMPARE, base, base, f"-output_md={spelled}"],
                               capture_output=True, text=True, timeout=60)
            check(p.returncode == 2 and "this run reads" in p.stderr and p.stdout == "",
                  f"femtobench-compare -output_md=<an input>: {p.returncode} {p.stderr}")
        check(open(base).read() == before, "femtobench-compare left its input alone")
        md = os.path.join(d, "change.md")
        p = subprocess.run([COMPARE, base, base, f"-output_md={md}"], capture_output=True,
                           text=True, timeout=60)
        check(p.returncode == 0 and os.path.exists(md), f"a fresh -output_md: {p.stderr}")

# The standard input is not an output (refused before the run, not after).
for spelled in ("/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"):
    bad([f"-output_csv={spelled}"], "the standard input")

# ------------------------------------------------------------ small things
# -repetitions: the grammar of the other numbers (no blank, no sign, no point)
for v in (" 5", "+5", "5 ", "-5", "5.0", "1e1", "0x5", "", "0", "1001"):
    bad([f"-repetitions={v}"], "-repetitions=")
# a leading zero is refused by every numeric option alike
# (tests/test_hostile_fourth.py)
bad(["-repetitions=05"], "leading zero")

# -baseline: a FIFO is refused at once (it would wait for a writer); a BOM
# is named; a repeated key keeps its last value (as Python's json and jq)
with tempfile.TemporaryDirectory() as d:
    fifo = os.path.join(d, "fifo.json")
    os.mkfifo(fifo)
    try:
        bad([f"-baseline={fifo}"], "named pipe")
    except subprocess.TimeoutExpired:
        check(False, "-baseline=<a FIFO> blocked")
    base = os.path.join(d, "base.json")
    rc, out, err = run(f"-output_json={base}")
    text = open(base, encoding="utf-8").read()
    bom = os.path.join(d, "bom.json")
    open(bom, "w", encoding="utf-8").write("\ufeff" + text)
    bad([f"-baseline={bom}"], "byte order mark (BOM")
    # the same document with "name" given twice: the last one is the name
    doc = json.loads(text)
    r0 = doc["results"][0]
    raw = json.dumps(doc)
    first = json.dumps({"name": r0["name"]})[1:-1]
    raw = raw.replace(first, '"name": "Decoy", ' + first, 1)
    dup = os.path.join(d, "dup.json")
    open(dup, "w").write(raw)
    check(json.load(open(dup))["results"][0]["name"] == r0["name"], "Python reads the last key")
    rc, out, err = run(f"-baseline={dup}")
    check(rc == 0 and "Decoy" not in out and f"`{r0['name']}`" in out,
          f"a repeated key: the last value, as Python: {rc} {out[-400:]} {err[-200:]}")

# A comparison's alternative goes through the dashboards' name check (1 to
# 1024 bytes), as a run's name does, in process and under -isolate.
with tempfile.TemporaryDirectory() as d:
    j = os.path.join(d, "c.json")
    for extra in ([], ["-isolate"]):
        rc, out, err = run(*extra, f"-output_json={j}", hostile="Cmp", env={"LONGALT": "2012"})
        check(rc == 2 and "an alternative's name" in err and "longer than 1024 bytes" in err
              and not os.path.exists(j), f"{extra} a 2012-byte alternative: {rc} {err[-300:]}")
    rc, out, err = run(f"-output_json={j}", hostile="Cmp", env={"LONGALT": "1024"})
    check(rc == 0 and os.path.exists(j), f"a 1024-byte alternative is fine: {rc} {err[-300:]}")

# FEMTOBENCH_CONFIG: bad entries are shown escaped (no ESC or BEL reaches
# the terminal) and the list is cut after 10 with "... and N more"
cfg = "epochs=\x1b[31mx,foo\x1b]0;pwn\x07=1," + ",".join(f"k{i}=1" for i in range(30))
rc, out, err = run("-list", env={"FEMTOBENCH_CONFIG": cfg})
lines = err.strip().splitlines()
check(rc == 2 and "\x1b" not in err and "\x07" not in err and "\\x1b[31mx" in err
      and "foo\\x1b]0;pwn\\x07" in err, f"FEMTOBENCH_CONFIG escaped: {err[:300]!r}")
check(len(lines) == 12 and "... and 22 more bad entries" in lines[10]
      and "32 bad entries" in lines[11], f"FEMTOBENCH_CONFIG list cut: {lines!r:.600}")

# The change table prints a baseline's unit escaped: '|' cannot add a
# column, ESC cannot reach the terminal or the markdown
with tempfile.TemporaryDirectory() as d:
    base = os.path.join(d, "base.json")
    run(f"-output_json={base}")
    doc = json.load(open(base))
    for r in doc["results"]:
        r["unit"] = "a|b\x1b[2Jc"
    odd = os.path.join(d, "odd.json")
    json.dump(doc, open(odd, "w"))
    rc, out, err = run(f"-baseline={odd}")
    rows = [l for l in out.splitlines() if "`Fine`" in l and "/a" in l]
    check(rc == 0 and "\x1b" not in out and rows and "a\\|b\\x1b[2Jc" in rows[0]
          and rows[0].count(" | ") == 5, f"the change table's unit: {rc} {rows!r} {err[-200:]}")
    if os.path.exists(COMPARE):
        md = os.path.join(d, "c.md")
        p = subprocess.run([COMPARE, odd, odd, f"-output_md={md}"], capture_output=True,
                           text=True, timeout=60)
        text = open(md).read() if os.path.exists(md) else ""
        check(p.returncode == 0 and "\x1b" not in p.stdout + text and "a\\|b" in text,
              f"femtobench-compare's unit: {p.returncode} {text[-300:]!r}")

# The usual CI memcheck line: the -filter child leaks nothing, and its
# answers count whatever exit status a checker gives it.
import shutil
ASAN = b"__asan_init" in open(SUITE, "rb").read()
if shutil.which("valgrind") and not ASAN:
    for extra in (["-list"], ["-sanity_check"]):
        p = subprocess.run(["valgrind", "-q", "--error-exitcode=42", "--leak-check=full",
                            SUITE, *extra, "-filter=Fine"], capture_output=True, text=True,
                           timeout=240, env={**os.environ, "FEMTOBENCH_SUPPRESS_WARNINGS": "1",
                                             "HOSTILE": ""})
        if "Fatal error at startup" in p.stderr:
            # Memcheck must redirect functions in the dynamic linker, which
            # it finds only in the linker's symbols: a 32-bit program needs
            # libc6-dbg:i386 (.ci/run installs it where it can). Valgrind
            # did not start, so there is nothing of femtobench's to check.
            print(f"note: valgrind could not start {SUITE} (for a 32-bit program it needs "
                  "libc6-dbg:i386): the memcheck line was not tried")
            break
        check(p.returncode == 0 and "too complex" not in p.stderr
              and "definitely lost" not in p.stderr,
              f"memcheck {extra} -filter=Fine: exit {p.returncode}: {p.stderr[-600:]}")
else:
    print("note: no valgrind (or an ASan build): the memcheck line was not tried")

check.finish()
