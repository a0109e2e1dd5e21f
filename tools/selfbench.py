#!/usr/bin/env python3
"""Self-benchmarks: femtobench against Google Benchmark, side by side.

Runs bench/selfbench's two programs (fb_selfbench, gb_selfbench) as one
process per workload, N times, interleaved (fb, gb, fb, gb, ...), and reports
per framework and workload: the median wall time of the process, the median
reported value, the run-to-run CV of the reported value and the figure of merit
wall x CV^2 (lower is better). Then the other figures: loop overhead, start-up,
-sanity_check and -list of the demo suite, peak RSS. The result is printed and
written between the markers in docs/performance.md (see there for the method).

    cmake -S . -B build-self -DCMAKE_BUILD_TYPE=Release && cmake --build build-self -j2
    python3 tools/selfbench.py --build build-self            # N = 15, writes the doc
    python3 tools/selfbench.py --build build-self -n 5 --no-write   # a quick look

Prototyping a default without recompiling (extra femtobench columns, run in
the same interleaved rounds; FEMTOBENCH_CONFIG syntax):

    python3 tools/selfbench.py -n 15 --no-write --variant e15=epochs=15

The statistics (median, cv, merit, ...) are plain functions, unit-tested by
tests/test_selfbench_stats.py.
"""
import argparse
import datetime
import json
import math
import os
import platform
import random
import re
import shlex
import subprocess
import sys
import tempfile
import time

WORKLOADS = ["fast", "siphash", "fluct", "slow", "memcpy4k"]
# units processed per call (the reported value is per unit)
BATCH = {"fast": 1, "siphash": 1, "fluct": 1, "slow": 1, "memcpy4k": 4096}
# Google Benchmark's names (UseRealTime() appends /real_time).
GB_NAME = {"slow": "slow/real_time"}
UNIT = {"fast": "ns/op", "siphash": "ns/op", "fluct": "ns/op", "slow": "ns/op", "memcpy4k": "ns/byte"}

# The figures to reach.
WALL_LIMIT_S = {"fast": 0.008, "siphash": 0.008, "fluct": 0.008, "memcpy4k": 0.008, "slow": 0.060}
MERIT_RATIO_MAX = 1.0 / 30
CV_RATIO_MAX = 1.5
VALUE_AGREE_MAX = 0.03
VALUE_AGREE_WORKLOADS = ("fast", "siphash", "fluct", "memcpy4k")
LOOP_OVERHEAD_MAX_NS = 0.5
STARTUP_MAX_S = 0.002
SANITY_MAX_S = 0.5
LIST_MAX_S = 0.020
RSS_BEYOND_MAX_KIB = 8 * 1024
# The demo suite's largest buffers live at one time: SHA256/SHA512 hash a
# 1,000,000-byte buffer (bench/demo_crypto.c); the others are smaller.
DEMO_BUFFERS_KIB = 1000000 // 1024

BEGIN = "<!-- selfbench:begin (written by tools/selfbench.py; edits here are overwritten) -->"
END = "<!-- selfbench:end -->"


def markers(block="main"):
    """The pair of lines that delimit a written block in the document."""
    if block == "main":
        return BEGIN, END
    return ("<!-- selfbench:%s:begin (written by tools/selfbench.py --block %s) -->" % (block, block),
            "<!-- selfbench:%s:end -->" % block)


# ------------------------------------------------------------------ statistics

def median(xs):
    """The middle value (the mean of the two middle ones for an even count)."""
    s = sorted(xs)
    n = len(s)
    if n == 0:
        raise ValueError("median of no values")
    m = n // 2
    return s[m] if n % 2 else (s[m - 1] + s[m]) / 2.0


def mean(xs):
    if not xs:
        raise ValueError("mean of no values")
    return math.fsum(xs) / len(xs)


def stdev(xs):
    """Sample standard deviation (n - 1); 0 for a single value."""
    n = len(xs)
    if n < 2:
        return 0.0
    mu = mean(xs)
    return math.sqrt(math.fsum((x - mu) ** 2 for x in xs) / (n - 1))


def cv(xs):
    """Coefficient of variation: sample stdev / mean (a fraction, not %)."""
    mu = mean(xs)
    if mu == 0:
        return math.inf if stdev(xs) > 0 else 0.0
    return stdev(xs) / abs(mu)


def merit(wall_s, cv_fraction):
    """The figure of merit: wall time x CV^2 (lower is better). Running k
    times longer and averaging divides CV^2 by at most k, so a framework
    cannot improve its merit by simply running longer."""
    return wall_s * cv_fraction * cv_fraction


def ratio(a, b):
    if b == 0:
        return math.inf if a > 0 else 1.0
    return a / b


def near_median(xs, rel=0.01):
    """How many values lie within rel (1%) of their median."""
    m = median(xs)
    return sum(1 for x in xs if abs(x - m) <= rel * abs(m))


def summarize(walls, values):
    """Per framework and workload: median wall (s), median value, CV, merit,
    and how many runs reported within 1% of the median."""
    w = median(walls)
    c = cv(values)
    return {"n": len(values), "wall_s": w, "value": median(values), "cv": c, "merit": merit(w, c),
            "near": near_median(values)}


def compare(fb, gb):
    """fb/gb ratios of two summaries (value as a relative difference)."""
    return {
        "wall": ratio(fb["wall_s"], gb["wall_s"]),
        "value_diff": ratio(fb["value"], gb["value"]) - 1.0,
        "cv": ratio(fb["cv"], gb["cv"]),
        "merit": ratio(fb["merit"], gb["merit"]),
    }


def verdicts(workload, fb, cmp):
    """(figure, met?) pairs for one workload."""
    out = [("wall <= %g ms" % (WALL_LIMIT_S[workload] * 1e3), fb["wall_s"] <= WALL_LIMIT_S[workload])]
    out.append(("merit <= 1/30 of GB", cmp["merit"] <= MERIT_RATIO_MAX))
    out.append(("CV <= 1.5x GB", cmp["cv"] <= CV_RATIO_MAX))
    if workload in VALUE_AGREE_WORKLOADS:
        out.append(("value within 3%", abs(cmp["value_diff"]) <= VALUE_AGREE_MAX))
    return out


# -------------------------------------------------------------------- parsing

def parse_fb_json(text, name):
    """femtobench JSON (-output_json=-): the named result's median time per
    unit, in ns (elapsed is per call: divided by the batch)."""
    doc = json.loads(text)
    for r in doc["results"]:
        if r["name"] == name:
            if r.get("error"):
                raise RuntimeError("femtobench %s: %s" % (name, r["error"]))
            return r["stats"]["elapsed"]["median"] / (r.get("batch") or 1) * 1e9
    raise KeyError("femtobench output has no result %r" % name)


_GB_UNIT_NS = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}


def parse_gb_json(text, name, batch=1, field="real_time"):
    """Google Benchmark JSON (--benchmark_format=json): real time (or
    field="cpu_time") per unit in ns; the JSON's times are per iteration, in
    the benchmark's time_unit."""
    doc = json.loads(text)
    for r in doc["benchmarks"]:
        if r["name"] == name:
            if r.get("error_occurred"):
                raise RuntimeError("gbench %s: %s" % (name, r.get("error_message")))
            return r[field] * _GB_UNIT_NS[r.get("time_unit", "ns")] / batch
    raise KeyError("gbench output has no benchmark %r" % name)


# -------------------------------------------------------------------- running

def run_process(argv, env=None):
    """Runs argv to completion: (wall seconds, stdout text, rc). Wall time is
    time.perf_counter() around the whole process (start, run, exit, reaping);
    stderr (femtobench's table and warnings) is discarded."""
    t0 = time.perf_counter()
    p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
    wall = time.perf_counter() - t0
    return wall, p.stdout.decode("utf-8", "replace"), p.returncode


def run_rss(launcher, argv, env=None):
    """(wall seconds, peak RSS KiB) of argv, run through bench/selfbench's
    fb_selfbench_rss launcher (a child of Python would report Python's RSS)."""
    fd, path = tempfile.mkstemp(prefix="selfbench-rss-")
    os.close(fd)
    try:
        t0 = time.perf_counter()
        p = subprocess.run([launcher, path] + argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                           env=env or clean_env())
        wall = time.perf_counter() - t0
        check_rc(argv, p.returncode, env)
        with open(path) as f:
            code, rss = f.read().split()
        return wall, int(rss)
    finally:
        os.unlink(path)


def clean_env(config=None):
    e = dict(os.environ)
    for k in ("FEMTOBENCH_CONFIG", "FEMTOBENCH_ENDLESS", "FEMTOBENCH_SUPPRESS_WARNINGS"):
        e.pop(k, None)
    if config:
        e["FEMTOBENCH_CONFIG"] = config
    return e


def check_rc(argv, rc, env=None):
    if rc != 0:
        p = subprocess.run(argv, capture_output=True, text=True, env=env)
        sys.exit("selfbench: %s exited with %d:\n%s" % (shlex.join(argv), rc, p.stderr[-2000:]))


def machine_line():
    """'CPU model, N cores, Linux <kernel>' and the first 'cpu MHz' (or None)."""
    model, mhz = None, None
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                key, _, val = line.partition(":")
                key = key.strip()
                if key == "model name" and model is None:
                    model = val.strip()
                elif key == "cpu MHz" and mhz is None:
                    mhz = float(val)
    except (OSError, ValueError):
        pass
    model = model or platform.processor() or platform.machine() or "unknown CPU"
    line = "%s, %d cores, %s %s" % (model, os.cpu_count() or 0, platform.system(), platform.release())
    return line, mhz


def loadavg():
    try:
        return os.getloadavg()
    except OSError:
        return (float("nan"),) * 3


def cpu_times():
    """(busy, total) jiffies summed over all CPUs, from /proc/stat."""
    with open("/proc/stat") as f:
        fields = [int(x) for x in f.readline().split()[1:]]
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)  # idle + iowait
    total = sum(fields[:8])  # guest time is already counted in user
    return total - idle, total


def busy_cpus(window_s):
    """How many CPUs' worth of work other processes did over window_s (this
    driver sleeps meanwhile, so it is everyone else)."""
    b0, t0 = cpu_times()
    time.sleep(window_s)
    b1, t1 = cpu_times()
    if t1 <= t0:
        return 0.0
    return (b1 - b0) / (t1 - t0) * (os.cpu_count() or 1)


class Gate:
    """Quiet-machine checks around the measured processes.

    * idle gate (on by default): before each process, wait until the other
      processes in this machine used less than `idle_cpus` CPUs over a short
      window (/proc/stat): the "wait until the load is low" of a careful user.
    * canary: femtobench's `empty` loop against one dependent add (clean: 1.00).
      On a VM the host may run another guest on this core's SMT sibling, or
      slow the core: a one-cycle loop then takes ~1.5-1.9 cycles, and nothing
      shows in /proc/stat. Before each pair the canary is sampled once, and
      the share of samples that found the core contended is reported (how
      noisy the host was during the run). With canary_ratio > 0 the gate also
      waits for a clean canary before each process (off by default: it favours
      the framework with the shorter runs, which can start and finish inside a
      quiet moment, while a 1 s run cannot).

    Every process, femtobench's and Google Benchmark's, passes the same gate
    just before it starts; what happens during a run is part of the run."""

    CLEAN = 1.08

    def __init__(self, idle_cpus, canary_ratio, canary_argv, window_s=0.2, max_wait_s=60):
        self.idle_cpus, self.canary_ratio, self.canary_argv = idle_cpus, canary_ratio, canary_argv
        self.window_s, self.max_wait_s = window_s, max_wait_s
        self.checks = self.waited = self.gave_up = 0
        self.waited_s = 0.0
        self.samples = self.contended = 0

    def canary(self):
        """empty / add latency, or None when the canary cannot run."""
        _, out, rc = run_process(self.canary_argv, clean_env())
        if rc != 0:
            return None
        try:
            return parse_fb_json(out, "empty") / parse_fb_json(out, "add64")
        except (KeyError, RuntimeError, ValueError, ZeroDivisionError):
            return None

    def sample(self):
        r = self.canary()
        if r is not None:
            self.samples += 1
            self.contended += r > self.CLEAN

    def quiet(self):
        if self.idle_cpus > 0 and busy_cpus(self.window_s) >= self.idle_cpus:
            return False
        if self.canary_ratio > 0:
            r = self.canary()
            if r is not None and r > self.canary_ratio:
                return False
        return True

    def wait(self):
        if self.idle_cpus <= 0 and self.canary_ratio <= 0:
            return
        self.checks += 1
        t0 = time.perf_counter()
        first = True
        while not self.quiet():
            if first:
                self.waited += 1
                first = False
            if time.perf_counter() - t0 > self.max_wait_s:
                self.gave_up += 1
                break
            time.sleep(0.3)
        if not first:
            self.waited_s += time.perf_counter() - t0

    def describe(self):
        parts = []
        if self.idle_cpus > 0:
            parts.append("other processes used < %.2f CPU over %.1f s" % (self.idle_cpus, self.window_s))
        if self.canary_ratio > 0:
            parts.append("the canary loop ran at <= %.2fx the add latency" % self.canary_ratio)
        text = ("gate before every process (%s): %d of %d processes waited, %.0f s in all, %d went ahead after %d s" % (
            "; ".join(parts), self.waited, self.checks, self.waited_s, self.gave_up, self.max_wait_s)
            if parts else "no gate: processes ran back to back")
        if self.samples:
            text += ("; host contention: %d of %d canary samples (one before each pair) found the core shared "
                     "or slowed (empty loop > %.2fx an add)" % (self.contended, self.samples, self.CLEAN))
        return text


def wait_for_load(max_load, max_wait_s):
    """Waits (up to max_wait_s) for the 1-minute load to drop below max_load."""
    t_end = time.time() + max_wait_s
    while True:
        l1 = loadavg()[0]
        if l1 <= max_load or time.time() >= t_end:
            return l1
        print("selfbench: load %.2f > %.2f, waiting ..." % (l1, max_load), file=sys.stderr)
        time.sleep(min(15, max(1, t_end - time.time())))


class Frameworks:
    def __init__(self, build, variants):
        d = os.path.join(build, "bench", "selfbench")
        self.fb = os.path.join(d, "fb_selfbench")
        self.gb = os.path.join(d, "gb_selfbench")
        self.empty = os.path.join(d, "fb_selfbench_empty")
        self.rss = os.path.join(d, "fb_selfbench_rss")
        self.demo = os.path.join(build, "bench", "femtobench-demo")
        self.variants = variants  # [(label, config)]
        for p in (self.fb, self.empty, self.rss):
            if not os.access(p, os.X_OK):
                sys.exit("selfbench: %s not built (cmake --build %s)" % (p, build))
        self.has_gb = os.access(self.gb, os.X_OK)

    def names(self):
        return ["fb"] + [v[0] for v in self.variants] + (["gb"] if self.has_gb else [])

    def command(self, fw, workload):
        """(argv, env, parse) for one process of framework fw on workload."""
        if fw == "gb":
            name = GB_NAME.get(workload, workload)
            argv = [self.gb, "--benchmark_filter=^%s$" % name, "--benchmark_format=json"]
            return argv, clean_env(), lambda t: (parse_gb_json(t, name, BATCH[workload]),
                                                 parse_gb_json(t, name, BATCH[workload], "cpu_time"))
        config = dict(self.variants).get(fw)
        argv = [self.fb, "-filter=%s" % workload, "-output_json=-"]
        return argv, clean_env(config), lambda t: (parse_fb_json(t, workload), None)


def run_table(fws, workloads, n, log, gate=None, shuffle=False):
    """The interleaved rounds: for each round, each workload, each framework
    in turn (fb, variants..., gb), or in a random order per round with
    shuffle (against position effects: a process right after a long
    CPU-bound one may find the VM throttled). Returns {(fw, workload): summary}."""
    rng = random.Random(12345)
    data = {(fw, w): ([], [], []) for fw in fws.names() for w in workloads}
    for i in range(n):
        for w in workloads:
            if gate:
                gate.sample()
            order = list(fws.names())
            if shuffle:
                rng.shuffle(order)
            for fw in order:
                argv, env, parse = fws.command(fw, w)
                if gate:
                    gate.wait()
                wall, out, rc = run_process(argv, env)
                check_rc(argv, rc, env)
                walls, values, cpus = data[(fw, w)]
                walls.append(wall)
                value, cpu = parse(out)
                values.append(value)
                if cpu is not None:
                    cpus.append(cpu)
        log("round %d/%d done (load %.2f)" % (i + 1, n, loadavg()[0]))
    res = {}
    for key, (walls, values, cpus) in data.items():
        s = summarize(walls, values)
        s["cpu_value"] = median(cpus) if cpus else None
        s["cpus"] = cpus
        s["walls"], s["values"] = walls, values
        res[key] = s
    return res


def run_extras(fws, n, log, gate=None):
    """Loop overhead, start-up, demo -sanity_check / -list, peak RSS."""
    ex = {}
    # loop overhead and the cycle length (one process runs both probes)
    argv = [fws.fb, "-filter=empty|add64|fast", "-output_json=-"]
    empties, adds, fasts = [], [], []
    for _ in range(n):
        if gate:
            gate.wait()
        wall, out, rc = run_process(argv, clean_env())
        check_rc(argv, rc)
        empties.append(parse_fb_json(out, "empty"))
        adds.append(parse_fb_json(out, "add64"))
        fasts.append(parse_fb_json(out, "fast"))
    ex["loop"] = {"cmd": argv, "empty_ns": median(empties), "empty_cv": cv(empties),
                  "add_ns": median(adds), "fast_ns": median(fasts)}
    log("loop overhead done")

    # start-up: one trivial benchmark (one epoch of one iteration, output and
    # environment checks on) against an empty C program, interleaved
    trivial_cfg = "epochs=1,epoch_iterations=1"
    argv_t = [fws.fb, "-filter=empty"]
    argv_e = [fws.empty]
    te, tt = [], []
    for _ in range(n):
        for argv, sink, env in ((argv_e, te, clean_env()), (argv_t, tt, clean_env(trivial_cfg))):
            if gate:
                gate.wait()
            wall, out, rc = run_process(argv, env)
            check_rc(argv, rc, env)
            sink.append(wall)
    ex["startup"] = {"cmd": "FEMTOBENCH_CONFIG=%s %s" % (trivial_cfg, shlex.join(argv_t)),
                     "cmd_empty": shlex.join(argv_e), "empty_s": median(te), "trivial_s": median(tt),
                     "setup_s": median(tt) - median(te)}
    log("start-up done")

    if os.access(fws.demo, os.X_OK):
        ts, tl2 = [], []
        argv_s = [fws.demo, "-sanity_check"]
        argv_l = [fws.demo, "-list"]
        for _ in range(n):
            for argv, sink in ((argv_s, ts), (argv_l, tl2)):
                if gate:
                    gate.wait()
                wall, out, rc = run_process(argv, clean_env())
                check_rc(argv, rc)
                sink.append(wall)
        ex["sanity"] = {"cmd": shlex.join(argv_s), "wall_s": median(ts), "max_s": max(ts)}
        ex["list"] = {"cmd": shlex.join(argv_l), "wall_s": median(tl2), "max_s": max(tl2)}
        log("sanity/list done")
        # peak RSS of a full default run of the demo suite vs the empty program
        # (through the small C launcher: see bench/selfbench/rss.c)
        rss_demo, rss_empty, walls = [], [], []
        for _ in range(3):
            wall, rss = run_rss(fws.rss, [fws.demo])
            rss_demo.append(rss)
            walls.append(wall)
            rss_empty.append(run_rss(fws.rss, argv_e)[1])
        ex["rss"] = {"cmd": "%s FILE %s" % (fws.rss, fws.demo), "demo_kib": max(rss_demo),
                     "empty_kib": max(rss_empty), "buffers_kib": DEMO_BUFFERS_KIB,
                     "beyond_kib": max(rss_demo) - max(rss_empty) - DEMO_BUFFERS_KIB,
                     "demo_wall_s": median(walls)}
        log("RSS done")
    return ex


# -------------------------------------------------------------------- report

def fmt_value(v):
    if v >= 1e5:
        return "{:,.0f}".format(v)
    if v >= 100:
        return "%.1f" % v
    if v >= 1:
        return "%.2f" % v
    return "%.4f" % v


def fmt_merit(wall_s, c):
    """merit in ms x %^2 (wall in ms, CV in %)."""
    return "%.3g" % (wall_s * 1e3 * (c * 100) ** 2)


def ok(b):
    return "met" if b else "**not met**"


def render(res, ex, fws, workloads, meta):
    L = []
    L.append("Run of %s, machine: %s. Load average before the run: %s; after: %s." % (
        meta["date"], meta["machine"], meta["load_before"], meta["load_after"]))
    L.append("")
    L.append("Command: `%s` (N = %d interleaved rounds%s; %s; %s)." % (
        meta["command"], meta["n"], ", in a random order per round" if meta.get("shuffle") else "",
        meta["build_note"], meta["gate"]))
    L.append("")
    L.append("| workload | framework | wall ms (median) | reported value (median) | CV of value | merit ms x %^2 | runs within 1% of the median |")
    L.append("|---|---|---:|---:|---:|---:|---:|")
    for w in workloads:
        for fw in fws.names():
            s = res[(fw, w)]
            label = {"fb": "femtobench", "gb": "Google Benchmark"}.get(fw) or "femtobench [%s]" % dict(fws.variants)[fw]
            L.append("| %s | %s | %.2f | %s %s | %.3f%% | %s | %d/%d |" % (
                w, label, s["wall_s"] * 1e3, fmt_value(s["value"]), UNIT[w], s["cv"] * 100,
                fmt_merit(s["wall_s"], s["cv"]), s["near"], s["n"]))
    if fws.has_gb:
        L.append("")
        L.append("Ratios femtobench / Google Benchmark (goal: wall <= 8 ms, slow <= 60 ms; merit <= 1/30 = 0.033; "
                 "CV <= 1.5x; values within 3%):")
        L.append("")
        L.append("| workload | wall fb/gb | value fb/gb - 1 | (vs GB's CPU time) | CV fb/gb | merit fb/gb | figures |")
        L.append("|---|---:|---:|---:|---:|---:|---|")
        for w in workloads:
            fb, gb = res[("fb", w)], res[("gb", w)]
            c = compare(fb, gb)
            v = verdicts(w, fb, c)
            # a sleep uses no CPU: its CPU time is no value to compare with
            vs_cpu = ("%+.2f%%" % ((ratio(fb["value"], gb["cpu_value"]) - 1) * 100)
                      if gb.get("cpu_value") and w != "slow" else "-")
            L.append("| %s | %.4f (1/%.0f) | %+.2f%% | %s | %.2f | %.2g (1/%.3g) | %s |" % (
                w, c["wall"], 1 / c["wall"] if c["wall"] else math.inf, c["value_diff"] * 100,
                vs_cpu, c["cv"],
                c["merit"], 1 / c["merit"] if c["merit"] else math.inf,
                "; ".join("%s: %s" % (k, ok(b)) for k, b in v)))
        for label, cfg in fws.variants:
            L.append("")
            L.append("Variant `FEMTOBENCH_CONFIG=%s` / Google Benchmark:" % cfg)
            L.append("")
            L.append("| workload | wall ms | wall fb/gb | value fb/gb - 1 | CV | CV fb/gb | merit fb/gb |")
            L.append("|---|---:|---:|---:|---:|---:|---:|")
            for w in workloads:
                s, gb = res[(label, w)], res[("gb", w)]
                c = compare(s, gb)
                L.append("| %s | %.2f | %.4f | %+.2f%% | %.3f%% | %.2f | %.2g |" % (
                    w, s["wall_s"] * 1e3, c["wall"], c["value_diff"] * 100, s["cv"] * 100, c["cv"], c["merit"]))
    if ex:
        L.append("")
        L.append("Other figures (medians of %d runs each unless noted):" % meta["n_extras"])
        L.append("")
        L.append("| figure | goal | reached | | command |")
        L.append("|---|---|---:|---|---|")
        lp = ex["loop"]
        cyc = lp["fast_ns"] / lp["add_ns"] if lp["add_ns"] > 0 else math.nan
        L.append("| empty FB_RUN loop (counter kept alive) | <= 0.5 ns/op | %.3f ns/op (%.2f cycles; CV %.1f%%) | %s | `%s` |" % (
            lp["empty_ns"], lp["empty_ns"] / lp["add_ns"], lp["empty_cv"] * 100,
            ok(lp["empty_ns"] <= LOOP_OVERHEAD_MAX_NS), shlex.join(lp["cmd"])))
        nominal = ""
        if meta.get("mhz"):
            nominal = "; at the nominal %.0f MHz of /proc/cpuinfo it would be %.2f cycles" % (
                meta["mhz"], lp["fast_ns"] * meta["mhz"] * 1e-3)
        L.append("| `x += x` in cycles | about 1 | %.2f cycles (%.3f ns; one dependent add = %.3f ns, i.e. %.2f GHz%s) | %s | same |" % (
            cyc, lp["fast_ns"], lp["add_ns"], 1 / lp["add_ns"], nominal, ok(0.8 <= cyc <= 1.25)))
        st = ex["startup"]
        L.append("| start-up: one trivial benchmark minus an empty C program | <= 2 ms | %.2f ms (%.2f - %.2f ms) | %s | `%s` vs `%s` |" % (
            st["setup_s"] * 1e3, st["trivial_s"] * 1e3, st["empty_s"] * 1e3, ok(st["setup_s"] <= STARTUP_MAX_S),
            st["cmd"], st["cmd_empty"]))
        if "sanity" in ex:
            s = ex["sanity"]
            L.append("| `-sanity_check` of the demo suite | <= 0.5 s | %.1f ms (slowest %.1f ms) | %s | `%s` |" % (
                s["wall_s"] * 1e3, s["max_s"] * 1e3, ok(s["wall_s"] <= SANITY_MAX_S), s["cmd"]))
            s = ex["list"]
            L.append("| `-list` of the demo suite | <= 20 ms | %.2f ms (slowest %.2f ms) | %s | `%s` |" % (
                s["wall_s"] * 1e3, s["max_s"] * 1e3, ok(s["wall_s"] <= LIST_MAX_S), s["cmd"]))
            r = ex["rss"]
            L.append("| peak RSS of a default demo-suite run beyond an empty program and the 1 MB buffers (max of 3) | < 8 MiB | "
                     "%d KiB (%d - %d - %d KiB; the run took %.2f s) | %s | `%s` |" % (
                         r["beyond_kib"], r["demo_kib"], r["empty_kib"], r["buffers_kib"], r["demo_wall_s"],
                         ok(r["beyond_kib"] < RSS_BEYOND_MAX_KIB), r["cmd"]))
        g = ex.get("gb_slow_cputime")
        if g:
            L.append("| Google Benchmark `slow` without UseRealTime() (its default: sized by CPU time), median of %d | - | "
                     "%.2f s wall, %s ns/op, CV %.3f%%, %d iterations | - | `%s` |" % (
                         g["n"], g["wall_s"], fmt_value(g["value"]), g["cv"] * 100, g["iterations"], g["cmd"]))
    return "\n".join(L) + "\n"


DOC_SKELETON = """# Performance of femtobench

The method is described by tools/selfbench.py's docstring.
"""


def write_doc(path, block, name="main"):
    """Writes block between the named markers of the document (appending the
    markers when they are missing); the rest of the document is kept."""
    begin, end = markers(name)
    text = ""
    if os.path.exists(path):
        with open(path) as f:
            text = f.read()
    if begin in text and end in text[text.index(begin):]:
        pre = text[:text.index(begin)]
        post = text[text.index(end, text.index(begin)) + len(end):]
        text = pre + begin + "\n" + block + end + post
    else:
        text = (text or DOC_SKELETON).rstrip("\n") + "\n\n" + begin + "\n" + block + end + "\n"
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, path)


class _Saved:
    """The framework list of a saved run (what render() needs of Frameworks)."""

    def __init__(self, names, variants):
        self._names, self.variants = names, [tuple(v) for v in variants]
        self.has_gb = "gb" in names

    def names(self):
        return self._names


def rerender(args, doc):
    with open(args.from_json) as f:
        saved = json.load(f)
    res = {tuple(k.split("/", 1)): v for k, v in saved["results"].items()}
    workloads = saved.get("workloads") or [w for w in WORKLOADS if ("fb", w) in res]
    variants = saved.get("variants")
    if variants is None:  # older files: the variants are in the recorded command
        argv = shlex.split(saved["meta"]["command"])
        variants = [tuple(argv[i + 1].partition("=")[::2]) for i, a in enumerate(argv[:-1]) if a == "--variant"]
    names = saved.get("frameworks") or (["fb"] + [v[0] for v in variants] +
                                        (["gb"] if any(k[0] == "gb" for k in res) else []))
    fws = _Saved(names, variants)
    block = render(res, saved.get("extras") or {}, fws, workloads, saved["meta"])
    print(block)
    if not args.no_write:
        write_doc(doc, block, args.block)
        print("selfbench: wrote %s" % doc, file=sys.stderr)
    return 0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=os.environ.get("FB_BUILD_DIR", "build-self"),
                    help="CMake build directory (default: $FB_BUILD_DIR or build-self)")
    ap.add_argument("-n", "--runs", type=int, default=15, help="interleaved rounds (default 15; >= 15 for the record)")
    ap.add_argument("--workloads", default=",".join(WORKLOADS), help="comma-separated subset")
    ap.add_argument("--variant", action="append", default=[], metavar="LABEL=CONFIG",
                    help="an extra femtobench column run with FEMTOBENCH_CONFIG=CONFIG (repeatable)")
    ap.add_argument("--shuffle", action="store_true",
                    help="run the frameworks of each round in a random order (default: fb, variants, gb)")
    ap.add_argument("--no-gb", action="store_true", help="femtobench only (e.g. to compare --variant settings)")
    ap.add_argument("--no-extras", action="store_true", help="skip the other figures")
    ap.add_argument("--extras-runs", type=int, default=None, help="runs per other figure (default: -n)")
    ap.add_argument("--no-write", action="store_true", help="print only; leave docs/performance.md alone")
    ap.add_argument("--block", default="main", help="which marked block of the document to write (default main)")
    ap.add_argument("--doc", default=None, help="the document to write (default: docs/performance.md)")
    ap.add_argument("--idle-gate", type=float, default=0.15, metavar="CPUS",
                    help="before each process, wait until other processes use less than CPUS CPUs "
                         "(default 0.15; 0 = off)")
    ap.add_argument("--canary-gate", type=float, default=0, metavar="RATIO",
                    help="before each process, also wait until femtobench's empty loop runs at <= RATIO x "
                         "the add latency, i.e. the core is not shared (e.g. 1.08; default 0 = off: "
                         "it favours the shorter runs)")
    ap.add_argument("--max-load", type=float, default=2.0, help="wait until the 1-minute load is below this")
    ap.add_argument("--max-wait", type=float, default=0, help="seconds to wait for --max-load (default 0)")
    ap.add_argument("--gb-slow-cputime-runs", type=int, default=0, metavar="K",
                    help="also run Google Benchmark's slow without UseRealTime() K times (~11 s each)")
    ap.add_argument("--from-json", default=None, metavar="FILE",
                    help="run nothing: render (and write) the tables of a run saved with --json")
    ap.add_argument("--json", default=None, help="also write the raw data (every run) to this file")
    args = ap.parse_args(argv)

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    doc = args.doc or os.path.join(root, "docs", "performance.md")
    workloads = [w for w in args.workloads.split(",") if w]
    for w in workloads:
        if w not in WORKLOADS:
            ap.error("unknown workload %r (have %s)" % (w, ", ".join(WORKLOADS)))
    variants = []
    for v in args.variant:
        label, sep, cfg = v.partition("=")
        if not sep or not label or label in ("fb", "gb") or "/" in label:
            ap.error("--variant wants LABEL=CONFIG, e.g. e15=epochs=15")
        variants.append((label, cfg))
    if args.from_json:
        return rerender(args, doc)
    fws = Frameworks(args.build, variants)
    if args.no_gb:
        fws.has_gb = False
    if not fws.has_gb and not args.no_gb:
        print("selfbench: %s not built (Google Benchmark missing?): femtobench only" % fws.gb, file=sys.stderr)

    def log(msg):
        print("selfbench: " + msg, file=sys.stderr)

    if args.max_wait > 0:
        wait_for_load(args.max_load, args.max_wait)
    load_before = loadavg()
    machine, mhz = machine_line()
    date = datetime.datetime.now().astimezone().strftime("%Y-%m-%d %H:%M %Z")
    gate = Gate(args.idle_gate, args.canary_gate, [fws.fb, "-filter=empty|add64", "-output_json=-"])
    res = run_table(fws, workloads, args.runs, log, gate, args.shuffle)
    n_extras = args.extras_runs or args.runs
    ex = {} if args.no_extras else run_extras(fws, n_extras, log, gate)
    if args.gb_slow_cputime_runs > 0 and fws.has_gb:
        argv = [fws.gb, "--benchmark_filter=^slow_cputime$", "--benchmark_format=json"]
        walls, values, iters = [], [], []
        for _ in range(args.gb_slow_cputime_runs):
            wall, out, rc = run_process(argv, clean_env())
            check_rc(argv, rc)
            walls.append(wall)
            values.append(parse_gb_json(out, "slow_cputime"))
            iters.append(json.loads(out)["benchmarks"][0]["iterations"])
        ex["gb_slow_cputime"] = {"cmd": shlex.join(argv), "wall_s": median(walls), "value": median(values),
                                 "cv": cv(values), "iterations": median(iters), "n": len(walls)}
        log("GB slow without UseRealTime done")
    load_after = loadavg()
    build_note = "build: %s" % os.path.relpath(os.path.abspath(args.build), root)
    cache = os.path.join(args.build, "CMakeCache.txt")
    if os.path.exists(cache):
        with open(cache) as f:
            m = re.search(r"^CMAKE_BUILD_TYPE:\w+=(.*)$", f.read(), re.M)
        if m:
            build_note += " (%s)" % (m.group(1) or "no build type")
    meta = {"date": date, "machine": machine, "mhz": mhz,
            "load_before": " ".join("%.2f" % x for x in load_before),
            "load_after": " ".join("%.2f" % x for x in load_after),
            "command": "python3 tools/selfbench.py" + ("" if not sys.argv[1:] else " " + shlex.join(sys.argv[1:])),
            "n": args.runs, "n_extras": n_extras, "build_note": build_note, "gate": gate.describe(),
            "shuffle": args.shuffle}
    block = render(res, ex, fws, workloads, meta)
    print(block)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"meta": meta, "results": {"%s/%s" % k: v for k, v in res.items()}, "extras": ex,
                       "frameworks": fws.names(), "variants": fws.variants, "workloads": workloads}, f, indent=1)
    if not args.no_write:
        write_doc(doc, block, args.block)
        log("wrote %s" % doc)
    return 0


if __name__ == "__main__":
    sys.exit(main())
