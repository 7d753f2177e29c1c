#!/bin/bash
# What gocryptfs's streaming read costs: fresh-mount 1 GiB reads (dd bs=128K, page cache dropped),
# printing wall seconds, gocryptfs's own CPU seconds and the whole machine's busy CPU seconds
# (/proc/stat) during each. Run as root (drop_caches) with gocryptfs installed; on /dev/shm.
#
#   frontend-fuse/bench/gocryptfs-read-cpu.sh [ROUNDS=3]
set -euo pipefail
R=${1:-3}
TICK=$(getconf CLK_TCK)
W=$(mktemp -d /dev/shm/coffer-gocryptfs-cpu.XXXXXX)
trap 'fusermount -u "$W/mnt" 2>/dev/null || true; rm -rf "$W"' EXIT
mkdir -p "$W/c" "$W/mnt"; printf 'gocryptfs-cpu passphrase\n' > "$W/pass"
gocryptfs -q -init -passfile "$W/pass" "$W/c" > /dev/null 2>&1
gocryptfs -q -passfile "$W/pass" "$W/c" "$W/mnt" 2> /dev/null
dd if=/dev/zero of="$W/mnt/s" bs=128K count=8192 conv=fsync status=none
busy() { awk '/^cpu /{print $2+$3+$4+$6+$7+$8}' /proc/stat; }
for _ in $(seq "$R"); do
  fusermount -u "$W/mnt"; gocryptfs -q -passfile "$W/pass" "$W/c" "$W/mnt" 2> /dev/null
  P=$(pgrep -f "gocryptfs .*$W/c" | head -1)
  sync; echo 3 > /proc/sys/vm/drop_caches
  a=$(awk '{print $14+$15}' "/proc/$P/stat"); s0=$(busy); t0=$(date +%s.%N)
  dd if="$W/mnt/s" of=/dev/null bs=128K status=none
  t1=$(date +%s.%N); b=$(awk '{print $14+$15}' "/proc/$P/stat"); s1=$(busy)
  echo "read $(printf %.3f "$(echo "$t1 - $t0" | bc)") s, gocryptfs $(echo "scale=2; ($b - $a) / $TICK" | bc) CPU-s, machine busy $(echo "scale=2; ($s1 - $s0) / $TICK" | bc) CPU-s"
done
