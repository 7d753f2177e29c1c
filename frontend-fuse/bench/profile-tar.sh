#!/bin/bash
# Profiles `tar xf` into a mounted vault with perf, JIT-compiled Java frames included. With --warm
# the same JVM first extracts the tree once and removes it (the JIT done), so the recorded run shows
# the per-request cost; without it, the fresh JVM's. Run as root (perf -a, drop_caches).
#
#   frontend-fuse/bench/profile-tar.sh LAUNCHER OUTDIR TAR [--warm]
#
#   perf report -i OUTDIR/tar.data --no-children --sort comm -g none       (who used the CPU)
#   perf report -i OUTDIR/tar.data --children --comm coffer-fuse-1,... --sort sym -g none
# The JVM writes /tmp/perf-<pid>.map at exit (-XX:+DumpPerfMapAtExit); perf report needs it there.
set -euo pipefail
L=$1; O=$2; TAR=$3; WARM=${4:-}
mkdir -p "$O"
W=$(mktemp -d /dev/shm/coffer-profile.XXXXXX)
trap 'rm -rf "$W"' EXIT
mkdir -p "$W/mnt"; printf 'profile passphrase\n' > "$W/pass"
"$L" create "$W/cipher" --scrypt-n 16384 --passphrase-file "$W/pass" >/dev/null
COFFER_JAVA_OPTS="${COFFER_JAVA_OPTS:-} -XX:+PreserveFramePointer -XX:+UnlockDiagnosticVMOptions -XX:+DumpPerfMapAtExit" \
  "$L" mount "$W/cipher" "$W/mnt" --passphrase-file "$W/pass" > "$O/mount.log" 2>&1 & P=$!
for _ in $(seq 300); do mountpoint -q "$W/mnt" && break; sleep 0.1; done
mountpoint -q "$W/mnt" || { echo "not mounted" >&2; exit 1; }
drop() { sync; echo 3 > /proc/sys/vm/drop_caches; }
if [ "$WARM" = --warm ]; then tar xf "$TAR" -C "$W/mnt"; rm -rf "${W:?}"/mnt/*; fi
drop
/usr/bin/time -f "tar xf: %e s" perf record -F 999 -g -a -o "$O/tar.data" -- tar xf "$TAR" -C "$W/mnt" 2> "$O/perf-tar.log"
tail -1 "$O/perf-tar.log"
kill -TERM "$P"; wait "$P" || true
echo "mount JVM pid $P; perf map /tmp/perf-$P.map"
