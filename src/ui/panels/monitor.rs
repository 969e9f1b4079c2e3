//! The Monitor page: start or stop watching this machine (or one process), open a recorded
//! trace or a node's range from Prometheus, the timeline with each diagnosis shaded, and the
//! diagnoses with their advice.

use egui::{Align2, Color32, RichText, Ui};

use crate::ui::paragraph::Paragraph;
use egui_plot::{Legend, Line, Plot, PlotPoints, Span};

use super::Command;
use crate::advisor::diagnose::Summary;
use crate::i18n::{Lang, Msg, tr, trf};
use crate::present::monitor as words;
use crate::trace::Trace;
use crate::ui::theme;

/// Points per line the window draws at most (the saw-tooth's extremes are kept).
const MAX_POINTS: usize = 1500;

/// What the page shows.
pub struct MonitorView<'a> {
    /// The trace on screen (live or opened), if any.
    pub trace: Option<&'a Trace>,
    /// Its diagnosis.
    pub summary: Option<&'a Summary>,
    /// "Watching this machine: …" or "Trace run.jsonl: …".
    pub status: Option<String>,
    /// True while watching.
    pub running: bool,
    /// A problem to show (a trace that could not be read, a PID that is not a number).
    pub message: Option<&'a str>,
    /// What a Prometheus range could not fill (missing series, notes), one line each.
    pub gaps: &'a [String],
    /// A Prometheus request running: what it is.
    pub busy: Option<&'a str>,
    /// The Unix time of the trace's `t = 0` when it is known (a Prometheus range): diagnoses
    /// then show their time on the clock (UTC).
    pub clock: Option<f64>,
}

/// Draws the page. `pid_text` is the PID field's text; `prometheus` the "From Prometheus…"
/// form.
pub fn monitor(
    ui: &mut Ui,
    lang: Lang,
    view: &MonitorView<'_>,
    pid_text: &mut String,
    prometheus: &mut super::prometheus::PrometheusForm,
) -> Vec<Command> {
    let mut commands = Vec::new();
    ui.add(Paragraph::new(tr(lang, Msg::MonitorUiIntro)));
    ui.add_space(6.0);
    ui.horizontal_wrapped(|ui| {
        if view.running {
            if ui.button(tr(lang, Msg::MonitorUiStop)).clicked() {
                commands.push(Command::StopWatch);
            }
        } else {
            let l = ui.label(tr(lang, Msg::MonitorUiPid));
            ui.add(egui::TextEdit::singleline(pid_text).desired_width(80.0))
                .labelled_by(l.id);
            if ui.button(tr(lang, Msg::MonitorUiStart)).clicked() {
                commands.push(Command::StartWatch(pid_text.trim().to_string()));
            }
            ui.separator();
            if ui.button(tr(lang, Msg::MonitorUiOpenTrace)).clicked() {
                commands.push(Command::OpenTraceDialog);
            }
            if ui.button(tr(lang, Msg::ClusterUiOpen)).clicked() {
                commands.push(Command::TogglePrometheus);
            }
        }
        if view.running {
            ui.spinner();
        }
        if let Some(status) = &view.status {
            ui.label(status);
        }
    });
    if prometheus.open && !view.running {
        ui.add_space(4.0);
        commands.extend(super::prometheus::form(ui, lang, prometheus, view.busy));
    }
    if let Some(m) = view.message {
        ui.add(Paragraph::new(
            RichText::new(m).color(theme::severity(crate::advisor::Severity::Critical)),
        ));
    }
    for line in view.gaps {
        ui.add(Paragraph::new(RichText::new(line).weak()));
    }
    let (Some(trace), Some(summary)) = (view.trace, view.summary) else {
        return commands;
    };
    if trace.samples.is_empty() {
        ui.label(tr(lang, Msg::MonitorNoSamples));
        return commands;
    }
    super::heading(ui, tr(lang, Msg::MonitorSection));
    timeline(ui, lang, trace, summary);
    ui.label(RichText::new(tr(lang, Msg::MonitorUiShaded)).weak());
    ui.add_space(6.0);
    ui.add(Paragraph::new(words::summary_line(lang, summary)));
    for line in words::peak_lines(lang, &summary.peaks) {
        ui.add(Paragraph::new(line));
    }
    super::heading(ui, tr(lang, Msg::MonitorCliDiagnoses));
    if summary.diagnoses.is_empty() {
        ui.add(Paragraph::new(words::none_found(lang, summary)));
    }
    for d in &summary.diagnoses {
        let range = match view.clock {
            Some(origin) => crate::present::cluster::diagnosis_range(lang, origin, d),
            None => words::range(lang, d),
        };
        crate::ui::blocks::card(
            ui,
            lang,
            crate::ui::blocks::Card {
                severity: d.severity,
                label: crate::present::severity(lang, d.severity).to_string(),
                title: words::title(lang, d),
                aside: Some(range),
                explanation: words::explanation(lang, d),
                recommendations: words::recommendations(lang, d),
            },
        );
    }
    for line in words::unchecked_lines(lang, summary) {
        ui.add(Paragraph::new(RichText::new(line).weak()));
    }
    ui.label(RichText::new(tr(lang, Msg::MonitorUiExportNote)).weak());
    commands
}

/// A tick's label with as many decimals as its step needs: "2500", "0.5", "0.05" (0 to 3).
fn tick_label(value: f64, step: f64) -> String {
    let decimals = if step.is_finite() && step > 0.0 && step < 1.0 {
        ((-step.log10()).ceil() as usize).min(3)
    } else {
        0
    };
    // -0.0 and rounding noise read as 0.
    let v = if value.abs() < step.abs() * 1e-6 {
        0.0
    } else {
        value
    };
    format!("{v:.decimals$}")
}

fn colour((r, g, b): crate::palette::Rgb) -> Color32 {
    Color32::from_rgb(r, g, b)
}

/// The stacked charts, their time axes linked, each diagnosis shaded in every chart (named in
/// the first).
fn timeline(ui: &mut Ui, lang: Lang, trace: &Trace, summary: &Summary) {
    let panels = crate::present::timeline::timeline(lang, trace, MAX_POINTS);
    let spans = crate::present::timeline::spans(lang, summary);
    if trace.gpu_indices().is_empty() {
        ui.label(RichText::new(tr(lang, Msg::MonitorUiNoGpuData)).weak());
    }
    let group = egui::Id::unique("ramvram-monitor-timeline");
    let (x0, x1) = (
        trace.samples.first().map_or(0.0, |s| s.t),
        trace.samples.last().map_or(1.0, |s| s.t),
    );
    for (i, panel) in panels.iter().enumerate() {
        ui.label(RichText::new(&panel.title).strong());
        let mut plot = Plot::new(("monitor-plot", i))
            .height(130.0)
            .link_axis(group, [true, false])
            .legend(
                Legend::default()
                    .position(egui_plot::Corner::RightTop)
                    .follow_insertion_order(true),
            )
            .include_x(x0)
            .include_x(x1)
            .include_y(0.0)
            .allow_scroll(false)
            // The same axis width in every chart, so that their time axes line up.
            .y_axis_min_width(48.0)
            // Three labelled lines whatever the range (egui_plot's powers of ten leave a
            // 0–6,000 chart 130 points tall with only "0").
            .y_grid_spacer(egui_plot::uniform_grid_spacer(|input| {
                let large = crate::chart::nice_step((input.bounds.1 - input.bounds.0) / 3.0);
                [large / 10.0, large / 2.0, large]
            }))
            .y_axis_formatter(|mark, _| tick_label(mark.value, mark.step_size))
            .x_axis_formatter(|mark, _| format!("{:.0}", mark.value));
        // Percentages on 0–100; other charts from 0, at least to 1 (all-zero data would
        // otherwise get a range around 0 with negative values).
        plot = plot.include_y(if panel.percent { 100.0 } else { 1.0 });
        if i + 1 == panels.len() {
            plot = plot.x_axis_label(tr(lang, Msg::MonitorUiTimeAxis));
        }
        plot.show(ui, |p| {
            for (k, s) in spans.iter().enumerate() {
                let c = theme::severity(s.severity);
                let name = if i == 0 {
                    s.label.clone()
                } else {
                    String::new()
                };
                // Names of overlapping ranges side by side rather than on top of each other.
                let align = [Align2::LEFT_TOP, Align2::CENTER_TOP, Align2::RIGHT_TOP][k % 3];
                p.span(
                    Span::new(name, s.from..=s.to)
                        .fill(c.gamma_multiply(
                            crate::present::timeline::shade_alpha(s.severity) as f32
                        ))
                        .border_color(c.gamma_multiply(0.5))
                        .label_align(align),
                );
            }
            for series in &panel.series {
                for run in &series.runs {
                    p.line(
                        Line::new(series.label.clone(), PlotPoints::from(run.clone()))
                            .color(colour(crate::palette::series(series.colour_index))),
                    );
                }
            }
        });
        ui.add_space(4.0);
    }
}

/// The status line for a live watch or an opened trace.
pub fn status(lang: Lang, what: Option<&str>, file: Option<&str>, trace: &Trace) -> String {
    let samples = trace.samples.len().to_string();
    let duration = words::duration(lang, trace.duration_s());
    match (what, file) {
        (_, Some(f)) => trf(
            lang,
            Msg::MonitorUiTraceStatus,
            &[("file", f), ("samples", &samples), ("duration", &duration)],
        ),
        (what, None) => trf(
            lang,
            Msg::MonitorUiLiveStatus,
            &[
                ("what", what.unwrap_or(tr(lang, Msg::MonitorUiThisMachine))),
                ("samples", &samples),
                ("duration", &duration),
            ],
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::tick_label;

    #[test]
    fn tick_labels_carry_the_decimals_their_step_needs() {
        assert_eq!(tick_label(2500.0, 500.0), "2500");
        assert_eq!(tick_label(0.6, 0.2), "0.6");
        assert_eq!(tick_label(0.25, 0.05), "0.25");
        assert_eq!(tick_label(-1e-17, 0.1), "0.0");
        assert_eq!(tick_label(1.0, 0.5), "1.0");
    }
}
