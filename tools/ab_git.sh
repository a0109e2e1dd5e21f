#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# femtobench-ab-git: did my change make it slower? Builds a suite's plugin
# target (femtobench_add_plugin) at a base git ref and at the working tree,
# both outside the project's tree, and compares the two with femtobench-ab
# in one process (docs/ab.md). Installed as bin/femtobench-ab-git
# (cmake/install.cmake configures FB_BIN_TO_PREFIX below); in femtobench's
# own tree it runs as tools/ab_git.sh. The help text (usage) says what it
# needs and does.
set -euo pipefail

me=${0##*/}
# The path from the install's bin directory to its prefix, written by the
# install; left as it is in the source tree (then nothing is installed).
bin_to_prefix='@FB_BIN_TO_PREFIX@'

usage() {
    cat <<EOF
usage: $me [-b BASE] [-t TARGET] [-B DIR] [-k] [-- femtobench-ab options]

Builds the plugin target TARGET of the CMake project at the top of the current
git repository twice, at the commit BASE and from the working tree (uncommitted
changes included), and compares the two builds in one process with
femtobench-ab (docs/ab.md).

  -b BASE     the ref to compare against (default: origin/HEAD, origin/main,
              main, origin/master or master, the first that exists)
  -t TARGET   the plugin target, made by femtobench_add_plugin(TARGET ...)
              (default: the one such call in the project's CMake files;
              femtobench-demo-plugin in femtobench's own tree)
  -B DIR      the build directory of the working tree, relative to the current
              directory (default:
              \${XDG_CACHE_HOME:-~/.cache}/femtobench-ab-git/<project>-<hash>/new,
              kept between runs so that rebuilds are incremental)
  -k          keep the base's temporary worktree and build (in \${TMPDIR:-/tmp})
  -h, --help  print this help and exit
Everything after -- goes to femtobench-ab (-filter=, -output_md=,
-output_json=, -fail_on_slower; femtobench-ab -help lists them).

It needs:
  - git and cmake (and a C compiler) on PATH;
  - to be run inside a git repository whose top level holds the project's
    CMakeLists.txt, with the base ref present (fetch-depth: 0 in CI);
  - a plugin target made there by femtobench_add_plugin (docs/ab.md);
  - femtobench installed (find_package(femtobench CONFIG): this command passes
    its own install prefix in CMAKE_PREFIX_PATH) or vendored
    (add_subdirectory / FetchContent);
  - femtobench-ab: FEMTOBENCH_AB if set, else the one next to this command,
    else the first on PATH, else the project's own femtobench-ab target (a
    vendored femtobench); in femtobench's own tree, the working tree's build.
The base is checked out in a temporary git worktree (\${TMPDIR:-/tmp}) and built
there; nothing is written inside the project's tree. CMAKE_ARGS (environment)
is added to both configure steps (after this command's -D options).

Exit status: femtobench-ab's (0; 1 a benchmark failed; 2 bad input; 3 with
-fail_on_slower when a benchmark is slower), or 2 when this command's input is
wrong or a configure or build fails (the end of its log is printed).
EOF
}

die() { # one line on stderr, exit status 2 (the runner's convention)
    printf 'femtobench: error: %s\n' "$*" >&2
    exit 2
}
say() { printf '%s: %s\n' "$me" "$*" >&2; }

base=""
target=""
build=""
keep=0
while [ $# -gt 0 ]; do
    case $1 in
    -b | -t | -B)
        if [ $# -lt 2 ] || [ -z "$2" ]; then die "$1: needs a value (see -h)"; fi
        case $1 in -b) base=$2 ;; -t) target=$2 ;; -B) build=$2 ;; esac
        shift 2 ;;
    -k) keep=1; shift ;;
    --) shift; break ;;
    -h | -help | --help) usage; exit 0 ;;
    *) die "$1: unknown option (see -h)" ;;
    esac
done

# --- everything that can be checked before building, fast -------------------
command -v git >/dev/null || die "git not found on PATH"
command -v cmake >/dev/null ||
    die "cmake not found on PATH: $me configures and builds the project with CMake"
root=$(git rev-parse --show-toplevel 2>/dev/null) ||
    die "$PWD: not inside a git repository (run $me in the project's work tree; see -h)"
[ -f "$root/CMakeLists.txt" ] ||
    die "$root: no CMakeLists.txt at the top of the git repository ($me builds the CMake project there; see -h)"

if [ -z "$base" ]; then
    for ref in origin/HEAD origin/main main origin/master master; do
        if git -C "$root" rev-parse -q --verify "$ref^{commit}" >/dev/null; then
            base=$ref
            break
        fi
    done
    [ -n "$base" ] ||
        die "no base ref: none of origin/HEAD, origin/main, main, origin/master, master exists in $root (give one with -b)"
fi
base_sha=$(git -C "$root" rev-parse -q --verify "$base^{commit}") ||
    die "-b $base: not a commit in $root"
base_short=$(git -C "$root" rev-parse --short "$base_sha")

# femtobench's own tree: the demo suite is the default target, and
# femtobench-ab is built from the working tree (the plugins carry the library
# being changed, and femtobench-ab accepts only its own MAJOR.MINOR).
own_tree=0
if grep -Eq '^[[:space:]]*project[[:space:]]*\([[:space:]]*femtobench([[:space:])]|$)' "$root/CMakeLists.txt"; then
    own_tree=1
fi

# The plugin targets the project's CMake files name, from the working tree
# (tracked and untracked files; a vendored femtobench's demo plugin is built
# only in femtobench's own tree).
plugin_targets() {
    git -C "$root" grep --untracked -h -I -o -E \
        'femtobench_add_plugin[[:space:]]*\([[:space:]]*"?[A-Za-z0-9_.+-]+' \
        -- '*CMakeLists.txt' '*.cmake' 2>/dev/null |
        sed -E 's/.*\([[:space:]]*"?//' |
        { if [ "$own_tree" = 1 ]; then cat; else grep -vx 'femtobench-demo-plugin'; fi; } |
        sort -u || true
}
if [ -z "$target" ]; then
    if [ "$own_tree" = 1 ]; then
        target=femtobench-demo-plugin
    else
        candidates=$(plugin_targets)
        n=$(printf '%s' "$candidates" | grep -c . || true)
        [ "$n" != 0 ] ||
            die "no -t TARGET given, and no femtobench_add_plugin(<target> ...) in $root's CMake files (give the plugin target with -t)"
        [ "$n" = 1 ] ||
            die "no -t TARGET given, and $n plugin targets: $(printf '%s' "$candidates" | paste -sd ' ' -) (choose one with -t)"
        target=$candidates
    fi
fi

# femtobench-ab, and the install prefix to hand to find_package.
here=$(dirname "$(readlink -f "${BASH_SOURCE[0]}" 2>/dev/null || printf '%s' "${BASH_SOURCE[0]}")")
prefix=""
case $bin_to_prefix in
@*) ;;                                # the source tree's copy: not installed
/*) prefix=$bin_to_prefix ;;
*) prefix=$(cd "$here/$bin_to_prefix" 2>/dev/null && pwd) || prefix="" ;;
esac
ab=${FEMTOBENCH_AB:-}
ab_target=""                           # set when femtobench-ab is built here
if [ -n "$ab" ]; then
    [ -x "$ab" ] || ab=$(command -v "$ab" 2>/dev/null) ||
        die "FEMTOBENCH_AB=${FEMTOBENCH_AB}: not an executable"
elif [ "$own_tree" = 1 ]; then
    ab_target=femtobench-ab
elif [ -x "$here/femtobench-ab" ]; then
    ab=$here/femtobench-ab
elif command -v femtobench-ab >/dev/null; then
    ab=$(command -v femtobench-ab)
else
    ab_target=femtobench-ab            # the project's, if it vendors femtobench
fi

# Where the builds go: the working tree's in a cache directory named after
# the project's path (kept: the next run rebuilds only what changed), the
# base's in a temporary directory with its worktree. Never in the project.
cache=${XDG_CACHE_HOME:-${HOME:-}/.cache}
case $cache in /*) ;; *) cache=${TMPDIR:-/tmp}/femtobench-ab-git-cache ;; esac
hash=$(printf '%s' "$root" | cksum | cut -d ' ' -f 1)
work=$cache/femtobench-ab-git/$(basename "$root")-$hash
if [ -z "$build" ]; then
    build=$work/new
else
    case $build in /*) ;; *) build=$PWD/$build ;; esac
fi
mkdir -p "$work" "$build" || die "cannot create the build directory $build"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/fb-ab-git.XXXXXX") || die "cannot create a temporary directory"
worktree_added=0
# shellcheck disable=SC2317 # called by the EXIT trap
cleanup() {
    if [ "$keep" = 1 ]; then
        say "kept: $tmp (remove with: git -C '$root' worktree remove --force '$tmp/src'; rm -rf '$tmp')"
        return
    fi
    if [ "$worktree_added" = 1 ]; then
        git -C "$root" worktree remove --force "$tmp/src" >/dev/null 2>&1 || true
    fi
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

configure_args=(-DCMAKE_BUILD_TYPE=Release)
[ "$own_tree" = 0 ] || configure_args+=(-DFEMTOBENCH_BUILD_TESTS=OFF -DFEMTOBENCH_BUILD_EXAMPLES=OFF)
[ -z "$prefix" ] || configure_args+=("-DCMAKE_PREFIX_PATH=$prefix")
jobs=${CMAKE_BUILD_PARALLEL_LEVEL:-$(nproc 2>/dev/null || echo 2)}

# A failed step: the end of its log, then the one error line.
failed() { # $1 = what, $2 = log
    say "$1 failed; the end of $2:"
    tail -n 40 "$2" >&2
    if grep -q 'femtobench-config.cmake' "$2" && grep -qi 'could not find' "$2"; then
        die "$1 failed: CMake did not find the femtobench package (install femtobench, or add -DCMAKE_PREFIX_PATH=<its prefix> to CMAKE_ARGS)"
    fi
    die "$1 failed (the whole log: $2)"
}
# CMAKE_ARGS is meant to split into arguments
# shellcheck disable=SC2086
configure() { # $1 = side, $2 = source, $3 = build dir, $4 = log
    say "configuring $1 ..."
    cmake -S "$2" -B "$3" "${configure_args[@]}" ${CMAKE_ARGS:-} >"$4" 2>&1 || failed "configuring $1" "$4"
}
has_target() { # $1 = build dir, $2 = target; unknown (true) when the generator lists none
    local list
    list=$(cmake --build "$1" --target help 2>/dev/null) || return 0
    awk -v t="$2" '{ for (i = 1; i <= NF; i++) { f = $i; sub(/:$/, "", f); if (f == t) found = 1 } }
        END { exit !found }' <<<"$list"
}
build_targets() { # $1 = side, $2 = build dir, $3 = log, $4... = targets
    local side=$1 dir=$2 log=$3 t0=$SECONDS
    shift 3
    say "building $side ($*) ..."
    cmake --build "$dir" --config Release --parallel "$jobs" --target "$@" >>"$log" 2>&1 ||
        failed "building $side" "$log"
    say "built $side in $((SECONDS - t0)) s"
}
list_plugins() {
    local c
    c=$(plugin_targets | paste -sd ' ' -)
    printf '%s' "${c:-none found}"
}

say "base $base_short ($base), new: the working tree of $root; target $target"
say "builds: $tmp (base), $build (new)"
configure new "$root" "$build" "$work/new.log"
has_target "$build" "$target" ||
    die "no target '$target' in $root (femtobench_add_plugin targets: $(list_plugins); give one with -t)"
if [ -n "$ab_target" ] && [ "$own_tree" = 0 ] && ! has_target "$build" femtobench-ab; then
    die "femtobench-ab not found: not next to $me ($here), not on PATH, and $root builds none (install femtobench, or set FEMTOBENCH_AB)"
fi

say "checking out base $base_short in a temporary worktree ..."
git -C "$root" worktree add --detach "$tmp/src" "$base_sha" >"$tmp/worktree.log" 2>&1 ||
    { tail -n 5 "$tmp/worktree.log" >&2; die "git worktree add $base failed"; }
worktree_added=1
if [ -f "$tmp/src/.gitmodules" ]; then
    git -C "$tmp/src" submodule update --init --recursive --quiet >>"$tmp/worktree.log" 2>&1 ||
        { tail -n 5 "$tmp/worktree.log" >&2; die "the submodules of $base_short could not be checked out"; }
fi
[ -f "$tmp/src/CMakeLists.txt" ] || die "$base ($base_short) has no CMakeLists.txt at the top"
configure "base $base_short" "$tmp/src" "$tmp/build" "$work/base.log"
has_target "$tmp/build" "$target" || die "$base ($base_short) has no target '$target'"

# the layout variants beside each plugin (femtobench_add_plugin's
# <target>_layouts), where the side's femtobench makes them
layouts_new=() layouts_base=()
has_target "$build" "${target}_layouts" && layouts_new=("${target}_layouts")
has_target "$tmp/build" "${target}_layouts" && layouts_base=("${target}_layouts")
build_targets new "$build" "$work/new.log" "$target" "${layouts_new[@]}" ${ab_target:+"$ab_target"}
build_targets "base $base_short" "$tmp/build" "$work/base.log" "$target" "${layouts_base[@]}"
new=$(find "$build" -name "$target.so" -type f 2>/dev/null | head -n 1)
old=$(find "$tmp/build" -name "$target.so" -type f 2>/dev/null | head -n 1)
[ -n "$old" ] || die "$base ($base_short): target '$target' made no $target.so (is it a femtobench_add_plugin target?)"
[ -n "$new" ] || die "target '$target' made no $target.so (is it a femtobench_add_plugin target?)"
if [ -n "$ab_target" ]; then
    ab=$(find "$build" -name femtobench-ab -type f -perm -u+x 2>/dev/null | head -n 1)
    [ -n "$ab" ] || die "the build of femtobench-ab made no program in $build"
fi

say "comparing with $ab"
set +e
"$ab" "$old" "$new" "$@"
rc=$?
set -e
exit $rc
