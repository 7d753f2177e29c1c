#!/bin/bash
# Times the FUSE requests of `rm -rf` of a tree of empty folders (request-times.py): a fresh vault on
# /dev/shm, 20 folders of 50 empty folders, listed once (ls -lR) and settled 4 s; before, WARM rounds
# (default 0) of making, listing and removing the same tree in that mount warm the JIT. Run as root.
#
#   WARM=3 frontend-fuse/bench/rmrf-empty-times.sh LAUNCHER OUT     -> OUT: request-times.py's table
set -euo pipefail
L=$1; O=$2
. "$(dirname "$0")/mount-lib.sh"
bench_workdir rmrftimes
"$L" create "$W/c" --scrypt-n 16384 --passphrase-file "$W/pass" >/dev/null 2>&1
mount_vault "$L" "$W/c" "$W/mnt"
tree() { mkdir "$W/mnt/t"; (cd "$W/mnt/t" && for i in $(seq 20); do mkdir "a$i"; (cd "a$i" && mkdir $(seq -f "d%g" 50)); done); }
for _ in $(seq ${WARM:-0}); do tree; ls -lR "$W/mnt" > /dev/null; rm -rf "$W/mnt/t"; done # warm the JIT
tree
ls -lR "$W/mnt" > /dev/null; sleep 4
/usr/bin/python3 "$(dirname "$0")/request-times.py" "rm -rf $W/mnt/t" "$W/perf.data" > "$O"
unmount_vault
