"""Every line the runner prints about epochs and rounds agrees with its own
numbers and with the JSON of the same run:

- "'<name>': N of the M epochs asked for (D disturbed): <why>" (stderr):
  N < M, M = the result's epochs_asked, D = its disturbed epochs, N = its
  clean epochs the statistics use (measurements less dropped, less the
  disturbed ones kept when too few others remained: on a busy machine the
  statistics keep them, and the row says so), "most epochs were
  disturbed" only when D > N, "max_total_time was spent" only when the run
  stopped by its budget;
- a comparison's "N of M rounds left out: an epoch was preempted",
  ", R paired rounds, interleaved" and "N of M rounds tied" (its summary):
  N = preempted = the rounds whose log ratio is null, M = R = rounds, the
  tied count = the largest `tied`.
A small run makes the lines likely: 40 epochs asked for with a budget
(max_total_time) and 1 ms epochs. Whatever the load, every line printed is
checked, and every result short of its epochs must have its line."""
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fbtest  # noqa: E402

BUILD = os.environ.get("FB_BUILD_DIR", "build")
SUITE = os.path.join(BUILD, "tests", "suite_valgrind")
check = fbtest.Checks()


env = dict(os.environ)
for k in ("FEMTOBENCH_ENDLESS", "FEMTOBENCH_VALGRIND", "FEMTOBENCH_SUPPRESS_WARNINGS"):
    env.pop(k, None)
env["FEMTOBENCH_CONFIG"] = "epochs=40,max_total_time=2ms,min_epoch_time=1ms"
listed = subprocess.run([SUITE, "-list"], capture_output=True, text=True, env=env).stdout
if "PairDouble" not in listed:
    print("SKIP: no inline assembly for this architecture (suite_valgrind's pairs)")
    sys.exit(77)

EPOCHS = re.compile(r"^femtobench: '(?P<name>[^']*)': (?P<n>\d+) of the (?P<m>\d+) epochs asked "
                    r"for \((?P<d>\d+) disturbed\): (?P<why>.*)$")
LEFT = re.compile(r"^(?P<n>\d+) of (?P<m>\d+) rounds left out: an epoch was preempted")
ROUNDS = re.compile(r", (?P<r>\d+) paired rounds, interleaved$")
TIED = re.compile(r"^(?P<n>\d+) of (?P<m>\d+) rounds tied at the clock's resolution")

with tempfile.TemporaryDirectory() as d:
    p = subprocess.run([SUITE, "-filter=Add10|Other|PairDouble|PairSame",
                        f"-output_json={d}/r.json"], capture_output=True, text=True, env=env,
                       timeout=120)
    check(p.returncode == 0, f"exit status {p.returncode}: {p.stderr[-400:]}")
    j = json.load(open(f"{d}/r.json"))
    results = {r["name"]: r for r in j["results"]}
    cmps = {c["title"]: c for c in j["comparisons"]}

    seen_epochs = 0
    for line in p.stderr.splitlines():
        m = EPOCHS.match(line)
        if not m:
            check("epochs asked for" not in line, f"an epochs line of another shape: {line!r}")
            continue
        seen_epochs += 1
        n, asked, dist, why = int(m["n"]), int(m["m"]), int(m["d"]), m["why"]
        r = results.get(m["name"])
        check(r is not None, f"{line!r}: no result named so in the JSON")
        if r is None:
            continue
        used = len(r["measurements"]) - len(r["dropped"])
        gone = set(r["dropped"]) | set(r["disturbed"] or [])
        clean_used = sum(1 for e in range(len(r["measurements"])) if e not in gone)
        check(n < asked, f"{line!r}: N < M")
        check(asked == r["epochs_asked"], f"{line!r}: M = epochs_asked {r['epochs_asked']}")
        check(dist == len(r["disturbed"] or []), f"{line!r}: D = the JSON's {r['disturbed']}")
        check(n == clean_used, f"{line!r}: N = the clean epochs used ({clean_used} of {used} used)")
        # disturbed epochs kept by the statistics: the row is marked descheduled
        if used > clean_used:
            check(r.get("descheduled", 0) > 0, f"{line!r}: disturbed epochs kept, no mark: {r}")
        if "most epochs were disturbed" in why:
            check(dist > n, f"{line!r}: 'most disturbed' with {dist} disturbed of {n + dist}")
        if "max_total_time" in why:
            check(r["stopped_by"] == "budget", f"{line!r}: stopped_by {r['stopped_by']}")
    # and the other way: every result short of its explicit epochs has its line
    named = {EPOCHS.match(x)["name"] for x in p.stderr.splitlines() if EPOCHS.match(x)}
    for name, r in results.items():
        used = len(r["measurements"]) - len(r["dropped"])
        if not r.get("error") and used < r["epochs_asked"]:
            check(name in named, f"{name}: {used} of {r['epochs_asked']} epochs and no line says so")

    # the comparisons' summaries: the line after each table names its title
    # in the rows above; match by the alternatives' names in the line
    for line in p.stdout.splitlines():
        title = ("pair double" if "`twice`" in line or "`ten`" in line
                 else "pair same" if "`one`" in line or "`other`" in line else None)
        m = ROUNDS.search(line)
        if m and title:
            check(int(m["r"]) == cmps[title]["rounds"], f"{line!r}: rounds {cmps[title]['rounds']}")
    # "left out" and "tied" lines follow their summary: walk in order
    current = None
    for line in p.stdout.splitlines():
        if ROUNDS.search(line):
            current = ("pair double" if "`twice`" in line else "pair same"
                       if "`other`" in line else None)
            continue
        c = cmps.get(current)
        m = LEFT.match(line)
        if m and c:
            nulls = max(sum(x is None for x in a["log_ratios"]) for a in c["alternatives"])
            check(int(m["n"]) == c["preempted"] == nulls and int(m["m"]) == c["rounds"],
                  f"{line!r}: preempted {c['preempted']}, null log ratios {nulls}, "
                  f"rounds {c['rounds']}")
        m = TIED.match(line)
        if m and c:
            tied = max(a["tied"] for a in c["alternatives"])
            check(int(m["n"]) == tied and int(m["m"]) == c["rounds"],
                  f"{line!r}: tied {tied} of {c['rounds']}")

check.finish()
