//! Measuring and breaking text for the PDF. Reports use three fonts: the bundled Latin font for
//! Latin text, the bundled CJK subset for Chinese, chosen per run of text ([`Measure::runs`]),
//! so an English page gets a normal "·", "×" and "≥" rather than the CJK font's full-width
//! forms, and the bundled monospace font for code spans (commands, flags, file names:
//! [`crate::codespan`]), as the window sets them. krilla draws one run in one font, so lines are
//! broken here (UAX #14, see [`crate::linebreak`]) with the fonts' own advance widths, read by
//! ab_glyph.

use std::ops::Range;

use ab_glyph::{Font, FontRef};

use crate::assets::{CJK_FONT, LATIN_FONT, MONO_FONT};
use crate::linebreak;

/// Which bundled font sets a run of text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Face {
    /// "ramvram Sans" (Noto Sans subset).
    Latin,
    /// "ramvram CJK SC" (Noto Sans CJK SC subset).
    Cjk,
    /// "ramvram Mono" (Noto Sans Mono subset): code spans.
    Mono,
}

/// One wrapped line as drawn: its text (code spans without their backticks) and the byte
/// ranges of `text` that are code, set in [`Face::Mono`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Line {
    /// The line's characters.
    pub text: String,
    /// Code spans within `text`, in order, not overlapping.
    pub code: Vec<Range<usize>>,
}

impl Line {
    /// A line with no code.
    pub fn plain(text: impl Into<String>) -> Line {
        Line {
            text: text.into(),
            code: Vec::new(),
        }
    }
}

/// How a character picks its font.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Class {
    /// Always the given face.
    Strong(Face),
    /// Spaces and punctuation both scripts use (quotes, dashes, "·", "…"): the face of the
    /// text around it, so "“吃不饱”" gets full-width quotes and "RAM · VRAM" a Latin dot.
    Neutral,
}

/// Measures text in the three bundled fonts.
pub struct Measure {
    latin: FontRef<'static>,
    cjk: FontRef<'static>,
    mono: FontRef<'static>,
}

impl Measure {
    /// Reads the bundled fonts. Panics only if a bundled font is corrupt (a build defect,
    /// caught by every PDF test).
    pub fn new() -> Measure {
        Measure {
            latin: FontRef::try_from_slice(LATIN_FONT).expect("bundled Latin font parses"),
            cjk: FontRef::try_from_slice(CJK_FONT).expect("bundled CJK font parses"),
            mono: FontRef::try_from_slice(MONO_FONT).expect("bundled monospace font parses"),
        }
    }

    fn font(&self, face: Face) -> &FontRef<'static> {
        match face {
            Face::Latin => &self.latin,
            Face::Cjk => &self.cjk,
            Face::Mono => &self.mono,
        }
    }

    fn class(&self, c: char) -> Class {
        if is_cjk(c) {
            Class::Strong(Face::Cjk)
        } else if self.latin.glyph_id(c).0 == 0 {
            // Not in the Latin font (box drawing, rare symbols): the CJK font or its .notdef.
            Class::Strong(Face::Cjk)
        } else if c.is_whitespace() || is_shared_punctuation(c) {
            Class::Neutral
        } else {
            Class::Strong(Face::Latin)
        }
    }

    /// Splits `text` into runs of one font each. Neutral characters join the run before them
    /// (at the start, the run after them); a text with no strong character is Latin.
    pub fn runs<'a>(&self, text: &'a str) -> Vec<(Face, &'a str)> {
        self.runs_in(text, &[])
    }

    /// [`Self::runs`] of a line whose byte ranges `code` are code spans: their characters are
    /// set in [`Face::Mono`] where it has them. Neutral characters outside the spans take the
    /// face of the text around them, never the monospace one.
    pub fn runs_in<'a>(&self, text: &'a str, code: &[Range<usize>]) -> Vec<(Face, &'a str)> {
        let in_code = |i: usize| code.iter().any(|r| r.contains(&i));
        let classes: Vec<(usize, Class)> = text
            .char_indices()
            .map(|(i, c)| {
                if in_code(i) && self.mono.glyph_id(c).0 != 0 {
                    (i, Class::Strong(Face::Mono))
                } else {
                    (i, self.class(c))
                }
            })
            .collect();
        let first_strong = classes.iter().find_map(|(_, c)| match c {
            Class::Strong(f) if *f != Face::Mono => Some(*f),
            _ => None,
        });
        let mut current = first_strong.unwrap_or(Face::Latin);
        // The face of the text (not code) most recently seen, for neutral characters.
        let mut around = current;
        let mut runs: Vec<(Face, &'a str)> = Vec::new();
        let mut start = 0;
        for (i, class) in classes {
            let face = match class {
                Class::Strong(f) => {
                    if f != Face::Mono {
                        around = f;
                    }
                    f
                }
                Class::Neutral if current == Face::Mono => around,
                Class::Neutral => current,
            };
            if face != current {
                if i > start {
                    runs.push((current, &text[start..i]));
                }
                start = i;
                current = face;
            }
        }
        if start < text.len() {
            runs.push((current, &text[start..]));
        }
        runs
    }

    /// Width of `text` set in `face` at `size` points.
    pub fn face_width(&self, face: Face, text: &str, size: f32) -> f32 {
        let font = self.font(face);
        let upem = font.units_per_em().unwrap_or(1000.0);
        text.chars()
            .map(|c| font.h_advance_unscaled(font.glyph_id(c)))
            .sum::<f32>()
            * size
            / upem
    }

    /// Width of `text` at `size` points, each run in its own font.
    pub fn width(&self, text: &str, size: f32) -> f32 {
        self.runs(text)
            .iter()
            .map(|(face, run)| self.face_width(*face, run, size))
            .sum()
    }

    /// Widths of `text[..i]` at every char boundary `i`, each character in the font its run
    /// gets in the whole text (a "·" between Chinese words is full-width, between English ones
    /// narrow), so that any piece of the text measures as it will be drawn.
    fn prefix_widths(&self, text: &str, code: &[Range<usize>], size: f32) -> Vec<(usize, f32)> {
        let mut out = Vec::with_capacity(text.len() + 1);
        let mut x = 0.0;
        for (face, run) in self.runs_in(text, code) {
            let base = run.as_ptr() as usize - text.as_ptr() as usize;
            for (i, c) in run.char_indices() {
                out.push((base + i, x));
                x += self.face_width(face, c.encode_utf8(&mut [0; 4]), size);
            }
        }
        out.push((text.len(), x));
        out
    }

    /// A width function over byte ranges of `text` for [`linebreak`].
    fn range_width(
        &self,
        text: &str,
        code: &[Range<usize>],
        size: f32,
    ) -> impl Fn(std::ops::Range<usize>) -> f32 {
        let prefix = self.prefix_widths(text, code, size);
        move |r: std::ops::Range<usize>| {
            let at = |i: usize| {
                prefix
                    .binary_search_by_key(&i, |p| p.0)
                    .map_or(0.0, |k| prefix[k].1)
            };
            at(r.end) - at(r.start)
        }
    }

    /// Breaks `text` into lines no wider than `max` points at UAX #14 opportunities
    /// ([`linebreak::break_lines`]); a newline always breaks. Left-aligned: nothing is stretched.
    /// Code spans ([`crate::codespan`]) lose their backticks and, like options, paths and file
    /// names, stay on one line, set in the monospace font ([`Line::code`]).
    pub fn wrap(&self, text: &str, size: f32, max: f32) -> Vec<Line> {
        let spans = crate::codespan::parse(text);
        let text = spans.text.as_str();
        let width = self.range_width(text, &spans.code, size);
        let lines = linebreak::break_lines_keeping(text, &spans.code, max, width);
        lines
            .iter()
            .map(|l| {
                let (start, end) = (l.visible.start, l.visible.end);
                let code = spans
                    .code
                    .iter()
                    .filter(|r| r.start < end && r.end > start)
                    .map(|r| r.start.max(start) - start..r.end.min(end) - start)
                    .collect();
                Line {
                    text: text[start..end].to_string(),
                    code,
                }
            })
            .collect()
    }

    /// Width of one line written with code spans (`` `ramvram detect` ``), as drawn: the spans
    /// without their backticks, in the monospace font.
    pub fn marked_width(&self, text: &str, size: f32) -> f32 {
        let spans = crate::codespan::parse(text);
        self.runs_in(&spans.text, &spans.code)
            .iter()
            .map(|(face, run)| self.face_width(*face, run, size))
            .sum()
    }

    /// The narrowest width `text` can be broken to without splitting a word, at `size` points.
    pub fn min_width(&self, text: &str, size: f32) -> f32 {
        let spans = crate::codespan::parse(text);
        let text = spans.text.as_str();
        linebreak::min_content_width_keeping(
            text,
            &spans.code,
            self.range_width(text, &spans.code, size),
        )
    }
}

impl Default for Measure {
    fn default() -> Self {
        Measure::new()
    }
}

/// CJK ideographs, kana, hangul, CJK punctuation and full-width forms: always the CJK font.
fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x2E80..=0x2FFF | 0x3000..=0x303F | 0x3040..=0x30FF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF
        | 0xAC00..=0xD7AF | 0xF900..=0xFAFF | 0xFE30..=0xFE4F | 0xFF00..=0xFFEF
        | 0x20000..=0x2FFFF)
}

/// Punctuation Chinese and English text share, set in the font of the text around it: the
/// middle dot and General Punctuation's dashes, quotes, bullets and ellipsis.
fn is_shared_punctuation(c: char) -> bool {
    matches!(c as u32, 0x00B7 | 0x2010..=0x2027 | 0x2030..=0x205E)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn latin_text_is_one_latin_run_and_chinese_one_cjk_run() {
        let m = Measure::new();
        assert_eq!(
            m.runs("RAM · VRAM 0.67× ≥ 2×"),
            [(Face::Latin, "RAM · VRAM 0.67× ≥ 2×")]
        );
        assert_eq!(m.runs("内存比显存还小"), [(Face::Cjk, "内存比显存还小")]);
    }

    #[test]
    fn mixed_text_switches_font_per_run_and_quotes_follow_their_text() {
        let m = Measure::new();
        assert_eq!(
            m.runs("内存比显存还小：GPU 会“吃不饱”"),
            [
                (Face::Cjk, "内存比显存还小："),
                (Face::Latin, "GPU "),
                (Face::Cjk, "会“吃不饱”"),
            ]
        );
        // A text with nothing but spaces and shared punctuation is Latin.
        assert_eq!(m.runs(" … "), [(Face::Latin, " … ")]);
        assert_eq!(m.runs(""), []);
    }

    #[test]
    fn the_latin_font_sets_narrow_punctuation() {
        // Noto Sans: "·" 268 units, "×" 572, "≥" 572 (Noto Sans Math) per 1000; the CJK font's
        // middle dot is full-width (1000).
        let m = Measure::new();
        assert!(
            (m.width("·", 10.0) - 2.68).abs() < 0.01,
            "{}",
            m.width("·", 10.0)
        );
        assert!(m.face_width(Face::Cjk, "·", 10.0) > 9.9);
        assert!((m.width("内", 10.0) - 10.0).abs() < 0.01);
    }

    #[test]
    fn code_spans_are_set_in_the_monospace_font_and_spaces_around_them_are_not() {
        let m = Measure::new();
        let lines = m.wrap(
            "Run `ramvram bench memory` now, 然后 `sudo sysctl vm.swappiness=10`。",
            10.0,
            1000.0,
        );
        assert_eq!(lines.len(), 1);
        let l = &lines[0];
        assert_eq!(
            l.text,
            "Run ramvram bench memory now, 然后 sudo sysctl vm.swappiness=10。"
        );
        assert_eq!(
            m.runs_in(&l.text, &l.code),
            [
                (Face::Latin, "Run "),
                (Face::Mono, "ramvram bench memory"),
                (Face::Latin, " now, "),
                (Face::Cjk, "然后 "),
                (Face::Mono, "sudo sysctl vm.swappiness=10"),
                (Face::Cjk, "。"),
            ]
        );
        // Noto Sans Mono: every character is 600 units per 1000, "i" as wide as "m".
        assert!((m.face_width(Face::Mono, "il", 10.0) - 12.0).abs() < 0.01);
        assert!((m.marked_width("`ramvram`", 10.0) - 42.0).abs() < 0.01);
        // A span broken onto the next line keeps its code range there.
        let narrow = m.wrap("see `ramvram detect --dmidecode FILE` first", 10.0, 200.0);
        assert!(narrow.len() > 1, "{narrow:?}");
        let with_code: Vec<_> = narrow.iter().filter(|l| !l.code.is_empty()).collect();
        assert_eq!(with_code.len(), 1);
        let l = with_code[0];
        assert_eq!(
            &l.text[l.code[0].clone()],
            "ramvram detect --dmidecode FILE"
        );
    }

    #[test]
    fn wrapped_lines_fit_and_keep_every_character() {
        let m = Measure::new();
        let text = "系统内存是给 GPU 供数据的“蓄水池”：存储 → 内存 → CPU 解码 → PCIe → GPU。 The pool is smaller than what it feeds.";
        let lines: Vec<String> = m
            .wrap(text, 10.0, 120.0)
            .into_iter()
            .map(|l| l.text)
            .collect();
        assert!(lines.len() > 3);
        for l in &lines {
            assert!(m.width(l, 10.0) <= 120.0, "{l}");
            assert!(
                !l.starts_with('，') && !l.starts_with('。') && !l.starts_with('”'),
                "{l}"
            );
        }
        let squash = |s: &str| s.chars().filter(|c| !c.is_whitespace()).collect::<String>();
        assert_eq!(squash(&lines.concat()), squash(text));
    }
}
