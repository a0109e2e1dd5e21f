#!/usr/bin/env bash
# Code says what it does: no comment, name or message in the sources, the
# public header, the tests, the examples, the benchmarks or the tools cites
# a tracker's issue number (a reader of the code has no tracker). A
# reference to another project's tracker names that project ("nanobench
# issue #53") and is not matched.
set -euo pipefail
src=${FB_SOURCE_DIR:-$(dirname "$0")/..}
cd "$src"
if hits=$(grep -rnE '(^|[^a-z])[Ii]ssues? ?[0-9]' src include tests examples bench tools \
    CMakeLists.txt cmake .ci Makefile --include='*.c' --include='*.h' --include='*.cpp' \
    --include='*.py' --include='*.sh' --include='*.cmake' --include='*.txt' --include='run' \
    --include='Makefile' --include='amalgamate' 2>/dev/null); then
    echo "FAIL: tracker numbers in code (say what the code does instead):"
    echo "$hits"
    exit 1
fi
echo "test_no_tracker: ok"
