#!/usr/bin/env bash
# Profiles one streaming GET of 1 GiB from `coffer serve` with perf, JIT-compiled Java frames
# included, and says where the server's CPU went. Serves a new vault in /dev/shm, PUTs 1 GiB of
# random bytes, warms the JIT up with a few GETs, then records one more GET system-wide with call
# graphs. Run as root (perf -a).
#
#   frontend-webdav/bench/profile-get.sh LAUNCHER OUTDIR [COMBO] [WARMUP_GETS]
#
# COMBO: SIV_XTSHMAC (default) or SIV_XTS. Prints the server's share of the samples (in CPU
# seconds: samples / 999 Hz) split into the vault's read (HMAC, AES-XTS, reading the ciphertext),
# the socket writes and the rest. The perf map is written with `jcmd PID Compiler.perfmap` before the
# server stops; look further with e.g.
#   perf report -i OUTDIR/get.data --children --pid PID --sort sym -g none
set -euo pipefail
L=$1; O=$2; COMBO=${3:-SIV_XTSHMAC}; WARM=${4:-5}
command -v perf >/dev/null || { echo "perf is missing (apt-get install linux-perf)" >&2; exit 1; }
mkdir -p "$O"
O=$(readlink -f "$O")
W=$(mktemp -d /dev/shm/coffer-getprofile.XXXXXX)
P=
cleanup() {
  # `|| true`: under set -e, the server's exit status (143 after SIGTERM) would end the trap before rm.
  if [ -n "$P" ]; then kill "$P" 2>/dev/null || true; wait "$P" 2>/dev/null || true; fi
  rm -rf "$W"
}
trap cleanup EXIT
export COFFER_PASSPHRASE=profile-passphrase
"$L" create "$W/vault" --scrypt-n 16384 --combo="$COMBO" >/dev/null
COFFER_JAVA_OPTS="${COFFER_JAVA_OPTS:-} -XX:+PreserveFramePointer" "$L" serve "$W/vault" > "$W/url" 2> "$O/serve.log" &
P=$!
for _ in $(seq 150); do grep -q '^http' "$W/url" 2>/dev/null && break; sleep 0.2; done
URL=$(grep -m1 '^http' "$W/url") || { echo "the server did not start: $(cat "$O/serve.log")" >&2; exit 1; }
head -c 1G /dev/urandom > "$W/src.bin"
curl -sf -o /dev/null -T "$W/src.bin" "${URL}big.bin"
rm "$W/src.bin"
for _ in $(seq "$WARM"); do curl -sf -o /dev/null "${URL}big.bin"; done
echo "# $(date -u +%FT%TZ) $COMBO, load: $(cut -d' ' -f1-3 /proc/loadavg)"
perf record -F 999 -g -a -o "$O/get.data" -- curl -sf -o /dev/null -w 'GET %{time_total} s\n' "${URL}big.bin" 2> "$O/perf.log"
jcmd "$P" Compiler.perfmap > /dev/null
perf report -i "$O/get.data" --children --pid "$P" --sort sym -g none 2> /dev/null > "$O/children.txt"
python3 - "$O/get.data" "$O/children.txt" "$P" <<'PY'
import re, subprocess, sys
data, children, pid = sys.argv[1], sys.argv[2], sys.argv[3]
# perf script prints "COMM PID" per sample (a thread's name may contain spaces)
samples = [line.rsplit(None, 1) for line in subprocess.run(["perf", "script", "-i", data, "-F", "comm,pid"],
                                                             capture_output=True, text=True).stdout.splitlines()]
total = len(samples)
threads = [comm.strip() for comm, p in samples if p == pid]
server = len(threads)
rows = []
for line in open(children):
    m = re.match(r"\s*([\d.]+)%\s+[\d.]+%\s+\[.\]\s+(.*)", line)
    if m:
        rows.append((m.group(2).strip(), float(m.group(1))))
def share(pattern):  # a method compiled more than once has a row per version
    return sum(v for k, v in rows if re.search(pattern, k)) / 100 * total
def by_thread(prefix):
    return sum(1 for t in threads if t.startswith(prefix))
parts = [
    ("vault read (OpenFile.read)", share(r"OpenFile\.read\(java\.nio\.ByteBuffer, long\)$")),
    ("  HMAC-SHA256 (UnitCryptor.tag)", share(r"UnitCryptor\.tag\(")),
    ("  AES-XTS (AesXts.crypt)", share(r"AesXts\.crypt\(")),
    ("  ciphertext pread (FileChannelImpl.read)", share(r"FileChannelImpl\.read\(java\.nio\.ByteBuffer, long\)$")),
    ("socket writes (SocketChannelImpl.write)", share(r"SocketChannelImpl\.write\(")),
    ("JDK heap<->direct copies (ByteBuffer.putBuffer)", share(r"ByteBuffer\.putBuffer\(")),
    ("JIT compiler threads", by_thread("C1 Compiler") + by_thread("C2 Compiler")),
    ("GC threads", by_thread("GC Thread") + by_thread("G1 ")),
]
hz = 999.0
print("samples: %d in all, %d in the server (pid %s) = %.2f CPU-s" % (total, server, pid, server / hz))
for name, n in parts:
    print("%-48s %5.1f %% of the server, %.2f CPU-s" % (name, 100 * n / server if server else 0, n / hz))
PY
