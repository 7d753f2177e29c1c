#!/usr/bin/env bash
# Interleaved A/B of streaming GET: serves one vault per variant (a launcher, optionally with JVM
# options), PUTs the same 1 GiB file into each, warms each up with 3 GETs, then GETs 1 GiB from the
# variants in turn for ROUNDS rounds (the order rotating) and prints each variant's median wall
# time, throughput and the CPU seconds its server used per GET (the figure a busy machine disturbs
# least). Everything in /dev/shm.
#
#   frontend-webdav/bench/get-ab.sh ROUNDS 'NAME=LAUNCHER [JVM options]' ...
#   COMBO=SIV_XTS ...             the vaults' content mode (default SIV_XTSHMAC)
#   IDLE_MIN=80 ...               before each round, wait until the CPUs were at least 80 % idle
#                                 for a second (on a shared machine: measure in its quiet moments)
#
# e.g. ReadAhead's workers against the request thread alone, in one build:
#   frontend-webdav/bench/get-ab.sh 9 'ra=app/target/coffer' 'alone=app/target/coffer -Dcoffer.webdav.readAheadWorkers=0'
set -euo pipefail
ROUNDS=$1; shift
COMBO=${COMBO:-SIV_XTSHMAC}
W=$(mktemp -d /dev/shm/coffer-getab.XXXXXX)
PIDS=()
cleanup() {
  for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$W"
}
trap cleanup EXIT
export COFFER_PASSPHRASE=benchmark-passphrase
head -c 1G /dev/urandom > "$W/src.bin"
declare -A URL SPID
NAMES=()
for variant in "$@"; do
  name=${variant%%=*}
  read -r launcher opts <<< "${variant#*=}"
  NAMES+=("$name")
  "$launcher" create "$W/vault-$name" --scrypt-n 16384 --combo="$COMBO" > /dev/null
  COFFER_JAVA_OPTS="${opts:-}" "$launcher" serve "$W/vault-$name" > "$W/$name.url" 2> "$W/$name.err" &
  PIDS+=($!)
  SPID[$name]=$! # the launcher execs java
  for _ in $(seq 150); do grep -q '^http' "$W/$name.url" 2>/dev/null && break; sleep 0.2; done
  URL[$name]=$(grep -m1 '^http' "$W/$name.url") || { echo "$name did not start: $(cat "$W/$name.err")" >&2; exit 1; }
  curl -sf -o /dev/null -T "$W/src.bin" "${URL[$name]}big.bin"
  for _ in 1 2 3; do curl -sf -o /dev/null "${URL[$name]}big.bin"; done
done
rm "$W/src.bin"
cpu() { # pid -> user+system CPU seconds so far
  awk -v hz="$(getconf CLK_TCK)" '{printf "%.2f", ($14 + $15) / hz}' "/proc/$1/stat"
}
echo "# $(date -u +%FT%TZ) $COMBO, $(nproc) cores, load: $(cut -d' ' -f1-3 /proc/loadavg)"
idle() { # percent of CPU time idle over the next second
  vmstat 1 2 | tail -1 | awk '{print $15}'
}
for r in $(seq 1 "$ROUNDS"); do
  if [ -n "${IDLE_MIN:-}" ]; then
    until i=$(idle); [ "$i" -ge "$IDLE_MIN" ]; do :; done
    echo "# round $r: the CPUs were $i % idle the second before" >&2
  fi
  for i in "${!NAMES[@]}"; do
    name=${NAMES[$(( (i + r) % ${#NAMES[@]} ))]}
    c0=$(cpu "${SPID[$name]}")
    t=$(curl -sf -o /dev/null -w '%{time_total}' "${URL[$name]}big.bin")
    echo "$name $t cpu=$(python3 -c "print(round($(cpu "${SPID[$name]}")-$c0,2))")"
  done | tee -a "$W/results"
done
echo "# load: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$W/results" "${NAMES[0]}" <<'PY'
import sys, statistics, collections
t, cpu = collections.defaultdict(list), collections.defaultdict(list)
for line in open(sys.argv[1]):
    name, wall, c = line.split()
    t[name].append(float(wall))
    cpu[name].append(float(c.split("=")[1]))
first = statistics.median(t[sys.argv[2]])
for name in t:
    m = statistics.median(t[name])
    print("median %s get-1GiB %.3f s %d MiB/s (rounds %.3f-%.3f s), server CPU %.2f s, wall %.0f %% of %s"
          % (name, m, round(1024 / m), min(t[name]), max(t[name]), statistics.median(cpu[name]), 100 * m / first, sys.argv[2]))
PY
