//! The bandwidth page: memory bandwidth (theoretical and measured), the seed's bandwidth rule as
//! a gauge, PCIe per GPU, storage, and the pipeline chart with its narrowest stage named. All
//! figures come from the assessment; the page only starts and cancels benchmarks.

use egui::{RichText, Ui};

use super::Command;
use crate::advisor::Assessment;
use crate::advisor::bandwidth::Bandwidth;
use crate::format;
use crate::i18n::{Lang, Msg, tr, trf};
use crate::present::bandwidth as words;
use crate::present::bench as bench_words;
use crate::ui::paragraph::Paragraph;
use crate::ui::theme;

pub use super::bench_view::BenchView;

/// Memory types offered when entering a configuration.
pub const MEMORY_TYPES: [&str; 7] = [
    "DDR4", "DDR5", "LPDDR4X", "LPDDR5", "LPDDR5X", "HBM2e", "HBM3",
];

/// Draws the page.
pub fn bandwidth(ui: &mut Ui, lang: Lang, a: &Assessment, bench: &mut BenchView) -> Vec<Command> {
    let mut commands = Vec::new();
    benchmark_bar(ui, lang, bench, &mut commands);
    match &a.bandwidth {
        Some(b) => {
            super::bandwidth_pipeline::pipeline(ui, lang, a, b, bench);
            memory(ui, lang, a, b);
            seed_rule(ui, lang, b);
            bandwidth_findings(ui, lang, a);
            pcie(ui, lang, a, b);
        }
        None => {
            super::heading(ui, tr(lang, Msg::BwRuleSection));
            ui.add(Paragraph::new(tr(lang, Msg::BwRuleCant)));
        }
    }
    entry(ui, lang, bench, &mut commands);
    storage(ui, lang, a);
    commands
}

fn entry(ui: &mut Ui, lang: Lang, bench: &mut BenchView, commands: &mut Vec<Command>) {
    ui.add_space(8.0);
    egui::CollapsingHeader::new(tr(lang, Msg::BwEnterSection))
        .id_salt("bw-entry")
        .show(ui, |ui| {
            egui::Grid::new("bw-entry-grid")
                .num_columns(2)
                .spacing([12.0, 6.0])
                .show(ui, |ui| {
                    let l = ui.label(tr(lang, Msg::BwEnterType));
                    egui::ComboBox::from_id_salt("bw-entry-type")
                        .selected_text(bench.entry_type.clone())
                        .show_ui(ui, |ui| {
                            for t in MEMORY_TYPES {
                                ui.selectable_value(&mut bench.entry_type, t.to_string(), t);
                            }
                        })
                        .response
                        .labelled_by(l.id);
                    ui.end_row();
                    let l = ui.label(tr(lang, Msg::BwEnterSpeed));
                    ui.add(egui::DragValue::new(&mut bench.entry_speed).range(200..=20_000))
                        .labelled_by(l.id);
                    ui.end_row();
                    let l = ui.label(tr(lang, Msg::BwEnterChannels));
                    ui.add(egui::DragValue::new(&mut bench.entry_channels).range(1..=24))
                        .labelled_by(l.id);
                    ui.end_row();
                });
            ui.add(Paragraph::new(
                RichText::new(tr(lang, Msg::BwEnterNote)).weak(),
            ));
            ui.horizontal_wrapped(|ui| {
                if ui.button(tr(lang, Msg::BwApply)).clicked() {
                    commands.push(Command::SetMemoryConfig {
                        memory_type: bench.entry_type.clone(),
                        speed_mts: bench.entry_speed,
                        channels: bench.entry_channels,
                    });
                }
                if ui.button(tr(lang, Msg::BwOpenDmidecode)).clicked() {
                    commands.push(Command::OpenDmidecodeDialog);
                }
            });
        });
}

/// A benchmark in progress: spinner, what runs, Cancel, and its progress bar.
pub(super) fn running_bar(
    ui: &mut Ui,
    lang: Lang,
    what: &str,
    progress: f32,
    commands: &mut Vec<Command>,
) {
    ui.horizontal(|ui| {
        ui.spinner();
        ui.label(what);
        if ui.button(tr(lang, Msg::BwCancel)).clicked() {
            commands.push(Command::CancelBench);
        }
    });
    ui.add(egui::ProgressBar::new(progress).show_percentage());
}

fn benchmark_bar(ui: &mut Ui, lang: Lang, bench: &mut BenchView, commands: &mut Vec<Command>) {
    ui.add_space(6.0);
    match &bench.running {
        Some((what, progress)) => running_bar(ui, lang, what, *progress, commands),
        None => {
            let can = bench.can_measure;
            if !can {
                ui.add(Paragraph::new(
                    RichText::new(tr(lang, Msg::BwNotThisMachine)).weak(),
                ));
            }
            ui.horizontal_wrapped(|ui| {
                if ui
                    .add_enabled(can, egui::Button::new(tr(lang, Msg::BwMeasureMemory)))
                    .clicked()
                {
                    commands.push(Command::StartMemoryBench);
                }
                ui.separator();
                let l = ui.label(tr(lang, Msg::BwStorageFolder));
                ui.add(egui::TextEdit::singleline(&mut bench.storage_folder).desired_width(220.0))
                    .labelled_by(l.id);
                let folder = bench.storage_folder.trim();
                if ui
                    .add_enabled(
                        can && !folder.is_empty(),
                        egui::Button::new(tr(lang, Msg::BwMeasureStorage)),
                    )
                    .clicked()
                {
                    commands.push(Command::StartStorageBench(folder.into()));
                }
                ui.separator();
                if ui.button(tr(lang, Msg::BwSaveProfile)).clicked() {
                    commands.push(Command::SaveProfileDialog);
                }
            });
        }
    }
    if let Some(m) = &bench.message {
        ui.add(Paragraph::new(
            RichText::new(m).color(theme::severity(crate::advisor::Severity::Warning)),
        ));
    }
}

fn memory(ui: &mut Ui, lang: Lang, a: &Assessment, b: &Bandwidth) {
    super::heading(ui, tr(lang, Msg::BwMemorySection));
    // The report's rows, drawn by the window's block renderer.
    let [rows, _] = crate::present::document::machine_sections::memory_and_rule(lang, b);
    crate::ui::blocks::show(ui, lang, "bw-memory", &[rows]);
    if let Some(mb) = &a.profile.measurements.memory_bandwidth {
        ui.add_space(4.0);
        let line = bench_words::memory_rows(mb)
            .into_iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect::<Vec<_>>()
            .join(" · ");
        ui.label(line);
        ui.add(Paragraph::new(
            RichText::new(bench_words::memory_details(lang, mb)).weak(),
        ));
    }
}

fn seed_rule(ui: &mut Ui, lang: Lang, b: &Bandwidth) {
    super::heading(ui, tr(lang, Msg::BwRuleSection));
    let r = &b.seed_rule;
    if let (Some(actual), Some(required)) = (r.actual_bytes_per_s, r.required_bytes_per_s) {
        if required > 0.0 {
            let fraction = actual / required;
            let pass = fraction >= 1.0;
            let bar = egui::ProgressBar::new(fraction.min(1.0) as f32)
                .text(crate::present::names::aside(
                    lang,
                    &format!("{} / {}", format::gbps(actual), format::gbps(required)),
                    &format::percent(fraction),
                ))
                .fill(if pass {
                    theme::severity(crate::advisor::Severity::Info)
                } else {
                    theme::severity(crate::advisor::Severity::Critical)
                });
            let resp = ui.add(bar);
            let label = trf(
                lang,
                Msg::BwGaugeLabel,
                &[("percent", &format::percent(fraction))],
            );
            resp.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Meter, true, &label));
        }
    }
    let [_, rule] = crate::present::document::machine_sections::memory_and_rule(lang, b);
    crate::ui::blocks::show(ui, lang, "bw-rule", &[rule]);
    ui.add(Paragraph::new(
        RichText::new(tr(lang, Msg::BwRuleExample)).weak(),
    ));
}

/// The advisor's findings about memory channels, memory bandwidth and dataset storage.
fn bandwidth_findings(ui: &mut Ui, lang: Lang, a: &Assessment) {
    use crate::advisor::FindingId as F;
    let ids = [
        F::MemoryBandwidthBound,
        F::SingleChannelMemory,
        F::UnevenChannels,
        F::DatasetOnNetworkStorage,
        F::DatasetOnHdd,
    ];
    for f in a.findings.iter().filter(|f| ids.contains(&f.id)) {
        ui.label(RichText::new(words::finding_line(lang, f)).color(theme::severity(f.severity)));
    }
}

fn pcie(ui: &mut Ui, lang: Lang, a: &Assessment, b: &Bandwidth) {
    use crate::advisor::{FindingId, Quantity};
    super::heading(ui, tr(lang, Msg::BwPcieSection));
    if b.pcie.is_empty() {
        ui.label(tr(lang, Msg::BwPcieNone));
    }
    for p in &b.pcie {
        // The advisor's degraded-link finding for this GPU, if any, is shown under its line.
        let degraded = a.findings.iter().find(|f| {
            f.id == FindingId::PcieLinkDegraded
                && f.values.get("gpu") == Some(&Quantity::Count(u64::from(p.gpu)))
        });
        match degraded {
            Some(f) => {
                let warn = theme::severity(f.severity);
                ui.label(RichText::new(words::pcie_line(lang, p)).color(warn));
                ui.label(RichText::new(words::finding_line(lang, f)).color(warn));
            }
            None => {
                ui.label(words::pcie_line(lang, p));
            }
        }
    }
}

fn storage(ui: &mut Ui, lang: Lang, a: &Assessment) {
    super::heading(ui, tr(lang, Msg::BwStorageSection));
    let views = a.bandwidth.as_ref().map_or(&[][..], |b| &b.storage[..]);
    for s in &a.profile.measurements.storage {
        ui.label(RichText::new(trf(lang, Msg::BenchStorageTitle, &[("path", &s.path)])).strong());
        if let Some(place) = views
            .iter()
            .find(|v| v.path == s.path)
            .and_then(|v| words::storage_location(lang, v))
        {
            ui.label(place);
        }
        for (label, value) in bench_words::storage_rows(lang, s) {
            ui.label(crate::present::names::labelled(lang, &label, &value));
        }
    }
    ui.add(Paragraph::new(
        RichText::new(tr(lang, Msg::BwStorageNote)).weak(),
    ));
}
