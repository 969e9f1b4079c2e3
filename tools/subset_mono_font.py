#!/usr/bin/env python3
"""Build ramvram's bundled monospace font for PDF reports: "ramvram Mono", a renamed subset of
Noto Sans Mono Regular.

Why: commands, flags and file names in a report (`ramvram bench memory`, `--shm-size=16g`,
`/etc/sysctl.d/99-swappiness.conf`) are set apart in a fixed-width font, as the window does,
so that a reader sees exactly which characters to type.

Input : Debian's fonts-noto-mono package, /usr/share/fonts/truetype/noto/NotoSansMono-Regular.ttf
Output: assets/fonts/ramvram-mono.ttf (TrueType outlines), written atomically.

Character set (where the source has a glyph): printable ASCII, Latin-1 Supplement and General
Punctuation U+2000-206F (the ellipsis in `from_pretrained(…)`). Anything else in a code span
falls back to ramvram Sans, then the CJK font.

Hinting and the OpenType layout tables are dropped, as for ramvram Sans (krilla places glyphs
one by one). The font is renamed to "ramvram Mono" (a Modified Version under the SIL Open Font
License 1.1); see assets/fonts/OFL-ramvram-mono.txt. The output is deterministic.

Requires only fontTools:  python3 -m pip install fonttools
Usage:                    sudo apt-get install fonts-noto-mono
                          python3 tools/subset_mono_font.py
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from subset_font import REPO_ROOT, die, source_version, write_atomically  # noqa: E402
from subset_latin_font import check_names, load, rename, subset_to  # noqa: E402

SOURCE = Path("/usr/share/fonts/truetype/noto/NotoSansMono-Regular.ttf")
DEFAULT_OUTPUT = REPO_ROOT / "assets" / "fonts" / "ramvram-mono.ttf"

NEW_FAMILY = "ramvram Mono"
NEW_PS_NAME = "ramvramMono-Regular"
RANGES = [
    (0x0020, 0x007E),  # printable ASCII
    (0x00A0, 0x00FF),  # Latin-1 Supplement
    (0x2000, 0x206F),  # General Punctuation
]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--source", type=Path, default=SOURCE)
    ap.add_argument("--output", type=Path, default=DEFAULT_OUTPUT)
    args = ap.parse_args()
    font = load(args.source)
    version = source_version(font)
    wanted: set[int] = set()
    for lo, hi in RANGES:
        wanted.update(range(lo, hi + 1))
    present = subset_to(font, wanted)
    font.recalcTimestamp = False
    note = (
        f"Subset of Noto Sans Mono {version}, made by tools/subset_mono_font.py for ramvram; "
        f"renamed to \"{NEW_FAMILY}\" as a Modified Version under the SIL Open Font License 1.1."
    )
    rename(font, version, NEW_FAMILY, NEW_PS_NAME, note)
    check_names(font)
    out = args.output.resolve()
    write_atomically(font, out)
    print(f"wrote {out} ({out.stat().st_size} bytes, {len(present)} characters, Noto Sans Mono {version})")


if __name__ == "__main__":
    main()
