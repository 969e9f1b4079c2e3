//! Findings: severity, title, explanation and what to do, in cards the Monitor page's
//! diagnoses share.

use egui::{RichText, Ui};

use crate::advisor::{Assessment, Severity};
use crate::i18n::{Lang, Msg, tr};
use crate::present;
use crate::ui::paragraph::Paragraph;
use crate::ui::theme;

/// Draws every finding, most severe first.
pub fn findings(ui: &mut Ui, lang: Lang, a: &Assessment) {
    super::heading(ui, tr(lang, Msg::FindingsSection));
    if a.findings.is_empty() {
        ui.label(tr(lang, Msg::FindingsNone));
    }
    for f in &a.findings {
        card(
            ui,
            lang,
            Card {
                severity: f.severity,
                title: present::finding_title(lang, f),
                aside: None,
                explanation: present::finding_explanation(lang, f),
                recommendations: present::finding_recommendations(lang, f),
            },
        );
    }
}

/// What one card shows: a finding or a live diagnosis.
pub(super) struct Card {
    /// Colours the frame and names the severity.
    pub severity: Severity,
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
pub(super) fn card(ui: &mut Ui, lang: Lang, c: Card) {
    let colour = theme::severity(c.severity);
    egui::Frame::group(ui.style())
        .stroke(egui::Stroke::new(1.5, colour))
        .inner_margin(10.0)
        .show(ui, |ui| {
            ui.set_width(ui.available_width());
            ui.horizontal_wrapped(|ui| {
                ui.label(
                    RichText::new(present::severity(lang, c.severity))
                        .color(colour)
                        .strong(),
                );
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
