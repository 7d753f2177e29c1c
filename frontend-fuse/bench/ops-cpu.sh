#!/bin/bash
# Single file operations on warm mounts side by side (ops-cpu.py): wall time and the file system
# process's CPU per operation, for coffer builds (NAME=LAUNCHER) and securefs (NAME=securefs). Each
# mount gets two warm-up passes, then ROUNDS rounds alternating the mounts. OPS picks operations
# (default: all of ops-cpu.py's). Run as root (or a user who can mount); on /dev/shm. SPREAD=K spreads the names over K subfolders (ops-cpu.py).
#
#   [OPS="missing create write1"] [SPREAD=K] frontend-fuse/bench/ops-cpu.sh ROUNDS N NAME=LAUNCHER|securefs ...
set -euo pipefail
if [ $# -lt 3 ]; then
  echo "usage: $0 ROUNDS N NAME=LAUNCHER|securefs..." >&2; exit 2
fi
R=$1; N=$2; shift 2
HERE=$(dirname "$(readlink -f "$0")")
W=$(mktemp -d /dev/shm/coffer-ops-cpu.XXXXXX); PIDS=()
trap 'for p in "${PIDS[@]}"; do kill -TERM "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done
      for m in "$W"/m-*; do fusermount -u -z "$m" 2>/dev/null || true; done; rm -rf "$W"' EXIT
PASS='ops-cpu passphrase'; printf '%s\n' "$PASS" > "$W/pass"
declare -A SERVER
for a in "$@"; do
  n=${a%%=*}; l=${a#*=}; m="$W/m-$n"; mkdir -p "$m" "$W/c-$n"
  if [ "$l" = securefs ]; then
    securefs create --pass "$PASS" "$W/c-$n" > /dev/null 2>&1
    securefs mount -b --pass "$PASS" "$W/c-$n" "$m" > /dev/null 2>&1
    for _ in $(seq 100); do mountpoint -q "$m" && break; sleep 0.1; done
    SERVER[$n]=$(pgrep -f "securefs mount -b --pass $PASS $W/c-$n" | head -1)
  else
    rmdir "$W/c-$n"; "$l" create "$W/c-$n" --scrypt-n 16384 --passphrase-file "$W/pass" > /dev/null
    "$l" mount "$W/c-$n" "$m" --passphrase-file "$W/pass" > /dev/null 2>&1 & PIDS+=($!)
    for _ in $(seq 300); do mountpoint -q "$m" && break; sleep 0.1; done
    SERVER[$n]=$! # the launcher execs java
  fi
  mountpoint -q "$m" || { echo "$n: not mounted" >&2; exit 1; }
done
pass() {
  for a in "$@"; do
    n=${a%%=*}
    /usr/bin/python3 "$HERE/ops-cpu.py" "$W/m-$n/d" "$N" "${SERVER[$n]}" "$n" ${OPS:-}
    rm -rf "$W/m-$n/d"
  done
}
pass "$@" > /dev/null; pass "$@" > /dev/null
for _ in $(seq "$R"); do pass "$@"; done
