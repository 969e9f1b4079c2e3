#!/usr/bin/env bash
# Renders the PNG icons from packaging/linux/ramvram.svg into the hicolor layout under
# packaging/linux/icons/hicolor/<size>x<size>/apps/ramvram.png. The PNGs are committed, so this
# runs only after the SVG changes. Needs rsvg-convert (Debian: librsvg2-bin) and a sans-serif
# font (fonts-dejavu-core). At 16 and 32 px the "RAM:VRAM" caption is an unreadable grey smear,
# so those two sizes are drawn from the SVG with its <text> element left out. The Windows
# installer icon packaging/windows/ramvram.ico packs the 16, 32, 48 and 256 px PNGs
# (ImageMagick's convert).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
svg="$here/linux/ramvram.svg"
command -v rsvg-convert >/dev/null || { echo "rsvg-convert missing: apt-get install librsvg2-bin" >&2; exit 1; }
small="$(mktemp --suffix=.svg)"
trap 'rm -f "$small"' EXIT
grep -v '<text' "$svg" >"$small"
for size in 16 32 48 64 128 256; do
  dir="$here/linux/icons/hicolor/${size}x${size}/apps"
  mkdir -p "$dir"
  src="$svg"
  [ "$size" -le 32 ] && src="$small"
  rsvg-convert --width "$size" --height "$size" --keep-aspect-ratio --format png \
    --output "$dir/ramvram.png.tmp" "$src"
  mv "$dir/ramvram.png.tmp" "$dir/ramvram.png"
  echo "$dir/ramvram.png"
done
mkdir -p "$here/windows"
ico_sources=()
for size in 16 32 48 256; do ico_sources+=("$here/linux/icons/hicolor/${size}x${size}/apps/ramvram.png"); done
convert "${ico_sources[@]}" "$here/windows/ramvram.ico.tmp.ico"
mv "$here/windows/ramvram.ico.tmp.ico" "$here/windows/ramvram.ico"
echo "$here/windows/ramvram.ico"
