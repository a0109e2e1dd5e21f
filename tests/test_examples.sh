#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs every program in examples/ quickly and checks it exits 0 and prints a
# table. Uses the binaries the build made ($FB_BUILD_DIR/examples) and, for any
# it did not make, compiles the example here against $FB_BUILD_DIR/libfemtobench.a
# (the single-header one against a freshly generated header).
set -euo pipefail

src=${FB_SOURCE_DIR:-$(cd "$(dirname "$0")/.." && pwd)}
build=${FB_BUILD_DIR:-$src/build}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/fb-examples.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# the build's own compiler and flags (tests/CMakeLists.txt): an i386 build's
# library links only into i386 programs
cc=${FB_CC:-${CC:-cc}}
read -r -a build_flags <<<"${FB_CFLAGS:-} ${FB_LDFLAGS:-}" || true
flags=(-std=c11 -O2 -Wall -Wextra -Wpedantic -Wshadow -Werror "${build_flags[@]}")

# Quick and quiet: three epochs, no machine-stability warnings.
export FEMTOBENCH_CONFIG="epochs=3"
export FEMTOBENCH_SUPPRESS_WARNINGS=1

passed=0 failed=0
fail() { printf 'FAIL: %s\n' "$*" >&2; failed=$((failed + 1)); }

# The binary for example $1, built by CMake or here.
binary() {
    local ex=$1
    if [ -x "$build/examples/$ex" ]; then
        echo "$build/examples/$ex"
        return
    fi
    if [ "$ex" = single_header ]; then
        [ -f "$tmp/femtobench.h" ] || sh "$src/tools/amalgamate" -o "$tmp/femtobench.h" >&2 || return 1
        "$cc" "${flags[@]}" -I "$tmp" "$src/examples/$ex.c" -o "$tmp/$ex" -pthread -lm >&2 || return 1
    else
        [ -f "$build/libfemtobench.a" ] || { echo "no $build/libfemtobench.a" >&2; return 1; }
        "$cc" "${flags[@]}" -I "$src/include" "$src/examples/$ex.c" -o "$tmp/$ex" \
            "$build/libfemtobench.a" -pthread -lm >&2 || return 1
    fi
    echo "$tmp/$ex"
}

# check NAME PATTERN... -- CMD ARGS: CMD must exit 0 and print every PATTERN (ERE).
check() {
    local name=$1; shift
    local pats=()
    while [ "$1" != -- ]; do pats+=("$1"); shift; done
    shift
    local out rc=0
    out=$(timeout 120 "$@" 2>&1) || rc=$?
    if [ $rc -ne 0 ]; then
        printf '%s\n' "$out" >&2
        fail "$name: exit status $rc"
        return
    fi
    for p in "${pats[@]}"; do
        if ! grep -Eq -- "$p" <<<"$out"; then
            printf '%s\n' "$out" >&2
            fail "$name: no line matches /$p/"
            return
        fi
    done
    printf 'ok: %s\n' "$name"
    passed=$((passed + 1))
}

table='^\|.*---:'   # a markdown table separator with right-aligned columns

declare -A bin
for ex in minimal suite throughput relative compare complexity args setup counters manual_time threads single_header; do
    if ! bin[$ex]=$(binary $ex); then
        fail "$ex: could not be built"
        bin[$ex]=false
    fi
done

check "minimal" "$table" 'x \+= x' -- "${bin[minimal]}"
check "throughput" "$table" 'ns/byte' 'fnv1a 64 KiB' -- "${bin[throughput]}"
check "relative" "$table" 'relative' 'SWAR' -- "${bin[relative]}"
check "compare" "$table" '95% CI' 'paired rounds, interleaved' '`SWAR`' -- "${bin[compare]}"
check "suite -sanity_check" -- "${bin[suite]}" -sanity_check
check "suite -list" '^FillMemset$' '^FillLoop$' '^SumArray$' -- "${bin[suite]}" -list
check "suite -filter" "$table" 'SumArray' -- "${bin[suite]}" '-filter=Sum.*'
check "complexity -sanity_check" -- "${bin[complexity]}" -sanity_check
check "complexity -asymptote" "$table" 'complexityN' 'O\(' -- \
    "${bin[complexity]}" -asymptote=100,200,400,800
check "args" "$table" '`Sum/64`' '`Sum/65536`' '`Fnv1a/1000`' 'ns/byte' 'Complexity of `Sum`' 'O\(' -- "${bin[args]}"
check "args -list" '^Fnv1a/3$' '^Sum/16384$' -- "${bin[args]}" -list
check "args -filter" "$table" '`Sum/256`' -- "${bin[args]}" '-filter=Sum/(256|4096)'
check "args product" "$table" '`Stride/1/1024`' '`Stride/16/16384`' 'ns/read' -- "${bin[args]}" '-filter=Stride'
check "args product -list" '^Stride/4/4096$' -- "${bin[args]}" -list
check "counters" "$table" 'bytes/s' 'probes/op' 'lookups/s' '`Lookup`' -- "${bin[counters]}"
check "manual_time" "$table" '`SortManual`' '`SortExcluded`' '`ZCostEmptyExcluded`' -- "${bin[manual_time]}"
check "setup" "$table" 'shuffled before each sort' 'no setup' -- "${bin[setup]}"
check "threads" "$table" '`AtomicShared/threads:4`' '`AtomicPerThread/threads:2`.*\(2 threads, each ' -- "${bin[threads]}"
check "threads -list" '^AtomicPerThread/threads:1$' '^AtomicShared/threads:4$' -- "${bin[threads]}" -list
check "single_header -sanity_check" -- "${bin[single_header]}" -sanity_check
check "single_header" "$table" 'Xorshift' -- "${bin[single_header]}"

printf 'test_examples: %d ok, %d failed\n' "$passed" "$failed"
[ "$failed" -eq 0 ]
