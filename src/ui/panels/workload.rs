//! The workload simulator: sliders for the dataset and the DataLoader on the left; the RAM
//! budget against effective RAM, the pipeline in samples/s with the bottleneck, predicted GPU
//! utilisation and the findings on the right. All numbers come from the assessment.

use egui::{Color32, RichText, Sense, Ui, vec2};
use egui_plot::{Bar, BarChart, Plot};

use super::Command;
use super::bench_view::BenchView;
use crate::advisor::workload::view::PipelineView;
use crate::advisor::workload::{BudgetItemId, StageId, Workload, WorkloadResult};
use crate::advisor::{Assessment, FindingId, Severity};
use crate::format;
use crate::i18n::{Lang, Msg, tr, trf};
use crate::present::workload as words;
use crate::ui::paragraph::Paragraph;
use crate::ui::theme;

/// Findings this page shows (the machine page shows the rest).
const WORKLOAD_FINDINGS: [FindingId; 13] = [
    FindingId::CacheDoesNotFit,
    FindingId::EvaluationPauseExceedsRam,
    FindingId::DatasetSizeInconsistent,
    FindingId::DatasetIndexCopied,
    FindingId::WorkloadRamExceeded,
    FindingId::WorkloadSwapRisk,
    FindingId::DatasetNotCached,
    FindingId::DatasetStreamsFromStorage,
    FindingId::StarvedByStorage,
    FindingId::StarvedByRamBandwidth,
    FindingId::StarvedByDecode,
    FindingId::StarvedByPcie,
    FindingId::ShmSmall,
];

/// Draws the page for the workload in `form`; `a` is the machine assessed with it, and
/// `included` says whether the workload is part of the assessment and the report, `restored`
/// whether it is as restored from the last session. Returns
/// `SetWorkload` when a control changed, `IncludeWorkload` when the switch is flipped.
pub fn workload(
    ui: &mut Ui,
    lang: Lang,
    form: &mut Workload,
    a: &Assessment,
    (included, restored): (bool, bool),
    bench: &BenchView,
) -> Vec<Command> {
    let before = form.clone();
    let mut commands = Vec::new();
    crate::ui::paragraph::columns(ui, 2, |cols| {
        egui::ScrollArea::both()
            .id_salt("workload-in")
            .show(&mut cols[0], |ui| {
                super::heading(ui, tr(lang, Msg::WorkTitle));
                if let Some(on) = super::include_switch(
                    ui,
                    tr(lang, Msg::IncludeWorkload),
                    tr(lang, Msg::IncludeHint),
                    included,
                ) {
                    commands.push(Command::IncludeWorkload(on));
                }
                super::restored_note(ui, lang, restored);
                commands.extend(super::workload_inputs::inputs(
                    ui,
                    lang,
                    form,
                    a.workload.as_ref(),
                ));
                super::workload_validation::validation_inputs(ui, lang, form);
                commands.extend(super::decode_rate::decode_rate(ui, lang, form, bench));
            });
        egui::ScrollArea::both()
            .id_salt("workload-out")
            .show(&mut cols[1], |ui| {
                if let (Some(r), Some(p)) = (&a.workload, a.pipeline()) {
                    outputs(ui, lang, r, p, a);
                }
            });
    });
    if *form != before {
        commands.push(Command::SetWorkload(form.clone()));
    }
    commands
}

/// The simulator's result `r` with the assessment's one pipeline `p`
/// ([`Assessment::pipeline`]).
fn outputs(ui: &mut Ui, lang: Lang, r: &WorkloadResult, p: &PipelineView, a: &Assessment) {
    super::heading(ui, tr(lang, Msg::WorkUtilization));
    match p.predicted_gpu_utilization {
        // Past RAM no utilisation holds: said in the critical colour, never as a bar.
        None if p.exceeds_ram => {
            ui.add(Paragraph::new(
                RichText::new(tr(lang, Msg::WorkUtilizationUnreachable))
                    .color(theme::severity(Severity::Critical))
                    .strong(),
            ));
        }
        Some(u) => {
            // The advisor judges the utilisation; the page only colours it.
            let colour = theme::standing(
                crate::advisor::standing::utilization(u),
                ui.visuals().weak_text_color(),
            );
            let text = trf(
                lang,
                Msg::WorkUtilizationValue,
                &[("value", &format::percent(u))],
            );
            ui.add(
                egui::ProgressBar::new(u as f32)
                    .fill(colour)
                    .text(RichText::new(text).strong()),
            );
        }
        None => {
            ui.label(format::unknown(lang));
        }
    }
    ui.add(Paragraph::new(
        RichText::new(words::bottleneck_sentence(lang, p)).strong(),
    ));
    if let Some(note) = words::decode_assumption(lang, &r.workload, p) {
        ui.add(Paragraph::new(RichText::new(note).italics()));
    }
    super::heading(ui, tr(lang, Msg::WorkRamBudget));
    ram_bar(ui, lang, r);
    super::heading(ui, tr(lang, Msg::WorkPipeline));
    pipeline_chart(ui, lang, p);
    let findings: Vec<_> = a
        .findings
        .iter()
        .filter(|f| WORKLOAD_FINDINGS.contains(&f.id))
        .collect();
    if !findings.is_empty() {
        super::heading(ui, tr(lang, Msg::FindingsSection));
    }
    // The same cards as the Machine page's findings, from the same blocks.
    let cards: Vec<_> = findings
        .into_iter()
        .map(|f| crate::present::document::machine_sections::finding(lang, f))
        .collect();
    crate::ui::blocks::show(ui, lang, "workload-findings", &cards);
    super::recommendations::recommendations(
        ui,
        lang,
        &a.recommendations,
        Some(crate::advisor::recommend::Subject::Workload),
    );
}

/// Colours of the budget's parts, in order.
fn item_colour(id: BudgetItemId) -> Color32 {
    match id {
        BudgetItemId::Os => Color32::from_rgb(0x6b, 0x72, 0x80),
        BudgetItemId::MainProcess => Color32::from_rgb(0x3b, 0x82, 0xc4),
        BudgetItemId::Workers => Color32::from_rgb(0x8b, 0x5c, 0xf6),
        BudgetItemId::WorkerIndexCopies => Color32::from_rgb(0xa7, 0x8b, 0xfa),
        BudgetItemId::DecodeBuffers => Color32::from_rgb(0xe0, 0x8e, 0x0b),
        BudgetItemId::PrefetchedBatches => Color32::from_rgb(0xf5, 0xb9, 0x42),
        BudgetItemId::PinnedStaging => Color32::from_rgb(0xd9, 0x46, 0xef),
        BudgetItemId::DatasetInRam => Color32::from_rgb(0x14, 0xb8, 0xa6),
        BudgetItemId::PageCache => Color32::from_rgb(0x2e, 0x9d, 0x4f),
        BudgetItemId::LoaderMain => Color32::from_rgb(0x60, 0xa5, 0xe8),
        BudgetItemId::DecodedCache => Color32::from_rgb(0xdc, 0x26, 0x26),
    }
}

fn ram_bar(ui: &mut Ui, lang: Lang, r: &WorkloadResult) {
    let b = &r.memory_budget;
    let ram = b.usable_ram_bytes.unwrap_or(0);
    let scale_max = b.working_set_bytes.max(ram).max(1) as f32 * 1.05;
    let (rect, response) = ui.allocate_exact_size(vec2(ui.available_width(), 34.0), Sense::hover());
    let label = words::ram_bar_label(lang, r);
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Meter, true, &label));
    let painter = ui.painter_at(rect.expand(2.0));
    let mut x = rect.left();
    for item in &b.items {
        let w = rect.width() * item.bytes as f32 / scale_max;
        let seg = egui::Rect::from_min_size(
            egui::pos2(x, rect.top() + 6.0),
            vec2(w.max(0.0), rect.height() - 12.0),
        );
        painter.rect_filled(
            seg,
            0.0,
            item_colour(item.id).gamma_multiply(if item.id == BudgetItemId::PageCache {
                0.5
            } else {
                1.0
            }),
        );
        x += w;
    }
    if ram > 0 {
        let rx = rect.left() + rect.width() * ram as f32 / scale_max;
        painter.line_segment(
            [egui::pos2(rx, rect.top()), egui::pos2(rx, rect.bottom())],
            egui::Stroke::new(3.0, ui.visuals().strong_text_color()),
        );
    }
    ui.label(label);
    if let Some(pause) = words::pause_line(lang, r) {
        ui.label(pause);
    }
    ui.horizontal_wrapped(|ui| {
        for (item, (name, size)) in b.items.iter().zip(words::budget_rows(lang, r)) {
            let text = format!("■ {name} {size}");
            // One item never wraps inside itself: a whole item moves to the next line.
            ui.add(egui::Label::new(RichText::new(text).color(item_colour(item.id))).extend());
        }
    });
}

fn pipeline_chart(ui: &mut Ui, lang: Lang, p: &PipelineView) {
    // Rates span four orders of magnitude: bars show log10(samples/s), ticks show samples/s.
    let bottleneck = p.bottleneck();
    let bars: Vec<Bar> = p
        .stages
        .iter()
        .enumerate()
        .filter_map(|(i, s)| {
            let v = s.samples_per_s?;
            let colour = if s.id == StageId::GpuDemand {
                theme::severity(Severity::Info)
            } else if Some(s.id) == bottleneck {
                theme::severity(Severity::Critical)
            } else {
                theme::good()
            };
            let name = crate::present::names::labelled(
                lang,
                words::stage(lang, s.id),
                &format::rate(lang, v),
            );
            Some(
                Bar::new(i as f64, v.max(1.0).log10())
                    .name(name)
                    .fill(colour)
                    .width(0.6)
                    .horizontal(),
            )
        })
        .collect();
    let names: Vec<String> = p
        .stages
        .iter()
        .map(|s| words::stage(lang, s.id).to_string())
        .collect();
    Plot::new("pipeline-chart")
        .height(220.0)
        .allow_drag(false)
        .allow_zoom(false)
        .allow_scroll(false)
        .x_axis_label(tr(lang, Msg::WorkRateAxis))
        .x_axis_formatter(|mark, _| format!("{:.0}", 10f64.powf(mark.value)))
        .y_axis_formatter(move |mark, _| {
            let i = mark.value.round();
            if (mark.value - i).abs() < 1e-6 && i >= 0.0 {
                names.get(i as usize).cloned().unwrap_or_default()
            } else {
                String::new()
            }
        })
        .show(ui, |plot| {
            plot.bar_chart(BarChart::new(tr(lang, Msg::WorkPipeline), bars))
        });
    // "stage: rate" per line, as the Bandwidth page words its stages (tests/one_answer.rs
    // reads both pages by these labels).
    for (name, rate) in words::stage_rows(lang, p) {
        ui.label(crate::present::names::labelled(lang, name, &rate));
    }
}
