//! Words for live diagnosis: a diagnosis's title, explanation and advice, the peaks, and the
//! terminal's one-line status per sample. Used by the terminal, the window and reports, so a
//! diagnosis reads the same everywhere. Computes nothing: the numbers come from the
//! [`Summary`] and the samples.

use crate::advisor::diagnose::{Diagnosis, DiagnosisId, Evidence, Peaks, Summary};
use crate::format;
use crate::i18n::{Lang, Msg, tr, trf};
use crate::trace::metric::{Metric, segments_decimated};
use crate::trace::{Sample, Trace};

/// Seconds as "4.0 s", "3 min 20 s" or "2 h 5 min" / "4.0 秒", "3 分 20 秒".
pub fn duration(lang: Lang, s: f64) -> String {
    if !s.is_finite() || s < 0.0 {
        return format::unknown(lang);
    }
    if s < 60.0 {
        let n = if s < 10.0 && s.fract() != 0.0 {
            let two = format!("{s:.2}");
            two.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            format!("{s:.0}")
        };
        return trf(lang, Msg::MonitorUnitSeconds, &[("n", &n)]);
    }
    let total = s.round() as u64;
    if total < 3600 {
        let (m, sec) = (total / 60, total % 60);
        return trf(
            lang,
            Msg::MonitorUnitMinutes,
            &[("m", &m.to_string()), ("s", &sec.to_string())],
        );
    }
    let (h, m) = (total / 3600, total % 3600 / 60);
    trf(
        lang,
        Msg::MonitorUnitHours,
        &[("h", &h.to_string()), ("m", &m.to_string())],
    )
}

/// A rate in bytes per second: GB/s from 1 GB/s, else MB/s (10^n, as everywhere).
pub fn byte_rate(bytes_per_s: f64) -> String {
    if bytes_per_s >= 1e9 {
        format::gbps(bytes_per_s)
    } else {
        format::mbps(bytes_per_s)
    }
}

/// A percentage 0–100 (or more, CPU over cores): "97 %", "2.5 %".
pub fn percent(p: f64) -> String {
    if p < 10.0 && p.fract() != 0.0 {
        format!("{p:.1} %")
    } else {
        format!("{p:.0} %")
    }
}

/// One piece of evidence in words.
pub fn evidence(lang: Lang, e: &Evidence) -> String {
    match *e {
        Evidence::Bytes(b) => format::gib(b),
        Evidence::BytesPerSecond(r) => byte_rate(r),
        Evidence::Percent(p) => percent(p),
        Evidence::Share(s) => format::percent(s),
        Evidence::Seconds(s) => duration(lang, s),
        Evidence::PerSecond(n) => trf(lang, Msg::MonitorUnitPerS, &[("n", &format!("{n:.0}"))]),
        Evidence::Count(c) => c.to_string(),
        Evidence::Watts(w) => trf(lang, Msg::MonitorUnitWatts, &[("n", &format!("{w:.0}"))]),
        Evidence::Text(ref t) => t.clone(),
    }
}

/// Fills `msg` from a diagnosis's evidence; a placeholder it has no number for shows as
/// "unknown".
fn fill(lang: Lang, msg: Msg, d: &Diagnosis) -> String {
    let values: Vec<(&str, String)> = msg
        .placeholders()
        .iter()
        .map(|name| {
            let text = d
                .evidence
                .get(*name)
                .map_or_else(|| format::unknown(lang), |e| evidence(lang, e));
            (*name, text)
        })
        .collect();
    let args: Vec<(&str, &str)> = values.iter().map(|(k, v)| (*k, v.as_str())).collect();
    trf(lang, msg, &args)
}

/// The messages of a diagnosis: the title, then the sentences of its explanation (the causes
/// that its evidence shows).
fn messages(d: &Diagnosis) -> (Msg, Vec<Msg>) {
    let has = |k: &str| d.evidence.contains_key(k);
    use DiagnosisId as D;
    match d.id {
        D::GpuStarved => {
            let mut explain = vec![Msg::DiagnosisGpuStarvedExplain];
            if has("loader_cpu") {
                explain.push(Msg::DiagnosisGpuStarvedCauseLoader);
            }
            if has("host_cpu") {
                explain.push(Msg::DiagnosisGpuStarvedCauseHost);
            }
            if has("iowait") {
                explain.push(Msg::DiagnosisGpuStarvedCauseIo);
            }
            (Msg::DiagnosisGpuStarvedTitle, explain)
        }
        D::SwapThrashing => (
            Msg::DiagnosisSwapThrashingTitle,
            vec![Msg::DiagnosisSwapThrashingExplain],
        ),
        D::PageCacheThrashing => (
            Msg::DiagnosisPageCacheThrashingTitle,
            vec![Msg::DiagnosisPageCacheThrashingExplain],
        ),
        D::IoBound => (
            Msg::DiagnosisIoBoundTitle,
            vec![Msg::DiagnosisIoBoundExplain],
        ),
        D::ShmExhausted => (
            Msg::DiagnosisShmExhaustedTitle,
            vec![Msg::DiagnosisShmExhaustedExplain],
        ),
        D::OomKilled => {
            let mut explain = vec![Msg::DiagnosisOomKilledExplain];
            if has("lost_processes") {
                explain.push(Msg::DiagnosisOomKilledLost);
            }
            if has("cgroup_kills") && has("limit") {
                explain.push(Msg::DiagnosisOomKilledCgroup);
            }
            (Msg::DiagnosisOomKilledTitle, explain)
        }
        D::RamNearLimit if has("limit") => (
            Msg::DiagnosisRamNearLimitCgroupTitle,
            vec![Msg::DiagnosisRamNearLimitCgroupExplain],
        ),
        D::RamNearLimit => (
            Msg::DiagnosisRamNearLimitTitle,
            vec![Msg::DiagnosisRamNearLimitExplain],
        ),
        D::PcieSaturated => (
            Msg::DiagnosisPcieSaturatedTitle,
            vec![Msg::DiagnosisPcieSaturatedExplain],
        ),
        D::PowerUnstable => (
            Msg::DiagnosisPowerUnstableTitle,
            vec![Msg::DiagnosisPowerUnstableExplain],
        ),
    }
}

/// Every message a diagnosis uses, recommendations included (tests check their placeholders).
pub fn all_messages(d: &Diagnosis) -> Vec<Msg> {
    let (title, explain) = messages(d);
    let mut v = vec![title];
    v.extend(explain);
    v.extend(d.recommendations.iter().map(|r| super::rec_msg(*r)));
    v
}

/// A diagnosis's title, with numbers.
pub fn title(lang: Lang, d: &Diagnosis) -> String {
    fill(lang, messages(d).0, d)
}

/// A diagnosis's explanation: what it means and the causes its evidence shows.
pub fn explanation(lang: Lang, d: &Diagnosis) -> String {
    let sep = if lang == Lang::Zh { "" } else { " " };
    messages(d)
        .1
        .into_iter()
        .map(|m| fill(lang, m, d))
        .collect::<Vec<_>>()
        .join(sep)
}

/// What to do, most useful first, with numbers.
pub fn recommendations(lang: Lang, d: &Diagnosis) -> Vec<String> {
    d.recommendations
        .iter()
        .map(|r| fill(lang, super::rec_msg(*r), d))
        .collect()
}

/// When: "1 s – 116 s" (the trace's clock).
pub fn range(lang: Lang, d: &Diagnosis) -> String {
    trf(
        lang,
        Msg::MonitorRange,
        &[
            ("from", &duration(lang, d.from_s)),
            ("to", &duration(lang, d.to_s)),
        ],
    )
}

/// The title with its time range: "GPU 0 waits for data: … (1 s – 1 min 56 s)".
pub fn title_with_range(lang: Lang, d: &Diagnosis) -> String {
    trf(
        lang,
        Msg::MonitorTitledRange,
        &[("title", &title(lang, d)), ("range", &range(lang, d))],
    )
}

/// "57 samples over 58 s (every 1 s)."
pub fn summary_line(lang: Lang, s: &Summary) -> String {
    trf(
        lang,
        Msg::MonitorSummary,
        &[
            ("samples", &s.samples.to_string()),
            ("duration", &duration(lang, s.duration_s)),
            ("interval", &duration(lang, s.interval_s)),
        ],
    )
}

/// The peaks as lines: the watched processes (when watched), host memory, GPU memory (when
/// known).
pub fn peak_lines(lang: Lang, p: &Peaks) -> Vec<String> {
    let gib = |b: Option<u64>| format::gib_or_unknown(lang, b);
    let mut lines = Vec::new();
    if p.process_rss_bytes.is_some() || p.process_pss_bytes.is_some() {
        lines.push(trf(
            lang,
            Msg::MonitorPeakProcess,
            &[
                ("rss", &gib(p.process_rss_bytes)),
                ("pss", &gib(p.process_pss_bytes)),
                (
                    "cpu",
                    &p.process_cpu_percent
                        .map_or_else(|| format::unknown(lang), percent),
                ),
                (
                    "workers",
                    &format::count_or_unknown(lang, p.process_workers),
                ),
            ],
        ));
    }
    lines.push(trf(
        lang,
        Msg::MonitorPeakMemory,
        &[
            ("available", &gib(p.mem_available_min_bytes)),
            ("swap", &gib(p.swap_used_bytes)),
            ("shm", &gib(p.shm_used_bytes)),
        ],
    ));
    if let Some(g) = p.gpu_mem_used_bytes {
        lines.push(trf(
            lang,
            Msg::MonitorPeakGpu,
            &[("gpu_mem", &format::gib(g))],
        ));
    }
    lines
}

/// The terminal's status line for one sample: host memory, swap, CPU, each GPU, the watched
/// tree. Unknown values show as "unknown".
pub fn live_line(lang: Lang, s: &Sample) -> String {
    let unknown = || format::unknown(lang);
    let gib = |b: Option<u64>| format::gib_or_unknown(lang, b);
    let pct = |p: Option<f64>| p.map_or_else(unknown, percent);
    let num = |p: Option<f64>| p.map_or_else(unknown, |v| format!("{v:.0}"));
    let h = &s.host;
    let mut line = trf(
        lang,
        Msg::MonitorLiveHost,
        &[
            ("t", &duration(lang, s.t)),
            ("available", &gib(h.mem_available_bytes)),
            ("cache", &gib(h.page_cache_bytes)),
            ("swap", &gib(h.swap_used_bytes)),
            ("swap_in", &num(h.swap_in_pages_per_s)),
            ("swap_out", &num(h.swap_out_pages_per_s)),
            ("cpu", &pct(h.cpu_busy_percent)),
            ("iowait", &pct(h.iowait_percent)),
        ],
    );
    for g in &s.gpus {
        line.push_str(&trf(
            lang,
            Msg::MonitorLiveGpu,
            &[
                ("index", &g.index.to_string()),
                ("util", &pct(g.util_percent)),
                ("mem", &gib(g.mem_used_bytes)),
                (
                    "power",
                    &g.power_w.map_or_else(unknown, |w| {
                        trf(lang, Msg::MonitorUnitWatts, &[("n", &format!("{w:.0}"))])
                    }),
                ),
            ],
        ));
    }
    if let Some(p) = &s.process {
        line.push_str(&trf(
            lang,
            Msg::MonitorLiveProcess,
            &[
                ("pid", &p.pid.to_string()),
                ("rss", &gib(p.rss_bytes)),
                ("pss", &gib(p.pss_bytes)),
                ("cpu", &pct(p.cpu_percent)),
                ("workers", &format::count_or_unknown(lang, p.workers)),
            ],
        ));
    }
    line
}

/// The "nothing found" sentence.
pub fn none_found(lang: Lang) -> &'static str {
    tr(lang, Msg::MonitorNoDiagnoses)
}

/// A note about a trace file in words (a last line cut off, fields not known).
pub fn trace_note(lang: Lang, file: &str, n: &crate::trace::jsonl::TraceNote) -> String {
    use crate::trace::jsonl::TraceNote;
    match n {
        TraceNote::TruncatedLastLine(line) => trf(
            lang,
            Msg::MonitorTruncated,
            &[("file", file), ("line", &line.to_string())],
        ),
        TraceNote::IgnoredFields(f) => trf(
            lang,
            Msg::MonitorIgnored,
            &[("file", file), ("fields", &f.join(", "))],
        ),
    }
}

/// A diagnosis's short name for a chart's shading ("GPU starved" / "GPU 等数据").
pub fn short_name(lang: Lang, id: DiagnosisId) -> &'static str {
    use DiagnosisId as D;
    tr(
        lang,
        match id {
            D::GpuStarved => Msg::DiagnosisGpuStarvedShort,
            D::SwapThrashing => Msg::DiagnosisSwapThrashingShort,
            D::PageCacheThrashing => Msg::DiagnosisPageCacheThrashingShort,
            D::IoBound => Msg::DiagnosisIoBoundShort,
            D::ShmExhausted => Msg::DiagnosisShmExhaustedShort,
            D::OomKilled => Msg::DiagnosisOomKilledShort,
            D::RamNearLimit => Msg::DiagnosisRamNearLimitShort,
            D::PcieSaturated => Msg::DiagnosisPcieSaturatedShort,
            D::PowerUnstable => Msg::DiagnosisPowerUnstableShort,
        },
    )
}

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
    use crate::advisor::diagnose::diagnose;
    use crate::trace::synthetic;

    #[test]
    fn durations_read_naturally() {
        assert_eq!(duration(Lang::En, 4.0), "4 s");
        assert_eq!(duration(Lang::En, 0.5), "0.5 s");
        assert_eq!(duration(Lang::En, 0.25), "0.25 s");
        assert_eq!(duration(Lang::En, 200.0), "3 min 20 s");
        assert_eq!(duration(Lang::Zh, 200.0), "3 分 20 秒");
        assert_eq!(duration(Lang::Zh, 7500.0), "2 小时 5 分");
    }

    #[test]
    fn every_placeholder_of_every_diagnosis_has_a_number() {
        let mut traces = vec![
            synthetic::sawtooth(120, 4),
            synthetic::swap_storm(),
            synthetic::oom_kill(),
            synthetic::shm_filling(),
        ];
        traces.push(synthetic::build(60, |_, s| {
            s.host.disk_read_bytes_per_s = Some(600e6);
            s.host.iowait_percent = Some(40.0);
            s.gpus[0].pcie_rx_bytes_per_s = Some(30e9);
        }));
        let mut cgroup = synthetic::oom_kill();
        cgroup.header.profile.as_mut().unwrap().memory.limit_bytes = Some(16 << 30);
        for s in &mut cgroup.samples {
            s.host.cgroup_oom_kills_total = Some(if s.t >= 30.0 { 1 } else { 0 });
            s.host.cgroup_mem_used_bytes = Some(16 << 30);
        }
        traces.push(cgroup);
        let mut seen = std::collections::BTreeSet::new();
        for t in &traces {
            for d in diagnose(t).diagnoses {
                seen.insert(d.id);
                for msg in all_messages(&d) {
                    for name in msg.placeholders() {
                        assert!(
                            d.evidence.contains_key(*name),
                            "{:?}: {} needs {name}",
                            d.id,
                            msg.key()
                        );
                    }
                }
            }
        }
        assert_eq!(seen.len(), DiagnosisId::ALL.len(), "{seen:?}");
    }

    #[test]
    fn sawtooth_reads_with_its_numbers_in_both_languages() {
        let s = diagnose(&synthetic::sawtooth(120, 4));
        let d = &s.diagnoses[0];
        assert_eq!(
            title(Lang::En, d),
            "GPU 0 waits for data: busy 25.0 % of the time, one cycle every 4 s"
        );
        assert_eq!(
            title(Lang::Zh, d),
            "GPU 0 在等数据：只有 25.0 % 的时间在干活，每 4 秒一个周期"
        );
        let e = explanation(Lang::En, d);
        assert!(
            e.contains("29 cycles") && e.contains("100 % of a core each"),
            "{e}"
        );
        assert_eq!(range(Lang::En, d), "1 s – 1 min 56 s");
    }

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
        assert_eq!(sp[0].label, "OOM kill");
    }
}
