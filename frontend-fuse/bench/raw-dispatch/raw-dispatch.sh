#!/bin/bash
# The server CPU per LOOKUP of a missing name: Coffer's FUSE frontend over a plain tmpfs folder
# (plain) against a Java server that reads and answers /dev/fuse itself (raw: the JDK's stat of the
# name; raw0: no work). Needs a build (mvn package): app/target holds the jars.
#   frontend-fuse/bench/raw-dispatch/raw-dispatch.sh [ROUNDS] [N]
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd); APP=$(cd "$HERE/../../../app/target" && pwd)
ROUNDS=${1:-3}; N=${2:-40000}
CP="$APP/coffer-app-0.1.0-SNAPSHOT.jar:$APP/lib/*"
OUT=$(mktemp -d); trap 'rm -rf "$OUT"' EXIT
javac -cp "$CP" -d "$OUT" "$HERE/RawBench.java"
J="-Dfile.encoding=UTF-8 -XX:InlineSmallCode=1000 -XX:FreqInlineSize=100 -XX:MaxInlineLevel=6 -Xlog:disable"
loop() { python3 - "$1" "$2" <<'PY'
import os, sys, time
m, n = sys.argv[1], int(sys.argv[2])
t0 = time.perf_counter_ns()
for i in range(n):
    try: os.stat(f"{m}/missing{i}")
    except FileNotFoundError: pass
print(f"{(time.perf_counter_ns() - t0) / n / 1000:.1f}")
PY
}
for r in $(seq "$ROUNDS"); do
  for k in raw0 raw plain; do
    W=$(mktemp -d /dev/shm/rawb.XXXX); mkdir "$W/root" "$W/mnt"
    java $J -cp "$CP:$OUT" RawBench "$k" "$W/root" "$W/mnt" > "$W/log" 2>&1 & P=$!
    for _ in $(seq 300); do mountpoint -q "$W/mnt" && break; sleep 0.05; done
    loop "$W/mnt" "$N" > /dev/null; loop "$W/mnt" "$N" > /dev/null # warm
    a=$(awk '{print $14+$15}' /proc/$P/stat); w=$(loop "$W/mnt" "$N"); b=$(awk '{print $14+$15}' /proc/$P/stat)
    echo "$k: wall $w us/op, server CPU $(( (b - a) * 10000000 / N / 1000 )) us/op"
    fusermount -u "$W/mnt"; sleep 0.3; kill "$P" 2>/dev/null || true; wait "$P" 2>/dev/null || true; rm -rf "$W"
  done
done
