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
