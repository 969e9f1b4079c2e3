//! The Data loading page's inputs: presets and scenario files, the dataset and DataLoader
//! controls, the RAM cache and dataset index, and the offer to reconcile the dataset size with
//! the sample count.

use egui::{RichText, Ui};

use super::Command;
use crate::advisor::Severity;
use crate::advisor::knobs::{self, KnobId as K, Label};
use crate::advisor::workload::{
    Augmentation, CacheMode, CacheScope, DataFormat, DecodeOn, Dtype, Inert, InertInput,
    StoredFormat, Workload, WorkloadResult, inert_inputs, presets,
};
use crate::format;
use crate::i18n::{Lang, Msg, tr, trf};
use crate::present::workload as words;
use crate::profile::DiskKind;
use crate::ui::theme;

/// The window's label of knob `id`, from its row in the knob table; `side` picks the width's
/// (0) or the height's (1) of a `WIDTHxHEIGHT` knob.
pub(in crate::ui::panels) fn label(lang: Lang, id: K, side: usize) -> &'static str {
    let k = knobs::knob(id);
    match k.label {
        Some(Label::Text(m)) => tr(lang, m),
        Some(Label::Sides(w, h)) => tr(lang, if side == 0 { w } else { h }),
        Some(Label::Keyword) | None => k.fields.first().copied().unwrap_or(k.flag),
    }
}

fn row(ui: &mut Ui, label: &str, add: impl FnOnce(&mut Ui) -> egui::Response) {
    let l = ui.label(label);
    add(ui).labelled_by(l.id);
    ui.end_row();
}

/// A row whose control is disabled, with the reason on hover, when its input can't change the
/// result (`advisor::workload::inert_inputs`).
fn input_row(
    ui: &mut Ui,
    lang: Lang,
    label: &str,
    inert: Option<Inert>,
    add: impl FnOnce(&mut Ui) -> egui::Response,
) {
    let l = ui.label(label);
    let r = ui
        .add_enabled_ui(inert.is_none(), add)
        .inner
        .labelled_by(l.id);
    if let Some(reason) = inert {
        r.on_disabled_hover_text(trf(
            lang,
            Msg::DataloaderInert,
            &[("reason", words::inert_reason(lang, reason))],
        ));
    }
    ui.end_row();
}

fn combo<T: Copy + PartialEq>(
    ui: &mut Ui,
    id: &str,
    value: &mut T,
    options: &[(T, String)],
) -> egui::Response {
    let current = options
        .iter()
        .find(|(v, _)| v == value)
        .map_or(String::new(), |(_, l)| l.clone());
    egui::ComboBox::from_id_salt(id)
        .selected_text(current)
        .show_ui(ui, |ui| {
            for (v, label) in options {
                ui.selectable_value(value, *v, label);
            }
        })
        .response
}

/// The inputs: presets, scenario files, the dataset and DataLoader controls (an input that can't
/// change the result is disabled, with the reason on hover), the RAM cache and index, and, when
/// the dataset size disagrees with its images, buttons to fix one from the other. `r` is the
/// simulator's result for these inputs.
pub fn inputs(
    ui: &mut Ui,
    lang: Lang,
    w: &mut Workload,
    r: Option<&WorkloadResult>,
) -> Vec<Command> {
    let mut commands = Vec::new();
    let inert_list = inert_inputs(&w.clamped());
    let inert = |i: InertInput| inert_list.iter().find(|(x, _)| *x == i).map(|(_, r)| *r);
    // A chip is lit only while its values are untouched; a changed one says what it is based on.
    let basis = presets::basis(w);
    let untouched = |id: &str| {
        basis
            .as_ref()
            .is_some_and(|b| b.id == id && b.changed.is_empty())
    };
    ui.horizontal_wrapped(|ui| {
        for (id, preset) in presets::presets() {
            if ui
                .selectable_label(untouched(id), words::preset_name(lang, id))
                .clicked()
            {
                *w = Workload {
                    storage: w.storage,
                    measured_decode_mpix_per_core: w.measured_decode_mpix_per_core,
                    ..preset
                };
            }
        }
    });
    if basis.as_ref().is_some_and(|b| !b.changed.is_empty())
        && let Some(text) = words::preset_basis(lang, w)
    {
        ui.label(RichText::new(text).weak());
    }
    ui.horizontal(|ui| {
        if ui.button(tr(lang, Msg::WorkOpenScenario)).clicked() {
            commands.push(Command::OpenScenarioDialog);
        }
        if ui.button(tr(lang, Msg::WorkSaveScenario)).clicked() {
            commands.push(Command::SaveScenarioDialog);
        }
        if ui.button(tr(lang, Msg::DatasetOpenFolder)).clicked() {
            commands.push(Command::OpenDatasetDialog);
        }
    });
    egui::Grid::new("workload-grid")
        .num_columns(2)
        .spacing([10.0, 6.0])
        .show(ui, |ui| {
            let mut gb = crate::units::to_gb(w.dataset_bytes);
            row(ui, label(lang, K::DatasetSize, 0), |ui| {
                ui.add(
                    super::slider(&mut gb, 1.0..=100_000.0)
                        .logarithmic(true)
                        .suffix(" GB"),
                )
            });
            let bytes = crate::units::from_gb(gb);
            if bytes != w.dataset_bytes {
                w.set_dataset_size(bytes);
            }
            row(ui, label(lang, K::Samples, 0), |ui| {
                ui.add(super::slider(&mut w.samples, 100..=10_000_000_000).logarithmic(true))
            });
            row(ui, label(lang, K::ImageSize, 0), |ui| {
                ui.add(super::number(&mut w.width, 0..=16_384).suffix(" px"))
            });
            row(ui, label(lang, K::ImageSize, 1), |ui| {
                ui.add(super::number(&mut w.height, 0..=16_384).suffix(" px"))
            });
            let stored = [
                (StoredFormat::Jpeg, "JPEG".to_string()),
                (StoredFormat::Png, "PNG".into()),
                (StoredFormat::Raw, tr(lang, Msg::WorkRaw).into()),
            ];
            input_row(
                ui,
                lang,
                label(lang, K::Stored, 0),
                inert(InertInput::Stored),
                |ui| combo(ui, "stored", &mut w.stored, &stored),
            );
            input_row(
                ui,
                lang,
                label(lang, K::Crop, 0),
                inert(InertInput::Crop),
                |ui| {
                    ui.add(
                        super::slider(&mut w.crop, 32..=4096)
                            .logarithmic(true)
                            .suffix(" px"),
                    )
                },
            );
            let dtypes = [
                (Dtype::U8, "uint8".to_string()),
                (Dtype::F16, "float16".into()),
                (Dtype::F32, "float32".into()),
            ];
            input_row(
                ui,
                lang,
                label(lang, K::Dtype, 0),
                inert(InertInput::Dtype),
                |ui| combo(ui, "dtype", &mut w.dtype, &dtypes),
            );
            row(ui, label(lang, K::BatchSize, 0), |ui| {
                ui.add(super::slider(&mut w.batch_size, 1..=4096).logarithmic(true))
            });
            row(ui, label(lang, K::NumWorkers, 0), |ui| {
                ui.add(super::slider(&mut w.num_workers, 0..=64))
            });
            input_row(
                ui,
                lang,
                label(lang, K::PrefetchFactor, 0),
                inert(InertInput::PrefetchFactor),
                |ui| ui.add(super::slider(&mut w.prefetch_factor, 1..=16)),
            );
            ui.label("");
            ui.horizontal(|ui| {
                ui.checkbox(&mut w.pin_memory, label(lang, K::PinMemory, 0));
                let persistent = inert(InertInput::PersistentWorkers);
                let r = ui.add_enabled(
                    persistent.is_none(),
                    egui::Checkbox::new(
                        &mut w.persistent_workers,
                        label(lang, K::PersistentWorkers, 0),
                    ),
                );
                if let Some(reason) = persistent {
                    r.on_disabled_hover_text(trf(
                        lang,
                        Msg::DataloaderInert,
                        &[("reason", words::inert_reason(lang, reason))],
                    ));
                }
            });
            ui.end_row();
            let augs = [Augmentation::None, Augmentation::Light, Augmentation::Heavy]
                .map(|x| (x, words::augmentation(lang, x).to_string()));
            input_row(
                ui,
                lang,
                label(lang, K::Augmentation, 0),
                inert(InertInput::Augmentation),
                |ui| combo(ui, "aug", &mut w.augmentation, &augs),
            );
            let formats = [DataFormat::Files, DataFormat::Shards, DataFormat::Mmap]
                .map(|x| (x, words::data_format(lang, x).to_string()));
            row(ui, label(lang, K::DataFormat, 0), |ui| {
                combo(ui, "format", &mut w.format, &formats)
            });
            let decode =
                [DecodeOn::Cpu, DecodeOn::Gpu].map(|x| (x, words::decode_on(lang, x).to_string()));
            row(ui, label(lang, K::DecodeOn, 0), |ui| {
                combo(ui, "decode", &mut w.decode_on, &decode)
            });
            let mut storage_opts = vec![(None, tr(lang, Msg::WorkStorageMachine).to_string())];
            for k in [
                DiskKind::Nvme,
                DiskKind::Ssd,
                DiskKind::Hdd,
                DiskKind::Network,
            ] {
                storage_opts.push((Some(k), crate::present::disk_kind(lang, k).to_string()));
            }
            input_row(
                ui,
                lang,
                label(lang, K::Storage, 0),
                inert(InertInput::Storage),
                |ui| combo(ui, "storage", &mut w.storage, &storage_opts),
            );
            row(ui, label(lang, K::GpuDemand, 0), |ui| {
                ui.add(
                    super::slider(&mut w.gpu_demand_samples_per_s, 1.0..=100_000.0)
                        .logarithmic(true),
                )
            });
            row(ui, label(lang, K::ConcurrentExperiments, 0), |ui| {
                ui.add(super::slider(&mut w.concurrent_experiments, 1..=8))
            });
        });
    link_offer(ui, lang, w, r);
    let open = w.cache != CacheMode::None || w.index_bytes_per_sample.is_some();
    egui::CollapsingHeader::new(tr(lang, Msg::DataloaderCacheSection))
        .id_salt("workload-cache")
        .default_open(open)
        .show(ui, |ui| {
            let cache_dtypes = [
                (Dtype::U8, "uint8".to_string()),
                (Dtype::F16, "float16".into()),
                (Dtype::F32, "float32".into()),
            ];
            egui::Grid::new("workload-cache-grid")
                .num_columns(2)
                .spacing([10.0, 6.0])
                .show(ui, |ui| {
                    let caches = [
                        CacheMode::None,
                        CacheMode::StoredInRam,
                        CacheMode::DecodedInRam,
                    ]
                    .map(|x| (x, words::cache_mode(lang, x).to_string()));
                    row(ui, label(lang, K::Cache, 0), |ui| {
                        combo(ui, "cache", &mut w.cache, &caches)
                    });
                    let size = inert(InertInput::CacheSize);
                    input_row(ui, lang, label(lang, K::CacheSize, 0), size, |ui| {
                        ui.add(super::number(&mut w.cache_width, 0..=16_384).suffix(" px"))
                    });
                    input_row(ui, lang, label(lang, K::CacheSize, 1), size, |ui| {
                        ui.add(super::number(&mut w.cache_height, 0..=16_384).suffix(" px"))
                    });
                    input_row(
                        ui,
                        lang,
                        label(lang, K::CacheDtype, 0),
                        inert(InertInput::CacheDtype),
                        |ui| combo(ui, "cache-dtype", &mut w.cache_dtype, &cache_dtypes),
                    );
                    let scopes = [
                        CacheScope::Shared,
                        CacheScope::PerRank,
                        CacheScope::PerWorker,
                    ]
                    .map(|x| (x, words::cache_scope(lang, x).to_string()));
                    input_row(
                        ui,
                        lang,
                        label(lang, K::CacheScope, 0),
                        inert(InertInput::CacheScope),
                        |ui| combo(ui, "cache-scope", &mut w.cache_scope, &scopes),
                    );
                    let mut index = w.index_bytes();
                    input_row(
                        ui,
                        lang,
                        label(lang, K::IndexBytes, 0),
                        inert(InertInput::IndexBytes),
                        |ui| ui.add(super::number(&mut index, 0..=100_000).suffix(" B")),
                    );
                    if index != w.index_bytes() {
                        w.index_bytes_per_sample = Some(index);
                    }
                });
            if w.cache == CacheMode::DecodedInRam {
                ui.add(crate::ui::paragraph::Paragraph::new(
                    RichText::new(tr(lang, Msg::DataloaderCacheSizeNote)).weak(),
                ));
            }
            ui.add(crate::ui::paragraph::Paragraph::new(
                RichText::new(trf(
                    lang,
                    Msg::DataloaderIndexBytesNote,
                    &[(
                        "bytes",
                        &crate::advisor::workload::DEFAULT_INDEX_BYTES_PER_SAMPLE.to_string(),
                    )],
                ))
                .weak(),
            ));
        });
    ui.label(RichText::new(tr(lang, Msg::WorkAssumptionsNote)).weak());
    commands
}

/// When the dataset size, the sample count and the image size disagree (the advisor's
/// consistency check), offers to set one of the first two from a typical file of this format
/// and size.
fn link_offer(ui: &mut Ui, lang: Lang, w: &mut Workload, r: Option<&WorkloadResult>) {
    let Some(c) = r
        .and_then(|r| r.consistency)
        .filter(|c| !c.plausible && c.typical_bytes_per_sample > 0)
    else {
        return;
    };
    let typical = c.typical_bytes_per_sample;
    let samples = (w.dataset_bytes / typical).max(1);
    let dataset = w.samples.saturating_mul(typical).clamp(1 << 20, 1 << 50);
    ui.add_space(4.0);
    ui.label(
        RichText::new(tr(lang, Msg::DataloaderLinkNote)).color(theme::severity(Severity::Warning)),
    );
    ui.horizontal_wrapped(|ui| {
        let to_samples = trf(
            lang,
            Msg::DataloaderLinkSamples,
            &[("samples", &format::thousands(samples))],
        );
        if ui.button(to_samples).clicked() {
            w.samples = samples;
        }
        let to_dataset = trf(
            lang,
            Msg::DataloaderLinkDataset,
            &[("dataset", &format::gb(dataset))],
        );
        if ui.button(to_dataset).clicked() {
            w.dataset_bytes = dataset;
        }
    });
}
