#!/bin/bash
# CPU seconds of the mount's JVM during one fresh-mount streaming step, whole and per thread group
# (FUSE workers, writer threads, compiler threads, ...): mount, drop the page cache, run the step,
# read /proc before and after. Threads that end during the step (the read streamers stop 0.5 s after
# their stream) are in the whole figure only. Run as root (drop_caches); on /dev/shm.
#
#   frontend-fuse/bench/thread-cpu.sh LAUNCHER read|write
#
#   read   dd of=/dev/null bs=128K of 1 GiB written in an earlier mount (fsbench's streaming read)
#   write  dd if=/dev/zero bs=128K count=8192 conv=fsync (fsbench's streaming write)
set -euo pipefail
if [ $# -ne 2 ]; then
  echo "usage: $0 LAUNCHER read|write" >&2; exit 2
fi
L=$1; STEP=$2
case "$STEP" in read|write) ;; *) echo "step: read or write" >&2; exit 2 ;; esac
TICK=$(getconf CLK_TCK)
. "$(dirname "$0")/mount-lib.sh"
bench_workdir thread-cpu
"$L" create "$W/c" --scrypt-n 16384 --passphrase-file "$W/pass" > /dev/null
mnt() { mount_vault "$L" "$W/c" "$W/mnt"; }
umnt() { unmount_vault; }
# Ticks per thread group: a thread's name with its trailing number (coffer-fuse-3, GC Thread#1) dropped.
groups() {
  for t in /proc/"$P"/task/*; do
    name=$(cat "$t/comm" 2>/dev/null | tr ' ' _) || continue
    ticks=$(awk '{print $14+$15}' "$t/stat" 2>/dev/null) || continue
    echo "$name $ticks"
  done | awk '{n=$1; sub(/-[0-9]+$/,"-N",n); sub(/#[0-9]+$/,"#N",n); a[n]+=$2} END {for (k in a) print k, a[k]}' | sort
}
if [ "$STEP" = read ]; then
  mnt; dd if=/dev/zero of="$W/mnt/s" bs=128K count=8192 conv=fsync status=none; umnt
fi
mnt; sync; echo 3 > /proc/sys/vm/drop_caches
before=$(jvm_ticks); groups > "$W/a"; t0=$(date +%s.%N)
if [ "$STEP" = read ]; then
  dd if="$W/mnt/s" of=/dev/null bs=128K status=none
else
  dd if=/dev/zero of="$W/mnt/s" bs=128K count=8192 conv=fsync status=none
fi
t1=$(date +%s.%N); groups > "$W/b"; after=$(jvm_ticks)
umnt
echo "$STEP $(echo "$t1 - $t0" | bc) s, mount JVM $(echo "scale=2; ($after - $before) / $TICK" | bc) CPU-s"
join -a 2 -e 0 -o 0,1.2,2.2 "$W/a" "$W/b" | awk -v tick="$TICK" '{d = $3 - $2; if (d > 0) printf "  %6.2f %s\n", d / tick, $1}' | sort -rn
