#!/bin/bash
# `tar xf` into a fresh mount, then again into the same mount (warm), builds interleaved round by
# round: wall time and the mount JVM's CPU seconds, whole and by thread group (coffer-fuse = the
# FUSE workers, C = the JIT's compiler threads, GC, ...). Run as root (drop_caches); on /dev/shm.
#
#   frontend-fuse/bench/tar-cpu.sh ROUNDS TAR NAME=LAUNCHER [NAME=LAUNCHER ...]
set -euo pipefail
if [ $# -lt 3 ]; then
  echo "usage: $0 ROUNDS TAR NAME=LAUNCHER..." >&2; exit 2
fi
R=$1; TAR=$2; shift 2
. "$(dirname "$0")/mount-lib.sh"
bench_workdir tar-cpu
# Per thread: "tid name ticks", the name without its number (coffer-fuse-3 -> coffer-fuse).
threads() {
  local f line t
  for f in /proc/"$P"/task/*/stat; do
    line=$(cat "$f" 2> /dev/null) || continue
    t=${line#*(}; t=${t%%)*}; t=${t%%[-# ][0-9]*}; t=${t%% *}
    set -- ${line##*) }
    echo "$(basename "$(dirname "$f")") $t $((${12} + ${13}))"
  done
}
groups() { # before after: CPU seconds by thread name, largest first
  awk 'NR == FNR {b[$1] = $3; next} {g[$2] += $3 - b[$1]; t += $3 - b[$1]}
    END {printf "JVM %.2f CPU-s:", t / 100; for (k in g) if (g[k] > 0) printf " %s %.2f", k, g[k] / 100; print ""}' "$1" "$2"
}
for _ in $(seq "$R"); do
  for v in "$@"; do
    name=${v%%=*}; launcher=${v#*=}
    rm -rf "$W/c"; "$launcher" create "$W/c" --scrypt-n 16384 --passphrase-file "$W/pass" > /dev/null
    mount_vault "$launcher" "$W/c" "$W/mnt"
    for pass in fresh warm; do
      sync; echo 3 > /proc/sys/vm/drop_caches
      threads > "$W/before"; t0=$(date +%s.%N)
      tar xf "$TAR" -C "$W/mnt"
      t1=$(date +%s.%N); threads > "$W/after"
      echo "$name $pass: $(echo "$t1 - $t0" | bc | xargs printf '%.2f') s, $(groups "$W/before" "$W/after")"
      rm -rf "${W:?}"/mnt/*
    done
    unmount_vault
  done
done
