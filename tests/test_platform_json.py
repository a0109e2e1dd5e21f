"""The JSON of the cross-built demos, read by this build's tools: Windows
(mingw-w64, run under wine) and Linux aarch64 (run under qemu-aarch64).
Each file has this build's schema (every key this build's demo writes for
the same benchmarks, in the context and in every result; only the counters,
which those runs did not have, may be missing from the statistics), and
femtobench-compare reads it: against itself (every benchmark unchanged) and
against this build's run (every benchmark matched by name).

The files: FB_WINDOWS_JSON and FB_AARCH64_JSON when .ci/run has just
written them with the cross-built demo, else the checked-in
tests/data/platform_windows.json and platform_aarch64.json (written the
same way: femtobench-demo -filter='SipHash/64|Sort|SHA256_32b')."""
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fbtest  # noqa: E402

BUILD = os.environ.get("FB_BUILD_DIR", "build")
SRC = os.environ.get("FB_SOURCE_DIR", os.path.join(os.path.dirname(__file__), ".."))
DEMO = os.path.join(BUILD, "bench", "femtobench-demo")
COMPARE = os.path.join(BUILD, "femtobench-compare")
FILTER = "SipHash/64|Sort|SHA256_32b"
check = fbtest.Checks()


run = fbtest.runner(timeout=300)  # run(prog, *args)


# A result's keys written since the other platforms' files were recorded:
# "descheduled" (docs/formats.md).
NEWER_KEYS = {"descheduled"}


def keys_within(other, native, where, label):
    """Every key of other is in native; native's extras only in 'stats'."""
    if isinstance(other, dict) and isinstance(native, dict):
        missing = set(other) - set(native)
        check(not missing, f"{label}: {where}: keys this build does not write: {sorted(missing)}")
        # keys this build writes that were added after those files were recorded
        extra = set(native) - set(other) - NEWER_KEYS
        if not where.endswith(".stats"):
            check(not extra, f"{label}: {where}: keys missing: {sorted(extra)}")
        for k in set(other) & set(native):
            keys_within(other[k], native[k], f"{where}.{k}", label)


def main():
    if not os.path.exists(DEMO) or not os.path.exists(COMPARE):
        print(f"SKIP: {DEMO} or {COMPARE} not built")
        return 77
    with tempfile.TemporaryDirectory() as tmp:
        native_path = os.path.join(tmp, "native.json")
        p = run(DEMO, f"-filter={FILTER}", f"-output_json={native_path}")
        check(p.returncode == 0, f"native demo: exit status {p.returncode}: {p.stderr[-500:]}")
        native = json.load(open(native_path))
        names = sorted(r["name"] for r in native["results"])
        files = [
            ("windows", os.environ.get("FB_WINDOWS_JSON")
             or os.path.join(SRC, "tests", "data", "platform_windows.json")),
            ("aarch64", os.environ.get("FB_AARCH64_JSON")
             or os.path.join(SRC, "tests", "data", "platform_aarch64.json")),
        ]
        for label, path in files:
            check(os.path.exists(path), f"{label}: {path} missing")
            if not os.path.exists(path):
                continue
            doc = json.load(open(path))
            check(doc.get("schema") == native.get("schema"),
                  f"{label}: schema {doc.get('schema')!r}, this build {native.get('schema')!r}")
            check(sorted(r["name"] for r in doc["results"]) == names,
                  f"{label}: benchmarks {[r['name'] for r in doc['results']]}, want {names}")
            keys_within({k: v for k, v in doc.items() if k != "results"},
                        {k: v for k, v in native.items() if k != "results"}, "top", label)
            by_name = {r["name"]: r for r in native["results"]}
            for r in doc["results"]:
                if r["name"] in by_name:
                    keys_within(r, by_name[r["name"]], f"results[{r['name']}]", label)
                check(r.get("error") in (None, ""), f"{label}: {r['name']}: error {r.get('error')!r}")
                check(len(r.get("measurements", [])) > 0, f"{label}: {r['name']}: no epochs")
            # femtobench-compare: the file against itself, and against this build
            p = run(COMPARE, path, path)
            check(p.returncode == 0, f"{label}: compare with itself: exit {p.returncode}: {p.stderr}")
            for n in names:
                check(f"`{n}`" in p.stdout, f"{label}: compare with itself: no row for {n}")
            check("+0.0%" in p.stdout, f"{label}: compare with itself: no unchanged row")
            p = run(COMPARE, path, native_path)
            check(p.returncode in (0, 1),
                  f"{label}: compare with this build: exit {p.returncode}: {p.stderr}")
            for n in names:
                check(f"`{n}`" in p.stdout, f"{label}: compare with this build: no row for {n}")
            check("error" not in p.stderr, f"{label}: compare with this build: {p.stderr}")
    return check.done()


sys.exit(main())
