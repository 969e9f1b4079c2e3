//! Commands and file names inside running text. The locale files mark them as Markdown code
//! spans (`` `ramvram bench memory` ``); Markdown keeps the backticks, and every other view
//! takes them out with [`parse`] and sets the span apart: monospace in the window, the Latin
//! font in the PDF, plain ASCII in the terminal, and in all three never broken across lines
//! (a student copies the command as it is shown).

use std::ops::Range;

/// Text with its code spans' backticks removed, and where the spans are.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Spans {
    /// The text without the backticks that delimit code spans.
    pub text: String,
    /// Byte ranges of `text` that were code spans, in order, not overlapping.
    pub code: Vec<Range<usize>>,
}

/// Splits `text` into plain text and code spans. A backtick opens a span that the next
/// backtick closes; a backtick with no partner is kept as a character, so a host name with a
/// stray backtick shows as written. Never panics.
pub fn parse(text: &str) -> Spans {
    let mut out = Spans {
        text: String::with_capacity(text.len()),
        code: Vec::new(),
    };
    let mut rest = text;
    while let Some(open) = rest.find('`') {
        let after = &rest[open + 1..];
        let Some(close) = after.find('`') else {
            break;
        };
        out.text.push_str(&rest[..open]);
        let start = out.text.len();
        out.text.push_str(&after[..close]);
        if close > 0 {
            out.code.push(start..out.text.len());
        }
        rest = &after[close + 1..];
    }
    out.text.push_str(rest);
    out
}

/// `text` without the backticks of its code spans: what the terminal prints.
pub fn plain(text: &str) -> String {
    parse(text).text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_lose_their_backticks_and_keep_their_place() {
        let s = parse("run `ramvram bench memory` or `ramvram detect --dmidecode FILE`.");
        assert_eq!(
            s.text,
            "run ramvram bench memory or ramvram detect --dmidecode FILE."
        );
        // "run " is 4 bytes; "ramvram bench memory" 20; " or " 4; the second span 31.
        assert_eq!(s.code, [4..24, 28..59]);
        assert_eq!(
            &s.text[s.code[1].clone()],
            "ramvram detect --dmidecode FILE"
        );
    }

    #[test]
    fn a_stray_backtick_stays_and_empty_spans_vanish() {
        assert_eq!(parse("host`name").text, "host`name");
        assert!(parse("host`name").code.is_empty());
        assert_eq!(parse("a `` b `c").text, "a  b `c");
        assert!(parse("a `` b `c").code.is_empty());
        assert_eq!(
            plain("用 `ramvram bench memory` 测一下"),
            "用 ramvram bench memory 测一下"
        );
        assert_eq!(parse(""), Spans::default());
    }
}
