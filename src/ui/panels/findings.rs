//! Findings: severity, title, explanation and what to do.

use egui::{RichText, Ui};

use crate::advisor::Assessment;
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
        let colour = theme::severity(f.severity);
        egui::Frame::group(ui.style())
            .stroke(egui::Stroke::new(1.5, colour))
            .inner_margin(10.0)
            .show(ui, |ui| {
                ui.set_width(ui.available_width());
                ui.horizontal_wrapped(|ui| {
                    ui.label(
                        RichText::new(present::severity(lang, f.severity))
                            .color(colour)
                            .strong(),
                    );
                    ui.label(RichText::new(present::finding_title(lang, f)).strong());
                });
                ui.add(Paragraph::new(present::finding_explanation(lang, f)));
                let recs = present::finding_recommendations(lang, f);
                if !recs.is_empty() {
                    ui.add_space(4.0);
                    ui.label(RichText::new(tr(lang, Msg::FindingsWhatToDo)).italics());
                    for rec in recs {
                        ui.add(Paragraph::new(format!("→ {rec}")));
                    }
                }
            });
        ui.add_space(6.0);
    }
}
