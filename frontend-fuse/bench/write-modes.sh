#!/bin/bash
# Fresh-mount streaming write of 1 GiB (dd bs=128K conv=fsync, fsbench's) into a SIV_XTSHMAC vault
# and a SIV_XTS vault, interleaved round by round: what the default mode's HMAC costs the write.
# Prints wall seconds and the mount JVM's CPU seconds per mode. Run as root (drop_caches); on /dev/shm.
#
#   frontend-fuse/bench/write-modes.sh ROUNDS LAUNCHER
set -euo pipefail
if [ $# -ne 2 ]; then
  echo "usage: $0 ROUNDS LAUNCHER" >&2; exit 2
fi
R=$1; L=$2
TICK=$(getconf CLK_TCK)
. "$(dirname "$0")/mount-lib.sh"
bench_workdir write-modes
MODES="SIV_XTSHMAC SIV_XTS"
for m in $MODES; do
  mkdir -p "$W/$m.mnt"
  "$L" create "$W/$m" --combo "$m" --scrypt-n 16384 --passphrase-file "$W/pass" > /dev/null
done
for r in $(seq "$R"); do
  line="round $r:"
  for m in $MODES; do
    mount_vault "$L" "$W/$m" "$W/$m.mnt"
    sync; echo 3 > /proc/sys/vm/drop_caches
    a=$(awk '{print $14+$15}' "/proc/$P/stat"); t0=$(date +%s.%N)
    dd if=/dev/zero of="$W/$m.mnt/s" bs=128K count=8192 conv=fsync status=none
    t1=$(date +%s.%N); b=$(awk '{print $14+$15}' "/proc/$P/stat")
    rm -f "$W/$m.mnt/s"
    unmount_vault
    line="$line $m $(printf %.3f "$(echo "$t1 - $t0" | bc)") s [$(echo "scale=2; ($b - $a) / $TICK" | bc) CPU-s];"
  done
  echo "$line"
done
