#!/usr/bin/env bash
# Builds every libFuzzer target tests/fuzz/fuzz_*.c against the single header
# with clang -fsanitize=fuzzer,address,undefined and runs each for a bounded
# time (FUZZ_SECONDS, default 30) from its committed seed corpus
# (tests/fuzz/corpus/<name>/, copied: the committed corpus is not modified).
# A crash fails the script; its input is left in $FUZZ_DIR/<name>/ and
# becomes a regression test (docs/reliability.md). Exit 77: no libFuzzer.
#   tests/fuzz/run.sh [target...]       e.g. tests/fuzz/run.sh cli config
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=${FUZZ_DIR:-$root/build-fuzz}
secs=${FUZZ_SECONDS:-30}
cc=${FUZZ_CC:-clang}
mkdir -p "$out"
"$root/tools/amalgamate" -o "$out/femtobench.h"
echo 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { (void)d; return (int)n * 0; }' \
    >"$out/probe.c"
if ! "$cc" -fsanitize=fuzzer "$out/probe.c" -o "$out/probe" 2>/dev/null; then
    echo "SKIP: $cc has no libFuzzer (-fsanitize=fuzzer)"
    exit 77
fi
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    for f in "$here"/fuzz_*.c; do targets+=("$(basename "$f" .c | sed 's/^fuzz_//')"); done
fi
status=0
for t in "${targets[@]}"; do
    bin="$out/fuzz_$t"
    "$cc" -g -O1 -std=c11 -D_POSIX_C_SOURCE=200809L -fsanitize=fuzzer,address,undefined \
        -fno-sanitize-recover=all -I"$out" "$here/fuzz_$t.c" -o "$bin" -lm -lpthread
    work="$out/$t"
    rm -rf "$work"
    mkdir -p "$work/corpus"
    if [ -d "$here/corpus/$t" ]; then cp "$here/corpus/$t"/* "$work/corpus/" 2>/dev/null || true; fi
    echo "== fuzz_$t: ${secs}s"
    # run inside $work: nothing the target does can touch the tree
    if ! (cd "$work" && UBSAN_OPTIONS=print_stacktrace=1 "$bin" -max_total_time="$secs" \
        -close_fd_mask=3 -max_len=4096 -timeout=10 -rss_limit_mb=2048 corpus \
        >"$work/log" 2>&1); then
        echo "fuzz_$t: FAILED; the input is in $work, the log in $work/log"
        tail -40 "$work/log"
        status=1
    else
        grep -E '^#[0-9]+.*DONE' "$work/log" | tail -1 || tail -2 "$work/log"
    fi
done
exit $status
