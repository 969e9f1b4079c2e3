//! The planner's results: the verdict, what the plan needs against what the machine has, the
//! phases, the breakdown, the plan's recommendations and its notes. All numbers come from the
//! assessment.

use egui::{RichText, Ui};

use crate::advisor::Assessment;
use crate::advisor::training::{CapacityCheck, TrainingMemory};
use crate::i18n::{Lang, Msg, tr, trf};
use crate::present::training as words;
use crate::ui::paragraph::Paragraph;
use crate::ui::theme;

fn check_row(ui: &mut Ui, lang: Lang, label: Msg, c: &CapacityCheck) {
    let [name, needed, available, fits] = words::check_row(lang, label, c);
    ui.label(name);
    ui.label(RichText::new(needed).strong());
    ui.label(available);
    let colour = theme::standing(
        crate::advisor::standing::check(c),
        ui.visuals().weak_text_color(),
    );
    ui.label(RichText::new(fits).color(colour).strong());
    ui.end_row();
}

/// The loading and training phases with the peak, how the checkpoint is loaded, the runtime in
/// the CPU figures and, where it applies, DeepSpeed's own figure.
fn phases(ui: &mut Ui, lang: Lang, t: &TrainingMemory) {
    crate::ui::panels::heading(ui, tr(lang, Msg::PhaseSection));
    let (header, rows) = words::phase_table(lang, t);
    egui::Grid::new("training-phases")
        .num_columns(3)
        .striped(true)
        .spacing([14.0, 4.0])
        .show(ui, |ui| {
            for h in &header {
                ui.label(RichText::new(h).strong());
            }
            ui.end_row();
            let last = rows.len().saturating_sub(1);
            for (i, r) in rows.iter().enumerate() {
                for cell in r {
                    let text = RichText::new(cell);
                    ui.label(if i == last { text.strong() } else { text });
                }
                ui.end_row();
            }
        });
    ui.add(Paragraph::new(words::loading_line(lang, t)));
    ui.add(Paragraph::new(
        RichText::new(words::runtime_note(lang, t)).weak(),
    ));
    if let Some(d) = words::deepspeed_line(lang, t) {
        ui.add(Paragraph::new(RichText::new(d).weak()));
    }
}

/// Draws what the plan needs and whether it fits, or why the plan can't be estimated.
pub(super) fn outputs(ui: &mut Ui, lang: Lang, a: &Assessment) {
    if let Some(e) = a.training_error {
        let text = trf(
            lang,
            Msg::TrainInvalid,
            &[("error", &words::plan_error(lang, e))],
        );
        ui.label(
            RichText::new(text)
                .color(theme::severity(crate::advisor::Severity::Critical))
                .strong(),
        );
        return;
    }
    let Some(t) = &a.training_memory else { return };
    verdict(ui, lang, t);
    egui::Grid::new("training-checks")
        .num_columns(4)
        .striped(true)
        .spacing([14.0, 6.0])
        .show(ui, |ui| {
            ui.label("");
            ui.label(RichText::new(tr(lang, Msg::TrainNeeded)).strong());
            ui.label(RichText::new(tr(lang, Msg::TrainAvailable)).strong());
            ui.label("");
            ui.end_row();
            check_row(ui, lang, Msg::TrainNeedGpu, &t.gpu);
            check_row(ui, lang, Msg::TrainNeedCpu, &t.cpu);
            if let Some(n) = &t.nvme {
                check_row(ui, lang, Msg::TrainNeedNvme, n);
            }
        });
    // Next to the VRAM figure: what it includes of activations.
    ui.add(Paragraph::new(
        RichText::new(words::activations_line(lang, t)).italics(),
    ));
    if let Some(line) = words::ram_line(lang, t) {
        ui.label(line);
    }
    phases(ui, lang, t);
    crate::ui::panels::heading(ui, tr(lang, Msg::TrainBreakdown));
    // What each row is can take a long name ("loading copies and buffers (DeepSpeed's ×1.5
    // buffer factor)"): it wraps within its column rather than pushing the table past the
    // window's edge.
    let name_width = (ui.available_width() * 0.34).max(120.0);
    egui::Grid::new("training-breakdown")
        .num_columns(4)
        .striped(true)
        .spacing([14.0, 4.0])
        .max_col_width(name_width)
        .show(ui, |ui| {
            let (header, rows) = words::breakdown_table(lang, t);
            for h in header {
                // Headers on one line ("Bytes/param" broken into three read as noise).
                ui.add(egui::Label::new(RichText::new(h).strong()).extend());
            }
            ui.end_row();
            for [state, place, bytes, per_param] in rows {
                ui.add(egui::Label::new(state).wrap());
                ui.label(place);
                ui.label(bytes);
                ui.label(per_param);
                ui.end_row();
            }
        });
    if let Some(traffic) = crate::present::document::plan_sections::nvme_traffic(lang, t) {
        ui.add(Paragraph::new(traffic));
    }
    crate::ui::panels::recommendations::recommendations(
        ui,
        lang,
        &a.recommendations,
        Some(crate::advisor::recommend::Subject::Training),
    );
    ui.add_space(6.0);
    for w in &t.estimate.warnings {
        ui.add(Paragraph::new(
            RichText::new(format!("! {}", words::plan_warning(lang, *w))).italics(),
        ));
    }
    ui.add(Paragraph::new(
        RichText::new(words::source(lang, t.estimate.formula)).weak(),
    ));
    ui.add(Paragraph::new(
        RichText::new(tr(lang, Msg::TrainUnitsNote)).weak(),
    ));
}

fn verdict(ui: &mut Ui, lang: Lang, t: &TrainingMemory) {
    let msg = crate::present::training::verdict_msg(t);
    let colour = theme::standing(
        crate::advisor::standing::training(t),
        ui.visuals().weak_text_color(),
    );
    egui::Frame::group(ui.style())
        .stroke(egui::Stroke::new(2.0, colour))
        .inner_margin(10.0)
        .show(ui, |ui| {
            ui.set_width(ui.available_width());
            ui.label(
                RichText::new(tr(lang, msg))
                    .size(20.0)
                    .strong()
                    .color(colour),
            );
            let (model, plan) = words::plan_summary(lang, t);
            ui.label(model);
            ui.add(Paragraph::new(RichText::new(plan).weak()));
        });
}
