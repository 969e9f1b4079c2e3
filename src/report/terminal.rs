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

/// Width paragraphs are wrapped to, in terminal columns (CJK characters count two): the
/// widest a line gets, on a wider terminal too (a paragraph wider than this is hard to read).
pub const WIDTH: usize = 100;

/// Narrowest width laid out for: 40 columns. A narrower `COLUMNS` is taken as 40.
pub const MIN_WIDTH: usize = 40;

/// The width to lay out for, from the terminal's `COLUMNS` (read by the caller, as `ls` and
/// `git` read it): that many columns, at least [`MIN_WIDTH`] and at most [`WIDTH`]; [`WIDTH`]
/// when it is unset or not a number (output to a file or a pipe).
pub fn width_for(columns: Option<&str>) -> usize {
    columns
        .and_then(|c| c.trim().parse::<usize>().ok())
        .filter(|c| *c > 0)
        .map_or(WIDTH, |c| c.clamp(MIN_WIDTH, WIDTH))
}

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

/// `text` wrapped to `width` columns, every line indented by `indent`.
pub fn wrap(out: &mut String, indent: &str, text: &str, width: usize) {
    wrap_hanging(out, indent, indent, text, width);
}

/// `text` wrapped to `width` columns, the first line indented by `first`, the others by
/// `rest`. Code spans lose their backticks ([`crate::codespan`]) and, like options, paths and
/// file names, are never broken across lines ([`linebreak::break_lines_keeping`]): what a
/// student copies from the terminal is the command as written.
pub fn wrap_hanging(out: &mut String, first: &str, rest: &str, text: &str, width: usize) {
    let spans = crate::codespan::parse(text);
    let text = spans.text.as_str();
    let indent = first.width().max(rest.width());
    let max = width.saturating_sub(indent).max(20) as f32;
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
/// margin (two spaces), wider when a label needs it. A value that doesn't fit the `width`
/// columns left to it wraps within its column.
pub fn key_values(out: &mut String, rows: &[(String, String)], width: usize) {
    let w = label_width(rows.iter().map(|(l, _)| l.as_str())).max(LABEL_MIN);
    let rest = " ".repeat(2 + w);
    for (label, value) in rows {
        let first = format!("  {}", pad(label, w));
        if 2 + w + value.width() > width {
            wrap_hanging(out, &first, &rest, value, width);
        } else {
            let _ = writeln!(out, "{}", format!("{first}{value}").trim_end());
        }
    }
}

/// A table indented two spaces ([`fit_table`] with nothing to drop or keep whole); a header of
/// empty cells is left out.
pub fn table(out: &mut String, header: &[String], rows: &[Vec<String>], width: usize) {
    out.push_str(&fit_table("  ", header, rows, width, Fit::default()));
}

/// Columns wrapped down to this width before any is dropped: 16 (a column of a few words a
/// line still reads as one). Assumption.
pub const COMFORTABLE_COLUMN: usize = 16;

/// How [`fit_table`] may fit a table: columns to leave out, the first first, and columns that
/// never wrap (a machine's name).
#[derive(Clone, Copy, Debug, Default)]
pub struct Fit<'a> {
    /// Columns that may be left out, in that order.
    pub drop: &'a [usize],
    /// Columns whose cells never wrap.
    pub whole: &'a [usize],
}

/// Column widths for cells of natural widths `natural` (the widest cell of each column) and
/// narrowest widths `least` (the longest word), so that `indent` + the columns + two spaces
/// between them fit `width`: the widest column gives up a column at a time, as `ls` and `git`
/// fit a terminal. `None` when even the narrowest widths don't fit.
fn fit_widths(
    natural: &[usize],
    least: &[usize],
    indent: usize,
    width: usize,
) -> Option<Vec<usize>> {
    let mut widths = natural.to_vec();
    let gaps = 2 * natural.len().saturating_sub(1);
    loop {
        let total = indent + widths.iter().sum::<usize>() + gaps;
        if total <= width {
            return Some(widths);
        }
        let (i, _) = widths
            .iter()
            .enumerate()
            .filter(|(i, w)| **w > least[*i])
            .max_by_key(|(i, w)| (**w, std::cmp::Reverse(*i)))?;
        widths[i] -= 1;
    }
}

/// The longest unbreakable piece of `cell`, in columns.
fn longest_word(cell: &str) -> usize {
    linebreak::min_content_width_keeping(cell, &[], |r| cell[r].width() as f32) as usize
}

/// A table laid out to fit `width` columns, each line starting with `indent`: each column as
/// wide as its widest cell plus two; when that is too wide, the widest columns wrap their
/// cells (header too) a column at a time, down to [`COMFORTABLE_COLUMN`]; when even that is
/// too wide, the columns `fit.drop` lists are left out, as few as it takes, and only then do
/// columns wrap down to their longest word. A header of empty cells is left out; trailing
/// spaces are trimmed.
pub fn fit_table(
    indent: &str,
    header: &[String],
    rows: &[Vec<String>],
    width: usize,
    fit: Fit<'_>,
) -> String {
    let columns = header
        .len()
        .max(rows.iter().map(Vec::len).max().unwrap_or(0));
    let show_header = header.iter().any(|h| !h.is_empty());
    let all: Vec<&[String]> = show_header
        .then_some(header)
        .into_iter()
        .chain(rows.iter().map(Vec::as_slice))
        .collect();
    let mut natural = vec![0; columns];
    let mut least = vec![0; columns];
    for row in &all {
        for (i, cell) in row.iter().enumerate() {
            natural[i] = natural[i].max(cell.width());
            least[i] = least[i].max(longest_word(cell));
        }
    }
    for &i in fit.whole {
        if let Some(l) = least.get_mut(i) {
            *l = natural[i];
        }
    }
    let comfortable: Vec<usize> = (0..columns)
        .map(|i| least[i].max(natural[i].min(COMFORTABLE_COLUMN)))
        .collect();
    let mut kept: Vec<usize> = (0..columns).collect();
    let mut dropped = fit.drop.iter();
    let pick = |kept: &[usize], from: &[usize]| kept.iter().map(|&i| from[i]).collect::<Vec<_>>();
    let widths = loop {
        let nat = pick(&kept, &natural);
        if let Some(w) = fit_widths(&nat, &pick(&kept, &comfortable), indent.width(), width) {
            break w;
        }
        match dropped.next() {
            Some(d) => kept.retain(|k| k != d),
            // Nothing more to drop: down to each column's longest word.
            None => {
                let min = pick(&kept, &least);
                break fit_widths(&nat, &min, indent.width(), width).unwrap_or(min);
            }
        }
    };
    let mut out = String::new();
    for row in all {
        let row: Vec<&str> = kept
            .iter()
            .map(|&i| row.get(i).map_or("", String::as_str))
            .collect();
        table_row(&mut out, indent, &row, &widths);
    }
    out
}

/// One row of a table: each cell broken into lines no wider than its column, the row as tall
/// as its tallest cell.
fn table_row(out: &mut String, indent: &str, row: &[&str], widths: &[usize]) {
    let cells: Vec<Vec<String>> = row
        .iter()
        .zip(widths)
        .map(|(cell, w)| cell_lines(cell, *w))
        .collect();
    let height = cells.iter().map(Vec::len).max().unwrap_or(1);
    for n in 0..height {
        let mut line = String::from(indent);
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
    render_width(blocks, WIDTH)
}

/// [`render`] laid out for a terminal `width` columns wide ([`width_for`]): paragraphs wrap
/// and tables fit within it.
pub fn render_width(blocks: &[Block], width: usize) -> String {
    let width = width.clamp(MIN_WIDTH, WIDTH);
    let mut out = String::new();
    for block in blocks {
        match block {
            Block::Title(t) | Block::Meta(t) => wrap_hanging(&mut out, "", "  ", &line(t), width),
            // One blank line before a heading, also after a block that ends with one.
            Block::Heading(t) if out.ends_with("\n\n") => heading(&mut out, &line(t)),
            Block::Heading(t) => section(&mut out, &line(t)),
            Block::Subheading(t) => {
                let _ = writeln!(out, "\n  {}", line(t));
            }
            Block::Paragraph(t) | Block::Note(t) => wrap(&mut out, "  ", &line(t), width),
            Block::Callout {
                lang,
                label,
                title,
                body,
                ..
            } => {
                let title = Block::callout_title(*lang, label, title);
                out.push('\n');
                wrap_hanging(&mut out, "", "  ", &line(&title), width);
                wrap(&mut out, "  ", &line(body), width);
            }
            Block::KeyValues(kv) => {
                let kv: Vec<(String, String)> =
                    kv.iter().map(|(k, v)| (line(k), line(v))).collect();
                key_values(&mut out, &kv, width);
            }
            Block::Table { header, rows, .. } => {
                let header: Vec<String> = header.iter().map(|h| line(h)).collect();
                let rows: Vec<Vec<String>> = rows
                    .iter()
                    .map(|r| r.iter().map(|c| line(c)).collect())
                    .collect();
                table(&mut out, &header, &rows, width);
            }
            Block::Bullets(items) => {
                for i in items {
                    wrap_hanging(&mut out, "  · ", "    ", &line(i), width);
                }
            }
            Block::Numbered(items) => {
                for (n, i) in items.iter().enumerate() {
                    wrap_hanging(
                        &mut out,
                        &format!("  {}. ", n + 1),
                        "     ",
                        &line(i),
                        width,
                    );
                }
            }
            Block::Finding {
                label,
                title,
                explanation,
                recommendations,
                ..
            } => {
                let head = format!("  [{}] ", line(label));
                wrap_hanging(&mut out, &head, "      ", &line(title), width);
                wrap(&mut out, "      ", &line(explanation), width);
                for r in recommendations {
                    wrap_hanging(&mut out, "      → ", "        ", &line(r), width);
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
                wrap_hanging(
                    &mut out,
                    &format!("  {rank}. "),
                    "     ",
                    &line(text),
                    width,
                );
                if !apply_text.is_empty() {
                    wrap(&mut out, "     ", &line(apply_text), width);
                }
                // Each tool's text as it is pasted: its lines unwrapped, indented.
                for (label, t) in native {
                    wrap(&mut out, "     ", &line(label), width);
                    for l in t.lines() {
                        out.push_str(&format!("       {l}\n"));
                    }
                }
            }
            Block::Verdict { title, body, .. } => {
                for t in [title, body].into_iter().filter(|t| !t.is_empty()) {
                    wrap(&mut out, "  ", &line(t), width);
                }
            }
            Block::Checks { header, rows, .. } => {
                let header: Vec<String> = header.iter().map(|h| line(h)).collect();
                let rows: Vec<Vec<String>> = rows
                    .iter()
                    .map(|(r, _)| r.iter().map(|c| line(c)).collect())
                    .collect();
                table(&mut out, &header, &rows, width);
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

    /// A value wider than its column (101 columns: 20 "abcd" words and "x") wraps within it:
    /// values start at 2 + 28 = 30, so a line holds 70 columns, 14 words (69); the rest
    /// continue under the value. A value of 69 columns (14 words) stays on its row's line; one
    /// of 99 (20 words) wraps too (issue 35: every line fits the terminal).
    #[test]
    fn a_value_wider_than_its_column_wraps_under_itself() {
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
        let fact = render(&[Block::KeyValues(vec![("Modules".into(), words(14))])]);
        assert_eq!(fact, format!("  {}{}\n", pad("Modules", 28), words(14)));
        let wide = render(&[Block::KeyValues(vec![("Modules".into(), words(20))])]);
        assert_eq!(
            wide,
            format!(
                "  {}{}\n{}{}\n",
                pad("Modules", 28),
                words(14),
                " ".repeat(30),
                words(6)
            )
        );
    }

    /// At 80 columns a 70-column value after a 28-column label (2 + 28 + 70 = 100) wraps after
    /// 50 columns (10 words, 49); a table of two 59-column cells ("abcd" words, 12 each) wraps
    /// both to 2 + 38 + 2 + 38 = 80: the widest column gives up a column at a time, alternating.
    #[test]
    fn everything_fits_a_narrower_terminal() {
        let words = |n: usize| vec!["abcd"; n].join(" ");
        let kv = render_width(&[Block::KeyValues(vec![("Buy".into(), words(14))])], 80);
        assert_eq!(
            kv,
            format!(
                "  {}{}\n{}{}\n",
                pad("Buy", 28),
                words(10),
                " ".repeat(30),
                words(4)
            )
        );
        let table = Block::Table {
            header: vec![String::new(), String::new()],
            rows: vec![vec![words(12), words(12)]],
            widths: vec![1.0, 1.0],
        };
        let text = render_width(&[table], 80);
        assert!(text.lines().all(|l| l.width() <= 80), "{text}");
        // 38 columns hold 7 words (34; 8 take 39): 12 words take two lines in each column.
        assert_eq!(
            text,
            format!(
                "  {}{}\n  {}{}\n",
                pad(&words(7), 40),
                words(7),
                pad(&words(5), 40),
                words(5)
            )
        );
    }

    /// A table that can't fit by wrapping drops the columns it may, the first listed first.
    #[test]
    fn a_table_too_wide_to_wrap_drops_the_columns_it_may() {
        let row = vec![
            "name-one".to_string(),
            "x".repeat(30),
            "y".repeat(30),
            "z".into(),
        ];
        let fit = Fit {
            drop: &[2, 1],
            whole: &[0],
        };
        // 8 + 30 + 30 + 1 + 3 gaps × 2 = 75 > 60: without column 2, 8 + 30 + 1 + 4 = 43.
        let text = fit_table("", &[], &[row], 60, fit);
        assert_eq!(text, format!("name-one  {}  z\n", "x".repeat(30)));
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
