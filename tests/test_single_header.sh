#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Tests the generated single header femtobench.h for real:
#   1. tools/amalgamate is reproducible, and the build's copy
#      ($FB_BUILD_DIR/single/femtobench.h) equals a fresh generation;
#   2. with gcc and clang, as C11, C17 and gnu11, -Wall -Wextra -Wpedantic -Wshadow
#      -Werror: an implementation TU (the header included twice) plus two user
#      TUs link cleanly, with and without FB_DISABLE_PERF_COUNTERS (+ FB_DISABLE_VALGRIND,
#      whose -valgrind must say what to install);
#   3. the public part compiles as C++11/17 with g++ and clang++ and links with
#      the C implementation;
#   4. nm: every external symbol the implementation defines starts with fb_,
#      and so does every file-scope static (they share the user's TU);
#   5. a missing feature macro gives femtobench's #error, not a silent mess;
#   6. the library's tests/test_*.c built against the single header instead of
#      the library (public ones linked with the implementation object, internal
#      ones as the implementation TU themselves) pass, and so do tests/test_*.cpp
#      and tests/test_cli.py (its suite_*.c programs built from the single header);
#   7. a small FB_BENCHMARK suite from the single header runs with -sanity_check.
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
# -O3 is what CMake's Release uses; cross-file inlining in one TU can raise
# warnings (-Wformat-overflow, -Wstringop-*) that the library build never sees.
declare -A opt=([c11]=-O2 [c17]=-O3 [gnu11]=-O2)
impl_obj=
for cc in "${cc_list[@]}"; do
    for std in c11 c17 gnu11; do
        d=$tmp/$cc-$std
        mkdir -p "$d"
        what="$cc -std=$std ${opt[$std]}"
        try "$what: implementation TU" "$cc" -std=$std "${opt[$std]}" "${warn[@]}" -I "$single" -c "$tmp/impl.c" -o "$d/impl.o" || continue
        # The perf-less variant once per compiler (it differs only in config.h).
        if [ $std = c11 ]; then
            try "$what: FB_DISABLE_PERF_COUNTERS" "$cc" -std=$std -O2 "${warn[@]}" -I "$single" -c "$tmp/impl_noperf.c" -o "$d/impl_noperf.o" || continue
        fi
        try "$what: user TUs" "$cc" -std=$std -O2 "${warn[@]}" -I "$single" -c "$tmp/user2.c" -o "$d/user2.o" || continue
        try "$what: user TUs" "$cc" -std=$std -O2 "${warn[@]}" -I "$single" -c "$tmp/main.c" -o "$d/main.o" || continue
        try "$what: link three TUs" "$cc" "$d/main.o" "$d/user2.o" "$d/impl.o" -o "$d/suite" -pthread -lm || continue
        objs=("$d/impl.o")
        if [ -f "$d/impl_noperf.o" ]; then
            try "$what: link without perf counters" "$cc" "$d/main.o" "$d/user2.o" "$d/impl_noperf.o" -o "$d/suite_noperf" -pthread -lm || continue
            objs+=("$d/impl_noperf.o")
        fi
        # External symbols the implementation defines: all fb_ (fb__ included).
        bad=$(nm -g --defined-only "${objs[@]}" | awk 'NF == 3 && $3 !~ /^fb_/ {print $3}' | sort -u)
        if [ -n "$bad" ]; then
            fail "$what: unprefixed external symbols in the implementation: $(tr '\n' ' ' <<<"$bad")"
            continue
        fi
        ok "$what: compiles -Werror clean, 3 TUs link, only fb_* external symbols"
        [ -n "$impl_obj" ] || impl_obj=$d/impl.o
    done
done

# File-scope statics must be prefixed too: in single-header mode they share a
# TU with the user's code. -O0 keeps clones (.part, .isra) out of the way;
# names with a dot are function-local statics.
cc0=${cc_list[0]}
if try "$cc0 -O0 implementation TU" "$cc0" -std=c11 -O0 "${warn[@]}" -I "$single" -c "$tmp/impl.c" -o "$tmp/impl_O0.o"; then
    bad=$(nm --defined-only "$tmp/impl_O0.o" | awk 'NF == 3 && $2 ~ /^[tdbrTDBR]$/ && $3 !~ /^fb_/ && $3 !~ /\./ {print $3}' | sort -u)
    if [ -n "$bad" ]; then
        fail "file-scope names without the fb_/fb__ prefix (collide with user code in the single header): $(tr '\n' ' ' <<<"$bad")"
    else
        ok "every file-scope symbol of the implementation starts with fb_"
    fi
fi

if [ -n "$impl_obj" ]; then
    for cxx in "${cxx_list[@]}"; do
        for std in c++11 c++17; do
            d=$tmp/$cxx-$std
            mkdir -p "$d"
            try "$cxx -std=$std: public header as C++" "$cxx" -std=$std -O2 "${warn[@]}" -I "$single" -c "$tmp/cxx.cpp" -o "$d/cxx.o" || continue
            try "$cxx -std=$std: link with the C implementation" "$cxx" "$d/cxx.o" "$impl_obj" -o "$d/cxx" -pthread -lm || continue
            try "$cxx -std=$std: C++ suite -sanity_check" "$d/cxx" -sanity_check || continue
            ok "$cxx -std=$std: public header compiles -Werror clean, links, runs"
        done
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
try "system header first with ${features[*]}" "$cc0" -std=c11 "${features[@]}" "${warn[@]}" -I "$single" -c "$tmp/late.c" -o "$tmp/late.o" &&
    ok "a system header first works with the banner's ${features[*]}"

# --- 7. the suite runs ------------------------------------------------------------
suite=$tmp/$cc0-c11/suite
if [ -x "$suite" ]; then
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
    [ -x "$tmp/$cc0-c11/suite_noperf" ] && try "suite without perf counters" "$tmp/$cc0-c11/suite_noperf" -sanity_check &&
        ok "FB_DISABLE_PERF_COUNTERS suite: -sanity_check"
    # Built without Valgrind's client requests: -valgrind says what to install, exit 2.
    if [ -x "$tmp/$cc0-c11/suite_noperf" ]; then
        "$tmp/$cc0-c11/suite_noperf" -valgrind >"$tmp/log" 2>&1
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

# --- 6. the test suite against the single header -------------------------------
# Public tests: include femtobench.h (the single header) and link impl.o.
# Internal tests (#include "internal.h" or another src/*.h): the test TU is the
# implementation TU; the src/*.h headers are stubs that include the single header.
stub_pub=$tmp/stub_pub stub_int=$tmp/stub_int
mkdir -p "$stub_pub" "$stub_int" "$tmp/run"
cp "$single/femtobench.h" "$stub_pub/"
cp "$single/femtobench.h" "$stub_int/"
printf '#include "femtobench.h"\n' >"$stub_int/internal.h"
printf '#include "femtobench.h"\n' >"$stub_int/config.h"
# Every other src/ header (per-module headers such as baseline.h) likewise.
src_headers="config|internal"
for h in "$src"/src/*.h; do
    [ -e "$h" ] || continue
    printf '#include "femtobench.h"\n' >"$stub_int/$(basename "$h")"
    src_headers="$src_headers|$(basename "$h" .h)"
done
# Tests that cannot be built this way, with the reason (keep short).
declare -A excluded=()
# The tests include system headers first, so they get the banner's flags.
tflags=(-std=c11 -O1 -DNDEBUG "${warn[@]}" "${features[@]}" "-DFB_TEST_DATA_DIR=\"$src/tests/data\""
    -I "$src/tests" -I "$src/bench")
# Each test is built and run in the background (the builds are whole
# implementations: one per core); results are collected in order afterwards.
jobs=$(nproc 2>/dev/null || echo 2)
one_test() {  # name mode cmd...: writes $tmp/run/name.{log,rc}
    local name=$1 mode=$2 rc=0; shift 2
    {
        if ! "$@"; then
            echo "BUILD FAILED"
            echo build >"$tmp/run/$name.rc"
            return
        fi
        (cd "$tmp/run" && timeout 120 "./$name") || rc=$?
        echo $rc >"$tmp/run/$name.rc"
    } >"$tmp/run/$name.log" 2>&1
}
names=()
declare -A modes=()
for t in "$src"/tests/test_*.c; do
    [ -e "$t" ] || continue
    name=$(basename "$t" .c)
    if [ -n "${excluded[$name]:-}" ]; then
        echo "not built against the single header: $name (${excluded[$name]})"
        continue
    fi
    if grep -Eq "^[[:space:]]*#[[:space:]]*include[[:space:]]*\"($src_headers)\\.h\"" "$t"; then
        mode=internal
        cmd=("$cc0" "${tflags[@]}" -DFEMTOBENCH_IMPLEMENTATION -I "$stub_int" "$t" -o "$tmp/run/$name" -pthread -lm)
    elif grep -Eq '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"](femtobench|fake_clock)\.h[">]' "$t"; then
        mode=public
        [ -n "$impl_obj" ] || continue
        cmd=("$cc0" "${tflags[@]}" -I "$stub_pub" "$t" "$impl_obj" -o "$tmp/run/$name" -pthread -lm)
    else
        continue   # not a test of the library (e.g. the hash vectors)
    fi
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do sleep 0.2; done
    one_test "$name" "$mode" "${cmd[@]}" &
    names+=("$name")
    modes[$name]=$mode
done
# C++ tests: the public part from C++, linked with the C implementation object.
if [ -n "$impl_obj" ] && [ ${#cxx_list[@]} -gt 0 ]; then
    for t in "$src"/tests/test_*.cpp; do
        [ -e "$t" ] || continue
        name=$(basename "$t" .cpp)
        [ -z "${excluded[$name]:-}" ] || continue
        while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do sleep 0.2; done
        one_test "$name" "C++" "${cxx_list[0]}" -std=c++11 -O1 "${warn[@]}" -I "$stub_pub" -I "$src/tests" \
            "$t" "$impl_obj" -o "$tmp/run/$name" -pthread -lm &
        names+=("$name")
        modes[$name]=C++
    done
fi
wait
built=0
for name in "${names[@]}"; do
    rc=$(cat "$tmp/run/$name.rc" 2>/dev/null || echo lost)
    case $rc in
    0 | 77)
        ok "$name (${modes[$name]}) built against the single header: $([ "$rc" = 77 ] && echo skipped || echo passed)"
        built=$((built + 1))
        ;;
    *)
        sed 's/^/    /' "$tmp/run/$name.log" | tail -n 40 >&2
        if [ "$rc" = build ]; then
            fail "$name (${modes[$name]}): does not build against the single header"
        else
            fail "$name (${modes[$name]}) against the single header: exit status $rc"
        fi
        ;;
    esac
done
[ $built -gt 0 ] || echo "note: no tests/test_*.c could be built against the single header"

# The runner's CLI test (tests/test_cli.py) against suite programs built from
# the single header: it finds them under $FB_BUILD_DIR/tests.
if [ -n "$impl_obj" ] && [ -f "$src/tests/test_cli.py" ] && command -v python3 >/dev/null; then
    fake=$tmp/fakebuild
    mkdir -p "$fake/tests"
    suites_ok=1
    for t in "$src"/tests/suite_*.c; do
        [ -e "$t" ] || continue
        name=$(basename "$t" .c)
        try "$name: build against the single header" "$cc0" -std=c11 -O2 "${warn[@]}" -I "$stub_pub" \
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
