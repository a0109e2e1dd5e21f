"""Every output sample in README.md is what the code it documents prints
today (tests/test_readme.sh checks that the C fragments compile and run;
this checks what they print):

- a complete ```c program followed by "prints" and a ``` block: compiled
  with the build's compiler and flags against the build's library, run
  with FEMTOBENCH_SUPPRESS_WARNINGS=1 (the sample shows no machine-state
  marks, which depend on the moment); the printed table must have the
  sample's header, rows and benchmark cells exactly, and a number in every
  numeric cell (times differ by machine);
- a ```console block: each `$ ./build/bench/femtobench-demo ...` line with
  output under it is run against this build's demo. Under -valgrind the
  counts are exact, so the output must equal the sample where the build is
  the sample's (gcc 12, Release); another compiler or build type makes
  other code, so there only the shape is compared. The profiling session's
  femtobench lines (FEMTOBENCH_ENDLESS) are matched with the pid and the
  epoch count as the only free fields, against a real endless run stopped
  with SIGINT;
- the paired comparison's summary line quoted in the text, against a real
  comparison of the README's two alternatives."""
import os
import re
import shlex
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fbtest  # noqa: E402

BUILD = os.environ.get("FB_BUILD_DIR", "build")
SOURCE = os.environ.get("FB_SOURCE_DIR",
                        os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LIB = os.path.join(BUILD, "libfemtobench.a")
DEMO = os.path.join(BUILD, "bench", "femtobench-demo")
CC = os.environ.get("FB_CC") or "cc"
FLAGS = shlex.split(os.environ.get("FB_CFLAGS", "")) + shlex.split(os.environ.get("FB_LDFLAGS", ""))
check = fbtest.Checks()
checked = 0


def env():
    e = dict(os.environ)
    for k in ("FEMTOBENCH_CONFIG", "FEMTOBENCH_ENDLESS", "LC_ALL", "LANG", "LC_NUMERIC"):
        e.pop(k, None)
    e["FEMTOBENCH_SUPPRESS_WARNINGS"] = "1"
    return e


def blocks(text):
    """(fence info, lines, the first non-empty line after the block)"""
    lines = text.split("\n")
    out, i = [], 0
    while i < len(lines):
        m = re.match(r"^```(\w*)$", lines[i])
        if not m:
            i += 1
            continue
        j = i + 1
        while j < len(lines) and lines[j] != "```":
            j += 1
        k = j + 1
        while k < len(lines) and not lines[k].strip():
            k += 1
        out.append((m.group(1), lines[i + 1:j], lines[k] if k < len(lines) else ""))
        i = j + 1
    return out


def is_number(cell):
    s = cell.strip().replace(",", "").rstrip("%")
    try:
        float(s)
        return True
    except ValueError:
        return False


def compare_table(what, sample, got, exact):
    """A markdown table: header and separator exact; the same rows; every
    row's last cell (the benchmark) exact; the other cells numbers, or
    exactly the sample's where `exact`."""
    got = [g for g in got if g.strip()]
    sample = [s for s in sample if s.strip()]
    if not check(len(got) == len(sample),
                 f"{what}: {len(got)} lines printed, the sample has {len(sample)}:\n"
                 + "\n".join(got)):
        return
    for s, g in zip(sample, got):
        if exact or not s.startswith("|") or s.startswith("|--") or "ns/op" in s or "ins/" in s:
            check(s == g, f"{what}: prints\n  {g}\nthe sample says\n  {s}")
            continue
        sc, gc = s.split("|"), g.split("|")
        if not check(len(sc) == len(gc), f"{what}: columns differ:\n  {g}\n  {s}"):
            continue
        check(sc[-1] == gc[-1], f"{what}: the benchmark cell is {gc[-1]!r}, the sample's {sc[-1]!r}")
        for cell in gc[1:-1]:
            check(is_number(cell), f"{what}: {cell!r} is not a number in\n  {g}")


readme = open(os.path.join(SOURCE, "README.md"), encoding="utf-8").read()
tmp = tempfile.mkdtemp(prefix="fb-readme-samples.")
have_lib = os.path.exists(LIB)

# 1. C programs and what they print
all_blocks = blocks(readme)
for n, (info, body, after) in enumerate(all_blocks):
    if info != "c" or "main(" not in "\n".join(body) or not after.startswith("prints"):
        continue
    if not have_lib:
        print(f"note: no {LIB}: the C samples were not run")
        break
    # the sample is the next block in the file
    if not check(n + 1 < len(all_blocks), f"README sample {n}: no block after 'prints'"):
        continue
    sample = all_blocks[n + 1][1]
    src = os.path.join(tmp, f"sample{n}.c")
    exe = os.path.join(tmp, f"sample{n}")
    with open(src, "w") as f:
        f.write("\n".join(body) + "\n")
    r = subprocess.run([CC, *FLAGS, "-std=c11", "-O2", "-I", os.path.join(SOURCE, "include"), src,
                        LIB, "-o", exe, "-pthread", "-lm"], capture_output=True, text=True)
    if not check(r.returncode == 0, f"README sample {n} does not compile: {r.stderr}"):
        continue
    p = subprocess.run([exe], capture_output=True, text=True, env=env(), timeout=120)
    check(p.returncode == 0, f"README sample {n}: exit status {p.returncode}: {p.stderr}")
    compare_table(f"README sample {n} ({body[0][:40]}...)", sample, p.stdout.split("\n"),
                  exact=False)
    checked += 1


def gcc_major():
    """gcc's major version, or None for another compiler (clang defines
    __GNUC__ too, so its own macro is looked for)"""
    try:
        r = subprocess.run([CC, *FLAGS, "-dM", "-E", "-x", "c", os.devnull],
                           capture_output=True, text=True)
    except OSError:
        return None
    macros = dict(line.split(" ", 2)[1:] for line in r.stdout.splitlines()
                  if line.startswith("#define ") and line.count(" ") >= 2)
    if "__clang__" in macros or "__GNUC__" not in macros:
        return None
    return macros["__GNUC__"]


# 2. the demo's console samples
if not os.path.exists(DEMO):
    print(f"note: no {DEMO} (a build without the demo): the console samples were not run")
else:
    for info, body, _ in blocks(readme):
        if info != "console":
            continue
        i = 0
        while i < len(body):
            line = body[i]
            j = i + 1
            while j < len(body) and not body[j].startswith("$ "):
                j += 1
            out = body[i + 1:j]
            cmd = line[2:].split("#")[0].strip()
            i = j
            words = shlex.split(cmd)
            if not words or words[0] != "./build/bench/femtobench-demo" or not out \
                    or cmd.endswith("&"):
                continue
            args = words[1:]
            if "-valgrind" in args:
                have = subprocess.run([DEMO, "-valgrind", "-list"], capture_output=True,
                                      text=True, env=env())
                if have.returncode != 0:
                    print(f"note: this build cannot run -valgrind ({have.stderr.strip()[:120]}): "
                          f"`{cmd}` was not run")
                    continue
            p = subprocess.run([DEMO, *args], capture_output=True, text=True, env=env(),
                               timeout=300)
            check(p.returncode == 0, f"`{cmd}`: exit status {p.returncode}: {p.stderr[-400:]}")
            exact = ("-valgrind" in args and gcc_major() == "12"
                     and os.environ.get("FB_BUILD_TYPE", "Release") == "Release")
            if "-valgrind" in args and not exact:
                print(f"note: `{cmd}`: counts compared by shape only "
                      "(the sample is gcc 12's Release build)")
            compare_table(f"`{cmd}`", out, p.stdout.split("\n"), exact=exact)
            checked += 1

    # the profiling session: the femtobench lines, with a real endless run
    m = re.search(r"\$ (FEMTOBENCH_ENDLESS=(\S+) \./build/bench/femtobench-demo (\S+)) &\n(.*)\n",
                  readme)
    if check(m is not None, "README: no FEMTOBENCH_ENDLESS sample found"):
        name, flt, started = m.group(2), m.group(3), m.group(4)
        stop = re.findall(r"^(femtobench: '.*' stopped after \d+ endless epochs)\n"
                          r"(femtobench: interrupted)$", readme, re.M)
        e = env()
        e.pop("FEMTOBENCH_SUPPRESS_WARNINGS")
        e["FEMTOBENCH_ENDLESS"] = name
        p = subprocess.Popen([DEMO, flt], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, env=e)
        first = ""
        deadline = time.time() + 60
        while time.time() < deadline:
            first = p.stderr.readline()
            if not first or "endlessly" in first:
                break
        p.send_signal(signal.SIGINT)
        rest_err = p.stderr.read()
        p.wait(timeout=60)
        pat = re.escape(started).replace("4717", r"\d+")
        check(re.fullmatch(pat, first.rstrip("\n").replace(f"pid {p.pid}", "pid 4717")
                           .replace(f"-p {p.pid}", "-p 4717")) is not None,
              f"FEMTOBENCH_ENDLESS prints\n  {first.strip()}\nthe README says\n  {started}")
        check(bool(stop), "README: the endless run's stop lines not found")
        if stop:
            lines = [x for x in rest_err.split("\n") if x.startswith("femtobench: ")
                     and ("stopped" in x or "interrupted" in x)]
            want = [re.escape(stop[0][0]).replace(r"\ stopped\ after\ 1263", r"\ stopped\ after\ \d+")
                    .replace("1263", r"\d+"), re.escape(stop[0][1])]
            check(len(lines) == 2 and all(re.fullmatch(w, x) for w, x in zip(want, lines)),
                  f"stopping the endless run prints {lines}, the README says {list(stop[0])}")
        check(p.returncode == 130, f"the endless run stopped with exit status {p.returncode}")
        checked += 1

# 3. the paired comparison's summary line, quoted in the text: the README's
# own two alternatives (a copy of 4 KiB, memcpy against a loop)
m = re.search(r'summary line under it, e\.g\.\n"(.*?)"\.', readme, re.S)
if check(m is not None, "README: the comparison's summary sample not found") and have_lib:
    quoted = " ".join(m.group(1).split())
    src = os.path.join(tmp, "compare.c")
    with open(src, "w") as f:
        f.write("""#include <femtobench.h>
#include <string.h>
static unsigned char src[4096], dst[4096];
int main(void) {
    fb_bench *b = fb_bench_new();
    size_t n = sizeof src;
    FB_COMPARE(b, "copy 4 KiB") {
        FB_ALTERNATIVE("memcpy") { memcpy(dst, src, n); fb_do_not_optimize(dst); }
        FB_ALTERNATIVE("loop") { for (size_t i = 0; i < n; ++i) dst[i] = src[i];
                                 fb_do_not_optimize(dst); }
    }
    fb_bench_free(b);
    return 0;
}
""")
    exe = os.path.join(tmp, "compare")
    # the loop stays a loop of byte copies (not turned into memcpy nor
    # vectorized), so that the two are always separated and the sentence is
    # the README's, not the "were not separated" one
    plain = (["-fno-tree-vectorize", "-fno-tree-loop-distribute-patterns"] if gcc_major()
             else ["-fno-vectorize", "-fno-builtin"])
    r = subprocess.run([CC, *FLAGS, "-std=c11", "-O2", *plain, "-I", os.path.join(SOURCE, "include"), src,
                        LIB, "-o", exe, "-pthread", "-lm"], capture_output=True, text=True)
    if check(r.returncode == 0, f"the comparison program does not compile: {r.stderr}"):
        p = subprocess.run([exe], capture_output=True, text=True, env=env(), timeout=120)
        # numbers and the direction are the machine's; the words are the sample's
        pat = re.escape(quoted)
        pat = re.sub(r"\\ ran\\ (.*?)\\ than\\ ", r"\\ ran\\ \\S+\\ (slower|faster)\\ than\\ ", pat)
        pat = re.sub(r"(\d+(\\\.\d+)?)", r"[0-9.,]+", pat)
        pat = pat.replace("`loop`", "`(loop|memcpy)`").replace("`memcpy`", "`(loop|memcpy)`")
        lines = [x for x in p.stdout.split("\n") if " ran " in x or " paired rounds" in x]
        check(p.returncode == 0 and len(lines) == 1 and re.fullmatch(pat, lines[0]) is not None,
              f"the comparison's summary line is {lines}, the README quotes {quoted!r}")
        checked += 1

print(f"{checked} README samples checked")
if check.failures:
    print(f"{len(check.failures)} check(s) failed", file=sys.stderr)
    sys.exit(1)
if checked == 0:
    print("nothing was checked (no library, no demo)")
    sys.exit(77)
