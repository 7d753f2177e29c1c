#!/bin/bash
# small-ops.py on a coffer mount (LAUNCHER) and a securefs mount side by side, warm: three warm-up
# passes each, then ROUNDS rounds alternating the two. Run as root (or a user who can mount) with
# securefs installed; works on /dev/shm.
#
#   frontend-fuse/bench/small-ops.sh ROUNDS LAUNCHER [N=3000]
set -euo pipefail
if [ $# -lt 2 ]; then
  echo "usage: $0 ROUNDS LAUNCHER [N=3000]" >&2; exit 2
fi
R=$1; L=$2; N=${3:-3000}
HERE=$(dirname "$(readlink -f "$0")")
W=$(mktemp -d /dev/shm/coffer-small-ops.XXXXXX); P=
trap 'if [ -n "$P" ]; then kill -TERM "$P" 2>/dev/null || true; wait "$P" 2>/dev/null || true; fi; fusermount -u -z "$W/mnt" 2>/dev/null || true; fusermount -u "$W/s" 2>/dev/null || true; rm -rf "$W"' EXIT
mkdir -p "$W/mnt" "$W/sc" "$W/s"; printf 'small-ops passphrase\n' > "$W/pass"
"$L" create "$W/c" --scrypt-n 16384 --passphrase-file "$W/pass" > /dev/null
securefs create --pass 'small-ops passphrase' "$W/sc" > /dev/null 2>&1
"$L" mount "$W/c" "$W/mnt" --passphrase-file "$W/pass" > /dev/null 2>&1 & P=$!
for _ in $(seq 300); do mountpoint -q "$W/mnt" && break; sleep 0.05; done
mountpoint -q "$W/mnt" || { echo "coffer: not mounted" >&2; exit 1; }
securefs mount -b --pass 'small-ops passphrase' "$W/sc" "$W/s" > /dev/null 2>&1
for _ in $(seq 100); do mountpoint -q "$W/s" && break; sleep 0.05; done
mountpoint -q "$W/s" || { echo "securefs: not mounted" >&2; exit 1; }
for r in 1 2 3; do
  /usr/bin/python3 "$HERE/small-ops.py" "$W/mnt/w$r" "$N" coffer > /dev/null
  /usr/bin/python3 "$HERE/small-ops.py" "$W/s/w$r" "$N" securefs > /dev/null
done
for r in $(seq "$R"); do
  /usr/bin/python3 "$HERE/small-ops.py" "$W/mnt/r$r" "$N" coffer
  /usr/bin/python3 "$HERE/small-ops.py" "$W/s/r$r" "$N" securefs
done
