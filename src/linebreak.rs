//! Line breaking for running text in the window and in PDF reports: the break opportunities
//! of the Unicode Line Breaking Algorithm (UAX #14, via the `unicode-linebreak` crate), filled
//! greedily and left-aligned (ragged right, never justified).
//!
//! UAX #14 is what makes mixed Chinese and Latin text break well: a line may end between two
//! ideographs or after a space, never inside a Latin word or number, never before closing
//! punctuation such as "，" or "）" and never after opening punctuation such as "（".
//!
//! The caller measures text (egui's fonts in the window, the bundled fonts in the PDF), so the
//! same breaking serves both.

use std::ops::Range;

use unicode_linebreak::{BreakOpportunity, linebreaks};

/// One line of a broken text, as byte ranges into it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// Everything the line takes from the text, trailing spaces and a newline included; the
    /// lines' ranges are contiguous and together cover the whole text.
    pub range: Range<usize>,
    /// What is drawn: `range` without the trailing spaces and newline.
    pub visible: Range<usize>,
    /// The line ends at a newline in the text (a mandatory break), not because it was full.
    pub hard: bool,
}

/// A break opportunity's segment: the text from the previous opportunity to this one.
struct Segment {
    range: Range<usize>,
    /// Width of the whole segment (trailing spaces included).
    full: f32,
    /// Width without trailing spaces and newline: what the segment adds at a line's end.
    visible: f32,
    /// Byte end of the visible part.
    visible_end: usize,
    /// A line must end after this segment (it ends with a newline, or the text ends).
    mandatory: bool,
}

/// Trailing characters a line hides at its end: spaces, tabs and line separators.
fn is_trailing_space(c: char) -> bool {
    matches!(
        c,
        ' ' | '\t' | '\n' | '\r' | '\u{0B}' | '\u{0C}' | '\u{85}' | '\u{2028}' | '\u{2029}'
    )
}

/// Breaks `text` into lines no wider than `max_width`, measuring pieces of it with `width`,
/// which gets byte ranges of `text` (any unit, as long as `max_width` uses the same one; a
/// range's width may depend on the text around it, as a run's font does in the PDF).
///
/// A line breaks only at a UAX #14 opportunity; a newline always breaks. A single piece wider
/// than a whole line (a long file path, a URL) overflows rather than being split, unless it is
/// wider than the line by itself, in which case it is split between characters as a last resort.
/// An empty text gives one empty line. Never panics, whatever the text or the width (a zero or
/// negative `max_width` gives one piece per line).
pub fn break_lines(
    text: &str,
    max_width: f32,
    width: impl FnMut(Range<usize>) -> f32,
) -> Vec<Line> {
    break_lines_keeping(text, &[], max_width, width)
}

/// [`break_lines`], with no break inside the byte ranges `keep` (code spans: a command a
/// student copies) nor inside a token that looks like a command-line option, a path or a file
/// name ([`kept_tokens`]). A kept piece wider than a whole line is still split between
/// characters as a last resort.
pub fn break_lines_keeping(
    text: &str,
    keep: &[Range<usize>],
    max_width: f32,
    mut width: impl FnMut(Range<usize>) -> f32,
) -> Vec<Line> {
    let mut keep = keep.to_vec();
    keep.extend(kept_tokens(text));
    let segments = segments(text, &keep, &mut width);
    // Rounding: a piece measured exactly as wide as the line (a table column sized to its
    // widest cell) must still fit.
    let max_width = max_width + max_width.abs() * 1e-5 + 1e-4;
    let mut lines = Vec::new();
    let mut start = 0usize;
    // Width of the line so far, counting every segment whole, and where it may end.
    let mut used = 0.0f32;
    let mut last: Option<(usize, usize)> = None; // (range end, visible end) of the last segment
    for seg in segments {
        let fits = used + seg.visible <= max_width;
        if !fits {
            if let Some((end, visible_end)) = last {
                lines.push(Line {
                    range: start..end,
                    visible: start..visible_end,
                    hard: false,
                });
                start = end;
                used = 0.0;
            }
            if seg.visible > max_width && seg.range.start == start {
                // Wider than a line on its own: split it between characters.
                start = split_long(text, &seg, max_width, &mut width, &mut lines);
                used = width(start..seg.range.end);
                last = Some((seg.range.end, seg.visible_end.max(start)));
                if seg.mandatory {
                    lines.push(Line {
                        range: start..seg.range.end,
                        visible: start..seg.visible_end.max(start),
                        hard: text[..seg.range.end].ends_with('\n'),
                    });
                    start = seg.range.end;
                    used = 0.0;
                    last = None;
                }
                continue;
            }
        }
        used += seg.full;
        last = Some((seg.range.end, seg.visible_end));
        if seg.mandatory {
            lines.push(Line {
                range: start..seg.range.end,
                visible: start..seg.visible_end,
                hard: text[..seg.range.end].ends_with('\n'),
            });
            start = seg.range.end;
            used = 0.0;
            last = None;
        }
    }
    // A text ending in a newline (or an empty text) has an empty last line.
    if lines.last().is_none_or(|l| l.hard) {
        lines.push(Line {
            range: text.len()..text.len(),
            visible: text.len()..text.len(),
            hard: false,
        });
    }
    lines
}

/// Pieces of `text` that must not break: whitespace-separated runs of non-CJK characters that
/// start with `-` followed by a letter or digit (an option: `--out`, `-o`), or contain `/`,
/// `\\`, `_`, `=` or a `.` followed by a letter (a path, an identifier, a setting, a file
/// name: `/dev/shm`, `pin_memory`, `vm.swappiness=10`, `libnvidia-ml.so.1`), or are a number
/// and a word joined by a hyphen (`4-bit`, `8-way`). UAX #14 allows a break after `/` and `-`,
/// which would split "libnvidia-" from "ml.so.1" and "4-" from "bit".
pub fn kept_tokens(text: &str) -> Vec<Range<usize>> {
    let splits = |c: char| c.is_whitespace() || is_wide(c);
    let mut out = Vec::new();
    let mut start = None;
    let check = |range: Range<usize>, out: &mut Vec<Range<usize>>| {
        let t = &text[range.clone()];
        let name = t.trim_start_matches('-');
        let option = (1..=2).contains(&(t.len() - name.len()))
            && name.starts_with(|c: char| c.is_ascii_alphanumeric());
        let mut chars = t.chars().peekable();
        let mut code_like = false;
        while let Some(c) = chars.next() {
            code_like |= matches!(c, '/' | '\\' | '_' | '=')
                || (c == '.' && chars.peek().is_some_and(|n| n.is_ascii_alphabetic()));
        }
        let numbered = t.split_once('-').is_some_and(|(n, w)| {
            !n.is_empty()
                && n.chars().all(|c| c.is_ascii_digit())
                && !w.is_empty()
                && w.chars().all(|c| c.is_ascii_alphabetic())
        });
        if option || code_like || numbered {
            out.push(range);
        }
    };
    for (i, c) in text.char_indices() {
        match (splits(c), start) {
            (true, Some(s)) => {
                check(s..i, &mut out);
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    if let Some(s) = start {
        check(s..text.len(), &mut out);
    }
    out
}

/// Ideographs, kana, hangul, CJK punctuation and full-width forms: they end a kept token (a
/// path may be followed by "。" with no space).
fn is_wide(c: char) -> bool {
    matches!(c as u32,
        0x2E80..=0x2FFF | 0x3000..=0x303F | 0x3040..=0x30FF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF
        | 0xAC00..=0xD7AF | 0xF900..=0xFAFF | 0xFE30..=0xFE4F | 0xFF00..=0xFFEF
        | 0x20000..=0x2FFFF)
}

/// The text's pieces between UAX #14 break opportunities, measured; no opportunity strictly
/// inside a range of `keep`.
fn segments(
    text: &str,
    keep: &[Range<usize>],
    width: &mut impl FnMut(Range<usize>) -> f32,
) -> Vec<Segment> {
    let mut out = Vec::new();
    let mut prev = 0;
    for (at, kind) in linebreaks(text) {
        if at <= prev {
            continue;
        }
        if kind != BreakOpportunity::Mandatory && keep.iter().any(|k| k.start < at && at < k.end) {
            continue;
        }
        let visible_end = prev + text[prev..at].trim_end_matches(is_trailing_space).len();
        out.push(Segment {
            range: prev..at,
            full: width(prev..at),
            visible: width(prev..visible_end),
            visible_end,
            mandatory: kind == BreakOpportunity::Mandatory,
        });
        prev = at;
    }
    out
}

/// Splits a segment wider than a line, pushing every full line; returns where the last line
/// starts. It breaks after the last space that keeps the line inside `max_width` (a long line
/// of code: `LoraConfig(r=16, target_modules="all-linear")` keeps `target_modules="all-linear"`
/// whole), else between characters; the space ends its line, unseen.
fn split_long(
    text: &str,
    seg: &Segment,
    max_width: f32,
    width: &mut impl FnMut(Range<usize>) -> f32,
    lines: &mut Vec<Line>,
) -> usize {
    let mut start = seg.range.start;
    let mut end_ok = start;
    // Just after the last space of the line so far.
    let mut after_space: Option<usize> = None;
    for (i, c) in text[seg.range.start..seg.visible_end].char_indices() {
        let end = seg.range.start + i + c.len_utf8();
        while width(start..end) > max_width && end_ok > start {
            let (cut, visible) = match after_space.filter(|a| *a > start + 1) {
                Some(a) => (a, a - 1),
                None => (end_ok, end_ok),
            };
            lines.push(Line {
                range: start..cut,
                visible: start..visible,
                hard: false,
            });
            start = cut;
            after_space = None;
        }
        if c == ' ' {
            after_space = Some(end);
        }
        end_ok = end;
    }
    start
}

/// The visible text of each line (what a renderer draws), for texts broken by [`break_lines`].
pub fn visible_lines<'a>(text: &'a str, lines: &[Line]) -> Vec<&'a str> {
    lines.iter().map(|l| &text[l.visible.clone()]).collect()
}

/// Width of the widest piece of `text` that UAX #14 allows no break inside: the narrowest a
/// column can be without breaking inside a word.
#[cfg(test)]
pub fn min_content_width(text: &str, width: impl FnMut(Range<usize>) -> f32) -> f32 {
    min_content_width_keeping(text, &[], width)
}

/// Width of the widest piece of `text` that UAX #14 allows no break inside, with no break
/// inside the ranges `keep` either (see [`break_lines_keeping`]): the narrowest a column can be.
pub fn min_content_width_keeping(
    text: &str,
    keep: &[Range<usize>],
    mut width: impl FnMut(Range<usize>) -> f32,
) -> f32 {
    let mut keep = keep.to_vec();
    keep.extend(kept_tokens(text));
    segments(text, &keep, &mut width)
        .iter()
        .map(|s| s.visible)
        .fold(0.0, f32::max)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A monospace measure: an ideograph or a full-width form is 2 units, anything else 1.
    fn cells(s: &str) -> f32 {
        s.chars()
            .map(|c| {
                if matches!(c as u32, 0x3000..=0x303F | 0x4E00..=0x9FFF | 0xFF00..=0xFFEF) {
                    2.0
                } else {
                    1.0
                }
            })
            .sum()
    }

    fn lines(text: &str, max: f32) -> Vec<&str> {
        visible_lines(text, &break_lines(text, max, |r| cells(&text[r])))
    }

    // Expected break opportunities below are worked out by hand from UAX #14's rules:
    // LB7 no break before spaces, LB18 break after spaces, LB13 no break before CL ("）" "，"),
    // LB14 no break after OP ("（"), LB25 no break in "ZeRO-3" (HY × NU), LB28 no break
    // inside a run of letters (AL × AL), LB31 break everywhere else (ID ÷ ID).

    #[test]
    fn chinese_breaks_between_ideographs_latin_only_at_spaces() {
        // 内存是 GPU 的两倍: ID ID ID SP AL AL AL SP ID ID ID. Opportunities after 内, 存,
        // "是 ", "GPU ", 的, 两. Width 7: "内存是" (6) + " GPU" would be 10.
        assert_eq!(
            lines("内存是 GPU 的两倍", 7.0),
            ["内存是", "GPU 的", "两倍"]
        );
        // Width 4: the Latin word stays whole.
        assert_eq!(
            lines("内存是 GPU 的两倍", 4.0),
            ["内存", "是", "GPU", "的两", "倍"]
        );
    }

    #[test]
    fn never_breaks_inside_a_latin_word_in_chinese_text() {
        // "按 DeepSpeed 自带的": "DeepSpeed" is AL×9, no opportunity inside it. At width 10
        // it fits after its space-separated neighbours are moved off.
        let text = "按 DeepSpeed 自带的估算函数";
        let got = lines(text, 10.0);
        assert_eq!(got, ["按", "DeepSpeed", "自带的估算", "函数"]);
        for l in &got {
            assert!(!l.ends_with("Deep") && !l.starts_with("Speed"), "{l}");
        }
    }

    #[test]
    fn closing_punctuation_stays_on_its_line_and_opening_on_the_next() {
        // 内存（16 GiB）小于显存: 内 ÷ 存 ÷ （ (a wide OP, so LB30 does not apply); no break
        // after （ (LB14) nor inside "16"; SP ÷ G (LB18); no break before ） (LB13); ） ÷ 小.
        // Pieces: 内 2 | 存 2 | "（16 " 4 | "GiB）" 5 | 小 2 | 于 2 | 显 2 | 存 2.
        assert_eq!(
            lines("内存（16 GiB）小于显存", 10.0),
            ["内存（16", "GiB）小于", "显存"]
        );
        // 速 ÷ 度 × ， ÷ 内 ÷ 存: a full-width comma (CL) never starts a line.
        assert_eq!(lines("速度，内存", 4.0), ["速", "度，", "内存"]);
    }

    #[test]
    fn hyphen_before_a_digit_and_apostrophes_do_not_break() {
        // "ZeRO-3" (× HY, LB21; HY × NU, LB25) and "DeepSpeed's" (× QU ×, LB19) are one
        // piece each. Pieces: "use " 3 | "ZeRO-3 " 6 | "with " 4 | "DeepSpeed's " 11 | …
        assert_eq!(
            lines("use ZeRO-3 with DeepSpeed's estimator", 12.0),
            ["use ZeRO-3", "with", "DeepSpeed's", "estimator"]
        );
        // A host name: NU × AL and AL × NU (LB23), × HY, HY × NU: no opportunity inside.
        assert_eq!(
            lines("host desktop-2x3090-64g is", 20.0),
            ["host", "desktop-2x3090-64g", "is"]
        );
    }

    #[test]
    fn options_paths_and_code_spans_stay_whole() {
        // UAX #14 allows a break after "-" before a letter (HY ÷ AL, LB31): "libnvidia-" |
        // "ml.so.1". Kept, the file name moves to a line of its own instead.
        let text = "load libnvidia-ml.so.1 now";
        assert_eq!(lines(text, 17.0), ["load", "libnvidia-ml.so.1", "now"]);
        assert!(linebreaks(text).any(|(at, _)| &text[at..] == "ml.so.1 now"));
        // An option and a path, each kept whole.
        assert_eq!(
            kept_tokens("run ramvram detect --out /tmp/a.json，或者 -o x"),
            [19..24, 25..36, 46..48]
        );
        // A code span given by the caller: no break at its spaces.
        let text = "或 ramvram bench memory 测一下";
        let span = 4..24;
        let broken = break_lines_keeping(text, &[span], 22.0, |r| cells(&text[r]));
        assert_eq!(
            visible_lines(text, &broken),
            ["或", "ramvram bench memory", "测一下"]
        );
    }

    #[test]
    fn a_piece_wider_than_the_line_is_split_as_a_last_resort() {
        assert_eq!(lines("abcdefgh", 3.0), ["abc", "def", "gh"]);
        assert_eq!(lines("ab abcdefgh", 3.0), ["ab", "abc", "def", "gh"]);
    }

    #[test]
    fn a_kept_span_wider_than_the_line_breaks_at_its_spaces_first() {
        // A line of code kept whole (one span), 19 cells, on lines of 12: after "r=16," the
        // space ends the line, so `modules="x"` is never cut; a word longer than a line
        // still splits between characters.
        let text = "f(r=16, modules=\"x\")";
        let whole = [Range {
            start: 0,
            end: text.len(),
        }];
        let broken = break_lines_keeping(text, &whole, 12.0, |r| cells(&text[r]));
        assert_eq!(visible_lines(text, &broken), ["f(r=16,", "modules=\"x\")"]);
        let mut at = 0;
        for l in &broken {
            assert_eq!(l.range.start, at);
            at = l.range.end;
        }
        assert_eq!(at, text.len());
        let text = "ab abcdefghijklmn";
        let whole = [Range {
            start: 0,
            end: text.len(),
        }];
        let broken = break_lines_keeping(text, &whole, 6.0, |r| cells(&text[r]));
        assert_eq!(
            visible_lines(text, &broken),
            ["ab", "abcdef", "ghijkl", "mn"]
        );
    }

    #[test]
    fn newlines_break_and_cover_the_whole_text() {
        let text = "first line\nsecond\n";
        let broken = break_lines(text, 100.0, |r| cells(&text[r]));
        assert_eq!(visible_lines(text, &broken), ["first line", "second", ""]);
        assert!(broken[0].hard && broken[1].hard && !broken[2].hard);
        // Ranges are contiguous and cover every byte.
        let mut at = 0;
        for l in &broken {
            assert_eq!(l.range.start, at);
            at = l.range.end;
        }
        assert_eq!(at, text.len());
    }

    #[test]
    fn odd_input_never_panics() {
        for text in ["", " ", "\n\n", "   x", "a\u{200B}b", "🙂🙂🙂", "\r\n"] {
            for max in [-1.0, 0.0, 0.5, 3.0, f32::NAN, f32::INFINITY] {
                let broken = break_lines(text, max, |r| cells(&text[r]));
                assert!(!broken.is_empty());
                assert_eq!(broken.last().unwrap().range.end, text.len());
            }
        }
    }

    #[test]
    fn min_content_is_the_widest_unbreakable_piece() {
        // "内存 : 显存": 内 ÷ 存 × SP × ":" (LB7, and LB13 keeps IS off a line's start even
        // after spaces), SP ÷ 显 (LB18), 显 ÷ 存. Widest piece: "存 :" = 2 + 1 + 1.
        let t = "内存 : 显存";
        assert_eq!(min_content_width(t, |r| cells(&t[r])), 4.0);
        let t = "lab-4090-128g host";
        assert_eq!(min_content_width(t, |r| cells(&t[r])), 13.0);
    }

    #[test]
    fn a_number_joined_to_a_word_stays_whole() {
        let text = "改用 QLoRA（4-bit 底座）微调";
        let kept: Vec<&str> = kept_tokens(text).into_iter().map(|r| &text[r]).collect();
        assert!(kept.contains(&"4-bit"), "{kept:?}");
        // A range of numbers and a word with a hyphen inside may still break.
        assert!(kept_tokens("10-20 well-known").is_empty());
    }
}
