#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A benchmark's fb_set_output(b, NULL) silences that benchmark alone: in a
# suite (tests/suite_output.c) the benchmarks after it print their rows,
# in one process and under -isolate (where the parent prints each child's
# rows where the child's fb_set_output says); the CSV keeps all three.
set -euo pipefail

build=${FB_BUILD_DIR:?FB_BUILD_DIR unset}
export FEMTOBENCH_SUPPRESS_WARNINGS=1 FEMTOBENCH_CONFIG="epochs=3"
failed=0
fail() { printf 'FAIL: %s\n' "$*" >&2; failed=$((failed + 1)); }

for extra in "" -isolate; do
    out=$("$build/tests/suite_output" $extra)
    # a row may carry the busy machine's mark (:warning: descheduled) before its name
    grep -qE '\| (:warning: )?`First`' <<<"$out" || fail "$extra: no row of First: $out"
    grep -qE '\| (:warning: )?`Third`' <<<"$out" || fail "$extra: no row of Third (silenced by Second_Silent): $out"
    ! grep -q 'Second_Silent' <<<"$out" || fail "$extra: Second_Silent printed a row: $out"
    csv=$("$build/tests/suite_output" $extra -output_csv=- 2>/dev/null)
    [ "$(grep -c '^benchmark,\(First\|Second_Silent\|Third\),' <<<"$csv")" -eq 3 ] ||
        fail "$extra: the CSV lost a result: $csv"
done
# a silenced benchmark that then crashes: the crash is the runner's report,
# printed in the table (under -isolate) whatever the benchmark chose
set +e
out=$(SUITE_OUTPUT_CRASH=1 "$build/tests/suite_output" -isolate -filter=Fourth_Crash 2>&1)
rc=$?
set -e
[ "$rc" -eq 1 ] || fail "a crashing silenced benchmark: exit $rc: $out"
grep -q '`Fourth_Crash` (crashed: killed by signal' <<<"$out" ||
    fail "the crash of a silenced benchmark has no row: $out"
# (a table row: on a busy machine a note on stderr may name it too)
[ "$(grep -c '^|.*Fourth_Crash' <<<"$out")" -eq 1 ] || fail "its measured row is still silent: $out"
[ "$failed" -eq 0 ] || exit 1
echo "fb_set_output(b, NULL) silences its own benchmark alone"
