#!/usr/bin/env python3
"""Build ramvram's bundled Latin font for PDF reports: "ramvram Sans", a renamed subset of
Noto Sans Regular with a few symbols taken from Noto Sans Math and Noto Sans Symbols 2.

Why: the CJK font's Latin punctuation is full-width ("・" for "·", a wide "×", "⩾" for "≥").
PDF reports set Latin text in this font and Chinese text in ramvram-cjk-sc.otf (made by
tools/subset_font.py), chosen per run of text.

Input : Debian's fonts-noto-core package (/usr/share/fonts/truetype/noto/):
          NotoSans-Regular.ttf          Latin, Greek, punctuation, currency
          NotoSansMath-Regular.ttf      arrows, minus, infinity, <= >= and approximately
          NotoSansSymbols2-Regular.ttf  a few geometric shapes and check marks
Output: assets/fonts/ramvram-sans.ttf (TrueType outlines), written atomically.

Character set (where the source has a glyph):
  * from Noto Sans: printable ASCII, Latin-1 Supplement, Latin Extended-A, Greek and Coptic,
    General Punctuation U+2000-206F, super- and subscripts, currency symbols, letterlike symbols
  * from Noto Sans Math: MATH_CHARS below
  * from Noto Sans Symbols 2: SYMBOL_CHARS below
Anything else (Chinese, full-width forms, box drawing) is left to the CJK font.

Hinting and the OpenType layout tables (GSUB, GPOS, GDEF) are dropped: krilla places glyphs
one by one (no shaping) and ramvram measures text with plain advance widths, so they would only
add bytes. The vertical metrics are Noto Sans's.

The font is renamed to "ramvram Sans" (a Modified Version under the SIL Open Font License 1.1);
see assets/fonts/OFL-ramvram-sans.txt.

The output is deterministic: the same source fonts give a byte-identical file.

Requires only fontTools:  python3 -m pip install fonttools
Usage:                    sudo apt-get install fonts-noto-core
                          python3 tools/subset_latin_font.py
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from fontTools import subset
from fontTools.merge import Merger
from fontTools.ttLib import TTFont

# Shared helpers of the CJK font's script (same folder).
sys.path.insert(0, str(Path(__file__).resolve().parent))
from subset_font import REPO_ROOT, die, source_version, write_atomically  # noqa: E402

NOTO_DIR = Path("/usr/share/fonts/truetype/noto")
SOURCES = {
    "main": "NotoSans-Regular.ttf",
    "math": "NotoSansMath-Regular.ttf",
    "symbols": "NotoSansSymbols2-Regular.ttf",
}
DEFAULT_OUTPUT = REPO_ROOT / "assets" / "fonts" / "ramvram-sans.ttf"

NEW_FAMILY = "ramvram Sans"
NEW_SUBFAMILY = "Regular"
NEW_PS_NAME = "ramvramSans-Regular"

MAIN_RANGES = [
    (0x0020, 0x007E),  # printable ASCII
    (0x00A0, 0x00FF),  # Latin-1 Supplement
    (0x0100, 0x017F),  # Latin Extended-A (names in citations)
    (0x0370, 0x03FF),  # Greek and Coptic (formulas)
    (0x2000, 0x206F),  # General Punctuation
    (0x2070, 0x209F),  # Superscripts and Subscripts
    (0x20A0, 0x20BF),  # Currency Symbols
    (0x2100, 0x214F),  # Letterlike Symbols
]
# Characters ramvram's English text uses that Noto Sans lacks.
MATH_CHARS = "←↑→↓↔−∞≈≠≤≥"
SYMBOL_CHARS = "■▲▶▼◀●✓✗"


def load(path: Path) -> TTFont:
    if not path.is_file():
        die(f"source font {path} not found (apt-get install fonts-noto-core)")
    font = TTFont(str(path), recalcTimestamp=False, lazy=False)
    if "glyf" not in font:
        die(f"{path} has no TrueType outlines")
    return font


def subset_to(font: TTFont, codepoints: set[int]) -> list[int]:
    """Subsets `font` in place to the code points it has; returns them."""
    cmap = font.getBestCmap()
    present = sorted(cp for cp in codepoints if cp in cmap)
    opts = subset.Options()
    opts.name_IDs = ["*"]
    opts.name_languages = ["*"]
    opts.name_legacy = True
    opts.layout_features = []
    opts.hinting = False
    opts.notdef_glyph = True
    opts.notdef_outline = True
    opts.recommended_glyphs = True
    opts.glyph_names = False
    opts.legacy_kern = False
    opts.recalc_timestamp = False
    opts.recalc_bounds = True
    opts.prune_unicode_ranges = True
    opts.drop_tables = sorted(
        set(opts.drop_tables) | {"DSIG", "FFTM", "meta", "GSUB", "GPOS", "GDEF"}
    )
    subsetter = subset.Subsetter(options=opts)
    subsetter.populate(unicodes=present)
    subsetter.subset(font)
    return present


def rename(
    font: TTFont,
    version: str,
    family: str = NEW_FAMILY,
    ps_name: str = NEW_PS_NAME,
    note: str | None = None,
) -> None:
    """Renames `font` to `family` (PostScript name `ps_name`), Regular, with `note` as its
    description (name ID 10); the defaults are ramvram Sans's."""
    name = font["name"]
    if note is None:
        note = (
            f"Subset of Noto Sans {version} with symbols from Noto Sans Math and Noto Sans "
            f"Symbols 2, made by tools/subset_latin_font.py for ramvram; renamed to "
            f"\"{family}\" as a Modified Version under the SIL Open Font License 1.1."
        )
    replacements = {
        1: family,
        2: NEW_SUBFAMILY,
        3: f"{version};ramvram;{ps_name}",
        4: f"{family} {NEW_SUBFAMILY}",
        6: ps_name,
        10: note,
    }
    for nid in (1, 2, 3, 4, 6, 10, 16, 17, 21, 22):
        name.removeNames(nameID=nid)
    for nid, text in replacements.items():
        name.setName(text, nid, 3, 1, 0x409)
        name.setName(text, nid, 1, 0, 0)


def check_names(font: TTFont) -> None:
    for rec in font["name"].names:
        if rec.nameID in (1, 3, 4, 6, 16, 17, 21, 22) and "Noto" in rec.toUnicode():
            die(f"name ID {rec.nameID} still says {rec.toUnicode()!r}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--noto-dir", type=Path, default=NOTO_DIR)
    ap.add_argument("--output", type=Path, default=DEFAULT_OUTPUT)
    args = ap.parse_args()

    main_cps: set[int] = set()
    for lo, hi in MAIN_RANGES:
        main_cps.update(range(lo, hi + 1))
    wanted = {
        "main": main_cps,
        "math": {ord(c) for c in MATH_CHARS},
        "symbols": {ord(c) for c in SYMBOL_CHARS},
    }
    fonts = {key: load(args.noto_dir / file) for key, file in SOURCES.items()}
    version = source_version(fonts["main"])
    metrics = (fonts["main"]["hhea"], fonts["main"]["OS/2"])
    ascent, descent, gap = metrics[0].ascent, metrics[0].descent, metrics[0].lineGap
    os2 = metrics[1]
    typo = (os2.sTypoAscender, os2.sTypoDescender, os2.sTypoLineGap)
    win = (os2.usWinAscent, os2.usWinDescent)
    stamps = (fonts["main"]["head"].created, fonts["main"]["head"].modified)

    counts = {}
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        taken: set[int] = set()
        for key in ("main", "math", "symbols"):
            font = fonts[key]
            # An earlier font wins where two have a glyph: take only what it lacks.
            present = subset_to(font, wanted[key] - taken)
            taken.update(present)
            counts[key] = len(present)
            path = Path(tmp) / f"{key}.ttf"
            font.save(str(path))
            paths.append(str(path))
        merged = Merger().merge(paths)

    missing = sorted(
        c for c in MATH_CHARS + SYMBOL_CHARS if ord(c) not in merged.getBestCmap()
    )
    if missing:
        die(f"no glyph in the sources for: {' '.join(missing)}")
    # Keep Noto Sans's line metrics (the merger takes the extremes of all three fonts).
    hhea, os2 = merged["hhea"], merged["OS/2"]
    hhea.ascent, hhea.descent, hhea.lineGap = ascent, descent, gap
    os2.sTypoAscender, os2.sTypoDescender, os2.sTypoLineGap = typo
    os2.usWinAscent, os2.usWinDescent = win
    # The merger stamps the current time; keep the source's dates so the output is reproducible.
    merged["head"].created, merged["head"].modified = stamps
    merged.recalcTimestamp = False

    rename(merged, version)
    check_names(merged)
    out = args.output.resolve()
    write_atomically(merged, out)

    size = out.stat().st_size
    try:
        shown = out.relative_to(REPO_ROOT)
    except ValueError:
        shown = out
    print(f"wrote {shown}")
    print(f"source: Noto Sans {version} ({args.noto_dir})")
    print(
        f"code points: {counts['main']} from Noto Sans, {counts['math']} from Noto Sans Math, "
        f"{counts['symbols']} from Noto Sans Symbols 2"
    )
    print(f"glyphs: {len(merged.getGlyphOrder())}")
    print(f"size: {size} bytes ({size / 1024:.0f} KiB)")

if __name__ == "__main__":
    main()
