"""What the script tests share (imported, never run by ctest: its name does
not start with test_): how a build was made, and whether -valgrind can run."""
import collections
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
    endless mode, Valgrind request or locale from the caller's shell, no
    machine warnings (they depend on the moment), plus extra (a dict) and
    more (keywords)."""
    e = dict(os.environ)
    for k in ("FEMTOBENCH_CONFIG", "FEMTOBENCH_ENDLESS", "FEMTOBENCH_VALGRIND",
              "FEMTOBENCH_CALLGRIND_OUT", "LC_ALL", "LANG", "LC_NUMERIC", "LOCPATH"):
        e.pop(k, None)
    e["FEMTOBENCH_SUPPRESS_WARNINGS"] = "1"
    e.update(extra or {})
    e.update(more)
    return e


Result = collections.namedtuple("Result", "returncode stdout stderr")


def run(argv, env=None, timeout=120, cwd=None, input=None, text=True, newlines=True,
        hung=False, **kw):
    """Result(exit status, stdout, stderr) of argv (it unpacks as a tuple) in
    env (the whole environment; clean_env() when None), from cwd, with input
    (a str, or bytes when not text) on stdin. Both streams are captured unless
    kw names another stdout or stderr (a file, subprocess.STDOUT); other kw go
    to subprocess.run (preexec_fn). text: decoded as UTF-8, bad bytes
    replaced, line ends translated unless newlines is False (then a "\\r" the
    program wrote stays); without text, bytes. hung: a run that outlives
    timeout is Result(None, "", "hung: ...") instead of TimeoutExpired."""
    kw.setdefault("stdout", subprocess.PIPE)
    kw.setdefault("stderr", subprocess.PIPE)
    decode = text and not newlines
    try:
        p = subprocess.run(argv, env=clean_env() if env is None else env, timeout=timeout,
                           cwd=cwd, input=input.encode() if decode and input else input,
                           text=text and newlines, encoding="utf-8" if text and newlines else None,
                           errors="replace" if text and newlines else None, **kw)
    except subprocess.TimeoutExpired:
        if not hung:
            raise
        return Result(None, "", f"hung: still running after {timeout} s")
    out, err = p.stdout, p.stderr
    if decode:
        out, err = (s.decode("utf-8", "replace") if isinstance(s, bytes) else s for s in (out, err))
    return Result(p.returncode, out, err)


def runner(argv=None, env=None, hostile=None, **defaults):
    """A test file's run(*args, env=None, prog=None, hostile=..., **kw): run()
    of [*argv, *args] (or [prog, *args]; with neither, the first argument is
    the program) in the file's environment: env there holds extra entries over
    clean_env() with the runner's env (a dict) under them, or the runner's env
    is a function of those entries that returns the whole environment. HOSTILE
    is set to hostile unless that is None (tests/suite_hostile_*.c: each
    misbehaving benchmark active only when HOSTILE names it). defaults are
    run()'s keywords (timeout, cwd, hung, text, ...); a call's own override
    them."""
    head = [] if argv is None else [argv] if isinstance(argv, str) else list(argv)
    base, default_hostile = env, hostile

    def run_in_env(*args, env=None, prog=None, hostile=default_hostile, **kw):
        argv = [prog] if prog is not None else head
        if not argv:
            argv, args = args[:1], args[1:]
        e = base(env) if callable(base) else clean_env(base, **(env or {}))
        if hostile is not None:
            e["HOSTILE"] = hostile
        return run([*argv, *args], env=e, **{**defaults, **kw})

    return run_in_env


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
