#!/usr/bin/env bash
# Builds the Debian package, installs it with dpkg -i, checks the installed program, opens its
# window under Xvfb in English and Chinese, then removes the package.
#
#   packaging/check-deb.sh [OUTDIR]
#
# OUTDIR (default ci-artifacts/ in the clone) receives the .deb, the installed program's outputs
# and the window screenshots (window-en.png, window-zh.png). Runs as root (dpkg -i), as on the
# CI machine, or through sudo. Set DEB=path/to/ramvram_*.deb to check an already built package instead of
# running `cargo deb`.
#
# Needs: cargo-deb on PATH (cargo install cargo-deb --locked), dpkg-dev (dpkg-shlibdeps, for
# cargo-deb's automatic Depends), desktop-file-utils, appstream, jq, and what
# packaging/window-smoke.sh needs. .ci/run installs all of them.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
outdir="${1:-$root/ci-artifacts}"
mkdir -p "$outdir"
outdir="$(cd "$outdir" && pwd)"
cd "$root"

step() { echo "== check-deb: $*"; }
fail() { echo "check-deb: FAILED: $*" >&2; exit 1; }

for tool in desktop-file-validate appstreamcli jq dpkg dpkg-deb; do
  command -v "$tool" >/dev/null || fail "$tool missing (apt-get install desktop-file-utils appstream jq dpkg-dev)"
done
as_root=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || fail "dpkg -i needs root: run as root or install sudo"
  as_root=(sudo)
fi

step "validate the desktop entry and the AppStream metainfo (source tree)"
desktop-file-validate packaging/linux/ramvram.desktop
appstreamcli validate --no-net --pedantic packaging/linux/io.github.ramvram.ramvram.metainfo.xml

deb="${DEB:-}"
if [ -z "$deb" ]; then
  command -v cargo-deb >/dev/null || fail "cargo-deb missing (cargo install cargo-deb --locked)"
  step "cargo deb (release build)"
  # cargo-deb prints the path of the package it wrote as its last line.
  deb=$(cargo deb --locked | tail -n1) || fail "cargo deb failed (output above)"
fi
[ -f "$deb" ] || fail "no package at '$deb'"
cp "$deb" "$outdir/"
echo "package: $deb"
dpkg-deb --info "$deb" | tee "$outdir/deb-info.txt"
dpkg-deb --contents "$deb" | tee "$outdir/deb-contents.txt"
for f in ./usr/bin/ramvram ./usr/share/applications/ramvram.desktop \
  ./usr/share/metainfo/io.github.ramvram.ramvram.metainfo.xml \
  ./usr/share/icons/hicolor/scalable/apps/ramvram.svg \
  ./usr/share/icons/hicolor/256x256/apps/ramvram.png; do
  grep -q " $f\$" "$outdir/deb-contents.txt" || fail "$f is not in the package"
done

pkg=$(dpkg-deb --field "$deb" Package)
version=$(dpkg-deb --field "$deb" Version)
installed=0
remove_pkg() {
  if [ "$installed" = 1 ]; then
    step "dpkg -r $pkg"
    "${as_root[@]}" dpkg -r "$pkg" >/dev/null || echo "check-deb: could not remove $pkg" >&2
    installed=0
  fi
}
trap remove_pkg EXIT

step "dpkg -i $(basename "$deb")"
installed=1
"${as_root[@]}" dpkg -i "$deb"
bin=/usr/bin/ramvram
[ -x "$bin" ] || fail "$bin not installed"
dpkg -L "$pkg" >"$outdir/installed-files.txt"

step "validate the installed desktop entry and metainfo"
desktop-file-validate /usr/share/applications/ramvram.desktop
appstreamcli validate --no-net /usr/share/metainfo/io.github.ramvram.ramvram.metainfo.xml

step "$bin --version"
v=$("$bin" --version)
echo "$v"
[ "$v" = "ramvram ${version%-*}" ] || fail "--version says '$v', the package is $version"

step "$bin detect --json"
"$bin" detect --json >"$outdir/detect.json"
jq -e '.schema_version and .memory.total_bytes > 0' "$outdir/detect.json" >/dev/null \
  || fail "detect --json is not a profile with memory.total_bytes (see $outdir/detect.json)"
jq -c '{schema_version, host, memory: {total_bytes: .memory.total_bytes}, gpus: (.gpus | length)}' "$outdir/detect.json"

step "$bin advise --json on the detected profile"
"$bin" advise --profile "$outdir/detect.json" --json >"$outdir/advise.json"
jq -e . "$outdir/advise.json" >/dev/null || fail "advise --json did not print JSON"

step "no display: the assessment is printed, with a hint"
env -u DISPLAY -u WAYLAND_DISPLAY "$bin" --profile tests/fixtures/profiles/aws-g5.xlarge.json --lang zh \
  >"$outdir/headless-zh.txt" 2>"$outdir/headless-zh.stderr.txt" || fail "headless run exited non-zero"
grep -q '内存' "$outdir/headless-zh.txt" || fail "headless Chinese output has no Chinese (see $outdir/headless-zh.txt)"
[ -s "$outdir/headless-zh.stderr.txt" ] || fail "headless run printed no hint on stderr"
head -n3 "$outdir/headless-zh.txt"
cat "$outdir/headless-zh.stderr.txt"

step "the installed window under Xvfb, en and zh"
packaging/window-smoke.sh "$bin" "$outdir"

remove_pkg
[ ! -e "$bin" ] || fail "$bin still there after dpkg -r"
step "OK: $(basename "$deb") installs, runs, opens its window and uninstalls; artefacts in $outdir"
