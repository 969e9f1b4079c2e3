//! A watched run in words: the summary line, the peaks, the terminal's line per sample and
//! notes about a trace file.

use super::units::{duration, percent};
use crate::advisor::diagnose::{Peaks, Summary};
use crate::format;
use crate::i18n::{Lang, Msg, tr, trf};
use crate::trace::Sample;

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
    // A phrase around a value ("most swap in use …") is worded whole when the value is unknown.
    let phrase = |b: Option<u64>, known: Msg, unknown: Msg| match b {
        Some(b) => trf(lang, known, &[("v", &format::gib(b))]),
        None => tr(lang, unknown).to_string(),
    };
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
                    &match p.process_workers {
                        Some(0) => tr(lang, Msg::MonitorPeakWorkersNone).to_string(),
                        Some(n) => trf(
                            lang,
                            Msg::MonitorPeakWorkers,
                            &[("workers", &n.to_string())],
                        ),
                        None => tr(lang, Msg::MonitorPeakWorkersUnknown).to_string(),
                    },
                ),
            ],
        ));
    }
    lines.push(trf(
        lang,
        Msg::MonitorPeakMemory,
        &[
            (
                "available",
                &phrase(
                    p.mem_available_min_bytes,
                    Msg::MonitorPeakAvailable,
                    Msg::MonitorPeakAvailableUnknown,
                ),
            ),
            (
                "swap",
                &phrase(
                    p.swap_used_bytes,
                    Msg::MonitorPeakSwap,
                    Msg::MonitorPeakSwapUnknown,
                ),
            ),
            (
                "shm",
                &phrase(
                    p.shm_used_bytes,
                    Msg::MonitorPeakShm,
                    Msg::MonitorPeakShmUnknown,
                ),
            ),
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
