#!/bin/bash
# fsbench's "2,000 files" step (a `sh` loop creating 2,000 files, `ls -l` after every 100) in one
# mount, at several points of its life: the first loop in the new JVM, a second one, one after the
# page cache was dropped, then one after `tar xf` + md5sum + `ls -lR` + `rm -rf` of TAR's tree, and
# one after that again with the caches dropped. Seconds per loop. Run as root (drop_caches); on /dev/shm.
#
#   frontend-fuse/bench/create-loop.sh LAUNCHER|securefs TAR
set -euo pipefail
if [ $# -ne 2 ]; then
  echo "usage: $0 LAUNCHER|securefs TAR" >&2; exit 2
fi
L=$1; TAR=$2
. "$(dirname "$0")/mount-lib.sh"
bench_workdir create-loop
if [ "$L" = securefs ]; then
  # securefs daemonises (-b): unmounted at exit like any mount left behind.
  trap 'fusermount -u -z "$W/mnt" 2>/dev/null || true; sleep 0.3; rm -rf "$W"' EXIT
  securefs create --pass "$(cat "$W/pass")" "$W/c" > /dev/null 2>&1
  securefs mount -b --pass "$(cat "$W/pass")" "$W/c" "$W/mnt" > /dev/null 2>&1
  for _ in $(seq 300); do mountpoint -q "$W/mnt" && break; sleep 0.1; done
else
  "$L" create "$W/c" --scrypt-n 16384 --passphrase-file "$W/pass" > /dev/null
  mount_vault "$L" "$W/c" "$W/mnt"
fi
drop() { sync; echo 3 > /proc/sys/vm/drop_caches; }
loop() { # NAME: the loop in a new folder NAME, timed, then the folder removed
  mkdir "$W/mnt/$1"
  local t0 t1; t0=$(date +%s.%N)
  sh -c "cd '$W/mnt/$1' && i=1; while [ \$i -le 2000 ]; do : > f\$i; if [ \$((i % 100)) -eq 0 ]; then ls -l > /dev/null; fi; i=\$((i + 1)); done"
  t1=$(date +%s.%N)
  printf '%-22s %6.3f s\n' "$1" "$(echo "$t1 - $t0" | bc)"
  rm -rf "${W:?}/mnt/$1"
}
tree_steps() {
  (cd "$W/mnt" && tar xf "$TAR" && find . -type f -print0 | xargs -0 md5sum > /dev/null && ls -lR > /dev/null && rm -rf ./*)
}
loop first; loop second
drop; loop caches-dropped
tree_steps; loop after-tree
tree_steps; drop; loop after-tree-dropped
