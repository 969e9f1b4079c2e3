//! The Data loading page's JPEG decode rate: the default assumption or the figure in use, the
//! last measurement on this machine, and "Measure decode speed".

use egui::{RichText, Ui};

use super::Command;
use super::bench_view::BenchView;
use crate::advisor::workload::{DEFAULT_DECODE_MPIX_PER_CORE, DecodeOn, Workload};
use crate::i18n::{Lang, Msg, tr, trf};
use crate::present::bench::mpix;
use crate::ui::paragraph::Paragraph;

/// Draws the decode-rate block under the inputs. "Use the default" edits `w` directly (the
/// page turns the change into `SetWorkload`); measuring returns `StartDecodeBench`.
pub fn decode_rate(ui: &mut Ui, lang: Lang, w: &mut Workload, bench: &BenchView) -> Vec<Command> {
    let mut commands = Vec::new();
    ui.add_space(8.0);
    ui.label(RichText::new(tr(lang, Msg::WorkDecodeRate)).strong());
    let figure = match w.measured_decode_mpix_per_core {
        Some(r) => trf(lang, Msg::WorkDecodeRateSet, &[("rate", &mpix(r))]),
        None => trf(
            lang,
            Msg::WorkDecodeRateDefault,
            &[("rate", &mpix(DEFAULT_DECODE_MPIX_PER_CORE))],
        ),
    };
    ui.add(Paragraph::new(figure));
    if let Some(d) = &bench.decode {
        let text = trf(
            lang,
            Msg::WorkDecodeMeasured,
            &[
                ("per_core", &mpix(d.per_core_mpix_per_s)),
                ("threads", &d.threads.to_string()),
                ("all", &mpix(d.all_threads_mpix_per_s)),
                ("decoder", &d.decoder),
                ("width", &d.width.to_string()),
                ("height", &d.height.to_string()),
            ],
        );
        ui.add(Paragraph::new(RichText::new(text).weak()));
        if let Some(warn) = crate::present::bench::decode_contended(lang, d) {
            ui.add(Paragraph::new(RichText::new(warn).color(
                crate::ui::theme::severity(crate::advisor::Severity::Warning),
            )));
        }
    }
    match &bench.running {
        Some((what, progress)) => {
            super::bandwidth::running_bar(ui, lang, what, *progress, &mut commands);
        }
        None => {
            ui.horizontal_wrapped(|ui| {
                let can = bench.can_measure && w.decode_on == DecodeOn::Cpu;
                if ui
                    .add_enabled(can, egui::Button::new(tr(lang, Msg::WorkMeasureDecode)))
                    .clicked()
                {
                    commands.push(Command::StartDecodeBench);
                }
                if w.measured_decode_mpix_per_core.is_some()
                    && ui.button(tr(lang, Msg::WorkDecodeDefault)).clicked()
                {
                    w.measured_decode_mpix_per_core = None;
                }
            });
            if !bench.can_measure {
                ui.add(Paragraph::new(
                    RichText::new(tr(lang, Msg::BwNotThisMachine)).weak(),
                ));
            }
        }
    }
    commands
}
