#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# CI checks of the single header's generation. Usage: .ci/single_header.sh [BUILD_DIR]
#
# Policy: the generated femtobench.h is NOT committed (SQLite's model: no
# generated file for parallel contributors to conflict on). Every build makes
# BUILD_DIR/single/femtobench.h (target femtobench_single, part of ALL), which
# is the release copy. So CI checks that
#   1. generation is reproducible: the same bytes from dash and bash, from any
#      working directory, twice;
#   2. the build's copy equals a fresh generation (tools/amalgamate --check);
#   3. no stale copy is committed: if a femtobench.h is ever committed at the
#      top (say, in a release commit), it must be fresh too.
# The compile/link/run tests of the header are tests/test_single_header.sh,
# which ctest runs in the build tier (ctest -L build; .ci/run).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-${FB_BUILD_DIR:-$root/build}}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/fb-ci-single.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cd "$root"

[ -x tools/amalgamate ] || { echo "tools/amalgamate is not executable" >&2; exit 1; }

# 1. reproducible
tools/amalgamate -o "$tmp/a.h"
(cd / && "$root/tools/amalgamate" -o "$tmp/b.h")
for sh in dash bash; do
    if command -v $sh >/dev/null; then
        $sh tools/amalgamate -o "$tmp/$sh.h"
        cmp "$tmp/a.h" "$tmp/$sh.h" || { echo "$sh gives a different header" >&2; exit 1; }
    fi
done
cmp "$tmp/a.h" "$tmp/b.h" || { echo "the header depends on the working directory" >&2; exit 1; }
echo "single header: generation is reproducible ($(wc -l <"$tmp/a.h") lines)"

# 2. the build's copy is fresh (build the target first if needed)
if [ ! -f "$build/CMakeCache.txt" ]; then
    cmake -S . -B "$build" >/dev/null
fi
cmake --build "$build" --target femtobench_single >/dev/null
tools/amalgamate --check "$build/single/femtobench.h"
echo "single header: $build/single/femtobench.h is fresh"

# 3. a committed copy, if any, is fresh
if [ -f femtobench.h ]; then
    tools/amalgamate --check femtobench.h
    echo "single header: the committed femtobench.h is fresh"
fi
echo "single header: ok"
