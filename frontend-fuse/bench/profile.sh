#!/bin/bash
# Profiles a mounted vault with perf, JIT-compiled Java frames included: extracts TAR into a new
# vault, mounts it again (a fresh JVM, as fsbench does), then records md5sum of every file and
# rm -rf of the tree, system-wide with call graphs. Run as root (perf -a, drop_caches).
#
#   frontend-fuse/bench/profile.sh LAUNCHER OUTDIR TAR [--warm]
#
# --warm runs md5sum once before the recorded one (JIT already done). Look at the result with e.g.
#   perf report -i OUTDIR/md5.data --no-children --sort pid,comm -g none    (who used the CPU: JIT threads vs coffer-fuse-N)
#   perf report -i OUTDIR/md5.data --children --comm coffer-fuse-1,coffer-fuse-2,... --sort sym -g none
# The JVM writes /tmp/perf-<pid>.map at exit (-XX:+DumpPerfMapAtExit); perf report needs it there.
set -euo pipefail
L=$1; O=$2; TAR=$3; WARM=${4:-}
mkdir -p "$O"
W=$(mktemp -d /dev/shm/coffer-profile.XXXXXX)
trap 'rm -rf "$W"' EXIT
mkdir -p "$W/mnt"; printf 'profile passphrase\n' > "$W/pass"
"$L" create "$W/cipher" --scrypt-n 16384 --passphrase-file "$W/pass" >/dev/null
mnt() {
  COFFER_JAVA_OPTS="${COFFER_JAVA_OPTS:-} -XX:+PreserveFramePointer -XX:+UnlockDiagnosticVMOptions -XX:+DumpPerfMapAtExit" \
    "$L" mount "$W/cipher" "$W/mnt" --passphrase-file "$W/pass" > "$O/mount.log" 2>&1 & P=$!
  for _ in $(seq 300); do mountpoint -q "$W/mnt" && return; sleep 0.1; done
  echo "not mounted" >&2; exit 1
}
umnt() { kill -TERM "$P"; wait "$P" || true; }
drop() { sync; echo 3 > /proc/sys/vm/drop_caches; }
mnt; tar xf "$TAR" -C "$W/mnt"; umnt
mnt; drop
cd "$W/mnt"
top=$(ls)
if [ "$WARM" = --warm ]; then find "$top" -type f -print0 | xargs -0 md5sum > /dev/null; drop; fi
perf record -F 999 -g -a -o "$O/md5.data" -- sh -c "find '$top' -type f -print0 | xargs -0 md5sum > /dev/null" 2> "$O/perf-md5.log"
drop
perf record -F 999 -g -a -o "$O/rm.data" -- rm -rf "$top" 2> "$O/perf-rm.log"
cd /
umnt
echo "mount JVM pid $P; perf map /tmp/perf-$P.map"
