//! Side panel: the machine's hardware, as label/value rows.

use egui::{RichText, Ui};

use crate::advisor::Assessment;
use crate::i18n::{Lang, Msg, tr};
use crate::present;
use crate::ui::paragraph::Paragraph;

/// Draws the hardware summary of `a`.
pub fn hardware(ui: &mut Ui, lang: Lang, a: &Assessment) {
    super::heading(ui, tr(lang, Msg::HwSection));
    egui::Grid::new("hardware")
        .num_columns(2)
        .striped(true)
        .spacing([12.0, 6.0])
        .show(ui, |ui| {
            for (label, value) in present::hardware_rows(lang, a) {
                ui.label(RichText::new(&label).strong());
                ui.add(Paragraph::new(value));
                ui.end_row();
            }
        });
    if !a.profile.notes.is_empty() {
        super::heading(ui, tr(lang, Msg::NotesSection));
        for n in &a.profile.notes {
            ui.add(Paragraph::new(format!("• {}", present::note(lang, n))));
        }
    }
}
