//! The headline banner (the verdict, or what was set up that doesn't fit), the ratio gauge and
//! the two ratios.

use egui::{RichText, Ui};

use crate::advisor::{Assessment, Tier};
use crate::format;
use crate::i18n::{Lang, Msg, tr, trf};
use crate::present;
use crate::ui::paragraph::Paragraph;
use crate::ui::{gauge, theme};

/// Draws the verdict and, when there is a ratio, the gauge with its tier legend.
pub fn verdict(ui: &mut Ui, lang: Lang, a: &Assessment) {
    let h = present::headline::headline(lang, a);
    let (title, detail) = (h.title, h.detail);
    let colour = theme::severity(h.severity);
    egui::Frame::group(ui.style())
        .stroke(egui::Stroke::new(2.0, colour))
        .inner_margin(12.0)
        .show(ui, |ui| {
            ui.set_width(ui.available_width());
            ui.label(RichText::new(title).size(22.0).strong().color(colour));
            ui.add_space(4.0);
            ui.add(Paragraph::new(detail));
        });

    super::heading(ui, tr(lang, Msg::RatioSection));
    if let Some(r) = a.ratio.ram_to_vram_total {
        let label = trf(lang, Msg::UiGaugeLabel, &[("ratio", &format::ratio(r))]);
        gauge::ratio_gauge(ui, r, &label);
        ui.horizontal_wrapped(|ui| {
            for t in Tier::ALL {
                let current = a.ratio.tier == Some(t);
                let text =
                    RichText::new(format!("■ {}", present::tier(lang, t))).color(theme::tier(t));
                ui.label(if current {
                    text.strong().underline()
                } else {
                    text
                });
            }
        });
    }
    egui::Grid::new("ratios")
        .num_columns(2)
        .spacing([16.0, 4.0])
        .show(ui, |ui| {
            for (i, (label, value)) in present::ratio::rows(lang, a).into_iter().enumerate() {
                ui.label(label);
                // The first row, RAM to all VRAM, is the ratio the verdict rests on.
                ui.label(if i == 0 {
                    RichText::new(value).strong()
                } else {
                    RichText::new(value)
                });
                ui.end_row();
            }
        });
}
