//! Every string of a report's blocks through [`crate::sanitize`] before any renderer sees it:
//! control, bidirectional and noncharacter code points removed, and line breaks turned into
//! spaces (a block is one paragraph; a host name with a newline must not start a new line in
//! the PDF or Markdown). Chart labels included, so the SVG given to the PDF writer is valid XML.

use crate::present::document::{Block, Chart};
use crate::sanitize::clean_line;

/// Cleans one string in place ([`clean_line`]).
pub(super) fn fix(s: &mut String) {
    if let std::borrow::Cow::Owned(clean) = clean_line(s) {
        *s = clean;
    }
}

/// Cleans every string in `blocks` in place.
pub fn clean_blocks(blocks: &mut [Block]) {
    for block in blocks {
        match block {
            Block::Title(t)
            | Block::Meta(t)
            | Block::Heading(t)
            | Block::Subheading(t)
            | Block::Paragraph(t)
            | Block::Note(t) => fix(t),
            Block::Callout { title, body, .. } => {
                fix(title);
                fix(body);
            }
            Block::KeyValues(kv) => kv.iter_mut().for_each(|(k, v)| {
                fix(k);
                fix(v);
            }),
            Block::Table { header, rows, .. } => {
                header.iter_mut().for_each(fix);
                rows.iter_mut().flatten().for_each(fix);
            }
            Block::Bullets(items) | Block::Numbered(items) => items.iter_mut().for_each(fix),
            Block::Finding {
                label,
                title,
                explanation,
                recommendations,
                ..
            } => {
                fix(label);
                fix(title);
                fix(explanation);
                recommendations.iter_mut().for_each(fix);
            }
            Block::Recommendation {
                text,
                apply_text,
                kind,
                title,
                result,
                cost,
                apply,
                native,
                ..
            } => {
                for t in [text, apply_text, kind, title, result, cost] {
                    fix(t);
                }
                apply.iter_mut().for_each(fix);
                // A tool's text keeps its line breaks (a DeepSpeed fragment, a pod spec): each
                // line cleaned on its own.
                for (label, t) in native {
                    fix(label);
                    *t = t
                        .lines()
                        .map(|l| clean_line(l).into_owned())
                        .collect::<Vec<_>>()
                        .join("\n");
                }
            }
            Block::Verdict { title, body, .. } => {
                fix(title);
                fix(body);
            }
            Block::Checks { header, rows, .. } => {
                header.iter_mut().for_each(fix);
                rows.iter_mut()
                    .flat_map(|(r, _)| r.iter_mut())
                    .for_each(fix);
            }
            Block::Chart(chart) => clean_chart(chart),
        }
    }
}

fn clean_chart(chart: &mut Chart) {
    match chart {
        Chart::RatioGauge { tier_labels, .. } => tier_labels.iter_mut().for_each(fix),
        Chart::RulesBars {
            rules,
            actual_label,
            axis_label,
            ..
        } => {
            rules.iter_mut().for_each(|(name, _)| fix(name));
            fix(actual_label);
            fix(axis_label);
        }
        Chart::FleetScatter {
            points,
            x_label,
            y_label,
            line_labels,
            ..
        } => {
            points.iter_mut().for_each(|p| fix(&mut p.label));
            fix(x_label);
            fix(y_label);
            line_labels.iter_mut().for_each(fix);
        }
        Chart::Timeline {
            panels,
            spans,
            x_label,
            ..
        } => {
            for p in panels {
                fix(&mut p.title);
                p.series.iter_mut().for_each(|s| fix(&mut s.label));
            }
            spans.iter_mut().for_each(|s| fix(&mut s.label));
            fix(x_label);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::present::document::FleetPoint;

    #[test]
    fn every_kind_of_block_is_cleaned() {
        let bad = "host\u{1b}[2J\n# x\u{202e}\u{fffe}";
        let mut blocks = vec![
            Block::Title(bad.into()),
            Block::Table {
                header: vec![bad.into()],
                rows: vec![vec![bad.into()]],
                widths: vec![1.0],
            },
            Block::Chart(Chart::FleetScatter {
                points: vec![FleetPoint {
                    label: bad.into(),
                    vram_gib: 1.0,
                    ram_gib: 2.0,
                    tier: None,
                }],
                x_label: "x".into(),
                y_label: "y".into(),
                line_labels: ["1×".into(), "1.5×".into(), "2×".into()],
                lang: crate::i18n::Lang::En,
            }),
        ];
        clean_blocks(&mut blocks);
        let text = format!("{blocks:?}");
        assert!(
            !text.contains("\\u{1b}") && !text.contains("\\u{202e}"),
            "{text}"
        );
        assert!(
            !text.contains("\\n") && !text.contains("\\u{fffe}"),
            "{text}"
        );
        assert_eq!(blocks[0], Block::Title("host[2J # x".into()));
    }
}
