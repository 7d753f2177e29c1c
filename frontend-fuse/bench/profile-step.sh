#!/bin/bash
# Profiles one step on a mounted vault with perf, JIT-compiled Java frames included:
#   tar    `tar xf TAR` into the mount
#   write  `dd bs=128K` of 1 GiB of zeros with conv=fsync (fsbench's streaming write)
#   read   `dd bs=128K` of that 1 GiB, written in an earlier mount (fsbench's streaming read)
# With --warm the same JVM first does the step once (and removes what it made), so the recorded run
# shows the per-request cost; without it, the fresh JVM's. Run as root (perf -a, drop_caches).
#
#   frontend-fuse/bench/profile-step.sh LAUNCHER OUTDIR tar TAR [--warm]
#   frontend-fuse/bench/profile-step.sh LAUNCHER OUTDIR write [--warm]
#   frontend-fuse/bench/profile-step.sh LAUNCHER OUTDIR read [--warm]
#
#   perf report -i OUTDIR/step.data --no-children --sort comm -g none       (who used the CPU)
#   perf report -i OUTDIR/step.data --children --comm coffer-fuse-1,... --sort sym -g none
# The JVM writes /tmp/perf-<pid>.map at exit (-XX:+DumpPerfMapAtExit); perf report needs it there.
set -euo pipefail
L=$1; O=$2; STEP=$3; shift 3
case "$STEP" in
  tar) TAR=$1; shift; run() { tar xf "$TAR" -C "$W/mnt"; } ;;
  write) run() { dd if=/dev/zero of="$W/mnt/stream.bin" bs=128K count=8192 conv=fsync status=none; } ;;
  read) run() { dd if="$W/mnt/stream.bin" of=/dev/null bs=128K status=none; } ;;
  *) echo "step: tar, write or read" >&2; exit 2 ;;
esac
WARM=${1:-}
mkdir -p "$O"
W=$(mktemp -d /dev/shm/coffer-profile.XXXXXX); P=
# On any failure: stop the mount (it unmounts on SIGTERM), force the unmount if it is stuck, then clean up.
trap 'if [ -n "$P" ]; then kill -TERM "$P" 2>/dev/null || true; wait "$P" 2>/dev/null || true; fi; fusermount -u -z "$W/mnt" 2>/dev/null || true; rm -rf "$W"' EXIT
mkdir -p "$W/mnt"; printf 'profile passphrase\n' > "$W/pass"
"$L" create "$W/cipher" --scrypt-n 16384 --passphrase-file "$W/pass" >/dev/null
if [ "$STEP" = read ]; then
  "$L" mount "$W/cipher" "$W/mnt" --passphrase-file "$W/pass" > /dev/null 2>&1 & P=$!
  for _ in $(seq 300); do mountpoint -q "$W/mnt" && break; sleep 0.1; done
  mountpoint -q "$W/mnt" || { echo "not mounted" >&2; exit 1; }
  dd if=/dev/zero of="$W/mnt/stream.bin" bs=128K count=8192 conv=fsync status=none
  kill -TERM "$P"; wait "$P" || true; P=
fi
COFFER_JAVA_OPTS="${COFFER_JAVA_OPTS:-} -XX:+PreserveFramePointer -XX:+UnlockDiagnosticVMOptions -XX:+DumpPerfMapAtExit" \
  "$L" mount "$W/cipher" "$W/mnt" --passphrase-file "$W/pass" > "$O/mount.log" 2>&1 & P=$!
for _ in $(seq 300); do mountpoint -q "$W/mnt" && break; sleep 0.1; done
mountpoint -q "$W/mnt" || { echo "not mounted" >&2; exit 1; }
drop() { sync; echo 3 > /proc/sys/vm/drop_caches; }
if [ "$WARM" = --warm ]; then run; if [ "$STEP" != read ]; then rm -rf "${W:?}"/mnt/*; fi; fi
drop
export -f run 2>/dev/null || true
start=$(date +%s.%N)
perf record -F 999 -g -a -o "$O/step.data" -- bash -c "$(declare -f run); W='$W'; TAR='${TAR:-}'; run" 2> "$O/perf.log"
echo "$STEP: $(echo "$(date +%s.%N) - $start" | bc) s (perf on)"
kill -TERM "$P"; wait "$P" || true
echo "mount JVM pid $P; perf map /tmp/perf-$P.map"
P=
