#!/usr/bin/env bash
# Builds Coffer and starts it. Arguments go to the `coffer` launcher: none on a desktop starts the
# GUI; `--help` lists the command line. On Debian it first installs what building and running need
# (a JDK and Maven if there are none; FUSE and the GUI's libraries), as scripts/test.sh does.
set -euo pipefail
cd "$(dirname "$0")/.."

installed() {
  dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"
}

if command -v dpkg-query >/dev/null; then
  missing=()
  if ! command -v java >/dev/null || ! command -v mvn >/dev/null; then
    for pkg in openjdk-17-jdk-headless maven; do installed "$pkg" || missing+=("$pkg"); done
  fi
  for pkg in fuse3 libgtk-3-0 libxtst6 libgl1; do installed "$pkg" || missing+=("$pkg"); done
  if ! installed libfuse2 && ! installed libfuse2t64; then
    if apt-cache show libfuse2t64 >/dev/null 2>&1; then missing+=(libfuse2t64); else missing+=(libfuse2); fi
  fi
  if ((${#missing[@]})); then
    echo "Installing what Coffer needs: ${missing[*]}"
    SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}"
  fi
fi

mvn -B -ntp -q -DskipTests package
exec app/target/coffer "$@"
