#!/usr/bin/env bash
# Every number femtobench prints or parses ignores the locale: a
# program that calls setlocale(LC_ALL, "") under de_DE.UTF-8 (decimal comma)
# still gets '.' in the table, the complexity fit, CSV and both JSON files,
# and its options take '.' (and refuse ','). The locale is generated with
# localedef into a temporary LOCPATH when the system lacks it (needs the
# `locales` package's source data; otherwise: skipped, exit 77).
set -u
build=${FB_BUILD_DIR:-build}
prog=$build/tests/suite_locale
[ -x "$prog" ] || { echo "SKIP: $prog is not built"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
loc=de_DE.UTF-8
if ! locale -a 2>/dev/null | grep -qix 'de_DE.utf-\?8'; then
    if command -v localedef >/dev/null && [ -f /usr/share/i18n/locales/de_DE ] &&
        localedef -i de_DE -f UTF-8 "$tmp/$loc" 2>/dev/null; then
        export LOCPATH=$tmp
    elif [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null &&
        apt-get install -y -qq locales >/dev/null 2>&1 &&
        localedef -i de_DE -f UTF-8 "$tmp/$loc" 2>/dev/null; then
        export LOCPATH=$tmp
    else
        echo "SKIP: no de_DE.UTF-8 locale and cannot generate one (apt-get install locales)"
        exit 77
    fi
fi
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
run() { LC_ALL=$loc FEMTOBENCH_SUPPRESS_WARNINGS=1 "$prog" "$@"; }

run -list >/dev/null 2>"$tmp/err"
grep -q "decimal point ','" "$tmp/err" || {
    echo "SKIP: $loc did not give a decimal comma: $(cat "$tmp/err")"
    exit 77
}

# the table (and the complexity fit) in the locale
run -filter=Bytes -min_time=0.5 >"$tmp/table" 2>"$tmp/err" || fail "-min_time=0.5: $(cat "$tmp/err")"
grep -q '`Bytes`' "$tmp/table" || fail "no Bytes row: $(cat "$tmp/table")"
grep -q ',,' "$tmp/table" && fail "corrupt grouping in the table: $(grep ',,' "$tmp/table")"
# every number cell: digits grouped by ',' in threes, '.' before the decimals
row=$(grep '`Bytes`' "$tmp/table")
IFS='|' read -r -a cells <<<"$row"
for c in "${cells[@]:1:${#cells[@]}-2}"; do
    c=${c// /}
    c=${c%\%}
    [ -z "$c" ] || [ "$c" = - ] || [[ $c =~ ^-?[0-9]{1,3}(,[0-9]{3})*(\.[0-9]+)?$ ]] ||
        fail "table cell '$c' is not in the C format: $row"
done
run -filter=Grow -asymptote=100,200.5,400 >"$tmp/cx" 2>"$tmp/err" || fail "-asymptote with '.': $(cat "$tmp/err")"
grep -Eq '^\| +[0-9.e+-]+ \| +[0-9]+\.[0-9]% \| O\(' "$tmp/cx" || fail "complexity fit: $(cat "$tmp/cx")"
grep -Eq '[0-9],[0-9]+%' "$tmp/cx" && fail "decimal comma in the fit: $(cat "$tmp/cx")"

# options with a decimal comma are refused, as in the C locale
run -filter=Bytes -min_time=0,5 >/dev/null 2>"$tmp/err"
[ $? = 2 ] && grep -q -- "-min_time=0,5" "$tmp/err" || fail "-min_time=0,5 accepted: $(cat "$tmp/err")"
run -filter=Bytes --benchmark_min_time=0.001s >/dev/null 2>"$tmp/err" || fail "--benchmark_min_time=0.001s: $(cat "$tmp/err")"

# the files parse with the C-locale parsers of Python
run -filter=Bytes -min_time=1.5 -output_csv="$tmp/r.csv" -output_json="$tmp/r.json" \
    -output_gbench="$tmp/r.gb.json" >/dev/null 2>"$tmp/err" || fail "files: $(cat "$tmp/err")"
py=$(command -v python3 || true)
if [ -n "$py" ]; then
    "$py" - "$tmp" <<'PY' || fail "the files do not parse as C-locale numbers"
import csv, json, sys, os
d = sys.argv[1]
rows = list(csv.DictReader(open(os.path.join(d, "r.csv"))))
assert float(rows[0]["median_ns_per_unit"]) > 0 and float(rows[0]["batch"]) == 1000, rows
j = json.load(open(os.path.join(d, "r.json")))
assert j["results"][0]["stats"]["elapsed"]["median"] > 0
g = json.load(open(os.path.join(d, "r.gb.json")))
b = g["benchmarks"][0]
assert b["real_time"] > 0 and b["bytes_per_second"] > 0, b
PY
fi
# -threshold takes '.' and refuses ',' like every other option
run -filter=Bytes -min_time=0.5 -baseline="$tmp/r.json" -threshold=5.5 >"$tmp/out" 2>"$tmp/err"
[ $? != 2 ] && grep -q 'threshold 5.5%' "$tmp/out" || fail "-threshold=5.5 under $loc: $(cat "$tmp/err" "$tmp/out")"
run -filter=Bytes -baseline="$tmp/r.json" -threshold=5,5 >/dev/null 2>"$tmp/err"
[ $? = 2 ] && grep -q -- "-threshold=5,5" "$tmp/err" || fail "-threshold=5,5 accepted under $loc: $(cat "$tmp/err")"

# a decimal point of two bytes (ps_AF: U+066B): a baseline written in the C
# format is read back, and the outputs keep '.'
ps=ps_AF.UTF-8
if ! locale -a 2>/dev/null | grep -qix 'ps_AF.utf-\?8'; then
    mkdir -p "$tmp/loc2"
    if command -v localedef >/dev/null && [ -f /usr/share/i18n/locales/ps_AF ] &&
        localedef -i ps_AF -f UTF-8 "$tmp/loc2/$ps" 2>/dev/null; then
        :
    else
        ps=
    fi
fi
if [ -n "$ps" ]; then
    psrun() { LOCPATH=$tmp/loc2 LC_ALL=$ps FEMTOBENCH_SUPPRESS_WARNINGS=1 "$prog" "$@"; }
    psrun -filter=Bytes -min_time=0.5 -baseline="$tmp/r.json" -threshold=5.5 \
        -output_csv="$tmp/ps.csv" >"$tmp/out" 2>"$tmp/err"
    [ $? != 2 ] && grep -q '`Bytes`' "$tmp/out" || fail "a baseline under $ps: $(cat "$tmp/err")"
    if [ -n "$py" ]; then
        "$py" -c "import csv,sys; r=list(csv.DictReader(open(sys.argv[1]))); float(r[0]['median_ns_per_unit'])" \
            "$tmp/ps.csv" || fail "CSV under $ps does not parse: $(head -3 "$tmp/ps.csv")"
    fi
else
    echo "note: no ps_AF locale data; the two-byte decimal point was not tried"
fi
[ $fails = 0 ] && echo ok
exit $((fails > 0))
