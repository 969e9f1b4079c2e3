//! Markdown rendering of the report model. Charts are omitted (their numbers are in the tables
//! next to them). Every piece of text goes through [`crate::sanitize::markdown_inline`], so a
//! host name can't open a heading, a link, raw HTML or a table cell.

use crate::present::document::Block;
use crate::sanitize::markdown_inline as md;

fn cell(text: &str) -> String {
    md(text)
}

fn table(out: &mut String, header: &[String], rows: &[Vec<String>]) {
    table_head(out, header);
    for row in rows {
        table_row(out, row);
    }
    out.push('\n');
}

/// A table's header line and its separator line; rows follow ([`table_row`]), and a blank line
/// ends the table, as [`render`] writes a `Block::Table`. For a table written as it is built.
pub fn table_head(out: &mut String, header: &[String]) {
    out.push('|');
    for h in header {
        out.push_str(&format!(" {} |", cell(h)));
    }
    out.push_str("\n|");
    for _ in header {
        out.push_str("---|");
    }
    out.push('\n');
}

/// One row of a table begun with [`table_head`], each cell made inline text.
pub fn table_row(out: &mut String, row: &[String]) {
    out.push('|');
    for c in row {
        out.push_str(&format!(" {} |", cell(c)));
    }
    out.push('\n');
}

/// Renders blocks as GitHub-flavoured Markdown.
pub fn render(blocks: &[Block]) -> String {
    let mut out = String::new();
    for (n, block) in blocks.iter().enumerate() {
        match block {
            Block::Title(t) => out.push_str(&format!("# {}\n\n", md(t))),
            Block::Meta(t) => out.push_str(&format!("_{}_\n\n", md(t))),
            Block::Heading(t) => out.push_str(&format!("## {}\n\n", md(t))),
            Block::Subheading(t) => out.push_str(&format!("### {}\n\n", md(t))),
            Block::Paragraph(t) => out.push_str(&format!("{}\n\n", md(t))),
            Block::Note(t) => out.push_str(&format!("> {}\n\n", md(t))),
            Block::Callout {
                lang,
                label,
                title,
                body,
                ..
            } => {
                let title = Block::callout_title(*lang, label, title);
                out.push_str(&format!("> **{}**\n>\n> {}\n\n", md(&title), md(body)))
            }
            Block::KeyValues(kv) => {
                let rows: Vec<Vec<String>> =
                    kv.iter().map(|(k, v)| vec![k.clone(), v.clone()]).collect();
                table(&mut out, &[String::new(), String::new()], &rows);
            }
            Block::Table { header, rows, .. } => table(&mut out, header, rows),
            Block::Bullets(items) => {
                for i in items {
                    out.push_str(&format!("- {}\n", md(i)));
                }
                out.push('\n');
            }
            Block::Numbered(items) => {
                for (n, i) in items.iter().enumerate() {
                    out.push_str(&format!("{}. {}\n", n + 1, md(i)));
                }
                out.push('\n');
            }
            Block::Finding {
                lang,
                label,
                title,
                explanation,
                recommendations,
                ..
            } => {
                // "Critical: title" / "严重：标题", as the finding's language joins a label.
                let head = crate::present::names::labelled(*lang, &md(label), &md(title));
                out.push_str(&format!("**{head}**\n\n{}\n\n", md(explanation)));
                for r in recommendations {
                    out.push_str(&format!("- → {}\n", md(r)));
                }
                if !recommendations.is_empty() {
                    out.push('\n');
                }
            }
            // A numbered item; the arguments that apply it after a hard line break, indented
            // under the item. Items in a row make one tight list, as `Numbered` does.
            Block::Recommendation {
                rank,
                text,
                apply_text,
                native,
                ..
            } => {
                out.push_str(&format!("{rank}. {}", md(text)));
                if !apply_text.is_empty() {
                    out.push_str(&format!("\\\n   {}", md(apply_text)));
                }
                out.push('\n');
                // Each tool's text as an indented code block under the item.
                for (label, t) in native {
                    out.push_str(&format!("\n   {}\n\n", md(label)));
                    out.push_str("   ```\n");
                    for l in t.lines() {
                        out.push_str(&format!("   {l}\n"));
                    }
                    out.push_str("   ```\n");
                }
                if !matches!(blocks.get(n + 1), Some(Block::Recommendation { .. })) {
                    out.push('\n');
                }
            }
            Block::Verdict { title, body, .. } => {
                for t in [title, body].into_iter().filter(|t| !t.is_empty()) {
                    out.push_str(&format!("{}\n\n", md(t)));
                }
            }
            Block::Checks { header, rows, .. } => {
                let rows: Vec<Vec<String>> = rows.iter().map(|(r, _)| r.clone()).collect();
                table(&mut out, header, &rows);
            }
            Block::Chart(_) => {}
        }
    }
    out
}
