#!/usr/bin/env bash
# Benchmark: `coffer serve` (a vault, encrypting) beside `rclone serve webdav` (a plain folder) on
# loopback, in the same run: PUT and GET of a 1 GiB file (curl, streamed) and PROPFIND Depth 1 of a
# folder with 10,000 files. Everything lives in /dev/shm (unless BENCH_DIR), so the disk is out of the picture.
# Usage: frontend-webdav/bench/compare-rclone.sh [rounds]
#   COFFER=path/to/coffer        the build to measure (default app/target/coffer, after
#                                `mvn -pl core,frontend-fuse,frontend-webdav,app -am package`)
#   COFFER_BASELINE=path/to/coffer  optional: an older build, measured in the same rounds (A/B)
#   NO_RCLONE=1                  coffer only, where rclone is not installed (no ratios printed)
#   IDLE_MIN=85                  before each request, wait until the CPUs were at least 85 % idle
#                                for a second (on a shared machine: measure in its quiet moments)
#   BENCH_DIR=/some/folder       where the vaults and files go instead of /dev/shm (a disk: the
#                                fsyncs of PUT then cost what they cost there; tmpfs makes them free)
#   COMBOS="SIV_XTSHMAC SIV_XTS"    the content modes to serve, one vault each per build (default
#                                both: SIV_XTSHMAC authenticates every 4 KiB unit with HMAC-SHA256,
#                                SIV_XTS does not; the default mode's server is named coffer, the
#                                others coffer-MODE, e.g. coffer-SIV_XTS)
# One warm-up round (JIT) is not counted; then each round measures every server in turn, the order
# rotating from round to round. Prints one line per measurement (server, what, seconds, MiB/s or
# responses, and the CPU seconds the server process used for it: on a busy machine wall times are
# noisy, CPU time much less so), then the median of each over the rounds and each coffer build's
# ratio to rclone (throughput: coffer/rclone; PROPFIND: rclone time / coffer time, so 100 % is par).
set -euo pipefail
cd "$(dirname "$0")/../.."
ROUNDS=${1:-3}
COFFER=${COFFER:-app/target/coffer}
[ -x "$COFFER" ] || { echo "build app/target/coffer first (or set COFFER)" >&2; exit 1; }
NO_RCLONE=${NO_RCLONE:-}
[ -n "$NO_RCLONE" ] || command -v rclone >/dev/null || { echo "rclone is missing (apt-get install rclone, or NO_RCLONE=1)" >&2; exit 1; }

W=$(mktemp -d "${BENCH_DIR:-/dev/shm}/coffer-davbench.XXXXXX")
PIDS=()
cleanup() {
  for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$W"
}
trap cleanup EXIT

head -c 1G /dev/urandom > "$W/src.bin"
mkdir "$W/many"
(cd "$W/many" && seq -f 'file-%05g.txt' 1 10000 | xargs touch)

export COFFER_PASSPHRASE=benchmark-passphrase
declare -A URL SPID
serve_vault() { # name launcher combo
  local name=$1 launcher=$2 combo=$3
  "$launcher" create "$W/vault-$name" --scrypt-n 16384 --combo="$combo" >/dev/null 2>&1
  "$launcher" import "$W/vault-$name" "$W/many" --to /many >/dev/null 2>&1
  "$launcher" serve "$W/vault-$name" > "$W/$name.url" 2> "$W/$name.err" &
  PIDS+=($!)
  SPID[$name]=$! # the launcher execs java
}
COMBOS=${COMBOS:-SIV_XTSHMAC SIV_XTS}
SERVERS=()
for combo in $COMBOS; do
  suffix=$([ "$combo" = SIV_XTSHMAC ] || echo "-$combo")
  SERVERS+=("coffer$suffix")
  serve_vault "coffer$suffix" "$COFFER" "$combo"
  if [ -n "${COFFER_BASELINE:-}" ]; then
    SERVERS+=("baseline$suffix")
    serve_vault "baseline$suffix" "$COFFER_BASELINE" "$combo"
  fi
done
if [ -z "$NO_RCLONE" ]; then
  mkdir -p "$W/plain"
  cp -r "$W/many" "$W/plain/many"
  PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  rclone serve webdav "$W/plain" --addr "127.0.0.1:$PORT" 2> "$W/rclone.err" &
  PIDS+=($!)
  SPID[rclone]=$!
  SERVERS+=(rclone)
  URL[rclone]="http://127.0.0.1:$PORT/"
fi
for name in "${SERVERS[@]}"; do
  [ "$name" = rclone ] && continue
  for _ in $(seq 1 150); do grep -q '^http' "$W/$name.url" 2>/dev/null && break; sleep 0.2; done
  URL[$name]=$(grep -m1 '^http' "$W/$name.url") || { echo "$name did not start: $(cat "$W/$name.err")" >&2; exit 1; }
done
[ -n "$NO_RCLONE" ] || for _ in $(seq 1 100); do curl -s -o /dev/null "${URL[rclone]}" && break; sleep 0.2; done

cpu() { # pid -> user+system CPU seconds so far
  awk -v hz="$(getconf CLK_TCK)" '{printf "%.2f", ($14 + $15) / hz}' "/proc/$1/stat"
}
await_idle() {
  [ -n "${IDLE_MIN:-}" ] || return 0
  until [ "$(vmstat 1 2 | tail -1 | awk '{print $15}')" -ge "$IDLE_MIN" ]; do :; done
}
measure() { # server
  local name=$1 url=${URL[$1]} pid=${SPID[$1]} t n c0
  await_idle
  c0=$(cpu "$pid")
  t=$(curl -s -o /dev/null -w '%{time_total}' -T "$W/src.bin" "${url}big.bin")
  echo "$name put-1GiB $t $(python3 -c "print(round(1024/$t))") cpu=$(python3 -c "print(round($(cpu "$pid")-$c0,2))")"
  await_idle
  c0=$(cpu "$pid")
  t=$(curl -s -o /dev/null -w '%{time_total}' "${url}big.bin")
  echo "$name get-1GiB $t $(python3 -c "print(round(1024/$t))") cpu=$(python3 -c "print(round($(cpu "$pid")-$c0,2))")"
  await_idle
  c0=$(cpu "$pid")
  t=$(curl -s -o "$W/list.xml" -w '%{time_total}' -X PROPFIND -H 'Depth: 1' "${url}many/")
  n=$(grep -o '<[A-Za-z]*:\?response>' "$W/list.xml" | wc -l)
  [ "$n" = 10001 ] || { echo "$name: PROPFIND gave $n responses, not 10001" >&2; exit 1; }
  echo "$name propfind-10000 $t $n-responses cpu=$(python3 -c "print(round($(cpu "$pid")-$c0,2))")"
  curl -s -o /dev/null -X DELETE "${url}big.bin"
}

echo "# $(date -u +%FT%TZ) $(nproc) cores, load: $(cut -d' ' -f1-3 /proc/loadavg); servers: ${SERVERS[*]}"
for name in "${SERVERS[@]}"; do measure "$name" > /dev/null; done # warm-up, not counted
for r in $(seq 1 "$ROUNDS"); do
  for i in "${!SERVERS[@]}"; do
    measure "${SERVERS[$(( (i + r) % ${#SERVERS[@]} ))]}"
  done | tee -a "$W/results"
  echo "# after round $r, load: $(cut -d' ' -f1-3 /proc/loadavg)"
done
python3 - "$W/results" <<'PY'
import sys, statistics, collections
t = collections.defaultdict(list)
cpu = collections.defaultdict(list)
for line in open(sys.argv[1]):
    f = line.split()
    t[(f[0], f[1])].append(float(f[2]))
    cpu[(f[0], f[1])].append(float(f[-1].split("=")[1]))
med = {k: statistics.median(v) for k, v in t.items()}
print("# medians over %d rounds" % len(next(iter(t.values()))))
for (server, what), m in sorted(med.items()):
    rate = "" if what.startswith("propfind") else " %d MiB/s" % round(1024 / m)
    print("median %s %s %.3f s%s, server CPU %.2f s" % (server, what, m, rate, statistics.median(cpu[(server, what)])))
for server in sorted({s for s, _ in med if s != "rclone"} if ("rclone", "get-1GiB") in med else ()):
    for what in ("put-1GiB", "get-1GiB", "propfind-10000"):
        print("ratio %s/rclone %s %.0f %%" % (server, what, 100 * med[("rclone", what)] / med[(server, what)]))
PY
