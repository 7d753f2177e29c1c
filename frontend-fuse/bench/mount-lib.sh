# Sourced by the bench scripts that mount vaults afresh (read-ab.sh, read-repeat.sh, thread-cpu.sh,
# write-modes.sh): a work folder on /dev/shm, removed at exit after the mount still running (if any)
# is stopped, and the fresh mount and its end.
#
#   bench_workdir NAME          W = /dev/shm/coffer-NAME.XXXXXX with W/mnt and W/pass (a passphrase)
#   mount_vault L VAULT MNT     `L mount VAULT MNT` in the background (P = its pid), once MNT is mounted
#   unmount_vault               SIGTERM to P (the mount unmounts and locks the vault), then waits for it
#   jvm_ticks                   CPU ticks (user + system) the mount's JVM (P) has used so far
#   jit_ticks                   the same for its compiler threads (C1, C2) alone
P=
bench_workdir() {
  W=$(mktemp -d "/dev/shm/coffer-$1.XXXXXX")
  trap 'if [ -n "$P" ]; then kill -TERM "$P" 2>/dev/null || true; wait "$P" 2>/dev/null || true; fi; rm -rf "$W"' EXIT
  mkdir -p "$W/mnt"; printf '%s passphrase\n' "$1" > "$W/pass"
}
mount_vault() {
  "$1" mount "$2" "$3" --passphrase-file "$W/pass" > /dev/null 2>&1 & P=$!
  for _ in $(seq 1500); do mountpoint -q "$3" && return; sleep 0.02; done
  echo "not mounted" >&2; exit 1
}
unmount_vault() { kill -TERM "$P"; wait "$P" || true; P=; }
jvm_ticks() { awk '{print $14 + $15}' "/proc/$P/stat"; }
# The launcher execs java, so P is the JVM. A thread's name holds a space, so its fields are counted
# after the closing parenthesis (utime, stime: 12, 13).
jit_ticks() {
  for f in /proc/"$P"/task/*/stat; do
    line=$(cat "$f" 2> /dev/null) || continue # a thread that ended meanwhile
    case "$line" in *"(C1 CompilerThre)"* | *"(C2 CompilerThre)"*) echo "${line##*) }" ;; esac
  done | awk '{t += $12 + $13} END {print t + 0}'
}
