#!/usr/bin/env bash
# The public header and the generated single header compile warning-free in
# user code under strict flags, with gcc and clang: C (the single
# header with its implementation too) and C++ (the public header). Also
# checks that fb_do_not_optimize takes any expression in C++ (a function's
# result, v.data()) and lvalues in C. Compilers that are missing are skipped;
# exit 77 when none is found.
set -u
src=${FB_SOURCE_DIR:-$(cd "$(dirname "$0")/.." && pwd)}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0 ran=0
cflags=(-std=c11 -O2 -Werror -Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion -Wshadow
    -Wcast-qual -Wstrict-prototypes -Wmissing-prototypes)
cxxflags=(-std=c++11 -O2 -Werror -Wall -Wextra -Wpedantic -Wold-style-cast
    -Wzero-as-null-pointer-constant)
sh "$src/tools/amalgamate" -o "$tmp/femtobench.h" || { echo "FAIL: amalgamate"; exit 1; }
cat >"$tmp/user.c" <<'C'
#include <femtobench.h>
FB_BENCHMARK(User) {
    uint64_t x = 1;
    unsigned char buf[16] = {0};
    fb_rng r;
    fb_rng_seed(&r, 1);
    FB_RUN(b, NULL) {
        x += fb_rng_bounded(&r, 10) + (uint64_t)(fb_rng_uniform01(&r) > 0.5);
        buf[x & 15u]++;
        fb_do_not_optimize(x);
        fb_do_not_optimize(buf);
        fb_clobber_memory();
    }
}
FB_MAIN()
C
cat >"$tmp/user.cpp" <<'CXX'
#include <femtobench.h>
#include <vector>
static int three() { return 3; }
FB_BENCHMARK(User) {
    std::vector<int> v(16);
    const int k = 7;
    uint64_t x = 1;
    FB_RUN(b, nullptr) {
        x += x;
        fb_do_not_optimize(x);        /* lvalue: read and modified */
        fb_do_not_optimize(v.data()); /* an rvalue */
        fb_do_not_optimize(three());  /* a function's result */
        fb_do_not_optimize(k);        /* a const object */
        fb_do_not_optimize(x + 1);
    }
}
FB_MAIN()
CXX
try() { # what cmd...
    local what=$1; shift
    ran=$((ran + 1))
    if "$@" >"$tmp/log" 2>&1; then echo "ok: $what"; else
        echo "FAIL: $what"; sed 's/^/    /' "$tmp/log" | head -20; fails=$((fails + 1)); fi
}
for cc in gcc clang; do
    command -v $cc >/dev/null || { echo "note: no $cc"; continue; }
    try "$cc: public header, C" $cc "${cflags[@]}" -I "$src/include" -c "$tmp/user.c" -o "$tmp/u.o"
    try "$cc: single header with FEMTOBENCH_IMPLEMENTATION, C" $cc "${cflags[@]}" \
        -D_POSIX_C_SOURCE=200809L -DFEMTOBENCH_IMPLEMENTATION -I "$tmp" -c "$tmp/user.c" -o "$tmp/s.o"
done
for cxx in g++ clang++; do
    command -v $cxx >/dev/null || { echo "note: no $cxx"; continue; }
    extra=()
    [ $cxx = g++ ] && extra=(-Wuseless-cast) # clang has no -Wuseless-cast
    try "$cxx: public header, C++" $cxx "${cxxflags[@]}" "${extra[@]}" -I "$src/include" -c "$tmp/user.cpp" -o "$tmp/x.o"
    try "$cxx: single header (declarations), C++" $cxx "${cxxflags[@]}" "${extra[@]}" -I "$tmp" -c "$tmp/user.cpp" -o "$tmp/y.o"
done
[ $ran = 0 ] && { echo "SKIP: no compiler found"; exit 77; }
[ $fails = 0 ] && echo "ok: $ran builds"
exit $((fails > 0))
