#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs femtobench into a temporary prefix (cmake --install of a fresh
# build) and builds a small consumer every way a user would:
#   1. CMake find_package(femtobench CONFIG)  -> femtobench::femtobench (and _shared)
#   2. pkg-config --cflags --libs femtobench
#   3. add_subdirectory(femtobench)  (configured: targets, tests and bench off)
#   4. FetchContent (SOURCE_DIR, no network)
#   5. femtobench_discover_tests from the package: one ctest test per benchmark
# and a suite as a femtobench-ab plugin (femtobench_add_plugin, and the
# plain-compiler recipe with pkg-config), loaded by the installed femtobench-ab,
# and runs each consumer. The installed femtobench-ab-git compares a throwaway
# git project's commit with its edited working tree from a clean environment,
# and refuses bad input in one line. The prefix is moved before 1 and 2, so
# both must be relocatable. Exit 77 (skipped) only when pkg-config is missing,
# after the rest passed.
# Time: the library is compiled twice (the installed build: static + shared;
# the FetchContent consumer), without optimization (CMAKE_BUILD_TYPE unset):
# this checks packaging, not speed; femtobench-ab-git builds only the
# two-benchmark suite, twice (a few seconds). add_subdirectory is what FetchContent runs
# underneath, so its consumer is configured (its checks are configure-time)
# but not built.
set -euo pipefail

src=${FB_SOURCE_DIR:-$(cd "$(dirname "$0")/.." && pwd)}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/fb-install.XXXXXX")
# the consumers ask for this tree's MAJOR.MINOR (a 0.x release is compatible
# only within its minor version): @FB_MM@ in their CMakeLists.txt
fb_mm=$(sed -n 's/^#define FB_VERSION_STRING "\([0-9]*\.[0-9]*\)\..*"/\1/p' "$src/include/femtobench.h")
fb_fill_version() { sed -i "s/@FB_MM@/$fb_mm/g" "$1"; }
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
# Google Benchmark's benchmark_main (a build with a C++ compiler): the
# library, its .pc and its CMake target femtobench::benchmark_main
if grep -q '^CMAKE_CXX_COMPILER:[A-Z]*=/' "$tmp/build/CMakeCache.txt"; then
    for f in libfemtobench_benchmark_main.a pkgconfig/femtobench-benchmark-main.pc; do
        [ -e "$lib/$f" ] || fail "not installed: ${lib#"$prefix"/}/$f"
    done
    grep -q 'femtobench::benchmark_main' "$lib/cmake/femtobench/femtobench-targets.cmake" ||
        fail "the CMake package has no femtobench::benchmark_main"
fi
ok "cmake --install: header, static + shared library, CMake package, femtobench.pc, LICENSE, femtobench-compare"

# The shared library exports only fb_ names (fb__ included).
if command -v nm >/dev/null; then
    bad=$(nm -D --defined-only "$lib/libfemtobench.so" | awk '$2 ~ /^[A-TV-Z]$/ && $3 !~ /^fb_/ {print $3}')
    [ -z "$bad" ] || fail "libfemtobench.so exports unprefixed symbols: $bad"
    ok "libfemtobench.so exports only fb_* symbols"
    # internals (FB__PRIVATE) are hidden: only the fb__ helpers the public
    # macros call are exported
    allowed=" fb__register fb__loop_begin fb__loop_next fb__loop_done fb__loop_ran fb__loop_complexity_n fb__run_at fb__escape "
    # (and FB_COMPARE's and fb_compare's, src/run/compare.c)
    allowed="$allowed fb__cmp_begin fb__cmp_next fb__cmp_alt fb__cmp_alt_done fb__compare_at "
    # (and the plugin entry point femtobench-ab looks up, src/runner/plugin.c)
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
find_package(femtobench @FB_MM@ CONFIG REQUIRED)
add_executable(consumer main.c)
target_link_libraries(consumer PRIVATE femtobench::femtobench)
if(NOT TARGET femtobench::femtobench_shared)
  message(FATAL_ERROR "femtobench::femtobench_shared missing")
endif()
add_executable(consumer_shared main.c)
target_link_libraries(consumer_shared PRIVATE femtobench::femtobench_shared)
CM
fb_fill_version "$tmp/consumer/CMakeLists.txt"
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
find_package(femtobench @FB_MM@ CONFIG REQUIRED)
femtobench_add_plugin(suite suite.c)
add_executable(suite_runner suite.c)
target_link_libraries(suite_runner PRIVATE femtobench::femtobench)
CM
    fb_fill_version "$tmp/plugin/CMakeLists.txt"
    quiet "plugin: configure" cmake -S "$tmp/plugin" -B "$tmp/pb" -DCMAKE_PREFIX_PATH="$prefix"
    quiet "plugin: build" cmake --build "$tmp/pb"
    out=$(FEMTOBENCH_SUPPRESS_WARNINGS=1 "$prefix/bin/femtobench-ab" "$tmp/pb/suite.so" \
        "$tmp/pb/suite.so" -min_time=1) || { printf '%s\n' "$out" >&2; fail "femtobench-ab on the plugin"; }
    grep -q '^| Add |' <<<"$out" || { printf '%s\n' "$out" >&2; fail "femtobench-ab: no Add row"; }
    # the layout variants, built from the installed padding object, found beside the plugin
    [ -f "$tmp/pb/suite.layout7.so" ] || fail "femtobench_add_plugin built no layout variants"
    grep -q '8 layouts a side' <<<"$out" || { printf '%s\n' "$out" >&2; fail "femtobench-ab: not 8 layouts a side"; }
    ok "femtobench_add_plugin (find_package) and the installed femtobench-ab"
fi

# femtobench-ab-git (docs/ab.md) from another git project, the way a user runs
# it: the installed command in a clean environment (PATH holds git, cmake and
# the compiler, nothing of femtobench's; no FEMTOBENCH_AB). It must find its
# femtobench-ab and its install by itself, build both sides outside the
# project's tree, and refuse bad input in one line before building.
if [ -x "$prefix/bin/femtobench-ab" ] && ! command -v git >/dev/null; then
    echo "note: git not found: femtobench-ab-git was not run"
elif [ -x "$prefix/bin/femtobench-ab" ]; then
    abgit=$prefix/bin/femtobench-ab-git
    [ -x "$abgit" ] || fail "not installed: bin/femtobench-ab-git"
    clean_path=/usr/bin:/bin
    for t in git cmake "${CC:-cc}" bash; do
        d=$(dirname "$(command -v "$t")")
        case ":$clean_path:" in *":$d:"*) ;; *) clean_path=$d:$clean_path ;; esac
    done
    case ":$clean_path:" in *":${FB_BUILD_DIR:-/nonexistent}:"*) fail "the clean PATH holds the build directory" ;; esac
    mkdir -p "$tmp/home" "$tmp/abgtmp"
    # $1 = the directory to run in; the rest: the command line. Sets abg_rc,
    # abg_out (stdout) and abg_err (stderr).
    run_abg() {
        local dir=$1; shift
        abg_rc=0
        (cd "$dir" && env -i PATH="$clean_path" HOME="$tmp/home" TMPDIR="$tmp/abgtmp" \
            GIT_CEILING_DIRECTORIES="$tmp" ${CC:+CC="$CC"} FEMTOBENCH_SUPPRESS_WARNINGS=1 \
            "$@" >"$tmp/abg.out" 2>"$tmp/abg.err") || abg_rc=$?
        abg_out=$(cat "$tmp/abg.out")
        abg_err=$(cat "$tmp/abg.err")
    }
    # $1 = the directory, $2 = what the error line must contain, the rest: the command line
    expect_error() {
        local dir=$1 what=$2; shift 2
        run_abg "$dir" "$@"
        [ "$abg_rc" = 2 ] || { printf '%s\n' "$abg_out" "$abg_err" >&2; fail "femtobench-ab-git ($what): exit status $abg_rc, not 2"; }
        if [ "$(grep -c . <<<"$abg_err")" != 1 ] || ! grep -q "^femtobench: error: .*$what" <<<"$abg_err"; then
            printf '%s\n' "$abg_err" >&2
            fail "femtobench-ab-git ($what): not one 'femtobench: error:' line"
        fi
    }
    new_repo() { # $1 = directory: an empty git repository on branch main
        mkdir -p "$1"
        git -C "$1" init -q
        git -C "$1" symbolic-ref HEAD refs/heads/main
    }
    commit() { git -C "$1" add -A && git -C "$1" -c user.name=test -c user.email=test@example.com commit -qm "$2"; }

    proj=$tmp/proj
    new_repo "$proj"
    cat >"$proj/suite.c" <<'C'
#include <femtobench.h>
FB_BENCHMARK(Work) {
    uint64_t x = 1;
    FB_RUN(b, "Work") { for (int i = 0; i < 4; i++) { x = x * 3 + 1; fb_do_not_optimize(x); } }
}
FB_BENCHMARK(Fixed) {
    uint64_t x = 1;
    FB_RUN(b, "Fixed") { x += 3; fb_do_not_optimize(x); }
}
FB_MAIN()
C
    cat >"$proj/CMakeLists.txt" <<'CM'
cmake_minimum_required(VERSION 3.16)
project(abg_proj C)
find_package(femtobench CONFIG REQUIRED)
femtobench_add_plugin(suite_plugin suite.c)
CM
    commit "$proj" "a suite"
    # the user's change: Work does 25 times the work
    sed 's/i < 4;/i < 100;/' "$proj/suite.c" >"$tmp/suite.c" && cp "$tmp/suite.c" "$proj/suite.c"
    t0=$SECONDS
    run_abg "$proj" "$abgit" -- -output_json="$tmp/abg.json" -min_time=1 -rounds=10
    [ "$abg_rc" = 0 ] || { printf '%s\n' "$abg_out" "$abg_err" >&2; fail "femtobench-ab-git: exit status $abg_rc"; }
    grep -q "building base" <<<"$abg_err" || { printf '%s\n' "$abg_err" >&2; fail "femtobench-ab-git: no progress line"; }
    grep -q "comparing with $prefix/bin/femtobench-ab\$" <<<"$abg_err" ||
        { printf '%s\n' "$abg_err" >&2; fail "femtobench-ab-git did not use the femtobench-ab next to it"; }
    if command -v python3 >/dev/null; then
        python3 - "$tmp/abg.json" <<'PY' || { printf '%s\n' "$abg_out" >&2; fail "femtobench-ab-git: the JSON"; }
import json, sys
doc = json.load(open(sys.argv[1]))
rows = {b["name"]: b for b in doc["benchmarks"]}
assert sorted(rows) == ["Fixed", "Work"], sorted(rows)
assert rows["Work"]["verdict"] == "slower", rows["Work"]
PY
    else
        grep -q '"name": *"Work"' "$tmp/abg.json" || fail "femtobench-ab-git: no Work in the JSON"
    fi
    [ "$(git -C "$proj" status --porcelain --untracked-files=all)" = " M suite.c" ] ||
        { git -C "$proj" status --porcelain --untracked-files=all >&2; fail "femtobench-ab-git wrote into the project's tree"; }
    [ "$(git -C "$proj" worktree list | grep -c .)" = 1 ] || fail "femtobench-ab-git left a git worktree"
    [ -z "$(ls -A "$tmp/abgtmp")" ] || { ls -A "$tmp/abgtmp" >&2; fail "femtobench-ab-git left its temporary directory"; }
    ls -d "$tmp/home/.cache/femtobench-ab-git/proj-"*/new >/dev/null || fail "femtobench-ab-git: no build under ~/.cache"
    ok "femtobench-ab-git from another project: Work slower, nothing written in the tree ($((SECONDS - t0)) s)"

    # A build that fails: exit status 2, the end of the log, then the error line.
    echo 'this is not C' >>"$proj/suite.c"
    run_abg "$proj" "$abgit"
    if [ "$abg_rc" != 2 ] || ! grep -q 'the end of .*new.log' <<<"$abg_err" ||
        ! tail -n 1 <<<"$abg_err" | grep -q '^femtobench: error: building new failed'; then
        printf '%s\n' "$abg_err" >&2
        fail "femtobench-ab-git: a failed build (exit status $abg_rc)"
    fi
    cp "$tmp/suite.c" "$proj/suite.c"

    # Bad input: one line, exit status 2, nothing built.
    mkdir -p "$tmp/notgit"
    expect_error "$tmp/notgit" "not inside a git repository" "$abgit"
    expect_error "$proj" "-b nosuch: not a commit" "$abgit" -b nosuch
    expect_error "$proj" "-b: needs a value" "$abgit" -b
    expect_error "$proj" "-x: unknown option" "$abgit" -x
    new_repo "$tmp/nocmake"
    expect_error "$tmp/nocmake" "no CMakeLists.txt at the top" "$abgit"
    for n in 0 2; do
        d=$tmp/plugins$n
        new_repo "$d"
        { echo 'project(p C)'; [ $n = 0 ] || printf 'femtobench_add_plugin(a a.c)\nfemtobench_add_plugin(b b.c)\n'; } >"$d/CMakeLists.txt"
        commit "$d" "plugins"
    done
    expect_error "$tmp/plugins0" "no femtobench_add_plugin" "$abgit"
    expect_error "$tmp/plugins2" "2 plugin targets: a b" "$abgit"
    mkdir -p "$tmp/gitonly"
    ln -s "$(command -v git)" "$tmp/gitonly/git"
    (
        clean_path=$tmp/gitonly
        expect_error "$proj" "cmake not found" "$(command -v bash)" "$abgit"
    )
    # An unknown target is found at configure time, before building.
    run_abg "$proj" "$abgit" -t nosuch
    if [ "$abg_rc" != 2 ] || ! tail -n 1 <<<"$abg_err" | grep -q "^femtobench: error: no target 'nosuch'.*suite_plugin"; then
        printf '%s\n' "$abg_err" >&2
        fail "femtobench-ab-git -t nosuch"
    fi
    run_abg "$proj" "$abgit" -h
    if [ "$abg_rc" != 0 ] || ! grep -q "femtobench_add_plugin" <<<"$abg_out"; then fail "femtobench-ab-git -h"; fi
    ok "femtobench-ab-git: bad input is one error line, exit status 2"
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
    # A Google Benchmark suite without a main, its main from benchmark_main
    if [ -e "$lib/libfemtobench_benchmark_main.a" ]; then
        cat >"$tmp/gb_main.cpp" <<'CPP'
#include <benchmark/benchmark.h>
static void BM_Add(benchmark::State &state) {
    int x = 0;
    for (auto _ : state) benchmark::DoNotOptimize(x += 1);
}
BENCHMARK(BM_Add);
CPP
        # shellcheck disable=SC2046 # the flags are meant to split
        quiet "pkg-config femtobench-benchmark-main: compile" "${CXX:-c++}" -std=c++11 -O2 \
            "$tmp/gb_main.cpp" -o "$tmp/gb_main" $(pkg-config --cflags --libs femtobench-benchmark-main)
        out=$(LD_LIBRARY_PATH=$lib "$tmp/gb_main" -list) || fail "benchmark_main: -list failed"
        [ "$out" = BM_Add ] || fail "benchmark_main: -list printed '$out'"
        ok "pkg-config femtobench-benchmark-main: a Google Benchmark suite takes main from it"
    fi
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

# --- 5. femtobench_discover_tests ------------------------------------------------
# From the moved package: each benchmark its own ctest test running the suite
# with -sanity_check and a -filter that selects it alone (names with regex
# metacharacters escaped: a.b must not also run aXb), ctest -j runs them, and
# exactly the benchmark that fails its sanity check fails. A second call with
# ARGS -filter registers only what that filter lists, under its prefix.
d=$tmp/discover
mkdir -p "$d"
cat >"$d/suite.c" <<'C'
#include <femtobench.h>
static void op(fb_bench *b) {
    uint64_t x = 1;
    FB_RUN(b, NULL) { x = x * 3 + 1; fb_do_not_optimize(x); }
}
FB_BENCHMARK_ARGS(Sip, 8, 64, 640) { op(b); }
FB_BENCHMARK(Plain) { op(b); }
FB_BENCHMARK(aXb) { op(b); }
/* never reaches FB_RUN: its sanity check fails */
FB_BENCHMARK(Broken) { (void)b; }
/* names FB_BENCHMARK cannot spell, registered as it registers */
static fb__registration dot = {"a.b", op, NULL, FB__REG_ONE, NULL, 0, 0, 0, 0};
static fb__registration plus = {"x+y z", op, NULL, FB__REG_ONE, NULL, 0, 0, 0, 0};
FB__CONSTRUCTOR(register_odd_names) { fb__register(&dot); fb__register(&plus); }
FB_MAIN()
C
cat >"$d/CMakeLists.txt" <<'CM'
cmake_minimum_required(VERSION 3.16)
project(fb_discover C)
enable_testing()
find_package(femtobench @FB_MM@ CONFIG REQUIRED)
add_executable(suite suite.c)
target_link_libraries(suite PRIVATE femtobench::femtobench)
femtobench_discover_tests(suite TEST_PREFIX "bench/" LABELS perf ARGS -quiet)
femtobench_discover_tests(suite TEST_PREFIX "sip/" ARGS -filter=Sip DISCOVERY_TIMEOUT 60)
CM
fb_fill_version "$d/CMakeLists.txt"
quiet "femtobench_discover_tests consumer: configure" cmake -S "$d" -B "$d/build" -DCMAKE_PREFIX_PATH="$prefix"
quiet "femtobench_discover_tests consumer: build" cmake --build "$d/build"
want="bench/Broken bench/Plain bench/Sip/8 bench/Sip/64 bench/Sip/640 bench/a.b bench/aXb bench/x+y z sip/Sip/8 sip/Sip/64 sip/Sip/640"
got=$(cd "$d/build" && ctest -N | sed -n 's/^ *Test *#[0-9]*: //p' | paste -sd' ')
[ "$got" = "$want" ] || fail "femtobench_discover_tests: ctest -N lists '$got', not '$want'"
rc=0
(cd "$d/build" && ctest -j2 >"$tmp/ctest.log" 2>&1) || rc=$?
failed=$(sed 's/^[0-9]*://' "$d/build/Testing/Temporary/LastTestsFailed.log" 2>/dev/null | paste -sd' ')
if [ "$rc" = 0 ] || [ "$failed" != "bench/Broken" ]; then
    cat "$tmp/ctest.log" >&2
    fail "femtobench_discover_tests: ctest -j2 (exit status $rc) failed '$failed', not 'bench/Broken' alone"
fi
for t in 'a\.b' 'x\+y z' 'Sip/64'; do
    out=$(cd "$d/build" && ctest -R "^bench/$t\$" -V 2>&1) || { printf '%s\n' "$out" >&2; fail "ctest -R bench/$t"; }
    grep -q 'sanity check: 1 benchmark ran, 0 failed' <<<"$out" ||
        { printf '%s\n' "$out" >&2; fail "femtobench_discover_tests: bench/$t does not run its benchmark alone"; }
done
[ "$(cd "$d/build" && ctest -N -L perf | grep -c 'Test *#')" = 8 ] || fail "femtobench_discover_tests: LABELS perf"
ok "femtobench_discover_tests (find_package): one ctest test per benchmark, only bench/Broken fails"

if [ -n "$pc_skipped" ]; then
    printf 'SKIP: %s\n' "$pc_skipped"
    exit 77
fi
echo "test_install: all passed"
