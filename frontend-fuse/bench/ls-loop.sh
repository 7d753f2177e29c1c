#!/bin/bash
# `ls -l` of one folder of N empty files, in a loop, through warm mounts of several builds side by
# side: prints, round by round, each build's wall time per `ls -l` and its mount JVM's CPU time per
# `ls -l` (utime + stime from /proc). Run as root or as a user who can mount; works on /dev/shm.
#
#   frontend-fuse/bench/ls-loop.sh N LAUNCHER [LAUNCHER...]
#
# Each build gets its own vault and mount; every folder is listed 150 times first (JIT), then each
# round lists each build's folder 50 times.
set -euo pipefail
if [ $# -lt 2 ]; then
  echo "usage: $0 N LAUNCHER [LAUNCHER...]" >&2; exit 2
fi
N=$1; shift
W=$(mktemp -d /dev/shm/coffer-ls-loop.XXXXXX)
PIDS=()
cleanup() {
  for p in "${PIDS[@]}"; do kill -TERM "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done
  for m in "$W"/m*; do fusermount -u -z "$m" 2>/dev/null || true; done
  rm -rf "$W"
}
trap cleanup EXIT
printf 'ls-loop passphrase\n' > "$W/pass"
i=0
for L in "$@"; do
  mkdir -p "$W/m$i"
  "$L" create "$W/c$i" --scrypt-n 16384 --passphrase-file "$W/pass" > /dev/null
  "$L" mount "$W/c$i" "$W/m$i" --passphrase-file "$W/pass" > /dev/null 2>&1 & PIDS+=($!)
  for _ in $(seq 300); do mountpoint -q "$W/m$i" && break; sleep 0.05; done
  mountpoint -q "$W/m$i" || { echo "$L: not mounted" >&2; exit 1; }
  mkdir "$W/m$i/many"
  (cd "$W/m$i/many" && k=1 && while [ $k -le "$N" ]; do : > "f$k"; k=$((k + 1)); done)
  for _ in $(seq 150); do ls -l "$W/m$i/many" > /dev/null; done
  i=$((i + 1))
done
cpu() { awk '{print $14 + $15}' "/proc/$1/stat"; }
tck=$(getconf CLK_TCK)
for r in 1 2 3; do
  for j in $(seq 0 $((i - 1))); do
    c0=$(cpu "${PIDS[$j]}"); s=$(date +%s%N)
    for _ in $(seq 50); do ls -l "$W/m$j/many" > /dev/null; done
    e=$(date +%s%N); c1=$(cpu "${PIDS[$j]}")
    echo "round $r build $j: $(( (e - s) / 50000 )) us per ls -l, mount CPU $(( (c1 - c0) * 1000000 / tck / 50 )) us per ls -l"
  done
done
