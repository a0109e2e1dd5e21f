#!/usr/bin/env bash
# Every C fragment in README.md (a ```c block) compiles against the library,
# warning-free, and runs:
# - a complete program (main() or FB_MAIN()) as shown (-sanity_check for suites);
# - a fragment at file scope (it registers FB_BENCHMARKs) after the context
#   below, as a suite with FB_MAIN(), run with -sanity_check (a body shown
#   as `/* ... */` may measure nothing);
# - a fragment of statements inside a function of a bench `b`, after the
#   context below; run, every result it leaves (runs and comparisons) must be
#   free of the "optimized away?" mark: a fragment a user copies must
#   measure its op, not an empty loop.
# The context declares what the text around the fragments names (src, dst,
# a deck to sort); it is the same for every fragment.
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

cat >"$tmp/context.h" <<'EOF'
#include <femtobench.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* what README.md's fragments name: buffers to copy (4 KiB as the
 * comparison says, 64 KiB for the family's largest argument; static, as a
 * user writes them, so the compiler sees every use: a copy of a whole
 * static array never read is what GCC deletes), and a deck of cards to
 * sort; "unused" only silences the warning where a fragment does not name
 * them */
#ifndef READ_ME_BUF
#define READ_ME_BUF 4096
#endif
#define READ_ME_UNUSED __attribute__((unused))
static READ_ME_UNUSED unsigned char src[READ_ME_BUF], dst[READ_ME_BUF];
static READ_ME_UNUSED struct readme_deck {
    int v[1000];
    size_t n;
} deck = {{0}, 1000};
static READ_ME_UNUSED void shuffle(void *ctx) {
    struct readme_deck *d = ctx;
    for (size_t i = 0; i < d->n; ++i) d->v[i] = (int)((i * 7919u) % 1000u);
}
static READ_ME_UNUSED int cmp(const void *a, const void *b) {
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}
EOF

complete=0 total=0
for f in "$tmp"/snippet*.c; do
    [ -e "$f" ] || continue
    total=$((total + 1))
    exe=${f%.c}
    args=()
    if grep -Eq 'int main\(|FB_MAIN\(\)' "$f"; then
        complete=$((complete + 1))
        prog=$f
        grep -q 'FB_MAIN()' "$f" && args=(-sanity_check)
    elif grep -Eq '^FB_BENCHMARK' "$f"; then
        prog=$exe.suite.c
        { echo '#define READ_ME_BUF (64 << 10)'; echo '#include "context.h"'; cat "$f"; echo 'FB_MAIN()'; } >"$prog"
        args=(-sanity_check)
    else
        prog=$exe.body.c
        {
            echo '#include "context.h"'
            echo 'static void readme_fragment(fb_bench *b) {'
            echo '    size_t n = 4096;'
            echo '    (void)n;'
            cat "$f"
            echo '}'
            echo 'int main(void) {'
            echo '    fb_bench *b = fb_bench_new();'
            echo '    fb_set_output(b, NULL);'
            echo '    readme_fragment(b);'
            echo '    int bad = 0;'
            echo '    for (size_t i = 0; i < fb_result_count(b); ++i)'
            echo '        bad |= fb_result_optimized_away(fb_result_at(b, i));'
            echo '    for (size_t i = 0; i < fb_comparison_count(b); ++i)'
            echo '        for (size_t k = 0; k < fb_comparison_size(fb_comparison_at(b, i)); ++k)'
            echo '            bad |= fb_result_optimized_away('
            echo '                fb_comparison_result(fb_comparison_at(b, i), k));'
            echo '    if (bad) fprintf(stderr, "a result is marked optimized away\n");'
            echo '    fb_bench_free(b);'
            echo '    return bad;'
            echo '}'
        } >"$prog"
    fi
    # the build's own compiler and flags (tests/CMakeLists.txt)
    # shellcheck disable=SC2086 # the flags are meant to split
    if ! "${FB_CC:-${CC:-cc}}" ${FB_CFLAGS:-} -std=c11 -O2 -Wall -Wextra -Wpedantic -Werror \
        -I "$src/include" -I "$tmp" "$prog" "$lib" -o "$exe" ${FB_LDFLAGS:-} -pthread -lm \
        2>"$tmp/log"; then
        echo "FAIL: README.md fragment $total does not compile:"; cat "$prog"; cat "$tmp/log"; exit 1
    fi
    rc=0
    FEMTOBENCH_SUPPRESS_WARNINGS=1 "$exe" "${args[@]}" >/dev/null 2>"$tmp/log" || rc=$?
    # a file-scope fragment may show a body as /* ... */: that benchmark
    # measures nothing, and only that failure is allowed
    if [ "$rc" -ne 0 ] && { [ "$prog" != "$exe.suite.c" ] ||
        grep -v -e 'measured nothing: the benchmark never reached' -e 'sanity check:' "$tmp/log" | grep -q .; }; then
        echo "FAIL: README.md fragment $total exited $rc"; cat "$tmp/log"; exit 1
    fi
    echo "ok: README.md fragment $total compiles and runs"
done
[ "$complete" -ge 2 ] || { echo "FAIL: expected at least 2 complete programs in README.md, found $complete"; exit 1; }
[ "$total" -ge 5 ] || { echo "FAIL: expected at least 5 C fragments in README.md, found $total"; exit 1; }
