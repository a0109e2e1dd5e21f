"""What the script tests share (imported, never run by ctest: its name does
not start with test_): how a build was made, and whether -valgrind can run."""
import html.parser
import os
import shutil
import subprocess
import sys


def asan_build(path):
    """True when the program at path was built with AddressSanitizer (which
    Valgrind cannot run, and under which a crash is the sanitizer's report)."""
    with open(path, "rb") as f:
        return b"__asan_init" in f.read()


def valgrind_ready(argv, probe=("-list",), env=None):
    """True when `argv + ['-valgrind', ...]` can count: valgrind is on PATH,
    the program is not an ASan build, and it was built with Valgrind's
    client-request header (a build without it refuses -valgrind with exit
    status 2 and "built without" before anything runs; musl builds and
    machines without the valgrind package are such builds). The probe runs
    nothing: a suite's -list, or for femtobench-ab (which has no -list) a
    filter that matches no benchmark."""
    if shutil.which("valgrind") is None or asan_build(argv[0]):
        return False
    e = dict(os.environ if env is None else env)
    e.pop("FEMTOBENCH_CONFIG", None)
    p = subprocess.run([*argv, "-valgrind", *probe],
                       capture_output=True, text=True, env=e, timeout=120,
                       errors="replace")
    return not (p.returncode == 2 and "built without" in p.stderr)


def clean_env(extra=None, **more):
    """The environment a test runs a femtobench program in: no configuration,
    endless mode or locale from the caller's shell, no machine warnings (they
    depend on the moment), plus extra (a dict) and more (keywords)."""
    e = dict(os.environ)
    for k in ("FEMTOBENCH_CONFIG", "FEMTOBENCH_ENDLESS", "LC_ALL", "LANG", "LC_NUMERIC",
              "LOCPATH"):
        e.pop(k, None)
    e["FEMTOBENCH_SUPPRESS_WARNINGS"] = "1"
    e.update(extra or {})
    e.update(more)
    return e


def run(argv, env=None, timeout=120):
    """(exit status, stdout, stderr) of argv in clean_env() (or env)."""
    p = subprocess.run(argv, capture_output=True, text=True, errors="replace",
                       env=clean_env() if env is None else env, timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def run_hostile(prog, args, hostile="", env=None, timeout=120, cwd=None):
    """A hostile suite's run (tests/suite_hostile_*.c: each misbehaving
    benchmark active only when HOSTILE names it): (exit status, stdout,
    stderr), or (None, "", "hung: ...") when it outlives timeout."""
    e = clean_env(env, HOSTILE=hostile)
    try:
        p = subprocess.run([prog, *args], capture_output=True, text=True, env=e,
                           timeout=timeout, cwd=cwd, errors="replace")
    except subprocess.TimeoutExpired:
        return None, "", f"hung: still running after {timeout} s"
    return p.returncode, p.stdout, p.stderr


class Checks:
    """Records failed checks: checks(cond, what) or checks.check(cond, what)
    prints FAIL and the reason; done() is the exit status (0, or 1 after any
    failure), finish() exits with it."""

    def __init__(self):
        self.failures = []

    def check(self, cond, what):
        if not cond:
            self.failures.append(what)
            print("FAIL:", what, file=sys.stderr)
        return cond

    __call__ = check

    @property
    def failed(self):
        return len(self.failures)

    def done(self):
        if self.failures:
            print(f"{len(self.failures)} failure(s)", file=sys.stderr)
            return 1
        print("ok")
        return 0

    def finish(self):
        sys.exit(self.done())


class _Sections(html.parser.HTMLParser):
    """The <section> elements of an HTML report: each one's class, the
    classes of the elements inside it and its text."""

    def __init__(self):
        super().__init__()
        self.sections, self._depth = [], 0

    def handle_starttag(self, tag, attrs):
        cls = dict(attrs).get("class") or ""
        if tag == "section":
            if self._depth == 0:
                self.sections.append({"class": cls, "inside": [], "text": ""})
            self._depth += 1
        elif self._depth:
            self.sections[-1]["inside"].append((tag, cls))

    def handle_endtag(self, tag):
        if tag == "section" and self._depth:
            self._depth -= 1

    def handle_data(self, data):
        if self._depth:
            self.sections[-1]["text"] += data


def html_sections(path, cls=None):
    """The top-level <section> elements of the HTML file at path (those of
    class cls when given), parsed with html.parser: a list of dicts with
    "class", "inside" (each inner element as (tag, class)) and "text"."""
    p = _Sections()
    with open(path, encoding="utf-8") as f:
        p.feed(f.read())
    p.close()
    return [s for s in p.sections if cls is None or s["class"] == cls]
