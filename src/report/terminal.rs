//! The terminal renderer of a [`crate::present::document`]: the same blocks as the Markdown and
//! PDF renderers, laid out for a fixed-width terminal. Labels pad to terminal columns (a CJK
//! character takes two), paragraphs wrap to [`WIDTH`] columns without breaking a command, a path
//! or a file name, and every string of a block is put on one line with anything hostile shown
//! escaped ([`crate::sanitize::one_line`]): a host name can't start a line of its own or move
//! the cursor. Charts are drawn only where text can say them (the ratio gauge); the others'
//! numbers are in the tables beside them.

use std::fmt::Write as _;

use unicode_width::UnicodeWidthStr;

use crate::linebreak;
use crate::present::document::{Block, Chart};

/// Width paragraphs are wrapped to, in terminal columns (CJK characters count two).
pub const WIDTH: usize = 100;

/// Narrowest label column of a two-column list, in terminal columns: the tables of `advise`
/// share it, so their values line up.
pub const LABEL_MIN: usize = 28;

/// Pads `s` with spaces to `width` terminal columns.
pub fn pad(s: &str, width: usize) -> String {
    format!(
        "{s}{}",
        " ".repeat(width.saturating_sub(UnicodeWidthStr::width(s)))
    )
}

/// `title`, underlined with as many `─` as it takes columns (at least 8).
pub fn heading(out: &mut String, title: &str) {
    let _ = writeln!(
        out,
        "{title}\n{}",
        "─".repeat(UnicodeWidthStr::width(title).max(8))
    );
}

/// A blank line, then [`heading`]: a section of a longer output.
pub fn section(out: &mut String, title: &str) {
    out.push('\n');
    heading(out, title);
}

/// Columns for a label column: the widest label's terminal width + 2.
pub fn label_width<'a>(labels: impl IntoIterator<Item = &'a str>) -> usize {
    labels
        .into_iter()
        .map(UnicodeWidthStr::width)
        .max()
        .unwrap_or(0)
        + 2
}

/// `text` wrapped to [`WIDTH`] columns, every line indented by `indent`.
pub fn wrap(out: &mut String, indent: &str, text: &str) {
    wrap_hanging(out, indent, indent, text);
}

/// `text` wrapped to [`WIDTH`] columns, the first line indented by `first`, the others by
/// `rest`. Code spans lose their backticks ([`crate::codespan`]) and, like options, paths and
/// file names, are never broken across lines ([`linebreak::break_lines_keeping`]): what a
/// student copies from the terminal is the command as written.
pub fn wrap_hanging(out: &mut String, first: &str, rest: &str, text: &str) {
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

/// Label/value rows, the values in one column [`LABEL_MIN`] or more columns from the left
/// margin (two spaces), wider when a label needs it. A value is a fact on its row's line (found
/// with grep, even past the margin), unless it is wider than a whole line, prose (a purchase's
/// reason): that wraps within its column.
pub fn key_values(out: &mut String, rows: &[(String, String)]) {
    let w = label_width(rows.iter().map(|(l, _)| l.as_str())).max(LABEL_MIN);
    let rest = " ".repeat(2 + w);
    for (label, value) in rows {
        let first = format!("  {}", pad(label, w));
        if value.width() > WIDTH {
            wrap_hanging(out, &first, &rest, value);
        } else {
            let _ = writeln!(out, "{}", format!("{first}{value}").trim_end());
        }
    }
}

/// A table: each column as wide as its widest cell plus two, indented two spaces; a header of
/// empty cells is left out. A table wider than [`WIDTH`] wraps its widest column's cells within
/// the columns left to it (never narrower than 20). Trailing spaces are trimmed.
pub fn table(out: &mut String, header: &[String], rows: &[Vec<String>]) {
    let columns = header
        .len()
        .max(rows.iter().map(Vec::len).max().unwrap_or(0));
    let mut widths = vec![0; columns];
    let show_header = header.iter().any(|h| !h.is_empty());
    let all = show_header
        .then_some(header)
        .into_iter()
        .chain(rows.iter().map(Vec::as_slice));
    for row in all.clone() {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.width());
        }
    }
    let total = 2 + widths.iter().sum::<usize>() + 2 * columns.saturating_sub(1);
    if total > WIDTH {
        if let Some(widest) = widths.iter_mut().max() {
            *widest = widest.saturating_sub(total - WIDTH).max(20).min(*widest);
        }
    }
    for row in all {
        // Each cell as lines no wider than its column; the row takes as many lines as its
        // tallest cell.
        let cells: Vec<Vec<String>> = row
            .iter()
            .zip(&widths)
            .map(|(cell, w)| cell_lines(cell, *w))
            .collect();
        let height = cells.iter().map(Vec::len).max().unwrap_or(1);
        for n in 0..height {
            let mut line = String::from("  ");
            for (i, cell) in cells.iter().enumerate() {
                let text = cell.get(n).map_or("", String::as_str);
                if i + 1 < cells.len() {
                    line.push_str(&pad(text, widths[i] + 2));
                } else {
                    line.push_str(text);
                }
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
    }
}

/// `cell` broken into lines of at most `width` columns (one line when it fits).
fn cell_lines(cell: &str, width: usize) -> Vec<String> {
    if cell.width() <= width {
        return vec![cell.to_string()];
    }
    let lines = linebreak::break_lines_keeping(cell, &[], width as f32, |r| cell[r].width() as f32);
    linebreak::visible_lines(cell, &lines)
        .into_iter()
        .map(str::to_string)
        .collect()
}

/// A text gauge of a RAM:VRAM ratio on 0–[`crate::present::GAUGE_MAX_RATIO`]×, with the tier
/// boundaries ([`crate::advisor::Tier::BOUNDS`]) marked `|` and the machine's value marked `▲`.
pub fn gauge(ratio: f64) -> String {
    const MAX: f64 = crate::present::GAUGE_MAX_RATIO;
    const COLS: usize = 56;
    let col = |v: f64| ((v.clamp(0.0, MAX) / MAX) * (COLS - 1) as f64).round() as usize;
    let mut bar: Vec<char> = vec!['─'; COLS];
    for b in crate::advisor::Tier::BOUNDS {
        bar[col(b)] = '|';
    }
    let mut marker = vec![' '; COLS];
    marker[col(ratio)] = '▲';
    // Each label starts under its mark ("1.5" starts at the 1.5 mark), the last one ends at
    // the scale's end.
    let mut scale: Vec<char> = vec![' '; COLS + 2];
    let mut put = |at: usize, text: &str| {
        for (i, c) in text.chars().enumerate() {
            if let Some(slot) = scale.get_mut(at + i) {
                *slot = c;
            }
        }
    };
    put(0, "0");
    for b in crate::advisor::Tier::BOUNDS {
        put(col(b), &format!("{b}"));
    }
    let end = format!("{MAX}×");
    put(COLS + 1 - end.chars().count(), &end);
    format!(
        "  [{}]\n   {}\n   {}\n",
        bar.iter().collect::<String>(),
        marker.iter().collect::<String>().trim_end(),
        scale.iter().collect::<String>().trim_end()
    )
}

/// `s` on one line, anything hostile escaped.
fn line(s: &str) -> String {
    crate::sanitize::one_line(s).into_owned()
}

/// Renders blocks for the terminal (see the module's description). A section heading starts
/// with a blank line; a finding ends with one.
pub fn render(blocks: &[Block]) -> String {
    let mut out = String::new();
    for block in blocks {
        match block {
            Block::Title(t) | Block::Meta(t) => {
                out.push_str(&line(t));
                out.push('\n');
            }
            // One blank line before a heading, also after a block that ends with one.
            Block::Heading(t) if out.ends_with("\n\n") => heading(&mut out, &line(t)),
            Block::Heading(t) => section(&mut out, &line(t)),
            Block::Subheading(t) => {
                let _ = writeln!(out, "\n  {}", line(t));
            }
            Block::Paragraph(t) | Block::Note(t) => wrap(&mut out, "  ", &line(t)),
            Block::Callout {
                lang,
                label,
                title,
                body,
                ..
            } => {
                let title = Block::callout_title(*lang, label, title);
                let _ = writeln!(out, "\n{}", line(&title));
                wrap(&mut out, "  ", &line(body));
            }
            Block::KeyValues(kv) => {
                let kv: Vec<(String, String)> =
                    kv.iter().map(|(k, v)| (line(k), line(v))).collect();
                key_values(&mut out, &kv);
            }
            Block::Table { header, rows, .. } => {
                let header: Vec<String> = header.iter().map(|h| line(h)).collect();
                let rows: Vec<Vec<String>> = rows
                    .iter()
                    .map(|r| r.iter().map(|c| line(c)).collect())
                    .collect();
                table(&mut out, &header, &rows);
            }
            Block::Bullets(items) => {
                for i in items {
                    wrap_hanging(&mut out, "  · ", "    ", &line(i));
                }
            }
            Block::Numbered(items) => {
                for (n, i) in items.iter().enumerate() {
                    wrap_hanging(&mut out, &format!("  {}. ", n + 1), "     ", &line(i));
                }
            }
            Block::Finding {
                label,
                title,
                explanation,
                recommendations,
                ..
            } => {
                let _ = writeln!(out, "  [{}] {}", line(label), line(title));
                wrap(&mut out, "      ", &line(explanation));
                for r in recommendations {
                    wrap_hanging(&mut out, "      → ", "        ", &line(r));
                }
                out.push('\n');
            }
            // A numbered item, then the arguments that apply it on a line of their own, under
            // the item's text: what a user copies.
            Block::Recommendation {
                rank,
                text,
                apply_text,
                native,
                ..
            } => {
                wrap_hanging(&mut out, &format!("  {rank}. "), "     ", &line(text));
                if !apply_text.is_empty() {
                    wrap(&mut out, "     ", &line(apply_text));
                }
                // Each tool's text as it is pasted: its lines unwrapped, indented.
                for (label, t) in native {
                    wrap(&mut out, "     ", &line(label));
                    for l in t.lines() {
                        out.push_str(&format!("       {l}\n"));
                    }
                }
            }
            Block::Verdict { title, body, .. } => {
                for t in [title, body].into_iter().filter(|t| !t.is_empty()) {
                    wrap(&mut out, "  ", &line(t));
                }
            }
            Block::Checks { header, rows, .. } => {
                let header: Vec<String> = header.iter().map(|h| line(h)).collect();
                let rows: Vec<Vec<String>> = rows
                    .iter()
                    .map(|(r, _)| r.iter().map(|c| line(c)).collect())
                    .collect();
                table(&mut out, &header, &rows);
            }
            Block::Chart(Chart::RatioGauge { ratio, .. }) => out.push_str(&gauge(*ratio)),
            Block::Chart(_) => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::advisor::Severity;
    use crate::i18n::Lang;

    /// Columns by hand: "A" and "xxx" make the first column 3 wide, plus 2 spaces; the last
    /// column is not padded; an all-empty header is left out.
    #[test]
    fn tables_pad_to_the_widest_cell_and_drop_an_empty_header() {
        let table = Block::Table {
            header: vec!["A".into(), "Bb".into()],
            rows: vec![vec!["xxx".into(), "y".into()]],
            widths: vec![1.0, 1.0],
        };
        assert_eq!(render(&[table]), "  A    Bb\n  xxx  y\n");
        let headless = Block::Table {
            header: vec![String::new(), String::new()],
            rows: vec![
                vec!["内存".into(), "1".into()],
                vec!["a".into(), "22".into()],
            ],
            widths: vec![1.0, 1.0],
        };
        // "内存" takes 4 columns: the second column starts at 2 + 4 + 2 = 8.
        assert_eq!(render(&[headless]), "  内存  1\n  a     22\n");
    }

    /// A label/value list starts its values 2 + 28 columns in; a heading is underlined as wide
    /// as it is (at least 8); a finding is severity, title, then indented text and advice.
    #[test]
    fn key_values_headings_and_findings_keep_the_terminal_layout() {
        let blocks = [
            Block::Heading("Ratio".into()),
            Block::KeyValues(vec![("Tier".into(), "baseline".into())]),
            Block::Finding {
                lang: Lang::En,
                severity: Severity::Warning,
                label: "Warning".into(),
                title: "Swap is small".into(),
                explanation: "Why.".into(),
                recommendations: vec!["Add swap.".into()],
            },
        ];
        let expected = format!(
            "\nRatio\n{}\n  Tier{}baseline\n  [Warning] Swap is small\n      Why.\n      → Add swap.\n\n",
            "─".repeat(8),
            " ".repeat(28 - 4)
        );
        assert_eq!(render(&blocks), expected);
    }

    /// A table wider than 100 columns wraps its widest column. By hand: a 149-column cell of
    /// "abcd" words and "Required" (8) make 2 + 149 + 2 + 8 = 161 columns, 61 too many, so the
    /// first column gets 149 − 61 = 88: 17 words (84 columns) a line, 30 words in two lines, and
    /// the second column starts at 2 + 88 + 2 = 92.
    #[test]
    fn a_table_wider_than_the_page_wraps_its_widest_column() {
        let words = |n: usize| vec!["abcd"; n].join(" ");
        let table = Block::Table {
            header: vec!["Reason".into(), "Required".into()],
            rows: vec![vec![words(30), "48 GiB".into()]],
            widths: vec![1.0, 1.0],
        };
        let expected = format!(
            "  {}Required\n  {}48 GiB\n  {}\n",
            pad("Reason", 90),
            pad(&words(17), 90),
            words(13)
        );
        assert_eq!(render(&[table]), expected);
        assert!(expected.lines().all(|l| l.width() <= WIDTH));
    }

    /// A value wider than a line (101 columns: 20 "abcd" words and "x") wraps within its
    /// column: values start at 2 + 28 = 30, so a line holds 70 columns, 14 words (69); the rest
    /// continue under the value. A value of 99 columns stays on its row's line.
    #[test]
    fn only_a_value_wider_than_a_line_wraps_under_itself() {
        let words = |n: usize| vec!["abcd"; n].join(" ");
        let long = format!("{} x", words(20));
        let text = render(&[Block::KeyValues(vec![("Buy".into(), long)])]);
        let expected = format!(
            "  {}{}\n{}{} x\n",
            pad("Buy", 28),
            words(14),
            " ".repeat(30),
            words(6)
        );
        assert_eq!(text, expected);
        let fact = render(&[Block::KeyValues(vec![("Modules".into(), words(20))])]);
        assert_eq!(fact, format!("  {}{}\n", pad("Modules", 28), words(20)));
    }

    /// A recommendation is a numbered item with the line that applies it under its text,
    /// indented as far as the text (two spaces, "1. "); without arguments, the item alone.
    #[test]
    fn a_recommendation_puts_its_arguments_on_a_line_of_their_own() {
        let rec = |rank: usize, apply_text: &str| Block::Recommendation {
            lang: Lang::En,
            rank,
            text: "Set workers — fits; nothing".into(),
            apply_text: apply_text.into(),
            kind: "[setting]".into(),
            title: "Set workers".into(),
            result: "fits".into(),
            standing: crate::advisor::standing::Standing::Good,
            cost: "nothing".into(),
            apply: Vec::new(),
            native: Vec::new(),
        };
        let text = render(&[rec(1, "Apply: add `--num-workers 4`"), rec(2, "")]);
        assert_eq!(
            text,
            "  1. Set workers — fits; nothing\n     Apply: add --num-workers 4\n  2. Set workers — fits; nothing\n"
        );
    }

    /// A table of checks prints as the table of its cells (the standing is for colour), and a
    /// plan's verdict as its two lines of running text.
    #[test]
    fn checks_print_as_their_table_and_a_verdict_as_text() {
        use crate::advisor::standing::Standing;
        let cells = vec![
            "Each GPU".to_string(),
            "126 GiB".into(),
            "does not fit".into(),
        ];
        let header = vec![String::new(), "Needed".into(), String::new()];
        let checks = Block::Checks {
            header: header.clone(),
            rows: vec![(cells.clone(), Standing::Short(Severity::Critical))],
            widths: vec![1.0; 3],
        };
        let table = Block::Table {
            header,
            rows: vec![cells],
            widths: vec![1.0; 3],
        };
        assert_eq!(render(&[checks]), render(&[table]));
        let verdict = Block::Verdict {
            standing: Standing::Good,
            title: "Fits.".into(),
            body: String::new(),
        };
        assert_eq!(render(&[verdict]), "  Fits.\n");
    }

    /// A host name with a line break or a cursor-moving character stays on its line, shown
    /// escaped.
    #[test]
    fn hostile_strings_stay_on_one_line_escaped() {
        let text = render(&[Block::Bullets(vec!["node\nrm -rf /\u{202e}".into()])]);
        assert_eq!(text.lines().count(), 1, "{text:?}");
        assert!(text.contains("node\\nrm -rf /"), "{text:?}");
        assert!(!text.contains('\u{202e}'), "{text:?}");
    }
}
