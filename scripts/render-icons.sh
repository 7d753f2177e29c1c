#!/usr/bin/env bash
# Renders the application icon (app/src/main/resources/dev/coffer/app/icons/coffer.svg) into the PNG
# sizes beside it: the window and tray use them from the app's jar, the packages take the 256 px one.
# The PNGs are committed, so a build never needs this; run it after editing the SVG.
# Needs rsvg-convert (Debian: librsvg2-bin).
set -euo pipefail
cd "$(dirname "$0")/../app/src/main/resources/dev/coffer/app/icons"
for size in 16 24 32 48 64 128 256 512; do
  rsvg-convert -w "$size" -h "$size" coffer.svg -o "coffer-$size.png"
done
ls -l coffer-*.png
