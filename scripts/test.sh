#!/usr/bin/env bash
# Runs every test of Coffer. On Debian it first installs what the tests need, if missing.
# CI runs exactly this (see .ci/run). Usage: scripts/test.sh [extra Maven arguments]
set -euo pipefail
cd "$(dirname "$0")/.."

needed=(openjdk-17-jdk-headless maven)
missing=()
for pkg in "${needed[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
if ((${#missing[@]})); then
  if ! command -v java >/dev/null || ! command -v mvn >/dev/null; then
    echo "Installing test prerequisites: ${missing[*]}"
    SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}"
  fi
fi

# The independent sample vaults live in shared/ beside the clone.
if [ ! -d ../shared/testdata ]; then
  echo "error: ../shared/testdata (the independent sample vaults) is missing beside this clone" >&2
  exit 1
fi

exec mvn -B -ntp verify "$@"
