#!/bin/bash
# How a streaming read speeds up as the mount's JVM warms up: each round mounts afresh, then reads
# the same 1 GiB N times (page cache dropped before each), printing the seconds of each read and
# the CPU seconds the JIT compiler threads (C1, C2) spent during it. Run as root (drop_caches); on /dev/shm.
#
#   frontend-fuse/bench/read-repeat.sh ROUNDS LAUNCHER [N=4] [PAUSE=0]
#
# PAUSE: seconds to wait after the mount appears before the first read (0: fsbench's timing).
# The mount runs with -XX:-UseDynamicNumberOfCompilerThreads, so that no compiler thread ends (and
# takes its CPU time with it) between two samples.
set -euo pipefail
if [ $# -lt 2 ]; then
  echo "usage: $0 ROUNDS LAUNCHER [N=4] [PAUSE=0]" >&2; exit 2
fi
R=$1; L=$2; N=${3:-4}; PAUSE=${4:-0}
TICK=$(getconf CLK_TCK)
export COFFER_JAVA_OPTS="-XX:-UseDynamicNumberOfCompilerThreads ${COFFER_JAVA_OPTS:-}"
. "$(dirname "$0")/mount-lib.sh"
bench_workdir read-repeat
"$L" create "$W/c" --scrypt-n 16384 --passphrase-file "$W/pass" > /dev/null
mnt() { mount_vault "$L" "$W/c" "$W/mnt"; }
umnt() { unmount_vault; }
mnt; dd if=/dev/zero of="$W/mnt/big" bs=128K count=8192 conv=fsync status=none; umnt
for _ in $(seq "$R"); do
  mnt; sleep "$PAUSE"; line=""
  for _ in $(seq "$N"); do
    sync; echo 3 > /proc/sys/vm/drop_caches
    j0=$(jit_ticks); s=$(date +%s.%N); dd if="$W/mnt/big" of=/dev/null bs=128K status=none; e=$(date +%s.%N); j1=$(jit_ticks)
    line="$line $(printf '%.2f s (JIT %.2f)' "$(echo "$e-$s" | bc)" "$(echo "($j1-$j0)/$TICK" | bc -l)")"
  done
  umnt; echo "reads:$line"
done
