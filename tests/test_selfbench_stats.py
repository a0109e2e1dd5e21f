"""tools/selfbench.py: its statistics (median, CV, merit, ratios, verdicts),
its parsers (on real output of the self-benchmark programs when they are
built) and writing between the markers of docs/performance.md. Also runs
fb_selfbench once with -sanity_check (no timing is asserted anywhere)."""
import importlib.util
import json
import math
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fbtest  # noqa: E402

SOURCE = os.environ.get("FB_SOURCE_DIR", os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
BUILD = os.environ.get("FB_BUILD_DIR", "build")
SELF = os.path.join(BUILD, "bench", "selfbench")

spec = importlib.util.spec_from_file_location("selfbench", os.path.join(SOURCE, "tools", "selfbench.py"))
sb = importlib.util.module_from_spec(spec)
spec.loader.exec_module(sb)

check = fbtest.Checks()


def close(a, b, rel=1e-12, what=""):
    check(abs(a - b) <= rel * max(abs(a), abs(b), 1e-300), "%s: %r != %r" % (what, a, b))


def raises(exc, fn, *args):
    try:
        fn(*args)
    except exc:
        return True
    return False


# ---------------------------------------------------------------- median
check(sb.median([3]) == 3, "median of one")
check(sb.median([5, 1, 3]) == 3, "median of three, unsorted")
check(sb.median([4, 1, 3, 2]) == 2.5, "median of four is the mean of the middle two")
check(sb.median([1, 1, 1, 100]) == 1, "median ignores an outlier")
check(sb.median([2.0, -1.0]) == 0.5, "median of two")
check(raises(ValueError, sb.median, []), "median of nothing raises")
xs = [9, 2, 7]
sb.median(xs)
check(xs == [9, 2, 7], "median does not sort its argument in place")

# ----------------------------------------------------------- mean, stdev
close(sb.mean([1, 2, 3, 4]), 2.5, what="mean")
check(raises(ValueError, sb.mean, []), "mean of nothing raises")
check(sb.stdev([5]) == 0.0, "stdev of one value is 0")
close(sb.stdev([2, 4, 4, 4, 5, 5, 7, 9]), math.sqrt(32 / 7), what="sample stdev (n - 1)")
close(sb.stdev([1e9 + 1, 1e9 + 2, 1e9 + 3]), 1.0, rel=1e-9, what="stdev with a large offset")

# -------------------------------------------------------------------- cv
close(sb.cv([2, 4, 4, 4, 5, 5, 7, 9]), math.sqrt(32 / 7) / 5, what="cv = stdev / mean")
check(sb.cv([3, 3, 3]) == 0.0, "cv of equal values is 0")
close(sb.cv([10, 12]), sb.cv([100, 120]), what="cv is scale-free")
close(sb.cv([-10, -12]), sb.cv([10, 12]), what="cv uses |mean|")
check(sb.cv([0, 0]) == 0.0, "cv of zeros is 0")
check(math.isinf(sb.cv([-1, 1])), "cv with mean 0 and spread is inf")

# ----------------------------------------------------------------- merit
close(sb.merit(2.0, 0.01), 2e-4, what="merit = wall x cv^2")
check(sb.merit(5.0, 0.0) == 0.0, "merit of a perfectly repeatable run is 0")
# running k times longer and averaging k runs: CV^2 / k, merit unchanged
close(sb.merit(10 * 0.5, 0.02 / math.sqrt(10)), sb.merit(0.5, 0.02), what="merit does not reward running longer")
close(float(sb.fmt_merit(0.004, 0.01)), 4.0, what="merit in ms x %^2")

# ---------------------------------------------------------- near_median
check(sb.near_median([100, 100.5, 98.9, 130, 70]) == 2, "near_median counts values within 1%")
check(sb.near_median([5, 5, 5]) == 3, "near_median of equal values")

# ---------------------------------------------------------- ratio, summary
check(sb.ratio(1, 4) == 0.25, "ratio")
check(math.isinf(sb.ratio(1, 0)), "ratio over 0 is inf")
check(sb.ratio(0, 0) == 1.0, "0/0 counts as equal")
s = sb.summarize([0.004, 0.006, 0.005], [10.0, 11.0, 12.0])
check(s["n"] == 3, "summary n")
check(s["near"] == 1, "summary near")
close(s["wall_s"], 0.005, what="summary wall is the median")
close(s["value"], 11.0, what="summary value is the median")
close(s["cv"], 1.0 / 11.0, what="summary cv")
close(s["merit"], 0.005 * (1.0 / 11.0) ** 2, what="summary merit uses the median wall")

fb = {"wall_s": 0.005, "value": 1.02, "cv": 0.002, "merit": sb.merit(0.005, 0.002)}
gb = {"wall_s": 0.5, "value": 1.00, "cv": 0.004, "merit": sb.merit(0.5, 0.004)}
c = sb.compare(fb, gb)
close(c["wall"], 0.01, what="wall ratio")
close(c["value_diff"], 0.02, rel=1e-9, what="value difference")
close(c["cv"], 0.5, what="cv ratio")
close(c["merit"], 0.01 * 0.25, what="merit ratio = wall ratio x cv ratio^2")
v = dict(sb.verdicts("fast", fb, c))
check(all(v.values()) and len(v) == 4, "fast: every figure met: %r" % v)
v = dict(sb.verdicts("slow", fb, c))
check(len(v) == 3, "slow: no value-agreement figure (a sleep is not comparable to 3%)")
bad = sb.compare(dict(fb, value=1.05, wall_s=0.009), gb)
v = dict(sb.verdicts("siphash", dict(fb, wall_s=0.009), bad))
check(not v["value within 3%"] and not v["wall <= 8 ms"], "siphash: 5%% off and 9 ms fail: %r" % v)
v = dict(sb.verdicts("slow", dict(fb, wall_s=0.050), c))
check(v["wall <= 60 ms"], "slow: 50 ms is within 60 ms")

# ---------------------------------------------------------------- parsers
FB_DOC = {"results": [
    {"name": "other", "batch": 1, "error": None, "stats": {"elapsed": {"median": 1.0}}},
    {"name": "memcpy4k", "batch": 4096, "error": None, "stats": {"elapsed": {"median": 4096e-10}}},
]}
close(sb.parse_fb_json(json.dumps(FB_DOC), "memcpy4k"), 0.1, rel=1e-9, what="fb value is per unit, in ns")
check(raises(KeyError, sb.parse_fb_json, json.dumps(FB_DOC), "nope"), "fb: a missing result raises")
FB_ERR = {"results": [{"name": "x", "batch": 1, "error": "optimized away", "stats": {}}]}
check(raises(RuntimeError, sb.parse_fb_json, json.dumps(FB_ERR), "x"), "fb: an error row raises")
GB_DOC = {"benchmarks": [
    {"name": "slow/real_time", "real_time": 10.1, "cpu_time": 0.004, "time_unit": "ms"},
    {"name": "memcpy4k", "real_time": 81.92, "cpu_time": 81.0, "time_unit": "ns"},
]}
close(sb.parse_gb_json(json.dumps(GB_DOC), "slow/real_time"), 10.1e6, rel=1e-9, what="gb time unit ms -> ns")
close(sb.parse_gb_json(json.dumps(GB_DOC), "memcpy4k", 4096), 0.02, rel=1e-9, what="gb value per byte")
check(raises(KeyError, sb.parse_gb_json, json.dumps(GB_DOC), "slow"), "gb: exact names only")

# ------------------------------------------------------------ doc markers
with tempfile.TemporaryDirectory() as d:
    path = os.path.join(d, "performance.md")
    with open(path, "w") as f:
        f.write("# Title\n\nhand-written method\n\n%s\nold table\n%s\n\n## After\nkept\n" % (sb.BEGIN, sb.END))
    sb.write_doc(path, "new table\n")
    with open(path) as f:
        text = f.read()
    check("hand-written method" in text and "## After\nkept" in text, "write_doc keeps the text around the markers")
    check("new table" in text and "old table" not in text, "write_doc replaces the block")
    check(text.count(sb.BEGIN) == 1 and text.count(sb.END) == 1, "write_doc keeps one pair of markers")
    fresh = os.path.join(d, "fresh.md")
    sb.write_doc(fresh, "first table\n")
    with open(fresh) as f:
        text = f.read()
    check(sb.BEGIN in text and "first table" in text and sb.END in text, "write_doc creates a missing document")

    # a named block is written between its own markers; the main block stays
    sb.write_doc(path, "quiet table\n", "quietcore")
    sb.write_doc(path, "newer table\n")
    with open(path) as f:
        text = f.read()
    qb, qe = sb.markers("quietcore")
    check(qb in text and qe in text and "quiet table" in text, "write_doc appends a named block")
    check("newer table" in text and "new table\n" not in text and text.count(sb.BEGIN) == 1,
          "the main block is rewritten in place")

# ------------------------------------------------------------------ render
def fake(wall, value, cvs, cpu=None):
    d = sb.summarize([wall] * 3, [value * (1 - cvs), value, value * (1 + cvs)])
    d["cpu_value"] = cpu
    return d


class FakeFws:
    variants = [("e21", "epochs=21")]
    has_gb = True

    def names(self):
        return ["fb", "e21", "gb"]


res = {}
for w in sb.WORKLOADS:
    res[("fb", w)] = fake(0.005, 1.0, 0.001)
    res[("e21", w)] = fake(0.008, 1.0, 0.001)
    res[("gb", w)] = fake(0.5, 1.01, 0.002, 1.005)
ex = {"loop": {"cmd": ["fb_selfbench"], "empty_ns": 0.27, "empty_cv": 0.0, "add_ns": 0.27, "fast_ns": 0.27},
      "startup": {"cmd": "a", "cmd_empty": "b", "empty_s": 0.001, "trivial_s": 0.002, "setup_s": 0.001},
      "sanity": {"cmd": "c", "wall_s": 0.01, "max_s": 0.02}, "list": {"cmd": "d", "wall_s": 0.001, "max_s": 0.002},
      "rss": {"cmd": "e", "demo_kib": 3000, "empty_kib": 1000, "buffers_kib": 976, "beyond_kib": 1024,
              "demo_wall_s": 0.07},
      "gb_slow_cputime": {"cmd": "f", "wall_s": 11.2, "value": 1.01e7, "cv": 0.001, "iterations": 1000, "n": 3}}
meta = {"date": "today", "machine": "cpu", "mhz": 2600.0, "load_before": "0 0 0", "load_after": "0 0 0",
        "command": "python3 tools/selfbench.py", "n": 3, "n_extras": 3, "build_note": "build", "gate": "no gate"}
out = sb.render(res, ex, FakeFws(), sb.WORKLOADS, meta)
check(out.count("| fast |") == 5, "render: fast in the table (3 rows), the ratios and the variant table")
check("**not met**" not in out, "render: every figure of the fake run is met:\n" + out)
check("Variant `FEMTOBENCH_CONFIG=epochs=21`" in out, "render: variant table")
check("1000 iterations" in out, "render: Google Benchmark without UseRealTime")

line, mhz = sb.machine_line()
check("cores" in line and len(line) > 10, "machine line: %r" % line)

# ------------------------------------------------- the programs, when built
fb_prog = os.path.join(SELF, "fb_selfbench")
if os.access(fb_prog, os.X_OK):
    env = sb.clean_env()
    p = subprocess.run([fb_prog, "-sanity_check"], capture_output=True, text=True, env=env, timeout=120)
    check(p.returncode == 0, "fb_selfbench -sanity_check: status %d: %s" % (p.returncode, p.stderr))
    check(" 0 failed" in p.stderr, "fb_selfbench -sanity_check: %r" % p.stderr)
    p = subprocess.run([fb_prog, "-list"], capture_output=True, text=True, env=env, timeout=60)
    names = p.stdout.split()
    check(all(w in names for w in sb.WORKLOADS) and "empty" in names and "add64" in names,
          "fb_selfbench -list: %r" % names)
    # the driver's parser on real output (one epoch of one iteration)
    p = subprocess.run([fb_prog, "-sanity_check", "-filter=memcpy4k|fast", "-output_json=-"],
                       capture_output=True, text=True, env=env, timeout=60)
    check(p.returncode == 0, "fb_selfbench json: %s" % p.stderr)
    if p.returncode == 0:
        v = sb.parse_fb_json(p.stdout, "memcpy4k")
        check(v > 0 and math.isfinite(v), "parsed memcpy4k per byte: %r" % v)
        check(sb.parse_fb_json(p.stdout, "fast") > 0, "parsed fast")
else:
    print("note: %s not built; program checks skipped" % fb_prog, file=sys.stderr)

gb_prog = os.path.join(SELF, "gb_selfbench")
if os.access(gb_prog, os.X_OK):
    p = subprocess.run([gb_prog, "--benchmark_list_tests=true"], capture_output=True, text=True, timeout=60)
    names = p.stdout.split()
    check(p.returncode == 0 and all(sb.GB_NAME.get(w, w) in names for w in sb.WORKLOADS),
          "gb_selfbench --benchmark_list_tests: %r" % names)
else:
    print("note: %s not built (no Google Benchmark?); skipped" % gb_prog, file=sys.stderr)

rss_prog = os.path.join(SELF, "fb_selfbench_rss")
empty_prog = os.path.join(SELF, "fb_selfbench_empty")
if os.access(rss_prog, os.X_OK) and os.access(empty_prog, os.X_OK):
    wall, rss = sb.run_rss(rss_prog, [empty_prog])
    # AddressSanitizer's shadow memory alone is more than the bound
    asan = b"__asan_init" in open(empty_prog, "rb").read()
    check(0 < rss < (65536 if asan else 8192),
          "the empty program's peak RSS through the launcher: %r KiB" % rss)

check.finish()
