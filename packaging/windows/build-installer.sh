#!/usr/bin/env bash
# Builds ramvram's Windows installer with NSIS (Debian's makensis, package nsis; NSIS 3.08 has
# the 64-bit stub it needs) from a built ramvram.exe.
#
#   packaging/windows/build-installer.sh EXE OUTDIR
#
# EXE is `cargo build --release --target x86_64-pc-windows-gnu`'s ramvram.exe; the installer
# carries a copy stripped of its symbols (x86_64-w64-mingw32-strip, as cargo-deb strips the
# Linux binary) and is written to OUTDIR/ramvram-VERSION-x64-setup.exe (VERSION from
# Cargo.toml), its path printed. See packaging/windows/installer.nsi for what it installs.
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: $0 EXE OUTDIR" >&2; exit 2; }
root="$(cd "$(dirname "$0")/../.." && pwd)"
exe="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
[ -f "$exe" ] || { echo "build-installer: no program at $1" >&2; exit 2; }
command -v makensis >/dev/null || { echo "build-installer: makensis missing (apt-get install nsis)" >&2; exit 2; }
command -v x86_64-w64-mingw32-strip >/dev/null \
  || { echo "build-installer: x86_64-w64-mingw32-strip missing (apt-get install binutils-mingw-w64-x86-64)" >&2; exit 2; }
mkdir -p "$2"
outdir="$(cd "$2" && pwd)"
version=$(sed -n 's/^version = "\([^"]*\)"$/\1/p' "$root/Cargo.toml" | head -n1)
[ -n "$version" ] || { echo "build-installer: no version in Cargo.toml" >&2; exit 1; }
out="$outdir/ramvram-$version-x64-setup.exe"
rm -f "$out"
stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
# strip stamps the PE header's TimeDateStamp (at e_lfanew + 8) with the time it runs, unless
# SOURCE_DATE_EPOCH says otherwise: given the linker's stamp, the same exe always strips to the
# same bytes (check-installer.sh relies on it).
pe_time() {
  local off
  off=$(od -An -tu4 -j60 -N4 "$1" | tr -d ' ')
  od -An -tu4 -j"$((off + 8))" -N4 "$1" | tr -d ' '
}
SOURCE_DATE_EPOCH=$(pe_time "$exe") x86_64-w64-mingw32-strip -o "$stage/ramvram.exe" "$exe"
# -V2: warnings and errors only; -WX: a warning fails the build.
makensis -V2 -WX -DVERSION="$version" -DEXE="$stage/ramvram.exe" -DROOT="$root" -DOUTFILE="$out" \
  "$root/packaging/windows/installer.nsi" >&2
[ -s "$out" ] || { echo "build-installer: makensis wrote no $out" >&2; exit 1; }
echo "$out"
