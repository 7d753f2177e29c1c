#!/bin/bash
# A fresh mount's first streaming read, builds interleaved round by round: per round and build the
# seconds until the mount point appeared and the mount JVM's CPU seconds by then, then (page cache
# dropped) `dd bs=128K` of 1 GiB: its seconds, the mount JVM's CPU seconds during it, the compiler
# threads' share of those (C1 + C2), and the CPU ticks the hypervisor stole meanwhile (/proc/stat:
# a round with many was taken on a busy host). Run as root; on /dev/shm.
#
#   frontend-fuse/bench/fresh-read.sh ROUNDS NAME=LAUNCHER [NAME=LAUNCHER ...]
#
# The mounts run with -XX:-UseDynamicNumberOfCompilerThreads, so that no compiler thread ends (and
# takes its CPU time with it) during the read.
set -euo pipefail
if [ $# -lt 2 ]; then
  echo "usage: $0 ROUNDS NAME=LAUNCHER..." >&2; exit 2
fi
R=$1; shift
TICK=$(getconf CLK_TCK)
export COFFER_JAVA_OPTS="-XX:-UseDynamicNumberOfCompilerThreads ${COFFER_JAVA_OPTS:-}"
. "$(dirname "$0")/mount-lib.sh"
bench_workdir fresh-read
first=${1#*=}
"$first" create "$W/c" --scrypt-n 16384 --passphrase-file "$W/pass" > /dev/null
steal() { awk 'NR == 1 {print $9}' /proc/stat; }
now() { date +%s.%N; }
secs() { echo "scale=2; ($1) / $TICK" | bc; }
mount_vault "$first" "$W/c" "$W/mnt"; dd if=/dev/zero of="$W/mnt/big" bs=128K count=8192 conv=fsync status=none; unmount_vault
for _ in $(seq "$R"); do
  for v in "$@"; do
    name=${v%%=*}; launcher=${v#*=}
    m0=$(now); mount_vault "$launcher" "$W/c" "$W/mnt"; m1=$(now); cm=$(jvm_ticks)
    sync; echo 3 > /proc/sys/vm/drop_caches
    st0=$(steal); j0=$(jit_ticks); c0=$(jvm_ticks); s=$(now)
    dd if="$W/mnt/big" of=/dev/null bs=128K status=none
    e=$(now); c1=$(jvm_ticks); j1=$(jit_ticks); st1=$(steal)
    printf "%-8s mount %.2f s (%s CPU-s) | read %.2f s, %s CPU-s, JIT %s, steal %d ticks\n" "$name" \
      "$(echo "$m1 - $m0" | bc)" "$(secs "$cm")" "$(echo "$e - $s" | bc)" "$(secs "$c1 - $c0")" \
      "$(secs "$j1 - $j0")" $((st1 - st0))
    unmount_vault
  done
done
