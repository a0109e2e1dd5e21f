"""One table of outputs (src/outputs/outfile.h, docs/design.md "Outputs"): the runner,
femtobench-compare and femtobench-ab each list their output options in one
table, and every path given for a row goes through the same checks (one set,
no two the same file, none the file the table goes to, none a file the
program reads), is pinned to an absolute path before anything runs, and is
written through the same temporaries.

Checked: every output option the runner's -help lists (the table's rows, so
a new row cannot be missed) stays where it was asked when a benchmark calls
chdir(); femtobench-compare refuses with -run every output option of the
runner's table (each program would write it over the other's), sends its
table to stderr when -output_md is stdout (stdout holds the markdown once),
and refuses an output that is one of its input files; femtobench-ab refuses
an output that is a plugin under test (a file of a comma list, or a layout
variant found beside the file given), two outputs that are one file, writes
valid JSON with -output_json=- or /dev/stdout, and keeps its relative outputs
where they were asked when a plugin's constructor calls chdir()."""
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fbtest  # noqa: E402

BUILD = os.environ.get("FB_BUILD_DIR", "build")
SOURCE = os.environ.get("FB_SOURCE_DIR",
                        os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
T = os.path.join(BUILD, "tests")
MORE = os.path.abspath(os.path.join(T, "suite_hostile_more"))
CLI = os.path.abspath(os.path.join(T, "suite_cli"))
COMPARE = os.path.abspath(os.path.join(BUILD, "femtobench-compare"))
AB = os.path.abspath(os.path.join(BUILD, "femtobench-ab"))
check = fbtest.Checks()


run = fbtest.runner(timeout=300)  # run(prog, *args)


def bad(prog, args, *must_contain, cwd=None):
    """Bad input: exit status 2, nothing on stdout, one line naming it."""
    rc, out, err = run(prog, *args, cwd=cwd)
    lines = err.strip().splitlines()
    what = os.path.basename(prog) + " " + " ".join(args)
    check(rc == 2, f"{what}: exit status {rc}, want 2 ({err[-300:]})")
    check(out == "", f"{what}: something ran: {out[:200]!r}")
    check(len(lines) == 1 and lines[0].startswith("femtobench: error: "),
          f"{what}: want one error line, got {lines!r}")
    for s in must_contain:
        check(s in err, f"{what}: {s!r} not in {err!r}")


# ------------------------------------------------------------ the runner
# The table's rows, as -help lists them: every option that takes a <file>
# and writes it (-baseline is read).
rc, out, err = run(MORE, "-help")
outputs = sorted(set(re.findall(r"^\s+-([a-z_]+)=<file>", out, re.M)) - {"baseline"})
check(rc == 0 and {"output_csv", "output_json", "output_gbench", "output_html",
                   "output_bmf", "benchmark_out"} <= set(outputs),
      f"-help's outputs: {outputs}")
# and the table in the source lists no row that -help leaves out
src = open(os.path.join(SOURCE, "src", "runner", "options_table.c"), encoding="utf-8").read()
rows = re.search(r"fb__opts_output_rows\[[A-Z_]+\] = \{(.*?)\n\};", src, re.S)
listed = re.findall(r'\{"([a-z_]+)", "', rows.group(1)) if rows else []
check(listed and set(listed) <= set(outputs),
      f"src/runner/options_table.c's table {listed} against -help's {outputs}")

# A benchmark that calls chdir() moves none of them: each lands where it
# was asked (relative to the directory the run started in), and stderr
# names it as given.
with tempfile.TemporaryDirectory() as d:
    elsewhere = os.path.join(d, "elsewhere")
    os.mkdir(elsewhere)
    for opt in outputs:
        name = f"r.{opt}"
        rc, out, err = run(MORE, f"-{opt}={name}", "-filter=Chdir",
                           env={"HOSTILE": "Chdir", "CHDIR_TO": elsewhere}, cwd=d)
        check(rc == 0 and os.path.exists(os.path.join(d, name)) and not os.listdir(elsewhere),
              f"chdir -{opt}: exit {rc}, here: {sorted(os.listdir(d))}, moved: "
              f"{os.listdir(elsewhere)} {err[-300:]}")
        check(f"wrote '{name}'" in err, f"chdir -{opt}: the path as given: {err[-300:]}")
        for where in (d, elsewhere):
            for f in os.listdir(where):
                if f != "elsewhere":
                    os.unlink(os.path.join(where, f))

# ---------------------------------------------------- femtobench-compare
with tempfile.TemporaryDirectory() as d:
    a, b = os.path.join(d, "a.json"), os.path.join(d, "b.json")
    rc, out, err = run(CLI, "-filter=Alpha", "-output_json=" + a)
    shutil.copy(a, b)
    check(rc == 0, f"suite_cli -output_json: {rc} {err[-300:]}")
    # an output to stdout: the table goes to stderr, stdout holds the
    # markdown once (the runner's rule)
    for to in ("-", "/dev/stdout"):
        rc, out, err = run(COMPARE, a, b, "-output_md=" + to)
        seps = [line for line in out.splitlines() if line.startswith("|---")]
        check(rc == 0 and len(seps) == 1 and "`Alpha`" in out and "`Alpha`" in err,
              f"compare -output_md={to}: exit {rc}, {len(seps)} tables on stdout: {out!r}")
    # an output that is a file it reads: refused, the file untouched
    size = os.path.getsize(b)
    bad(COMPARE, [a, b, "-output_md=" + b], "-output_md=", "this run reads")
    bad(COMPARE, [a + "," + os.path.join(d, "no.json"), b, "-output_md=" + a], "-output_md=",
        "this run reads")
    check(os.path.getsize(b) == size, "compare -output_md=NEW.json replaced it")
    # with -run, each program would write a runner output over the other's:
    # every row of the runner's table is refused
    for opt in outputs:
        bad(COMPARE, ["-run", MORE, MORE, "-pairs=2", f"-{opt}=x.out"], f"-{opt}", "not with -run", cwd=d)
    check(not os.path.exists(os.path.join(d, "x.out")), "compare -run wrote a runner output")

# ---------------------------------------------------------- femtobench-ab
if not os.path.exists(AB):
    print("femtobench-ab was not built (no dlopen on this platform): its part skipped")
else:
    with tempfile.TemporaryDirectory() as d:
        def plug(name, to):
            shutil.copy(os.path.join(T, name), os.path.join(d, to))
            return os.path.join(d, to)
        old, new = plug("ab_old.so", "old.so"), plug("ab_new.so", "new.so")
        # a plugin under test: as given, or spelt otherwise (relative)
        size = os.path.getsize(new)
        bad(AB, ["old.so", "new.so", "-output_json=new.so"], "-output_json=new.so",
            "this run reads", cwd=d)
        bad(AB, ["old.so", "new.so", "-output_md=./new.so"], "-output_md=./new.so",
            "this run reads", cwd=d)
        # a file of a side given as a comma list
        plug("ab_old.so", "old2.so")
        plug("ab_new.so", "new2.so")
        osize = os.path.getsize(old)
        bad(AB, ["old.so,old2.so", "new.so,new2.so", "-output_html=old2.so"],
            "-output_html=old2.so", "this run reads", cwd=d)
        check(os.path.getsize(os.path.join(d, "old2.so")) == osize,
              "femtobench-ab replaced a file of a comma list")
        # a layout variant found beside the file given
        lo = plug("ab_lay_old.so", "lo.so")
        plug("ab_lay_old.layout1.so", "lo.layout1.so")
        ln = plug("ab_lay_new.so", "ln.so")
        lv = plug("ab_lay_new.layout1.so", "ln.layout1.so")
        vsize = os.path.getsize(lv)
        bad(AB, [lo, ln, "-output_json=" + lv], "-output_json=", "this run reads")
        check(os.path.getsize(new) == size and os.path.getsize(lv) == vsize,
              "femtobench-ab replaced a plugin under test")
        # two outputs that are one file
        bad(AB, ["old.so", "new.so", "-output_json=x", "-output_md=./x"], "-output_md=./x",
            "the same file as -output_json=x", cwd=d)
        check(not os.path.exists(os.path.join(d, "x")), "femtobench-ab wrote x")
        # an output to stdout: valid JSON there, the table on stderr
        for to in ("-", "/dev/stdout"):
            rc, out, err = run(AB, old, new, "-filter=Slow", "-output_json=" + to)
            try:
                doc = json.loads(out)
            except ValueError:
                doc = None
            check(rc == 0 and doc is not None and "| Slow |" in err and "wrote" not in err,
                  f"femtobench-ab -output_json={to}: exit {rc}, stdout {out[:200]!r}")

        # a plugin that calls chdir() when it is loaded: the outputs stay
        # where they were asked (pinned before anything is loaded)
        cc = os.environ.get("FB_CC") or shutil.which("cc") or shutil.which("gcc")
        flags = shlex.split(os.environ.get("FB_CFLAGS", "")) + shlex.split(
            os.environ.get("FB_LDFLAGS", ""))
        lib = os.path.join(BUILD, "libfemtobench.a")
        if cc and os.path.exists(lib):
            c = os.path.join(d, "away.c")
            with open(c, "w") as f:
                f.write('#include "femtobench.h"\n#include <stdlib.h>\n#include <unistd.h>\n'
                        "__attribute__((constructor)) static void away(void) {\n"
                        '    const char *to = getenv("CHDIR_TO");\n'
                        "    if (to && chdir(to) != 0) abort();\n}\n"
                        "static void op(void *ctx) { *(volatile int *)ctx += 1; }\n"
                        'FB_BENCHMARK(Here) { int x = 0; fb_run(b, "Here", op, &x); }\n'
                        "FB_MAIN()\n")
            so = os.path.join(d, "away.so")
            r = subprocess.run([cc, *flags, "-shared", "-fPIC", "-o", so, c, "-I",
                                os.path.join(SOURCE, "include"), lib, "-lpthread", "-lm"],
                               capture_output=True, text=True)
            if check(r.returncode == 0, f"the chdir plugin: {r.stderr}"):
                elsewhere = os.path.join(d, "elsewhere")
                os.mkdir(elsewhere)
                rc, out, err = run(AB, so, so, "-min_time=1",
                                   "-output_json=r.json", "-output_md=r.md",
                                   env={"CHDIR_TO": elsewhere}, cwd=d)
                check(rc == 0 and os.path.exists(os.path.join(d, "r.json")) and
                      os.path.exists(os.path.join(d, "r.md")) and not os.listdir(elsewhere),
                      f"femtobench-ab, a plugin that calls chdir: exit {rc}, moved: "
                      f"{os.listdir(elsewhere)} {err[-400:]}")
                check("wrote 'r.json'" in err, f"femtobench-ab chdir: as given: {err[-300:]}")

check.finish()
