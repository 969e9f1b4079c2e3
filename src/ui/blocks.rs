//! The window's renderer of a [`crate::present::document`]: the same blocks the terminal,
//! Markdown and PDF renderers draw, as egui widgets. Paragraphs wrap ([`Paragraph`]: UAX #14, so
//! mixed Chinese and Latin text breaks where it should); tables and label/value lists are
//! [`egui::Grid`]s; findings and the verdict take their severity's colour, a recommendation's
//! result its standing's (both judged by the advisor). The ratio gauge is the window's own
//! painted gauge; the other charts are drawn by the pages that own them (interactive plots), so
//! they are skipped here.

use egui::{RichText, Ui};

use crate::advisor::standing::Standing;
use crate::advisor::{Severity, Tier};
use crate::codespan::plain;
use crate::format;
use crate::i18n::{Lang, Msg, tr, trf};
use crate::present::document::{Block, Chart};
use crate::ui::paragraph::Paragraph;
use crate::ui::{gauge, theme};

/// Draws `blocks` top to bottom in `lang` (the words the window adds: a gauge's label). `id`
/// keeps the grids of two documents on one page apart.
pub fn show(ui: &mut Ui, lang: Lang, id: &str, blocks: &[Block]) {
    for (n, block) in blocks.iter().enumerate() {
        match block {
            Block::Title(t) => {
                ui.heading(t);
            }
            Block::Meta(t) | Block::Note(t) => {
                ui.add(Paragraph::new(RichText::new(t).weak()));
            }
            Block::Heading(t) => {
                // As the pages' own headings: space, the title, a rule.
                ui.add_space(10.0);
                ui.heading(t);
                ui.separator();
            }
            Block::Subheading(t) => {
                ui.add_space(6.0);
                ui.label(RichText::new(t).strong());
            }
            Block::Paragraph(t) => {
                ui.add(Paragraph::new(t.as_str()));
            }
            Block::Callout {
                severity,
                title,
                body,
                ..
            } => {
                // The verdict: a frame of its severity's colour, the title large.
                let colour = theme::severity(*severity);
                egui::Frame::group(ui.style())
                    .stroke(egui::Stroke::new(2.0, colour))
                    .inner_margin(12.0)
                    .show(ui, |ui| {
                        ui.set_width(ui.available_width());
                        ui.label(RichText::new(title).size(22.0).strong().color(colour));
                        ui.add_space(4.0);
                        ui.add(Paragraph::new(body.as_str()));
                    });
            }
            Block::KeyValues(kv) => {
                egui::Grid::new((id, n))
                    .num_columns(2)
                    .spacing([16.0, 4.0])
                    .show(ui, |ui| {
                        // A value may hold a code span (`memory=`): shown without its backticks.
                        for (k, v) in kv {
                            ui.label(plain(k));
                            ui.add(egui::Label::new(plain(v)).wrap());
                            ui.end_row();
                        }
                    });
            }
            Block::Table { header, rows, .. } => {
                let columns = header
                    .len()
                    .max(rows.iter().map(Vec::len).max().unwrap_or(0));
                // A table of three columns or more names its rows in the first column, which
                // may take a long name ("loading copies and buffers (DeepSpeed's ×1.5 buffer
                // factor)"): it wraps within a third of the width rather than pushing the
                // figures past the window's edge.
                let name_width = (ui.available_width() * 0.34).max(120.0);
                let wrap_names = columns >= 3;
                let mut grid = egui::Grid::new((id, n))
                    .num_columns(columns)
                    .striped(true)
                    .spacing([14.0, 4.0]);
                if wrap_names {
                    grid = grid.max_col_width(name_width);
                }
                grid.show(ui, |ui| {
                    if header.iter().any(|h| !h.is_empty()) {
                        for h in header {
                            // Headers on one line ("Bytes/param" broken in three reads as noise).
                            ui.add(egui::Label::new(RichText::new(plain(h)).strong()).extend());
                        }
                        ui.end_row();
                    }
                    // Other cells keep their words on one line (a grid gives a wrapping cell
                    // its narrowest width, one character); the last column may wrap.
                    for row in rows {
                        for (i, cell) in row.iter().enumerate() {
                            let label = egui::Label::new(plain(cell));
                            ui.add(if i + 1 == row.len() || (i == 0 && wrap_names) {
                                label.wrap()
                            } else {
                                label.extend()
                            });
                        }
                        ui.end_row();
                    }
                });
            }
            Block::Bullets(items) => {
                for i in items {
                    ui.add(Paragraph::new(format!("• {i}")));
                }
            }
            Block::Numbered(items) => {
                for (k, i) in items.iter().enumerate() {
                    ui.add(Paragraph::new(format!("{}. {i}", k + 1)));
                }
            }
            Block::Finding {
                lang,
                severity,
                label,
                title,
                explanation,
                recommendations,
            } => card(
                ui,
                *lang,
                Card {
                    severity: *severity,
                    label: label.clone(),
                    title: title.clone(),
                    aside: None,
                    explanation: explanation.clone(),
                    recommendations: recommendations.clone(),
                },
            ),
            Block::Verdict {
                standing,
                title,
                body,
            } => {
                // A plan's verdict: a frame of its standing's colour, the verdict large.
                let colour = theme::standing(*standing, ui.visuals().weak_text_color());
                egui::Frame::group(ui.style())
                    .stroke(egui::Stroke::new(2.0, colour))
                    .inner_margin(10.0)
                    .show(ui, |ui| {
                        ui.set_width(ui.available_width());
                        ui.add(Paragraph::new(
                            RichText::new(title).size(20.0).strong().color(colour),
                        ));
                        if !body.is_empty() {
                            ui.add(Paragraph::new(body.as_str()));
                        }
                    });
            }
            Block::Checks { header, rows, .. } => checks(ui, (id, n), header, rows),
            Block::Chart(Chart::RatioGauge { ratio, tier_labels }) => {
                ratio_gauge(ui, lang, *ratio, tier_labels);
            }
            Block::Chart(_) => {}
            Block::Recommendation {
                lang,
                rank,
                kind,
                title,
                result,
                standing,
                cost,
                apply,
                native,
                ..
            } => {
                let colour = theme::standing(*standing, ui.visuals().weak_text_color());
                // The number and the kind, then the title wrapping beside them. A title may
                // name a command (`docker run --shm-size=…`): set as code, unbroken.
                ui.horizontal_top(|ui| {
                    ui.label(RichText::new(format!("{rank}.")).strong());
                    ui.label(RichText::new(kind).weak());
                    ui.add(Paragraph::new(RichText::new(title).strong()));
                });
                ui.add(Paragraph::new(RichText::new(result).color(colour)));
                ui.add(Paragraph::new(RichText::new(cost).weak()));
                // The arguments that apply it, copyable: added to the same `advise` command.
                if !apply.is_empty() {
                    let args = apply.join(" ");
                    ui.horizontal_wrapped(|ui| {
                        ui.label(RichText::new(tr(*lang, Msg::AdviceApplyLabel)).weak());
                        ui.add(egui::Label::new(RichText::new(&args).monospace()).selectable(true));
                        if ui.small_button(tr(*lang, Msg::AdviceCopy)).clicked() {
                            ui.ctx().copy_text(args.clone());
                        }
                    });
                }
                // The same change in the user's own tools, each with its copy button.
                for (label, text) in native {
                    ui.horizontal_top(|ui| {
                        ui.label(RichText::new(label).weak());
                        if ui.small_button(tr(*lang, Msg::AdviceCopy)).clicked() {
                            ui.ctx().copy_text(text.clone());
                        }
                    });
                    ui.add(egui::Label::new(RichText::new(text).monospace()).selectable(true));
                }
                ui.add_space(4.0);
            }
        }
    }
}

/// A table of checks as a grid: the header strong, each row's last cell (its verdict in
/// words) strong in the colour of the row's standing.
fn checks(ui: &mut Ui, id: (&str, usize), header: &[String], rows: &[(Vec<String>, Standing)]) {
    egui::Grid::new(id)
        .num_columns(header.len())
        .striped(true)
        .spacing([14.0, 6.0])
        .show(ui, |ui| {
            for h in header {
                ui.label(RichText::new(plain(h)).strong());
            }
            ui.end_row();
            let unknown = ui.visuals().weak_text_color();
            for (row, standing) in rows {
                for (i, cell) in row.iter().enumerate() {
                    let text = RichText::new(plain(cell));
                    ui.label(if i + 1 == row.len() {
                        text.strong().color(theme::standing(*standing, unknown))
                    } else {
                        text
                    });
                }
                ui.end_row();
            }
        });
}

/// The ratio gauge (the window's painted one) and its legend of tiers, `tier_labels` lowest
/// first, the ratio's own tier (the advisor's [`Tier::of`]) underlined.
fn ratio_gauge(ui: &mut Ui, lang: Lang, ratio: f64, tier_labels: &[String; 4]) {
    let label = trf(lang, Msg::UiGaugeLabel, &[("ratio", &format::ratio(ratio))]);
    gauge::ratio_gauge(ui, ratio, &label);
    let current = Tier::of(ratio);
    ui.horizontal_wrapped(|ui| {
        for (t, name) in Tier::ALL.into_iter().zip(tier_labels) {
            let text = RichText::new(format!("■ {name}")).color(theme::tier(t));
            ui.label(if t == current {
                text.strong().underline()
            } else {
                text
            });
        }
    });
}

/// What one card shows: a finding or a live diagnosis.
pub struct Card {
    /// Colours the frame.
    pub severity: Severity,
    /// The severity's name ("Critical" / "严重").
    pub label: String,
    /// The title, after the severity.
    pub title: String,
    /// A weak note after the title (a diagnosis's time range).
    pub aside: Option<String>,
    /// The paragraph under the title.
    pub explanation: String,
    /// "What to do" lines, each shown after an arrow.
    pub recommendations: Vec<String>,
}

/// Draws `c` in a frame of its severity's colour, followed by a little space.
pub fn card(ui: &mut Ui, lang: Lang, c: Card) {
    let colour = theme::severity(c.severity);
    egui::Frame::group(ui.style())
        .stroke(egui::Stroke::new(1.5, colour))
        .inner_margin(10.0)
        .show(ui, |ui| {
            ui.set_width(ui.available_width());
            ui.horizontal_wrapped(|ui| {
                ui.label(RichText::new(c.label).color(colour).strong());
                ui.label(RichText::new(c.title).strong());
                if let Some(aside) = c.aside {
                    ui.label(RichText::new(aside).weak());
                }
            });
            ui.add(Paragraph::new(c.explanation));
            if !c.recommendations.is_empty() {
                ui.add_space(4.0);
                ui.label(RichText::new(tr(lang, Msg::FindingsWhatToDo)).italics());
                for rec in c.recommendations {
                    ui.add(Paragraph::new(format!("→ {rec}")));
                }
            }
        });
    ui.add_space(6.0);
}
