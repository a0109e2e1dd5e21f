"""-shard=k/n: the selected benchmarks split into n parts for n CI jobs.
For n = 1..5 the shards of -list together are exactly -list (no name twice,
the order kept), a family's instances are in one shard, the sizes differ by
at most the largest family's, and two runs split the same way; the split
composes with -filter (it splits what the filter selected), -sanity_check,
-output_json, -isolate and -repetitions (each pass process runs the same
shard). An empty shard (more shards than families) lists and runs nothing,
exit status 0. Every bad value is one error line, exit status 2, nothing
on stdout. Runs tests/suite_shard.c."""
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fbtest  # noqa: E402

BUILD = os.environ.get("FB_BUILD_DIR", "build")
SUITE = os.path.join(BUILD, "tests", "suite_shard")
check = fbtest.Checks()


run = fbtest.runner(SUITE, timeout=300)


def family(name):
    """The suite's families: the instances of FB_BENCHMARK_ARGS/RANGE are fn/arg."""
    return name.split("/")[0]


def listed(*args):
    rc, out, err = run("-list", *args)
    check(rc == 0, f"-list {' '.join(args)}: exit status {rc}: {err}")
    return out.splitlines()


def check_split(extra, n):
    """-list -shard=k/n for k = 1..n against -list, with the options extra."""
    what = f"{' '.join(extra)} -shard=?/{n}"
    full = listed(*extra)
    shards = [listed(*extra, f"-shard={k}/{n}") for k in range(1, n + 1)]
    again = [listed(*extra, f"-shard={k}/{n}") for k in range(1, n + 1)]
    check(shards == again, f"{what}: two runs split differently: {shards} vs {again}")
    joined = [name for s in shards for name in s]
    check(sorted(joined) == sorted(full), f"{what}: the union is not -list: {shards} vs {full}")
    check(len(joined) == len(set(joined)), f"{what}: a benchmark in two shards: {shards}")
    for k, s in enumerate(shards, 1):  # each in -list's order
        check(s == [name for name in full if name in s], f"{what}: shard {k} reordered: {s}")
    owner = {}
    for k, s in enumerate(shards, 1):
        for name in s:
            owner.setdefault(family(name), set()).add(k)
    split = {f: ks for f, ks in owner.items() if len(ks) > 1}
    check(not split, f"{what}: families split over shards: {split}")
    biggest = max((sum(family(x) == family(name) for x in full) for name in full), default=0)
    sizes = [len(s) for s in shards]
    check(max(sizes) - min(sizes) <= biggest, f"{what}: unbalanced sizes {sizes} (largest family {biggest})")
    return shards


if not os.path.exists(SUITE):
    print(f"SKIP: {SUITE} not built")
    sys.exit(77)

full = listed()
check(len(full) == 17 and "SipHash/8" in full and "a.b" in full, f"-list: {full}")
for n in range(1, 6):
    shards = check_split([], n)
    if n == 1:
        check(shards == [full], f"-shard=1/1 is not -list: {shards}")
# -shard splits what the filter selected; --shard is the same option
for flt in ["-filter=SipHash.*|Alpha|Copy|a\\.b", "--benchmark_filter=-Sip"]:
    for n in range(1, 6):
        check_split([flt], n)
check(listed("--shard=2/3") == listed("-shard=2/3"), "--shard=2/3 differs from -shard=2/3")
# 11 families: the shards beyond them are empty (exit status 0, a note, nothing listed)
rc, out, err = run("-list", "-shard=12/12")
check(rc == 0 and out == "" and "-shard=12/12 is empty" in err, f"empty shard: {rc} {out!r} {err!r}")
rc, out, err = run("-sanity_check", "-shard=12/12")
check(rc == 0 and out == "" and "nothing run" in err, f"empty shard, -sanity_check: {rc} {out!r} {err!r}")
# the filter selects nothing: that stays an error, whatever the shard
rc, out, err = run("-list", "-filter=Nothing", "-shard=1/2")
check(rc == 2 and out == "" and "selects no benchmark" in err, f"-filter=Nothing -shard=1/2: {rc} {err!r}")

# bad values: refused before anything runs
for bad in ["0/3", "4/3", "a/b", "3", "1/0", "-1/2", "1/2/3", "", "1001/1001", "1/", "/2",
            " 1/2", "1/2 ", "+1/2", "1.0/2", "1e0/2", "0x1/2", "1/1000000000000000000000"]:
    for extra in [["-list"], ["-sanity_check"]]:
        rc, out, err = run(*extra, f"-shard={bad}")
        lines = err.splitlines()
        check(rc == 2 and out == "" and len(lines) == 1 and lines[0].startswith(f"femtobench: error: -shard={bad}: "),
              f"{extra[0]} -shard={bad!r}: exit status {rc}, stdout {out!r}, stderr {err!r}")
rc, out, err = run("-list", "-shard")
check(rc == 2 and out == "" and err.startswith("femtobench: error: -shard needs a value"), f"-shard: {rc} {err!r}")
rc, out, err = run("-help")
check(rc == 0 and "-shard=<k>/<n>" in out, "-help does not document -shard")

# what runs is the shard: -sanity_check, -isolate, -repetitions (each pass
# process gets the same command line, so the same shard)
with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "out.json")
    for args in [["-sanity_check", "-shard=1/2"], ["-sanity_check", "-shard=3/4", "-filter=SipHash.*|Copy|x\\+y"],
                 ["-sanity_check", "-isolate", "-shard=2/3"],
                 ["-repetitions=2", "-min_time=1", "-shard=2/2", "-filter=Copy|Alpha|Beta|xxy"]]:
        want = listed(*[a for a in args if a.startswith(("-shard", "-filter"))])
        if os.path.exists(path):
            os.remove(path)
        rc, out, err = run(*args, f"-output_json={path}")
        check(rc == 0, f"{' '.join(args)}: exit status {rc}: {err}")
        if rc != 0:
            continue
        with open(path) as f:
            doc = json.load(f)
        names = [r["name"] for r in doc["results"]]
        passes = 2 if "-repetitions=2" in args else 1
        check(sorted(names) == sorted(want * passes), f"{' '.join(args)}: ran {names}, the shard is {want}")
        if "-sanity_check" in args:
            check(f"sanity check: {len(want)} benchmark" in err, f"{' '.join(args)}: {err}")

# the demo suite (where this build has it): for n = 1..5 its shards are
# exactly its -list, families whole (SipHash/..., SortShuffled/...)
DEMO = os.path.join(BUILD, "bench", "femtobench-demo")
if os.path.exists(DEMO):
    SUITE = DEMO
    demo = listed()
    check(len(demo) > 10 and "SipHash/64" in demo, f"the demo's -list: {demo}")
    for n in range(1, 6):
        check_split([], n)
else:
    print(f"note: no {DEMO}: the demo's shards were not checked")

if check.failures:
    print(f"{len(check.failures)} failure(s)", file=sys.stderr)
    sys.exit(1)
print("test_shard_cli: all passed")
