"""femtobench-ab's alternation of which side goes first in a round (docs/ab.md,
"How it works", step 3), seen through what it is for: an order effect
cancels. tests/ab_order.c built as a plugin (ab_order.so) has one benchmark,
Order, whose fake-clock time is 10% longer in an epoch that goes first in its
round than in one that goes second (the first side warming the caches for
the second); its copies share a record of the block's epochs through the
process environment (the file's comment says how).

Checked: the same file twice (A/A, 8 copies a side, the defaults) gives
`same` with a change of exactly 0: each layout's rounds are half old-first,
half new-first, so their median is 0. Were old always first, every round
would give new 2 units of 22 faster, a false `faster` (-9.1%); with a fixed
-rounds and one copy a side as well (there the
sign test's interval spans both kinds of round: `unsure`, never a side). No wall-clock threshold: every time is
the fake clock's."""
import json
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fbtest  # noqa: E402

BUILD = os.environ.get("FB_BUILD_DIR", "build")
AB = os.path.join(BUILD, "femtobench-ab")
ORDER = os.path.join(BUILD, "tests", "ab_order.so")

if not os.path.exists(AB) or not os.path.exists(ORDER):
    print("femtobench-ab or its order plugin was not built (no dlopen on this platform)")
    sys.exit(77)

check = fbtest.Checks()


def order_env(extra):
    """clean_env without a record's address a caller's shell may hold"""
    e = fbtest.clean_env(extra)
    e.pop("AB_ORDER_STATE", None)
    return e


run = fbtest.runner(AB, env=order_env, timeout=300)

tmp = tempfile.mkdtemp(prefix="fb_ab_order_")
try:
    js = os.path.join(tmp, "ab.json")
    for extra, what in (([], "8 copies a side"), (["-instances=1", "-rounds=16"], "one copy a side")):
        rc, out, err = run(ORDER, ORDER, "-output_json=" + js, *extra)
        if not check(rc == 0, f"A/A ({what}): exit status {rc}: {err}"):
            continue
        with open(js) as f:
            doc = json.load(f)
        rows = {b["name"]: b for b in doc["benchmarks"]}
        o = rows.get("Order")
        if not check(o is not None, f"A/A ({what}): no Order row: {sorted(rows)}"):
            continue
        # 8 layouts: each layout's median is 0, so is their mean, and the
        # interval over the layouts is [0, 0]; one layout: the sign test's
        # interval spans both kinds of round (unsure), but never one side
        want = ("same",) if not extra else ("same", "unsure")
        check(o["verdict"] in want,
              f"A/A ({what}): Order is {o['verdict']} ({o.get('change_pct')}%), want "
              f"{' or '.join(want)}: the side that goes first in a round must alternate, "
              f"so that an order effect cancels: {o}")
        check(o["change_pct"] == 0, f"A/A ({what}): Order's change {o['change_pct']}%, want 0: {o}")
        # the fake clock's times are 220 ns an op first in a round, 200
        # second: each side's median over balanced rounds is 210 ns (with
        # 200 or 220 the plugin's order effect did not run)
        check(abs(o["old_s"] - 210e-9) < 1e-15 and abs(o["new_s"] - 210e-9) < 1e-15,
              f"A/A ({what}): Order's times {o['old_s']}, {o['new_s']}, want 210 ns")
finally:
    shutil.rmtree(tmp, ignore_errors=True)

check.finish()
