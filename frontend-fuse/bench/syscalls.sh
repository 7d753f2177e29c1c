#!/bin/bash
# Counts the system calls of a mount's JVM (strace -f -c) while ls -lR, find | xargs md5sum and
# rm -rf run on a small tree (10 folders of 20 files) in a fresh vault on /dev/shm. The counts are
# exact whatever the machine's load, unlike wall or CPU times. Run as root (drop_caches, strace -p).
#
#   frontend-fuse/bench/syscalls.sh LAUNCHER OUTPREFIX     -> OUTPREFIX.lslr, OUTPREFIX.md5, OUTPREFIX.rm
set -euo pipefail
L=$1; O=$2
W=$(mktemp -d /dev/shm/coffer-syscalls.XXXXXX)
trap 'rm -rf "$W"' EXIT
mkdir -p "$W/mnt"; printf 'syscalls passphrase\n' > "$W/pass"
"$L" create "$W/c" --scrypt-n 16384 --passphrase-file "$W/pass" >/dev/null
"$L" mount "$W/c" "$W/mnt" --passphrase-file "$W/pass" > "$W/log" 2>&1 & P=$!
for _ in $(seq 300); do mountpoint -q "$W/mnt" && break; sleep 0.1; done
JP=$(pgrep -P "$P" java || echo "$P") # the launcher execs java, so usually $P itself
for d in $(seq 10); do mkdir "$W/mnt/d$d"; for f in $(seq 20); do echo "hello$f" > "$W/mnt/d$d/f$f"; done; done
ls -lR "$W/mnt" > /dev/null
run() {
  name=$1; shift
  echo 3 > /proc/sys/vm/drop_caches; sleep 1
  strace -f -c -o "$O.$name" -p "$JP" & S=$!
  sleep 1.5
  "$@" > /dev/null
  sleep 0.5; kill -INT "$S"; wait "$S" || true
}
run lslr ls -lR "$W/mnt"
run md5 sh -c "cd '$W/mnt' && find . -type f -print0 | xargs -0 md5sum"
run rm sh -c "rm -rf '$W'/mnt/d*"
kill -TERM "$P"; wait "$P" || true
