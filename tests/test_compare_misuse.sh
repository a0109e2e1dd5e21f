#!/usr/bin/env bash
# FB_ALTERNATIVE outside an FB_COMPARE block does not compile, and the
# compiler's message names the mistake (src/run/compare.c, include/femtobench.h).
# In C and in C++; the same program with the block compiles.
set -u
src=${FB_SOURCE_DIR:-$(cd "$(dirname "$0")/.." && pwd)}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# the build's own compilers (tests/CMakeLists.txt), else the host's
cc=${FB_CC:-${CC:-cc}}
cxx=${FB_CXX:-${CXX:-c++}}
cat >"$tmp/outside.c" <<'C'
#include <femtobench.h>
int main(void) {
    int x = 0;
    FB_ALTERNATIVE("lonely") { ++x; }
    return x;
}
C
cat >"$tmp/inside.c" <<'C'
#include <femtobench.h>
int main(void) {
    fb_bench *b = fb_bench_new();
    int x = 0;
    FB_COMPARE(b, "t") {
        FB_ALTERNATIVE("a") { ++x; fb_do_not_optimize(x); }
        FB_ALTERNATIVE("b") { x += 2; fb_do_not_optimize(x); }
    }
    fb_bench_free(b);
    return 0;
}
C
fails=0
for compiler in "$cc -std=c11" "$cxx -std=c++11 -x c++"; do
    command -v "${compiler%% *}" >/dev/null || { echo "skip: no ${compiler%% *}"; continue; }
    if $compiler -Wall -Wextra -Wpedantic -Wshadow -Werror -I "$src/include" -c "$tmp/inside.c" \
        -o "$tmp/inside.o" 2>"$tmp/inside.err"; then
        echo "ok: $compiler compiles FB_ALTERNATIVE inside FB_COMPARE"
    else
        cat "$tmp/inside.err"; echo "FAIL: $compiler: FB_COMPARE does not compile"; fails=$((fails + 1))
    fi
    if $compiler -I "$src/include" -c "$tmp/outside.c" -o "$tmp/outside.o" 2>"$tmp/outside.err"; then
        echo "FAIL: $compiler compiled FB_ALTERNATIVE outside FB_COMPARE"; fails=$((fails + 1))
    elif grep -q "FB_ALTERNATIVE_must_be_inside_FB_COMPARE" "$tmp/outside.err"; then
        echo "ok: $compiler: $(grep -m1 FB_ALTERNATIVE_must_be_inside_FB_COMPARE "$tmp/outside.err")"
    else
        cat "$tmp/outside.err"; echo "FAIL: $compiler: the message does not name the mistake"
        fails=$((fails + 1))
    fi
done
[ "$fails" -eq 0 ]
