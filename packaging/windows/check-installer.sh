#!/usr/bin/env bash
# Builds the Windows installer and checks it under Wine: a silent install in English and one
# in Simplified Chinese into a fresh 64-bit Wine prefix, each followed by a silent uninstall.
#
#   packaging/windows/check-installer.sh EXE OUTDIR
#
# For each install it checks: exactly the expected files in C:\Program Files\ramvram (the
# program identical to EXE stripped of its symbols, nothing from the test tree), the all-users Start-menu shortcut
# ramvram.lnk pointing at that ramvram.exe (read with lnk-info.py) with its description in the
# installer's language, the Add/Remove Programs entry (DisplayName, DisplayVersion,
# UninstallString naming an uninstaller that exists), and that the program the shortcut names
# runs `--version`. After `uninstall.exe /S`: the folder, the shortcut and the registry entry
# are gone.
#
# OUTDIR receives the installer (ramvram-VERSION-x64-setup.exe) and installer-check.txt (the
# shortcut's fields and the registry entry, for the record). The Wine prefix is
# RAMVRAM_WINE_CACHE/installer-prefix (default: a temporary folder), made anew each run;
# tests/wine/prefix.sh puts the test-only stand-in bcryptprimitives.dll into that prefix's
# system32 so that the installed ramvram.exe can start under Wine 8. The installer itself
# never contains it (checked below).
#
# Needs: wine (64-bit; Debian's wine + wine64), makensis (nsis), x86_64-w64-mingw32-gcc
# (gcc-mingw-w64-x86-64), python3. Wine's exit status is not trusted: every step is checked by
# what it left behind.
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: $0 EXE OUTDIR" >&2; exit 2; }
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
exe="$1"
mkdir -p "$2"
outdir="$(cd "$2" && pwd)"

step() { echo "== check-installer: $*"; }
fail() { echo "check-installer: FAILED: $*" >&2; exit 1; }
for tool in wine wineserver winepath makensis x86_64-w64-mingw32-strip python3 cmp; do
  command -v "$tool" >/dev/null || fail "$tool missing (apt-get install wine wine64 nsis python3)"
done
[ -f "$exe" ] || fail "no program at $exe"

step "build the installer (makensis)"
setup=$("$here/build-installer.sh" "$exe" "$outdir")
version=$(sed -n 's/^version = "\([^"]*\)"$/\1/p' "$root/Cargo.toml" | head -n1)
ls -l "$setup"

cache="${RAMVRAM_WINE_CACHE:-}"
tmp=""
if [ -z "$cache" ]; then
  tmp="$(mktemp -d)"
  cache="$tmp"
fi
prefix_dir="$cache/installer-prefix"
# What the installer should carry: EXE without its symbols (build-installer.sh strips it so).
stripped="$cache/ramvram-stripped.exe"
# (with the linker's PE time stamp, as build-installer.sh does)
pe_off=$(od -An -tu4 -j60 -N4 "$exe" | tr -d ' ')
SOURCE_DATE_EPOCH=$(od -An -tu4 -j"$((pe_off + 8))" -N4 "$exe" | tr -d ' ') \
  x86_64-w64-mingw32-strip -o "$stripped" "$exe"
cleanup() {
  WINEPREFIX="$prefix_dir" wineserver -k 2>/dev/null || true
  [ -z "$tmp" ] || rm -rf "$tmp"
}
trap cleanup EXIT

step "a fresh Wine prefix ($prefix_dir)"
WINEPREFIX="$prefix_dir" wineserver -k 2>/dev/null || true
rm -rf "$prefix_dir"
export WINEPREFIX
WINEPREFIX="$("$root/tests/wine/prefix.sh" "$prefix_dir")"
export WINEDEBUG=-all WINEARCH=win64
# No Mono/Gecko installers; no winemenubuilder (it would write .desktop files for the
# Start-menu entry into this user's ~/.local/share).
export WINEDLLOVERRIDES="mscoree,mshtml=;winemenubuilder.exe=d"

c="$WINEPREFIX/drive_c"
instdir="$c/Program Files/ramvram"
lnk="$c/ProgramData/Microsoft/Windows/Start Menu/Programs/ramvram.lnk"
key='HKLM\Software\Microsoft\Windows\CurrentVersion\Uninstall\ramvram'
expected_files="OFL-font.txt
OFL-ramvram-mono.txt
OFL-ramvram-sans.txt
README.md
ramvram.exe
ramvram.ico
uninstall.exe"

# The value of NAME under the uninstall key, or nothing.
reg_value() {
  wine reg query "$key" /v "$1" 2>/dev/null | tr -d '\r' \
    | sed -n "s/^ *$1 *REG_[A-Z_]* *//p"
}

: >"$outdir/installer-check.txt"
check_install() { # LANGID DESCRIPTION
  local langid=$1 description=$2
  step "install silently: $(basename "$setup") /S /LANG=$langid"
  wine "$setup" /S "/LANG=$langid" || true
  wineserver -w

  [ -d "$instdir" ] || fail "nothing installed in C:\\Program Files\\ramvram"
  local files
  files=$(cd "$instdir" && find . -type f | sed 's|^\./||' | LC_ALL=C sort)
  [ "$files" = "$expected_files" ] || fail "installed files differ from the expected list:
$files"
  cmp -s "$instdir/ramvram.exe" "$stripped" || fail "the installed ramvram.exe is not the one built (stripped)"

  [ -f "$lnk" ] || fail "no Start-menu shortcut at $lnk"
  local info target unix_target
  info=$(python3 "$here/lnk-info.py" "$lnk") || fail "the shortcut can't be read"
  echo "shortcut ($langid): $info" | tee -a "$outdir/installer-check.txt"
  target=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["target"])' "$info")
  [ "$target" = 'C:\Program Files\ramvram\ramvram.exe' ] || fail "the shortcut points at '$target'"
  unix_target=$(winepath -u "$target" 2>/dev/null | tr -d '\r')
  [ -f "$unix_target" ] || fail "the shortcut's target $target ($unix_target) does not exist"
  [ "$(stat -c %i "$unix_target")" = "$(stat -c %i "$instdir/ramvram.exe")" ] \
    || fail "the shortcut's target is not the installed ramvram.exe"
  python3 -c 'import json,sys; d=json.loads(sys.argv[1]); sys.exit(d.get("description") != sys.argv[2])' \
    "$info" "$description" || fail "the shortcut's description is not '$description'"

  local name ver uninst
  name=$(reg_value DisplayName)
  ver=$(reg_value DisplayVersion)
  uninst=$(reg_value UninstallString)
  { echo "registry ($langid):"; wine reg query "$key" 2>/dev/null | tr -d '\r'; } >>"$outdir/installer-check.txt"
  [ "$name" = "ramvram $version" ] || fail "Add/Remove Programs: DisplayName is '$name'"
  [ "$ver" = "$version" ] || fail "Add/Remove Programs: DisplayVersion is '$ver'"
  [ "$uninst" = '"C:\Program Files\ramvram\uninstall.exe"' ] || fail "UninstallString is '$uninst'"
  [ "$(reg_value InstallerLanguage)" = "$langid" ] || fail "InstallerLanguage is not $langid"

  step "the program the shortcut points at: $target --version"
  local said
  said=$(wine "$target" --version 2>&1 | tr -d '\r')
  echo "$said"
  [ "$said" = "ramvram $version" ] || fail "'$target --version' said '$said'"

  step "uninstall silently"
  wine "$instdir/uninstall.exe" /S || true
  wineserver -w
  [ ! -e "$instdir" ] || fail "C:\\Program Files\\ramvram still there after uninstalling: $(ls -A "$instdir")"
  [ ! -e "$lnk" ] || fail "the Start-menu shortcut is still there after uninstalling"
  [ -z "$(reg_value DisplayName)" ] || fail "the Add/Remove Programs entry is still there after uninstalling"
}

check_install 1033 "RAM·VRAM Advisor: can this machine's RAM keep its GPUs fed?"
check_install 2052 "内存·显存顾问：这台机器的内存能否喂饱它的 GPU？"

step "OK: $(basename "$setup") installs, runs and uninstalls under Wine, in English and Chinese"
