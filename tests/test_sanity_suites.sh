#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Every demo and example suite (a program with the runner's command line,
# FB_MAIN) passes -sanity_check: each benchmark it lists runs once and
# measures something (FB_RUN, fb_run or a comparison), exit status 0, and
# the summary counts every listed benchmark with none failed. The demo has
# benchmarks that only compare (RandomGenerators), so a check that forgot
# comparisons fails here.
set -euo pipefail

src=${FB_SOURCE_DIR:-$(cd "$(dirname "$0")/.." && pwd)}
build=${FB_BUILD_DIR:-$src/build}
export FEMTOBENCH_SUPPRESS_WARNINGS=1

suites=(bench/femtobench-demo examples/args examples/complexity examples/single_header
    examples/suite examples/threads)
failed=0
fail() { printf 'FAIL: %s\n' "$*" >&2; failed=$((failed + 1)); }

for s in "${suites[@]}"; do
    bin=$build/$s
    if [ ! -x "$bin" ]; then
        fail "$s: not built ($bin)"
        continue
    fi
    n=$("$bin" -list | wc -l)
    [ "$n" -gt 0 ] || fail "$s: -list lists nothing"
    rc=0
    "$bin" -sanity_check >"$build/sanity.out" 2>"$build/sanity.err" || rc=$?
    [ "$rc" -eq 0 ] || fail "$s -sanity_check: exit status $rc: $(cat "$build/sanity.err")"
    [ ! -s "$build/sanity.out" ] || fail "$s -sanity_check: wrote a table on stdout"
    word=benchmarks
    [ "$n" -eq 1 ] && word=benchmark
    grep -q "^femtobench: sanity check: $n $word ran, 0 failed\$" "$build/sanity.err" ||
        fail "$s -sanity_check: no '$n $word ran, 0 failed': $(cat "$build/sanity.err")"
done
rm -f "$build/sanity.out" "$build/sanity.err"

# A benchmark that only compares counts as measured: the demo's
# RandomGenerators alone.
rc=0
err=$("$build/bench/femtobench-demo" -sanity_check -filter='^RandomGenerators$' 2>&1 >/dev/null) ||
    rc=$?
[ "$rc" -eq 0 ] && [[ $err == *"1 benchmark ran, 0 failed"* ]] ||
    fail "RandomGenerators alone under -sanity_check: rc=$rc: $err"

if [ "$failed" -ne 0 ]; then
    echo "$failed failure(s)" >&2
    exit 1
fi
echo "all ${#suites[@]} suites pass -sanity_check"
