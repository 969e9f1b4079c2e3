#!/usr/bin/env bash
# Prepares a Wine prefix for running ramvram.exe in tests, and prints its path.
#
#   tests/wine/prefix.sh PREFIX
#
# Creates PREFIX (a 64-bit prefix, `wineboot --init`) when it has no system.reg yet, then builds
# tests/wine/processprng.c with x86_64-w64-mingw32-gcc into PREFIX's system32 as
# bcryptprimitives.dll: Rust's standard library imports ProcessPrng from that DLL, which
# Wine 8 lacks. A Wine that has its own bcryptprimitives.dll should keep loading its builtin
# one (Wine's default load order prefers a builtin DLL to a native file in system32), so the
# stand-in only fills the gap (seen with Wine 8.0 only). The DLL is a test fixture: it goes into this prefix only, never into a package.
#
# Environment: WINE (default wine). Run with the same WINEDEBUG and WINEDLLOVERRIDES as the
# tests; this script sets WINEDEBUG=-all, disables the Mono and Gecko installers (mscoree,
# mshtml), which would otherwise ask in a window on first start, and winemenubuilder (it would
# write desktop entries and file associations into this user's ~/.local/share).
# Exit status: 0 and the prefix's path on stdout; 2 when wine or the mingw compiler is missing.
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: $0 PREFIX" >&2; exit 2; }
here="$(cd "$(dirname "$0")" && pwd)"
wine="${WINE:-wine}"
command -v "$wine" >/dev/null || { echo "wine-prefix: $wine missing (apt-get install wine wine64)" >&2; exit 2; }
command -v x86_64-w64-mingw32-gcc >/dev/null \
  || { echo "wine-prefix: x86_64-w64-mingw32-gcc missing (apt-get install gcc-mingw-w64-x86-64)" >&2; exit 2; }

mkdir -p "$1"
export WINEPREFIX="$(cd "$1" && pwd)"
export WINEARCH=win64 WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml=;winemenubuilder.exe=d"
# Several tests may prepare the same prefix at once: one at a time.
exec 9>"$WINEPREFIX/.ramvram-test.lock"
flock 9

if [ ! -f "$WINEPREFIX/system.reg" ]; then
  echo "wine-prefix: wineboot --init $WINEPREFIX" >&2
  "$wine" wineboot --init >/dev/null 2>&1 || { echo "wine-prefix: wineboot failed" >&2; exit 1; }
  wineserver -w 2>/dev/null || true
fi
sys32="$WINEPREFIX/drive_c/windows/system32"
[ -d "$sys32" ] || { echo "wine-prefix: $sys32 missing after wineboot" >&2; exit 1; }

built="$WINEPREFIX/ramvram-test/bcryptprimitives.dll"
mkdir -p "$(dirname "$built")"
if [ ! -f "$built" ] || [ "$here/processprng.c" -nt "$built" ] || [ "$here/processprng.def" -nt "$built" ]; then
  x86_64-w64-mingw32-gcc -shared -O2 -Wall -Wextra -nostdlib -Wl,--entry,DllMain \
    -o "$built" "$here/processprng.c" "$here/processprng.def" -lkernel32 -ladvapi32
fi
# Copied each time: a Wine upgrade's prefix update may put its own placeholder there.
cp "$built" "$sys32/bcryptprimitives.dll"
echo "$WINEPREFIX"
