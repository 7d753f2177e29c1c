#!/bin/bash
# Fresh-mount streaming read of 1 GiB: coffer (LAUNCHER) against gocryptfs and securefs, interleaved
# round by round, so that a machine whose speed drifts (a VM) drifts for all three alike. Each round
# mounts each file system afresh, drops the page cache and times `dd bs=128K`; prints the seconds and
# coffer/gocryptfs. Run as root (drop_caches) with gocryptfs and securefs installed; works on /dev/shm.
#
#   frontend-fuse/bench/read-vs-peers.sh ROUNDS LAUNCHER
# COMBO=SIV_XTS ... makes the coffer vault in that content mode (default SIV_XTSHMAC).
set -euo pipefail
R=$1; L=$2
W=$(mktemp -d /dev/shm/coffer-rvg.XXXXXX); P=
trap 'if [ -n "$P" ]; then kill -TERM "$P" 2>/dev/null || true; wait "$P" 2>/dev/null || true; fi; fusermount -u "$W/g" 2>/dev/null || true; fusermount -u "$W/s" 2>/dev/null || true; rm -rf "$W"' EXIT
mkdir -p "$W/mnt" "$W/gc" "$W/g" "$W/sc" "$W/s"; printf 'rvg passphrase\n' > "$W/pass"
"$L" create "$W/c" --scrypt-n 16384 --combo "${COMBO:-SIV_XTSHMAC}" --passphrase-file "$W/pass" > /dev/null
gocryptfs -init -q -passfile "$W/pass" "$W/gc" > /dev/null 2>&1
securefs create --pass 'rvg passphrase' "$W/sc" > /dev/null 2>&1
cm() { "$L" mount "$W/c" "$W/mnt" --passphrase-file "$W/pass" > /dev/null 2>&1 & P=$!; for _ in $(seq 600); do mountpoint -q "$W/mnt" && return; sleep 0.05; done; exit 1; }
cu() { kill -TERM "$P"; wait "$P" || true; P=; }
gm() { gocryptfs -q -passfile "$W/pass" "$W/gc" "$W/g"; }
sm() { securefs mount -b --pass 'rvg passphrase' "$W/sc" "$W/s" > /dev/null 2>&1; for _ in $(seq 100); do mountpoint -q "$W/s" && return; sleep 0.05; done; }
t() { sync; echo 3 > /proc/sys/vm/drop_caches; s=$(date +%s.%N); dd if="$1" of=/dev/null bs=128K status=none; e=$(date +%s.%N); echo "$e-$s" | bc; }
cm; dd if=/dev/zero of="$W/mnt/big" bs=128K count=8192 conv=fsync status=none; cu
gm; dd if=/dev/zero of="$W/g/big" bs=128K count=8192 conv=fsync status=none; fusermount -u "$W/g"
sm; dd if=/dev/zero of="$W/s/big" bs=128K count=8192 conv=fsync status=none; fusermount -u "$W/s"; sleep 0.5
for _ in $(seq "$R"); do
  cm; c=$(t "$W/mnt/big"); cu
  gm; g=$(t "$W/g/big"); fusermount -u "$W/g"
  sm; sv=$(t "$W/s/big"); fusermount -u "$W/s"; sleep 0.3
  printf "coffer %.2f gocryptfs %.2f securefs %.2f ratio %.2f\n" "$c" "$g" "$sv" "$(echo "$c/$g" | bc -l)"
done
