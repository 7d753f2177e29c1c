#!/bin/bash
# Streaming writes of 1 GiB (dd bs=128K conv=fsync, fsbench's) repeated in one fresh mount: how much
# slower the new JVM's first write is than the next ones. Per write: wall seconds, the mount JVM's
# CPU seconds and its compiler threads' share. Run as root (drop_caches); on /dev/shm.
#
#   frontend-fuse/bench/write-repeat.sh ROUNDS WRITES LAUNCHER [COFFER_JAVA_OPTS for the mount]
set -euo pipefail
if [ $# -lt 3 ]; then
  echo "usage: $0 ROUNDS WRITES LAUNCHER [COFFER_JAVA_OPTS]" >&2; exit 2
fi
R=$1; N=$2; L=$3; export COFFER_JAVA_OPTS="${4:-${COFFER_JAVA_OPTS:-}}"
TICK=$(getconf CLK_TCK)
. "$(dirname "$0")/mount-lib.sh"
bench_workdir write-repeat
"$L" create "$W/v" --scrypt-n 16384 --passphrase-file "$W/pass" > /dev/null
for r in $(seq "$R"); do
  mount_vault "$L" "$W/v" "$W/mnt"
  line="round $r:"
  for i in $(seq "$N"); do
    sync; echo 3 > /proc/sys/vm/drop_caches
    a=$(jvm_ticks); j=$(jit_ticks); t0=$(date +%s.%N)
    dd if=/dev/zero of="$W/mnt/s" bs=128K count=8192 conv=fsync status=none
    t1=$(date +%s.%N); b=$(jvm_ticks); k=$(jit_ticks)
    rm -f "$W/mnt/s"
    line="$line $(printf %.2f "$(echo "$t1 - $t0" | bc)") s [$(echo "scale=2; ($b - $a) / $TICK" | bc), JIT $(echo "scale=2; ($k - $j) / $TICK" | bc)];"
  done
  unmount_vault
  echo "$line"
done
