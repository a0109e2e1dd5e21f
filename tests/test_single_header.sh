#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Tests the generated single header femtobench.h: it is compiled a few times,
# in a few translation units, never the whole test suite against it (the
# library's own tests cover the code; this covers the packaging):
#   1. tools/amalgamate is reproducible, and the build's copy
#      ($FB_BUILD_DIR/single/femtobench.h) equals a fresh generation;
#   2. -Wall -Wextra -Wpedantic -Wshadow -Werror: an implementation TU (the
#      header included twice) plus two user TUs link cleanly, with gcc -std=c11
#      -O3 (what CMake's Release uses: cross-file inlining raises warnings the
#      library build never sees) and with clang -std=gnu11; the implementation
#      with FB_DISABLE_PERF_COUNTERS + FB_DISABLE_VALGRIND (clang) too;
#   3. the public part compiles as C++11 (g++) and C++17 (clang++) and links
#      with the C implementation; a C++ implementation TU stops with #error;
#   4. nm: every external symbol the implementation defines starts with fb_,
#      and so does every file-scope static (they share the user's TU);
#   5. a missing feature macro gives femtobench's #error, not a silent mess;
#   6. tests/test_cli.py passes against its suite_*.c programs built from the
#      single header (user TUs linked with one implementation object);
#   7. the FB_BENCHMARK suite of 2. runs: -sanity_check, -list, a table.
set -uo pipefail

src=${FB_SOURCE_DIR:-$(cd "$(dirname "$0")/.." && pwd)}
build=${FB_BUILD_DIR:-}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/fb-single.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export FEMTOBENCH_SUPPRESS_WARNINGS=1

passed=0 failed=0
ok() { printf 'ok: %s\n' "$*"; passed=$((passed + 1)); }
fail() { printf 'FAIL: %s\n' "$*" >&2; failed=$((failed + 1)); }
# try NAME CMD...: runs CMD; on failure prints its output and counts a failure.
try() {
    local name=$1; shift
    if "$@" >"$tmp/log" 2>&1; then
        return 0
    fi
    sed 's/^/    /' "$tmp/log" | head -n 60 >&2
    fail "$name"
    return 1
}

warn=(-Wall -Wextra -Wpedantic -Wshadow -Werror)
cc_list=()
for c in gcc clang; do command -v $c >/dev/null && cc_list+=("$c"); done
cxx_list=()
for c in g++ clang++; do command -v $c >/dev/null && cxx_list+=("$c"); done
if [ ${#cc_list[@]} -eq 0 ]; then
    echo "SKIP: neither gcc nor clang found"
    exit 77
fi

# --- 1. generation ---------------------------------------------------------
single=$tmp/single
mkdir -p "$single"
if ! try "tools/amalgamate -o" sh "$src/tools/amalgamate" -o "$single/femtobench.h"; then
    exit 1
fi
sh "$src/tools/amalgamate" -o "$tmp/again.h" 2>/dev/null
if cmp -s "$single/femtobench.h" "$tmp/again.h"; then ok "generation is reproducible"; else fail "two generations differ"; fi
try "--check accepts a fresh copy" sh "$src/tools/amalgamate" --check "$single/femtobench.h" && ok "--check accepts a fresh copy"
printf '/* stale */\n' >>"$tmp/again.h"
if sh "$src/tools/amalgamate" --check "$tmp/again.h" 2>/dev/null; then
    fail "--check accepted a modified copy"
else
    ok "--check rejects a modified copy"
fi
if [ -n "$build" ] && [ -f "$build/single/femtobench.h" ]; then
    if try "the build's single/femtobench.h is stale (rebuild)" \
        sh "$src/tools/amalgamate" --check "$build/single/femtobench.h"; then
        ok "the build's copy equals a fresh generation"
    fi
fi
grep -q "^#define FB_VERSION_STRING" "$single/femtobench.h" || fail "no public part in the header"
# The feature-test macros the banner tells users to pass when femtobench.h
# cannot come first in the implementation file.
read -r -a features <<<"$(sed -n 's/^ \*  *\(-D_POSIX_C_SOURCE.*\)$/\1/p' "$single/femtobench.h" | head -n 1)"
[ ${#features[@]} -gt 0 ] || fail "the banner names no feature-test macros"
lines=$(wc -l <"$single/femtobench.h")
echo "femtobench.h: $lines lines"

# --- the translation units ---------------------------------------------------
cat >"$tmp/impl.c" <<'C'
/* The implementation TU, exactly as the banner says; included twice on purpose. */
#define FEMTOBENCH_IMPLEMENTATION
#include "femtobench.h"
#include "femtobench.h"
C
cat >"$tmp/impl_noperf.c" <<'C'
#define FB_DISABLE_PERF_COUNTERS
#define FB_DISABLE_VALGRIND
#define FEMTOBENCH_IMPLEMENTATION
#include "femtobench.h"
C
cat >"$tmp/user2.c" <<'C'
/* A second user TU: public API only, its own registered benchmark. */
#include "femtobench.h"

int user2_work(void);

FB_BENCHMARK(User2Bench) {
    uint64_t x = 3;
    FB_RUN(b, "User2Bench") { x = x * 7 + 1; fb_do_not_optimize(x); }
}

int user2_work(void) {
    fb_bench *b = fb_bench_new();
    uint64_t x = 1;
    size_t n;
    if (!b) return -1;
    fb_set_output(b, NULL);
    fb_set_diagnostics(b, NULL); /* a busy machine's note would join the runner's lines */
    fb_set_epochs(b, 3);
    FB_RUN(b, "add") { x += x; fb_do_not_optimize(x); }
    n = fb_result_count(b);
    fb_bench_free(b);
    return (int)n;
}
C
cat >"$tmp/main.c" <<'C'
/* The third TU: main() from FB_MAIN after checking the other TU works. */
#include "femtobench.h"
#include <string.h>

int user2_work(void);

FB_BENCHMARK(MainBench) {
    fb_rng r;
    uint64_t s = 0;
    fb_rng_seed(&r, 1);
    FB_RUN(b, "MainBench") { s += fb_rng_u64(&r); fb_do_not_optimize(s); }
}

int main(int argc, char **argv) {
    if (user2_work() != 1) return 3;
    if (strcmp(fb_version(), FB_VERSION_STRING) != 0) return 4;
    return fb_main(argc, argv);
}
C
cat >"$tmp/cxx.cpp" <<'CXX'
// The public part from C++, linked with the C implementation.
#include "femtobench.h"
#include <cstdint>
#include <cstring>

namespace {
struct counter { std::uint64_t n; };
void bump(void *ctx) { static_cast<counter *>(ctx)->n++; }
}

FB_BENCHMARK(CxxBench) {
    std::uint64_t x = 5;
    FB_RUN(b, "CxxBench") { x ^= x << 3; fb_do_not_optimize(x); }
    counter c = {0};
    fb_run(b, "CxxBench fb_run", bump, &c);
}

int main(int argc, char **argv) {
    if (std::strcmp(fb_version(), FB_VERSION_STRING) != 0) return 4;
    return fb_main(argc, argv);
}
CXX

# --- 2..4. compile matrix ------------------------------------------------------
# Each implementation TU compiles the whole library, so there are few: gcc at
# -O3 (its flow-based warnings need the optimizer), clang at -O0 (its warnings
# come from the front end), the FB_DISABLE_* variant once.
declare -A std=([gcc]=c11 [clang]=gnu11) opt=([gcc]=-O3 [clang]=-O0)
impl_obj=
for cc in "${cc_list[@]}"; do
    d=$tmp/$cc
    mkdir -p "$d"
    what="$cc -std=${std[$cc]} ${opt[$cc]}"
    flags=(-std="${std[$cc]}" "${opt[$cc]}" "${warn[@]}" -I "$single")
    try "$what: implementation TU" "$cc" "${flags[@]}" -c "$tmp/impl.c" -o "$d/impl.o" || continue
    try "$what: user TU user2.c" "$cc" "${flags[@]}" -c "$tmp/user2.c" -o "$d/user2.o" || continue
    try "$what: user TU main.c" "$cc" "${flags[@]}" -c "$tmp/main.c" -o "$d/main.o" || continue
    try "$what: link three TUs" "$cc" "$d/main.o" "$d/user2.o" "$d/impl.o" -o "$d/suite" -pthread -lm || continue
    objs=("$d/impl.o")
    # the perf-less variant once (it differs only in config.h): the cheaper compiler
    if [ "$cc" = "${cc_list[${#cc_list[@]} - 1]}" ]; then
        try "$what: FB_DISABLE_PERF_COUNTERS" "$cc" "${flags[@]}" -c "$tmp/impl_noperf.c" -o "$d/impl_noperf.o" &&
            try "$what: link without perf counters" "$cc" "$d/main.o" "$d/user2.o" "$d/impl_noperf.o" \
                -o "$tmp/suite_noperf" -pthread -lm && objs+=("$d/impl_noperf.o")
    fi
    # External symbols the implementation defines: all fb_ (fb__ included).
    bad=$(nm -g --defined-only "${objs[@]}" | awk 'NF == 3 && $3 !~ /^fb_/ {print $3}' | sort -u)
    if [ -n "$bad" ]; then
        fail "$what: unprefixed external symbols in the implementation: $(tr '\n' ' ' <<<"$bad")"
        continue
    fi
    ok "$what: compiles -Werror clean, 3 TUs link, only fb_* external symbols"
    [ -n "$impl_obj" ] || { impl_obj=$d/impl.o; suite=$d/suite; }
done

cc0=${cc_list[0]}
if [ -n "$impl_obj" ]; then
    declare -A cxxstd=([g++]=c++11 [clang++]=c++17)
    for cxx in "${cxx_list[@]}"; do
        std=${cxxstd[$cxx]}
        d=$tmp/$cxx-$std
        mkdir -p "$d"
        try "$cxx -std=$std: public header as C++" "$cxx" -std=$std -O2 "${warn[@]}" -I "$single" -c "$tmp/cxx.cpp" -o "$d/cxx.o" || continue
        try "$cxx -std=$std: link with the C implementation" "$cxx" "$d/cxx.o" "$impl_obj" -o "$d/cxx" -pthread -lm || continue
        try "$cxx -std=$std: C++ suite -sanity_check" "$d/cxx" -sanity_check || continue
        ok "$cxx -std=$std: public header compiles -Werror clean, links, runs"
    done
    # A C++ file may not be the implementation TU: a clear error says so.
    if [ ${#cxx_list[@]} -gt 0 ]; then
        if "${cxx_list[0]}" -std=c++17 -I "$single" -x c++ -c "$tmp/impl.c" -o "$tmp/x.o" >"$tmp/log" 2>&1; then
            fail "FEMTOBENCH_IMPLEMENTATION in C++ compiled (it should #error)"
        elif grep -q "femtobench: define FEMTOBENCH_IMPLEMENTATION in a C file" "$tmp/log"; then
            ok "FEMTOBENCH_IMPLEMENTATION in a C++ file stops with femtobench's #error"
        else
            sed 's/^/    /' "$tmp/log" | head -n 20 >&2
            fail "FEMTOBENCH_IMPLEMENTATION in C++ failed without femtobench's #error"
        fi
    fi
fi

# --- 5. feature macros ---------------------------------------------------------
# A system header before femtobench.h under strict C11 hides POSIX: the
# implementation must stop with its own message...
printf '#include <stdio.h>\n#define FEMTOBENCH_IMPLEMENTATION\n#include "femtobench.h"\n' >"$tmp/late.c"
if "$cc0" -std=c11 -I "$single" -c "$tmp/late.c" -o "$tmp/late.o" >"$tmp/log" 2>&1; then
    # Some libcs expose POSIX regardless; then there is nothing to catch.
    ok "strict C11 with a system header first still compiles on this libc"
elif grep -q "femtobench: .*In the file that defines FEMTOBENCH_IMPLEMENTATION" "$tmp/log"; then
    ok "a system header before the implementation gives femtobench's #error"
else
    sed 's/^/    /' "$tmp/log" | head -n 20 >&2
    fail "a system header first fails without femtobench's #error"
fi
# ...and the flags the banner names fix it.
if try "system header first with ${features[*]}" "$cc0" -std=c11 -O0 "${features[@]}" "${warn[@]}" -I "$single" -c "$tmp/late.c" -o "$tmp/late.o"; then
    ok "a system header first works with the banner's ${features[*]}"
    # File-scope statics must be prefixed too: in single-header mode they
    # share a TU with the user's code. -O0 keeps clones (.part, .isra) out of
    # the way; names with a dot are function-local statics.
    bad=$(nm --defined-only "$tmp/late.o" | awk 'NF == 3 && $2 ~ /^[tdbrTDBR]$/ && $3 !~ /^fb_/ && $3 !~ /\./ {print $3}' | sort -u)
    if [ -n "$bad" ]; then
        fail "file-scope names without the fb_/fb__ prefix (collide with user code in the single header): $(tr '\n' ' ' <<<"$bad")"
    else
        ok "every file-scope symbol of the implementation starts with fb_"
    fi
fi

# --- 7. the suite runs ------------------------------------------------------------
if [ -n "$impl_obj" ] && [ -x "$suite" ]; then
    if try "suite -sanity_check" "$suite" -sanity_check; then ok "FB_BENCHMARK suite from the single header: -sanity_check"; fi
    if try "suite -list" "$suite" -list; then
        if grep -qx MainBench "$tmp/log" && grep -qx User2Bench "$tmp/log"; then
            ok "benchmarks registered from two TUs are listed"
        else
            sed 's/^/    /' "$tmp/log" >&2
            fail "-list misses MainBench or User2Bench"
        fi
    fi
    if FEMTOBENCH_CONFIG=epochs=3 try "suite run" "$suite" '-filter=MainBench'; then
        if grep -q 'MainBench' "$tmp/log" && grep -Eq '^\|.*---:' "$tmp/log"; then
            ok "the suite prints its table"
        else
            sed 's/^/    /' "$tmp/log" >&2
            fail "the suite printed no table"
        fi
    fi
    [ -x "$tmp/suite_noperf" ] && try "suite without perf counters" "$tmp/suite_noperf" -sanity_check &&
        ok "FB_DISABLE_PERF_COUNTERS suite: -sanity_check"
    # Built without Valgrind's client requests: -valgrind says what to install, exit 2.
    if [ -x "$tmp/suite_noperf" ]; then
        "$tmp/suite_noperf" -valgrind >"$tmp/log" 2>&1
        rc=$?
        if [ $rc = 2 ] && [ "$(wc -l <"$tmp/log")" = 1 ] &&
            grep -q 'femtobench: error: -valgrind: this program was built without <valgrind/callgrind.h>: install' "$tmp/log"; then
            ok "FB_DISABLE_VALGRIND suite: -valgrind is one line naming the package, exit 2"
        else
            sed 's/^/    /' "$tmp/log" >&2
            fail "FB_DISABLE_VALGRIND suite: -valgrind gave exit status $rc"
        fi
    fi
fi

# --- 6. the runner against the single header -------------------------------------
# The runner's CLI test (tests/test_cli.py) against suite programs built from
# the single header: it finds them under $FB_BUILD_DIR/tests.
if [ -n "$impl_obj" ] && [ -f "$src/tests/test_cli.py" ] && command -v python3 >/dev/null; then
    fake=$tmp/fakebuild
    mkdir -p "$fake/tests"
    suites_ok=1
    for t in "$src"/tests/suite_*.c; do
        [ -e "$t" ] || continue
        name=$(basename "$t" .c)
        try "$name: build against the single header" "$cc0" -std=c11 -O2 "${warn[@]}" -I "$single" \
            "$t" "$impl_obj" -o "$fake/tests/$name" -pthread -lm || suites_ok=
    done
    if [ -n "$suites_ok" ]; then
        rc=0
        FB_BUILD_DIR=$fake FB_SOURCE_DIR=$src timeout 200 python3 "$src/tests/test_cli.py" >"$tmp/log" 2>&1 || rc=$?
        if [ $rc -eq 0 ] || [ $rc -eq 77 ]; then
            ok "tests/test_cli.py against suites built from the single header"
        else
            sed 's/^/    /' "$tmp/log" | tail -n 40 >&2
            fail "tests/test_cli.py against suites built from the single header: exit status $rc"
        fi
    fi
fi

printf 'test_single_header: %d ok, %d failed\n' "$passed" "$failed"
[ $failed -eq 0 ]
