#!/bin/bash
# Fresh-mount streaming read of 1 GiB through `coffer mount`, builds interleaved round by round:
# mount (a fresh JVM), drop the page cache, dd the file (timed, with the mount JVM's CPU seconds),
# drop the cache again and dd it once more in the same JVM ("warm"). Run as root (drop_caches); on /dev/shm.
#
#   frontend-fuse/bench/read-ab.sh ROUNDS NAME=LAUNCHER [NAME=LAUNCHER ...]
#
# Copy each build's app/target/{coffer,coffer-app-*.jar,lib} to its own folder first. Prints one line
# per round and build: fresh seconds, mount JVM CPU seconds during the fresh read, warm seconds, load.
# COMBO=SIV_XTS ... reads from a vault of that content mode (default SIV_XTSHMAC).
set -euo pipefail
R=$1; shift
. "$(dirname "$0")/mount-lib.sh"
bench_workdir read-ab
first=${1#*=}
"$first" create "$W/c" --scrypt-n 16384 --combo "${COMBO:-SIV_XTSHMAC}" --passphrase-file "$W/pass" > /dev/null
mnt() { mount_vault "$1" "$W/c" "$W/mnt"; }
umnt() { unmount_vault; }
now() { date +%s.%N; }
mnt "$first"; dd if=/dev/zero of="$W/mnt/big" bs=128K count=8192 conv=fsync status=none; umnt
for _ in $(seq "$R"); do
  for v in "$@"; do
    name=${v%%=*}; launcher=${v#*=}
    mnt "$launcher"; sync; echo 3 > /proc/sys/vm/drop_caches
    c0=$(jvm_ticks); s=$(now); dd if="$W/mnt/big" of=/dev/null bs=128K status=none; e=$(now); c1=$(jvm_ticks)
    echo 3 > /proc/sys/vm/drop_caches
    s2=$(now); dd if="$W/mnt/big" of=/dev/null bs=128K status=none; e2=$(now)
    printf "%s fresh %.2f cpu %.2f warm %.2f load %s\n" "$name" "$(echo "$e-$s" | bc)" \
      "$(echo "($c1-$c0)/100" | bc -l)" "$(echo "$e2-$s2" | bc)" "$(cut -d' ' -f1 /proc/loadavg)"
    umnt
  done
done
