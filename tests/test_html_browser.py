"""The demo suite's HTML report in a real browser: Debian's headless Chromium
(installed by `make test`; installed here with apt-get when missing and
possible; skipped with exit 77 and a message only when it cannot be).

With the network cut off (a new network namespace where `unshare -n` works,
and a dead proxy and resolver in any case) Chromium loads the report from a
file:
  1. a copy of the page without its Content-Security-Policy and with a probe
     script appended, dumping the rendered DOM: every chart is there with a
     non-zero rendered size, every dot is in the DOM, and the page asked for
     no resource at all (Resource Timing; a canary copy with an external
     image proves the probe sees requests);
  2. a copy with its policy and an injected inline script: the script does
     not run (the policy forbids scripts, whatever a name might smuggle in);
  3. tests/suite_html.c's report with -asymptote (hostile names, log-log
     charts): every chart has a size, the hostile names are text in the
     DOM, no element came out of them (no image, only the probe's script);
  5. a -repetitions run against a baseline: the verdicts' summary line and
     the change table lie within the first 1200 px of the page, and each
     pass's rows are folded (a closed <details>, none of them rendered);
  4. the report itself, as a screenshot: its policy forbids all script, so
     this is the page with JavaScript off; the charts' colours are on it
     (dots, median marks). The screenshot is kept as build/femtobench-demo.png (and
     copied to $FB_REPORT_PNG when set: docs/report.png is made that way)."""
import html
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fbtest  # noqa: E402

BUILD = os.environ.get("FB_BUILD_DIR", "build")
DEMO = os.path.join(BUILD, "bench", "femtobench-demo")
SUITE = os.path.join(BUILD, "tests", "suite_html")
HOSTILE = ["<script>alert(1)</script>", "a\"b'&c", "</svg><img src=x onerror=alert(2)>",
           "<b>title</b> & 'more'"]
SHOT = os.path.join(BUILD, "femtobench-demo.png")
WIDTH, HEIGHT = 1000, 1700
check = fbtest.Checks()

PROBE = """<script>
function fbProbe() {
  var r = {charts: [], dots: document.querySelectorAll('svg.chart circle.dot').length,
           scripts: document.scripts.length, images: document.images.length,
           text: document.body.textContent,
           resources: performance.getEntriesByType('resource').map(function (e) { return e.name; })};
  document.querySelectorAll('svg.chart').forEach(function (s) {
    var b = s.getBoundingClientRect();
    r.charts.push([s.getAttribute('class'), b.width, b.height]);
  });
  var p = document.getElementById('fb-probe') || document.body.appendChild(document.createElement('pre'));
  p.id = 'fb-probe';
  p.textContent = JSON.stringify(r);
}
fbProbe();
window.addEventListener('load', fbProbe);
</script>"""
CANARY = '<img src="http://fb-canary.invalid/x.png" alt="">'
CSP = re.compile(r'<meta http-equiv="Content-Security-Policy"[^>]*>\n?')
INJECTED = "<script>document.body.setAttribute('data-ran', 'yes')</script>"


def find_chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


def install_chromium():
    """apt-get install chromium, as root or through password-less sudo."""
    if not shutil.which("apt-get"):
        return "no apt-get"
    sudo = [] if os.geteuid() == 0 else ["sudo", "-n"]
    if sudo and subprocess.run(["sudo", "-n", "true"], capture_output=True).returncode != 0:
        return "not root and no password-less sudo"
    print("installing chromium with apt-get")
    for cmd in (["apt-get", "update", "-qq"], ["apt-get", "install", "-y", "-qq", "chromium"]):
        p = subprocess.run(sudo + cmd, capture_output=True, text=True, timeout=900,
                           env=dict(os.environ, DEBIAN_FRONTEND="noninteractive"))
        if p.returncode != 0:
            return f"{' '.join(cmd)} failed: {p.stderr.strip()[-300:]}"
    return None


def offline_prefix():
    """A command prefix that runs a program without network, if there is one."""
    for cmd in (["unshare", "-n"], ["unshare", "-rn"]):
        try:
            if subprocess.run(cmd + ["true"], capture_output=True).returncode == 0:
                return cmd
        except OSError:
            pass
    return []


def chromium(browser, prefix, profile, *args):
    cmd = prefix + [browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                    "--no-first-run", "--disable-background-networking",
                    "--disable-component-update", "--disable-sync",
                    f"--user-data-dir={profile}", "--proxy-server=http://127.0.0.1:9",
                    "--host-resolver-rules=MAP * ~NOTFOUND", "--force-device-scale-factor=1",
                    *args]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    return p.returncode, p.stdout, p.stderr


def probe(browser, prefix, tmp, page, extra, name):
    path = os.path.join(tmp, f"{name}.html")
    with open(path, "w", encoding="utf-8") as f:
        f.write(CSP.sub("", page).replace("</body>", extra + PROBE + "</body>"))
    rc, out, err = chromium(browser, prefix, os.path.join(tmp, f"profile-{name}"),
                            "--dump-dom", "file://" + path)
    m = re.search(r'<pre id="fb-probe">(.*?)</pre>', out, re.S)
    if not check(rc == 0 and m, f"{name}: no probe in the dumped DOM (exit {rc}): {err[-500:]}"):
        return None
    return json.loads(html.unescape(m.group(1)))  # the dump escapes the <pre>'s text


# Where the answer is on the page: the top of the verdicts' summary line and
# of the change table (CSS pixels from the top of the page), the <details>
# (open or not), and how many rows labelled with a pass are rendered.
POSITION = """<script>
function fbPosition() {
  function top(sel) {
    var e = document.querySelector(sel);
    return e ? e.getBoundingClientRect().top + window.scrollY : null;
  }
  var rows = document.querySelectorAll('td.pass'), shown = 0;
  /* a closed <details> hides its content (content-visibility: hidden in
   * current Chromium: laid out on demand, never painted) */
  rows.forEach(function (td) {
    if (td.checkVisibility ? td.checkVisibility() : td.getClientRects().length) ++shown;
  });
  var d = document.querySelector('details'), dh = d ? d.getBoundingClientRect().height : null;
  var r = {verdicts: top('#verdicts'), table: top('table.change'),
           details: Array.prototype.map.call(document.querySelectorAll('details'),
                                             function (d) { return d.open; }),
           passRows: rows.length, passRowsShown: shown, detailsHeight: dh};
  var p = document.getElementById('fb-position') || document.body.appendChild(document.createElement('pre'));
  p.id = 'fb-position';
  p.textContent = JSON.stringify(r);
}
window.addEventListener('load', fbPosition);
</script>"""
FIRST_SCREEN = 1200  # px: what a laptop shows without scrolling, with room to spare


def position(browser, prefix, tmp, page):
    path = os.path.join(tmp, "position.html")
    with open(path, "w", encoding="utf-8") as f:
        f.write(CSP.sub("", page).replace("</body>", POSITION + "</body>"))
    rc, out, err = chromium(browser, prefix, os.path.join(tmp, "profile-position"),
                            f"--window-size={WIDTH},{HEIGHT}", "--dump-dom", "file://" + path)
    m = re.search(r'<pre id="fb-position">(.*?)</pre>', out, re.S)
    if not check(rc == 0 and m, f"position: no probe in the dumped DOM (exit {rc}): {err[-500:]}"):
        return None
    return json.loads(html.unescape(m.group(1)))


def png_pixels(path):
    """(width, height, rows of RGB(A) bytes) of an 8-bit RGB/RGBA PNG."""
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        return None
    pos, idat, w = 8, b"", 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
            if depth != 8 or ctype not in (2, 6):
                return None
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw = zlib.decompress(idat)
    stride, rows, prev = w * bpp, [], bytearray(w * bpp)
    for y in range(h):
        ft, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        if ft == 1:
            for i in range(bpp, stride):
                line[i] = (line[i] + line[i - bpp]) & 255
        elif ft == 2:
            line = bytearray((a + b) & 255 for a, b in zip(line, prev))
        elif ft == 3:
            for i in range(stride):
                left = line[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + ((left + prev[i]) >> 1)) & 255
        elif ft == 4:
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b, c = prev[i], prev[i - bpp] if i >= bpp else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        prev = line
    return w, h, bpp, rows


def count_colour(img, rgb, tol=12):
    w, h, bpp, rows = img
    n = 0
    for line in rows:
        for x in range(0, w * bpp, bpp):
            if all(abs(line[x + k] - rgb[k]) <= tol for k in range(3)):
                n += 1
    return n


def main():
    if not os.path.exists(DEMO):
        print(f"SKIP: {DEMO} not built")
        return 77
    browser = find_chromium()
    if not browser:
        why = install_chromium()
        browser = find_chromium()
        if not browser:
            print(f"SKIP: Chromium is not installed and cannot be installed here ({why}); "
                  "`apt-get install chromium` (or `make deps`) enables this test")
            return 77
    prefix = offline_prefix()
    print(f"browser: {browser}; network: {'none (' + ' '.join(prefix) + ')' if prefix else 'dead proxy'}")

    with tempfile.TemporaryDirectory() as tmp:
        report = os.path.join(tmp, "femtobench-demo.html")
        env = {k: v for k, v in os.environ.items() if k not in ("FEMTOBENCH_CONFIG", "FEMTOBENCH_ENDLESS")}
        p = subprocess.run([DEMO, f"-output_html={report}"], capture_output=True, text=True,
                           env=env, timeout=120)
        if not check(p.returncode == 0, f"demo: exit {p.returncode}: {p.stderr}"):
            return 1
        page = open(report, encoding="utf-8").read()
        n_charts = len(re.findall(r'<svg class="chart ', page))
        n_dots = len(re.findall(r'<circle class="dot"', page))
        check(n_charts >= 2 and n_dots > 0, f"the demo report has {n_charts} charts, {n_dots} dots")

        # 1. the rendered DOM
        r = probe(browser, prefix, tmp, page, "", "report")
        if r:
            check(len(r["charts"]) == n_charts, f"rendered {len(r['charts'])} of {n_charts} charts")
            for cls, w, h in r["charts"]:
                check(w > 100 and h > 50, f"chart '{cls}' rendered {w}x{h}")
            check(r["dots"] == n_dots, f"rendered {r['dots']} of {n_dots} dots")
            check(r["resources"] == [], f"the page requested {r['resources']}")
            print(f"rendered: {len(r['charts'])} charts "
                  f"({', '.join('%dx%d' % (w, h) for _, w, h in r['charts'])}), {r['dots']} dots, "
                  f"{len(r['resources'])} requests")
        c = probe(browser, prefix, tmp, page, CANARY, "canary")
        if c:
            check(c["resources"] == ["http://fb-canary.invalid/x.png"],
                  f"the probe does not see a canary request: {c['resources']}")

        # 2. the policy stops an injected script
        check(CSP.search(page) is not None, "the report has no Content-Security-Policy")
        injected = os.path.join(tmp, "injected.html")
        with open(injected, "w", encoding="utf-8") as f:
            f.write(page.replace("</body>", INJECTED + "</body>"))
        rc, out, err = chromium(browser, prefix, os.path.join(tmp, "profile-injected"),
                                "--dump-dom", "file://" + injected)
        ran = 'data-ran="yes"' in out
        check(rc == 0 and "<svg" in out and not ran, f"injected script: exit {rc}, ran: {ran}")

        # 3. hostile names and complexity charts in the browser
        hostile = os.path.join(tmp, "hostile.html")
        p = subprocess.run([SUITE, "-asymptote=100,200,400,800", f"-output_html={hostile}"],
                           capture_output=True, text=True, env=env, timeout=120)
        check(p.returncode == 1, f"suite_html: exit {p.returncode} (Broken fails): {p.stderr}")
        page_h = open(hostile, encoding="utf-8").read()
        h = probe(browser, prefix, tmp, page_h, "", "hostile")
        if h:
            kinds = sorted(set(c[0] for c in h["charts"]))
            check(kinds == ["chart loglog", "chart strip"], f"hostile: chart kinds {kinds}")
            check(len(h["charts"]) == len(re.findall(r'<svg class="chart ', page_h)),
                  f"hostile: rendered {len(h['charts'])} charts")
            for cls, w, hh in h["charts"]:
                check(w > 100 and hh > 50, f"hostile: chart '{cls}' rendered {w}x{hh}")
            check(h["scripts"] == 1 and h["images"] == 0,
                  f"hostile: {h['scripts']} scripts (1: the probe), {h['images']} images")
            for name in HOSTILE:
                check(name in h["text"], f"hostile: {name!r} is not text in the DOM")

        # 5. a -repetitions run against a baseline leads with the answer:
        # the verdicts within the first screen, each pass's results folded
        # (a closed <details>: not rendered until opened, no script needed)
        base = os.path.join(tmp, "base.json")
        rep = os.path.join(tmp, "repetitions.html")
        few = ["-filter=SipHash_32b|Sort$|SHA256$|SipHash/.*", "-min_time=5", "-repetitions=2"]
        p = subprocess.run([DEMO, *few, f"-output_json={base}"], capture_output=True, text=True,
                           env=env, timeout=300)
        p2 = subprocess.run([DEMO, *few, f"-baseline={base}", f"-output_html={rep}"],
                            capture_output=True, text=True, env=env, timeout=300)
        if check(p.returncode == 0 and p2.returncode == 0,
                 f"repetitions: exit {p.returncode}, {p2.returncode}: {p.stderr[-300:]} {p2.stderr[-300:]}"):
            o = position(browser, prefix, tmp, open(rep, encoding="utf-8").read())
            if o:
                check(o["verdicts"] is not None and 0 < o["verdicts"] < FIRST_SCREEN,
                      f"repetitions: the verdicts at {o['verdicts']} px (first screen: {FIRST_SCREEN})")
                check(o["table"] is not None and o["table"] < FIRST_SCREEN,
                      f"repetitions: the change table starts at {o['table']} px")
                check(o["details"] == [False] and o["passRows"] > 0 and o["passRowsShown"] == 0
                      and 0 < o["detailsHeight"] < 100,
                      f"repetitions: each pass's results folded: {o}")
                print(f"repetitions: verdicts at {o['verdicts']:.0f} px, change table at "
                      f"{o['table']:.0f} px, {o['passRows']} pass rows folded")

        # 4. the screenshot of the report (its policy: no script)
        shot = os.path.join(tmp, "shot.png")
        rc, out, err = chromium(browser, prefix, os.path.join(tmp, "profile-shot"),
                                "--hide-scrollbars",
                                f"--window-size={WIDTH},{HEIGHT}", f"--screenshot={shot}",
                                "file://" + report)
        if check(rc == 0 and os.path.exists(shot), f"screenshot: exit {rc}: {err[-500:]}"):
            img = png_pixels(shot)
            if check(img is not None, "screenshot: not an 8-bit RGB(A) PNG"):
                check(img[0] == WIDTH and img[1] == HEIGHT, f"screenshot is {img[0]}x{img[1]}")
                dots = count_colour(img, (0xd2, 0x58, 0x1f), 40)  # .dot fill, over white or the box
                medians = count_colour(img, (0x12, 0x32, 0x5e), 30)  # .median stroke
                check(dots > 100 and medians > 100,
                      f"screenshot: {dots} dot pixels, {medians} median pixels: no charts")
                print(f"screenshot: {img[0]}x{img[1]}, {dots} dot pixels, {medians} median pixels")
            shutil.copyfile(shot, SHOT)
            print(f"screenshot saved to {SHOT}")
            if os.environ.get("FB_REPORT_PNG"):
                shutil.copyfile(shot, os.environ["FB_REPORT_PNG"])
                print(f"and to {os.environ['FB_REPORT_PNG']}")

    return check.done()


if __name__ == "__main__":
    sys.exit(main())
