//! Column layout shared by the terminal renderers: padding to terminal columns (a CJK character
//! takes two), underlined headings and the width of a label column.

use std::fmt::Write as _;

use unicode_width::UnicodeWidthStr;

use crate::linebreak;

/// Pads `s` with spaces to `width` terminal columns.
pub(super) fn pad(s: &str, width: usize) -> String {
    format!(
        "{s}{}",
        " ".repeat(width.saturating_sub(UnicodeWidthStr::width(s)))
    )
}

/// `title`, underlined with as many `─` as it takes columns (at least 8).
pub(super) fn heading(out: &mut String, title: &str) {
    let _ = writeln!(
        out,
        "{title}\n{}",
        "─".repeat(UnicodeWidthStr::width(title).max(8))
    );
}

/// A blank line, then [`heading`]: a section of a longer output.
pub(super) fn section(out: &mut String, title: &str) {
    out.push('\n');
    heading(out, title);
}

/// Columns for a label column: the widest label's terminal width + 2.
pub(super) fn label_width<'a>(labels: impl IntoIterator<Item = &'a str>) -> usize {
    labels
        .into_iter()
        .map(UnicodeWidthStr::width)
        .max()
        .unwrap_or(0)
        + 2
}

/// Width paragraphs are wrapped to, in terminal columns (CJK characters count two).
const WIDTH: usize = 100;

/// `text` wrapped to [`WIDTH`] columns, every line indented by `indent`.
pub(super) fn wrap(out: &mut String, indent: &str, text: &str) {
    wrap_hanging(out, indent, indent, text);
}

/// `text` wrapped to [`WIDTH`] columns, the first line indented by `first`, the others by
/// `rest`. Code spans lose their backticks ([`crate::codespan`]) and, like options, paths and
/// file names, are never broken across lines ([`linebreak::break_lines_keeping`]): what a
/// student copies from the terminal is the command as written.
pub(super) fn wrap_hanging(out: &mut String, first: &str, rest: &str, text: &str) {
    let spans = crate::codespan::parse(text);
    let text = spans.text.as_str();
    let indent = first.width().max(rest.width());
    let max = WIDTH.saturating_sub(indent).max(20) as f32;
    let lines = linebreak::break_lines_keeping(text, &spans.code, max, |r| text[r].width() as f32);
    for (i, line) in linebreak::visible_lines(text, &lines)
        .into_iter()
        .enumerate()
    {
        out.push_str(if i == 0 { first } else { rest });
        out.push_str(line);
        out.push('\n');
    }
}
