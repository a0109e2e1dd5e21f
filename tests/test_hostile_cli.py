"""The runner tried as a hostile user would (docs/reliability.md):
counts and times out of range, benchmarks that measure nothing, -filter
patterns that exhaust regcomp or try to escape the anchoring, and -isolate
with benchmarks that crash, abort, exit or hang. Runs tests/suite_hostile.c.
"""
import csv
import io
import json
import os
import resource
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fbtest  # noqa: E402

BUILD = os.environ.get("FB_BUILD_DIR", "build")
SUITE = os.path.join(BUILD, "tests", "suite_hostile")
check = fbtest.Checks()
# under AddressSanitizer: its shadow memory counts in a child's peak RSS,
# and its SIGSEGV handler turns a crash into exit(1) unless told not to
ASAN = b"__asan_init" in open(SUITE, "rb").read()
NO_ASAN_SEGV = {"ASAN_OPTIONS": os.environ.get("ASAN_OPTIONS", "") + ":handle_segv=0"}


run = fbtest.runner(os.path.abspath(SUITE), hostile="")


def bad(args, *must_contain, env=None):
    """Bad input: status 2, nothing on stdout, one line on stderr."""
    rc, out, err = run(*args, env=env)
    what = " ".join(a[:80] for a in args)
    lines = err.strip().splitlines()
    check(rc == 2, f"{what}: exit status {rc}, want 2")
    check(out == "", f"{what}: something ran: {out[:200]!r}")
    check(len(lines) == 1 and lines[0].startswith("femtobench: error: "),
          f"{what}: want one error line, got {lines[:5]!r}")
    for s in must_contain:
        check(s in err, f"{what}: stderr lacks {s!r}: {err[:300]!r}")


def listed(*args):
    rc, out, err = run("-list", *args)
    return rc, out.split(), err


# ------------------------------------------------ 1. counts and times
bad(["-min_time=1e300"], "out of range (0 to 60000 ms)")
bad(["-min_time=60001"], "out of range")
bad(["-min_time=" + "9" * 400], "-min_time=")
bad(["-min_time=1e999"], "not a non-negative number")
bad(["-min_time=nan"], "not a non-negative number")
bad(["-min_time=inf"], "not a non-negative number")
bad(["-asymptote=1,1e300"], "out of range (at most 2^53)")
bad(["-asymptote=" + ",".join(str(i + 1) for i in range(1001))], "at most 1000")
bad(["-asymptote=" + "1" * 500 + ",2"], "too long")
bad(["-timeout=0"], "-timeout=0")
bad(["-timeout=-1"], "-timeout=-1")
bad(["-timeout=inf"], "-timeout=inf")
bad(["-timeout=1e9"], "out of range (0 to 86400 s)")
for cfg, want in (("epochs=0", "'epochs' is 1 to 1000000"),
                  ("epochs=18446744073709551615", "number too large"),
                  ("min_epoch_time=" + "9" * 300 + "s", "value too long"),
                  ("max_total_time=999999s", "'max_total_time' is 0s to 3600s"),
                  ("clock_resolution_multiple=99999999", "out of range")):
    rc, out, err = run(env={"FEMTOBENCH_CONFIG": cfg})
    check(rc == 2 and out == "", f"FEMTOBENCH_CONFIG={cfg[:40]}: rc={rc}")
    check(want in err and "nothing was run" in err, f"FEMTOBENCH_CONFIG={cfg[:40]}: {err!r}")

# ------------------------------------------- 2. nothing silently dropped
rc, out, err = run("-sanity_check", "-filter=NoRun|Fine")
check(rc == 1, f"-sanity_check with a benchmark that measures nothing: rc={rc}")
check("NoRun: measured nothing" in err, err)
check("2 benchmarks ran, 1 failed" in err, err)
rc, out, err = run("-filter=Nested", hostile="Nested")
check(rc == 1, f"a refused nested run: rc={rc}")
check(err.count("'Nested/inner' not run") == 1, f"said once: {err!r}")
check(":boom: `Nested` (1 run recorded nothing" in out, out)

# -------------------------------------------------- 3. regular expressions
bad(["-filter=" + "a" * 1025], "pattern of 1025 bytes (at most 1024)")
bad(["-filter=" + "(" * 33 + "a" + ")" * 33], "nested 33 deep (at most 32)")
bad(["-filter=[(((((((((((((((((((((((((((((((((]|" + "(" * 33 + "a" + ")" * 33], "nested")
before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
t0 = time.monotonic()
bad(["-filter=((a{1000}){1000}){1000}"], "too complex")
bad(["-filter=(((a{255}){255}){255}){255}"], "too complex")
check(time.monotonic() - t0 < 30, "the bounded compile took %.1f s" % (time.monotonic() - t0))
peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
check(ASAN or peak_mb < 600, f"a hostile pattern used {peak_mb:.0f} MB")
bad(["-filter=Fa)|(.*b"], "invalid regular expression")
bad(["-filter=Fine\n)|(.*"], "\\x0a")
# the anchoring cannot be escaped: a pattern valid both ways that a
# "^(...)$" wrapper would have let select everything
rc, names, err = listed("-filter=.*)|(F")
check(rc == 2, f"'.*)|(F' is not a valid pattern on its own: {names} {err!r}")
rc, names, err = listed("-filter=Fin")
check(rc == 2 and "selects no benchmark" in err, "a prefix is not the whole name")
rc, names, err = listed("-filter=ine")
check(rc == 2, "a suffix is not the whole name")
rc, names, err = listed("-filter=Fine|Segv")
check(names == ["Fine", "Segv"], f"alternation: {names}")
# back-references keep the user's numbering (\2 is the second group)
rc, names, err = listed("-filter=(A)bort|N(e)st\\2d")
check(names == ["Abort", "Nested"], f"back-reference \\2: {names} {err!r}")
rc, names, err = listed("-filter=(F)ine\\1?2?")
check(names == ["Fine", "Fine2"], f"back-reference \\1: {names} {err!r}")

# ------------------------------------------------------- 7. isolation
rc, out, err = run("-isolate", hostile="Segv,Abort,Exit", env=NO_ASAN_SEGV)
check(rc == 1, f"-isolate with crashing benchmarks: rc={rc} {err!r}")
check(":boom: `Segv` (crashed: killed by signal 11" in out, out)
check(":boom: `Abort` (crashed: killed by signal 6" in out, out)
check(":boom: `Exit` (exited with status 3 before it finished)" in out, out)
check("`Segv/first`" in out and "`Fine`" in out and "`Fine2/again`" in out,
      "results before the crash and after it are kept: " + out)
t0 = time.monotonic()
rc, out, err = run("-timeout=0.5", "-filter=Hang|Fine", hostile="Hang")
check(rc == 1 and ":boom: `Hang` (timed out: still running after 0.5 s" in out, out + err)
check("`Fine`" in out, "the suite goes on after a timeout")
check(time.monotonic() - t0 < 20, "the timeout killed the benchmark")
# without -isolate a crash takes the process down (the reason -isolate exists)
rc, out, err = run("-filter=Segv", hostile="Segv", env=NO_ASAN_SEGV)
check(rc != 0 and "`Fine`" not in out, f"in-process crash: rc={rc}")

# results from children reach every output exactly as in-process ones
# (a deterministic fake clock: the files must be equal, but for the date)
with tempfile.TemporaryDirectory(prefix="fb_hostile_") as tmp:
    outs = {}
    for mode in ("in", "iso"):
        args = ["-output_csv=" + mode + ".csv", "-output_json=" + mode + ".json",
                "-output_gbench=" + mode + ".gb.json", "-asymptote=10,20,40"]
        if mode == "iso":
            args.append("-isolate")
        rc, out, err = run(*args, hostile="fake", cwd=tmp)
        check(rc == 0, f"{mode}: rc={rc} {err!r}")
        outs[mode] = out
    check(outs["in"] == outs["iso"], "the table differs with -isolate:\n%s\n%s" % (outs["in"], outs["iso"]))
    a, b = (open(os.path.join(tmp, m + ".csv")).read() for m in ("in", "iso"))
    check(a == b and list(csv.reader(io.StringIO(a)))[1][1] == "Fine", "CSV differs with -isolate")
    ja, jb = (json.load(open(os.path.join(tmp, m + ".json"))) for m in ("in", "iso"))
    for k in ("results", "complexity"):
        check(ja[k] == jb[k], f"JSON '{k}' differs with -isolate")
    check(len(ja["results"]) == 9 and len(ja["complexity"]) == 3, "JSON: %d results, %d fits" % (
        len(ja["results"]), len(ja["complexity"])))
    ga, gb = (json.load(open(os.path.join(tmp, m + ".gb.json"))) for m in ("in", "iso"))
    check(ga["benchmarks"] == gb["benchmarks"], "Google Benchmark JSON differs with -isolate")

sys.exit(1 if check.failures else 0)
