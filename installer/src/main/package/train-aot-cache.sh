#!/usr/bin/env bash
# Trains an AOT cache (JDK 25+: JEP 483, 514, 515) for a Coffer app image and makes its launcher use it:
# the classes a mount loads, already parsed and linked, with the method profiles of a training mount,
# so that a fresh `coffer mount` starts with them (its first 1 GiB read 6-9% faster: docs/packaging.md).
# Called by build-packages.sh when the bundled runtime is JDK 25 or later.
#
# Usage: train-aot-cache.sh APP_IMAGE
#   writes APP_IMAGE/lib/app/coffer.aot and adds -XX:AOTCache=$APPDIR/coffer.aot to the launcher's
#   configuration (lib/app/Coffer.cfg). The training mounts a throw-away vault: it needs FUSE
#   (/dev/fuse, libfuse2, fusermount) on the machine that builds the packages.
#
# The cache records each jar's size and modification time: a jar touched after training makes the
# JVM ignore the cache (four lines on stderr, the app runs as without it). The portable archive
# keeps the times, and build-packages.sh makes the .deb keep them (SOURCE_DATE_EPOCH).
set -euo pipefail

app=$(readlink -f "$1")
cfg="$app/lib/app/Coffer.cfg"
cache="$app/lib/app/coffer.aot"
log() { echo "train-aot-cache: $*" >&2; }

[ -r "$cfg" ] || { log "error: $cfg not found (not an app image?)"; exit 1; }
if [ ! -c /dev/fuse ] || ! command -v fusermount >/dev/null; then
  log "error: training the AOT cache mounts a vault, and this machine has no FUSE (/dev/fuse and fusermount:"
  log "       install fuse3 and libfuse2), or build without a cache: COFFER_AOT_CACHE=0"
  exit 1
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/coffer-aot.XXXXXX")
cp "$cfg" "$work/Coffer.cfg"
pid=; trained=
cleanup() {
  if [ -n "$pid" ]; then
    kill -TERM "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  fi
  mountpoint -q "$work/mnt" 2>/dev/null && fusermount -u "$work/mnt"
  cp "$work/Coffer.cfg" "$cfg"
  [ -n "$trained" ] || rm -f "$cache"
  rm -rf "$work"
}
trap cleanup EXIT
# The launcher reads its JVM options from the configuration file: each phase appends its own.
with_options() {
  cp "$work/Coffer.cfg" "$cfg"
  for option in "$@"; do echo "java-options=$option" >> "$cfg"; done
}

export COFFER_PASSPHRASE="training passphrase, not a secret"
"$app/bin/Coffer" create "$work/vault" --scrypt-n 16384 > /dev/null

# 1. Record: one mount doing what people do with a drive, with the block sizes fsbench uses.
with_options -XX:AOTMode=record "-XX:AOTConfiguration=$work/coffer.aotconf"
mkdir "$work/mnt"
"$app/bin/Coffer" mount "$work/vault" "$work/mnt" > "$work/mount.log" 2>&1 & pid=$!
for _ in $(seq 1500); do
  mountpoint -q "$work/mnt" && break
  kill -0 "$pid" 2>/dev/null || { log "error: the training mount failed:"; cat "$work/mount.log" >&2; exit 1; }
  sleep 0.02
done
mountpoint -q "$work/mnt" || { log "error: the training mount did not come up in 30 s"; exit 1; }
m="$work/mnt"
# Streaming: 256 MiB written in 128 KiB blocks, then read three times, each time from the mount
# (iflag=nocache with count=0 drops the file's pages, so the read goes through FUSE again).
dd if=/dev/zero of="$m/big" bs=128K count=2048 conv=fsync status=none
for _ in 1 2 3; do
  dd if="$m/big" iflag=nocache count=0 status=none
  dd if="$m/big" of=/dev/null bs=128K status=none
done
# Small files: the app image itself (~100 files, ~120 MB) by tar, 2,000 small files in 20 folders,
# their checksums, a long listing, a rename of a folder, and the removal of it all.
tar -C "$app" -cf - . | tar -C "$m" -xf -
mkdir "$m/tree"
for d in $(seq 20); do
  mkdir "$m/tree/$d"
  for f in $(seq 100); do echo "file $f of folder $d" > "$m/tree/$d/$f.txt"; done
done
(cd "$m" && find . -type f -print0 | xargs -0 md5sum > /dev/null)
ls -lR "$m" > /dev/null
mv "$m/tree" "$m/moved"
rm -rf "${m:?}"/*
kill -TERM "$pid"
status=0; wait "$pid" || status=$?
pid=
# 143 (128 + SIGTERM) is how `coffer mount` ends on SIGTERM after a clean unmount.
[ "$status" = 143 ] && ! mountpoint -q "$m" || { log "error: the training mount did not end cleanly ($status):"; cat "$work/mount.log" >&2; exit 1; }
[ -s "$work/coffer.aotconf" ] || { log "error: the training mount wrote no AOT configuration:"; cat "$work/mount.log" >&2; exit 1; }

# 2. Create the cache from what was recorded (the JVM only writes the cache in this mode).
with_options -XX:AOTMode=create "-XX:AOTConfiguration=$work/coffer.aotconf" "-XX:AOTCache=$cache"
"$app/bin/Coffer" --version > "$work/create.log" 2>&1 || { log "error: creating the AOT cache failed:"; cat "$work/create.log" >&2; exit 1; }
[ -s "$cache" ] || { log "error: no AOT cache was written:"; cat "$work/create.log" >&2; exit 1; }

# 3. The launcher uses it ($APPDIR is the launcher's own lib/app folder, wherever it is installed).
# shellcheck disable=SC2016 # $APPDIR is for the launcher to expand
use_cache='-XX:AOTCache=$APPDIR/coffer.aot'
with_options "$use_cache" -Xlog:aot=info:stderr
used=$("$app/bin/Coffer" --version 2>&1 || true)
grep -q "Using AOT-linked classes: true" <<< "$used" || { log "error: the launcher does not use the new AOT cache:"; echo "$used" >&2; exit 1; }
echo "java-options=$use_cache" >> "$work/Coffer.cfg"
trained=yes
log "AOT cache: $cache ($(du -m "$cache" | cut -f1) MiB)"
