#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs femtobench into a temporary prefix (cmake --install of a fresh
# build) and builds a small consumer every way a user would:
#   1. CMake find_package(femtobench CONFIG)  -> femtobench::femtobench (and _shared)
#   2. pkg-config --cflags --libs femtobench
#   3. add_subdirectory(femtobench)  (configured: targets, tests and bench off)
#   4. FetchContent (SOURCE_DIR, no network)
# and a suite as a femtobench-ab plugin (femtobench_add_plugin, and the
# plain-compiler recipe with pkg-config), loaded by the installed femtobench-ab
# and runs each consumer. The prefix is moved before 1 and 2, so both must be
# relocatable. Exit 77 (skipped) only when pkg-config is missing, after the rest passed.
# Time: the library is compiled twice (the installed build: static + shared;
# the FetchContent consumer), without optimization (CMAKE_BUILD_TYPE unset):
# this checks packaging, not speed. add_subdirectory is what FetchContent runs
# underneath, so its consumer is configured (its checks are configure-time)
# but not built.
set -euo pipefail

src=${FB_SOURCE_DIR:-$(cd "$(dirname "$0")/.." && pwd)}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/fb-install.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
jobs=$(nproc 2>/dev/null || echo 2)
export CMAKE_BUILD_PARALLEL_LEVEL=$jobs

fail() { printf 'FAIL: %s\n' "$*" >&2; exit 1; }
ok() { printf 'ok: %s\n' "$*"; }
# Runs a command quietly; on failure shows its output and fails the test.
quiet() {
    local what=$1; shift
    if ! "$@" >"$tmp/log" 2>&1; then
        cat "$tmp/log" >&2
        fail "$what"
    fi
}

# --- the consumer: public API only, checks header and library agree --------
mkdir -p "$tmp/consumer"
cat >"$tmp/consumer/main.c" <<'C'
#include <femtobench.h>
#include <string.h>

int main(void) {
    fb_bench *b = fb_bench_new();
    uint64_t x = 1;
    if (!b) return 1;
    if (strcmp(fb_version(), FB_VERSION_STRING) != 0) {
        fprintf(stderr, "header %s, library %s\n", FB_VERSION_STRING, fb_version());
        return 1;
    }
    fb_set_epochs(b, 3);
    fb_set_title(b, "consumer");
    FB_RUN(b, "x += x") { x += x; fb_do_not_optimize(x); }
    if (fb_result_count(b) != 1) return 1;
    fb_bench_free(b);
    printf("consumer ok %s\n", fb_version());
    return 0;
}
C
run_consumer() {  # $1 = binary; it must exit 0, print its table and "consumer ok"
    local out
    out=$(FEMTOBENCH_SUPPRESS_WARNINGS=1 "$@" 2>&1) || { printf '%s\n' "$out" >&2; fail "$1 exited non-zero"; }
    grep -q '^consumer ok ' <<<"$out" || { printf '%s\n' "$out" >&2; fail "$1: no 'consumer ok' line"; }
    grep -q 'x += x' <<<"$out" || { printf '%s\n' "$out" >&2; fail "$1: no table row"; }
}

# --- install ----------------------------------------------------------------
quiet "configure" cmake -S "$src" -B "$tmp/build" \
    -DFEMTOBENCH_BUILD_TESTS=OFF -DFEMTOBENCH_BUILD_BENCH=OFF -DFEMTOBENCH_BUILD_EXAMPLES=OFF \
    -DFEMTOBENCH_BUILD_SHARED=ON \
    -DCMAKE_INSTALL_PREFIX="$tmp/unused"
quiet "build" cmake --build "$tmp/build"
quiet "install" cmake --install "$tmp/build" --prefix "$tmp/prefix0"
# Move the tree: nothing may point at the prefix it was installed to.
mv "$tmp/prefix0" "$tmp/prefix"
prefix=$tmp/prefix
lib=$(dirname "$(find "$prefix" -name libfemtobench.a | head -n 1)")
[ -d "$lib" ] || fail "no libfemtobench.a under $prefix"
for f in include/femtobench.h share/doc/femtobench/LICENSE; do
    [ -f "$prefix/$f" ] || fail "not installed: $f"
done
for f in libfemtobench.so cmake/femtobench/femtobench-config.cmake \
    cmake/femtobench/femtobench-config-version.cmake cmake/femtobench/femtobench-targets.cmake \
    pkgconfig/femtobench.pc; do
    [ -e "$lib/$f" ] || fail "not installed: ${lib#"$prefix"/}/$f"
done
if grep -rq "$tmp/prefix0\|$tmp/unused" "$prefix"; then
    grep -rl "$tmp/prefix0\|$tmp/unused" "$prefix" >&2
    fail "installed files name the install prefix (not relocatable)"
fi
# femtobench-compare (docs/baselines.md) is installed with the library and runs from the moved tree.
[ -x "$prefix/bin/femtobench-compare" ] || fail "not installed: bin/femtobench-compare"
"$prefix/bin/femtobench-compare" -help | grep -q "femtobench-compare OLD.json NEW.json" ||
    fail "bin/femtobench-compare -help"
ok "cmake --install: header, static + shared library, CMake package, femtobench.pc, LICENSE, femtobench-compare"

# The shared library exports only fb_ names (fb__ included).
if command -v nm >/dev/null; then
    bad=$(nm -D --defined-only "$lib/libfemtobench.so" | awk '$2 ~ /^[A-TV-Z]$/ && $3 !~ /^fb_/ {print $3}')
    [ -z "$bad" ] || fail "libfemtobench.so exports unprefixed symbols: $bad"
    ok "libfemtobench.so exports only fb_* symbols"
    # internals (FB__PRIVATE) are hidden: only the fb__ helpers the public
    # macros call are exported
    allowed=" fb__register fb__loop_begin fb__loop_next fb__loop_done fb__run_at fb__escape "
    # (and FB_COMPARE's and fb_compare's, src/compare.c)
    allowed="$allowed fb__cmp_begin fb__cmp_next fb__cmp_alt fb__cmp_alt_done fb__compare_at "
    # (and the plugin entry point femtobench-ab looks up, src/plugin.c)
    allowed="$allowed fb__plugin_entry "
    internal=$(nm -D --defined-only "$lib/libfemtobench.so" | awk '$3 ~ /^fb__/ {print $3}')
    leaked=""
    for sym in $internal; do
        case $allowed in *" $sym "*) ;; *) leaked="$leaked $sym" ;; esac
    done
    [ -z "$leaked" ] || fail "libfemtobench.so exports internal symbols:$leaked"
    ok "libfemtobench.so hides its internal fb__ functions"
fi

# --- 1. find_package ------------------------------------------------------------
cat >"$tmp/consumer/CMakeLists.txt" <<'CM'
cmake_minimum_required(VERSION 3.16)
project(fb_consumer C)
find_package(femtobench 0.1 CONFIG REQUIRED)
add_executable(consumer main.c)
target_link_libraries(consumer PRIVATE femtobench::femtobench)
if(NOT TARGET femtobench::femtobench_shared)
  message(FATAL_ERROR "femtobench::femtobench_shared missing")
endif()
add_executable(consumer_shared main.c)
target_link_libraries(consumer_shared PRIVATE femtobench::femtobench_shared)
CM
quiet "find_package consumer: configure" cmake -S "$tmp/consumer" -B "$tmp/cb" -DCMAKE_PREFIX_PATH="$prefix"
quiet "find_package consumer: build" cmake --build "$tmp/cb"
run_consumer "$tmp/cb/consumer"
run_consumer "$tmp/cb/consumer_shared"
# not `ldd | grep -q` under pipefail: grep exits at the first match and ldd
# may die of SIGPIPE, failing the pipeline though the match was found
ldd_out=$(ldd "$tmp/cb/consumer_shared")
grep -q "libfemtobench.so" <<<"$ldd_out" || fail "consumer_shared does not use libfemtobench.so"
ok "find_package(femtobench CONFIG): femtobench::femtobench and femtobench::femtobench_shared"

# A suite as a plugin for femtobench-ab (docs/ab.md): femtobench_add_plugin
# from the package, and the installed femtobench-ab loads it (the same file
# twice: the A/A check).
if [ -x "$prefix/bin/femtobench-ab" ]; then
    mkdir -p "$tmp/plugin"
    cat >"$tmp/plugin/suite.c" <<'C'
#include <femtobench.h>
FB_BENCHMARK(Add) {
    uint64_t x = 1;
    FB_RUN(b, "Add") { x += 3; fb_do_not_optimize(x); }
}
FB_MAIN()
C
    cat >"$tmp/plugin/CMakeLists.txt" <<'CM'
cmake_minimum_required(VERSION 3.16)
project(fb_plugin C)
find_package(femtobench 0.1 CONFIG REQUIRED)
femtobench_add_plugin(suite suite.c)
add_executable(suite_runner suite.c)
target_link_libraries(suite_runner PRIVATE femtobench::femtobench)
CM
    quiet "plugin: configure" cmake -S "$tmp/plugin" -B "$tmp/pb" -DCMAKE_PREFIX_PATH="$prefix"
    quiet "plugin: build" cmake --build "$tmp/pb"
    out=$(FEMTOBENCH_SUPPRESS_WARNINGS=1 "$prefix/bin/femtobench-ab" "$tmp/pb/suite.so" \
        "$tmp/pb/suite.so" -min_time=1) || { printf '%s\n' "$out" >&2; fail "femtobench-ab on the plugin"; }
    grep -q '^| Add |' <<<"$out" || { printf '%s\n' "$out" >&2; fail "femtobench-ab: no Add row"; }
    ok "femtobench_add_plugin (find_package) and the installed femtobench-ab"
fi

# A version the package does not satisfy is refused.
mkdir -p "$tmp/consumer/v"
cat >"$tmp/consumer/v/CMakeLists.txt" <<'CM'
cmake_minimum_required(VERSION 3.16)
project(fb_version_check C)
find_package(femtobench 99 CONFIG QUIET)
if(femtobench_FOUND)
  message(FATAL_ERROR "femtobench 99 accepted")
endif()
CM
quiet "find_package(femtobench 99) must not be found" cmake -S "$tmp/consumer/v" -B "$tmp/cv" -DCMAKE_PREFIX_PATH="$prefix"
ok "femtobench-config-version.cmake refuses an incompatible version"

# --- 2. pkg-config ----------------------------------------------------------------
pc_skipped=
if command -v pkg-config >/dev/null; then
    export PKG_CONFIG_PATH=$lib/pkgconfig
    flags=$(pkg-config --cflags --libs femtobench) || fail "pkg-config --cflags --libs femtobench"
    printf 'pkg-config: %s\n' "$flags"
    [ "$(pkg-config --modversion femtobench)" = "$(sed -n 's/^#define FB_VERSION_STRING "\(.*\)"/\1/p' "$src/include/femtobench.h")" ] ||
        fail "pkg-config --modversion disagrees with FB_VERSION_STRING"
    # shellcheck disable=SC2086 # the flags are meant to split
    quiet "pkg-config consumer: compile" "${CC:-cc}" -std=c11 -O2 -Wall -Wextra -Wpedantic -Werror \
        "$tmp/consumer/main.c" -o "$tmp/pc_consumer" $flags
    LD_LIBRARY_PATH=$lib run_consumer "$tmp/pc_consumer"
    # The static library alone, with only what the .pc says beyond -lfemtobench.
    # shellcheck disable=SC2046
    quiet "pkg-config consumer (static): compile" "${CC:-cc}" -std=c11 -O2 "$tmp/consumer/main.c" \
        -o "$tmp/pc_consumer_static" $(pkg-config --cflags femtobench) "$lib/libfemtobench.a" \
        $(pkg-config --libs-only-l femtobench | sed 's/-lfemtobench//')
    run_consumer "$tmp/pc_consumer_static"
    ok "pkg-config --cflags --libs femtobench (shared and static)"
    # The plugin recipe of docs/ab.md against an install of the static
    # library alone (the default: FEMTOBENCH_BUILD_SHARED off).
    if [ -x "$prefix/bin/femtobench-ab" ]; then
        cp -r "$prefix" "$tmp/prefix_static"
        slib=$tmp/prefix_static/${lib#"$prefix"/}
        rm -f "$slib"/libfemtobench.so*
        cat >"$tmp/recipe.c" <<'C'
#include <femtobench.h>
FB_BENCHMARK(Add) {
    uint64_t x = 1;
    FB_RUN(b, "Add") { x += 3; fb_do_not_optimize(x); }
}
FB_MAIN()
C
        # shellcheck disable=SC2046
        quiet "plugin recipe: cc -shared -fPIC ... \$(pkg-config --cflags --libs femtobench)" \
            "${CC:-cc}" -shared -fPIC -o "$tmp/recipe.so" "$tmp/recipe.c" \
            $(PKG_CONFIG_PATH=$slib/pkgconfig pkg-config --cflags --libs femtobench)
        out=$(FEMTOBENCH_SUPPRESS_WARNINGS=1 "$prefix/bin/femtobench-ab" "$tmp/recipe.so" \
            "$tmp/recipe.so" -min_time=1) || { printf '%s\n' "$out" >&2; fail "femtobench-ab on the recipe's plugin"; }
        grep -q '^| Add |' <<<"$out" || { printf '%s\n' "$out" >&2; fail "recipe plugin: no Add row"; }
        ok "plugin recipe: cc -shared -fPIC -o suite.so suite.c \$(pkg-config --cflags --libs femtobench)"
    fi
else
    pc_skipped="pkg-config not found: the pkg-config consumer was not built (apt-get install pkg-config)"
fi

# --- 3. add_subdirectory and 4. FetchContent --------------------------------------
for how in add_subdirectory FetchContent; do
    d=$tmp/$how
    mkdir -p "$d"
    cp "$tmp/consumer/main.c" "$d/"
    {
        echo 'cmake_minimum_required(VERSION 3.16)'
        echo "project(fb_$how C)"
        # shellcheck disable=SC2016 # ${FB_SRC} is CMake's, not the shell's
        if [ $how = add_subdirectory ]; then
            echo 'add_subdirectory(${FB_SRC} femtobench EXCLUDE_FROM_ALL)'
        else
            echo 'include(FetchContent)'
            echo 'FetchContent_Declare(femtobench SOURCE_DIR ${FB_SRC})'
            echo 'FetchContent_MakeAvailable(femtobench)'
        fi
        cat <<'CM'
# As a subproject femtobench builds neither its tests nor its demo suite.
foreach(t femtobench-demo test_run femtobench_single)
  if(TARGET ${t})
    message(FATAL_ERROR "subproject defined target ${t}")
  endif()
endforeach()
if(FEMTOBENCH_BUILD_TESTS OR FEMTOBENCH_BUILD_BENCH)
  message(FATAL_ERROR "tests/bench are on in a subproject")
endif()
add_executable(consumer main.c)
target_link_libraries(consumer PRIVATE femtobench::femtobench)
CM
    } >"$d/CMakeLists.txt"
    quiet "$how consumer: configure" cmake -S "$d" -B "$d/build" -DFB_SRC="$src"
    if [ $how = add_subdirectory ]; then
        ok "$how: femtobench::femtobench defined, tests and bench off (configured)"
        continue
    fi
    quiet "$how consumer: build" cmake --build "$d/build" --target consumer
    run_consumer "$d/build/consumer"
    ok "$how: femtobench::femtobench, tests and bench off"
done

if [ -n "$pc_skipped" ]; then
    printf 'SKIP: %s\n' "$pc_skipped"
    exit 77
fi
echo "test_install: all passed"
