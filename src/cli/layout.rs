//! Column layout shared by the terminal renderers: padding to terminal columns (a CJK character
//! takes two), underlined headings and the width of a label column.

use std::fmt::Write as _;

use unicode_width::UnicodeWidthStr;

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
/// `rest`.
pub(super) fn wrap_hanging(out: &mut String, first: &str, rest: &str, text: &str) {
    let options = textwrap::Options::new(WIDTH)
        .initial_indent(first)
        .subsequent_indent(rest);
    for line in textwrap::wrap(text, options) {
        out.push_str(&line);
        out.push('\n');
    }
}
