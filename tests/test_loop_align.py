"""The timed loops of FB_RUN and FB_ALTERNATIVE start at a fixed offset from
a 64-byte line, wherever the linker puts the function around them
(docs/design.md, "Where the loop lies"): tests/loop_align.c is compiled with
0 to 63 bytes of code before its benchmark function, at -O0, -O2, -O3 and
-Os, with this build's compiler and flags; in every build the function's
own address modulo 64 moves (so the check can fail), and an address inside
each loop's body modulo 64 stays the same. Skipped (77) where the compiler
is not GNU-style or the architecture has no address-reading instruction in
the test (x86-64, i386 and AArch64 have)."""
import os
import shlex
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fbtest  # noqa: E402

BUILD = os.environ.get("FB_BUILD_DIR", "build")
SRC = os.environ.get("FB_SOURCE_DIR", os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
CC = os.environ.get("FB_CC") or "cc"
FLAGS = shlex.split(os.environ.get("FB_CFLAGS", "")) + shlex.split(os.environ.get("FB_LDFLAGS", ""))
LIB = os.path.join(BUILD, "libfemtobench.a")
check = fbtest.Checks()


probe = subprocess.run([CC, *FLAGS, "-dM", "-E", "-x", "c", os.devnull],
                       capture_output=True, text=True)
macros = probe.stdout
if "__GNUC__" not in macros or not any(a in macros for a in
                                       ("__x86_64__", "__i386__", "__aarch64__")):
    print(f"SKIP: {CC} is not GNU-style, or not x86-64, i386 or AArch64")
    sys.exit(77)

with tempfile.TemporaryDirectory() as d:
    exe = os.path.join(d, "loop_align")
    for opt in ("-O0", "-O2", "-O3", "-Os"):
        seen = {}
        for pad in (0, 8, 16, 24, 40, 63):
            p = subprocess.run([CC, opt, f"-DPAD={pad}", "-I", os.path.join(SRC, "include"),
                                os.path.join(SRC, "tests", "loop_align.c"), LIB, *FLAGS,
                                "-lm", "-lpthread", "-o", exe], capture_output=True, text=True)
            if p.returncode != 0:
                check(False, f"{opt} PAD={pad}: does not compile: {p.stderr[-2000:]}")
                continue
            r = subprocess.run([exe], capture_output=True, text=True, timeout=120,
                               env=fbtest.clean_env())
            parts = r.stdout.split()
            check(r.returncode == 0 and len(parts) == 3,
                  f"{opt} PAD={pad}: {r.returncode} {r.stdout!r} {r.stderr[-500:]!r}")
            if len(parts) == 3:
                seen[pad] = tuple(int(x) for x in parts)
        if not seen:
            continue
        fn = {v[0] for v in seen.values()}
        loop = {v[1] for v in seen.values()}
        alt = {v[2] for v in seen.values()}
        check(len(fn) > 1, f"{opt}: the padding did not move the function ({seen})")
        check(len(loop) == 1, f"{opt}: FB_RUN's loop moves with the code before it ({seen})")
        check(len(alt) == 1, f"{opt}: FB_ALTERNATIVE's loop moves with the code before it ({seen})")

check.finish()
