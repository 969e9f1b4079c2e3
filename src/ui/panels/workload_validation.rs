//! The Data loading page's validation loader: a second DataLoader that runs while training
//! pauses, with its own `batch_size`, `num_workers`, `prefetch_factor` and `pin_memory`, as the
//! scenario file holds it (`validation`). Both loaders count at the evaluation pause
//! (`advisor::workload::pause`). A change edits the workload, so the page sends `SetWorkload`
//! and the window reassesses, as for every other control.

use egui::{RichText, Ui};

use crate::advisor::workload::{Loader, Workload};
use crate::i18n::{Lang, Msg, tr};

fn row(ui: &mut Ui, label: &str, add: impl FnOnce(&mut Ui) -> egui::Response) {
    let l = ui.label(label);
    add(ui).labelled_by(l.id);
    ui.end_row();
}

/// A section with a switch for the validation loader and, while it is on, its settings. A
/// loader switched on starts from values for the user to change (assumption, not a measured
/// typical): the training loader's batch, half its workers (at least 1), PyTorch's default
/// `prefetch_factor` of 2, pinned as the training loader is.
pub fn validation_inputs(ui: &mut Ui, lang: Lang, w: &mut Workload) {
    let open = w.validation.is_some();
    egui::CollapsingHeader::new(tr(lang, Msg::DataloaderValidationSection))
        .id_salt("workload-validation")
        .default_open(open)
        .show(ui, |ui| {
            let mut on = w.validation.is_some();
            if ui
                .checkbox(&mut on, tr(lang, Msg::DataloaderValidationOn))
                .changed()
            {
                w.validation = on.then_some(Loader {
                    batch_size: w.batch_size,
                    num_workers: (w.num_workers / 2).max(1),
                    prefetch_factor: 2,
                    pin_memory: w.pin_memory,
                });
            }
            if let Some(v) = w.validation.as_mut() {
                egui::Grid::new("workload-validation-grid")
                    .num_columns(2)
                    .spacing([10.0, 6.0])
                    .show(ui, |ui| {
                        row(ui, tr(lang, Msg::DataloaderValidationBatchSize), |ui| {
                            ui.add(super::slider(&mut v.batch_size, 1..=4096).logarithmic(true))
                        });
                        row(ui, tr(lang, Msg::DataloaderValidationNumWorkers), |ui| {
                            ui.add(super::slider(&mut v.num_workers, 0..=64))
                        });
                        row(ui, tr(lang, Msg::DataloaderValidationPrefetch), |ui| {
                            ui.add(super::slider(&mut v.prefetch_factor, 1..=16))
                        });
                        ui.label("");
                        ui.checkbox(
                            &mut v.pin_memory,
                            tr(lang, Msg::DataloaderValidationPinMemory),
                        );
                        ui.end_row();
                    });
            }
            ui.label(RichText::new(tr(lang, Msg::DataloaderValidationNote)).weak());
        });
}
