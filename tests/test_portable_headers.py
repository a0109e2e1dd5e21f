"""The code stays portable (docs/platforms.md): only src/platform/config.h looks at
the platform's predefined macros (__linux__, _WIN32, __APPLE__, the
architectures), everything else tests its FB_HAVE_* macros; Linux-only
headers are included only by the Linux platform files (*_linux.c), and
Windows headers only by the Windows ones (*_win.c, and os.h under
FB_HAVE_WINDOWS). A macOS port then starts from code that builds."""
import glob
import os
import re
import sys

SRC = os.environ.get("FB_SOURCE_DIR", os.path.join(os.path.dirname(__file__), ".."))
PLATFORM_MACROS = re.compile(
    r"\b(__linux__|__linux|_WIN32|_WIN64|__MINGW32__|__MINGW64__|__APPLE__|__MACH__|"
    r"__x86_64__|__i386__|__aarch64__|__arm__)\b")
LINUX_HEADERS = re.compile(
    r"#\s*include\s*<(linux/[^>]*|asm/[^>]*|sys/syscall\.h|sys/prctl\.h|sys/sysinfo\.h|"
    r"sys/epoll\.h|sys/vfs\.h|malloc\.h|sys/personality\.h)>")
WINDOWS_HEADERS = re.compile(r"#\s*include\s*<(windows\.h|io\.h|direct\.h|process\.h|cpuid\.h|"
                             r"x86intrin\.h|winsock2\.h)>")
failures = []

files = sorted(glob.glob(os.path.join(SRC, "src", "*.[ch]")) +
               glob.glob(os.path.join(SRC, "src", "*", "*.[ch]")) +
               glob.glob(os.path.join(SRC, "include", "*.h")))
if not files:
    print("SKIP: no sources under", SRC)
    sys.exit(77)
for path in files:
    name = os.path.basename(path)
    text = open(path, encoding="utf-8").read()
    if name != "config.h":
        for m in PLATFORM_MACROS.finditer(text):
            line = text.count("\n", 0, m.start()) + 1
            failures.append(f"src/{name}:{line}: {m.group(1)} outside src/platform/config.h "
                            "(test an FB_HAVE_* macro)")
    for m in LINUX_HEADERS.finditer(text):
        if not name.endswith("_linux.c"):
            line = text.count("\n", 0, m.start()) + 1
            failures.append(f"src/{name}:{line}: Linux-only <{m.group(1)}> outside a *_linux.c file")
    for m in WINDOWS_HEADERS.finditer(text):
        if not (name.endswith("_win.c") or name == "os.h"):
            line = text.count("\n", 0, m.start()) + 1
            failures.append(f"src/{name}:{line}: Windows <{m.group(1)}> outside a *_win.c file")
for f in failures:
    print("FAIL:", f, file=sys.stderr)
if failures:
    sys.exit(1)
print(f"ok: {len(files)} files")
