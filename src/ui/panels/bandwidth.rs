//! The bandwidth page: memory bandwidth (theoretical and measured), the seed's bandwidth rule as
//! a gauge, PCIe per GPU, storage, and the pipeline chart with its narrowest stage named. All
//! figures come from the assessment; the page only starts and cancels benchmarks.

use egui::{Color32, RichText, Ui};
use egui_plot::{Bar, BarChart, Plot, PlotPoint, Text};

use super::Command;
use crate::advisor::Assessment;
use crate::advisor::bandwidth::{Bandwidth, StageId};
use crate::format;
use crate::i18n::{Lang, Msg, tr, trf};
use crate::present::bandwidth as words;
use crate::present::bench as bench_words;
use crate::ui::paragraph::Paragraph;
use crate::ui::theme;

/// Bottom of the pipeline chart: log10 of 0.01 GB/s (10 MB/s).
const LOG_FLOOR: f64 = -2.0;

/// log10 of a bandwidth in GB/s, no lower than [`LOG_FLOOR`].
fn log_gbps(bytes_per_s: f64) -> f64 {
    (bytes_per_s / 1e9).max(1e-2).log10()
}

/// What the page shows about a benchmark in progress or just ended.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BenchView {
    /// The running benchmark's description and progress (0–1), if one runs.
    pub running: Option<(String, f32)>,
    /// The last benchmark's error or "Cancelled.", if it did not produce a result.
    pub message: Option<String>,
    /// The folder typed for the storage benchmark.
    pub storage_folder: String,
    /// Memory type being entered.
    pub entry_type: String,
    /// Speed being entered, MT/s.
    pub entry_speed: u32,
    /// Channels being entered.
    pub entry_channels: u32,
    /// False when the shown profile is another machine's: the benchmarks would measure this
    /// computer, so they are disabled.
    pub can_measure: bool,
    /// Bytes per sample typed by the user (KiB in the field); 0 = not given.
    pub sample_kib: u32,
    /// The last JPEG decode measurement on this computer (shown on the Data loading page).
    pub decode: Option<crate::bench::decode::DecodeRate>,
}

impl BenchView {
    /// An empty view with a typical entry (dual-channel DDR4-3200) to start from.
    pub fn new() -> BenchView {
        BenchView {
            entry_type: "DDR4".into(),
            entry_speed: 3200,
            entry_channels: 2,
            ..BenchView::default()
        }
    }
}

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
            pipeline(ui, lang, b, bench);
            memory(ui, lang, a, b);
            seed_rule(ui, lang, b);
            bandwidth_findings(ui, lang, a);
            pcie(ui, lang, a, b);
        }
        None => {
            super::heading(ui, tr(lang, Msg::BwPipelineSection));
            ui.label(tr(lang, Msg::BwPipelineUnknown));
            super::heading(ui, tr(lang, Msg::BwRuleSection));
            ui.label(tr(lang, Msg::BwRuleCant));
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
        ui.label(RichText::new(m).color(theme::severity(crate::advisor::Severity::Warning)));
    }
}

fn pipeline(ui: &mut Ui, lang: Lang, b: &Bandwidth, bench: &mut BenchView) {
    super::heading(ui, tr(lang, Msg::BwPipelineSection));
    let sentence = words::pipeline_sentence(lang, b);
    let strong = b.pipeline.starves_gpus == Some(true);
    let text = RichText::new(&sentence).size(16.0);
    ui.add(Paragraph::new(if strong {
        text.color(theme::severity(crate::advisor::Severity::Warning))
    } else {
        text
    }));
    ui.horizontal_wrapped(|ui| {
        let l = ui.label(tr(lang, Msg::BwSampleSize));
        ui.add(egui::DragValue::new(&mut bench.sample_kib).range(0..=1_000_000))
            .labelled_by(l.id);
        let sample_bytes = u64::from(bench.sample_kib) * 1024;
        if let Some(sentence) = words::samples_sentence(lang, b, sample_bytes) {
            ui.label(sentence);
        }
    });
    let sample_bytes = u64::from(bench.sample_kib) * 1024;
    let narrow = b.pipeline.narrowest;
    let normal = Color32::from_rgb(0x4a, 0x90, 0xd9);
    let highlight = Color32::from_rgb(0xe0, 0x6c, 0x3c);
    let demand = Color32::from_rgb(0x8a, 0x8a, 0x8a);
    let text_color = ui.visuals().text_color();
    let names: Vec<&'static str> = b
        .pipeline
        .stages
        .iter()
        .map(|s| words::stage_name(lang, s.id))
        .collect();
    // Stages span 0.01–1000 GB/s (a hard disk's small files to a server's RAM), so the chart
    // is logarithmic: y = log10(GB/s), bars rising from 0.01 GB/s.
    let top = b
        .pipeline
        .stages
        .iter()
        .filter_map(|s| s.bytes_per_s)
        .map(|v| log_gbps(v) + 0.4)
        .fold(2.0, f64::max);
    let mut bars = Vec::new();
    let mut labels = Vec::new();
    for (i, s) in b.pipeline.stages.iter().enumerate() {
        let x = i as f64;
        match s.bytes_per_s {
            Some(v) => {
                let color = if Some(s.id) == narrow {
                    highlight
                } else if s.id == StageId::GpuDemand {
                    demand
                } else {
                    normal
                };
                let y = log_gbps(v);
                bars.push(
                    Bar::new(x, y - LOG_FLOOR)
                        .base_offset(LOG_FLOOR)
                        .name(format!("{} {}", names[i], format::gbps(v)))
                        .fill(color)
                        .width(0.6),
                );
                let text = match crate::advisor::bandwidth::samples_per_s(v, sample_bytes) {
                    Some(n) => format!("{}\n≈ {n:.0}/s", format::gbps(v)),
                    None => format::gbps(v),
                };
                labels.push(
                    Text::new(names[i], PlotPoint::new(x, y + 0.05), text)
                        .anchor(egui::Align2::CENTER_BOTTOM)
                        .color(text_color),
                );
            }
            None => labels.push(
                Text::new(
                    names[i],
                    PlotPoint::new(x, LOG_FLOOR + 0.1),
                    format::unknown(lang),
                )
                .anchor(egui::Align2::CENTER_BOTTOM)
                .color(text_color.gamma_multiply(0.6)),
            ),
        }
    }
    let axis_names = names.clone();
    Plot::new("pipeline-chart")
        .height(240.0)
        .allow_zoom(false)
        .allow_drag(false)
        .allow_scroll(false)
        .allow_boxed_zoom(false)
        .include_x(-0.5)
        .include_x(names.len() as f64 - 0.5)
        .include_y(LOG_FLOOR)
        .include_y(top)
        .y_axis_label(tr(lang, Msg::BwAxis))
        .y_grid_spacer(|input| {
            let (lo, hi) = input.bounds;
            // Only decades inside the plot: marks outside it would be drawn over the page.
            (lo.ceil() as i32..=hi.floor() as i32)
                .map(|e| egui_plot::GridMark {
                    value: f64::from(e),
                    step_size: 1.0,
                })
                .collect()
        })
        .y_axis_formatter(|mark, _| {
            let g = 10f64.powf(mark.value);
            if mark.value < 0.0 {
                format!("{g}")
            } else {
                format!("{g:.0}")
            }
        })
        .x_axis_formatter(move |mark, _| {
            let i = mark.value.round();
            if (mark.value - i).abs() < 1e-6 && i >= 0.0 && (i as usize) < axis_names.len() {
                axis_names[i as usize].to_string()
            } else {
                String::new()
            }
        })
        .show(ui, |plot| {
            plot.bar_chart(BarChart::new("pipeline", bars));
            for t in labels {
                plot.text(t);
            }
        });
    ui.add(Paragraph::new(
        RichText::new(tr(lang, Msg::BwPipelineNote)).weak(),
    ));
}

fn memory(ui: &mut Ui, lang: Lang, a: &Assessment, b: &Bandwidth) {
    super::heading(ui, tr(lang, Msg::BwMemorySection));
    egui::Grid::new("bw-memory")
        .num_columns(2)
        .striped(true)
        .spacing([12.0, 6.0])
        .show(ui, |ui| {
            for (label, value) in words::memory_rows(lang, b) {
                ui.label(RichText::new(label).strong());
                ui.label(value);
                ui.end_row();
            }
        });
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
                .text(format!(
                    "{} / {} ({})",
                    format::gbps(actual),
                    format::gbps(required),
                    format::percent(fraction)
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
    ui.add(Paragraph::new(words::seed_rule_text(lang, b)));
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
        ui.label(
            RichText::new(trf(
                lang,
                Msg::BwFindingLine,
                &[
                    ("severity", crate::present::severity(lang, f.severity)),
                    ("title", &crate::present::finding_title(lang, f)),
                ],
            ))
            .color(theme::severity(f.severity)),
        );
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
                ui.label(
                    RichText::new(trf(
                        lang,
                        Msg::BwFindingLine,
                        &[
                            ("severity", crate::present::severity(lang, f.severity)),
                            ("title", &crate::present::finding_title(lang, f)),
                        ],
                    ))
                    .color(warn),
                );
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
            ui.label(format!("{label}: {value}"));
        }
    }
    ui.add(Paragraph::new(
        RichText::new(tr(lang, Msg::BwStorageNote)).weak(),
    ));
}
