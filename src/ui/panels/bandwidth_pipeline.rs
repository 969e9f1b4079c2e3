//! The Bandwidth page's pipeline: the workload simulator's stages (one model for this page and
//! the Data loading page) as a chart in GB/s or samples/s, with each stage's capacity and where
//! it comes from.

use egui::{Color32, RichText, Ui};
use egui_plot::{Bar, BarChart, Plot, PlotPoint, Text};

use super::bench_view::BenchView;
use crate::advisor::Assessment;
use crate::advisor::bandwidth::Bandwidth;
use crate::advisor::workload::StageId;
use crate::format;
use crate::i18n::{Lang, Msg, tr};
use crate::present::bandwidth as words;
use crate::ui::theme;

/// Bottom of the chart in GB/s: log10 of 0.01 GB/s (10 MB/s).
const LOG_FLOOR: f64 = -2.0;

/// The pipeline: the same sentence and samples/s as the Data loading page (one model), as bars
/// in GB/s (each stage's samples/s × the bytes a sample moves there; without a workload the
/// machine's capacities) or in samples/s, and one line per stage with its capacity and source.
pub fn pipeline(ui: &mut Ui, lang: Lang, a: &Assessment, b: &Bandwidth, bench: &mut BenchView) {
    super::heading(ui, tr(lang, Msg::BwPipelineSection));
    let p = &b.pipeline;
    let sentence = words::pipeline_sentence(lang, p);
    let strong = p.starves_gpus == Some(true);
    let text = RichText::new(&sentence).size(16.0);
    ui.add(crate::ui::paragraph::Paragraph::new(if strong {
        text.color(theme::severity(crate::advisor::Severity::Warning))
    } else {
        text
    }));
    if !p.with_workload {
        bench.per_sample = false;
    }
    ui.horizontal_wrapped(|ui| {
        ui.label(tr(lang, Msg::DataloaderUnits));
        ui.selectable_value(
            &mut bench.per_sample,
            false,
            tr(lang, Msg::DataloaderUnitsBytes),
        );
        ui.add_enabled_ui(p.with_workload, |ui| {
            ui.selectable_value(
                &mut bench.per_sample,
                true,
                tr(lang, Msg::DataloaderUnitsSamples),
            )
            .on_disabled_hover_text(tr(lang, Msg::DataloaderUnitsSamplesNeedWorkload));
        });
    });
    let per_sample = bench.per_sample;
    // The stage the GPUs wait for, as the advisor names it.
    let bottleneck = p.bottleneck();
    let normal = Color32::from_rgb(0x4a, 0x90, 0xd9);
    let capacity_only = Color32::from_rgb(0x9a, 0xb8, 0xd8);
    let highlight = Color32::from_rgb(0xe0, 0x6c, 0x3c);
    let demand = Color32::from_rgb(0x8a, 0x8a, 0x8a);
    let text_color = ui.visuals().text_color();
    let names: Vec<&'static str> = p
        .stages
        .iter()
        .map(|s| words::stage_name(lang, s.id))
        .collect();
    // Each bar: the value in the chosen unit, and whether it is only the machine's capacity.
    let values: Vec<Option<(f64, bool)>> = p
        .stages
        .iter()
        .map(|s| {
            if per_sample {
                s.samples_per_s.map(|v| (v, false))
            } else {
                match (p.with_workload, s.workload_bytes_per_s()) {
                    (true, Some(v)) => Some((v / 1e9, false)),
                    _ => s.capacity_bytes_per_s.map(|v| (v / 1e9, p.with_workload)),
                }
            }
        })
        .collect();
    let fmt = |v: f64| {
        if per_sample {
            format::rate(lang, v)
        } else {
            format::gbps(v * 1e9)
        }
    };
    // Stages span 0.01–1000 GB/s (a hard disk's small files to a server's RAM) and 1–10^6
    // samples/s, so the chart is logarithmic, bars rising from its floor.
    let floor = if per_sample { 0.0 } else { LOG_FLOOR };
    let log = |v: f64| v.max(10f64.powf(floor)).log10();
    let top = values
        .iter()
        .flatten()
        .map(|(v, _)| log(*v) + 0.4)
        .fold(floor + 2.0, f64::max);
    let mut bars = Vec::new();
    let mut labels = Vec::new();
    for (i, s) in p.stages.iter().enumerate() {
        let x = i as f64;
        match values[i] {
            Some((v, capacity)) => {
                // The narrowest stage is marked only when the GPUs wait for it.
                let color = if bottleneck == Some(s.id) {
                    highlight
                } else if s.id == StageId::GpuDemand {
                    demand
                } else if capacity {
                    capacity_only
                } else {
                    normal
                };
                let y = log(v);
                bars.push(
                    Bar::new(x, y - floor)
                        .base_offset(floor)
                        .name(format!("{} {}", names[i], fmt(v)))
                        .fill(color)
                        .width(0.6),
                );
                labels.push(
                    Text::new(names[i], PlotPoint::new(x, y + 0.05), fmt(v))
                        .anchor(egui::Align2::CENTER_BOTTOM)
                        .color(text_color),
                );
            }
            None => {
                let note = if p.with_workload && s.capacity_bytes_per_s.is_some() {
                    crate::present::workload::stage_not_limiting(lang, s.id)
                } else {
                    format::unknown(lang)
                };
                labels.push(
                    Text::new(names[i], PlotPoint::new(x, floor + 0.1), note)
                        .anchor(egui::Align2::CENTER_BOTTOM)
                        .color(text_color.gamma_multiply(0.6)),
                )
            }
        }
    }
    let axis_names = names.clone();
    Plot::new("bandwidth-pipeline-chart")
        .height(240.0)
        .allow_zoom(false)
        .allow_drag(false)
        .allow_scroll(false)
        .allow_boxed_zoom(false)
        .include_x(-0.5)
        .include_x(names.len() as f64 - 0.5)
        .include_y(floor)
        .include_y(top)
        .y_axis_label(tr(
            lang,
            if per_sample {
                Msg::DataloaderAxisSamples
            } else {
                Msg::DataloaderAxisBytes
            },
        ))
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
    for line in words::stage_lines(lang, b) {
        ui.add(crate::ui::paragraph::Paragraph::new(line));
    }
    if let Some(w) = &a.workload {
        if let Some(note) = crate::present::workload::decode_assumption(lang, &w.workload, p) {
            ui.add(crate::ui::paragraph::Paragraph::new(
                RichText::new(note).italics(),
            ));
        }
    }
    ui.add(crate::ui::paragraph::Paragraph::new(
        RichText::new(tr(lang, Msg::BwPipelineNote)).weak(),
    ));
}
