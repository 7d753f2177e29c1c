#!/usr/bin/env bash
# Runs every test of Coffer. On Debian it first installs what the tests need, if missing.
# CI runs exactly this (see .ci/run). Usage: scripts/test.sh [extra Maven arguments]
set -euo pipefail
cd "$(dirname "$0")/.."

installed() {
  dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"
}

missing=()
# A JDK and Maven from elsewhere (SDKMAN, Temurin tarballs) are fine: only install them if absent.
if ! command -v java >/dev/null || ! command -v mvn >/dev/null; then
  for pkg in openjdk-17-jdk-headless maven; do
    installed "$pkg" || missing+=("$pkg")
  done
fi
# The FUSE tests mount for real (libfuse 2 for jnr-fuse, fusermount from fuse3; never Debian's old
# "fuse" package, which fuse3 replaces) and run ordinary tools on the mounts (fio: the concurrency test).
# The WebDAV tests run the litmus compliance suites and mount the server with davfs2.
# The health check's I/O-error test reads a vault through a gocryptfs mount whose backing file it
# damaged (a real EIO); the failed-move test makes a rename fail with chattr +i (e2fsprogs; on tmpfs
# it needs Linux 6.0 or later).
# The GUI tests render real JavaFX scenes headless (Monocle, software pipeline): they need fonts.
# A German session's error messages (locales: glibc's translations and localedef) show that the
# mount reads the system's messages in English whatever the session's language.
for pkg in fuse3 rsync sqlite3 git fio litmus davfs2 gocryptfs e2fsprogs fontconfig fonts-dejavu-core locales; do
  installed "$pkg" || missing+=("$pkg")
done
if ! installed libfuse2 && ! installed libfuse2t64; then
  if apt-cache show libfuse2t64 >/dev/null 2>&1; then missing+=(libfuse2t64); else missing+=(libfuse2); fi
fi
# The package test builds the .deb (jpackage: fakeroot, dpkg-deb), installs it with its dependencies
# (GTK, libXtst, libGL for JavaFX), checks the desktop integration (xdg-utils, desktop-file-utils),
# and starts the installed GUI on a virtual display, finds its window and takes a screenshot (xvfb,
# xdotool, x11-utils, imagemagick).
for pkg in zip fakeroot xdg-utils desktop-file-utils libgtk-3-0 libxtst6 libgl1 libxxf86vm1 xvfb xauth xdotool \
    x11-utils imagemagick; do
  installed "$pkg" || missing+=("$pkg")
done
# The keyring and theme tests run a private D-Bus session with GNOME Keyring's Secret Service
# (secret-tool looks from outside) and dconf (gsettings flips the colour scheme); the tray test
# embeds the icon in trayer (a freedesktop tray host) on Xvfb; serve --mount mounts with gio on such a
# session (gvfs's WebDAV backend and its FUSE folder).
for pkg in dbus gnome-keyring libsecret-tools dconf-service libglib2.0-bin gsettings-desktop-schemas trayer \
    gvfs gvfs-backends gvfs-fuse; do
  installed "$pkg" || missing+=("$pkg")
done
if ((${#missing[@]})); then
  echo "Installing test prerequisites: ${missing[*]}"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}"
fi
# xdg-desktop-menu registers a menu entry only where a desktop's menu folders exist; a bare
# container has none, so make them (as every desktop installation has) for the package test.
SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
$SUDO mkdir -p /etc/xdg/menus /usr/share/desktop-directories
if ! locale -a 2>/dev/null | grep -qix 'de_DE\.utf-\?8'; then
  $SUDO localedef -i de_DE -f UTF-8 de_DE.UTF-8
fi
if [ ! -e /dev/fuse ]; then
  echo "warning: /dev/fuse is missing: the FUSE tests will fail (load the fuse module, or give the container --device /dev/fuse)" >&2
fi

# The independent sample vaults live in shared/ beside the clone.
if [ ! -d ../shared/testdata ]; then
  echo "error: ../shared/testdata (the independent sample vaults) is missing beside this clone" >&2
  exit 1
fi

# Tests stop child processes with SIGINT (Ctrl-C). A shell's background job without job control
# (`cmd &` in a script, nohup) starts with SIGINT ignored, which every child inherits and a JVM then
# never handles; bash cannot undo that (`trap - INT` does not reset an inherited ignore), so Maven
# starts through a one-line reset to the default (perl-base is part of every Debian system).
exec perl -e '$SIG{INT} = "DEFAULT"; exec { $ARGV[0] } @ARGV or die "mvn: $!\n"' mvn -B -ntp verify "$@"
