"""femtobench-ab's HTML page (-output_html) in a real browser: headless
Chromium, offline (the helpers of tests/test_html_browser.py). The page of
tests/ab_suite.c's old against new builds: the forest plot and the change
chart render with a non-zero size, one forest point per compared run, the
names are text, and the page asked for no resource and runs no script.
Skipped (77) when Chromium cannot be found or installed, or femtobench-ab
was not built."""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import test_html_browser as hb  # noqa: E402  (helpers only: its checks run under __main__)

BUILD = os.environ.get("FB_BUILD_DIR", "build")
AB = os.path.join(BUILD, "femtobench-ab")
T = os.path.join(BUILD, "tests")

if not os.path.exists(AB):
    print("femtobench-ab was not built")
    sys.exit(77)
browser = hb.find_chromium()
if not browser:
    why = hb.install_chromium()
    browser = hb.find_chromium()
    if not browser:
        print(f"SKIP: no Chromium ({why})")
        sys.exit(77)
prefix = hb.offline_prefix()

with tempfile.TemporaryDirectory(prefix="fb_ab_html_") as tmp:
    page_path = os.path.join(tmp, "ab.html")
    env = dict(os.environ, FEMTOBENCH_SUPPRESS_WARNINGS="1")
    p = subprocess.run([AB, os.path.join(T, "ab_old.so"), os.path.join(T, "ab_new.so"),
                        "-output_html=" + page_path], capture_output=True, text=True, env=env,
                       timeout=300)
    hb.check(p.returncode == 0, f"femtobench-ab: exit {p.returncode}: {p.stderr}")
    with open(page_path, encoding="utf-8") as f:
        page = f.read()
    hb.check("Content-Security-Policy" in page, "the page has no policy")
    r = hb.probe(browser, prefix, tmp, page, "", "ab")
    if r:
        kinds = [c[0] for c in r["charts"]]
        hb.check(any("forest" in k for k in kinds), f"no forest chart rendered: {kinds}")
        hb.check(len(r["charts"]) >= 2, f"want the forest and the change chart: {kinds}")
        for cls, w, h in r["charts"]:
            hb.check(w > 100 and h > 20, f"chart {cls} rendered at {w}x{h}")
        hb.check(r["resources"] == [], f"the page asked for {r['resources']}")
        hb.check(r["scripts"] == 1, f"scripts besides the probe: {r['scripts']}")
        for name in ("Slow", "Two.large", "Fam/4", "Added", "Removed"):
            hb.check(name in r["text"], f"{name} is not in the page's text")
        hb.check("slower" in r["text"], "no verdict in the page's text")
        # each side's CPU time beside its time (tests/ab_suite.c: Call's 84 ns)
        hb.check("Time and CPU time" in r["text"] and "84 ns" in r["text"],
                 "the CPU time is not in the page's text")

hb.check.finish()
