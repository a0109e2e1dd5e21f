"""The house has one direction (docs/design.md, "Map of the code").

Reads the library's object files with nm and checks, from the symbols each
file defines and uses:
  1. the call graph between src/ files has no cycle;
  2. the measuring core (run, compare, clock, perf_*) calls no formatter (report_*,
     json, text formatting) and prints nothing itself;
  3. no file but process.c reads the environment, and none sets it;
  4. src/ files include only module headers, never the tests' internal.h;
  5. the include graph of src/ has no cycle;
  6. every include points down docs/design.md's layer table ("Layers"): a
     file includes headers of its own layer or a lower one only, and every
     file of src/ is in the table; every call does too (the fb_ symbols an
     object file uses are defined in its layer or a lower one), but for the
     calls CALLS_UP names with their reasons;
  7. struct fb_bench is defined in one header, which only the handle's and
     the measuring layer's files include (everyone else: src/handle/bench.h).
"""
import glob
import os
import re
import subprocess
import sys

build = os.environ.get("FB_BUILD_DIR", "build")
source = os.environ.get("FB_SOURCE_DIR", os.path.join(os.path.dirname(__file__), ".."))
objdir = os.path.join(build, "CMakeFiles", "femtobench.dir", "src")
objs = sorted(glob.glob(os.path.join(objdir, "*", "*.c.o")))
failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg)


if not objs:
    print("no object files under %s/*/: skipped" % objdir)
    sys.exit(77)
try:
    subprocess.run(["nm", "--version"], capture_output=True, check=True)
except (OSError, subprocess.CalledProcessError):
    print("nm not found: skipped")
    sys.exit(77)


def symbols(path):
    out = subprocess.run(["nm", path], capture_output=True, text=True, check=True).stdout
    defined, used = set(), set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0] == "U":
            used.add(parts[1])
        elif len(parts) == 3 and parts[1] in "TDBRC":
            defined.add(parts[2])
    return defined, used


name = {o: os.path.basename(o)[: -len(".c.o")] for o in objs}
defs, uses = {}, {}
for o in objs:
    defs[name[o]], uses[name[o]] = symbols(o)
owner = {}
for f, ds in defs.items():
    for s in ds:
        owner[s] = f

# 1. call graph
edges = {f: sorted({owner[s] for s in uses[f] if s in owner and owner[s] != f}) for f in defs}


def find_cycle(graph):
    state, stack = {}, []

    def visit(n):
        state[n] = 1
        stack.append(n)
        for m in graph.get(n, []):
            if state.get(m) == 1:
                return stack[stack.index(m):] + [m]
            if not state.get(m):
                c = visit(m)
                if c:
                    return c
        stack.pop()
        state[n] = 2
        return None

    for n in sorted(graph):
        if not state.get(n):
            c = visit(n)
            if c:
                return c
    return None


cycle = find_cycle(edges)
if cycle:
    fail("call cycle between src/ files: " + " -> ".join(cycle))
else:
    print("ok: the call graph of %d files has no cycle" % len(edges))

# 2. the measuring core never formats
core = [f for f in defs if f in ("run", "compare", "clock") or f.startswith("perf_")]
formatters = {f for f in defs if f.startswith("report_") or f == "json"}
printing = {"printf", "fprintf", "vfprintf", "puts", "fputs", "fputc", "putc", "putchar",
            "fwrite", "__printf_chk", "__fprintf_chk", "__vfprintf_chk"}
for f in core:
    bad = sorted(s for s in uses[f] if owner.get(s) in formatters)
    if bad:
        fail("measuring core %s.c calls formatters: %s" % (f, ", ".join(bad)))
    out = sorted(uses[f] & printing)
    if out:
        fail("measuring core %s.c prints itself: %s" % (f, ", ".join(out)))
    if "fb__fmt_grouped" in uses[f] or "fb__fmt_double" in uses[f]:
        fail("measuring core %s.c formats numbers" % f)
print("ok: the measuring core (%s) calls no formatter and prints nothing" % ", ".join(sorted(core)))

# 3. the environment: read once by the process state, never set
for f in defs:
    if "setenv" in uses[f] or "putenv" in uses[f] or "unsetenv" in uses[f]:
        fail("%s.c sets the environment" % f)
    if f != "process" and ("getenv" in uses[f] or "secure_getenv" in uses[f]):
        fail("%s.c reads the environment (only process.c does)" % f)
print("ok: only process.c reads the environment; nothing sets it")

# 3b. threads may measure and compare at once: no libc call that keeps its
# state in a global (lgamma's signgam, strtok's position, rand's seed)
racy = {"lgamma", "lgammaf", "lgammal", "strtok", "rand", "srand", "gmtime", "localtime"}
for f in defs:
    out = sorted(uses[f] & racy)
    if out:
        fail("%s.c calls %s (global state: a data race between threads)" % (f, ", ".join(out)))
print("ok: no libc call with hidden global state")

# 4 and 5. includes
src = os.path.join(source, "src")
inc, where = {}, {}
for p in sorted(glob.glob(os.path.join(src, "*.[ch]")) + glob.glob(os.path.join(src, "*", "*.[ch]"))):
    base = os.path.basename(p)
    if base in where:
        fail("two files of src/ are named %s: %s and %s" % (base, where[base], os.path.relpath(p, src)))
    where[base] = os.path.relpath(p, src)
    text = open(p, encoding="utf-8").read()
    inc[base] = re.findall(r'^\s*#\s*include\s+"([^"]+)"', text, re.M)
    if base != "internal.h" and "internal.h" in inc[base]:
        fail("src/%s includes internal.h (include the module headers it uses)" % base)
cycle = find_cycle({k: [h for h in v if h in inc] for k, v in inc.items()})
if cycle:
    fail("include cycle: " + " -> ".join(cycle))
else:
    print("ok: the include graph of src/ (%d files) has no cycle" % len(inc))

# 6. includes point down the layer table
design = open(os.path.join(source, "docs", "design.md"), encoding="utf-8").read()
m = re.search(r"^\| layer \| folder \| what it holds \| files \|\n\|[-|]+\|\n((?:\|.*\|\n)+)",
              design, re.M)
layer_of, layers, folders = {}, [], []
if not m:
    fail("docs/design.md has no layer table (| layer | folder | what it holds | files |)")
else:
    for row in m.group(1).splitlines():
        cells = [c.strip() for c in row.strip().strip("|").split("|")]
        layers.append(cells[0])
        folders.append(cells[1].strip("`").rstrip("/"))
        for f in re.findall(r"`([^`]+)`", cells[3]):
            if f in layer_of:
                fail("docs/design.md's layer table lists %s twice" % f)
            layer_of[f] = len(layers) - 1
for f in sorted(layer_of):
    if f not in inc:
        fail("docs/design.md's layer table lists %s, which is not in src/" % f)


def layer(f):
    """A file's layer: its own entry, else (a header) that of its .c."""
    if f in layer_of:
        return layer_of[f]
    if f.endswith(".h") and f[:-2] + ".c" in layer_of:
        return layer_of[f[:-2] + ".c"]
    return None


for f in sorted(inc):
    if f != "internal.h" and layer(f) is None:
        fail("src/%s is in no layer of docs/design.md's layer table" % f)
n_edges, before = 0, len(failures)
for f in sorted(inc):
    if f == "internal.h" or layer(f) is None:
        continue
    for h in inc[f]:
        if h not in inc or layer(h) is None:
            continue
        n_edges += 1
        if layer(h) > layer(f):
            fail("src/%s (%s) includes %s (%s): an include that points up"
                 % (f, layers[layer(f)], h, layers[layer(h)]))
if layers and len(failures) == before:
    print("ok: %d includes between src/ files point down the %d layers (%s)"
          % (n_edges, len(layers), " < ".join(layers)))

# 6c. calls point down the layer table too: every fb_ symbol an object file
# uses is defined in its own layer or a lower one, but for the calls named
# here, each with why it may point up
CALLS_UP = {
    # fb_bench_new installs the live markdown tables as the handle's first
    # sinks (docs/design.md, "A run"): the handle's default, not a dependency
    ("bench", "fb__table_sink"): "the live table, the handle's default sink",
    ("bench", "fb__table_comparison_sink"): "the live comparison table, likewise",
    # the handle owns the change view the runner hands it, so frees it
    ("bench", "fb__change_view_free"): "the handle frees the change view it owns",
    # a counter's explanation names the measure by its public name
    ("perf_linux_explain", "fb_measure_name"): "the public name of a measure",
}
before, n_calls = len(failures), 0
for f in sorted(edges):
    lf = layer(f + ".c")
    if lf is None:
        continue
    for s in sorted(uses[f]):
        g = owner.get(s)
        if g is None or g == f or not s.startswith("fb_") or layer(g + ".c") is None:
            continue
        n_calls += 1
        if layer(g + ".c") > lf and (f, s) not in CALLS_UP:
            fail("src/%s.c (%s) calls %s of src/%s.c (%s): a call that points up"
                 % (f, layers[lf], s, g, layers[layer(g + ".c")]))
if layers and len(failures) == before:
    print("ok: %d calls between src/ files point down the layers (%d named exceptions)"
          % (n_calls, len(CALLS_UP)))

# 6b. each file lies in its layer's folder (the table's folder column);
# src/ itself holds internal.h only
before = len(failures)
for f in sorted(inc):
    here = os.path.dirname(os.path.join("src", where[f]))
    if f == "internal.h":
        if here != "src":
            fail("%s: internal.h stays at src/internal.h" % os.path.join("src", where[f]))
        continue
    if layer(f) is None:
        continue
    if here != folders[layer(f)]:
        fail("src/%s is in %s/, not in its layer's folder %s/ (%s)"
             % (where[f], here, folders[layer(f)], layers[layer(f)]))
if layers and len(failures) == before:
    print("ok: the %d files of src/ lie in their layers' folders (%s)"
          % (len(inc), " ".join(folders)))

# 7. the handle's struct: one header, included by the handle and the measuring layer only
defining = sorted(f for f in inc if f != "internal.h" and re.search(
    r"^struct fb_bench \{", open(os.path.join(src, where[f]), encoding="utf-8").read(), re.M))
if len(defining) != 1:
    fail("struct fb_bench is defined in %s (one header: bench_state.h)" % (defining or "no file"))
elif layers:
    allowed = {layers.index(n) for n in ("handle", "run") if n in layers}
    def reach(f, seen):
        for h in inc.get(f, []):
            if h in inc and h not in seen:
                seen.add(h)
                reach(h, seen)
        return seen

    # directly or through another header
    seers = sorted(f for f in inc if f not in ("internal.h", defining[0])
                   and defining[0] in reach(f, set()))
    before = len(failures)
    for f in seers:
        if layer(f) not in allowed:
            fail("src/%s includes %s (directly or through a header): struct fb_bench is the "
                 "handle's (use src/handle/bench.h's fb__bench_* functions)" % (f, defining[0]))
    if len(failures) == before:
        print("ok: struct fb_bench (src/%s) is seen by %d files of the handle and run layers: %s"
              % (defining[0], len(seers), " ".join(seers)))

sys.exit(1 if failures else 0)
