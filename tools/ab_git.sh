#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Did my change make it slower? Builds a plugin target at a base git ref (in
# a temporary git worktree) and at the working tree, then compares the two
# with femtobench-ab in one process (docs/ab.md).
#
#   tools/ab_git.sh [-b BASE] [-t TARGET] [-B BUILD_DIR] [-- femtobench-ab options]
#
#   -b BASE     the ref to compare against (default: origin/main if it
#               exists, else main)
#   -t TARGET   the CMake target of the plugin (femtobench_add_plugin;
#               default: femtobench-demo-plugin, femtobench's demo suite)
#   -B DIR      the build directory of the working tree (default: build-ab)
#   -k          keep the base worktree and its build (in $TMPDIR)
# Everything after -- goes to femtobench-ab (-output_md=..., -fail_on_slower).
# CMAKE_ARGS (environment) is passed to both configure steps. femtobench-ab
# is the working tree's own build unless FEMTOBENCH_AB names another.
# Exit status: femtobench-ab's (0; 1 a benchmark failed; 2 bad input; 3
# with -fail_on_slower when a benchmark is slower), or 2 when a build fails.
set -euo pipefail

base=""
target=femtobench-demo-plugin
build="build-ab"
keep=0
while [ $# -gt 0 ]; do
    case $1 in
    -b) base=$2; shift 2 ;;
    -t) target=$2; shift 2 ;;
    -B) build=$2; shift 2 ;;
    -k) keep=1; shift ;;
    --) shift; break ;;
    -h|-help|--help) sed -n '3,21p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "femtobench: error: $1: unknown option (see -h)" >&2; exit 2 ;;
    esac
done

root=$(git rev-parse --show-toplevel)
if [ -z "$base" ]; then
    if git -C "$root" rev-parse -q --verify origin/main >/dev/null; then base=origin/main; else base=main; fi
fi
git -C "$root" rev-parse -q --verify "$base^{commit}" >/dev/null ||
    { echo "femtobench: error: -b $base: not a commit in $root" >&2; exit 2; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/fb-ab-git.XXXXXX")
# shellcheck disable=SC2317 # called by the EXIT trap
cleanup() {
    if [ "$keep" = 1 ]; then
        echo "kept: $tmp" >&2
    else
        git -C "$root" worktree remove --force "$tmp/base" >/dev/null 2>&1 || true
        rm -rf "$tmp"
    fi
}
trap cleanup EXIT

# CMAKE_ARGS is meant to split into arguments
# shellcheck disable=SC2086
configure_build() { # $1 = source, $2 = build dir, $3... = targets
    local src=$1 dir=$2
    shift 2
    mkdir -p "$dir"
    if ! cmake -S "$src" -B "$dir" -DCMAKE_BUILD_TYPE=Release -DFEMTOBENCH_BUILD_TESTS=OFF \
        ${CMAKE_ARGS:-} >"$dir/ab_git.log" 2>&1 ||
        ! cmake --build "$dir" --target "$@" >>"$dir/ab_git.log" 2>&1; then
        cat "$dir/ab_git.log" >&2
        echo "femtobench: error: the build in $dir failed" >&2
        exit 2
    fi
}

plugin_of() { # the plugin file a build made for $target
    find "$1" -name "$target.so" -type f | head -n 1
}

echo "base: $(git -C "$root" rev-parse --short "$base") ($base), new: the working tree" >&2
git -C "$root" worktree add --detach "$tmp/base" "$base" >/dev/null 2>&1 ||
    { echo "femtobench: error: git worktree add $base failed" >&2; exit 2; }
configure_build "$tmp/base" "$tmp/base-build" "$target"
case $build in /*) ;; *) build=$root/$build ;; esac
mkdir -p "$build"
ab=${FEMTOBENCH_AB:-}
if [ -n "$ab" ]; then
    configure_build "$root" "$build" "$target"
else
    configure_build "$root" "$build" "$target" femtobench-ab
    ab=$build/femtobench-ab
fi
old=$(plugin_of "$tmp/base-build")
new=$(plugin_of "$build")
[ -n "$old" ] || { echo "femtobench: error: $base has no plugin target '$target'" >&2; exit 2; }
[ -n "$new" ] || { echo "femtobench: error: no plugin target '$target'" >&2; exit 2; }
set +e
"$ab" "$old" "$new" "$@"
rc=$?
set -e
exit $rc
