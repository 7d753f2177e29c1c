#!/bin/bash
# Traces the mount JVM (strace -f) while `rmdir` removes N empty folders (default 300): a fresh vault
# on /dev/shm, the folders made in /t, settled 4 s (the entry-type cache's 3-second rule) and listed
# with ls -l, as rm -rf lists first. Run as root (strace -p).
#
#   frontend-fuse/bench/rmdir-syscalls.sh LAUNCHER OUT [N]            -> OUT: strace -c summary
#   MODE=-tt frontend-fuse/bench/rmdir-syscalls.sh LAUNCHER OUT [N]   -> OUT: the full trace, for
#       /usr/bin/python3 frontend-fuse/bench/syscalls-per-request.py OUT   (calls per RMDIR)
set -euo pipefail
L=$1; O=$2; N=${3:-300}
. "$(dirname "$0")/mount-lib.sh"
bench_workdir rmdirtrace
"$L" create "$W/c" --scrypt-n 16384 --passphrase-file "$W/pass" >/dev/null
mount_vault "$L" "$W/c" "$W/mnt"
mkdir "$W/mnt/t"; for i in $(seq $N); do mkdir "$W/mnt/t/d$i"; done
sleep 4   # past the 3-second rule, as an rm -rf of a tree made earlier
ls -l "$W/mnt/t" > /dev/null
strace -f ${MODE:--c} -o "$O" -p "$P" & S=$!
sleep 1.5
(cd "$W/mnt/t" && ls | xargs rmdir)
sleep 0.5; kill -INT "$S"; wait "$S" || true
ls -A "$W/mnt/t" | wc -l
unmount_vault
