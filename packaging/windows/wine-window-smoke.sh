#!/usr/bin/env bash
# Opens ramvram.exe's window under Wine on Xvfb, in English and Chinese, through
# packaging/window-smoke.sh (the same check as the Linux window: a rendered first frame, a
# screenshot of each, the two languages different).
#
#   packaging/windows/wine-window-smoke.sh EXE OUTDIR
#
# OUTDIR receives window-en.png, window-zh.png and their logs. The Wine prefix is
# RAMVRAM_WINE_PREFIX (default: a temporary one), prepared by tests/wine/prefix.sh (the
# test-only stand-in bcryptprimitives.dll included). wgpu is told to use Vulkan
# (WGPU_BACKEND=vulkan: Wine's winevulkan on Mesa's lavapipe): its default choice under Wine 8
# fails with "Parent device is lost" and the program prints the assessment instead of opening
# the window. On Windows itself wgpu picks DirectX 12 or Vulkan as usual.
#
# Needs: wine (64-bit), x86_64-w64-mingw32-gcc, mesa-vulkan-drivers, and what
# packaging/window-smoke.sh needs.
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: $0 EXE OUTDIR" >&2; exit 2; }
root="$(cd "$(dirname "$0")/../.." && pwd)"
exe="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
[ -f "$exe" ] || { echo "wine-window-smoke: no program at $1" >&2; exit 2; }
command -v wine >/dev/null || { echo "wine-window-smoke: wine missing (apt-get install wine wine64)" >&2; exit 2; }

tmp="$(mktemp -d)"
prefix="${RAMVRAM_WINE_PREFIX:-$tmp/prefix}"
cleanup() {
  # A temporary prefix's wineserver is stopped before its folder goes; a given one is left.
  [ -n "${RAMVRAM_WINE_PREFIX:-}" ] || WINEPREFIX="$prefix" wineserver -k 2>/dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT
prefix="$("$root/tests/wine/prefix.sh" "$prefix")"

# window-smoke.sh runs one program: this one starts ramvram.exe under Wine with its arguments
# (the fixture's Unix path reaches the program as \work\…, which Wine finds on drive Z:, the
# current drive).
cat >"$tmp/ramvram-under-wine" <<WRAP
#!/bin/sh
export WINEPREFIX='$prefix' WINEDEBUG=-all WGPU_BACKEND=vulkan
export WINEDLLOVERRIDES='mscoree,mshtml=;winemenubuilder.exe=d'
exec wine '$exe' "\$@"
WRAP
chmod +x "$tmp/ramvram-under-wine"
"$root/packaging/window-smoke.sh" "$tmp/ramvram-under-wine" "$2"
