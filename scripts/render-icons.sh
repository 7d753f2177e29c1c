#!/usr/bin/env bash
# Renders the application icon (app/src/main/resources/dev/coffer/app/icons/coffer.svg) into the PNG
# sizes beside it: the window and tray use them from the app's jar, the packages take the 256 px one.
# The PNGs are committed, so a build never needs this; run it after editing the SVG.
# Needs rsvg-convert (Debian: librsvg2-bin), convert (imagemagick) and png2icns (icnsutils).
set -euo pipefail
cd "$(dirname "$0")/../app/src/main/resources/dev/coffer/app/icons"
for size in 16 24 32 48 64 128 256 512; do
  rsvg-convert -w "$size" -h "$size" coffer.svg -o "coffer-$size.png"
done
ls -l coffer-*.png
# Windows (.ico) and macOS (.icns) icons for their packages (ImageMagick's convert; icnsutils' png2icns).
package=../../../../../../../../installer/src/main/package
convert coffer-16.png coffer-24.png coffer-32.png coffer-48.png coffer-64.png coffer-256.png "$package/windows/coffer.ico"
png2icns "$package/macos/coffer.icns" coffer-16.png coffer-32.png coffer-48.png coffer-128.png coffer-256.png coffer-512.png
