//! The live diagnosis as charts: which lines the timeline has (GPU utilisation per GPU,
//! memory, swap traffic, pressure), their legends and colours, and the shaded ranges of the
//! diagnoses. The window's Monitor page and the report's timeline draw the same charts from
//! here. Computes nothing: the values are the trace's, the ranges the summary's.

use super::monitor::short_name;
use crate::advisor::diagnose::Summary;
use crate::i18n::{Lang, Msg, tr, trf};
use crate::trace::Trace;
use crate::trace::metric::{Metric, segments_decimated};

/// One line of a timeline chart: its legend, colour and known stretches of `[t, value]`.
#[derive(Clone, Debug, PartialEq)]
pub struct TimelineSeries {
    /// Legend text.
    pub label: String,
    /// Position among the chart's lines, for its colour (`palette::series`): the same line has
    /// the same colour in the window and the PDF.
    pub colour_index: usize,
    /// Stretches of known values (a gap between them where the trace doesn't know).
    pub runs: Vec<Vec<[f64; 2]>>,
}

/// One chart of the timeline: a title (with the unit) and its lines.
#[derive(Clone, Debug, PartialEq)]
pub struct TimelinePanel {
    /// "GPU utilisation (%)".
    pub title: String,
    /// True for percentages: the axis runs 0–100.
    pub percent: bool,
    /// The lines.
    pub series: Vec<TimelineSeries>,
}

/// A shaded time range: one diagnosis.
#[derive(Clone, Debug, PartialEq)]
pub struct TimelineSpan {
    /// Start, seconds (half an interval before the first sample showing it).
    pub from: f64,
    /// End, seconds (half an interval after the last).
    pub to: f64,
    /// Colour.
    pub severity: crate::advisor::Severity,
    /// Short name.
    pub label: String,
}

/// The charts of a trace, as the window and the report draw them: GPU utilisation per GPU,
/// memory (available, page cache, swap and `/dev/shm` in use), swap traffic, and pressure. A line the trace
/// never knows is left out, and so is a chart with no line. At most about `max_points` points
/// per line ([`segments_decimated`] keeps the saw-tooth's extremes).
pub fn timeline(lang: Lang, trace: &Trace, max_points: usize) -> Vec<TimelinePanel> {
    let line = |label: String, i: usize, m: Metric| TimelineSeries {
        label,
        colour_index: i,
        runs: segments_decimated(trace, m, max_points),
    };
    let gpus = trace
        .gpu_indices()
        .into_iter()
        .enumerate()
        .map(|(i, g)| {
            let label = trf(lang, Msg::MonitorUiGpuLine, &[("index", &g.to_string())]);
            line(label, i, Metric::GpuUtil(g))
        })
        .collect();
    let named = |items: &[(Msg, Metric)]| -> Vec<TimelineSeries> {
        items
            .iter()
            .enumerate()
            .map(|(i, (msg, m))| line(tr(lang, *msg).to_string(), i, *m))
            .collect()
    };
    let panels = [
        (Msg::MonitorUiChartGpu, true, gpus),
        (
            Msg::MonitorUiChartMemory,
            false,
            named(&[
                (Msg::MonitorUiAvailable, Metric::MemAvailableGib),
                (Msg::MonitorUiCache, Metric::PageCacheGib),
                (Msg::MonitorUiSwapUsed, Metric::SwapUsedGib),
                (Msg::MonitorUiShmUsed, Metric::ShmUsedGib),
            ]),
        ),
        (
            Msg::MonitorUiChartSwap,
            false,
            named(&[
                (Msg::MonitorUiSwapIn, Metric::SwapInPagesPerS),
                (Msg::MonitorUiSwapOut, Metric::SwapOutPagesPerS),
            ]),
        ),
        (
            Msg::MonitorUiChartPsi,
            true,
            named(&[
                (Msg::MonitorUiPsiMemorySome, Metric::PsiMemorySome),
                (Msg::MonitorUiPsiMemoryFull, Metric::PsiMemoryFull),
                (Msg::MonitorUiPsiIoSome, Metric::PsiIoSome),
            ]),
        ),
    ];
    panels
        .into_iter()
        .map(|(title, percent, series)| TimelinePanel {
            title: tr(lang, title).to_string(),
            percent,
            series: series.into_iter().filter(|s| !s.runs.is_empty()).collect(),
        })
        .filter(|p| !p.series.is_empty())
        .collect()
}

/// How strongly a diagnosis's range is shaded, 0–1: information is lighter, so that a
/// symptom (power swings) doesn't hide the charts under its cause's colour.
pub fn shade_alpha(s: crate::advisor::Severity) -> f64 {
    match s {
        crate::advisor::Severity::Critical => 0.18,
        crate::advisor::Severity::Warning => 0.16,
        crate::advisor::Severity::Info => 0.07,
    }
}

/// The shaded ranges of a summary's diagnoses, widened by half an interval on each side so
/// that a diagnosis of one sample still shows.
pub fn spans(lang: Lang, summary: &Summary) -> Vec<TimelineSpan> {
    let half = summary.interval_s / 2.0;
    summary
        .diagnoses
        .iter()
        .map(|d| TimelineSpan {
            from: d.from_s - half,
            to: d.to_s + half,
            severity: d.severity,
            label: short_name(lang, d.id).to_string(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::synthetic;

    #[test]
    fn timeline_leaves_out_what_the_trace_never_knew() {
        let mut t = synthetic::sawtooth(20, 4);
        for s in &mut t.samples {
            s.host.psi_memory_some_avg10 = None;
            s.host.psi_memory_full_avg10 = None;
            s.host.psi_io_some_avg10 = None;
            s.host.swap_used_bytes = None;
        }
        let panels = timeline(Lang::En, &t, 500);
        let titles: Vec<&str> = panels.iter().map(|p| p.title.as_str()).collect();
        assert_eq!(
            titles,
            ["GPU utilisation (%)", "Memory (GiB)", "Swap (pages/s)"]
        );
        let memory: Vec<&str> = panels[1].series.iter().map(|s| s.label.as_str()).collect();
        assert_eq!(memory, ["available", "page cache", "/dev/shm in use"]);
        // GPU 0 busy at t = 0: 98 %.
        assert_eq!(panels[0].series[0].runs[0][0], [0.0, 98.0]);
        let s = crate::advisor::diagnose::diagnose(&synthetic::oom_kill());
        let sp = spans(Lang::Zh, &s);
        assert_eq!((sp[0].from, sp[0].to), (28.5, 30.5));
        assert_eq!(sp[0].label, "OOM 杀进程");
    }
}
