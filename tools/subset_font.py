#!/usr/bin/env python3
"""Build ramvram's bundled CJK font: a renamed subset of Noto Sans CJK SC.

Input : Debian's fonts-noto-cjk collection
        /usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc, face 2
        (Noto Sans CJK SC Regular, CFF outlines).
Output: assets/fonts/ramvram-cjk-sc.otf (CFF/OTF), written atomically.

Character set:
  * printable ASCII, Latin-1 Supplement
  * General Punctuation U+2000-206F
  * Arrows U+2190-21FF, Mathematical Operators U+2200-22FF,
    Geometric Shapes U+25A0-25FF, Dingbats U+2700-27BF, plus a few symbols
  * CJK Symbols and Punctuation U+3000-303F
  * Halfwidth and Fullwidth Forms U+FF00-FFEF
  * every character of GB 2312 (rows 0xA1-0xF7 x cells 0xA1-0xFE, decoded
    with Python's 'gb2312' codec)
  * every character found in any file under locales/ (if that folder exists)
Code points the source font has no glyph for are simply not included
(they are counted and, for locales/ text, listed).

The font is renamed to "ramvram CJK SC" (a Modified Version under the
SIL Open Font License 1.1); see assets/fonts/OFL.txt.

The output is deterministic: the same source font and the same locales/
contents give byte-identical output.

Requires only fontTools:  python3 -m pip install fonttools
Usage:                    python3 tools/subset_font.py
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile
import unicodedata
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTFont

REPO_ROOT = Path(__file__).resolve().parent.parent

DEFAULT_SOURCE = Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")
SOURCE_FACE_INDEX = 2
SOURCE_FAMILY = "Noto Sans CJK SC"
DEFAULT_OUTPUT = REPO_ROOT / "assets" / "fonts" / "ramvram-cjk-sc.otf"
LOCALES_DIR = REPO_ROOT / "locales"

NEW_FAMILY = "ramvram CJK SC"
NEW_SUBFAMILY = "Regular"
NEW_FULL_NAME = "ramvram CJK SC Regular"
NEW_PS_NAME = "ramvramCJKSC-Regular"
# FDArray sub-font names in the (shared) CFF, e.g. "NotoSansCJKjp-Regular-Kana".
OLD_FD_PREFIX = re.compile(r"^NotoSans(?:Mono)?CJK[a-z]{2}-Regular")

# Symbols the UI uses; most are also covered by the ranges below.
EXTRA_SYMBOLS = "≥≤×÷→←↑↓±≈∞✓✗•·…—–‘’“”"

RANGES = [
    (0x0020, 0x007E),  # printable ASCII
    (0x00A0, 0x00FF),  # Latin-1 Supplement
    (0x2000, 0x206F),  # General Punctuation
    (0x2190, 0x21FF),  # Arrows
    (0x2200, 0x22FF),  # Mathematical Operators
    (0x25A0, 0x25FF),  # Geometric Shapes
    (0x2700, 0x27BF),  # Dingbats (optional; only what the font has)
    (0x3000, 0x303F),  # CJK Symbols and Punctuation
    (0xFF00, 0xFFEF),  # Halfwidth and Fullwidth Forms
]


def die(msg: str) -> "NoReturn":  # noqa: F821
    print(f"subset_font.py: error: {msg}", file=sys.stderr)
    sys.exit(1)


def gb2312_chars() -> set[int]:
    out: set[int] = set()
    for row in range(0xA1, 0xF8):
        for cell in range(0xA1, 0xFF):
            try:
                s = bytes((row, cell)).decode("gb2312")
            except UnicodeDecodeError:
                continue
            out.update(ord(c) for c in s)
    return out


def locale_chars(locales_dir: Path) -> set[int]:
    out: set[int] = set()
    if not locales_dir.is_dir():
        return out
    for path in sorted(p for p in locales_dir.rglob("*") if p.is_file()):
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError as e:
            die(f"{path} is not valid UTF-8: {e}")
        for c in text:
            cp = ord(c)
            # Skip controls, BOM and other format characters: they need no glyph.
            if unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp"):
                continue
            out.add(cp)
    return out


def wanted_codepoints(locales_dir: Path) -> tuple[set[int], set[int]]:
    cps: set[int] = set()
    for lo, hi in RANGES:
        cps.update(range(lo, hi + 1))
    cps.update(ord(c) for c in EXTRA_SYMBOLS)
    cps.update(gb2312_chars())
    loc = locale_chars(locales_dir)
    cps.update(loc)
    return cps, loc


def load_source(path: Path, index: int) -> TTFont:
    if not path.is_file():
        die(f"source font {path} not found (apt-get install fonts-noto-cjk)")
    font = TTFont(str(path), fontNumber=index, recalcTimestamp=False, lazy=False)
    family = font["name"].getDebugName(1)
    if family != SOURCE_FAMILY:
        die(f"face {index} of {path} is {family!r}, expected {SOURCE_FAMILY!r}")
    if "CFF " not in font:
        die(f"face {index} of {path} has no CFF outlines")
    return font


def source_version(font: TTFont) -> str:
    # name ID 5 looks like "Version 2.004;hotconv 1.0.118;makeotfexe 2.5.65603"
    v = font["name"].getDebugName(5) or ""
    v = v.split(";")[0].strip()
    if v.lower().startswith("version "):
        v = v[len("version "):]
    return v or f"{font['head'].fontRevision:.3f}"


def rename(font: TTFont, version: str) -> None:
    name = font["name"]
    note = (
        f"Subset of Noto Sans CJK SC {version} made by tools/subset_font.py "
        f"for ramvram; renamed to \"{NEW_FAMILY}\" as a Modified Version "
        f"under the SIL Open Font License 1.1."
    )
    unique_id = f"{version};ramvram;{NEW_PS_NAME}"
    replacements = {
        1: NEW_FAMILY,
        2: NEW_SUBFAMILY,
        3: unique_id,
        4: NEW_FULL_NAME,
        6: NEW_PS_NAME,
    }
    seen_desc = False
    for rec in name.names:
        if rec.nameID in replacements:
            rec.string = replacements[rec.nameID]
        elif rec.nameID == 10:
            old = rec.toUnicode()
            rec.string = (old.rstrip() + "\n" + note) if old.strip() else note
            seen_desc = True
    # Names that are mandatory / that we always want for the main Windows record.
    for nid in (1, 2, 3, 4, 6):
        if name.getName(nid, 3, 1, 0x409) is None:
            name.setName(replacements[nid], nid, 3, 1, 0x409)
    if not seen_desc:
        name.setName(note, 10, 3, 1, 0x409)
    # Typographic / WWS family names would still say "Noto" (the source has none).
    for nid in (16, 17, 21, 22):
        name.removeNames(nameID=nid)

    # Names inside the CFF table.
    cff = font["CFF "].cff
    cff.fontNames = [NEW_PS_NAME]
    top = cff.topDictIndex[0]
    top.FullName = NEW_FULL_NAME
    top.FamilyName = NEW_FAMILY
    if hasattr(top, "CIDFontName"):
        top.CIDFontName = NEW_PS_NAME
    if hasattr(top, "FDArray"):
        for fd in top.FDArray:
            fn = getattr(fd, "FontName", None)
            if fn:
                fd.FontName = OLD_FD_PREFIX.sub(NEW_PS_NAME, fn)


def check_names(font: TTFont) -> None:
    name = font["name"]
    for rec in name.names:
        if rec.nameID in (1, 3, 4, 6, 16, 17, 21, 22) and "Noto" in rec.toUnicode():
            die(f"name ID {rec.nameID} still says {rec.toUnicode()!r}")
    cff = font["CFF "].cff
    top = cff.topDictIndex[0]
    names = [cff.fontNames[0], getattr(top, "FullName", ""), getattr(top, "FamilyName", "")]
    names += [getattr(fd, "FontName", "") for fd in getattr(top, "FDArray", [])]
    for v in names:
        if "Noto" in v:
            die(f"CFF name still says {v!r}")


def write_atomically(font: TTFont, out: Path) -> None:
    out.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{out.name}.", suffix=".tmp", dir=out.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            font.save(f)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, out)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--source", type=Path, default=DEFAULT_SOURCE)
    ap.add_argument("--face", type=int, default=SOURCE_FACE_INDEX)
    ap.add_argument("--locales", type=Path, default=LOCALES_DIR)
    ap.add_argument("--output", type=Path, default=DEFAULT_OUTPUT)
    ap.add_argument("--keep-hinting", action="store_true",
                    help="keep CFF hints (bigger file; hints barely matter at UI sizes)")
    args = ap.parse_args()

    font = load_source(args.source, args.face)
    version = source_version(font)
    cmap = font.getBestCmap()

    wanted, loc = wanted_codepoints(args.locales)
    present = sorted(cp for cp in wanted if cp in cmap)
    missing_loc = sorted(cp for cp in loc if cp not in cmap)
    if missing_loc:
        shown = " ".join(f"U+{cp:04X}({chr(cp)})" for cp in missing_loc[:50])
        more = "" if len(missing_loc) <= 50 else f" … and {len(missing_loc) - 50} more"
        print(f"warning: {len(missing_loc)} character(s) used in locales/ have no glyph "
              f"in {SOURCE_FAMILY}: {shown}{more}", file=sys.stderr)

    opts = subset.Options()
    opts.name_IDs = ["*"]
    opts.name_languages = ["*"]
    opts.name_legacy = True
    # Keep every layout feature except the ones that only pull in Japanese, Korean and
    # Traditional Chinese variant glyphs (locl, aalt, hist, ruby, vjmo): egui and krilla never
    # apply them to our Simplified Chinese text, and dropping them halves the file.
    excluded = {"locl", "aalt", "hist", "ruby", "vjmo"}
    feature_tags = set()
    for table in ("GSUB", "GPOS"):
        if table in font and font[table].table.FeatureList:
            records = font[table].table.FeatureList.FeatureRecord
            feature_tags.update(str(r.FeatureTag) for r in records)
    opts.layout_features = sorted(feature_tags - excluded)
    opts.layout_scripts = ["*"]
    opts.hinting = args.keep_hinting
    opts.notdef_glyph = True
    opts.notdef_outline = True
    opts.recommended_glyphs = True
    opts.glyph_names = False
    opts.legacy_kern = False
    opts.desubroutinize = False
    opts.recalc_timestamp = False
    opts.recalc_bounds = True
    opts.prune_unicode_ranges = True
    # Default drops (JSTF, DSIG, EBDT/EBLC/EBSC, PCLT, LTSH, Graphite tables)
    # plus anything that could carry per-build data. BASE, VORG, vhea/vmtx are
    # kept (small; needed for correct CJK baselines and vertical text).
    opts.drop_tables = sorted(set(opts.drop_tables) | {"DSIG", "FFTM", "meta"})

    subsetter = subset.Subsetter(options=opts)
    subsetter.populate(unicodes=present)
    subsetter.subset(font)

    rename(font, version)
    check_names(font)

    out = args.output.resolve()
    write_atomically(font, out)

    glyphs = len(font.getGlyphOrder())
    size = out.stat().st_size
    try:
        shown_path = out.relative_to(REPO_ROOT)
    except ValueError:
        shown_path = out
    print(f"wrote {shown_path}")
    print(f"source: {args.source} face {args.face} ({SOURCE_FAMILY} {version})")
    print(f"code points: {len(present)} mapped of {len(wanted)} requested "
          f"({len(loc)} from locales/)")
    print(f"glyphs: {glyphs}")
    print(f"size: {size} bytes ({size / (1024 * 1024):.2f} MiB)")


if __name__ == "__main__":
    main()
