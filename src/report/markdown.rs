//! Markdown rendering of the report model. Charts are omitted (their numbers are in the tables
//! next to them).

use super::model::Block;

fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', " ")
}

fn table(out: &mut String, header: &[String], rows: &[Vec<String>]) {
    out.push('|');
    for h in header {
        out.push_str(&format!(" {} |", cell(h)));
    }
    out.push_str("\n|");
    for _ in header {
        out.push_str("---|");
    }
    out.push('\n');
    for row in rows {
        out.push('|');
        for c in row {
            out.push_str(&format!(" {} |", cell(c)));
        }
        out.push('\n');
    }
    out.push('\n');
}

/// Renders blocks as GitHub-flavoured Markdown.
pub fn render(blocks: &[Block]) -> String {
    let mut out = String::new();
    for block in blocks {
        match block {
            Block::Title(t) => out.push_str(&format!("# {t}\n\n")),
            Block::Meta(t) => out.push_str(&format!("_{t}_\n\n")),
            Block::Heading(t) => out.push_str(&format!("## {t}\n\n")),
            Block::Subheading(t) => out.push_str(&format!("### {t}\n\n")),
            Block::Paragraph(t) => out.push_str(&format!("{t}\n\n")),
            Block::Note(t) => out.push_str(&format!("> {t}\n\n")),
            Block::Callout { title, body, .. } => {
                out.push_str(&format!("> **{title}**\n>\n> {body}\n\n"))
            }
            Block::KeyValues(kv) => {
                let rows: Vec<Vec<String>> =
                    kv.iter().map(|(k, v)| vec![k.clone(), v.clone()]).collect();
                table(&mut out, &[String::new(), String::new()], &rows);
            }
            Block::Table { header, rows, .. } => table(&mut out, header, rows),
            Block::Bullets(items) => {
                for i in items {
                    out.push_str(&format!("- {i}\n"));
                }
                out.push('\n');
            }
            Block::Finding {
                label,
                title,
                explanation,
                recommendations,
                ..
            } => {
                out.push_str(&format!("**{label}: {title}**\n\n{explanation}\n\n"));
                for r in recommendations {
                    out.push_str(&format!("- → {r}\n"));
                }
                if !recommendations.is_empty() {
                    out.push('\n');
                }
            }
            Block::Chart(_) => {}
        }
    }
    out
}
