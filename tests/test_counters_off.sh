#!/usr/bin/env bash
# fb_set_performance_counters(b, false) turns the counters off completely: no
# perf_event_open and no perf ioctl at all, while "on" makes both (software
# events work even where hardware counters do not).
set -u
prog="$FB_BUILD_DIR/tests/suite_counters"
command -v strace >/dev/null || { echo "SKIP: strace is not installed"; exit 77; }
trace() { strace -f -qq -e trace=perf_event_open,ioctl -o "$tmp/$1.trace" "$prog" "$1" >"$tmp/$1.out" 2>&1; }
strace -qq -e trace=none true 2>/dev/null || { echo "SKIP: strace cannot trace here"; exit 77; }
# LeakSanitizer cannot run under ptrace (the sanitizer CI run)
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
trace off || { echo "FAIL: the program failed with counters off"; cat "$tmp/off.out"; exit 1; }
trace on || { echo "FAIL: the program failed with counters on"; cat "$tmp/on.out"; exit 1; }
off=$(grep -c -E 'perf_event_open|PERF_EVENT_IOC' "$tmp/off.trace")
on=$(grep -c -E 'perf_event_open|PERF_EVENT_IOC' "$tmp/on.trace")
opened=$(grep -c 'perf_event_open(.*= [0-9]' "$tmp/on.trace")
echo "perf syscalls: off=$off on=$on (events opened: $opened)"
grep -q "measured: no" "$tmp/off.out" || { echo "FAIL: counters off still measured"; exit 1; }
[ "$off" -eq 0 ] || { echo "FAIL: $off perf syscalls with counters off"; exit 1; }
if grep -q "perf build: no" "$tmp/on.out"; then # e.g. musl-gcc: no <linux/perf_event.h>
  [ "$on" -eq 0 ] || { echo "FAIL: $on perf syscalls in a build without counters"; exit 1; }
  echo "ok (a build without perf counters: no perf syscall either way)"
  exit 0
fi
[ "$on" -gt 0 ] || { echo "FAIL: no perf syscall with counters on"; exit 1; }
if [ "$opened" -gt 0 ]; then
  grep -q "measured: yes" "$tmp/on.out" || { echo "FAIL: counters on, none measured"; exit 1; }
  # per epoch: enable/disable ioctls
  ioctls=$(grep -c 'PERF_EVENT_IOC_ENABLE' "$tmp/on.trace")
  [ "$ioctls" -ge 11 ] || { echo "FAIL: $ioctls enables for 11 epochs"; exit 1; }
fi
echo ok
