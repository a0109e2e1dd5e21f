"""One side of a comparison given as several files, the shards of one run
(a suite split across CI jobs by -filter): femtobench-compare's comma
lists and the runner's -baseline (a comma list, or given again). The
shards are merged into one set of results: the change table has the rows
of the unsharded run's comparison; shards that overlap, a missing file and
an empty entry are bad input (one line, exit status 2, nothing run); shards
that disagree about the machine are said once on stderr and in the table.
Also the machine facts every file records (OS, architecture) and the first
line of a comparison across them. Runs tests/suite_cli.c's program; the
files are read with Python's json, verdicts made certain by scaling times
1000x, never by timing thresholds."""
import html.parser
import json
import os
import platform
import re
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fbtest  # noqa: E402

BUILD = os.environ.get("FB_BUILD_DIR", "build")
SUITE = os.path.join(BUILD, "tests", "suite_cli")
COMPARE = os.path.join(BUILD, "femtobench-compare")
SHARDS = ["Alpha", "Beta", "Linear"]  # three disjoint -filter regexes
check = fbtest.Checks()


run = fbtest.runner()  # run(prog, *args)


def bad(prog, args, *must_contain):
    rc, out, err = run(prog, *args)
    lines = err.strip().splitlines()
    what = os.path.basename(prog) + " " + " ".join(args)
    check(rc == 2, f"{what}: exit status {rc}, want 2")
    check(out == "", f"{what}: something ran or printed on stdout: {out[:200]!r}")
    check(len(lines) == 1, f"{what}: want one line on stderr, got {lines!r}")
    check(lines and lines[0].startswith("femtobench: error: "), f"{what}: {lines!r}")
    for s in must_contain:
        check(s in err, f"{what}: stderr lacks {s!r}: {err!r}")


def rows(table):
    """{benchmark: verdict} from the change table's rows."""
    out = {}
    for line in table.splitlines():
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line)]
        if len(cells) == 7 and cells[5] in ("faster", "slower", "same", "unsure", "new", "gone"):
            out[cells[6].strip("`").split("`")[0]] = (cells[5], cells[4])
    return out


def summary(table):
    return next((l for l in table.splitlines() if l.startswith("femtobench: ")), "")


def load(path):
    with open(path) as f:
        return json.load(f)


def save(d, path):
    with open(path, "w") as f:
        json.dump(d, f, indent=2)


def scaled(src, dst, factor, edit=None):
    d = load(src)
    for r in d["results"]:
        for m in r["measurements"]:
            m["elapsed"] *= factor
    if edit:
        edit(d)
    save(d, dst)


def same_rows(a, b, what):
    """The rows of two tables: the same benchmarks, each with the same
    verdict, except where a busy machine left one side too few epochs for an
    interval ("unsure", "too few epochs")."""
    ra, rb = rows(a), rows(b)
    check(sorted(ra) == sorted(rb), f"{what}: rows {sorted(rb)}, unsharded {sorted(ra)}")
    for name in set(ra) & set(rb):
        va, vb = ra[name], rb[name]
        if va[0] != vb[0] and "too few epochs" not in (va[1], vb[1]):
            check(False, f"{what}: {name!r} is {vb}, unsharded {va}\n{a}\n{b}")


def main():
    if not os.path.exists(COMPARE) or not os.path.exists(SUITE):
        print("SKIP: no femtobench-compare or suite_cli in", BUILD)
        return 77
    tmp = tempfile.mkdtemp(prefix="fb-shards-test.")
    p = lambda name: os.path.join(tmp, name)
    sel = "-filter=" + "|".join(SHARDS)

    # the unsharded baseline and run, and the run split into three shards
    for name in ("base", "full"):
        rc, _, err = run(SUITE, sel, f"-output_json={p(name + '.json')}",
                         *([f"-output_gbench={p('gb.json')}"] if name == "base" else []))
        check(rc == 0, f"{name} run: {rc} {err}")
    for k, f in enumerate(SHARDS):
        rc, _, err = run(SUITE, f"-filter={f}", f"-output_json={p(f'shard{k}.json')}")
        check(rc == 0, f"shard {f}: {rc} {err}")
        check([r["name"] for r in load(p(f"shard{k}.json"))["results"]] == [f],
              f"shard {f}: not one benchmark")

    # every file records where it ran: OS and architecture, as compile-time facts
    ctx = load(p("base.json"))["context"]
    want_os = {"linux": "linux", "win32": "windows", "darwin": "macos"}.get(sys.platform)
    want_arch = {"x86_64": "x86_64", "amd64": "x86_64", "aarch64": "aarch64",
                 "arm64": "aarch64"}.get(platform.machine().lower())
    if "-m32" in os.environ.get("FB_CFLAGS", "").split():
        want_arch = "i386"  # the i386 build on an x86-64 machine
    check(ctx.get("os") == want_os, f"context os {ctx.get('os')!r}, want {want_os!r}")
    if want_arch:
        check(ctx.get("arch") == want_arch, f"context arch {ctx.get('arch')!r}, want {want_arch!r}")
    gbc = load(p("gb.json"))["context"]
    check(gbc.get("femtobench_os") == ctx.get("os") and gbc.get("femtobench_arch") == ctx.get("arch"),
          f"gbench context: {gbc}")
    check("os" not in gbc and "arch" not in gbc, "gbench context: keys of its own schema changed")

    # NEW 1000x slower: every verdict certain
    scaled(p("full.json"), p("full_slow.json"), 1e3)
    shards = []
    for k in range(3):
        scaled(p(f"shard{k}.json"), p(f"slow{k}.json"), 1e3)
        shards.append(p(f"slow{k}.json"))
    rc, unsharded, err = run(COMPARE, p("base.json"), p("full_slow.json"), "-output_md=" + p("u.md"))
    check(rc == 0, f"unsharded compare: {rc} {err}")
    rc, sharded, err = run(COMPARE, p("base.json"), ",".join(shards), "-output_md=" + p("s.md"))
    check(rc == 0, f"sharded compare: {rc} {err}")
    check(err.count("warning") == 0, f"sharded compare: a warning for shards of one machine: {err}")
    same_rows(unsharded, sharded, "compare NEW=shards")
    same_rows(open(p("u.md")).read(), open(p("s.md")).read(), "compare NEW=shards, -output_md")
    check(summary(unsharded).split(":")[1:2] == summary(sharded).split(":")[1:2],
          f"summaries: {summary(unsharded)!r} vs {summary(sharded)!r}")
    check(len(rows(sharded)) == 3, f"sharded compare: rows {rows(sharded)}")

    # the same with the runner's own split: -shard=k/3 of the same selection
    # (each family whole), three files merged on the NEW side
    own = []
    for k in range(1, 4):
        rc, _, err = run(SUITE, sel, f"-shard={k}/3", f"-output_json={p(f'own{k}.json')}")
        check(rc == 0, f"-shard={k}/3: {rc} {err}")
        if os.path.exists(p(f"own{k}.json")):  # an empty shard writes no file
            scaled(p(f"own{k}.json"), p(f"own_slow{k}.json"), 1e3)
            own.append(p(f"own_slow{k}.json"))
    check(len(own) == 3, f"-shard=k/3 of three benchmarks: {len(own)} files")
    rc, by_shard, err = run(COMPARE, p("base.json"), ",".join(own))
    check(rc == 0, f"compare NEW=-shard files: {rc} {err}")
    same_rows(unsharded, by_shard, "compare NEW=-shard=k/3 files")
    check(summary(unsharded).split(":")[1:2] == summary(by_shard).split(":")[1:2],
          f"summaries: {summary(unsharded)!r} vs {summary(by_shard)!r}")

    # exact: the unsharded file cut into three files, merged, is the same table
    full = load(p("full_slow.json"))
    cut = []
    for k, r in enumerate(full["results"]):
        d = dict(full)
        d["results"] = [r]
        save(d, p(f"cut{k}.json"))
        cut.append(p(f"cut{k}.json"))
    rc, merged, err = run(COMPARE, p("base.json"), ",".join(cut))
    check(rc == 0 and merged == unsharded, f"cut and merged: {rc} {err}\n{merged}\nvs\n{unsharded}")
    # on the OLD side too: the baseline cut, against the whole run
    base = load(p("base.json"))
    bcut = []
    for k, r in enumerate(base["results"]):
        d = dict(base)
        d["results"] = [r]
        save(d, p(f"bcut{k}.json"))
        bcut.append(p(f"bcut{k}.json"))
    rc, merged, err = run(COMPARE, ",".join(bcut), p("full_slow.json"))
    check(rc == 0 and merged == unsharded, f"OLD cut and merged: {rc} {err}\n{merged}")

    # the runner: -baseline as a comma list, and given again (NEW is 1000x faster)
    fast = []
    for k in range(3):
        scaled(p(f"shard{k}.json"), p(f"fast{k}.json"), 1e-3)
        fast.append(p(f"fast{k}.json"))
    for form in (["-baseline=" + ",".join(fast)], ["-baseline=" + f for f in fast]):
        rc, out, err = run(SUITE, sel, *form)
        what = f"runner {' '.join(form)}"
        check(rc == 0, f"{what}: {rc} {err}")
        r = rows(out)
        check(sorted(r) == sorted(SHARDS), f"{what}: rows {sorted(r)}\n{out}")
        check(all(v[0] == "slower" or v[1] == "too few epochs" for v in r.values()),
              f"{what}: verdicts {r}")

    # overlapping shards: refused, naming both files and the benchmark
    shutil.copy(shards[0], p("again.json"))
    bad(COMPARE, [p("base.json"), f"{shards[0]},{shards[1]},{p('again.json')}"],
        "'Alpha'", shards[0], p("again.json"), "NEW=")
    bad(SUITE, [sel, f"-baseline={fast[0]}", f"-baseline={fast[0]}"],
        "-baseline=", "'Alpha'", "must not overlap")
    # a missing file, an empty entry
    bad(COMPARE, [f"{p('base.json')},{p('nope.json')}", p("full.json")],
        "OLD=", p("nope.json"), "cannot open")
    bad(COMPARE, [p("base.json"), f"{shards[0]},,{shards[1]}"], "NEW=", "empty file name")
    bad(COMPARE, [p("base.json"), f"{shards[0]},"], "empty file name")
    bad(SUITE, [sel, f"-baseline={fast[0]},{p('nope.json')}"], "-baseline=", p("nope.json"))
    bad(SUITE, [sel, f"-baseline=,{fast[0]}"], "-baseline=", "empty file name")
    # an output that is one of the shards it reads
    bad(SUITE, [sel, f"-baseline={fast[0]},{fast[1]}", f"-output_json={fast[1]}"],
        "-output_json=")
    bad(COMPARE, [p("base.json"), f"{shards[0]},{shards[1]}", f"-output_md={shards[1]}"],
        "-output_md=")

    # shards that disagree about the machine: merged, said once on stderr
    # and in the table (its markdown file too)
    scaled(shards[1], p("othercc.json"), 1,
           edit=lambda d: d["context"].update(compiler="othercc 9"))
    rc, out, err = run(COMPARE, p("base.json"), f"{shards[0]},{p('othercc.json')},{shards[2]}",
                       "-output_md=" + p("d.md"))
    check(rc == 0, f"disagreeing shards: {rc} {err}")
    warn = [l for l in err.splitlines() if "disagree" in l]
    check(len(warn) == 1 and "compiler" in warn[0] and "othercc 9" in warn[0]
          and warn[0].startswith("femtobench: warning: "), f"disagreeing shards: stderr {err!r}")
    md = open(p("d.md")).read()
    check("> warning: the new run's files disagree about the machine: compiler" in md,
          f"disagreeing shards: the markdown lacks the warning:\n{md}")
    check(len(rows(out)) == 3, f"disagreeing shards: rows {rows(out)}")
    rc, out, err = run(SUITE, sel, f"-baseline={fast[0]},{p('othercc.json')}")
    check(len([l for l in err.splitlines() if "disagree" in l]) == 1,
          f"runner, disagreeing shards: stderr {err!r}")

    # a file from another architecture (and OS): the first line says so
    other = "aarch64" if ctx.get("arch") != "aarch64" else "x86_64"
    scaled(p("base.json"), p("other.json"), 1, edit=lambda d: d["context"].update(arch=other))
    rc, out, err = run(COMPARE, p("other.json"), p("full_slow.json"), "-output_md=" + p("x.md"))
    first = out.splitlines()[0] if out else ""
    check(rc == 0 and first.startswith("> warning: the runs are on different machines (architecture)")
          and other in first, f"another arch: first line {first!r} ({rc} {err})")
    check(open(p("x.md")).read().splitlines()[0] == first, "another arch: the markdown's first line")
    scaled(p("base.json"), p("otheros.json"), 1,
           edit=lambda d: d["context"].update(os="windows" if ctx.get("os") != "windows" else "linux"))
    rc, out, err = run(SUITE, sel, f"-baseline={p('otheros.json')}",
                       f"-output_html={p('otheros.html')}")
    table = out[out.find("> warning: the runs"):] if "> warning: the runs" in out else ""
    check(rc == 0 and table.startswith("> warning: the runs are on different machines (OS)"),
          f"runner, another OS: {rc} {err}\n{out}")
    # the HTML page says it too, first in its change section, before the verdicts
    class Change(html.parser.HTMLParser):
        def __init__(self):
            super().__init__()
            self.depth, self.order, self.where = 0, [], None

        def handle_starttag(self, tag, attrs):
            a = dict(attrs)
            if tag == "section" and "change" in (a.get("class") or "").split():
                self.depth = 1
            elif self.depth:
                self.depth += tag not in ("br", "img", "meta", "input")
                if a.get("id") in ("change-warnings", "verdicts"):
                    self.where = a["id"]
                    self.order.append([a["id"], ""])

        def handle_endtag(self, tag):
            if self.depth and tag not in ("br", "img", "meta", "input"):
                self.depth -= 1

        def handle_data(self, data):
            if self.depth and self.order:
                self.order[-1][1] += data
    h = Change()
    h.feed(open(p("otheros.html"), encoding="utf-8").read())
    ids = [x[0] for x in h.order]
    check(ids[:2] == ["change-warnings", "verdicts"]
          and "the runs are on different machines (OS)" in h.order[0][1],
          f"the HTML change section: {h.order}")
    # an older file without the keys: unknown, no claim about the machine
    scaled(p("base.json"), p("old.json"), 1,
           edit=lambda d: [d["context"].pop(k) for k in ("os", "arch")])
    rc, out, err = run(COMPARE, p("old.json"), p("full_slow.json"))
    check(rc == 0 and "different machines" not in out and "differ in OS" not in out,
          f"a file without os/arch: {rc} {err}\n{out}")

    if check.failures:
        print(f"{len(check.failures)} failure(s); files kept in {tmp}", file=sys.stderr)
        return 1
    shutil.rmtree(tmp)
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
