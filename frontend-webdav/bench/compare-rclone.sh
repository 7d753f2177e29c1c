#!/usr/bin/env bash
# Benchmark: `coffer serve` (a vault, encrypting) beside `rclone serve webdav` (a plain folder) on
# loopback, in the same run: PUT and GET of a 1 GiB file (curl, streamed) and PROPFIND Depth 1 of a
# folder with 10,000 files. Everything lives in /dev/shm, so the disk is out of the picture.
# Usage: frontend-webdav/bench/compare-rclone.sh [runs]   (after `mvn -pl core,frontend-fuse,frontend-webdav,app -am verify`)
# Prints one line per measurement and run: server, what, seconds, MiB/s (for the transfers).
set -euo pipefail
cd "$(dirname "$0")/../.."
RUNS=${1:-3}
COFFER=app/target/coffer
[ -x "$COFFER" ] || { echo "build app/target/coffer first" >&2; exit 1; }
command -v rclone >/dev/null || { echo "rclone is missing (apt-get install rclone)" >&2; exit 1; }

W=$(mktemp -d /dev/shm/coffer-davbench.XXXXXX)
PIDS=()
cleanup() {
  for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$W"
}
trap cleanup EXIT

head -c 1G /dev/urandom > "$W/src.bin"
mkdir "$W/many"
(cd "$W/many" && seq -f 'file-%05g.txt' 1 10000 | xargs touch)

export COFFER_PASSPHRASE=benchmark-passphrase
"$COFFER" create "$W/vault" --scrypt-n 16384 >/dev/null 2>&1
"$COFFER" import "$W/vault" "$W/many" --to /many >/dev/null 2>&1
"$COFFER" serve "$W/vault" > "$W/coffer.url" 2> "$W/coffer.err" &
PIDS+=($!)
mkdir -p "$W/plain"
cp -r "$W/many" "$W/plain/many"
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
rclone serve webdav "$W/plain" --addr "127.0.0.1:$PORT" 2> "$W/rclone.err" &
PIDS+=($!)
for _ in $(seq 1 100); do [ -s "$W/coffer.url" ] && curl -s -o /dev/null "http://127.0.0.1:$PORT/" && break; sleep 0.2; done
COFFER_URL=$(head -n1 "$W/coffer.url")
RCLONE_URL="http://127.0.0.1:$PORT/"

measure() { # server url
  local name=$1 url=$2 t
  t=$(curl -s -o /dev/null -w '%{time_total}' -T "$W/src.bin" "${url}big.bin")
  echo "$name put-1GiB $t $(python3 -c "print(round(1024/$t))")"
  t=$(curl -s -o /dev/null -w '%{time_total}' "${url}big.bin")
  echo "$name get-1GiB $t $(python3 -c "print(round(1024/$t))")"
  t=$(curl -s -o "$W/list.xml" -w '%{time_total}' -X PROPFIND -H 'Depth: 1' "${url}many/")
  echo "$name propfind-10000 $t $(grep -o '<[A-Za-z]*:\?response>' "$W/list.xml" | wc -l)-responses"
  curl -s -o /dev/null -X DELETE "${url}big.bin"
}

echo "# $(date -u +%FT%TZ) $(nproc) cores, load: $(cut -d' ' -f1-3 /proc/loadavg)"
for r in $(seq 1 "$RUNS"); do
  measure coffer "$COFFER_URL"
  measure rclone "$RCLONE_URL"
done
