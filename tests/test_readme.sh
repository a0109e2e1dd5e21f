#!/usr/bin/env bash
# Every complete C program in README.md (a ```c block with main() or
# FB_MAIN()) compiles as shown against the library, warning-free, and runs
# (-sanity_check for suites).
set -euo pipefail
src=${FB_SOURCE_DIR:-$(dirname "$0")/..}
build=${FB_BUILD_DIR:-$src/build}
lib=$build/libfemtobench.a
[ -f "$lib" ] || { echo "no $lib: skipped"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
awk -v dir="$tmp" '
    /^```c$/ { n++; f = dir "/snippet" n ".c"; inside = 1; next }
    /^```$/ { inside = 0; next }
    inside { print > f }
' "$src/README.md"
count=0
for f in "$tmp"/snippet*.c; do
    [ -e "$f" ] || continue
    grep -Eq 'int main\(|FB_MAIN\(\)' "$f" || continue
    count=$((count + 1))
    exe=${f%.c}
    if ! "${CC:-cc}" -std=c11 -O2 -Wall -Wextra -Wpedantic -Werror -I "$src/include" "$f" "$lib" \
        -o "$exe" -pthread -lm 2>"$tmp/log"; then
        echo "FAIL: README.md snippet $count does not compile:"; cat "$f"; cat "$tmp/log"; exit 1
    fi
    args=()
    grep -q 'FB_MAIN()' "$f" && args=(-sanity_check)
    FEMTOBENCH_SUPPRESS_WARNINGS=1 "$exe" "${args[@]}" >/dev/null 2>"$tmp/log" ||
        { echo "FAIL: README.md snippet $count exited $?"; cat "$tmp/log"; exit 1; }
    echo "ok: README.md snippet $count compiles and runs"
done
[ "$count" -ge 2 ] || { echo "FAIL: expected at least 2 complete programs in README.md, found $count"; exit 1; }
