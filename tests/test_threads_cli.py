"""Groups of threads at the runner (docs/threads.md): FB_BENCHMARK_THREADS'
instances "name/threads:N" in the table, CSV (read by python's csv), JSON,
Google Benchmark JSON (the keys GB 1.7 writes for ->Threads(n): "threads",
the name suffix "/threads:N", iterations of all threads; read by compare.py
when installed), HTML, -list and -filter, and with -isolate, -repetitions,
-baseline and -valgrind (refused with an error row). Runs tests/suite_threads.c.
No time is asserted."""
import csv
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fbtest  # noqa: E402

BUILD = os.environ.get("FB_BUILD_DIR", "build")
SUITE = os.path.join(BUILD, "tests", "suite_threads")
COMPARE = "/usr/share/benchmark/compare.py"
check = fbtest.Checks()


run = fbtest.runner(SUITE, env={"FEMTOBENCH_CONFIG": "epochs=3"}, timeout=300)


NAMES = ["Plain", "Shared/threads:1", "Shared/threads:2"]
tmp = tempfile.mkdtemp()
try:
    # -list and -filter see the instances
    rc, out, err = run("-list")
    check(rc == 0 and out.split() == NAMES, f"-list: {rc} {out!r} {err!r}")
    rc, out, err = run("-list", "-filter=Shared/threads:2")
    check(rc == 0 and out.split() == ["Shared/threads:2"], f"-filter: {out!r}")

    paths = {k: os.path.join(tmp, "out." + k) for k in ("json", "gb", "csv", "html")}
    rc, out, err = run(f"-output_json={paths['json']}", f"-output_gbench={paths['gb']}",
                       f"-output_csv={paths['csv']}", f"-output_html={paths['html']}")
    check(rc == 0, f"run: exit {rc}: {err[-800:]}")
    WAITED = r"(; [0-9]+ of [0-9]+ epochs waited for a core: their time is the threads' CPU span)?"
    check(re.search(r"`Shared/threads:2`.* \(2 threads, each [0-9.]+\.\.[0-9.]+ ns/op wall; CPU [0-9.,]+ ns/op a thread" + WAITED + r"\)", out),
          f"table: no group row with its threads: {out!r}")
    check("`Shared/threads:1`" in out and "`Plain`" in out, f"table rows: {out!r}")

    rows = {r["name"]: r for r in csv.DictReader(open(paths["csv"], newline=""))}
    check(sorted(rows) == NAMES, f"CSV names {sorted(rows)}")
    check(rows["Shared/threads:2"]["threads"] == "2", f"CSV threads {rows['Shared/threads:2']}")
    check(rows["Plain"]["threads"] == "1", "CSV: a plain row has 1 thread")
    lo, hi = rows["Shared/threads:2"]["thread_min_ns_per_unit"], rows["Shared/threads:2"]["thread_max_ns_per_unit"]
    check(lo and hi and 0 < float(lo) <= float(hi), f"CSV thread range {lo} {hi}")
    check(rows["Plain"]["thread_min_ns_per_unit"] == "", "CSV: no thread range outside a group")

    doc = json.load(open(paths["json"]))
    res = {r["name"]: r for r in doc["results"]}
    g = res["Shared/threads:2"]
    check(g.get("threads") == 2 and len(g.get("thread_medians", [])) == 2
          and all(v > 0 for v in g["thread_medians"]), f"JSON group: {g.get('threads')} {g.get('thread_medians')}")
    check("threads" not in res["Plain"], "JSON: no threads key outside a group")
    # an epoch's iterations are all threads' (a multiple of the thread count)
    check(all(m["iterations"] % 2 == 0 for m in g["measurements"]), "JSON: iterations of both threads")

    gb = json.load(open(paths["gb"]))
    rows_gb = {b["name"]: b for b in gb["benchmarks"]}
    check(sorted(rows_gb) == NAMES, f"GB names {sorted(rows_gb)}")
    check(rows_gb["Shared/threads:2"]["threads"] == 2 and rows_gb["Shared/threads:1"]["threads"] == 1
          and rows_gb["Plain"]["threads"] == 1, f"GB threads {[(n, b['threads']) for n, b in rows_gb.items()]}")
    check(rows_gb["Shared/threads:2"]["run_name"] == "Shared/threads:2", "GB run_name carries the suffix")
    # one GB family over the thread counts, as GB writes Threads(1)->Threads(2)
    sh1, sh2 = rows_gb["Shared/threads:1"], rows_gb["Shared/threads:2"]
    check(sh1["family_index"] == sh2["family_index"] != rows_gb["Plain"]["family_index"]
          and (sh1["per_family_instance_index"], sh2["per_family_instance_index"]) == (0, 1),
          f"GB families {[(n, b['family_index'], b['per_family_instance_index']) for n, b in rows_gb.items()]}")

    html = open(paths["html"]).read()
    check("Shared/threads:2" in html, "HTML: no group row")
    check(re.search(r"2 threads, each [0-9.]+\.\.[0-9.]+ ns/op" + WAITED + "</span>", html),
          "HTML: no threads' range")
    # the epochs that waited for a core (a busy machine), the same in every output
    waited = g.get("waited")
    m = re.search(r"`Shared/threads:2`.*; ([0-9]+) of [0-9]+ epochs waited for a core", out)
    check(isinstance(waited, list) and "waited" not in res["Plain"]
          and (int(m.group(1)) if m else 0) == len(waited)
          and ("waited_for_core" in rows["Shared/threads:2"]["marks"].split()) == bool(waited),
          f"waited epochs: JSON {waited}, table {m and m.group(0)}, CSV {rows['Shared/threads:2']['marks']}")

    # -gbench_rows=repetitions through compare.py (GB's own reader)
    reps = os.path.join(tmp, "reps.json")
    rc, out, err = run(f"-output_gbench={reps}", "-gbench_rows=repetitions", "-filter=Shared")
    check(rc == 0, f"repetitions layout: {rc} {err[-500:]}")
    r = json.load(open(reps))["benchmarks"]
    check(all(b["threads"] == int(b["run_name"].rsplit(":", 1)[1]) for b in r),
          "GB repetitions rows: threads matches the name's suffix")
    py = None
    if os.path.exists(COMPARE):
        for cand in (sys.executable, "/usr/bin/python3", "python3"):
            try:
                if subprocess.run([cand, "-c", "import scipy, numpy"], capture_output=True).returncode == 0:
                    py = cand
                    break
            except OSError:
                pass
    if py:
        c = subprocess.run([py, COMPARE, "--no-color", "benchmarks", reps, reps], capture_output=True, text=True)
        check(c.returncode == 0 and "Shared/threads:2" in c.stdout, f"compare.py: {c.returncode} {c.stdout[-800:]} {c.stderr[-800:]}")
    else:
        print("note: compare.py or scipy missing: GB's reader not run")

    # -baseline: the same names match across runs
    rc, out, err = run(f"-baseline={paths['json']}")
    check(rc == 0 and "Shared/threads:2" in out, f"-baseline: {rc} {out[-800:]} {err[-300:]}")

    # -isolate: each instance in a child process, the group in it
    iso = os.path.join(tmp, "iso.json")
    rc, out, err = run("-isolate", f"-output_json={iso}")
    check(rc == 0, f"-isolate: {rc} {err[-500:]}")
    res = {r["name"]: r for r in json.load(open(iso))["results"]}
    check(sorted(res) == NAMES and res["Shared/threads:2"].get("threads") == 2, f"-isolate JSON: {sorted(res)}")

    # -repetitions: every pass has the group
    rep = os.path.join(tmp, "rep.json")
    rc, out, err = run("-repetitions=2", f"-output_json={rep}", "-filter=Shared/threads:2")
    check(rc == 0, f"-repetitions: {rc} {err[-500:]}")
    res = [r for r in json.load(open(rep))["results"] if r["name"] == "Shared/threads:2"]
    check(len(res) == 2 and all(r.get("threads") == 2 for r in res), f"-repetitions: {len(res)} group rows")

    # -valgrind: a group of more than one thread is an error row
    asan = b"__asan_init" in open(SUITE, "rb").read()
    rc, out, err = (0, "", "") if asan else run("-valgrind", "-filter=Shared")
    if asan:
        print("note: built with AddressSanitizer, which does not run under Valgrind: -valgrind not run")
    elif not shutil.which("valgrind") or "built without" in err or "no 'valgrind' program" in err:
        print("note: -valgrind not available:", err.strip()[:200])
    else:
        check(rc == 1, f"-valgrind: exit {rc}, want 1 (an error row): {err[-500:]}")
        check("-valgrind does not count a group of threads" in out + err, f"-valgrind: no refusal: {out[-500:]} {err[-500:]}")
        check("Shared/threads:1" in out, f"-valgrind: the 1-thread instance is counted: {out[-500:]}")
finally:
    shutil.rmtree(tmp, ignore_errors=True)

check.finish()
