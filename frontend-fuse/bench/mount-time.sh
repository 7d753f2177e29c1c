#!/bin/bash
# How long `coffer mount` takes to make its mount point appear, builds interleaved round by round:
# from starting the launcher to `mountpoint` seeing the mount (scrypt N = 2^14, as fsbench), and
# the mount JVM's CPU ticks by then. Run as root; on /dev/shm.
#
#   frontend-fuse/bench/mount-time.sh ROUNDS NAME=LAUNCHER [NAME=LAUNCHER ...]
set -euo pipefail
if [ $# -lt 2 ]; then
  echo "usage: $0 ROUNDS NAME=LAUNCHER..." >&2; exit 2
fi
R=$1; shift
. "$(dirname "$0")/mount-lib.sh"
bench_workdir mount-time
first=${1#*=}
"$first" create "$W/c" --scrypt-n 16384 --passphrase-file "$W/pass" > /dev/null
for _ in $(seq "$R"); do
  for v in "$@"; do
    name=${v%%=*}; launcher=${v#*=}
    t0=$(date +%s.%N); mount_vault "$launcher" "$W/c" "$W/mnt"; t1=$(date +%s.%N)
    echo "$name $(echo "$t1 - $t0" | bc) $(jvm_ticks)"
    unmount_vault
  done
done | awk '{s[$1] = s[$1] " " sprintf("%.2f", $2); c[$1] = c[$1] " " $3; n[$1] = 1}
  END {for (k in n) print k ": seconds" s[k] " | CPU ticks" c[k]}'
