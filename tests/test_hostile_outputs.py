"""Output paths tried as a hostile user would (docs/reliability.md):
paths longer than the system allows, /dev/stdout and /dev/stderr on a file,
a pipe and a terminal, one file under two spellings, an output that is the
file the table goes to, the set of files after a Ctrl-C at any moment, and
a temporary file left by a killed run. Runs tests/suite_hostile.c."""
import csv
import io
import os
import pty
import random
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fbtest  # noqa: E402

BUILD = os.environ.get("FB_BUILD_DIR", "build")
SUITE = os.path.abspath(os.path.join(BUILD, "tests", "suite_hostile"))
check = fbtest.Checks()


def env():
    e = dict(os.environ)
    for k in ("FEMTOBENCH_CONFIG", "FEMTOBENCH_ENDLESS"):
        e.pop(k, None)
    e["FEMTOBENCH_SUPPRESS_WARNINGS"] = "1"
    e["HOSTILE"] = "fake"  # deterministic and fast
    return e


# HOSTILE=fake: deterministic and fast; the output in bytes
run = fbtest.runner([SUITE, "-filter=Fine.*"], hostile="fake", text=False)


def is_csv(text, what):
    rows = list(csv.reader(io.StringIO(text)))
    ok = len(rows) >= 3 and rows[0][:2] == ["title", "name"] and rows[1][1] == "Fine"
    check(ok, f"{what}: not the CSV: {text[:300]!r}")


def refused(args, cwd, *must, **kw):
    rc, out, err = run(*args, cwd=cwd, **kw)
    err = err.decode(errors="replace") if isinstance(err, bytes) else err
    what = " ".join(a[:60] for a in args)
    check(rc == 2, f"{what}: rc={rc}, want 2 ({err[:300]!r})")
    lines = err.strip().splitlines()
    check(len(lines) == 1 and lines[0].startswith("femtobench: error: "), f"{what}: {lines[:4]!r}")
    for m in must:
        check(m in err, f"{what}: stderr lacks {m!r}: {err[:300]!r}")


tmp = tempfile.mkdtemp(prefix="fb_hostile_out_")
P = lambda name: os.path.join(tmp, name)  # noqa: E731

# --- paths longer than the system allows: refused, never truncated
refused(["-output_csv=" + "x" * 256], tmp, "path too long")
refused(["-output_csv=" + "d/" * 2100 + "x.csv"], tmp, "path too long")
refused(["-output_csv=" + "x" * 240], tmp, "at most 229")
check(not any(n.startswith("x") for n in os.listdir(tmp)), "a truncated file was created")
os.symlink("y" * 255 + "/" + "z" * 255 + "/" + "w" * 255, P("longlink"))
rc, out, err = run("-output_csv=longlink", cwd=tmp)
check(rc == 2, f"a link to a long path: rc={rc} {err!r}")

# --- /dev/stdout and /dev/stderr are written in place
with open(P("stdout.txt"), "wb") as f:
    rc, _, err = run("-output_csv=/dev/stdout", cwd=tmp, stdout=f, stderr=subprocess.PIPE)
check(rc == 0, f"/dev/stdout to a file: rc={rc} {err!r}")
is_csv(open(P("stdout.txt")).read(), "/dev/stdout to a file")
check("| benchmark" in err.decode(), "the table goes to stderr when an output is stdout")
ino = os.stat(P("stdout.txt")).st_ino
with open(P("stdout.txt"), "ab") as f:
    rc, _, _ = run("-output_csv=/proc/self/fd/1", cwd=tmp, stdout=f, stderr=subprocess.PIPE)
check(rc == 0 and os.stat(P("stdout.txt")).st_ino == ino, "the file behind stdout was replaced")
check(open(P("stdout.txt")).read().count("title,name") == 2, "appended in place, not replaced")
rc, out, err = run("-output_csv=/dev/stdout", cwd=tmp)  # a pipe
check(rc == 0, f"/dev/stdout to a pipe: rc={rc} {err!r}")
is_csv(out.decode(), "/dev/stdout to a pipe")
with open(P("stderr.txt"), "wb") as f:
    rc, out, _ = run("-output_csv=/dev/stderr", cwd=tmp, stderr=f, stdout=subprocess.PIPE)
check(rc == 0 and b"| benchmark" in out, f"/dev/stderr to a file: rc={rc}")
is_csv(open(P("stderr.txt")).read(), "/dev/stderr to a file")
os.symlink("/dev/stdout", P("mystdout"))
rc, out, err = run("-output_json=mystdout", cwd=tmp)
check(rc == 0 and out.decode().lstrip().startswith("{"), "a link to /dev/stdout: written in place")
check(os.path.islink(P("mystdout")), "the link to /dev/stdout was replaced")
# a terminal: stdout and stderr on one pty; the table and the CSV may share it
master, slave = pty.openpty()
p = subprocess.Popen([SUITE, "-filter=Fine.*", "-output_csv=/dev/stderr"], env=env(), cwd=tmp,
                     stdout=slave, stderr=slave)
os.close(slave)
got = b""
while True:
    try:
        chunk = os.read(master, 65536)
    except OSError:
        break
    if not chunk:
        break
    got += chunk
os.close(master)
check(p.wait(timeout=60) == 0, "/dev/stderr on a terminal: the run failed")
text = got.decode(errors="replace").replace("\r\n", "\n")
check("| benchmark" in text and "title,name" in text, f"terminal: {text[:300]!r}")

# --- one file under two spellings, or the file the table goes to: refused
open(P("a.csv"), "w").write("OLD\n")
os.mkdir(P("sub"))
os.symlink("a.csv", P("alias.csv"))
os.link(P("a.csv"), P("hard.csv"))
for spelled in ("./a.csv", "sub/../a.csv", P("a.csv"), "alias.csv", "hard.csv", "sub/../alias.csv"):
    refused(["-output_csv=a.csv", "-output_json=" + spelled], tmp, "the same file as -output_csv")
refused(["-output_csv=new.csv", "-output_json=./sub/../new.csv"], tmp, "the same file")
check(not os.path.exists(P("new.csv")), "a refused run wrote a file")
refused(["-output_csv=-", "-output_json=/dev/stdout"], tmp, "only one output can go to stdout")
with open(P("table.md"), "wb") as f:
    refused(["-output_csv=table.md"], tmp, "the file the table goes to (stdout)", stdout=f,
            stderr=subprocess.PIPE)
check(open(P("table.md")).read() == "", "the table's file was written")
rc, out, err = run("-output_csv=/dev/stderr", cwd=tmp, stdout=subprocess.PIPE,
                   stderr=subprocess.STDOUT)
check(rc == 2 and b"the file the table goes to" in out, f"2>&1 into one pipe: {out!r}")
check(open(P("a.csv")).read() == "OLD\n", "a refused run touched a.csv")

# --- a temporary left by a killed run is removed by the next run
dead = subprocess.Popen(["true"])
dead.wait()
stale = P(".a.csv.tmp-%d" % dead.pid)
live = P(".a.csv.tmp-%d" % os.getpid())
other = P(".b.csv.tmp-%d" % dead.pid)
for f in (stale, live, other):
    open(f, "w").write("PARTIAL")
rc, out, err = run("-output_csv=a.csv", cwd=tmp)
check(rc == 0, f"run after a killed one: {err!r}")
check(not os.path.exists(stale), "the stale temporary of a.csv is still there")
check(os.path.exists(live), "the temporary of a live process was removed")
check(os.path.exists(other), "the temporary of another target was removed")
is_csv(open(P("a.csv")).read(), "a.csv")
for f in (live, other):
    os.unlink(f)

# --- the set is committed together: after a Ctrl-C at any moment, all files
# are old or all are new (the benchmarks take ~10 ms here)
random.seed(17)
names = ("set.csv", "set.json", "set.gb.json")
mixed = []
states = []
for trial in range(40):
    for n in names:
        open(P(n), "w").write("OLD\n")
    p = subprocess.Popen([SUITE, "-filter=Fine.*", *("-output_%s=%s" % (k, n) for k, n in zip(
        ("csv", "json", "gbench"), names))], env=env(), cwd=tmp, stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    time.sleep(random.uniform(0, 0.03))
    p.send_signal(signal.SIGINT)
    p.wait(timeout=60)
    state = tuple(open(P(n)).read() == "OLD\n" for n in names)
    states.append(state[0])
    if len(set(state)) != 1:
        mixed.append((trial, state))
    temps = [n for n in os.listdir(tmp) if ".tmp-" in n]
    check(temps == [], f"trial {trial}: temporaries left: {temps}")
check(mixed == [], f"some files new and some old after a Ctrl-C: {mixed}")
print("after a Ctrl-C: %d trials all old, %d all new" % (sum(states), len(states) - sum(states)))

for root, dirs, files in os.walk(tmp, topdown=False):
    for n in files + dirs:
        p = os.path.join(root, n)
        (os.rmdir if os.path.isdir(p) and not os.path.islink(p) else os.unlink)(p)
os.rmdir(tmp)
sys.exit(1 if check.failures else 0)
