//! Files bundled into the binary.

/// "ramvram CJK SC": Noto Sans CJK SC subset to GB 2312 plus every character the locale files
/// use (`tools/subset_font.py`; SIL OFL 1.1, `assets/fonts/OFL.txt`). It has Latin glyphs too.
/// The window and PDF reports use the same bytes.
pub const CJK_FONT: &[u8] = include_bytes!("../assets/fonts/ramvram-cjk-sc.otf");

/// The family name inside [`CJK_FONT`] (set by `tools/subset_font.py`).
pub const CJK_FONT_FAMILY: &str = "ramvram CJK SC";

/// "ramvram Sans": Noto Sans Regular subset, with arrows, ≤ ≥ ≈ − from Noto Sans Math and a few
/// shapes from Noto Sans Symbols 2 (`tools/subset_latin_font.py`; SIL OFL 1.1,
/// `assets/fonts/OFL-ramvram-sans.txt`). PDF reports set Latin text in it and Chinese in
/// [`CJK_FONT`], chosen per run of text.
pub const LATIN_FONT: &[u8] = include_bytes!("../assets/fonts/ramvram-sans.ttf");

/// The family name inside [`LATIN_FONT`] (set by `tools/subset_latin_font.py`).
pub const LATIN_FONT_FAMILY: &str = "ramvram Sans";

/// "ramvram Mono": Noto Sans Mono Regular subset to ASCII, Latin-1 and General Punctuation
/// (`tools/subset_mono_font.py`; SIL OFL 1.1, `assets/fonts/OFL-ramvram-mono.txt`). PDF reports
/// set code spans (commands, flags, file names) in it.
pub const MONO_FONT: &[u8] = include_bytes!("../assets/fonts/ramvram-mono.ttf");

/// The family name inside [`MONO_FONT`] (set by `tools/subset_mono_font.py`).
pub const MONO_FONT_FAMILY: &str = "ramvram Mono";
