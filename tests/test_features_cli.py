"""User counters, product families, -context, -output_bmf, Google Benchmark
flags that change nothing, API misuse and the status line, through the runner
(tests/suite_features.c), each output read by its real consumer: Python's csv
and json, Google's compare.py, a validator of Bencher's documented BMF JSON
schema (checked first on the example from Bencher's docs,
tests/data/bmf_example.json), and a pseudo-terminal for the status line."""
import csv
import json
import math
import os
import pty
import re
import select
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fbtest  # noqa: E402

BUILD = os.environ.get("FB_BUILD_DIR", "build")
SRC = os.environ.get("FB_SOURCE_DIR", os.path.join(os.path.dirname(__file__), ".."))
SUITE = os.path.join(BUILD, "tests", "suite_features")
COMPARE = "/usr/share/benchmark/compare.py"
# valgrind installed, and this build can count under it (not an ASan build,
# built with <valgrind/callgrind.h>)
VALGRIND = os.path.exists(SUITE) and fbtest.valgrind_ready([SUITE])
check = fbtest.Checks()


def env_for(extra=None):
    e = dict(os.environ)
    for k in ("FEMTOBENCH_CONFIG", "FEMTOBENCH_ENDLESS", "SUITE_FEATURES_BAD"):
        e.pop(k, None)
    e["FEMTOBENCH_SUPPRESS_WARNINGS"] = "1"
    e["FEMTOBENCH_CONFIG"] = "epochs=5"
    e.update(extra or {})
    return e


run = fbtest.runner(SUITE, env=env_for, timeout=240)


def close(a, b, rel=1e-9):
    return a == b or abs(a - b) <= rel * max(abs(a), abs(b))


def bmf_errors(doc):
    """Bencher's BMF JSON schema (bencher.dev/docs/reference/bencher-metric-format):
    an object of benchmarks (names 1..1024 characters), each an object of
    measures (names 1..64), each an object with a number "value" and optional
    numbers "lower_value" and "upper_value", nothing else."""
    errs = []
    if not isinstance(doc, dict):
        return ["not an object"]
    for name, measures in doc.items():
        if not 1 <= len(name) <= 1024:
            errs.append(f"benchmark name length {len(name)}")
        if not isinstance(measures, dict):
            errs.append(f"{name}: not an object")
            continue
        for m, metric in measures.items():
            if not 1 <= len(m) <= 64:
                errs.append(f"{name}: measure name {m!r}")
            if not isinstance(metric, dict) or "value" not in metric:
                errs.append(f"{name}/{m}: no value")
                continue
            for k, v in metric.items():
                if k not in ("value", "lower_value", "upper_value"):
                    errs.append(f"{name}/{m}: unknown key {k}")
                elif not isinstance(v, (int, float)) or isinstance(v, bool) or not math.isfinite(v):
                    errs.append(f"{name}/{m}/{k}: not a finite number: {v!r}")
            if "lower_value" in metric and "upper_value" in metric and \
                    not metric["lower_value"] <= metric["value"] <= metric["upper_value"]:
                errs.append(f"{name}/{m}: value outside its bounds {metric}")
    return errs


# the validator accepts Bencher's own example and refuses broken ones
fixture = json.load(open(os.path.join(SRC, "tests", "data", "bmf_example.json")))
check(bmf_errors(fixture) == [], f"Bencher's example: {bmf_errors(fixture)}")
check(bmf_errors({"b": {"latency": {"lower_value": 1}}}) != [], "validator: no value")
check(bmf_errors({"b": {"latency": {"value": "1"}}}) != [], "validator: a string value")

with tempfile.TemporaryDirectory() as tmp:
    P = lambda n: os.path.join(tmp, n)  # noqa: E731

    # ---------------------------------------------------------- counters
    rc, out, err = run("-filter=Copy", "-output_csv=" + P("c.csv"), "-output_json=" + P("c.json"),
                       "-output_gbench=" + P("g.json"), "-output_html=" + P("c.html"),
                       "-output_bmf=" + P("c.bmf"))
    check(rc == 0, f"counters run: rc={rc} {err}")
    head = [l for l in out.splitlines() if l.startswith("|") and "benchmark" in l]
    check(head and all(c in head[0] for c in ("bytes/s", "size", "calls/op")),
          f"table header has the counters: {head}")
    rows = list(csv.DictReader(open(P("c.csv"))))
    check(len(rows) == 1, f"csv rows {rows}")
    r = rows[0]
    med_s = float(r["median_ns_per_unit"]) * 1e-9
    check(float(r["size"]) == 256 and float(r["calls/op"]) == 2, f"csv plain/per-iteration {r}")
    check(close(float(r["bytes/s"]), 256 / med_s, 1e-12), f"csv rate {r['bytes/s']} vs {256 / med_s}")
    res = json.load(open(P("c.json")))["results"][0]
    uc = {c["name"]: c for c in res["user_counters"]}
    check(uc["bytes"]["kind"] == "rate" and uc["bytes"]["label"] == "bytes/s" and uc["bytes"]["value"] == 256,
          f"json rate counter {uc}")
    check(uc["calls"]["kind"] == "per_iteration" and uc["size"]["kind"] == "plain", f"json kinds {uc}")
    check(close(uc["bytes"]["shown"], 256 / res["stats"]["elapsed"]["median"]), "json shown rate")
    gb = json.load(open(P("g.json")))["benchmarks"][0]
    check(gb.get("size") == 256 and gb.get("calls") == 2, f"gb counters {gb}")
    check(close(gb["bytes"], 256e9 / gb["real_time"], 1e-9), f"gb rate {gb}")
    html = open(P("c.html")).read()
    check("<th>bytes/s</th>" in html and "<th>calls/op</th>" in html, "html counter columns")
    bmf = json.load(open(P("c.bmf")))
    check(bmf_errors(bmf) == [], f"bmf schema: {bmf_errors(bmf)}")
    check(close(bmf["Copy"]["bytes"]["value"], uc["bytes"]["shown"], 1e-12), f"bmf counter {bmf}")
    lat = bmf["Copy"]["latency"]
    check(close(lat["value"], res["stats"]["elapsed"]["median"] * 1e9, 1e-12), f"bmf latency {lat}")
    check(lat["lower_value"] <= lat["value"] <= lat["upper_value"], f"bmf bounds {lat}")

    # compare.py reads two GB files with counters
    py = None  # one with scipy, which compare.py needs
    for cand in (sys.executable, "/usr/bin/python3"):
        if subprocess.run([cand, "-c", "import scipy, numpy"], capture_output=True).returncode == 0:
            py = cand
            break
    if os.path.exists(COMPARE) and py:
        run("-filter=Copy", "--benchmark_repetitions=3", "--benchmark_out=" + P("g1.json"))
        run("-filter=Copy", "--benchmark_repetitions=3", "--benchmark_out=" + P("g2.json"))
        c = subprocess.run([py, COMPARE, "--no-color", "benchmarks", P("g1.json"), P("g2.json")],
                           capture_output=True, text=True, timeout=120)
        check(c.returncode == 0 and "Copy" in c.stdout, f"compare.py: {c.returncode} {c.stderr[-1500:]}")
        reps = json.load(open(P("g1.json")))["benchmarks"]
        check(all("bytes" in b and "size" in b for b in reps), f"every GB row has the counters")
        agg = {b["aggregate_name"]: b for b in reps if b["run_type"] == "aggregate"}
        check(agg["stddev"]["size"] == 0 and agg["mean"]["size"] == 256, f"GB aggregates {agg}")
    else:
        print("note: compare.py or scipy missing; compare.py check skipped")

    # -isolate carries the counters back from the child
    rc, out, err = run("-filter=Copy|Grid/3/64", "-isolate", "-output_json=" + P("i.json"))
    res_i = json.load(open(P("i.json")))["results"]
    check(rc == 0 and [c["name"] for c in res_i[0]["user_counters"]] == ["bytes", "size", "calls"],
          f"-isolate counters: {rc} {err}")
    check(res_i[1]["args"] == [3, 64], f"-isolate args: {res_i[1].get('args')}")

    # against a baseline: the counters' table
    rc, out, err = run("-filter=Copy", "-baseline=" + P("c.json"))
    check(rc == 0 and "Counters against the baseline" in out and "bytes/s" in out,
          f"baseline counters: {rc} {out[-800:]}")
    # the counters report, the verdicts decide: the change table and its
    # summary line come after the counters and end the output
    check(out.find("Counters against the baseline") < out.find("|           baseline |") and
          out.rstrip("\n").splitlines()[-1].startswith("femtobench: 1 benchmark against the baseline"),
          f"baseline counters before the verdicts: {out[-800:]}")

    # -repetitions: BMF is the median over the passes, bounded by them
    rc, out, err = run("-filter=Copy", "-repetitions=3", "-output_json=" + P("p.json"),
                       "-output_bmf=" + P("p.bmf"))
    passes = sorted(r["stats"]["elapsed"]["median"] * 1e9 for r in json.load(open(P("p.json")))["results"])
    pl = json.load(open(P("p.bmf")))["Copy"]["latency"]
    check(rc == 0 and len(passes) == 3 and close(pl["value"], passes[1]) and
          close(pl["lower_value"], passes[0]) and close(pl["upper_value"], passes[2]),
          f"bmf over passes {pl} {passes}")

    # -valgrind: exact counts, no latency
    if VALGRIND:
        rc, out, err = run("-filter=Copy", "-valgrind", "-output_bmf=" + P("v.bmf"))
        vb = json.load(open(P("v.bmf")))
        check(rc == 0 and bmf_errors(vb) == [] and "instructions" in vb["Copy"] and
              "latency" not in vb["Copy"] and vb["Copy"]["instructions"]["value"] > 0,
              f"-valgrind bmf: {rc} {vb} {err[-500:]}")
        check(vb["Copy"]["size"]["value"] == 256 and "bytes" not in vb["Copy"],
              f"-valgrind: plain counters kept, rates left out: {vb}")
        # over passes: the stored counts of the passes, exact, so bounded by themselves
        rc, out, err = run("-filter=Copy", "-valgrind", "-repetitions=2", "-output_bmf=" + P("v2.bmf"))
        v2 = json.load(open(P("v2.bmf"))) if rc == 0 else {}
        ins = v2.get("Copy", {}).get("instructions", {})
        check(rc == 0 and bmf_errors(v2) == [] and "latency" not in v2["Copy"] and
              ins.get("value") == vb["Copy"]["instructions"]["value"] ==
              ins.get("lower_value") == ins.get("upper_value") and
              v2["Copy"]["size"] == {"value": 256, "lower_value": 256, "upper_value": 256} and
              "bytes" not in v2["Copy"], f"-valgrind -repetitions=2 bmf: {rc} {v2} {err[-500:]}")

    # bad counters: one line, exit 2, the row says why
    for kind, msg in [("empty", "empty name"), ("dup", "duplicated name"), ("nan", "not a finite"),
                      ("inf", "not a finite"), ("flags", "unknown flags"), ("both", "do not go together"),
                      ("reserved", "reserved")]:
        rc, out, err = run("-filter=Misuse", env={"SUITE_FEATURES_BAD": kind})
        check(rc == 2 and msg in err and "femtobench: error:" in err and ":boom:" in out,
              f"bad counter {kind}: rc={rc} {err!r}")
        rc, out, err = run("-filter=Misuse", "-isolate", env={"SUITE_FEATURES_BAD": kind})
        check(rc == 2, f"bad counter {kind} under -isolate: rc={rc}")
    rc, out, err = run("-filter=Misuse")
    check(rc == 0, f"Misuse without a bad argument: rc={rc} {err}")

    # ---------------------------------------------------------- products
    rc, out, err = run("-list", "-filter=Grid")
    check(out.split() == ["Grid/1/8", "Grid/1/64", "Grid/3/8", "Grid/3/64"], f"product -list {out.split()}")
    rc, out, err = run("-list", "-filter=Grid/3/.*")
    check(out.split() == ["Grid/3/8", "Grid/3/64"], f"product -filter instance {out.split()}")
    rc, out, err = run("-filter=Grid", "-output_json=" + P("grid.json"))
    for r in json.load(open(P("grid.json")))["results"]:
        uc = {c["name"]: c["value"] for c in r["user_counters"]}
        a, b = (int(x) for x in r["name"].split("/")[1:])
        check(r["args"] == [a, b] and r["arg"] == a and uc == {"a0": a, "a1": b, "nargs": 2},
              f"product instance {r['name']}: {r['args']} {uc}")

    # ----------------------------------------------------------- context
    rc, out, err = run("-filter=Copy", "-context=commit=abc123", "-context=branch=main",
                       "--benchmark_context=ci=yes,runner=x1", "-output_json=" + P("x.json"),
                       "-output_csv=" + P("x.csv"), "-output_gbench=" + P("x.gb"),
                       "-output_html=" + P("x.html"))
    want = {"commit": "abc123", "branch": "main", "ci": "yes", "runner": "x1"}
    check(rc == 0 and json.load(open(P("x.json")))["context"].get("custom") == want, f"json context {err}")
    gbc = json.load(open(P("x.gb")))["context"]
    check(all(gbc.get(k) == v for k, v in want.items()), f"gb context {gbc}")
    xr = list(csv.DictReader(open(P("x.csv"))))[0]
    check(xr.get("context.commit") == "abc123" and xr.get("context.runner") == "x1", f"csv context {xr}")
    xh = open(P("x.html")).read()
    check("<th>commit</th><td>abc123</td>" in xh, "html context")
    for args, msg in [(["-context=nokey"], "expected key=value"), (["-context==v"], "empty key"),
                      (["-context=a=1", "-context=a=2"], "duplicated key"),
                      (["-context=host_name=x"], "reserved"), (["-context=a b=1"], "character"),
                      (["-context=k=\x01"], "control character")]:
        rc, out, err = run("-filter=Copy", *args)
        check(rc == 2 and msg in err and err.count("\n") == 1 and out == "",
              f"{args}: rc={rc} {err!r}")

    # ------------------------------------------- GB flags that change nothing
    noop = ["--benchmark_color=false", "--benchmark_counters_tabular=true",
            "--benchmark_display_aggregates_only=true", "--benchmark_enable_random_interleaving=true",
            "--benchmark_min_warmup_time=0.5", "--benchmark_time_unit=ms",
            "--benchmark_perf_counters=CYCLES", "--v=2"]
    for flag in noop:
        rc, out, err = run("-filter=Copy", flag)
        check(rc == 0 and "note: " + flag.split("=")[0] in err and "`Copy`" in out, f"{flag}: rc={rc} {err!r}")
        rc, out, err = run("-filter=Copy", "-quiet", flag)
        check(rc == 0 and "note:" not in err, f"{flag} -quiet: {err!r}")
    rc, out, err = run("--benchmark_dry_run")
    check(rc == 0 and "sanity check:" in err, f"--benchmark_dry_run: {rc} {err!r}")
    rc, out, err = run("--benchmark_colour")
    check(rc == 2 and "unknown option" in err, f"an unknown GB flag stays an error: {err!r}")

    # ------------------------------------------------------ the status line
    def under_pty(*args):
        master, slave = pty.openpty()
        p = subprocess.Popen([SUITE, *args], stdout=subprocess.PIPE, stderr=slave, env=env_for())
        os.close(slave)
        got = b""
        while True:
            r_, _, _ = select.select([master], [], [], 0.2)
            if r_:
                try:
                    chunk = os.read(master, 4096)
                except OSError:
                    break
                if not chunk:
                    break
                got += chunk
            elif p.poll() is not None:
                break
        p.wait(timeout=240)
        os.close(master)
        return p.returncode, p.stdout.read().decode(), got.decode(errors="replace")

    rc, out, tty = under_pty("-filter=Slow")
    check(rc == 0 and re.search(r"femtobench: Slow/\d \(\d of 4\), about \d+ s left", tty) and
          "\r\x1b[K" in tty, f"status line on a terminal: {rc} {tty!r}")
    check(not re.search(r"about \d+ s left", out), "the status line is not on stdout")
    rc, out, tty = under_pty("-filter=Slow", "-quiet")
    check(rc == 0 and "left" not in tty, f"-quiet: no status line {tty!r}")
    rc, out, tty = under_pty("-filter=Copy")
    check(rc == 0 and "left" not in tty, f"a short run: no status line {tty!r}")
    rc, out, err = run("-filter=Slow")
    check(rc == 0 and "left" not in err, f"not a terminal: no status line {err!r}")

if check.failures:
    print(f"{len(check.failures)} failure(s)", file=sys.stderr)
    sys.exit(1)
print("test_features_cli: ok")
