//! Measuring and wrapping text for the PDF: krilla draws one line in one font, so lines are
//! broken here, with the font's own advance widths (ab_glyph reads the bundled font).

use ab_glyph::{Font, FontRef};

/// Measures text in the bundled CJK font.
pub struct Measure {
    font: FontRef<'static>,
    units_per_em: f32,
}

impl Measure {
    /// Reads the bundled font. Panics only if the bundled font is corrupt (a build defect,
    /// caught by every PDF test).
    pub fn new() -> Measure {
        let font = FontRef::try_from_slice(crate::assets::CJK_FONT).expect("bundled font parses");
        let units_per_em = font.units_per_em().unwrap_or(1000.0);
        Measure { font, units_per_em }
    }

    /// Width of `text` at `size` points.
    pub fn width(&self, text: &str, size: f32) -> f32 {
        text.chars()
            .map(|c| self.font.h_advance_unscaled(self.font.glyph_id(c)))
            .sum::<f32>()
            * size
            / self.units_per_em
    }

    /// Breaks `text` into lines no wider than `max` points: Latin words break at spaces, CJK
    /// text between any two characters, and closing punctuation never starts a line. A word
    /// wider than a line is split between characters.
    pub fn wrap(&self, text: &str, size: f32, max: f32) -> Vec<String> {
        let mut lines = Vec::new();
        for paragraph in text.split('\n') {
            let mut line = String::new();
            for token in tokens(paragraph) {
                let candidate = format!("{line}{token}");
                if line.is_empty() && token.trim().is_empty() {
                    continue;
                }
                if self.width(candidate.trim_end(), size) <= max || no_break_before(token) {
                    line = candidate;
                    continue;
                }
                if !line.trim().is_empty() {
                    lines.push(line.trim_end().to_string());
                }
                line = String::new();
                if token.trim().is_empty() {
                    continue;
                }
                // A token wider than the whole line: split it between characters.
                for c in token.chars() {
                    let next = format!("{line}{c}");
                    if self.width(&next, size) > max && !line.is_empty() {
                        lines.push(std::mem::take(&mut line));
                    }
                    line.push(c);
                }
            }
            lines.push(line.trim_end().to_string());
        }
        lines
    }
}

impl Default for Measure {
    fn default() -> Self {
        Measure::new()
    }
}

/// CJK ideographs, kana, hangul, CJK punctuation and full-width forms: a line may break before
/// and after each of them.
fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x2E80..=0x2FFF | 0x3000..=0x303F | 0x3040..=0x30FF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF
        | 0xAC00..=0xD7AF | 0xF900..=0xFAFF | 0xFE30..=0xFE4F | 0xFF00..=0xFFEF)
}

/// Closing punctuation that must stay at the end of the previous line (kinsoku).
fn no_break_before(token: &str) -> bool {
    token
        .chars()
        .next()
        .is_some_and(|c| "，。、；：！？）」』】》〉’”％,.;:!?)]}".contains(c))
}

/// Splits into words (with their trailing space kept separate), single CJK characters and spaces.
fn tokens(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut word = false;
    for (i, c) in text.char_indices() {
        if c == ' ' || is_cjk(c) {
            if word {
                out.push(&text[start..i]);
            }
            out.push(&text[i..i + c.len_utf8()]);
            start = i + c.len_utf8();
            word = false;
        } else if !word {
            start = i;
            word = true;
        }
    }
    if word {
        out.push(&text[start..]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_split_words_and_cjk() {
        assert_eq!(tokens("RAM 内存 is"), ["RAM", " ", "内", "存", " ", "is"]);
        assert_eq!(
            tokens("16.0 GiB（可用）"),
            ["16.0", " ", "GiB", "（", "可", "用", "）"]
        );
    }

    #[test]
    fn wraps_within_width_and_keeps_every_character() {
        let m = Measure::new();
        let text = "系统内存是给 GPU 供数据的“蓄水池”：存储 → 内存 → CPU 解码 → PCIe → GPU。 The pool is smaller than what it feeds.";
        let lines = m.wrap(text, 10.0, 120.0);
        assert!(lines.len() > 3);
        for l in &lines {
            // Closing punctuation may overhang by one character.
            assert!(m.width(l, 10.0) <= 120.0 + 10.0, "{l}");
            assert!(!l.starts_with('，') && !l.starts_with('。'), "{l}");
        }
        let joined: String = lines
            .concat()
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect();
        let original: String = text.chars().filter(|c| !c.is_whitespace()).collect();
        assert_eq!(joined, original);
    }

    #[test]
    fn cjk_glyphs_are_wider_than_latin() {
        // Full-width ideographs advance one em; Latin letters less.
        let m = Measure::new();
        assert!((m.width("内", 10.0) - 10.0).abs() < 0.01);
        assert!(m.width("i", 10.0) < 5.0);
    }
}
